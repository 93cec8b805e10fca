// SPDX-License-Identifier: Apache-2.0
// `table` and `print`: the evaluated cells as JSON, and TileLang's own text forms.
#include "cli.h"

#include "tilescope/layout/table_json.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace {

constexpr const char* kSpecHelp = "mapping-language text, or FILE.json[:NAME]";

struct TableArgs {
    std::string spec;
    bool summary = false, strict = false;
};

int table(const TableArgs& a) {
    ts::Mapping m = ts::parseMapping(ts::resolveSpecText(a.spec));
    cli::sayNotes(m);
    const ts::SlotCollisions c = ts::writeTableJson(std::cout, m, a.summary);
    std::cout << "\n";
    if (c.any()) {
        // The table is still printed: it is what TileLang would build; the warning says why
        // it is almost certainly not what was meant.
        std::cerr << "tilescope-cli: " << (a.strict ? "error" : "warning")
                  << ": two elements share a register: " << c.summary() << "\n";
        if (a.strict) return cli::kBadInput;
    }
    return cli::kOk;
}

cli::Run declareTable(CLI::App& sub) {
    auto a = std::make_shared<TableArgs>();
    sub.add_option("SPEC", a->spec, kSpecHelp)->required();
    sub.add_flag("--summary", a->summary, "shapes and slot collisions without the cells");
    sub.add_flag("--strict", a->strict, "exit 2 when elements share a register");
    return [a] { return table(*a); };
}

struct PrintArgs {
    std::string spec, name = "layout", format = "repr";
};

int print(const PrintArgs& a) {
    const std::string& format = a.format;
    ts::Mapping m = ts::parseMapping(ts::resolveSpecText(a.spec));
    cli::warnSlotCollisions(m);
    cli::sayNotes(m);
    const ts::Fragment* f = std::get_if<ts::Fragment>(&m);
    if (format == "repr" || format == "all") std::cout << ts::tilelangRepr(m) << "\n";
    if ((format == "visual" || format == "all") && f)
        std::cout << ts::visualizationBlock(a.name, *f);
    if (format == "visual" && !f)
        throw ts::InputError("the layout-visualization block exists only for fragments");
    if (format == "code" || format == "all") std::cout << ts::toTileLangCode(m) << "\n";
    if (format != "repr" && format != "visual" && format != "code" && format != "all")
        throw ts::InputError("unknown --format '" + format + "' (repr, visual, code, all)");
    return cli::kOk;
}

cli::Run declarePrint(CLI::App& sub) {
    auto a = std::make_shared<PrintArgs>();
    sub.add_option("SPEC", a->spec, kSpecHelp)->required();
    sub.add_option("--format", a->format,
                   "repr (default), visual (fragments: the layout-visualization block), code "
                   "or all")
        ->type_name("repr|visual|code|all");
    sub.add_option("--name", a->name,
                   "the buffer name of the visualization block (default "
                   "layout)")
        ->type_name("BUF");
    return [a] { return print(*a); };
}

cli::Register r1({"table",
                  "evaluate every cell; JSON on stdout ({kind, input_shape, "
                  "output_shape|thread_extent..., slot_collisions, cells}); a warning on stderr "
                  "when elements share a register (--strict: exit 2)",
                  declareTable});
cli::Register r2({"print",
                  "TileLang's repr, the layout-visualization block (fragments), or TileLang code",
                  declarePrint});

} // namespace
