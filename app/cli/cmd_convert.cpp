// `convert`: a layout in any notation Tilescope reads, written as TileLang, CuTe or a Triton
// linear layout when that is exact; otherwise the reason, exit 2.
#include "cli.h"

#include "tilescope/layout/table_json.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <iostream>
#include <nlohmann/json.hpp>

namespace {

constexpr const char* kUsage = "convert SPEC --to tilelang|cute|linear";

int convert(const std::vector<std::string>& args) {
    return cli::reportError([&] {
        std::string spec, to;
        for (std::size_t k = 0; k < args.size(); ++k) {
            if (args[k] == "--to" && k + 1 < args.size())
                to = args[++k];
            else if (spec.empty() && args[k].rfind("--", 0) != 0)
                spec = args[k];
            else
                throw ts::InputError("unexpected argument '" + args[k] + "' (usage: " + kUsage +
                                     ")");
        }
        if (spec.empty()) throw ts::InputError(std::string("missing SPEC (usage: ") + kUsage + ")");
        if (to != "tilelang" && to != "cute" && to != "linear")
            throw ts::InputError(
                "--to must be tilelang, cute or linear (usage: " + std::string(kUsage) + ")");
        const std::string text = ts::resolveSpecText(spec);
        ts::Mapping m = ts::parseMapping(text);
        ts::Conversion c;
        if (to == "tilelang")
            c.text = ts::toTileLangCode(m);
        else if (to == "cute")
            c = ts::toCuTe(m);
        else
            c = ts::toTritonLinear(m);
        // The converters check every cell already; reading the text back guards the printers.
        if (ts::tableJson(ts::parseMapping(c.text)) != ts::tableJson(m))
            throw std::logic_error("the converted text does not read back to the same cells");
        std::cerr << "tilescope-cli: read as " << ts::notationName(ts::recognizeNotation(text))
                  << "\n";
        if (!c.note.empty()) std::cerr << "tilescope-cli: note: " << c.note << "\n";
        std::cout << c.text << "\n";
        return cli::kOk;
    });
}

cli::Register r({"convert", kUsage,
                 "the layout written as TileLang code, CuTe (shape:stride, Sw<B,M,S>, a TV layout) "
                 "or a Triton linear layout, when exact; otherwise the reason (exit 2)",
                 convert});

} // namespace
