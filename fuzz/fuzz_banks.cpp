// SPDX-License-Identifier: Apache-2.0
// The `banks` ACCESS parser over a few shared tiles: byte 0 picks the tile and dtype, byte 1
// the vector width / steps / store flag, the rest is the ACCESS text.
#include "fuzz_common.h"
#include "tilescope/banks/access.h"
#include "tilescope/notation/mapping.h"

#include <array>
#include <variant>

namespace {
const ts::Layout& tile(int k) {
    static const std::array<ts::Layout, 4> tiles = [] {
        auto L = [](const char* s) { return std::get<ts::Layout>(ts::parseMapping(s)); };
        return std::array<ts::Layout, 4>{
            L("T.Layout([32, 32], lambda i, j: (i, j))"),
            L("T.Layout([16, 64], lambda i, j: (j, i))"),
            L("T.Layout([8, 8], lambda i, j: (i * 8 + (j ^ i),))"),
            L("T.Layout([64], lambda i: (i,))"),
        };
    }();
    return tiles[std::size_t(k) % tiles.size()];
}
const char* kDtypes[] = {"float16", "float32", "int8", "float64"};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    fuzz::expectCleanErrors([&] {
        ts::SharedTile t(tile(data[0] & 3), kDtypes[(data[0] >> 2) & 3]);
        ts::AccessOptions opt;
        opt.vector = (data[1] & 7) == 7 ? 0 : (data[1] & 7);
        opt.steps = (data[1] >> 3) & 3;
        opt.store = (data[1] >> 5) & 1;
        std::string access(fuzz::text(data + 2, size - 2));
        ts::SharedAccess a = ts::buildAccess(t, access, opt);
        ts::PlanCost cost = ts::analyzePlan(a.plan);
        (void)ts::cellHeat(t, a, cost);
        (void)ts::formatAccessTable(a, cost);
    });
    return 0;
}
