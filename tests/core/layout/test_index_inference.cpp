// SPDX-License-Identifier: Apache-2.0
// Index inference reproduces TileLang's (TVM's iterator-map rewrite), not a reading of values:
// the goldens (family "infer") check random maps cell by cell; these pin the rules one by one.
#include "tilescope/layout/layout.h"
#include "tilescope/notation/mapping.h"

#include <chrono>
#include <gtest/gtest.h>

namespace {

std::vector<std::int64_t> locals(const std::string& text) {
    return std::get<ts::Fragment>(ts::parseMapping(text)).evaluate().local;
}

std::vector<std::int64_t> rowMajor(std::int64_t n) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k)
        v[static_cast<std::size_t>(k)] = k;
    return v;
}

TEST(IndexInference, OpaqueOperatorsUseNoPieceSoTheIndexIsTheFlatCell) {
    // xor, shifts, and/or, min/max and products of variables are not iterator expressions for
    // TVM: every input piece stays unused and the index is the row-major cell number.
    for (const char* th : {"i ^ j", "(i << 1) + (j >> 2)", "(i & 3) | (j & 4)", "T.min(i, j)",
                           "T.max(i, j)", "i * j"})
        EXPECT_EQ(
            locals(std::string("T.Fragment([8, 8], forward_thread_fn=lambda i, j: ") + th + ")"),
            rowMajor(64))
            << th;
}

TEST(IndexInference, AffinePiecesAreLeftOutOfTheIndex) {
    // thread = i % 8 * 16 + j // 8 on 128x128 -> index i // 8 * 8 + j % 8 (TileLang's docs).
    auto l = locals("T.Fragment([128, 128], forward_thread_fn=lambda i, j: i % 8 * 16 + j // 8)");
    for (std::int64_t i : {0, 7, 8, 100})
        for (std::int64_t j : {0, 5, 8, 127})
            EXPECT_EQ(l[static_cast<std::size_t>(i * 128 + j)], i / 8 * 8 + j % 8);
}

TEST(IndexInference, FusedSumUnderNonPowerOfTwoModulo) {
    // (i * 8 + j) % 3: TVM fuses i * 8 + j into one 64-wide iterator and splits it at 3, so
    // the index is (i * 8 + j) // 3 % 21 (TileLang prints (_i * 8 + _j) % 63 // 3).
    auto l = locals("T.Fragment([8, 8], forward_thread_fn=lambda i, j: (i * 8 + j) % 3)");
    for (std::int64_t c = 0; c < 64; ++c)
        EXPECT_EQ(l[static_cast<std::size_t>(c)], c / 3 % 21) << c;
}

TEST(IndexInference, ModuloOfAPartialSplitStaysOpaque) {
    // i % 4 % 3: TileLang's TVM leaves it unresolved, so i is wholly in the index.
    EXPECT_EQ(locals("T.Fragment([64], forward_thread_fn=lambda i: i % 4 % 3)"), rowMajor(64));
    // i // 4 % 3 reaches the top of i: resolved, pieces i % 4 and i // 12 are left.
    auto l = locals("T.Fragment([64], forward_thread_fn=lambda i: i // 4 % 3)");
    EXPECT_EQ(l[5], 1);  // i % 4 = 1, i // 12 = 0
    EXPECT_EQ(l[13], 5); // i // 12 = 1 -> 1 * 4 + 1
}

TEST(IndexInference, TileLangsDivisibilityFailureIsAnError) {
    // TileLang: "Cannot prove divisible for 3 and 2" (golden infer_027's family); Tilescope must
    // refuse the same map rather than invent an index.
    try {
        ts::parseMapping("T.Fragment([64], forward_thread_fn=lambda i: i % 3 + i // 2 % 2 * 4)");
        FAIL() << "accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("Cannot prove divisible"), std::string::npos)
            << e.what();
    }
}

} // namespace

namespace {

std::string refusal(const std::string& text) {
    try {
        std::get<ts::Fragment>(ts::parseMapping(text)).evaluate();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

std::vector<std::int64_t> byColumn(std::int64_t rows, std::int64_t cols) {
    std::vector<std::int64_t> v;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            v.push_back(c);
    return v;
}

// TileLang infers from the thread map after TVM's Analyzer::Simplify, whose rewrites can make an
// opaque term affine (or an affine one opaque). Each expectation is what TileLang 0.1.15 infers
// (its printed index in the comment).
TEST(IndexInference, FollowsTvmsSimplificationOfTheThreadMap) {
    // T.truncdiv of a non-negative sum: `_i * 2 + T.Div(_j, 2)`, index `_j`.
    EXPECT_EQ(locals("T.Fragment([6, 4], forward_thread_fn=lambda i, j: T.truncdiv(i * 4 + j, 2))"),
              byColumn(6, 4));
    // max(i, j) + min(i, j) is i + j: every piece used, index 0.
    EXPECT_EQ(locals("T.Fragment([16, 16], forward_thread_fn=lambda i, j: T.max(i, j) + "
                     "T.min(i, j))"),
              std::vector<std::int64_t>(256, 0));
    // i * (j + 1) - i * j is i: index `_j`.
    EXPECT_EQ(locals("T.Fragment([16, 16], forward_thread_fn=lambda i, j: i * (j + 1) - i * j)"),
              byColumn(16, 16));
    // Shifts by 0 are the value itself: index `_j`.
    for (const char* th : {"i >> 0", "T.shift_left(i, 0)", "(i << 0) * 1"})
        EXPECT_EQ(
            locals(std::string("T.Fragment([16, 16], forward_thread_fn=lambda i, j: ") + th + ")"),
            byColumn(16, 16))
            << th;
    // v * 4 + v * q factors into (q + 4) * v, a product: no piece used, index `_i * 16 + _j`.
    EXPECT_EQ(locals("T.Fragment([16, 16], forward_thread_fn=lambda i, j: i * 4 + i * j)"),
              rowMajor(256));
    // ((j + 1) % 2 + j % 2) * 16 is the constant 16: index `_i * 4 + _j`.
    EXPECT_EQ(locals("T.Fragment([6, 4], forward_thread_fn=lambda i, j: ((j + 1) % 2 + j % 2) * "
                     "16)"),
              rowMajor(24));
}

TEST(IndexInference, RefusesByNameWhereTileLangsOutcomeRestsOnZ3) {
    // (k * 2 + ((i % 3) << 2)) % 16: whether k stays an iterator depends on TVM proving
    // `((i % 3) << 2) % 2 == 0`, which its rules do not and Z3 (under a resource limit) may.
    const std::string why = refusal(
        "T.Fragment([4, 2, 8], forward_thread_fn=lambda i, j, k: (((i % 3) << 2) + k * 2) % 16)");
    EXPECT_NE(why.find("beyond what Tilescope reproduces"), std::string::npos) << why;
    EXPECT_NE(why.find("Z3"), std::string::npos) << why;
    // A fact that is false somewhere is never proved: no refusal, the split is not made.
    EXPECT_EQ(refusal("T.Fragment([4, 8], forward_thread_fn=lambda i, j: (j * 2 + (i ^ 1)) % 8)"),
              "");
}

TEST(IndexInference, RefusesAConditionThatIsConstantButNotDecided) {
    // i * i % 4 is never 2, but no rule of TVM's shows it; were the condition decided, the
    // select would be its branch `i` and i's pieces used. Tilescope does not guess.
    const std::string why = refusal(
        "T.Fragment([8, 8], forward_thread_fn=lambda i, j: T.if_then_else(i * i % 4 != 2, i, j))");
    EXPECT_NE(why.find("beyond what Tilescope reproduces"), std::string::npos) << why;
    EXPECT_NE(why.find("i * _i % 4 != 2"), std::string::npos) << why;
}

// TileLang's indices are int32: TVM refuses a shift by 32 or more (or a negative one) where the
// layout is built, or where a cell is evaluated for a count that varies. 64-bit evaluation
// would instead give 0 (`i >> 40`) or a thread beyond int32.
TEST(Shifts, ByThirtyTwoOrMoreAreRefusedNamingTheShift) {
    for (const char* th : {"i << 32", "(i >> 40) + j", "T.shift_right(i, -1)", "(i << 33) * 0 + j",
                           "T.shift_left(3, 40) + i"}) {
        const std::string why =
            refusal(std::string("T.Fragment([4, 4], forward_thread_fn=lambda i, j: ") + th + ")");
        EXPECT_NE(why.find("Shift amount must be non-negative and less than 32"), std::string::npos)
            << th << ": " << why;
        EXPECT_NE(why.find("shift"), std::string::npos) << th << ": " << why;
    }
    // A count that varies: the first cell where it reaches 32 is named.
    const std::string why =
        refusal("T.Fragment([4, 40], forward_thread_fn=lambda i, j: (i << j) % 8)");
    EXPECT_NE(why.find("`_i << _j` is by 32 at cell (0, 32)"), std::string::npos) << why;
    EXPECT_THROW(ts::parseMapping("T.Layout([4, 4], lambda i, j: i >> (j - j + 33))"),
                 std::exception);
    // Counts within 0..31 are fine.
    EXPECT_EQ(refusal("T.Fragment([4, 4], forward_thread_fn=lambda i, j: (i << 3) + (j >> 1))"),
              "");
}

} // namespace

namespace {

// At a cell TVM folds int32 constants: a shifted value beyond int32 is a literal it refuses, and
// a sum or product beyond it wraps around. Evaluated on the form TVM stores, so a product TVM
// simplified away (`(i * 1000000000) % 64` is 0) is fine.
TEST(Shifts, ValuesBeyondInt32AreRefusedWhereTileLangWouldRefuseOrWrap) {
    std::string why = refusal("T.Fragment([32], forward_thread_fn=lambda i: ((i << 31) + i) % 32)");
    EXPECT_NE(why.find("`_i << 31` is 2147483648 at cell (1)"), std::string::npos) << why;
    EXPECT_NE(why.find("Literal value 2147483648 exceeds maximum of int32"), std::string::npos)
        << why;
    why = refusal("T.Fragment([8], forward_thread_fn=lambda i: ((i * 1000000000) ^ 1) % 8)");
    EXPECT_NE(why.find("`_i * 1000000000` is 3000000000 at cell (3)"), std::string::npos) << why;
    EXPECT_NE(why.find("wraps around"), std::string::npos) << why;
    EXPECT_EQ(refusal("T.Fragment([8, 4], forward_thread_fn=lambda i, j: (i * 1000000000) % 64 + "
                      "j)"),
              "");
}

// A value is checked over the variables it uses: `rep * rep` over the replicas alone, so a
// fragment with many replicas is answered at once, naming the first cell, replica by replica.
// A value using so many coordinates that checking it would cost more than evaluating the
// largest layout is refused by name, never passed unchecked.
TEST(Shifts, ValuesAreCheckedOverTheVariablesTheyUse) {
    std::string why = refusal("T.Fragment([32, 32], forward_thread_fn=lambda i, j, rep: (i + j + "
                              "rep * rep) % 32, replicate=65535)");
    EXPECT_NE(why.find("`_rep * _rep` is 2147488281 at cell (0, 0) (replica 46341)"),
              std::string::npos)
        << why;
    why = refusal("T.Fragment([4, 8], forward_thread_fn=lambda i, j: (j * 400000001 + i) % 32)");
    EXPECT_NE(why.find("`_j * 400000001` is 2400000006 at cell (0, 6)"), std::string::npos) << why;
    why =
        refusal("T.Fragment([1024, 1024], forward_thread_fn=lambda i, j, rep: (i * j * rep) % 32, "
                "replicate=65535)");
    EXPECT_NE(why.find("cannot be shown to stay within int32"), std::string::npos) << why;
    EXPECT_EQ(
        refusal("T.Fragment([32, 32], forward_thread_fn=lambda i, j, rep: (i + j * 70000000 + "
                "rep * 7) % 32, replicate=4)"),
        "");
}

} // namespace

namespace {

// TVM's rules re-simplify operands inside rules, so nested truncdivs cost exponentially (twenty
// levels took 14 s): past a budget the port says so instead of hanging.
TEST(IndexInference, DeepNestingIsRefusedNotWaitedFor) {
    std::string e = "i";
    for (int k = 0; k < 30; ++k)
        e = "T.truncdiv(" + e + " + j, 2)";
    const auto t0 = std::chrono::steady_clock::now();
    const std::string why =
        refusal("T.Fragment([16, 16], forward_thread_fn=lambda i, j: " + e + ")");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_NE(why.find("nested too deeply"), std::string::npos) << why;
}

} // namespace
