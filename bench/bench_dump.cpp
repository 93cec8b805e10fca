// SPDX-License-Identifier: Apache-2.0
// Importing a synthetic 50 MB TileLang log (docs/benchmarks-dump.md records the figure).
#include "tilescope/trace/dump.h"

#include <benchmark/benchmark.h>
#include <string>

namespace {

// Visualization blocks for many buffers (2,000 distinct layouts), conflicts with both reprs,
// tracebacks and unrelated pass output, repeated up to `bytes`.
std::string syntheticLog(std::size_t bytes) {
    std::string s;
    s.reserve(bytes + 4096);
    std::size_t k = 0;
    while (s.size() < bytes) {
        const std::size_t rows = 16 << (k % 3), cols = 32 << (k % 2);
        const std::size_t warps = 1 + k % 4;
        std::string name = "buf" + std::to_string(k % 2000);
        s += name + " inferred layout:\n  Shape: (" + std::to_string(rows) + ", " +
             std::to_string(cols) + ") -> (" + std::to_string(rows * cols / (32 * warps)) +
             ",)\n  Thread: _i % 8 * 4 + _j % 8 // 2 + _j // 8 % " + std::to_string(warps) +
             " * 32\n  Index:  (_i // 8 * " + std::to_string(cols / (8 * warps) * 2) + " + _j // " +
             std::to_string(8 * warps) + " * 2 + _j % 2,)\n  Replicate:  1\n";
        if (k % 10 == 0) {
            s += "[14:09:22] : Fatal: Get different layout for A_frag" + std::to_string(k % 97) +
                 "\n current layout: Fragment((64, 64) -> (64,), replicate: 2, thread: 128, "
                 "forward_thread: _rep * 64 + _j // 32 * 32 + _j % 8 * 4 + _i % 8 // 2, "
                 "forward_index: (_i // 16 * 16 + _j % 32 // 16 * 8 + _i % 16 // 8 * 4 + _j % "
                 "16 // 8 * 2 + _i % 2,), thread_range: I.Range(0, 128))\n previous layout: "
                 "Fragment((64, 64) -> (64,), replicate: 2, thread: 128, forward_thread: _rep * "
                 "64 + _i // 32 * 32 + _i % 8 * 4 + _j % 8 // 2, forward_index: (_j // 16 * 16 + "
                 "_i % 32 // 16 * 8 + _j % 16 // 8 * 4 + _i % 16 // 8 * 2 + _j % 2,), "
                 "thread_range: I.Range(0, 128))\n  --> kernel.py:165:1\n";
        }
        if (k % 5 == 0) {
            s += "Traceback (most recent call last):\n  File \"/x/tilelang/engine/lower.py\", "
                 "line 238, in lower\n    return lower_with_context(\n           "
                 "^^^^^^^^^^^^^^^^^^^\n[pass] LowerTileOp: 12 blocks rewritten in 0.4 ms\n";
        }
        ++k;
    }
    return s;
}

const std::string& log50() {
    static const std::string s = syntheticLog(50u << 20);
    return s;
}

void BM_ImportDump50MB(benchmark::State& state) {
    const std::string& log = log50();
    std::size_t events = 0;
    for (auto _ : state) {
        ts::dump::Parser p;
        events = 0;
        constexpr std::size_t kChunk = 1 << 20;
        for (std::size_t pos = 0; pos < log.size(); pos += kChunk)
            events += p.feed(std::string_view(log).substr(pos, kChunk)).size();
        events += p.finish().size();
    }
    state.counters["events"] = static_cast<double>(events);
    state.counters["MB"] = static_cast<double>(log.size()) / (1 << 20);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.size()));
}
BENCHMARK(BM_ImportDump50MB)->Unit(benchmark::kMillisecond)->Iterations(3);

} // namespace
