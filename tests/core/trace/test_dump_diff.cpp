// SPDX-License-Identifier: Apache-2.0
// Cell-by-cell layout diff and its plain-language relations; the CLI's import-dump and diff
// commands.
#include "tilescope/device/subprocess.h"
#include "tilescope/layout/layout_diff.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ts;

namespace {

Mapping M(const std::string& text) {
    return dump::parseAnyLayoutText(text);
}

bool hasRelation(const LayoutDiff& d, const std::string& words) {
    for (const auto& r : d.relations)
        if (r.find(words) != std::string::npos) return true;
    return false;
}

std::string rel(const LayoutDiff& d) {
    std::string s;
    for (const auto& r : d.relations)
        s += r + " | ";
    return s + d.summary;
}

const std::string kLogs = std::string(TILESCOPE_SOURCE_DIR) + "/tests/data/logs/";

} // namespace

TEST(LayoutDiff, IdenticalUpToExpressionText) {
    auto d = diffLayouts(M("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i * 4 + j // 2, "
                           "forward_index_fn=lambda i, j: j % 2)"),
                         M("T.Fragment([8, 8], forward_thread_fn=lambda i, j: j // 2 + 4 * i, "
                           "forward_index_fn=lambda i, j: j - j // 2 * 2)"));
    EXPECT_EQ(d.counts.cells, 64);
    EXPECT_EQ(d.counts.same, 64);
    EXPECT_TRUE(hasRelation(d, "identical")) << rel(d);
    EXPECT_NE(d.summary.find("No differences"), std::string::npos);
}

TEST(LayoutDiff, RealTransposeConflict) {
    auto ev = dump::parseFile(kLogs + "conflict_gemm_transpose_A.log");
    ASSERT_FALSE(ev.empty());
    const auto& e = ev[0];
    ASSERT_EQ(e.kind, dump::EventKind::Conflict);
    auto d = diffLayouts(*e.layout("current")->value, *e.layout("previous")->value, "current",
                         "previous");
    EXPECT_EQ(d.counts.cells, 64 * 64);
    EXPECT_GT(d.counts.thread, 0);
    EXPECT_EQ(d.counts.replica, 0);
    EXPECT_EQ(d.counts.shape, 0);
    EXPECT_TRUE(hasRelation(d, "previous is current transposed")) << rel(d);
    // The diagonal agrees: a transpose keeps (i, i).
    for (int i = 0; i < 64; ++i)
        EXPECT_EQ(d.at(i, i), kDiffSame);
}

TEST(LayoutDiff, RealParallelConflictIsReplicatedVsNot) {
    auto ev = dump::parseFile(kLogs + "conflict_parallel_cast.log");
    const dump::Event* e = nullptr;
    for (const auto& x : ev)
        if (x.kind == dump::EventKind::ParallelConflict) e = &x;
    ASSERT_TRUE(e);
    auto d =
        diffLayouts(*e->layout("loop")->value, *e->layout("fragment")->value, "loop", "fragment");
    EXPECT_EQ(d.counts.replica, 16 * 32);
    EXPECT_EQ(d.counts.thread, 0); // the fragment's thread is one of the loop's replicas
    EXPECT_TRUE(hasRelation(d, "replicated vs not")) << rel(d);
    EXPECT_TRUE(hasRelation(d, "loop replicates every element on 4 threads")) << rel(d);
    EXPECT_EQ(d.at(0, 0) & kDiffReplica, kDiffReplica);
}

// Every conflict in the real logs names the two layouts it compares, in their display order;
// other events compare none.
TEST(LayoutDiff, ConflictsNameTheirTwoLayouts) {
    int conflicts = 0;
    for (const char* log : {"conflict_parallel_cast.log", "conflict_gemm_transpose_A.log",
                            "conflict_reduce.log", "flash_attn_fwd.log"}) {
        for (const auto& e : dump::parseFile(kLogs + log)) {
            const auto [a, b] = e.comparedLayouts();
            if (!dump::isConflict(e.kind)) {
                EXPECT_FALSE(a || b);
                continue;
            }
            ++conflicts;
            ASSERT_TRUE(a && b) << e.raw;
            const std::pair<std::string, std::string> roles{a->role, b->role};
            if (e.kind == dump::EventKind::ParallelConflict)
                EXPECT_EQ(roles, (std::pair<std::string, std::string>{"loop", "fragment"}));
            else if (e.kind == dump::EventKind::ReduceConflict)
                EXPECT_EQ(roles, (std::pair<std::string, std::string>{"orig_dst_layout",
                                                                      "reducer_layout"}));
            else
                EXPECT_EQ(roles, (std::pair<std::string, std::string>{"current", "previous"}));
        }
    }
    EXPECT_GT(conflicts, 0);
}

TEST(LayoutDiff, ThreadOffset) {
    auto d = diffLayouts(M("T.Fragment([16, 8], forward_thread_fn=lambda i, j: i * 2 + j // 4, "
                           "forward_index_fn=lambda i, j: j % 4)"),
                         M("T.Fragment([16, 8], forward_thread_fn=lambda i, j: i * 2 + j // 4 + "
                           "128, forward_index_fn=lambda i, j: j % 4)"));
    EXPECT_EQ(d.counts.thread, 128);
    EXPECT_EQ(d.counts.slot, 0);
    EXPECT_TRUE(hasRelation(d, "B's threads are A's plus 128")) << rel(d);
}

TEST(LayoutDiff, WarpPartition) {
    // Same lane inside each warp (lane = i), warps split by column halves vs by column parity.
    auto d = diffLayouts(M("T.Fragment([32, 32], forward_thread_fn=lambda i, j: i + 32 * (j // "
                           "16), forward_index_fn=lambda i, j: j % 16)"),
                         M("T.Fragment([32, 32], forward_thread_fn=lambda i, j: i + 32 * (j % 2), "
                           "forward_index_fn=lambda i, j: j // 2)"));
    EXPECT_TRUE(hasRelation(d, "different warp partition")) << rel(d);
    auto d2 = diffLayouts(M("T.Fragment([32, 32], forward_thread_fn=lambda i, j: i % 16 + 16 * "
                            "(j % 2) + 32 * (j // 16 + 2 * (i // 16)), forward_index_fn=lambda i, "
                            "j: j % 16 // 2)"),
                          M("T.Fragment([32, 32], forward_thread_fn=lambda i, j: i % 16 + 16 * (j "
                            "% 2) + 32 * (j // 8), forward_index_fn=lambda i, j: i // 16 * 4 + j "
                            "% 8 // 2)"));
    EXPECT_TRUE(hasRelation(d2, "A 2x2 warps of 16x16 cells, B 1x4 warps of 32x8 cells"))
        << rel(d2);
}

TEST(LayoutDiff, RelabelledThreads) {
    auto d = diffLayouts(M("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i * 4 + j // 2, "
                           "forward_index_fn=lambda i, j: j % 2)"),
                         M("T.Fragment([8, 8], forward_thread_fn=lambda i, j: 31 - (i * 4 + j // "
                           "2), forward_index_fn=lambda i, j: j % 2)"));
    EXPECT_TRUE(hasRelation(d, "up to relabelling threads")) << rel(d);
}

TEST(LayoutDiff, RegisterOrder) {
    auto d = diffLayouts(M("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i * 4 + j // 2, "
                           "forward_index_fn=lambda i, j: j % 2)"),
                         M("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i * 4 + j // 2, "
                           "forward_index_fn=lambda i, j: 1 - j % 2)"));
    EXPECT_EQ(d.counts.slot, 64);
    EXPECT_TRUE(hasRelation(d, "different register order")) << rel(d);
}

TEST(LayoutDiff, ShapesDifferAndAlign) {
    auto d = diffLayouts(M("T.Fragment([16, 32], forward_thread_fn=lambda i, j: i, "
                           "forward_index_fn=lambda i, j: j)"),
                         M("T.Fragment([16, 64], forward_thread_fn=lambda i, j: i, "
                           "forward_index_fn=lambda i, j: j)"));
    EXPECT_EQ(d.rows, 16);
    EXPECT_EQ(d.cols, 64);
    EXPECT_EQ(d.counts.shape, 16 * 32);
    EXPECT_EQ(d.counts.same, 16 * 32);
    EXPECT_EQ(d.at(0, 40), kDiffShape);
    EXPECT_TRUE(hasRelation(d, "input shapes differ")) << rel(d);
}

TEST(LayoutDiff, Layouts) {
    auto d = diffLayouts(M("Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, _i))"),
                         M("T.Layout([4, 4], lambda i, j: (i, j))"));
    EXPECT_EQ(d.counts.slot, 12);
    EXPECT_TRUE(hasRelation(d, "transposed")) << rel(d);
    auto d2 = diffLayouts(M("T.Layout([4, 4], lambda i, j: i * 4 + j)"),
                          M("T.Layout([4, 4], lambda i, j: i * 4 + j + 16)"));
    EXPECT_TRUE(hasRelation(d2, "offsets are A's plus 16")) << rel(d2);
    EXPECT_THROW(diffLayouts(M("T.Layout([4], lambda i: i)"),
                             M("T.Fragment([4], forward_thread_fn=lambda i: i)")),
                 InputError);
}

TEST(LayoutDiff, BitsName) {
    EXPECT_EQ(diffBitsName(kDiffSame), "same");
    EXPECT_EQ(diffBitsName(kDiffThread | kDiffReplica), "thread+replica");
}

// ---- CLI ----------------------------------------------------------------------------------------

TEST(DumpCli, ImportDumpJsonWithTables) {
    auto r = runProcess(
        {TILESCOPE_CLI, "import-dump", kLogs + "gemm_visual_layout_inference.log", "--tables"}, "",
        60);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["events"].size(), 1u);
    auto& l = j["events"][0]["layouts"][0];
    EXPECT_EQ(j["events"][0]["buffer"], "C_local");
    EXPECT_EQ(l["table"]["thread_extent"], 128);
    EXPECT_EQ(l["table"]["cells"].size(), 1024u);
    EXPECT_EQ(l["mapping"].get<std::string>().rfind("T.Fragment([32, 32]", 0), 0u);
}

TEST(DumpCli, ImportDumpConflictHasDiff) {
    auto r = runProcess(
        {TILESCOPE_CLI, "import-dump", kLogs + "conflict_parallel_cast.log", "--json"}, "", 60);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    bool seen = false;
    for (auto& e : j["events"])
        if (e["kind"] == "parallel_conflict") {
            seen = true;
            EXPECT_EQ(e["diff"]["counts"]["replica"], 512);
            EXPECT_EQ(e["other"], "acc_s_cast");
        }
    EXPECT_TRUE(seen);
}

TEST(DumpCli, ImportDumpBadInput) {
    auto r = runProcess({TILESCOPE_CLI, "import-dump", "/nonexistent/x.log"}, "", 30);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("/nonexistent/x.log"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    auto r2 = runProcess({TILESCOPE_CLI, "import-dump"}, "", 30);
    EXPECT_EQ(r2.exit_code, 2);
}

TEST(DumpCli, DiffCountsAndRepr) {
    auto r = runProcess(
        {TILESCOPE_CLI, "diff",
         "Fragment((16, 32) -> (16,), replicate: 4, thread: 128, forward_thread: _rep * 32 + _i % "
         "8 * 4 + _j % 8 // 2, forward_index: (_j // 8 * 4 + _i // 8 * 2 + _j % 2,))",
         "T.Fragment([16, 32], forward_thread_fn=lambda i, j: j // 8 * 32 + i % 8 * 4 + j % 8 // "
         "2, forward_index_fn=lambda i, j: i // 8 * 2 + j % 2)",
         "--json"},
        "", 60);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["counts"]["cells"], 512);
    EXPECT_EQ(j["counts"]["replica"], 512);
    EXPECT_NE(j["summary"].get<std::string>().find("replicated vs not"), std::string::npos);
    auto bad = runProcess({TILESCOPE_CLI, "diff", "T.Layout([4], lambda i: i)",
                           "Fragment((4,) -> (1,), replicate: 1, thread: 4, forward_thread: "
                           "T.bogus(_i), forward_index: (0,))"},
                          "", 30);
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("SPEC_B"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("column"), std::string::npos) << bad.err;
}
