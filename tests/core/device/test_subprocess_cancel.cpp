// SPDX-License-Identifier: Apache-2.0
// runProcess's cancel flag: a Cancel from another thread kills the child's whole process group
// promptly (the Kernel panel's Cancel of a TileLang lowering), and a flag set before the start
// starts nothing.
#include "tilescope/device/subprocess.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>

TEST(Subprocess, CancelKillsTheChildGroupPromptly) {
    std::atomic<bool> cancel{false};
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        cancel = true;
    });
    const auto t0 = std::chrono::steady_clock::now();
    // The shell's child (sleep) is in the same process group: it goes too, or the pipes would
    // stay open and runProcess would not return before 30 s.
    ts::ProcessResult r = ts::runProcess({"sh", "-c", "sleep 30; echo late"}, {}, 60, {}, &cancel);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.join();
    EXPECT_TRUE(r.started);
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.error, "cancelled");
    EXPECT_EQ(r.out.find("late"), std::string::npos);
    EXPECT_LT(s, 5.0);
}

TEST(Subprocess, ACancelSetBeforeTheStartStartsNothing) {
    std::atomic<bool> cancel{true};
    ts::ProcessResult r = ts::runProcess({"sh", "-c", "echo ran"}, {}, 10, {}, &cancel);
    EXPECT_FALSE(r.started);
    EXPECT_TRUE(r.cancelled);
    EXPECT_TRUE(r.out.empty());
}
