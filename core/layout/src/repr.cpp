// SPDX-License-Identifier: Apache-2.0
#include "tilescope/layout/layout.h"

namespace ts {

namespace {

std::string exprList(const std::vector<Expr>& v, bool tupleStyle) {
    std::string s = tupleStyle ? "(" : "[";
    for (std::size_t k = 0; k < v.size(); ++k)
        s += (k ? ", " : "") + printExpr(v[k]);
    if (tupleStyle && v.size() == 1) s += ",";
    return s + (tupleStyle ? ")" : "]");
}

} // namespace

std::string tilelangRepr(const Layout& l, const LayoutTable& t) {
    std::string s = "Layout(" + formatShape(l.inputShape(), true) + " -> " +
                    formatShape(t.outputShape, true) + ", transform: ";
    std::vector<Expr> vars;
    for (std::size_t k = 0; k < l.inputShape().size(); ++k)
        vars.push_back(var(placeholderName(k)));
    s += exprList(vars, true) + " -> ";
    s += l.isTabulated() ? std::string("<table>") : exprList(l.forward(), true);
    return s + ")";
}

std::string tilelangRepr(const Fragment& f, const FragmentTable& t) {
    std::string s = "Fragment(" + formatShape(f.inputShape(), true) + " -> " +
                    formatShape(t.localShape, true) +
                    ", replicate: " + std::to_string(f.replicate()) +
                    ", thread: " + std::to_string(t.threadExtent) +
                    ", forward_thread: " + printExpr(f.thread()) +
                    ", forward_index: " + exprList(f.index(), true);
    if (auto r = f.threadRange())
        s += ", thread_range: I.Range(" + std::to_string(r->first) + ", " +
             std::to_string(r->second) + ")";
    return s + ")";
}

std::string tilelangRepr(const Mapping& m) {
    if (const Layout* l = std::get_if<Layout>(&m)) return tilelangRepr(*l, l->evaluate());
    const Fragment& f = std::get<Fragment>(m);
    return tilelangRepr(f, f.evaluate());
}

std::string visualizationBlock(const std::string& name, const Fragment& f) {
    FragmentTable t = f.evaluate();
    return name + " inferred layout:\n  Shape: " + formatShape(f.inputShape()) + " -> " +
           formatShape(t.localShape) + "\n  Thread: " + printExpr(f.thread()) +
           "\n  Index:  " + exprList(f.index(), false) +
           "\n  Replicate:  " + std::to_string(f.replicate()) + "\n";
}

} // namespace ts
