// SPDX-License-Identifier: Apache-2.0
// Why TileLang raised a conflict whose two printed layouts are equal, and the labels of a
// conflict's sides, on real TileLang 0.1.15 logs (tools/gen_logs.py).
#include "tilescope/layout/layout_diff.h"
#include "tilescope/trace/conflict_reason.h"
#include "tilescope/trace/dump.h"

#include <gtest/gtest.h>

using namespace ts;

namespace {
const std::string kLogs = std::string(TILESCOPE_SOURCE_DIR) + "/tests/data/logs/";

const dump::Event* firstOf(const std::vector<dump::Event>& ev, dump::EventKind k) {
    for (const auto& e : ev)
        if (e.kind == k) return &e;
    return nullptr;
}
} // namespace

// `y[i, j] = y[i, j] + C[j, i]` after a loop that laid y out like C: TileLang prints the loop
// and the fragment layout identically and still raises the conflict (it compares threads at C's
// transposed indices, which the log does not print). The reason says that, naming C.
TEST(ConflictReason, ParallelConflictWithEqualLayoutsSaysWhy) {
    auto ev = dump::parseFile(kLogs + "conflict_parallel_transposed.log");
    const dump::Event* e = firstOf(ev, dump::EventKind::ParallelConflict);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->buffer, "C");
    EXPECT_EQ(e->other, "y");
    auto [loop, frag] = e->comparedLayouts();
    ASSERT_TRUE(loop && frag && loop->value && frag->value);
    const LayoutDiff d = diffLayouts(*loop->value, *frag->value, "loop", "fragment");
    EXPECT_EQ(d.counts.differing(), 0);
    EXPECT_EQ(d.counts.cells, 1024);
    const std::string why = dump::equalLayoutsReason(*e);
    EXPECT_NE(why.find("ProveFragmentContains"), std::string::npos) << why;
    EXPECT_NE(why.find("element of C the loop body accesses"), std::string::npos) << why;
    EXPECT_NE(why.find("transposed"), std::string::npos) << why;
    // "between C and y": the fragment checked is C's, the loop's layout came from y.
    EXPECT_EQ(dump::sideLabel(*e, *loop), "loop · T.Parallel (from y)");
    EXPECT_EQ(dump::sideLabel(*e, *frag), "fragment · C");
}

TEST(ConflictReason, LabelsOfTheOtherKinds) {
    auto ev = dump::parseFile(kLogs + "conflict_gemm_transpose_A.log");
    const dump::Event* e = firstOf(ev, dump::EventKind::Conflict);
    ASSERT_NE(e, nullptr);
    auto [cur, prev] = e->comparedLayouts();
    ASSERT_TRUE(cur && prev);
    EXPECT_EQ(dump::sideLabel(*e, *cur), "current · " + e->buffer);
    EXPECT_EQ(dump::sideLabel(*e, *prev), "previous · " + e->buffer);
    EXPECT_NE(dump::equalLayoutsReason(*e).find("StructuralEqual"), std::string::npos);
    // An inferred layout is no conflict: nothing to explain.
    const auto add = dump::parseFile(kLogs + "elementwise_add.log");
    const dump::Event* inferred = firstOf(add, dump::EventKind::Inferred);
    ASSERT_NE(inferred, nullptr);
    EXPECT_EQ(dump::equalLayoutsReason(*inferred), "");
}
