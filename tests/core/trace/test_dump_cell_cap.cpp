// SPDX-License-Identifier: Apache-2.0
// ParserOptions::maxCells: a layout whose evaluation would compute more cells than the cap (each
// replica of a fragment's cell counted) is that layout's error, and nothing of it is evaluated.
#include "tilescope/trace/dump.h"

#include <gtest/gtest.h>

using namespace ts::dump;

namespace {

// 64 cells whose last thread is -1: evaluating it fails, so an error naming the cap rather than
// the negative thread shows that the cap came first.
const char* kNegativeLast =
    "x = Fragment((8, 8) -> (1,), replicate: 1, thread: 64, forward_thread: "
    "62 - _i * 8 - _j, forward_index: (0,))\n";

// 16 cells x 4 replicas = 64 evaluated; TileLang's printed extent (60) is not what the cells give.
const char* kReplicated = "y = Fragment((4, 4) -> (1,), replicate: 4, thread: 60, forward_thread: "
                          "_i * 4 + _j + 16 * _rep, forward_index: (0,))\n";

Event only(const std::string& log, std::int64_t maxCells) {
    ParserOptions o;
    o.maxCells = maxCells;
    std::vector<Event> ev = parseText(log, o);
    EXPECT_EQ(ev.size(), 1u);
    return ev.empty() ? Event{} : ev[0];
}

} // namespace

TEST(DumpCellCap, OverTheCapIsTheLayoutsErrorBeforeAnyEvaluation) {
    Event e = only(kNegativeLast, 63);
    ASSERT_EQ(e.layouts.size(), 1u);
    EXPECT_FALSE(e.layouts[0].value);
    EXPECT_EQ(e.layouts[0].error, "shape [8, 8] has 64 cells, over this parser's limit of 63 (not "
                                  "evaluated)");
    EXPECT_EQ(e.problem, "line 1: layout: " + e.layouts[0].error);
    // At the cap, and without one, it is evaluated: the negative thread is found.
    for (std::int64_t cap : {64, 0}) {
        e = only(kNegativeLast, cap);
        ASSERT_EQ(e.layouts.size(), 1u);
        EXPECT_FALSE(e.layouts[0].value);
        EXPECT_NE(e.layouts[0].error.find("the thread of cell (7, 7) is -1"), std::string::npos)
            << e.layouts[0].error;
    }
}

TEST(DumpCellCap, ReplicasCountAndAtTheCapTheLayoutIsEvaluated) {
    Event e = only(kReplicated, 63);
    ASSERT_EQ(e.layouts.size(), 1u);
    EXPECT_FALSE(e.layouts[0].value);
    EXPECT_NE(e.layouts[0].error.find("16 cells x 4 replicas = 64 to evaluate, over this parser's "
                                      "limit of 63"),
              std::string::npos)
        << e.layouts[0].error;
    EXPECT_TRUE(e.layouts[0].note.empty()) << e.layouts[0].note;

    e = only(kReplicated, 64);
    EXPECT_TRUE(e.ok()) << e.problem;
    ASSERT_EQ(e.layouts.size(), 1u);
    ASSERT_TRUE(e.layouts[0].value);
    EXPECT_FALSE(e.layouts[0].mapping.empty());
    // The note comes from the same evaluation, as parseRepr gives it.
    std::string note;
    (void)parseRepr(e.layouts[0].raw, &note);
    EXPECT_EQ(e.layouts[0].note, "TileLang printed thread extent 60, the cells give 64");
    EXPECT_EQ(e.layouts[0].note, note);
}

TEST(DumpCellCap, AVisualBlockOverTheCapPointsAtItsShapeLine) {
    const std::string block = "c inferred layout:\n  Shape: (8, 8) -> (1,)\n  Thread: _i * 8 + _j\n"
                              "  Index:  (0,)\n  Replicate:  1\n";
    Event e = only(block, 63);
    EXPECT_EQ(e.problem, "line 2: Shape: shape [8, 8] has 64 cells, over this parser's limit of 63 "
                         "(not evaluated)");
    e = only(block, 64);
    EXPECT_TRUE(e.ok()) << e.problem;
    ASSERT_EQ(e.layouts.size(), 1u);
    EXPECT_TRUE(e.layouts[0].value);
}
