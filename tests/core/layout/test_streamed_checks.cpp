// SPDX-License-Identifier: Apache-2.0
// The checks that stream over a layout's values instead of building its table (one-to-one and
// onto, register sharing) must answer exactly as the table does, and evaluation over shapes
// with extent-1 dimensions must give the same cells and name failing cells in the caller's shape.
#include "tilescope/layout/slot_collisions.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

namespace {

ts::Layout layout(const std::string& s) {
    return std::get<ts::Layout>(ts::parseMapping(s));
}

// What the table says: repeated positions, and whether every position of the output shape is
// reached.
struct TableAnswer {
    bool injective = true, onto = true;
};
TableAnswer fromTable(const ts::Layout& l) {
    const ts::LayoutTable t = l.evaluate();
    std::set<std::vector<std::int64_t>> seen;
    TableAnswer a;
    for (std::int64_t p = 0; p < t.cells(); ++p) {
        std::vector<std::int64_t> v(t.out.begin() + p * t.outRank,
                                    t.out.begin() + (p + 1) * t.outRank);
        a.injective = seen.insert(v).second && a.injective;
    }
    std::int64_t space = 1;
    for (std::int64_t e : t.outputShape)
        space *= e;
    a.onto = a.injective && space == t.cells();
    return a;
}

TEST(StreamedChecks, OneToOneAndOntoAgreeWithTheTableOnRandomLayouts) {
    std::mt19937 rng(20261201);
    const std::vector<std::string> terms = {"i",     "j",         "i % 4",  "i // 4",
                                            "j % 8", "j // 8",    "i ^ j",  "(i + j) % 8",
                                            "j * 2", "i * 8 + j", "j // 2", "i % 2 * 4"};
    int injective = 0, bijective = 0, checked = 0;
    for (int it = 0; it < 400; ++it) {
        const int rows = 1 << (rng() % 5), cols = 1 << (rng() % 5);
        auto pick = [&] { return terms[rng() % terms.size()]; };
        const std::string a = pick() + " * " + std::to_string(1 + rng() % 4) + " + " + pick();
        const std::string b = pick();
        const std::string text = "T.Layout([" + std::to_string(rows) + ", " + std::to_string(cols) +
                                 "], lambda i, j: (" + a + ", " + b + "))";
        const ts::Layout l = layout(text);
        const TableAnswer want = fromTable(l);
        EXPECT_EQ(!l.findCollision().has_value(), want.injective) << text;
        EXPECT_EQ(!l.bijectivityProblem().has_value(), want.onto) << text;
        injective += want.injective;
        bijective += want.onto;
        ++checked;
    }
    // Both answers occur, so neither branch is vacuous.
    EXPECT_GT(injective, 40);
    EXPECT_GT(bijective, 20);
    EXPECT_GT(checked - injective, 40);
}

TEST(StreamedChecks, LargeBijectionAcrossChunksAndACollisionBetweenThem) {
    // 2^21 cells: several chunks where there are several cores. The transpose is one-to-one;
    // folding the last row onto the first repeats positions that different chunks write.
    EXPECT_FALSE(layout("T.Layout([2048, 1024], lambda i, j: (j, i))").bijectivityProblem());
    const auto c = layout("T.Layout([2048, 1024], lambda i, j: (i % 2047, j))").findCollision();
    ASSERT_TRUE(c.has_value());
    EXPECT_EQ(c->first, (std::vector<std::int64_t>{0, 0}));
    EXPECT_EQ(c->second, (std::vector<std::int64_t>{2047, 0}));
}

TEST(StreamedChecks, HolesAndNegativeValuesStillNamedByTheTable) {
    const auto holes = layout("T.Layout([4, 4], lambda i, j: (i * 2, j))").bijectivityProblem();
    ASSERT_TRUE(holes.has_value());
    EXPECT_NE(holes->find("never reached"), std::string::npos) << *holes;
    EXPECT_THROW(layout("T.Layout([4, 4], lambda i, j: (i - 2, j))").bijectivityProblem(),
                 ts::EvalError);
}

TEST(StreamedChecks, GemmFragmentsOfEverySizeAreLowerable) {
    // T.gemm's accumulator is checked one-to-one while it is built; the largest drawable one
    // must pass through the streamed check (its table would be 256 MB).
    for (const char* text :
         {"make_gemm_c_fragment((64, 64), 128)", "make_gemm_c_fragment((4096, 4096), 128)"}) {
        const ts::Mapping m = ts::parseMapping(text);
        EXPECT_FALSE(std::get<ts::Fragment>(m).asLayout().bijectivityProblem()) << text;
    }
}

TEST(UnitDims, SameCellsWithAndWithoutExtentOneDimensions) {
    const ts::LayoutTable a =
        layout("T.Layout([8, 1, 16, 1], lambda i, j, k, l: (i * 16 + k + j * 5 + l * 7, k ^ i))")
            .evaluate();
    const ts::LayoutTable b =
        layout("T.Layout([8, 16], lambda i, k: (i * 16 + k, k ^ i))").evaluate();
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(a.outputShape, b.outputShape);
    EXPECT_EQ(a.inputShape, (ts::Shape{8, 1, 16, 1}));
}

TEST(UnitDims, FailingCellIsNamedInTheFullShape) {
    try {
        layout("T.Layout([4, 1, 8], lambda i, j, k: (i // (k - 3),))").evaluate();
        FAIL() << "no error";
    } catch (const ts::EvalError& e) {
        EXPECT_EQ(e.cell(), (std::vector<std::int64_t>{0, 0, 3}));
        EXPECT_NE(std::string(e.what()).find("at cell (0, 0, 3)"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find("at cell (0, 3)"), std::string::npos) << e.what();
    }
}

TEST(StreamedChecks, SlotCollisionsWithAndWithoutSharing) {
    const ts::Mapping none = ts::parseMapping("make_gemm_c_fragment((64, 64), 128)");
    EXPECT_FALSE(ts::findSlotCollisions(std::get<ts::Fragment>(none).evaluate()).any());
    const ts::Mapping shared = ts::parseMapping("T.Fragment([8, 8], forward_thread_fn=lambda i, j: "
                                                "i, forward_index_fn=lambda i, j: j % 4)");
    const ts::SlotCollisions sc = ts::findSlotCollisions(std::get<ts::Fragment>(shared).evaluate());
    EXPECT_EQ(sc.elements(), 64);
    EXPECT_EQ(sc.sharedSlots, 32);
}

} // namespace
