// SPDX-License-Identifier: Apache-2.0
// The CLI contract (product.md): JSON on stdout, one-line errors naming what and where on
// stderr, exit code 2 for bad input, never a crash or a hang. Runs the real binary.
#include "cli_run.h"
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using Result = tstest::CliResult;
using tstest::cli;
using tstest::quote;

TEST(Cli, TableMatchesTheContract) {
    Result r = cli("table " + quote("T.Layout([4, 4], lambda i, j: (j, i))"));
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["kind"], "layout");
    EXPECT_EQ(j["input_shape"], nlohmann::json::parse("[4, 4]"));
    EXPECT_EQ(j["output_shape"], nlohmann::json::parse("[4, 4]"));
    ASSERT_EQ(j["cells"].size(), 16u);
    EXPECT_EQ(j["cells"][1], nlohmann::json::parse(R"({"in": [0, 1], "out": [1, 0]})"));

    r = cli(
        "table " +
        quote("T.Fragment([64], forward_thread_fn=lambda i, rep: i % 4 * 32 + rep, replicate=32)"));
    ASSERT_EQ(r.code, 0) << r.err;
    j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["kind"], "fragment");
    EXPECT_EQ(j["thread_extent"], 128);
    EXPECT_EQ(j["replicate"], 32);
    EXPECT_EQ(j["local_size"], 16);
    EXPECT_EQ(j["cells"][5]["threads"].size(), 32u);
    EXPECT_EQ(j["cells"][5]["threads"][0], 32);
    EXPECT_EQ(j["cells"][5]["local"], 1);
}

TEST(Cli, SummaryOmitsCells) {
    Result r = cli("table " + quote("make_gemm_c_fragment((128, 128), 128)") + " --summary");
    ASSERT_EQ(r.code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_FALSE(j.contains("cells"));
    EXPECT_EQ(j["local_size"], 128);
}

TEST(Cli, PrintGivesTileLangsFormats) {
    Result r = cli("print " + quote("make_gemm_c_fragment((32, 32), 128)") +
                   " --format visual --name C_local");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("C_local inferred layout:\n  Shape: [32, 32] -> [8]\n  Thread: "),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\n  Index:  ["), std::string::npos);
    EXPECT_NE(r.out.find("\n  Replicate:  1\n"), std::string::npos);
    r = cli("print " + quote("T.Layout([4, 4], lambda i, j: (j, i))"));
    EXPECT_EQ(r.out, "Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, _i))\n");
}

TEST(Cli, BadInputIsOneLineExitTwo) {
    struct Case {
        std::string args, expect;
    };
    const Case cases[] = {
        {"table " + quote("T.Layout([4, 4], lambda i, j: (j, i)"), "column 9: unbalanced '('"},
        {"table " + quote("T.Layout([1000000, 1000], lambda i, j: i)"), "more than 16777216 cells"},
        {"table " + quote("T.Layout([8], lambda i: i // (i - 3))"), "division by zero at cell (3)"},
        {"table " + quote("make_full_bank_swizzled_layout((12, 64), \"float16\")"),
         "illegal shape"},
        {"table " + quote("make_bogus((8, 8))"), "unknown name 'make_bogus'"},
        {"table /nonexistent/file.json:acc", "cannot open file"},
        {"frobnicate", "unknown command 'frobnicate'"},
        {"table", "missing SPEC"},
    };
    for (const auto& c : cases) {
        Result r = cli(c.args);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(r.err.rfind("tilescope-cli: error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(c.expect), std::string::npos) << c.args << " -> " << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

TEST(Cli, HelpListsEveryBuiltinWithParameters) {
    Result r = cli("--help");
    ASSERT_EQ(r.code, 0);
    for (const char* s :
         {"make_full_bank_swizzled_layout(shape, dtype=\"float16\")",
          "make_gemm_c_fragment(shape, threads=128, accum_dtype=\"float32\", dtype=None, "
          "policy=\"Square\", chunk=None)",
          "make_mma_load_base_layout(dtype=\"float16\", matrix=\"A\", transposed=False)",
          "make_zn_layout(shape, dtype=\"float16\")",
          "make_fully_replicated_fragment(shape, threads)", "make_gemm_fragment_8x8()"})
        EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(Cli, ABillionCellsIsRefusedAtOnce) {
    Result r =
        cli("table " + quote("T.Layout([1024, 1024, 1024], lambda i, j, k: i)") + " --summary");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("more than"), std::string::npos) << r.err;
}

} // namespace
