// `table` and `print`: the evaluated cells as JSON, and TileLang's own text forms.
#include "cli.h"

#include "tilescope/layout/table_json.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace {

int table(const std::vector<std::string>& args) {
    return cli::reportError([&] {
        std::string spec;
        bool summary = false, strict = false;
        for (const auto& a : args) {
            if (a == "--summary")
                summary = true;
            else if (a == "--strict")
                strict = true;
            else if (!spec.empty() || (a.size() > 1 && a[0] == '-' && a[1] == '-'))
                throw ts::InputError("unexpected argument '" + a +
                                     "' (usage: table SPEC [--summary] [--strict])");
            else
                spec = a;
        }
        if (spec.empty())
            throw ts::InputError("missing SPEC (usage: table SPEC [--summary] [--strict])");
        ts::Mapping m = ts::parseMapping(ts::resolveSpecText(spec));
        const ts::SlotCollisions c = ts::writeTableJson(std::cout, m, summary);
        std::cout << "\n";
        if (c.any()) {
            // The table is still printed: it is what TileLang would build; the warning says why
            // it is almost certainly not what was meant.
            std::cerr << "tilescope-cli: " << (strict ? "error" : "warning")
                      << ": two elements share a register: " << c.summary() << "\n";
            if (strict) return cli::kBadInput;
        }
        return cli::kOk;
    });
}

int print(const std::vector<std::string>& args) {
    return cli::reportError([&] {
        std::string spec, name = "layout", format = "repr";
        for (std::size_t k = 0; k < args.size(); ++k) {
            if (args[k] == "--name" && k + 1 < args.size())
                name = args[++k];
            else if (args[k] == "--format" && k + 1 < args.size())
                format = args[++k];
            else if (spec.empty() && args[k].rfind("--", 0) != 0)
                spec = args[k];
            else
                throw ts::InputError("unexpected argument '" + args[k] + "'");
        }
        if (spec.empty())
            throw ts::InputError(
                "missing SPEC (usage: print SPEC [--format repr|visual|code|all])");
        ts::Mapping m = ts::parseMapping(ts::resolveSpecText(spec));
        cli::warnSlotCollisions(m);
        const ts::Fragment* f = std::get_if<ts::Fragment>(&m);
        if (format == "repr" || format == "all") std::cout << ts::tilelangRepr(m) << "\n";
        if ((format == "visual" || format == "all") && f)
            std::cout << ts::visualizationBlock(name, *f);
        if (format == "visual" && !f)
            throw ts::InputError("the layout-visualization block exists only for fragments");
        if (format == "code" || format == "all") std::cout << ts::toTileLangCode(m) << "\n";
        if (format != "repr" && format != "visual" && format != "code" && format != "all")
            throw ts::InputError("unknown --format '" + format + "' (repr, visual, code, all)");
        return cli::kOk;
    });
}

cli::Register r1({"table", "table SPEC [--summary] [--strict]",
                  "evaluate every cell; JSON on stdout ({kind, input_shape, "
                  "output_shape|thread_extent..., slot_collisions, cells}); a warning on stderr "
                  "when elements share a register (--strict: exit 2)",
                  table});
cli::Register r2({"print", "print SPEC [--format repr|visual|code|all] [--name BUF]",
                  "TileLang's repr, the layout-visualization block (fragments), or TileLang code",
                  print});

} // namespace
