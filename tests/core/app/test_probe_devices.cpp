// SPDX-License-Identifier: Apache-2.0
// tilescope-probe --devices: the device list, the split of a sweep over the GPUs and the merge
// of the workers' answers in request order (pure functions), and the binary's no-GPU path.
#include "devices.h"

#include "tilescope/device/subprocess.h"
#include "tilescope/support/errors.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

using nlohmann::json;

TEST(ProbeDevices, ParsesAllAndLists) {
    EXPECT_EQ(tsprobe::parseDevices("all", 4), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(tsprobe::parseDevices("all", 1), (std::vector<int>{0}));
    EXPECT_EQ(tsprobe::parseDevices("2,0", 3), (std::vector<int>{2, 0}));
    try {
        tsprobe::parseDevices("1", 1);
        FAIL() << "GPU 1 on a one-GPU machine was accepted";
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("no GPU 1 (this machine has 1 GPU)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(tsprobe::parseDevices("0,0", 2), ts::InputError);
    EXPECT_THROW(tsprobe::parseDevices("0,", 2), ts::InputError);
    EXPECT_THROW(tsprobe::parseDevices("x", 2), ts::InputError);
    EXPECT_THROW(tsprobe::parseDevices("-1", 2), ts::InputError);
}

TEST(ProbeDevices, SplitsRoundRobin) {
    const auto s = tsprobe::splitPatterns(7, 3);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0], (std::vector<std::size_t>{0, 3, 6}));
    EXPECT_EQ(s[1], (std::vector<std::size_t>{1, 4}));
    EXPECT_EQ(s[2], (std::vector<std::size_t>{2, 5}));
    const auto one = tsprobe::splitPatterns(5, 1);
    EXPECT_EQ(one[0], (std::vector<std::size_t>{0, 1, 2, 3, 4}));
    const auto wide = tsprobe::splitPatterns(1, 4); // more GPUs than patterns
    EXPECT_EQ(wide[0].size(), 1u);
    EXPECT_TRUE(wide[3].empty());
}

namespace {
// A worker's answer as workerRun writes it: results in the order of its own patterns.
tsprobe::WorkerAnswer answer(int device, std::vector<std::size_t> pats, const std::string& name) {
    tsprobe::WorkerAnswer a;
    a.device = device;
    a.patterns = pats;
    a.seconds = 1.5 + device;
    a.out = {
        {"ok", true}, {"device", {{"name", name}, {"sm_count", 132}}}, {"jobs", json::array()}};
    for (std::size_t i : pats)
        a.out["jobs"].push_back({{"name", "p" + std::to_string(i)}, {"ok", true}});
    return a;
}
} // namespace

TEST(ProbeDevices, MergesInRequestOrderWithPerDeviceFigures) {
    // The split of a 5-pattern sweep over GPUs 0 and 1, answered out of order.
    const auto split = tsprobe::splitPatterns(5, 2);
    const json m = tsprobe::mergeWorkerAnswers(
        {answer(1, split[1], "GPU-B"), answer(0, split[0], "GPU-A")}, 5);
    ASSERT_TRUE(m["ok"].get<bool>()) << m.dump();
    ASSERT_EQ(m["jobs"].size(), 5u);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(m["jobs"][i]["name"], "p" + std::to_string(i));
        EXPECT_EQ(m["jobs"][i]["device_index"], i % 2);
    }
    ASSERT_EQ(m["devices"].size(), 2u);
    EXPECT_EQ(m["devices"][0]["index"], 1);
    EXPECT_EQ(m["devices"][0]["name"], "GPU-B");
    EXPECT_EQ(m["devices"][0]["patterns"], json({1, 3}));
    EXPECT_DOUBLE_EQ(m["devices"][0]["seconds_run"].get<double>(), 2.5);
    EXPECT_EQ(m["device"]["name"], "GPU-B"); // the first answering device, for one-GPU readers
}

TEST(ProbeDevices, AFailedWorkerMarksOnlyItsPatterns) {
    const auto split = tsprobe::splitPatterns(4, 2);
    tsprobe::WorkerAnswer bad;
    bad.device = 1;
    bad.patterns = split[1];
    bad.out = {{"ok", false}, {"error", "cuDeviceGet: invalid device"}};
    const json m = tsprobe::mergeWorkerAnswers({answer(0, split[0], "A"), bad}, 4);
    EXPECT_TRUE(m["ok"].get<bool>());
    EXPECT_TRUE(m["jobs"][0]["ok"].get<bool>());
    EXPECT_FALSE(m["jobs"][1]["ok"].get<bool>());
    EXPECT_EQ(m["jobs"][1]["error"], "GPU 1: cuDeviceGet: invalid device");
    EXPECT_EQ(m["devices"][1]["error"], "GPU 1: cuDeviceGet: invalid device");
    const json none = tsprobe::mergeWorkerAnswers({bad}, 4);
    EXPECT_FALSE(none["ok"].get<bool>());
    EXPECT_EQ(none["error"], "GPU 1: cuDeviceGet: invalid device");
}

namespace {
bool haveDriver() {
    ts::ProcessResult r =
        ts::runProcess({"/bin/sh", "-c", "ldconfig -p | grep -q 'libcuda.so.1 '"});
    return r.exit_code == 0;
}
const char* kSweep = R"({"patterns": [
  {"name": "a", "plan": {"instructions": [{"op": "ld", "bytes": 4, "addresses": [0, 4, 8]}]}},
  {"name": "b", "plan": {"instructions": [{"op": "ld", "bytes": 4, "addresses": [0, 128]}]}}],
  "iterations": 16})";
} // namespace

TEST(ProbeDevices, NoGpuIsExitCode3ForEveryDeviceForm) {
    if (haveDriver()) GTEST_SKIP() << "a CUDA driver is installed: the GPU path runs on the H200";
    char path[] = "/tmp/ts-devices-XXXXXX.json";
    const int fd = mkstemps(path, 5);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, kSweep, strlen(kSweep)), ssize_t(strlen(kSweep)));
    close(fd);
    for (const char* devices : {"all", "0,1", "0"}) {
        ts::ProcessResult r =
            ts::runProcess({TILESCOPE_PROBE, "--sweep", path, "--devices", devices}, {}, 120);
        EXPECT_EQ(r.exit_code, 3) << devices << ": " << r.out << r.err;
        const json j = json::parse(r.out);
        EXPECT_FALSE(j["ok"].get<bool>());
        EXPECT_NE(j["error"].get<std::string>().find("no CUDA driver"), std::string::npos)
            << j.dump();
        // The predictions are made before any GPU is looked for, and each keeps its request.
        ASSERT_EQ(j["patterns"].size(), 2u);
        EXPECT_EQ(j["patterns"][1]["request"]["name"], "b");
        EXPECT_EQ(j["patterns"][1]["predicted"]["total"]["wavefronts"], 2);
    }
    std::remove(path);
}
