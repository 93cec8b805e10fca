// SPDX-License-Identifier: Apache-2.0
// Bank analysis speed (target: a 128x128 fp16 tile read by a 4-warp fragment in under 1 ms):
// the tile's addresses, the fragment's evaluation and grouping into vector accesses, and the
// per-phase wavefront model over every instruction.
#include "tilescope/banks/access.h"
#include "tilescope/notation/mapping.h"

#include <benchmark/benchmark.h>

namespace {

const char* kGemmC = "make_gemm_c_fragment((128, 128), 128)";
const char* kElementwise = "T.Fragment([128, 128], forward_thread_fn=lambda i, j: (i * 128 + j) "
                           "// 8 % 128, forward_index_fn=lambda i, j: (i * 128 + j) // 1024 * 8 + "
                           "j % 8)";

void run(benchmark::State& state, const char* layoutText, const char* fragText) {
    ts::Layout layout = std::get<ts::Layout>(ts::parseMapping(layoutText));
    ts::Fragment frag = std::get<ts::Fragment>(ts::parseMapping(fragText));
    std::int64_t wf = 0, n = 0;
    for (auto _ : state) {
        ts::SharedTile tile(layout, "float16");
        ts::SharedAccess a = ts::fragmentAccess(tile, frag);
        ts::PlanCost c = ts::analyzePlan(a.plan);
        wf = c.wavefronts;
        n = std::int64_t(a.plan.instructions.size());
        benchmark::DoNotOptimize(c);
    }
    state.counters["wavefronts"] = double(wf);
    state.counters["instructions"] = double(n);
}

void BM_Banks_GemmC_RowMajor(benchmark::State& s) {
    run(s, "make_linear_layout((128, 128), \"float16\")", kGemmC);
}
void BM_Banks_GemmC_FullSwizzle(benchmark::State& s) {
    run(s, "make_full_bank_swizzled_layout((128, 128), \"float16\")", kGemmC);
}
void BM_Banks_Elementwise_RowMajor(benchmark::State& s) {
    run(s, "make_linear_layout((128, 128), \"float16\")", kElementwise);
}
void BM_Banks_Elementwise_FullSwizzle(benchmark::State& s) {
    run(s, "make_full_bank_swizzled_layout((128, 128), \"float16\")", kElementwise);
}
BENCHMARK(BM_Banks_GemmC_RowMajor)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Banks_GemmC_FullSwizzle)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Banks_Elementwise_RowMajor)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Banks_Elementwise_FullSwizzle)->Unit(benchmark::kMicrosecond);

} // namespace
