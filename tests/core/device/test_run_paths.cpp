// SPDX-License-Identifier: Apache-2.0
// The core side of a device run: run preparation (layout checks before running), the TileLang
// kernel (lowered by the real TileLang 0.1.15 when the repository's .venv exists), the Ascend
// ND->NZ kernel and CANN detection.
#include "tilescope/device/ascend_kernel.h"
#include "tilescope/device/cann_detect.h"
#include "tilescope/device/kernelgen.h"
#include "tilescope/device/run_prepare.h"
#include "tilescope/device/subprocess.h"
#include "tilescope/device/tilelang_kernel.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

const char* kSwizzled = "make_full_bank_swizzled_layout((32, 64), \"float16\")";

std::string privateTempDir() {
    std::string t = (fs::temp_directory_path() / "tilescope-test-XXXXXX").string();
    EXPECT_NE(::mkdtemp(t.data()), nullptr); // 0700
    return t;
}

} // namespace

TEST(RunPrepare, PredictsLdmatrixOnRowMajorSwizzledAndPadded) {
    auto rm =
        ts::prepareRun("rm", "T.Layout([32, 64], lambda i, j: (i, j))", "float16", "ldmatrix:x4");
    EXPECT_EQ(rm.predicted.wavefronts, 32);
    EXPECT_EQ(rm.tile.elements, 32 * 64);
    auto sw = ts::prepareRun("sw", kSwizzled, "float16", "ldmatrix:x4");
    EXPECT_EQ(sw.predicted.wavefronts, 4);
    auto pad = ts::prepareRun("pad", "T.Layout([32, 64], lambda i, j: i * 72 + j)", "float16",
                              "ldmatrix:x4");
    EXPECT_EQ(pad.predicted.wavefronts, 4);
    EXPECT_EQ(pad.tile.elements, 32 * 64); // logical elements; padding holes are allowed
    EXPECT_EQ(*std::max_element(pad.tile.phys_of_logical.begin(), pad.tile.phys_of_logical.end()),
              31 * 72 + 63);
    // The request is what the probe reads; the kernel generator accepts the tile (holes too).
    EXPECT_EQ(pad.request["tile"]["phys_of_logical"].size(), 32u * 64u);
    EXPECT_NO_THROW(ts::generateCudaKernel(pad.plan, pad.tile));
}

TEST(RunPrepare, RefusesNonBijectiveTooLargeAndFragments) {
    try {
        ts::prepareRun("c", "T.Layout([8, 8], lambda i, j: (i // 2, j))", "float16",
                       "lanes:lambda t: (t % 8, 0)");
        FAIL();
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not a bijection onto shared memory"),
                  std::string::npos)
            << e.what();
    }
    try {
        ts::prepareRun("big", "T.Layout([256, 512], lambda i, j: (i, j))", "float16",
                       "ldmatrix:x4");
        FAIL();
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("262144 bytes of shared memory"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(
        ts::prepareRun("f", "make_gemm_c_fragment((32, 32), 128)", "float32", "ldmatrix:x4"),
        ts::InputError);
    // 96 KB fits the default limit but not a 64 KB one.
    ts::RunOptions small;
    small.max_smem_bytes = 64 * 1024;
    EXPECT_NO_THROW(
        ts::prepareRun("ok", "T.Layout([96, 512], lambda i, j: (i, j))", "float16", "ldmatrix:x4"));
    EXPECT_THROW(ts::prepareRun("no", "T.Layout([96, 512], lambda i, j: (i, j))", "float16",
                                "ldmatrix:x4", {}, small),
                 ts::InputError);
}

TEST(TileLangKernel, ScriptUsesAnnotateLayoutAndVisualization) {
    const ts::Mapping m = ts::parseMapping(kSwizzled);
    const std::string s = ts::generateTileLangKernel(std::get<ts::Layout>(m));
    EXPECT_NE(s.find("T.annotate_layout({A_shared: shared_layout()})"), std::string::npos);
    EXPECT_NE(s.find("\"tl.layout_visualization_enable\": True"), std::string::npos);
    EXPECT_NE(s.find("T.copy(A, A_shared)"), std::string::npos);
    EXPECT_NE(s.find("T.copy(A_shared, A_frag)"), std::string::npos);
    EXPECT_NE(s.find("return T.Layout([32, 64], lambda i, j:"), std::string::npos);
    EXPECT_NE(s.find("TILESCOPE_LATENCY_MS"), std::string::npos);
    ts::TileLangKernelOptions bad;
    bad.dtype = "float16\nimport os";
    EXPECT_THROW(ts::generateTileLangKernel(std::get<ts::Layout>(m), bad), ts::InputError);
    const ts::Layout inv =
        std::get<ts::Layout>(ts::parseMapping("T.Layout([4, 4], lambda i, j: (j, i))")).inverse();
    EXPECT_THROW(ts::generateTileLangKernel(inv), ts::InputError);
}

TEST(TileLangKernel, ParsesReportLines) {
    const auto r =
        ts::parseTileLangOutput("noise\nTILESCOPE_LOWERED 4.250\nTILESCOPE_ROUNDTRIP pass\n"
                                "TILESCOPE_LATENCY_MS 0.012500\r\nTILESCOPE_ERROR boom\n");
    EXPECT_TRUE(r.lowered);
    EXPECT_DOUBLE_EQ(r.lower_seconds, 4.25);
    ASSERT_TRUE(r.roundtrip && *r.roundtrip);
    ASSERT_TRUE(r.latency_ms);
    EXPECT_DOUBLE_EQ(*r.latency_ms, 0.0125);
    ASSERT_EQ(r.errors.size(), 1u);
    const auto n = ts::parseTileLangOutput(
        "TILESCOPE_LATENCY_MS nan-ish\nTILESCOPE_NO_GPU torch sees no CUDA device\n");
    EXPECT_FALSE(n.latency_ms);
    EXPECT_FALSE(n.lowered);
    EXPECT_EQ(n.no_gpu, "torch sees no CUDA device");
}

// The real TileLang 0.1.15 lowers the generated script; its log holds the inferred layouts.
// Built only where CMake found a .venv that imports tilelang (CI has none), so it never reports a
// skip as a pass.
#ifdef TILESCOPE_HAVE_TILELANG
TEST(TileLangKernel, LowersWithRealTileLang) {
    const std::string py = std::string(TILESCOPE_SOURCE_DIR) + "/.venv/bin/python";
    const ts::Mapping m = ts::parseMapping(kSwizzled);
    const std::string dir = privateTempDir();
    struct stat st {};
    ASSERT_EQ(::stat(dir.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    const std::string script = dir + "/tile_kernel.py";
    std::ofstream(script) << ts::generateTileLangKernel(std::get<ts::Layout>(m));
    const ts::ProcessResult pr =
        ts::runProcess({py, "-u", script}, {}, 600, {"PYTHONUNBUFFERED=1"});
    fs::remove_all(dir);
    ASSERT_TRUE(pr.started) << pr.error;
    ASSERT_FALSE(pr.timed_out);
    const std::string log = pr.out + pr.err;
    ASSERT_EQ(pr.exit_code, 0) << log;
    const ts::TileLangRunReport rep = ts::parseTileLangOutput(log);
    EXPECT_TRUE(rep.lowered) << log;
    EXPECT_FALSE(rep.no_gpu.empty()); // CPU only here
    // TileLang's own inference: the fragment A_frag of the shared -> fragment copy (128 threads).
    const auto events = ts::dump::parseText(log);
    const ts::dump::Event* frag = nullptr;
    for (const auto& e : events)
        if (e.kind == ts::dump::EventKind::Inferred && e.buffer == "A_frag") frag = &e;
    ASSERT_NE(frag, nullptr) << log;
    ASSERT_TRUE(frag->ok()) << frag->problem;
    const ts::dump::DumpLayout* l = frag->layout("layout");
    ASSERT_TRUE(l && l->value);
    const auto& f = std::get<ts::Fragment>(*l->value);
    EXPECT_EQ(f.inputShape(), (ts::Shape{32, 64}));
    EXPECT_EQ(f.threadExtent(), 128);
    EXPECT_NE(log.find("A_frag inferred layout:"), std::string::npos);
    EXPECT_NE(log.find("Thread: _i % 16 * 8 + _j // 8"), std::string::npos) << log;
}
#endif

TEST(Ascend, NdToNzShapeIndexAndScript) {
    EXPECT_EQ(ts::ndToNzShape(100, 60, "float16"), (std::vector<std::int64_t>{4, 7, 16, 16}));
    EXPECT_EQ(ts::ndToNzShape(16, 8, "float32"), (std::vector<std::int64_t>{1, 1, 16, 8}));
    EXPECT_EQ(ts::ndToNzIndex(0, 0, 100, 60, "float16"), 0);
    EXPECT_EQ(ts::ndToNzIndex(0, 16, 100, 60, "float16"), 7 * 256); // next column of fractals
    EXPECT_EQ(ts::ndToNzIndex(17, 1, 100, 60, "float16"), 256 + 16 + 1);
    // Every ND element lands on a distinct NZ element.
    std::vector<char> seen(4 * 7 * 256, 0);
    for (int r = 0; r < 100; ++r)
        for (int c = 0; c < 60; ++c)
            EXPECT_EQ(seen[std::size_t(ts::ndToNzIndex(r, c, 100, 60, "float16"))]++, 0);
    const std::string s = ts::generateAscendNdToNzKernel({});
    EXPECT_NE(s.find("is_npu=True"), std::string::npos);
    EXPECT_NE(s.find("ROWS1, COLS1 = 7, 4"), std::string::npos);
    EXPECT_NE(s.find("no Ascend NPU"), std::string::npos);
    EXPECT_THROW(ts::ndToNzShape(0, 4, "float16"), ts::InputError);
    EXPECT_EQ(ts::ascendC0("int4"), 64);
    EXPECT_THROW(ts::ascendC0("float64"), ts::InputError);
}

TEST(Ascend, DetectCannSaysExactlyWhatIsMissing) {
    std::map<std::string, std::string> env; // nothing set
    const auto none = ts::detectCann(&env);
    if (fs::exists("/usr/local/Ascend/ascend-toolkit/latest"))
        GTEST_SKIP() << "a CANN toolkit is installed here";
    EXPECT_FALSE(none.complete);
    ASSERT_FALSE(none.missing.empty());
    EXPECT_NE(none.missing[0].find("no CANN toolkit"), std::string::npos);
    EXPECT_NE(none.summary().find("ASCEND_HOME_PATH"), std::string::npos);

    env["ASCEND_HOME_PATH"] = "/nonexistent/ascend";
    const auto bad = ts::detectCann(&env);
    EXPECT_NE(bad.summary().find("'/nonexistent/ascend', which is not a directory"),
              std::string::npos);

    // Fake toolkits, PATH entries and probes: test_cann_detect.cpp.
}
