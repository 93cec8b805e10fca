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

namespace {

int bench(const std::vector<std::string>& args) {
    return cli::reportError([&] {
        const char* usage = " (usage: bench SPEC [--repeat N] [--access ACCESS --dtype DTYPE])";
        std::string spec, access, dtype = "float16";
        int repeat = 20;
        for (std::size_t k = 0; k < args.size(); ++k) {
            if (args[k] == "--repeat" && k + 1 < args.size())
                repeat = std::max(1, cli::parseCount("--repeat", args[++k]));
            else if (args[k] == "--access" && k + 1 < args.size())
                access = args[++k];
            else if (args[k] == "--dtype" && k + 1 < args.size())
                dtype = args[++k];
            else if (spec.empty())
                spec = args[k];
            else
                throw ts::InputError("unexpected argument '" + args[k] + "'" + usage);
        }
        if (spec.empty()) throw ts::InputError(std::string("missing SPEC") + usage);
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
            std::printf("%lld instructions, %lld wavefronts\n",
                        static_cast<long long>(instructions), static_cast<long long>(wavefronts));
            report("banks", banks);
        }
        return cli::kOk;
    });
}

cli::Register r({"bench", "bench SPEC [--repeat N] [--access ACCESS [--dtype DTYPE]]",
                 "time parse+compile and whole-grid evaluation (min/median/max); with --access, "
                 "also the bank analysis of ACCESS over SPEC as the shared tile",
                 bench});

} // namespace
