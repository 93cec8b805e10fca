// SPDX-License-Identifier: Apache-2.0
// The expression parser: parse over TileLang's placeholders, print, re-parse (must be
// structurally equal) and evaluate one point.
#include "fuzz_common.h"
#include "tilescope/notation/mapping.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::vector<std::string> vars = {"_i", "_j", "_k", "_rep", "i", "j", "t"};
    fuzz::expectCleanErrors([&] {
        ts::Expr e = ts::parseExpr(fuzz::text(data, size), vars);
        std::string printed = ts::printExpr(e);
        // The documented round trip: the printed form reads back the same as dump text and as
        // TileLang's Python.
        for (auto dialect : {ts::ExprDialect::Printed, ts::ExprDialect::Python})
            if (!ts::structurallyEqual(e, ts::parseExpr(printed, vars, dialect))) std::abort();
        std::int64_t k = 0;
        (void)ts::evaluatePoint(e, [&](const std::string&) { return 3 + k++; });
    });
    return 0;
}
