// SPDX-License-Identifier: Apache-2.0
#include "tilescope/layout/tilelang_inverse.h"

#include "iter_map.h"
#include "tilescope/lang/tvm_simplify.h"

#include <map>

namespace ts {

std::optional<std::string> tileLangInverseRefusal(const Layout& l) {
    if (l.isTabulated()) return std::nullopt;
    // TileLang stores the forward index as TVM simplified it, and DetectIterMap reads that form.
    std::map<std::string, std::int64_t> ext;
    for (std::size_t d = 0; d < l.inputShape().size(); ++d)
        ext[placeholderName(d)] = l.inputShape()[d];
    std::vector<Expr> stored;
    for (const Expr& e : l.forward()) {
        TvmSimplified s = tvmSimplify(e, ext);
        if (!s.unsure.empty()) return std::nullopt; // not TVM's form for certain: no claim
        stored.push_back(s.expr);
    }
    const std::optional<Expr> part = detail::iterMapOpaquePart(stored, l.inputShape());
    if (!part) return std::nullopt;
    return "TileLang would not build this inverse: TVM's iterator map cannot write `" +
           printExpr(*part) +
           "` as a sum of iterator splits, so Layout.inverse() raises \"Layout ... has errors\" "
           "there; the cells shown are the exact inverse of the table";
}

} // namespace ts
