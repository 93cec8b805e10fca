// SPDX-License-Identifier: Apache-2.0
// CuTe and Triton text: parse; for small layouts convert to each notation Tilescope writes
// (CuTe, Triton linear, TileLang) and read the text back, which must give the same cells (a
// CuTe or Triton round trip keeps each cell's set of threads: neither has a replica index).
// A conversion may refuse, with a reason; a different table aborts the run.
#include "fuzz_common.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <variant>

namespace {

nlohmann::json cells(const ts::Mapping& m, bool threadSets) {
    nlohmann::json c = ts::tableJson(m).at("cells");
    if (threadSets)
        for (auto& cell : c)
            if (cell.contains("threads")) std::sort(cell["threads"].begin(), cell["threads"].end());
    return c;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectCleanErrors([&] {
        const std::optional<ts::Mapping> m = ts::parseForeignNotation(fuzz::text(data, size));
        if (!m) return;
        const ts::Shape& shape =
            std::visit([](const auto& v) -> const ts::Shape& { return v.inputShape(); }, *m);
        if (!fuzz::smallShape(shape, 1024)) return;
        if (auto* f = std::get_if<ts::Fragment>(&*m); f && f->replicate() > 64) return;
        for (int target = 0; target < 3; ++target) {
            std::string text;
            try {
                text = target == 0   ? ts::toCuTe(*m).text
                       : target == 1 ? ts::toTritonLinear(*m).text
                                     : ts::toTileLangCode(*m);
            } catch (const ts::InputError&) {
                continue; // refused, with its reason
            }
            const bool sets = target != 2;
            if (cells(ts::parseMapping(text), sets) != cells(*m, sets)) std::abort();
        }
    });
    return 0;
}
