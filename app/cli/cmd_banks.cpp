// `banks`: shared-memory bank conflicts of an access pattern over a layout (core/access.h).
#include "cli.h"

#include "tilescope/banks/access.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/wording.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace {

const char* kUsage = "banks SPEC --dtype DTYPE --access ACCESS [--vector N] [--steps K] [--store] "
                     "[--json] [--strict]";

int banks(const std::vector<std::string>& args) {
    return cli::reportError([&] {
        std::string spec, dtype = "float16", access;
        bool json = false, strict = false;
        ts::AccessOptions opt;
        for (std::size_t k = 0; k < args.size(); ++k) {
            const std::string& a = args[k];
            auto value = [&]() -> const std::string& {
                if (k + 1 >= args.size())
                    throw ts::InputError(a + " needs a value (usage: " + kUsage + ")");
                return args[++k];
            };
            if (a == "--dtype")
                dtype = value();
            else if (a == "--access")
                access = value();
            else if (a == "--vector")
                opt.vector = cli::parseCount(a, value());
            else if (a == "--steps")
                opt.steps = cli::parseCount(a, value());
            else if (a == "--store")
                opt.store = true;
            else if (a == "--json")
                json = true;
            else if (a == "--strict")
                strict = true;
            else if (spec.empty() && a.rfind("--", 0) != 0)
                spec = a;
            else
                throw ts::InputError("unexpected argument '" + a + "' (usage: " + kUsage + ")");
        }
        if (spec.empty()) throw ts::InputError(std::string("missing SPEC (usage: ") + kUsage + ")");
        if (access.empty())
            throw ts::InputError(std::string("missing --access (usage: ") + kUsage + ")");
        ts::Mapping m = ts::parseMapping(ts::resolveSpecText(spec));
        const ts::Layout* layout = std::get_if<ts::Layout>(&m);
        if (!layout)
            throw ts::InputError("SPEC is a fragment: banks needs the shared-memory T.Layout "
                                 "(give the fragment as --access fragment:...)");
        ts::SharedTile tile(*layout, dtype);
        if (auto alias = tile.aliasing()) {
            std::cerr << "tilescope-cli: " << (strict ? "error: " : "warning: ") << *alias
                      << "; wavefronts below count one element as two\n";
            if (strict) return cli::kBadInput;
        }
        ts::SharedAccess acc = ts::buildAccess(tile, access, opt);
        ts::PlanCost cost = ts::analyzePlan(acc.plan);
        if (json) {
            nlohmann::json j;
            ts::toJson(j, tile, acc, cost);
            std::cout << j.dump() << "\n";
        } else {
            std::cout << "layout " << ts::formatShape(tile.shape()) << " of " << dtype << " ("
                      << tile.elementBytes() << " B), " << acc.kind << " access, "
                      << ts::countNoun(acc.vector_elements, "element")
                      << " per lane access, footprint " << tile.footprintBytes() << " B\n";
            std::cout << ts::formatAccessTable(acc, cost);
        }
        return cli::kOk;
    });
}

cli::Register r({"banks", kUsage,
                 "bank conflicts (wavefronts, ideal, excess per instruction) of an access "
                 "(fragment:<mapping>, lanes:<lambda t[, k]: (r, c)>, ldmatrix|stmatrix:x1|x2|x4"
                 "[.trans][@r,c]) over a shared layout",
                 banks});

} // namespace
