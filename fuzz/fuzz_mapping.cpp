// SPDX-License-Identifier: Apache-2.0
// The mapping language: parse, and when the layout is small evaluate it, print its repr and
// mapping text and re-parse that.
#include "fuzz_common.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/trace/dump.h"

#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::expectCleanErrors([&] {
        ts::Mapping m = ts::parseMapping(fuzz::text(data, size));
        const ts::Shape& shape =
            std::visit([](const auto& v) -> const ts::Shape& { return v.inputShape(); }, m);
        if (!fuzz::smallShape(shape, 4096)) return;
        if (auto* f = std::get_if<ts::Fragment>(&m); f && f->replicate() > 64) return;
        std::visit([](const auto& v) { (void)v.evaluate(); }, m);
        (void)ts::tilelangRepr(m);
        std::string text = ts::dump::mappingText(m);
        (void)ts::parseMapping(text);
        (void)ts::toTileLangCode(m);
    });
    return 0;
}
