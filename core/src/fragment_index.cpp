// The local index TileLang infers when a fragment gives only its thread map
// (layout.cc:995-1012, utils.cc:292-349): every input variable is cut into the pieces its
// `//` and `%` constants delimit; the pieces the thread map does not use are flattened
// mixed-radix, earlier dimensions and higher pieces more significant.
#include "layout_eval.h"
#include "tilescope/errors.h"
#include "tilescope/layout.h"

#include <algorithm>
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
}

struct Piece {
    std::size_t dim;
    std::int64_t lo, hi; // digit = x // lo % (hi / lo)
};

Expr digitExpr(const Piece& p, std::int64_t extent) {
    Expr x = var(placeholderName(p.dim));
    if (p.lo == 1 && p.hi >= extent) return x;
    if (p.lo == 1) return floormod(x, p.hi);
    if (p.hi >= extent) return floordiv(x, p.lo);
    return floormod(floordiv(x, p.lo), p.hi / p.lo);
}

} // namespace

Expr inferFragmentIndex(const Shape& shape, const Expr& thread, std::int64_t replicate) {
    // Cut each dimension into pieces at the split points that divide one another.
    std::vector<Piece> pieces;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        std::set<std::int64_t> pts;
        splitPoints(thread, placeholderName(d), pts);
        std::vector<std::int64_t> cuts{1};
        for (std::int64_t p : pts)
            if (p > 1 && p < shape[d] && p % cuts.back() == 0) cuts.push_back(p);
        cuts.push_back(shape[d]);
        for (std::size_t k = 0; k + 1 < cuts.size(); ++k)
            pieces.push_back({d, cuts[k], cuts[k + 1]});
    }
    // A piece is used when changing its digit changes the thread of some cell.
    auto threadsOf = [&](const std::vector<Expr>& exprs) {
        std::vector<std::int64_t> values;
        for (std::int64_t r = 0; r < replicate; ++r)
            detail::forEachBatch(shape, exprs, r,
                                 [&](std::int64_t, std::size_t n, const auto& outs) {
                                     values.insert(values.end(), outs[0], outs[0] + n);
                                 });
        return values;
    };
    const std::vector<std::int64_t> base = threadsOf({thread});
    Expr index = constant(0);
    // Fold: dims in input order, within a dim from the highest piece down.
    for (std::size_t d = 0; d < shape.size(); ++d) {
        std::vector<Piece> unused;
        for (const Piece& p : pieces) {
            if (p.dim != d) continue;
            Expr x = var(placeholderName(d));
            Expr zeroed = x - digitExpr(p, shape[d]) * p.lo;
            Expr probe = substitute(thread, [&](const std::string& n) -> Expr {
                return n == x->name ? zeroed : nullptr;
            });
            if (threadsOf({probe}) == base) unused.push_back(p);
        }
        for (auto it = unused.rbegin(); it != unused.rend(); ++it) {
            std::int64_t extent = it->hi / it->lo;
            index = index * extent + digitExpr(*it, shape[d]);
        }
    }
    return index;
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
