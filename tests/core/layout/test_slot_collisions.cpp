// SPDX-License-Identifier: Apache-2.0
// Two elements in one (thread, local) register are never silent: counted in the table JSON,
// warned by the CLI (--strict: exit 2), and aliasing shared layouts warned by `banks`.
#include "cli_run.h"
#include "tilescope/banks/access.h"
#include "tilescope/layout/slot_collisions.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/mapping.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <vector>

namespace {

ts::Fragment fragment(const std::string& text) {
    return std::get<ts::Fragment>(ts::parseMapping(text));
}

TEST(SlotCollisions, HandDesignedFragmentThatReusesRegisters) {
    // thread = i, index = j % 4 on 8x8: (i, j) and (i, j + 4) share thread i, slot j % 4.
    auto c = ts::findSlotCollisions(fragment("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, "
                                             "forward_index_fn=lambda i, j: j % 4)")
                                        .evaluate());
    EXPECT_EQ(c.count, 32);
    EXPECT_EQ(c.sharedSlots, 32);
    ASSERT_TRUE(c.first);
    EXPECT_EQ(c.first->first, (std::vector<std::int64_t>{0, 0}));
    EXPECT_EQ(c.first->second, (std::vector<std::int64_t>{0, 4}));
    EXPECT_EQ(c.first->target, (std::vector<std::int64_t>{0, 0}));
    EXPECT_EQ(c.cells.size(), 64u);
    EXPECT_NE(c.summary().find("(0, 0) and (0, 4)"), std::string::npos) << c.summary();
}

TEST(SlotCollisions, RealFragmentsHaveNone) {
    for (const char* text : {"make_gemm_c_fragment((32, 32), 128)",
                             "T.Fragment([64], forward_thread_fn=lambda i, rep: i % 4 * 32 + rep, "
                             "replicate=32)",
                             "make_fully_replicated_fragment((16, 16), 8)"}) {
        auto c = ts::findSlotCollisions(fragment(text).evaluate());
        EXPECT_FALSE(c.any()) << text << ": " << c.summary();
        EXPECT_TRUE(c.cells.empty());
    }
}

TEST(SlotCollisions, ReplicasLandingInOneThreadCollide) {
    // The thread map ignores the replica: both replicas of a cell sit in one register.
    auto c = ts::findSlotCollisions(
        fragment("T.Fragment([4], forward_thread_fn=lambda i, rep: i, replicate=2)").evaluate());
    EXPECT_EQ(c.count, 4);
    ASSERT_TRUE(c.first);
    EXPECT_EQ(c.first->first, (std::vector<std::int64_t>{0, 0}));
    EXPECT_EQ(c.first->second, (std::vector<std::int64_t>{0, 1}));
}

TEST(SlotCollisions, WhatTileLangInfersCanCollideAndIsReported) {
    // TileLang 0.1.15 infers index (i * 8 + j) % 63 // 3 for this thread map (golden
    // infer_001): cells 0 and 63 share thread 0, slot 0. Shown as TileLang builds it, but flagged.
    auto t =
        fragment("T.Fragment([8, 8], forward_thread_fn=lambda i, j: (i * 8 + j) % 3)").evaluate();
    auto c = ts::findSlotCollisions(t);
    EXPECT_TRUE(c.any());
    EXPECT_EQ(t.local[63], t.local[0]);
    nlohmann::json j = ts::tableJson(
        ts::parseMapping("T.Fragment([8, 8], forward_thread_fn=lambda i, j: (i * 8 + j) % 3)"),
        true);
    EXPECT_EQ(j.at("slot_collisions"), c.elements());
    EXPECT_EQ(j.at("shared_registers"), c.sharedSlots);
}

TEST(SlotCollisions, LargeSparseSlotsUseTheSortedPath) {
    // Thread values far apart make the direct table too large; the sorted path must agree.
    auto c = ts::findSlotCollisions(
        fragment("T.Fragment([64, 64], forward_thread_fn=lambda i, j: i * 1000, "
                 "forward_index_fn=lambda i, j: j % 32 * 4096)")
            .evaluate());
    EXPECT_EQ(c.count, 64 * 32);
    ASSERT_TRUE(c.first);
    EXPECT_EQ(c.first->second, (std::vector<std::int64_t>{0, 32}));
}

TEST(SharedTileAliasing, NonInjectiveLayoutIsNamed) {
    auto m = ts::parseMapping("T.Layout([4, 8], lambda i, j: i * 4 + j % 4)");
    ts::SharedTile tile(std::get<ts::Layout>(m), "float32");
    auto a = tile.aliasing();
    ASSERT_TRUE(a);
    EXPECT_NE(a->find("(0, 0) and (0, 4)"), std::string::npos) << *a;
    ts::SharedTile ok(std::get<ts::Layout>(ts::parseMapping("make_linear_layout((8, 8))")),
                      "float16");
    EXPECT_FALSE(ok.aliasing());
}

using CliRun = tstest::CliResult;
using tstest::cli;

const char* kColliding = "'T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, "
                         "forward_index_fn=lambda i, j: j % 4)'";

TEST(SlotCollisionsCli, TableWarnsAndCounts) {
    CliRun r = cli(std::string("table ") + kColliding + " --summary");
    ASSERT_EQ(r.code, 0) << r.err;
    // Every element of the 8x8 shares its register: 64 elements in 32 registers.
    EXPECT_EQ(nlohmann::json::parse(r.out).at("slot_collisions"), 64);
    EXPECT_EQ(nlohmann::json::parse(r.out).at("shared_registers"), 32);
    EXPECT_NE(r.err.find("64 elements share a register with another (32 registers hold"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("warning: two elements share a register"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("(0, 0) and (0, 4)"), std::string::npos) << r.err;
}

TEST(SlotCollisionsCli, StrictExitsTwo) {
    CliRun r = cli(std::string("table ") + kColliding + " --strict");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("error: two elements share a register"), std::string::npos) << r.err;
    CliRun ok = cli("table 'make_gemm_c_fragment((16, 16), 32)' --summary --strict");
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_EQ(nlohmann::json::parse(ok.out).at("slot_collisions"), 0);
    EXPECT_TRUE(ok.err.empty()) << ok.err;
}

TEST(SlotCollisionsCli, BanksWarnsOnAliasingLayout) {
    CliRun r = cli("banks 'T.Layout([4, 8], lambda i, j: i * 4 + j % 4)' --dtype float32 "
                   "--access 'lanes:lambda t: (t // 8, t % 8)'");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("not injective"), std::string::npos) << r.err;
    CliRun s = cli("banks 'T.Layout([4, 8], lambda i, j: i * 4 + j % 4)' --dtype float32 "
                   "--access 'lanes:lambda t: (t // 8, t % 8)' --strict");
    EXPECT_EQ(s.code, 2);
}

} // namespace

TEST(SlotCollisionsCli, EveryCommandThatPrintsOrDrawsTheFragmentWarns) {
    const std::string txt = testing::TempDir() + "collisions_render.txt";
    const std::string png = testing::TempDir() + "collisions_render.png";
    std::vector<std::string> commands{std::string("print ") + kColliding + " --format all",
                                      std::string("print ") + kColliding + " --format visual",
                                      std::string("diff ") + kColliding +
                                          " 'make_gemm_fragment_8x8()'"};
#ifdef TILESCOPE_CLI_HAS_RENDER // `render` exists in GUI builds only (app/cli/CMakeLists.txt)
    commands.push_back(std::string("render ") + kColliding + " -o " + txt);
    commands.push_back(std::string("render ") + kColliding + " -o " + png + " --no-title");
#endif
    for (const std::string& args : commands) {
        CliRun r = cli(args);
        EXPECT_EQ(r.code, 0) << args << ": " << r.err;
        EXPECT_NE(r.err.find("warning: "), std::string::npos) << args;
        EXPECT_NE(r.err.find("two elements share a register: elements (0, 0) and (0, 4)"),
                  std::string::npos)
            << args << ": " << r.err;
    }
#ifdef TILESCOPE_CLI_HAS_RENDER
    // The text table carries the warning itself, under its title.
    std::ifstream in(txt);
    std::string title, warning;
    std::getline(in, title);
    std::getline(in, warning);
    EXPECT_NE(warning.find("(0, 0) and (0, 4) share a register"), std::string::npos) << warning;
#endif
    // A fragment without collisions prints no warning.
    CliRun ok = cli("print 'make_gemm_c_fragment((16, 16), 32)' --format all");
    EXPECT_EQ(ok.code, 0);
    EXPECT_EQ(ok.err.find("share a register"), std::string::npos) << ok.err;
}
