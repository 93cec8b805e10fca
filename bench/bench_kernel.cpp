// SPDX-License-Identifier: Apache-2.0
// The kernel X-ray of real TileLang kernels: read, walk, every access of every warp and
// iteration through the bank model, occupancy (target: a 1000-line kernel under 200 ms).
#include "tilescope/kernel/kernel_xray.h"
#include "tilescope/kernel/lowering.h"

#include <benchmark/benchmark.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

std::string readFile(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

void xray(benchmark::State& state, const std::string& dir) {
    const std::string base = std::string(TILESCOPE_SOURCE_DIR) + "/data/" + dir + "/";
    const std::string src = readFile(base + "kernel.cu");
    const auto launch =
        ts::kernel::launchesFromMeta(nlohmann::json::parse(readFile(base + "meta.json"))).at(0);
    std::int64_t wavefronts = 0;
    for (auto _ : state) {
        auto k = ts::kernel::xrayKernels(src, ts::kernel::optionsFor(launch));
        wavefronts = k.at(0).wavefronts;
        benchmark::DoNotOptimize(k);
    }
    state.counters["lines"] = double(std::count(src.begin(), src.end(), '\n'));
    state.counters["wavefronts"] = double(wavefronts);
}

} // namespace

BENCHMARK_CAPTURE(xray, flash_attn_995_lines, "kernels_bench/flash_attn_fwd_s6")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(xray, flash_attn_471_lines, "kernels/flash_attn_fwd")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(xray, gemm_3stage, "kernels/gemm_fp16_128x128x32_s3")
    ->Unit(benchmark::kMillisecond);
