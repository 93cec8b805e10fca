// SPDX-License-Identifier: Apache-2.0
// `tilescope-cli kernel`: the CLI contract of the kernel X-ray (tables, JSON, measured, errors).
#include "cli_run.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using tstest::cli;
using tstest::quote;

namespace {
const std::string kDir = std::string(TILESCOPE_SOURCE_DIR) + "/data/kernels/flash_attn_fwd/";
}

TEST(KernelCli, JsonHasBuffersAccessesLinesAndSummary) {
    auto r = cli("kernel " + quote(kDir + "kernel.cu") + " --meta " + quote(kDir + "meta.json") +
                 " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    const auto& k = j["kernels"].at(0);
    EXPECT_EQ(k["kernel"], "flash_attn_fwd_kernel");
    EXPECT_EQ(k["block"][0], 128);
    EXPECT_EQ(k["summary"]["dynamic_shared_bytes"], 40960);
    EXPECT_EQ(k["summary"]["dynamic_shared_source"], "launch");
    bool inferred = false;
    for (const auto& b : k["buffers"])
        if (b["name"] == "k_s") inferred = b.contains("inferred_layout");
    EXPECT_TRUE(inferred);
    // The unswizzled epilogue store (4 bytes per lane into o_s) is an 8-way conflict.
    bool found = false;
    for (const auto& a : k["accesses"])
        if (a["kind"] == "store" && a["buffer"] == "o_s" && a["bytes_per_lane"] == 4) {
            found = true;
            EXPECT_EQ(a["wavefronts_per_instruction"]["max"], 8);
            EXPECT_GT(a["excess"].get<long>(), 0);
        }
    EXPECT_TRUE(found);
}

TEST(KernelCli, MeasuredComparisonAndItsExitCode) {
    auto r = cli("kernel " + quote(kDir + "kernel.cu") + " --meta " + quote(kDir + "meta.json") +
                 " --measured " + quote(kDir + "measured.json"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("18 lines match"), std::string::npos) << r.out;
    // One measured line changed: the comparison says it differs and exits 3.
    auto m = nlohmann::json::parse(std::ifstream(kDir + "measured.json"));
    m["kernels"][0]["lines"][0]["wavefronts"] =
        m["kernels"][0]["lines"][0]["wavefronts"].get<long>() + 32;
    const std::string bad = ::testing::TempDir() + "/measured_changed.json";
    std::ofstream(bad) << m.dump();
    auto d = cli("kernel " + quote(kDir + "kernel.cu") + " --meta " + quote(kDir + "meta.json") +
                 " --measured " + quote(bad));
    EXPECT_EQ(d.code, 3);
    EXPECT_NE(d.out.find("differs"), std::string::npos);
}

TEST(KernelCli, BadInputIsExitTwoWithWhatAndWhere) {
    const std::string cut = ::testing::TempDir() + "/truncated.cu";
    {
        std::ifstream in(kDir + "kernel.cu");
        std::stringstream s;
        s << in.rdbuf();
        std::ofstream(cut) << s.str().substr(0, 3000);
    }
    auto r = cli("kernel " + quote(cut));
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("line "), std::string::npos) << r.err;
    auto missing = cli("kernel /nonexistent/k.cu");
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("cannot read"), std::string::npos) << missing.err;
    const std::string notCuda = ::testing::TempDir() + "/plain.cu";
    std::ofstream(notCuda) << "int main() { return 0; }\n";
    auto plain = cli("kernel " + quote(notCuda));
    EXPECT_EQ(plain.code, 2);
    EXPECT_NE(plain.err.find("no __global__ kernel"), std::string::npos) << plain.err;
}

#ifdef TILESCOPE_HAVE_TILELANG
// The Python path: the committed kernel lowered again by the real TileLang gives the same source.
TEST(KernelCli, PythonFileIsLoweredByTileLang) {
    const std::string dir = std::string(TILESCOPE_SOURCE_DIR) + "/data/kernels/copy_swizzled/";
    const std::string out = ::testing::TempDir() + "/copy_swizzled.cu";
    auto r = cli("kernel " + quote(dir + "kernel.py") + " --emit-source " + quote(out) + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream a(out), b(dir + "kernel.cu");
    std::stringstream sa, sb;
    sa << a.rdbuf();
    sb << b.rdbuf();
    EXPECT_EQ(sa.str(), sb.str());
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["kernels"][0]["summary"]["dynamic_shared_source"], "launch");
}
#endif
