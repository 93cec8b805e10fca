// SPDX-License-Identifier: Apache-2.0
// The probe binary on a machine without a GPU: clear errors, documented exit codes.
#include "tilescope/device/subprocess.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ts;

namespace {
bool haveDriver() {
    ProcessResult r = runProcess({"/bin/sh", "-c", "ldconfig -p | grep -q 'libcuda.so.1 '"});
    return r.exit_code == 0;
}

const char* kRequest = R"({"plan": {"instructions": [
    {"op": "ld", "bytes": 4, "addresses": [0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,
     76,80,84,88,92,96,100,104,108,112,116,120,124]}]}, "iterations": 16})";
} // namespace

TEST(ProbeCli, NoDriverGivesClearError) {
    if (haveDriver()) GTEST_SKIP() << "a CUDA driver is installed";
    ProcessResult r = runProcess({TILESCOPE_PROBE}, kRequest, 60);
    ASSERT_TRUE(r.started) << r.error;
    EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["ok"], false);
    EXPECT_NE(j["error"].get<std::string>().find("no CUDA driver: libcuda.so.1 not found"),
              std::string::npos)
        << j.dump();
    // The prediction is still reported.
    EXPECT_EQ(j["predicted"]["total"]["wavefronts"], 1);
}

TEST(ProbeCli, CompileOnlyWorksWithoutGpu) {
    ProcessResult r = runProcess({TILESCOPE_PROBE, "--compile-only"}, kRequest, 120);
    ASSERT_TRUE(r.started) << r.error;
    auto j = nlohmann::json::parse(r.out);
    if (j.value("error", std::string()).find("no CUDA compiler") != std::string::npos)
        GTEST_SKIP() << j.dump();
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(j["ok"], true) << j.dump();
    EXPECT_EQ(j["compile"]["ok"], true);
    EXPECT_EQ(j["compile"]["arch"], "sm_90");
    EXPECT_GT(j["compile"]["cubin_bytes"].get<int>(), 0);
}

TEST(ProbeCli, BadInputIsExitCode2) {
    ProcessResult r = runProcess({TILESCOPE_PROBE}, "{\"plan\": 5}", 30);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["ok"], false);
    EXPECT_NE(j["error"].get<std::string>().find("plan"), std::string::npos);
    ProcessResult r2 = runProcess({TILESCOPE_PROBE}, "not json", 30);
    EXPECT_EQ(r2.exit_code, 2);
    ProcessResult r3 = runProcess({TILESCOPE_PROBE, "/nonexistent/req.json"}, "", 30);
    EXPECT_EQ(r3.exit_code, 2);
}

TEST(ProbeCli, SweepPlanListsEveryPattern) {
    ProcessResult r = runProcess({TILESCOPE_PROBE, "--list-sweep"}, "", 30);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out);
    EXPECT_GE(j["patterns"].size(), 20u);
    for (const auto& p : j["patterns"])
        EXPECT_TRUE(p.contains("predicted_wavefronts"));
}

TEST(Subprocess, TimeoutKillsChild) {
    ProcessResult r = runProcess({"sleep", "30"}, "", 0.5);
    EXPECT_TRUE(r.timed_out);
    ProcessResult e = runProcess({"cat"}, "hello", 5);
    EXPECT_EQ(e.out, "hello");
    EXPECT_EQ(e.exit_code, 0);
    EXPECT_FALSE(runProcess({"/no/such/binary"}).started);
}
