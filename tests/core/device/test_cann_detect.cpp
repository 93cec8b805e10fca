// SPDX-License-Identifier: Apache-2.0
// detectCann and the msprof command, against fake installations: directories laid out like a
// CANN toolkit, and small shell scripts standing in for npu-smi, bisheng, msprof and the run's
// Python (no CANN or NPU exists here). The detection code itself runs for real: it stats the
// files, searches the given PATH, runs the scripts and parses what they print.
#include "tilescope/device/cann_detect.h"
#include "tilescope/device/subprocess.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct FakeMachine {
    std::string dir;
    std::map<std::string, std::string> env;
    FakeMachine() {
        dir = (fs::temp_directory_path() / "tilescope-cann-XXXXXX").string();
        EXPECT_NE(::mkdtemp(dir.data()), nullptr);
        fs::create_directories(dir + "/bin");
        env["PATH"] = dir + "/bin";
        env["HOME"] = dir + "/home";
    }
    ~FakeMachine() { fs::remove_all(dir); }
    void script(const std::string& path, const std::string& body) {
        fs::create_directories(fs::path(path).parent_path());
        std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
        fs::permissions(path, fs::perms::owner_all);
    }
    // A toolkit at `root` with bisheng and msprof where CANN puts them.
    void toolkit(const std::string& root) {
        script(root + "/compiler/ccec_compiler/bin/bisheng", "exit 0");
        script(root + "/tools/profiler/bin/msprof", "exit 0");
    }
    void npuSmi(int rc, const std::string& text) {
        script(dir + "/bin/npu-smi", "echo '" + text + "'\nexit " + std::to_string(rc));
    }
    void python(const std::string& json) {
        script(dir + "/bin/python3", "echo 'TILESCOPE_PROBE " + json + "'");
    }
    // Everything a released-branch run needs, with ASCEND_HOME_PATH set and PATH complete.
    void complete() {
        toolkit(dir + "/cann");
        env["ASCEND_HOME_PATH"] = dir + "/cann";
        env["PATH"] = dir + "/bin:" + dir + "/cann/compiler/ccec_compiler/bin";
        npuSmi(0, "+ npu-smi 24.1.rc2 Version: 24.1.rc2 +");
        python(R"({"tilelang": "0.1.4", "ascend": true, "npuir": false, "torch_npu": "2.6.0"})");
    }
    bool mentions(const ts::CannInstallation& c, const std::string& what) const {
        for (const auto& m : c.missing)
            if (m.find(what) != std::string::npos) return true;
        return false;
    }
};

} // namespace

TEST(CannDetect, CompleteOnlyWhenEveryPieceIsThere) {
    FakeMachine m;
    m.complete();
    const auto c = ts::detectCann(&m.env);
    EXPECT_TRUE(c.complete) << c.summary();
    EXPECT_EQ(c.toolkit_source, "ASCEND_HOME_PATH");
    EXPECT_TRUE(c.set_env.empty()); // the environment already has CANN
    EXPECT_EQ(c.compiler, m.dir + "/cann/compiler/ccec_compiler/bin/bisheng");
    EXPECT_EQ(c.msprof, m.dir + "/cann/tools/profiler/bin/msprof");
    EXPECT_EQ(c.tilelang_version, "0.1.4");
    EXPECT_EQ(c.tilelang_branch, "ascendc_pto");
    EXPECT_EQ(c.torch_npu_version, "2.6.0");
    EXPECT_NE(c.npu_smi_info.find("npu-smi 24.1.rc2"), std::string::npos);
    EXPECT_NE(c.summary().find("complete"), std::string::npos);
    // Without the probes: files and PATH only, nothing missing, but not called complete.
    ts::CannProbeOptions quick;
    quick.run_probes = false;
    const auto files = ts::detectCann(&m.env, quick);
    EXPECT_TRUE(files.missing.empty()) << files.summary();
    EXPECT_TRUE(files.probes_skipped);
    EXPECT_FALSE(files.complete);
    EXPECT_TRUE(files.npu_smi_info.empty());
    EXPECT_NE(files.summary().find("not checked yet"), std::string::npos);
}

TEST(CannDetect, NothingInstalledListsEveryPiece) {
    FakeMachine m;
    const auto c = ts::detectCann(&m.env);
    EXPECT_FALSE(c.complete);
    EXPECT_TRUE(m.mentions(c, "no CANN toolkit"));
    EXPECT_TRUE(m.mentions(c, m.dir + "/home/Ascend/ascend-toolkit/latest (the non-root"));
    EXPECT_TRUE(m.mentions(c, "no bisheng compiler on PATH"));
    EXPECT_TRUE(m.mentions(c, "no msprof"));
    EXPECT_TRUE(m.mentions(c, "npu-smi not found on PATH"));
    EXPECT_TRUE(m.mentions(c, "no python3 on PATH"));
}

TEST(CannDetect, BishengUnderTheToolkitButNotOnPathIsMissing) {
    FakeMachine m;
    m.complete();
    m.env["PATH"] = m.dir + "/bin"; // set_env.sh was not sourced into this PATH
    const auto c = ts::detectCann(&m.env);
    EXPECT_FALSE(c.complete);
    ASSERT_EQ(c.missing.size(), 1u) << c.summary();
    EXPECT_NE(c.missing[0].find("bisheng is at " + m.dir +
                                "/cann/compiler/ccec_compiler/bin/bisheng but not on PATH"),
              std::string::npos);
}

TEST(CannDetect, NonRootInstallIsFoundAndItsSetEnvSourcedForTheRun) {
    FakeMachine m;
    const std::string root = m.dir + "/home/Ascend/ascend-toolkit";
    m.toolkit(root + "/latest");
    m.script(root + "/set_env.sh", "export TILESCOPE_FAKE_CANN=1");
    m.npuSmi(0, "npu-smi ok");
    m.python(R"({"tilelang": "0.1.4", "ascend": true, "npuir": false, "torch_npu": "2.6.0rc1"})");
    const auto c = ts::detectCann(&m.env);
    EXPECT_EQ(c.toolkit, root + "/latest");
    EXPECT_EQ(c.toolkit_source, "non-root path");
    EXPECT_EQ(c.set_env, root + "/set_env.sh");
    // bisheng is on the PATH set_env.sh gives the run.
    EXPECT_EQ(c.compiler, root + "/latest/compiler/ccec_compiler/bin/bisheng");
    EXPECT_TRUE(c.complete) << c.summary();
    EXPECT_NE(c.summary().find("set_env.sh (sourced for the run): " + root + "/set_env.sh"),
              std::string::npos);

    // Without set_env.sh and without ASCEND_HOME_PATH the run would have no CANN environment.
    fs::remove(root + "/set_env.sh");
    const auto bare = ts::detectCann(&m.env);
    EXPECT_FALSE(bare.complete);
    EXPECT_TRUE(m.mentions(bare, "set_env.sh not found"));
}

TEST(CannDetect, DeviceMustAnswerNpuSmiInfo) {
    FakeMachine m;
    m.complete();
    m.npuSmi(1, "dcmi module initialize failed. ret is -8005");
    const auto c = ts::detectCann(&m.env);
    EXPECT_FALSE(c.complete);
    ASSERT_EQ(c.missing.size(), 1u) << c.summary();
    EXPECT_NE(c.missing[0].find("info` exited with 1: dcmi module initialize failed"),
              std::string::npos);
    EXPECT_FALSE(c.simulator_only); // no simulator libraries in this toolkit

    fs::create_directories(m.dir + "/cann/tools/simulator/Ascend910B4/lib");
    const auto sim = ts::detectCann(&m.env);
    EXPECT_FALSE(sim.complete);
    EXPECT_TRUE(sim.simulator_only);
    EXPECT_NE(sim.summary().find("msprof op simulator"), std::string::npos);
}

TEST(CannDetect, PythonPackagesAtTheirMinimumVersionsAndTheRightBranch) {
    FakeMachine m;
    m.complete();
    m.python(R"({"tilelang": "0.1.3", "ascend": true, "npuir": false, "torch_npu": "2.5.1"})");
    auto c = ts::detectCann(&m.env);
    EXPECT_TRUE(m.mentions(c, "tilelang-ascend 0.1.3 (ascendc_pto branch) is older than 0.1.4"));
    EXPECT_TRUE(m.mentions(c, "torch_npu 2.5.1 is older than 2.6.0rc1"));

    m.python(R"({"tilelang": "0.1.2", "ascend": true, "npuir": true, "torch_npu": "2.6.0"})");
    c = ts::detectCann(&m.env);
    EXPECT_EQ(c.tilelang_branch, "npuir");
    EXPECT_TRUE(m.mentions(c, "is the npuir branch; the chosen back end is ascendc_pto"));
    ts::CannProbeOptions npuir;
    npuir.backend = ts::AscendBackend::Npuir;
    c = ts::detectCann(&m.env, npuir);
    EXPECT_TRUE(m.mentions(c, "no bishengir-compile on PATH"));
    m.script(m.dir + "/bin/bishengir-compile", "exit 0");
    c = ts::detectCann(&m.env, npuir);
    EXPECT_TRUE(c.complete) << c.summary();

    m.python(R"({"tilelang": "0.1.15", "ascend": false, "npuir": false, "torch_npu": "2.6.0"})");
    c = ts::detectCann(&m.env);
    EXPECT_TRUE(m.mentions(c, "(0.1.15) is not tilelang-ascend"));
    m.python(R"({"tilelang_error": "ModuleNotFoundError: No module named 'tilelang'", )"
             R"("torch_npu_error": "ImportError: libhccl.so"})");
    c = ts::detectCann(&m.env);
    EXPECT_TRUE(m.mentions(c, "tilelang-ascend does not import in " + m.dir +
                                  "/bin/python3: ModuleNotFoundError"));
    EXPECT_TRUE(m.mentions(c, "torch_npu does not import"));
    m.script(m.dir + "/bin/python3", "echo Traceback >&2\nexit 3");
    c = ts::detectCann(&m.env);
    EXPECT_TRUE(m.mentions(c, "could not check tilelang-ascend and torch_npu"));
}

TEST(CannDetect, VersionOrder) {
    EXPECT_LT(ts::compareVersions("2.6.0rc1", "2.6.0"), 0);
    EXPECT_LT(ts::compareVersions("2.6.0rc1", "2.6.0rc2"), 0);
    EXPECT_EQ(ts::compareVersions("2.6.0.RC1", "2.6.0rc1"), 0);
    EXPECT_GT(ts::compareVersions("2.6.0.post1", "2.6.0"), 0);
    EXPECT_GT(ts::compareVersions("2.7", "2.6.0rc1"), 0);
    EXPECT_LT(ts::compareVersions("0.1.3", "0.1.4"), 0);
    EXPECT_EQ(ts::compareVersions("0.1.4", "0.1.4"), 0);
    EXPECT_GT(ts::compareVersions("0.1.10", "0.1.4"), 0);
}

TEST(CannDetect, MsprofCommandSourcesSetEnvAndNamesTheKernel) {
    FakeMachine m;
    const std::string root = m.dir + "/home/Ascend/ascend-toolkit";
    m.toolkit(root + "/latest");
    m.script(root + "/set_env.sh", "export TILESCOPE_FAKE_CANN=sourced");
    // The fake msprof prints its arguments and what set_env.sh exported.
    m.script(root + "/latest/tools/profiler/bin/msprof",
             "echo \"args: $*\"\necho \"env: $TILESCOPE_FAKE_CANN $ACL_OP_INIT_MODE\"");
    m.npuSmi(0, "ok");
    m.python(R"({"tilelang": "0.1.4", "ascend": true, "npuir": false, "torch_npu": "2.6.0"})");
    const auto c = ts::detectCann(&m.env);
    ASSERT_TRUE(c.complete) << c.summary();
    const auto cmd = ts::msprofOpCommand(c, "/usr/bin/python3", "/tmp/a b/nd2nz.py", "/tmp/out");
    EXPECT_FALSE(cmd.simulator);
    ASSERT_GT(cmd.argv.size(), 3u);
    EXPECT_EQ(cmd.argv[0], "/bin/bash");
    const auto r = ts::runProcess(cmd.argv, {}, 30, cmd.env);
    ASSERT_TRUE(r.started) << r.error;
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("args: op --kernel-name=nd2nz_roundtrip_kernel --output=/tmp/out "
                         "/usr/bin/python3 /tmp/a b/nd2nz.py"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("env: sourced 1"), std::string::npos) << r.out;

    // No device, simulator libraries present: msprof op simulator with its libraries.
    m.npuSmi(1, "no device");
    fs::create_directories(root + "/latest/tools/simulator/Ascend910B4/lib");
    const auto sim = ts::detectCann(&m.env);
    ASSERT_TRUE(sim.simulator_only) << sim.summary();
    const auto scmd = ts::msprofOpCommand(sim, "python3", "s.py", "/tmp/out");
    EXPECT_TRUE(scmd.simulator);
    const auto rs = ts::runProcess(scmd.argv, {}, 30, scmd.env);
    EXPECT_NE(rs.out.find("args: op simulator --soc-version=Ascend910B4 --kernel-name="),
              std::string::npos)
        << rs.out;
    bool ld = false;
    for (const auto& e : scmd.env)
        ld |=
            e.rfind("LD_LIBRARY_PATH=" + root + "/latest/tools/simulator/Ascend910B4/lib", 0) == 0;
    EXPECT_TRUE(ld);
}
