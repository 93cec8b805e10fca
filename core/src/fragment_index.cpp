// The local index TileLang infers when a fragment gives only its thread map (iter_map.cpp), and
// Fragment::condenseRepVar, which renumbers the replica variable by the pieces the thread uses.
#include "iter_map.h"
#include "layout_eval.h"
#include "tilescope/errors.h"
#include "tilescope/layout.h"
#include "tilescope/simplify.h"

#include <algorithm>
#include <map>
#include <set>

namespace ts {

namespace {

void splitPoints(const Expr& e, const std::string& v, std::set<std::int64_t>& pts) {
    if (!e) return;
    std::int64_t c;
    if ((e->op == Op::FloorDiv || e->op == Op::FloorMod) && e->a->op == Op::Var &&
        e->a->name == v && isConst(e->b, &c) && c > 0)
        pts.insert(c);
    if (e->op == Op::FloorMod && e->a->op == Op::FloorDiv && e->a->a->op == Op::Var &&
        e->a->a->name == v) {
        std::int64_t a, b;
        if (isConst(e->a->b, &a) && isConst(e->b, &b) && a > 0 && b > 0) {
            pts.insert(a);
            pts.insert(a * b);
        }
    }
    splitPoints(e->a, v, pts);
    splitPoints(e->b, v, pts);
    splitPoints(e->c, v, pts);
}

struct Piece {
    std::size_t dim;
    std::int64_t lo, hi; // digit = x // lo % (hi / lo)
};

} // namespace

Expr inferFragmentIndex(const Shape& shape, const Expr& thread, std::int64_t replicate) {
    // TileLang infers from the thread map as its constructor simplified it.
    std::map<std::string, std::int64_t> ext;
    for (std::size_t d = 0; d < shape.size(); ++d)
        ext[placeholderName(d)] = shape[d];
    ext[kRepVar] = replicate;
    return detail::inferIndexLikeTileLang(simplify(thread, ext), shape);
}

Fragment Fragment::condenseRepVar() const {
    if (replicate_ == 1) return *this;
    std::set<std::int64_t> pts;
    splitPoints(thread_, kRepVar, pts);
    std::vector<std::int64_t> cuts{1};
    for (std::int64_t p : pts)
        if (p > 1 && p < replicate_ && p % cuts.back() == 0) cuts.push_back(p);
    cuts.push_back(replicate_);
    auto threadsFor = [&](const Expr& th) {
        std::vector<std::int64_t> values;
        for (std::int64_t r = 0; r < replicate_; ++r)
            detail::forEachBatch(input_, {th}, r,
                                 [&](std::int64_t, std::size_t n, const auto& outs) {
                                     values.insert(values.end(), outs[0], outs[0] + n);
                                 });
        return values;
    };
    const auto base = threadsFor(thread_);
    Expr rep = var(kRepVar);
    Expr oldRep = constant(0);
    std::int64_t stride = 1;
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        Piece p{0, cuts[k], cuts[k + 1]};
        Expr digit = p.lo == 1 && p.hi >= replicate_ ? rep
                     : p.lo == 1                     ? floormod(rep, p.hi)
                     : p.hi >= replicate_            ? floordiv(rep, p.lo)
                                                     : floormod(floordiv(rep, p.lo), p.hi / p.lo);
        Expr probe = substitute(thread_, [&](const std::string& n) -> Expr {
            return n == kRepVar ? rep - digit * p.lo : nullptr;
        });
        if (threadsFor(probe) == base) continue; // unused replica bits vanish
        const std::int64_t ext = p.hi / p.lo;
        Expr newDigit = stride == 1 ? floormod(rep, ext) : floormod(floordiv(rep, stride), ext);
        oldRep = oldRep + newDigit * p.lo;
        stride *= ext;
    }
    Expr thread = substitute(
        thread_, [&](const std::string& n) -> Expr { return n == kRepVar ? oldRep : nullptr; });
    return Fragment(input_, thread, index_, stride);
}

} // namespace ts
