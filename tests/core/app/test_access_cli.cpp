// SPDX-License-Identifier: Apache-2.0
// `tilescope-cli banks`: JSON and table outputs (golden), exit 2 with one line on bad input.
#include "tilescope/device/subprocess.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ts;

namespace {
ProcessResult banks(std::vector<std::string> args) {
    args.insert(args.begin(), {TILESCOPE_CLI, "banks"});
    return runProcess(args, {}, 60);
}
} // namespace

TEST(BanksCli, LdmatrixJson) {
    ProcessResult r = banks({"make_linear_layout((16, 64), \"float16\")", "--dtype", "float16",
                             "--access", "ldmatrix:x4", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["instructions"].size(), 1u);
    const auto& i = j["instructions"][0];
    EXPECT_EQ(i["wavefronts"], 32);
    EXPECT_EQ(i["ideal"], 4);
    EXPECT_EQ(i["excess"], 28);
    EXPECT_EQ(i["banks"].size(), 32u);
    EXPECT_EQ(i["banks"][0], 16); // phases 0 and 1 put 8 rows of chunk 0 on banks 0-3 each
    EXPECT_EQ(i["lanes"].size(), 32u);
    EXPECT_EQ(i["lanes"][9]["cells"][0], nlohmann::json::parse("[9, 0]"));
    EXPECT_EQ(i["lanes"][17]["address"], 1 * 128 + 16);
    EXPECT_EQ(j["total"]["wavefronts"], 32);
    EXPECT_EQ(j["total"]["excess"], 28);
    EXPECT_FALSE(i["collisions"].empty());
}

TEST(BanksCli, TableGolden) {
    ProcessResult r = banks({"make_full_bank_swizzled_layout((16, 64), \"float16\")", "--dtype",
                             "float16", "--access", "ldmatrix:x4.trans@0,16"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string golden =
        "layout [16, 64] of float16 (2 B), ldmatrix access, 8 elements per lane access, "
        "footprint 2048 B\n"
        "    #  instruction              op        bytes lanes wavefronts ideal excess  worst "
        "bank\n"
        "    0  ldmatrix.x4.trans@0,16   ldmatrix     16    32          4     4      0  -\n"
        "total: 1 instruction, 4 wavefronts, ideal 4, excess 0, efficiency 100.0%\n";
    EXPECT_EQ(r.out, golden);
}

TEST(BanksCli, FragmentAndStore) {
    ProcessResult r = banks({"make_linear_layout((32, 64), \"float16\")", "--access",
                             "fragment:T.Fragment([32, 64], forward_thread_fn=lambda i, j: i, "
                             "forward_index_fn=lambda i, j: j)",
                             "--store", "--vector", "4", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["instructions"].size(), 16u);
    EXPECT_EQ(j["instructions"][0]["op"], "st");
    EXPECT_EQ(j["total"]["store_wavefronts"], 16 * 32);
    EXPECT_EQ(j["vector_elements"], 4);
}

TEST(BanksCli, BadInputExits2WithOneLine) {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"make_linear_layout((16, 64), \"float16\")", "--access", "lanes:lambda t: (t, 0)"},
             {"make_linear_layout((16, 64), \"float16\")", "--access", "lanes:lambda t: (t,0,1)"},
             {"make_linear_layout((16, 64), \"float16\")", "--access", "ldmatrix:x4", "--dtype",
              "float99"},
             {"make_linear_layout((16, 64), \"float16\")"},
             {"make_linear_layout((16, 64), \"float16\")", "--access", "lanes:lambda t: (0, t)",
              "--vector", "x"},
             {"T.Fragment([8], forward_thread_fn=lambda i: i)", "--access", "ldmatrix:x4"}}) {
        ProcessResult r = banks(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_TRUE(r.out.empty());
        ASSERT_FALSE(r.err.empty());
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    }
    ProcessResult r =
        banks({"make_linear_layout((16, 64), \"float16\")", "--access", "lanes:lambda t: (t, 0)"});
    EXPECT_NE(r.err.find("lane 16 accesses (16, 0) outside the layout's domain"), std::string::npos)
        << r.err;
}
