// SPDX-License-Identifier: Apache-2.0
// tilescope-cli probe-request (one request, sweeps over layouts, accesses and whole projects),
// reading probe results back (the committed H200 run of data/h200/e2e) and matching them to
// layouts, and the Run history kept in the project file.
#include "tilescope/device/measurements.h"
#include "tilescope/device/run_prepare.h"
#include "tilescope/device/subprocess.h"
#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using nlohmann::json;

namespace {
const std::string kDir = TILESCOPE_SOURCE_DIR "/data/h200/e2e/";
const std::string kProject = kDir + "layouts.tilescope.json";
const std::string kSwizzled = "full-bank 128B swizzle 16x64 fp16";

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::ostringstream ss;
    ss << f.rdbuf();
    return ss.str();
}
ts::ProcessResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), TILESCOPE_CLI);
    return ts::runProcess(args, {}, 60);
}
} // namespace

TEST(ProbeRequest, CliWritesWhatProbeRequestForBuilds) {
    const ts::ProcessResult r = cli({"probe-request", kProject + ":" + kSwizzled, "--access",
                                     "ldmatrix:x4", "--dtype", "float16"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ts::ProbeRequestInput in;
    in.layoutName = kSwizzled;
    in.mappingText = "make_full_bank_swizzled_layout((16, 64), \"float16\")";
    in.access = "ldmatrix:x4";
    EXPECT_EQ(r.out, ts::probeRequestFor(in).request.dump() + "\n");
    // The request the H200 run was made from is this one, byte for byte.
    EXPECT_EQ(r.out, slurp(kDir + "request.json"));
    const json j = json::parse(r.out);
    EXPECT_EQ(j["spec"]["layout"], kSwizzled);
    EXPECT_EQ(j["ncu"], true);
    EXPECT_EQ(j["timeout_s"], 170); // the Run settings' 180 s less 10
}

TEST(ProbeRequest, SweepOverAProjectSkipsFragmentsAndSaysSo) {
    const ts::ProcessResult r = cli({"probe-request", "--sweep", kProject, "--access",
                                     "ldmatrix:x4", "--access", "stmatrix:x4", "--no-ncu"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["ncu"], false);
    ASSERT_EQ(j["patterns"].size(), 6u); // 3 shared layouts x 2 accesses; the fragment skipped
    EXPECT_EQ(j["patterns"][0]["name"], "row-major 16x64 fp16 / ldmatrix:x4");
    EXPECT_EQ(j["patterns"][1]["plan"]["instructions"][0]["op"], "stmatrix");
    EXPECT_NE(r.err.find("skipped 'mma A operand"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("T.Fragment"), std::string::npos) << r.err;
    // Several specs given by hand are crossed with the accesses, and a fragment among them is an
    // error, not a silent skip.
    const ts::ProcessResult two =
        cli({"probe-request", "--sweep", "T.Layout([8, 8], lambda i, j: i * 8 + j)",
             "T.Layout([8, 8], lambda i, j: i * 9 + j)", "--access",
             "lanes:lambda t: (t % 8, t // 8)"});
    ASSERT_EQ(two.exit_code, 0) << two.err;
    EXPECT_EQ(json::parse(two.out)["patterns"].size(), 2u);
}

TEST(ProbeRequest, BadInputIsExitCode2WithAReason) {
    const ts::ProcessResult noAccess = cli({"probe-request", kProject});
    EXPECT_EQ(noAccess.exit_code, 2);
    EXPECT_NE(noAccess.err.find("missing --access"), std::string::npos) << noAccess.err;
    const ts::ProcessResult frag =
        cli({"probe-request", kProject + ":mma A operand (a fragment: skipped by a sweep)",
             "--access", "ldmatrix:x4"});
    EXPECT_EQ(frag.exit_code, 2);
    EXPECT_NE(frag.err.find("T.Fragment"), std::string::npos) << frag.err;
    const ts::ProcessResult two =
        cli({"probe-request", kProject, "--access", "ldmatrix:x4", "--access", "stmatrix:x4"});
    EXPECT_EQ(two.exit_code, 2);
    EXPECT_NE(two.err.find("need --sweep"), std::string::npos) << two.err;
    const ts::ProcessResult nofile =
        cli({"probe-request", "/nonexistent/p.json:x", "--access", "ldmatrix:x4"});
    EXPECT_EQ(nofile.exit_code, 2);
    EXPECT_NE(nofile.err.find("cannot open the project file /nonexistent/p.json"),
              std::string::npos)
        << nofile.err;
    const ts::ProcessResult missing =
        cli({"probe-request", kProject + ":nope", "--access", "ldmatrix:x4"});
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("no layout named \"nope\""), std::string::npos) << missing.err;
}

TEST(Measurements, ReadsTheCommittedH200Results) {
    const auto one = ts::readProbeResult(slurp(kDir + "result.json"), "result.json");
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].layout, kSwizzled);
    EXPECT_EQ(one[0].access, "ldmatrix:x4");
    EXPECT_EQ(one[0].device, "NVIDIA H200");
    EXPECT_EQ(one[0].driver, "580.159.04");
    EXPECT_DOUBLE_EQ(one[0].predicted_wf, 4.0);
    EXPECT_DOUBLE_EQ(one[0].measured_wf, 4.0);
    EXPECT_EQ(one[0].verdict, "agree");
    EXPECT_TRUE(one[0].ok);
    const auto sweep = ts::readProbeResult(slurp(kDir + "sweep_result.json"), "sweep");
    ASSERT_EQ(sweep.size(), 9u);
    EXPECT_DOUBLE_EQ(sweep[0].predicted_wf, 32.0); // row-major ldmatrix: 8-way per matrix
    EXPECT_DOUBLE_EQ(sweep[0].measured_wf, 32.0);
    EXPECT_THROW(ts::readProbeResult(slurp(kDir + "request.json"), "request.json"), ts::InputError);
    EXPECT_THROW(ts::readProbeResult("{nope", "x.json"), ts::InputError);
}

TEST(Measurements, MatchOnlyTheLayoutThatWasMeasured) {
    const auto ms = ts::readProbeResult(slurp(kDir + "result.json"), "result.json");
    const ts::Measurement& m = ms.at(0);
    EXPECT_EQ(ts::measurementMismatch(m, "renamed",
                                      "make_full_bank_swizzled_layout((16, 64), \"float16\")"),
              "");
    const std::string other =
        ts::measurementMismatch(m, kSwizzled, "T.Layout([16, 64], lambda i, j: i * 64 + j)");
    EXPECT_NE(other.find("other shared-memory addresses"), std::string::npos) << other;
    const std::string frag = ts::measurementMismatch(
        m, "frag", "make_mma_load_base_layout(dtype=\"float16\", matrix=\"A\")");
    EXPECT_NE(frag.find("cannot be rebuilt"), std::string::npos) << frag;
}

TEST(DocumentRuns, KeptAndValidated) {
    ts::Document d = ts::parseDocument(slurp(kProject));
    EXPECT_TRUE(d.runs.empty());
    d.runs = R"([{"layout":"a","measured_wf":4.0,"driver":"580.159.04"}])";
    const ts::Document back = ts::parseDocument(ts::serializeDocument(d));
    EXPECT_EQ(json::parse(back.runs), json::parse(d.runs));
    EXPECT_THROW(
        ts::parseDocument(R"({"format":"tilescope-project","version":1,"layouts":[],"runs":3})"),
        ts::DocumentError);
    EXPECT_THROW(
        ts::parseDocument(R"({"format":"tilescope-project","version":1,"layouts":[],"runs":[1]})"),
        ts::DocumentError);
}

// tools/fleet_sweep.py: a sweep split into request files for a Slurm job array, and the parts'
// results (here the real probe's compile-only answers) merged back in request order.
TEST(FleetSweep, DryRunWritesNothingAndSplitThenMergeKeepsRequestOrder) {
    char tmpl[] = "/tmp/ts-fleet-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, script = TILESCOPE_SOURCE_DIR "/tools/fleet_sweep.py";
    const std::string sweep = kDir + "sweep_request.json";
    const ts::ProcessResult dry = ts::runProcess(
        {"python3", script, "split", sweep, "--parts", "4", "--dir", dir + "/parts", "--dry-run"},
        {}, 60);
    ASSERT_EQ(dry.exit_code, 0) << dry.err;
    EXPECT_NE(dry.out.find("would write " + dir + "/parts/part-0.json (3 patterns)"),
              std::string::npos)
        << dry.out;
    EXPECT_NE(dry.out.find("#SBATCH --array=0-3"), std::string::npos) << dry.out;
    EXPECT_NE(dry.out.find("--devices all"), std::string::npos) << dry.out;
    EXPECT_FALSE(std::ifstream(dir + "/parts/job.sbatch").good()); // a dry run writes nothing

    const ts::ProcessResult split = ts::runProcess(
        {"python3", script, "split", sweep, "--parts", "2", "--dir", dir + "/parts"}, {}, 60);
    ASSERT_EQ(split.exit_code, 0) << split.err;
    for (const char* k : {"0", "1"}) {
        const ts::ProcessResult r = ts::runProcess({TILESCOPE_PROBE, "--compile-only", "--sweep",
                                                    dir + "/parts/part-" + k + ".json", "--out",
                                                    dir + "/result-" + k + ".json"},
                                                   {}, 300);
        if (r.out.find("no CUDA compiler") != std::string::npos) GTEST_SKIP() << r.out;
        ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    }
    const ts::ProcessResult merged =
        ts::runProcess({"python3", script, "merge", dir + "/result-1.json", dir + "/result-0.json",
                        "--out", dir + "/merged.json"},
                       {}, 60);
    ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
    const json m = json::parse(slurp(dir + "/merged.json"));
    const json want = json::parse(slurp(sweep));
    ASSERT_EQ(m["patterns"].size(), want["patterns"].size());
    for (std::size_t i = 0; i < m["patterns"].size(); ++i)
        EXPECT_EQ(m["patterns"][i]["name"], want["patterns"][i]["name"]) << i;
    // One part missing: the merge says which patterns have no result and fails.
    const ts::ProcessResult half = ts::runProcess(
        {"python3", script, "merge", dir + "/result-1.json", "--out", dir + "/half.json"}, {}, 60);
    EXPECT_EQ(half.exit_code, 1);
    EXPECT_NE(half.out.find("5 of 9 patterns have no result"), std::string::npos) << half.out;
    ts::runProcess({"rm", "-rf", dir});
}
