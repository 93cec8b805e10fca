// SPDX-License-Identifier: Apache-2.0
// Core speed: parse + compile of mapping text, and whole-grid evaluation (target: a 1024x1024
// fragment of about six terms per expression in under 10 ms on one core).
#include "tilescope/lang/expr_eval.h"
#include "tilescope/notation/mapping.h"

#include <benchmark/benchmark.h>

namespace {

const char* kFragment1024 = "T.Fragment([1024, 1024], forward_thread_fn=lambda i, j: j // 16 * 64 "
                            "+ i // 16 % 2 * 32 + i % 8 * 4 + "
                            "j % 8 // 2, forward_index_fn=lambda i, j: i // 32 * 128 + j % 16 // 8 "
                            "* 4 + i % 16 // 8 * 2 + j % 2)";

void BM_ParseMapping(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(ts::parseMapping(kFragment1024));
}
BENCHMARK(BM_ParseMapping);

void BM_ParseAndCompile(benchmark::State& state) {
    for (auto _ : state) {
        ts::Mapping m = ts::parseMapping(kFragment1024);
        const auto& f = std::get<ts::Fragment>(m);
        ts::Program p({f.thread(), f.index()[0]}, {"_i", "_j", "_rep"});
        benchmark::DoNotOptimize(p.instructionCount());
    }
}
BENCHMARK(BM_ParseAndCompile);

void BM_EvaluateFragment(benchmark::State& state) {
    const auto n = state.range(0);
    std::string text = kFragment1024;
    text.replace(text.find("[1024, 1024]"), 12,
                 "[" + std::to_string(n) + ", " + std::to_string(n) + "]");
    ts::Mapping m = ts::parseMapping(text);
    const auto& f = std::get<ts::Fragment>(m);
    for (auto _ : state)
        benchmark::DoNotOptimize(f.evaluate());
    state.SetItemsProcessed(state.iterations() * n * n);
}
// Above 2^20 cells the evaluation runs on every core: read the wall-clock "Time" column there.
BENCHMARK(BM_EvaluateFragment)
    ->Arg(128)
    ->Arg(1024)
    ->Arg(2048)
    ->Arg(4096)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// A layout with a term mixing both coordinates (an XOR swizzle), so every cell runs the
// compiled program rather than only the tabulated sums.
void BM_EvaluateXorLayout(benchmark::State& state) {
    const auto n = state.range(0);
    ts::Mapping m = ts::parseMapping("T.Layout([" + std::to_string(n) + ", " + std::to_string(n) +
                                     "], lambda i, j: (i, j ^ (i % 8) * 8))");
    const auto& l = std::get<ts::Layout>(m);
    for (auto _ : state)
        benchmark::DoNotOptimize(l.evaluate());
    state.SetItemsProcessed(state.iterations() * n * n);
}
BENCHMARK(BM_EvaluateXorLayout)->Arg(1024)->Arg(4096)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_EvaluateSwizzle128(benchmark::State& state) {
    ts::Mapping m = ts::parseMapping("make_full_bank_swizzled_layout((128, 64), \"float16\")");
    const auto& l = std::get<ts::Layout>(m);
    for (auto _ : state)
        benchmark::DoNotOptimize(l.evaluate());
}
BENCHMARK(BM_EvaluateSwizzle128)->Unit(benchmark::kMicrosecond);

void BM_GemmC128Build(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(ts::parseMapping("make_gemm_c_fragment((128, 128), 128)"));
}
BENCHMARK(BM_GemmC128Build)->Unit(benchmark::kMicrosecond);

} // namespace
