// SPDX-License-Identifier: Apache-2.0
// msprof op output, on sample files written from the CANN msProf documentation's field lists
// (OpBasicInfo.csv: Op Name, Op Type, Task Duration(us), Block Dim, Mix Block Dim, Device Id,
// Pid, Current Freq, Rated Freq; ResourceConflictRatio.csv: block_id, sub_block_id,
// aic_time(us), aic_total_cycles, aiv_time(us), aiv_total_cycles, aic_cube_wait_ratio,
// aiv_vec_total_cflt_ratio, aiv_vec_bankgroup_cflt_ratio, aiv_vec_bank_cflt_ratio,
// aiv_vec_resc_cflt_ratio, aiv_vec_mte_cflt_ratio, aiv_vec_wait_ratio, ...). No NPU has produced
// these files here; the values are made up, the layout is the documented one.
#include "tilescope/device/msprof_op.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const char* kBasic =
    "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,"
    "Rated Freq\n"
    "nd2nz_roundtrip_kernel,mix,12.34,1,2,0,4242,1800,1800\n";

const char* kConflict =
    "block_id,sub_block_id,aic_time(us),aic_total_cycles,aiv_time(us),aiv_total_cycles,"
    "aic_cube_wait_ratio,aiv_vec_total_cflt_ratio,aiv_vec_bankgroup_cflt_ratio,"
    "aiv_vec_bank_cflt_ratio,aiv_vec_resc_cflt_ratio,aiv_vec_mte_cflt_ratio,aiv_vec_wait_ratio,"
    "aic_mte1_wait_ratio,aiv_mte2_wait_ratio,aiv_mte3_wait_ratio\n"
    "0,cube0,10.1,18180,N/A,N/A,0.12,N/A,N/A,N/A,N/A,N/A,N/A,0.01,N/A,N/A\n"
    "0,vector0,N/A,N/A,9.8,17640,N/A,0.30,0.20,0.05,0.03,0.02,0.4,N/A,0.1,0.1\n"
    "0,vector1,N/A,N/A,9.9,17820,N/A,0.50,0.40,0.15,0.03,0.02,0.4,N/A,0.1,0.1\n";

} // namespace

TEST(MsprofOp, ReadsTaskDurationAndUbConflictRatios) {
    const auto r =
        ts::parseMsprofOp(kBasic, "OpBasicInfo.csv", kConflict, "ResourceConflictRatio.csv");
    ASSERT_EQ(r.ops.size(), 1u);
    EXPECT_EQ(r.ops[0].op_name, "nd2nz_roundtrip_kernel");
    ASSERT_TRUE(r.ops[0].task_duration_us);
    EXPECT_DOUBLE_EQ(*r.ops[0].task_duration_us, 12.34);
    EXPECT_EQ(r.ops[0].block_dim, "1");
    EXPECT_EQ(r.ops[0].device_id, "0");
    ASSERT_EQ(r.conflicts.size(), 3u);
    EXPECT_FALSE(r.conflicts[0].bank); // the cube row reports no vector ratios
    EXPECT_EQ(r.conflicts[1].sub_block_id, "vector0");
    EXPECT_DOUBLE_EQ(*r.bankMax(), 0.15);
    EXPECT_DOUBLE_EQ(*r.bankMean(), 0.10);
    EXPECT_DOUBLE_EQ(*r.bankgroupMax(), 0.40);
    EXPECT_NEAR(*r.bankgroupMean(), 0.30, 1e-12);
    const std::string s = r.summary();
    EXPECT_NE(s.find("task duration 12.340 us"), std::string::npos) << s;
    EXPECT_NE(s.find("aiv_vec_bank_cflt_ratio): max 15.00%, mean 10.00%"), std::string::npos) << s;
}

TEST(MsprofOp, PercentagesAndQuotedFields) {
    const auto r = ts::parseMsprofOp(
        "\xEF\xBB\xBF\"Op Name\",\"Op Type\",\"Task Duration(us)\",\"Device ID\"\r\n"
        "\"k, with comma\",mix,7,1\r\n",
        "b.csv",
        "sub_block_id,aiv_vec_bank_cflt_ratio,aiv_vec_bankgroup_cflt_ratio(%)\n"
        "vector0,12.5%,40\n",
        "c.csv");
    EXPECT_EQ(r.ops[0].op_name, "k, with comma");
    EXPECT_EQ(r.ops[0].device_id, "1");
    EXPECT_DOUBLE_EQ(*r.ops[0].task_duration_us, 7);
    // A column named "(%)" holds percentages.
    EXPECT_DOUBLE_EQ(*r.conflicts[0].bankgroup, 0.40);
    EXPECT_DOUBLE_EQ(*r.conflicts[0].bank, 0.125);
}

TEST(MsprofOp, BadFilesSayWhereAndWhy) {
    auto msg = [](const std::string& b, const std::string& c) {
        try {
            ts::parseMsprofOp(b, "OpBasicInfo.csv", c, "ResourceConflictRatio.csv");
        } catch (const ts::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(msg("Op Name,Block Dim\nk,1\n", "").find("no 'Task Duration(us)' column"),
              std::string::npos);
    EXPECT_NE(msg("Op Name,Task Duration(us)\nk,fast\n", "")
                  .find("OpBasicInfo.csv line 2, column Task Duration(us): 'fast' is not a number"),
              std::string::npos);
    EXPECT_NE(msg("", "sub_block_id,aiv_vec_bank_cflt_ratio\nvector0,15\n")
                  .find("ResourceConflictRatio.csv line 2, column aiv_vec_bank_cflt_ratio: 15 is "
                        "not a ratio in [0, 1]"),
              std::string::npos);
    EXPECT_NE(msg("", "block_id,aic_time(us)\n0,1\n").find("neither aiv_vec_bank_cflt_ratio"),
              std::string::npos);
    EXPECT_NE(msg("\"Op Name,Task\n", "").find("never closed"), std::string::npos);
}

TEST(MsprofOp, FindsTheNewestRunDirectory) {
    std::string dir = (fs::temp_directory_path() / "tilescope-msprof-XXXXXX").string();
    ASSERT_NE(::mkdtemp(dir.data()), nullptr);
    EXPECT_THROW(ts::readMsprofOpDir(dir), ts::InputError);
    EXPECT_THROW(ts::readMsprofOpDir(dir + "/absent"), ts::InputError);
    fs::create_directories(dir + "/OPPROF_20261201061500_AAAA");
    fs::create_directories(dir + "/OPPROF_20261201071500_BBBB/nd2nz_roundtrip_kernel/0");
    std::ofstream(dir + "/OPPROF_20261201061500_AAAA/OpBasicInfo.csv")
        << "Op Name,Task Duration(us)\nold,99\n";
    std::ofstream(dir + "/OPPROF_20261201071500_BBBB/nd2nz_roundtrip_kernel/0/OpBasicInfo.csv")
        << kBasic;
    std::ofstream(dir +
                  "/OPPROF_20261201071500_BBBB/nd2nz_roundtrip_kernel/0/ResourceConflictRatio.csv")
        << kConflict;
    const auto r = ts::readMsprofOpDir(dir);
    ASSERT_EQ(r.ops.size(), 1u);
    EXPECT_EQ(r.ops[0].op_name, "nd2nz_roundtrip_kernel");
    EXPECT_NE(r.conflict_file.find("OPPROF_20261201071500_BBBB"), std::string::npos);
    // Simulator output: listed, not parsed.
    const std::string sim = dir + "/sim";
    fs::create_directories(sim + "/OPPROF_20261201081500_CCCC/simulator/core0.veccore0");
    std::ofstream(sim + "/OPPROF_20261201081500_CCCC/simulator/trace.json") << "[]";
    const auto s = ts::readMsprofOpDir(sim);
    EXPECT_TRUE(s.ops.empty());
    ASSERT_EQ(s.simulator_files.size(), 1u);
    EXPECT_NE(s.summary().find("simulator trace file"), std::string::npos);
    fs::remove_all(dir);
}
