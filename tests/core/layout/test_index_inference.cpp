// SPDX-License-Identifier: Apache-2.0
// Index inference reproduces TileLang's (TVM's iterator-map rewrite), not a reading of values:
// the goldens (family "infer") check random maps cell by cell; these pin the rules one by one.
#include "tilescope/layout/layout.h"
#include "tilescope/notation/mapping.h"

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
