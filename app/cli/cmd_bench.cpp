// SPDX-License-Identifier: Apache-2.0
// `bench`: time parse and whole-grid evaluation of a SPEC on this machine (a --bench mode for
// machines without Google Benchmark, such as the device box). With --access, time the bank
// analysis of that access over SPEC as a shared tile too (tile addresses, access plan, model).
#include "cli.h"

#include "tilescope/banks/access.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

namespace {

struct BenchArgs {
    std::string spec, access, dtype = "float16", repeat;
};

int bench(const BenchArgs& a) {
    const std::string& spec = a.spec;
    const std::string& access = a.access;
    const std::string& dtype = a.dtype;
    const int repeat = a.repeat.empty() ? 20 : std::max(1, cli::parseCount("--repeat", a.repeat));
    const std::string text = ts::resolveSpecText(spec);
    using clock = std::chrono::steady_clock;
    auto ms = [](clock::duration d) {
        return std::chrono::duration<double, std::milli>(d).count();
    };
    std::vector<double> parse, eval;
    std::int64_t cells = 0;
    for (int r = 0; r < repeat; ++r) {
        auto t0 = clock::now();
        ts::Mapping m = ts::parseMapping(text);
        auto t1 = clock::now();
        std::visit([&](const auto& v) { cells = v.evaluate().cells(); }, m);
        auto t2 = clock::now();
        parse.push_back(ms(t1 - t0));
        eval.push_back(ms(t2 - t1));
    }
    auto report = [&](const char* what, std::vector<double> v) {
        std::sort(v.begin(), v.end());
        std::printf("%-9s min %9.3f ms  median %9.3f ms  max %9.3f ms\n", what, v.front(),
                    v[v.size() / 2], v.back());
    };
    std::printf("%lld cells, %d repetitions\n", static_cast<long long>(cells), repeat);
    // The first repetition apart: it meets the process cold (worker threads not started, the
    // allocator's memory not yet taken from the kernel), as a window's first evaluation does.
    std::printf("first     parse %9.3f ms  evaluate %9.3f ms\n", parse.front(), eval.front());
    report("parse", parse);
    report("evaluate", eval);
    if (!access.empty()) {
        const ts::Mapping tileMapping = ts::parseMapping(text);
        const auto* layout = std::get_if<ts::Layout>(&tileMapping);
        if (!layout) throw ts::InputError("--access needs SPEC to be a T.Layout (the tile)");
        std::vector<double> banks;
        std::int64_t wavefronts = 0, instructions = 0;
        for (int r = 0; r < repeat; ++r) {
            auto t0 = clock::now();
            ts::SharedTile tile(*layout, dtype);
            ts::SharedAccess a = ts::buildAccess(tile, access);
            ts::PlanCost c = ts::analyzePlan(a.plan);
            banks.push_back(ms(clock::now() - t0));
            wavefronts = c.wavefronts;
            instructions = std::int64_t(a.plan.instructions.size());
        }
        std::printf("%lld instructions, %lld wavefronts\n", static_cast<long long>(instructions),
                    static_cast<long long>(wavefronts));
        report("banks", banks);
    }
    return cli::kOk;
}

cli::Run declareBench(CLI::App& sub) {
    auto a = std::make_shared<BenchArgs>();
    sub.add_option("SPEC", a->spec, "mapping text or FILE.json[:NAME]")->required();
    sub.add_option("--repeat", a->repeat, "repetitions (default 20)")->type_name("N");
    sub.add_option("--access", a->access, "also time the bank analysis of ACCESS over SPEC")
        ->type_name("ACCESS");
    sub.add_option("--dtype", a->dtype,
                   "element type of the tile for --access (default "
                   "float16)")
        ->type_name("DTYPE");
    return [a] { return bench(*a); };
}

cli::Register r({"bench",
                 "time parse+compile and whole-grid evaluation (min/median/max); with --access, "
                 "also the bank analysis of ACCESS over SPEC as the shared tile",
                 declareBench});

} // namespace
