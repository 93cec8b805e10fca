// SPDX-License-Identifier: Apache-2.0
// "Copy as TileLang": Python that rebuilds a mapping with T.Layout / T.Fragment.
#include "tilescope/lang/simplify.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <cstdint>
#include <limits>

namespace ts {

namespace {

// Placeholders become plain lambda parameter names: _i -> i, _rep -> rep.
std::string pyExpr(const Expr& e) {
    return printExpr(substitute(e, [](const std::string& n) -> Expr {
        if (!n.empty() && n[0] == '_') return var(n.substr(1));
        return nullptr;
    }));
}

std::string params(std::size_t rank, bool rep) {
    std::string s;
    for (std::size_t k = 0; k < rank; ++k)
        s += (k ? ", " : "") + placeholderName(k).substr(1);
    if (rep) s += std::string(rank ? ", " : "") + "rep";
    return s;
}

std::string shapeList(const Shape& s) {
    return formatShape(s, false);
}

} // namespace

std::string toTileLangCode(const Mapping& m) {
    if (const Layout* l = std::get_if<Layout>(&m)) {
        if (l->isTabulated())
            throw InputError("an inverted layout is known only by its table; copy the text that "
                             "built it instead");
        // CuTe strides may pass 2^31 (Tilescope reads them up to 2^48); TileLang's indices are
        // int32, so such a layout has no T.Layout that means the same.
        LayoutTable t = l->evaluate();
        for (std::size_t k = 0; k < t.out.size(); ++k)
            if (t.out[k] > std::numeric_limits<std::int32_t>::max())
                throw InputError("the layout reaches offset " + std::to_string(t.out[k]) +
                                 ", beyond int32: TileLang's indices are int32, so no T.Layout "
                                 "gives it");
        std::string body;
        if (l->forward().size() == 1) {
            body = pyExpr(l->forward()[0]);
        } else {
            body = "(";
            for (std::size_t k = 0; k < l->forward().size(); ++k)
                body += (k ? ", " : "") + pyExpr(l->forward()[k]);
            body += ")";
        }
        return "T.Layout(" + shapeList(l->inputShape()) + ", lambda " +
               params(l->inputShape().size(), false) + ": " + body + ")";
    }
    const Fragment& f = std::get<Fragment>(m);
    const std::size_t rank = f.inputShape().size();
    // With one replica the replica variable is 0 (TileLang's builtins still name it, e.g. an
    // operand of a single warp): the lambda has no `rep` parameter, so it must not appear.
    Expr thread = f.thread();
    if (f.replicate() <= 1) {
        std::map<std::string, std::int64_t> ext;
        for (std::size_t k = 0; k < rank; ++k)
            ext[placeholderName(k)] = f.inputShape()[k];
        thread = simplify(substitute(thread,
                                     [](const std::string& n) -> Expr {
                                         return n == kRepVar ? constant(0) : nullptr;
                                     }),
                          ext);
    }
    std::string s = "T.Fragment(" + shapeList(f.inputShape()) + ", forward_thread_fn=lambda " +
                    params(rank, f.replicate() > 1) + ": " + pyExpr(thread);
    std::string idx;
    if (f.index().size() == 1) {
        idx = pyExpr(f.index()[0]);
    } else {
        idx = "(";
        for (std::size_t k = 0; k < f.index().size(); ++k)
            idx += (k ? ", " : "") + pyExpr(f.index()[k]);
        idx += ")";
    }
    s += ", forward_index_fn=lambda " + params(rank, false) + ": " + idx;
    if (f.replicate() > 1) s += ", replicate=" + std::to_string(f.replicate());
    return s + ")";
}

} // namespace ts
