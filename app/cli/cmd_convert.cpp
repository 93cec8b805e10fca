// SPDX-License-Identifier: Apache-2.0
// `convert`: a layout in any notation Tilescope reads, written as TileLang, CuTe or a Triton
// linear layout when that is exact; otherwise the reason, exit 2.
#include "cli.h"

#include "tilescope/layout/table_json.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace {

struct ConvertArgs {
    std::string spec, to;
};

int convert(const CLI::App& sub, const ConvertArgs& a) {
    const std::string& to = a.to;
    if (to != "tilelang" && to != "cute" && to != "linear")
        cli::badUsage(sub, "--to must be tilelang, cute or linear");
    const std::string text = ts::resolveSpecText(a.spec);
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
    std::cerr << "tilescope-cli: read as " << ts::notationName(ts::recognizeNotation(text)) << "\n";
    if (!c.note.empty()) std::cerr << "tilescope-cli: note: " << c.note << "\n";
    std::cout << c.text << "\n";
    return cli::kOk;
}

cli::Run declareConvert(CLI::App& sub) {
    auto a = std::make_shared<ConvertArgs>();
    sub.add_option("SPEC", a->spec,
                   "the layout in any notation Tilescope reads, or "
                   "FILE.json[:NAME]")
        ->required();
    sub.add_option("--to", a->to, "the notation to write")
        ->required()
        ->type_name("tilelang|cute|linear");
    return [a, &sub] { return convert(sub, *a); };
}

cli::Register r({"convert",
                 "the layout written as TileLang code, CuTe (shape:stride, Sw<B,M,S>, a TV layout) "
                 "or a Triton linear layout, when exact; otherwise the reason (exit 2)",
                 declareConvert});

} // namespace
