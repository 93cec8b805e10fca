// SPDX-License-Identifier: Apache-2.0
// `banks`: shared-memory bank conflicts of an access pattern over a layout (banks/access.h).
#include "cli.h"

#include "tilescope/banks/access.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/wording.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace {

struct BanksArgs {
    std::string spec, dtype = "float16", access, vector, steps;
    bool store = false, json = false, strict = false;
};

int banks(const BanksArgs& a) {
    const std::string& spec = a.spec;
    const std::string& dtype = a.dtype;
    const std::string& access = a.access;
    const bool json = a.json, strict = a.strict;
    ts::AccessOptions opt;
    if (!a.vector.empty()) opt.vector = cli::parseCount("--vector", a.vector);
    if (!a.steps.empty()) opt.steps = cli::parseCount("--steps", a.steps);
    opt.store = a.store;
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
                  << ts::countNoun(acc.vector_elements, "element") << " per lane access, footprint "
                  << tile.footprintBytes() << " B\n";
        std::cout << ts::formatAccessTable(acc, cost);
    }
    return cli::kOk;
}

cli::Run declareBanks(CLI::App& sub) {
    auto a = std::make_shared<BanksArgs>();
    sub.add_option("SPEC", a->spec, "the shared-memory T.Layout: mapping text or FILE.json[:NAME]")
        ->required();
    cli::shownAsNeeded(
        sub.add_option("--dtype", a->dtype, "element type of the tile (default float16)")
            ->type_name("DTYPE"));
    sub.add_option("--access", a->access,
                   "fragment:<mapping>, lanes:<lambda t[, k]: (r, c)> or "
                   "ldmatrix|stmatrix:x1|x2|x4[.trans][@r,c]")
        ->required()
        ->type_name("ACCESS");
    sub.add_option("--vector", a->vector, "elements per lane access")->type_name("N");
    sub.add_option("--steps", a->steps, "steps of the access")->type_name("K");
    sub.add_flag("--store", a->store, "a store rather than a load");
    sub.add_flag("--json", a->json, "the tile, plan and cost as JSON");
    sub.add_flag("--strict", a->strict, "exit 2 when the layout aliases elements");
    return [a] { return banks(*a); };
}

cli::Register r({"banks",
                 "bank conflicts (wavefronts, ideal, excess per instruction) of an access "
                 "(fragment:<mapping>, lanes:<lambda t[, k]: (r, c)>, ldmatrix|stmatrix:x1|x2|x4"
                 "[.trans][@r,c]) over a shared layout",
                 declareBanks});

} // namespace
