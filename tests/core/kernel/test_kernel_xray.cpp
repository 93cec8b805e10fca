// SPDX-License-Identifier: Apache-2.0
// The kernel X-ray on small kernels (costs against the bank model's brute-force path, with the
// lane addresses computed here by plain loops), on every committed real TileLang kernel against
// its H200 measurement, and on bad input.
#include "tilescope/kernel/kernel_view.h"
#include "tilescope/kernel/kernel_xray.h"
#include "tilescope/kernel/lowering.h"
#include "tilescope/kernel/measured.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace ts;
using namespace ts::kernel;

namespace {

std::string readFile(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// Total wavefronts of a plan of one instruction per warp from per-thread byte addresses.
std::int64_t bruteForce(SharedOp op, int bytes, int threads,
                        const std::function<std::int64_t(int)>& address) {
    AccessPlan plan;
    for (int w = 0; w < (threads + 31) / 32; ++w) {
        Instruction ins;
        ins.op = op;
        ins.bytes_per_lane = bytes;
        for (int l = 0; l < 32 && w * 32 + l < threads; ++l)
            ins.lanes.push_back({l, address(w * 32 + l), true});
        plan.instructions.push_back(ins);
    }
    return analyzePlanBruteForce(plan).wavefronts;
}

const KernelXray one(const std::string& src, XrayOptions o = {}) {
    auto v = xrayKernels(src, o);
    EXPECT_EQ(v.size(), 1u);
    return v.at(0);
}

} // namespace

TEST(KernelXray, StridedStoreCostsWhatTheBankModelSays) {
    const auto k = one(R"(extern "C" __global__ void __launch_bounds__(128) k(float* A) {
  __shared__ float s[4096];
  s[((int)threadIdx.x) * 2] = A[threadIdx.x];
  float v = s[((((int)threadIdx.x) & 7) * 32) + (((int)threadIdx.x) >> 3)];
  A[threadIdx.x] = v;
})");
    ASSERT_EQ(k.sites.size(), 2u);
    EXPECT_EQ(k.sites[0].kind, AccessKind::Store);
    EXPECT_EQ(k.sites[1].kind, AccessKind::Load);
    EXPECT_EQ(k.costs[0].instructions, 4);
    EXPECT_EQ(k.costs[0].wavefronts,
              bruteForce(SharedOp::Store, 4, 128, [](int t) { return std::int64_t(t) * 8; }));
    EXPECT_EQ(k.costs[0].wavefronts, 8); // 2-way conflict, 4 warps
    EXPECT_EQ(k.costs[1].wavefronts, bruteForce(SharedOp::Load, 4, 128, [](int t) {
                  return std::int64_t((t & 7) * 32 + (t >> 3)) * 4;
              }));
    EXPECT_EQ(k.static_smem, 16384);
    EXPECT_EQ(k.lines.size(), 2u);
}

TEST(KernelXray, LoopsConditionsAndVectorAccessesAreEvaluatedPerIterationAndLane) {
    const auto k = one(R"(extern "C" __global__ void __launch_bounds__(64) k(half_t* A) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* B_s = ((void*)((char*)buf_dyn_shmem + 1024));
  for (int i = 0; i < 3; ++i) {
    if (((int)threadIdx.x) < 48) {
      *(uint4*)(((half_t*)B_s) + ((i * 512) + (((int)threadIdx.x) * 16))) = *(uint4*)(A + i);
    }
  }
})");
    ASSERT_EQ(k.sites.size(), 1u);
    const Site& s = k.sites[0];
    EXPECT_EQ(s.bytes, 16);
    EXPECT_EQ(k.buffers[std::size_t(s.buffer)].name, "B_s");
    const SiteCost& c = k.costs[0];
    // warp 1 has lanes 32..47 active: still issued. 3 iterations x 2 warps.
    EXPECT_EQ(c.instructions, 6);
    std::int64_t expect = 0;
    for (int i = 0; i < 3; ++i) {
        AccessPlan plan;
        for (int w = 0; w < 2; ++w) {
            Instruction ins;
            ins.op = SharedOp::Store;
            ins.bytes_per_lane = 16;
            for (int l = 0; l < 32; ++l)
                if (w * 32 + l < 48)
                    ins.lanes.push_back({l, 1024 + (i * 512 + (w * 32 + l) * 16) * 2, true});
            plan.instructions.push_back(ins);
        }
        expect += analyzePlanBruteForce(plan).wavefronts;
    }
    EXPECT_EQ(c.wavefronts, expect);
    // The lanes of one instance, as the overlay sees them.
    const Instruction ins = siteInstruction(k, 0, 2, 1);
    ASSERT_EQ(ins.lanes.size(), 16u);
    EXPECT_EQ(ins.lanes[0].byte_address, 1024 + (2 * 512 + 32 * 16) * 2);
}

TEST(KernelXray, WhatCannotBeEvaluatedIsListedWithAReasonAndNoNumber) {
    const auto k = one(R"(extern "C" __global__ void __launch_bounds__(32) k(int* X, int n) {
  __shared__ int h[256];
  h[(X[threadIdx.x] & 255)] = 1;
  for (int i = 0; i < n; ++i) { h[threadIdx.x] = i; }
  atomicAdd(&h[threadIdx.x], 1);
  foo(&h[0]);
})");
    ASSERT_EQ(k.sites.size(), 4u);
    for (std::size_t i = 0; i < k.sites.size(); ++i) {
        EXPECT_FALSE(k.sites[i].not_analysed.empty()) << i;
        EXPECT_EQ(k.costs[i].instructions, 0) << i;
    }
    EXPECT_NE(k.sites[0].not_analysed.find("data read from memory"), std::string::npos)
        << k.sites[0].not_analysed;
    EXPECT_NE(k.sites[1].not_analysed.find("bound is not a constant"), std::string::npos)
        << k.sites[1].not_analysed;
    EXPECT_EQ(k.sites[2].kind, AccessKind::Atomic);
    EXPECT_NE(k.sites[3].not_analysed.find("foo"), std::string::npos);
    EXPECT_EQ(k.sites_not_analysed, 4);
    EXPECT_EQ(k.instructions, 0);
}

TEST(KernelXray, BadInputSaysWhatAndWhere) {
    EXPECT_THROW(xrayKernels("int main() { return 0; }"), InputError);
    try {
        xrayKernels("__global__ void k() { }");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("__launch_bounds__"), std::string::npos);
    }
    XrayOptions o;
    o.function = "nope";
    try {
        xrayKernels("__global__ void __launch_bounds__(32) k() { }", o);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("the source has: k"), std::string::npos);
    }
    // A real kernel cut in half: an error naming a line, never a result.
    const std::string src = readFile(std::string(TILESCOPE_SOURCE_DIR) +
                                     "/data/kernels/gemm_fp16_128x128x32_s3/kernel.cu");
    try {
        xrayKernels(src.substr(0, src.size() / 2));
        FAIL() << "a truncated kernel gave a result";
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("line "), std::string::npos) << e.what();
    }
}

TEST(KernelXray, OccupancyFollowsTheArchitectureLimits) {
    // 256 threads, 48 KB dynamic shared memory, no fragments: sm_80 fits 3 blocks by shared
    // memory ((48K + 1K) x 3 <= 164K), sm_90 4 ((48K + 1K) x 4 <= 228K).
    XrayOptions o;
    o.dynamic_smem = 49152;
    const auto k =
        one("__global__ void __launch_bounds__(256) k() { extern __shared__ uchar b[]; }", o);
    ASSERT_EQ(k.occupancy.size(), 2u);
    EXPECT_EQ(k.occupancy[0].arch, "sm_80");
    EXPECT_EQ(k.occupancy[0].blocks_per_sm, 3);
    EXPECT_EQ(k.occupancy[0].limiter, "shared memory");
    EXPECT_EQ(k.occupancy[1].blocks_per_sm, 4);
    o.dynamic_smem = 300000;
    const auto big =
        one("__global__ void __launch_bounds__(256) k() { extern __shared__ uchar b[]; }", o);
    EXPECT_EQ(big.occupancy[1].blocks_per_sm, 0);
    EXPECT_NE(big.occupancy[1].limiter.find("does not fit"), std::string::npos);
}

TEST(KernelXray, RegistersAreTheLiveFragmentsPeak) {
    const auto k = one(R"(__global__ void __launch_bounds__(32) k() {
  float acc[64];
  { half_t a[16]; }
  { half_t b[32]; }
})");
    EXPECT_EQ(k.registers_lower_bound, 64 + 16); // b's scope does not overlap a's
}

// Every committed real kernel: the prediction against the H200 measurement, line by line.
TEST(KernelXray, RealKernelsMatchTheirH200MeasurementLineByLine) {
    namespace fs = std::filesystem;
    int kernels = 0, lsuLines = 0;
    std::vector<fs::directory_entry> dirs;
    for (const char* set : {"/data/kernels", "/data/kernels_heldout"})
        for (const auto& d : fs::directory_iterator(std::string(TILESCOPE_SOURCE_DIR) + set))
            dirs.push_back(d);
    for (const auto& d : dirs) {
        if (!fs::exists(d.path() / "measured.json")) continue;
        SCOPED_TRACE(d.path().filename().string());
        const auto meta = nlohmann::json::parse(readFile((d.path() / "meta.json").string()));
        const auto launches = launchesFromMeta(meta);
        const std::string src = readFile((d.path() / "kernel.cu").string());
        const Measured m =
            readMeasured(readFile((d.path() / "measured.json").string()), "measured.json");
        for (const auto& l : launches) {
            auto xs = xrayKernels(src, optionsFor(l));
            ASSERT_EQ(xs.size(), 1u);
            attachLayouts(xs[0], meta["layouts"]);
            const Comparison c = compare(xs[0], m, blocksOf(l.name, launches, m));
            for (const auto& line : c.lines) {
                EXPECT_TRUE(line.status.rfind("match", 0) == 0 || line.status == "not analysed" ||
                            line.status == "not LSU")
                    << "line " << line.line << ": " << line.status << " predicted "
                    << line.predicted_instructions << "/" << line.predicted_wavefronts
                    << " measured " << line.measured_instructions << "/"
                    << line.measured_wavefronts;
                if (line.status == "match") ++lsuLines;
            }
            EXPECT_TRUE(c.allMatch());
            ++kernels;
        }
    }
    EXPECT_GE(kernels, 28);
    EXPECT_GE(lsuLines, 150); // lines that match on their own, not only as a group // lines that
                              // match on their own (92 when measured), not only as a group
}

TEST(KernelXray, ReductionWorkspaceAndForwardedLoadsAreModelled) {
    const std::string dir = std::string(TILESCOPE_SOURCE_DIR) + "/data/kernels/row_reduce_sum/";
    const auto meta = nlohmann::json::parse(readFile(dir + "meta.json"));
    const auto k =
        xrayKernels(readFile(dir + "kernel.cu"), optionsFor(launchesFromMeta(meta).at(0))).at(0);
    int reduceStores = 0, forwarded = 0;
    for (const auto& s : k.sites) {
        if (s.note.find("tl::AllReduce") != std::string::npos && s.kind == AccessKind::Store)
            ++reduceStores;
        if (s.forwardable) ++forwarded;
    }
    EXPECT_EQ(reduceStores, 3); // offsets 128, 64, 32 go through shared memory; 16..1 shuffle
    EXPECT_EQ(forwarded, 1);    // line 33 reads back what each thread stored at line 27
}

TEST(KernelXray, InstanceAccessColoursTheInferredTile) {
    const std::string dir =
        std::string(TILESCOPE_SOURCE_DIR) + "/data/kernels/gemm_fp16_128x128x32_s3/";
    const auto meta = nlohmann::json::parse(readFile(dir + "meta.json"));
    auto k =
        xrayKernels(readFile(dir + "kernel.cu"), optionsFor(launchesFromMeta(meta).at(0))).at(0);
    attachLayouts(k, meta["layouts"]);
    int site = -1;
    for (std::size_t i = 0; i < k.sites.size(); ++i)
        if (k.sites[i].kind == AccessKind::LdMatrix && site < 0) site = int(i);
    ASSERT_GE(site, 0);
    const BufferTile t = bufferTile(k, k.sites[std::size_t(site)].buffer);
    EXPECT_NE(t.why.find("inferred"), std::string::npos) << t.why;
    const auto m = parseMapping(t.spec);
    SharedTile tile(std::get<Layout>(m), t.dtype);
    const Instruction ins = siteInstruction(k, site, 0, 0);
    int outside = 0;
    const SharedAccess a = instanceAccess(
        tile, k.buffers[std::size_t(k.sites[std::size_t(site)].buffer)].address, ins, 0, &outside);
    EXPECT_EQ(outside, 0);
    ASSERT_EQ(a.touches.size(), 1u);
    EXPECT_EQ(a.touches[0].size(), 32u); // x4: every lane gives a 16-byte row
    std::set<std::int32_t> cells;
    for (const auto& t2 : a.touches[0])
        for (auto c : a.cellsOf(t2))
            cells.insert(c);
    EXPECT_EQ(cells.size(), 32u * 8u); // 4 matrices of 8x8 halves
}

// The classic GEMM's A tile: conflict-free banks, but each 8-lane phase of its cp.async reads two
// 64-byte global rows (measured on the H200: 8 wavefronts, ideal 4). The excess is the global
// side's, and the cost says so (bank_wavefronts = ideal).
TEST(KernelXray, CpAsyncExcessFromGlobalLinesIsNotABankConflict) {
    const std::string dir =
        std::string(TILESCOPE_SOURCE_DIR) + "/data/kernels/gemm_fp16_128x128x32_s3/";
    const auto meta = nlohmann::json::parse(readFile(dir + "meta.json"));
    const auto k =
        xrayKernels(readFile(dir + "kernel.cu"), optionsFor(launchesFromMeta(meta).at(0))).at(0);
    int checked = 0;
    for (std::size_t i = 0; i < k.sites.size(); ++i) {
        const Site& s = k.sites[i];
        if (s.kind != AccessKind::CpAsync) continue;
        const SiteCost& c = k.costs[i];
        EXPECT_EQ(c.bank_wavefronts, c.ideal) << "line " << s.line;
        const bool aTile = k.buffers[std::size_t(s.buffer)].name == "A_shared";
        EXPECT_EQ(c.max_wavefronts, aTile ? 8 : 4) << "line " << s.line;
        ++checked;
    }
    EXPECT_EQ(checked, 6);
    EXPECT_NE(formatXray(k).find("global lines"), std::string::npos);
}
