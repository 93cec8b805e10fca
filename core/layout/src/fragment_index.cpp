// SPDX-License-Identifier: Apache-2.0
// The local index TileLang infers when a fragment gives only its thread map (iter_map.cpp), and
// Fragment::condenseRepVar, which renumbers the replica variable by the pieces the thread uses.
#include "iter_map.h"
#include "layout_eval.h"
#include "tilescope/lang/simplify.h"
#include "tilescope/lang/tvm_simplify.h"
#include "tilescope/layout/layout.h"
#include "tilescope/support/errors.h"

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

// Thrown by the comparison sink to stop at the first differing cell.
struct Differs {};

// Whether `a` and `b` give the same thread at every cell of `shape` for every replica. Both run
// in one pass, batch by batch, and the pass stops at the first difference: nothing is stored,
// so a 1024 x 1024 map with 32 replicas costs no memory, and a used piece is usually found
// within the first batch.
bool sameThreads(const Shape& shape, const Expr& a, const Expr& b, std::int64_t replicate) {
    try {
        for (std::int64_t r = 0; r < replicate; ++r)
            detail::forEachBatch(shape, {a, b}, r,
                                 [](std::int64_t, std::size_t n, const auto& outs) {
                                     if (!std::equal(outs[0], outs[0] + n, outs[1]))
                                         throw Differs{};
                                 });
    } catch (const Differs&) {
        return false;
    }
    return true;
}

[[noreturn]] void notReproduced(const std::string& what) {
    throw InputError("index inference: " + what +
                     " in the thread map is beyond what Tilescope reproduces of TileLang's "
                     "inference; give forward_index_fn explicitly");
}

// A select whose condition the port left undecided keeps both branches; TVM would replace it
// by one branch if it decided the condition (its comparison rules, or Z3 inside some of them),
// and then that branch's pieces would be used. TVM can only decide what is true: a condition
// that takes both values where it is evaluated is undecided in TVM too. One that takes a single
// value everywhere (under the enclosing branches' conditions) might be decided by TVM, so the
// index is not certain and Tilescope says so.
void checkUndecided(const Shape& shape, std::int64_t replicate,
                    const std::vector<TvmUndecided>& undecided) {
    for (const TvmUndecided& u : undecided) {
        std::vector<Expr> exprs{u.condition};
        exprs.insert(exprs.end(), u.context.begin(), u.context.end());
        bool seenTrue = false, seenFalse = false;
        try {
            for (std::int64_t r = 0; r < replicate && !(seenTrue && seenFalse); ++r)
                detail::forEachBatch(shape, exprs, r,
                                     [&](std::int64_t, std::size_t n, const auto& outs) {
                                         for (std::size_t p = 0; p < n; ++p) {
                                             bool inside = true;
                                             for (std::size_t k = 1; k < outs.size(); ++k)
                                                 inside = inside && outs[k][p] != 0;
                                             if (!inside) continue;
                                             (outs[0][p] != 0 ? seenTrue : seenFalse) = true;
                                         }
                                     });
        } catch (const EvalError&) {
            continue; // the map itself fails there, which its evaluation reports
        }
        if (seenTrue != seenFalse)
            notReproduced("the condition `" + printExpr(u.condition) + "`, which is " +
                          (seenTrue ? "true" : "false") +
                          " wherever it is evaluated but which Tilescope's port of TVM's "
                          "simplifier does not decide,");
    }
}

} // namespace

Expr inferFragmentIndex(const Shape& shape, const Expr& thread, std::int64_t replicate) {
    // TileLang infers from the thread map as its constructor simplified it: TVM's
    // Analyzer::Simplify with every input variable bound to its extent and _rep to the
    // replicate count (FragmentNode::FragmentNode), reproduced rule by rule.
    std::map<std::string, std::int64_t> ext;
    for (std::size_t d = 0; d < shape.size(); ++d)
        ext[placeholderName(d)] = shape[d];
    ext[kRepVar] = replicate;
    TvmSimplified s;
    try {
        s = tvmSimplify(thread, ext);
    } catch (const EvalError& e) {
        // TVM fails the same way building the fragment (a literal 0 divisor once simplified).
        throw InputError(std::string("index inference: ") + e.what() + " in the thread map");
    }
    if (!s.unsure.empty()) notReproduced(s.unsure);
    checkUndecided(shape, replicate, s.undecided);
    return detail::inferIndexLikeTileLang(s.expr, shape);
}

Fragment Fragment::condenseRepVar() const {
    if (replicate_ == 1) return *this;
    std::set<std::int64_t> pts;
    splitPoints(thread_, kRepVar, pts);
    std::vector<std::int64_t> cuts{1};
    for (std::int64_t p : pts)
        if (p > 1 && p < replicate_ && p % cuts.back() == 0) cuts.push_back(p);
    cuts.push_back(replicate_);
    // A replica piece is used when changing its digit changes the thread of some cell; a map
    // that does not mention the replica uses none (no evaluation needed).
    std::set<std::string> used;
    collectVars(thread_, used);
    const bool repMentioned = used.count(kRepVar) > 0;
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
        // Unused replica bits vanish.
        if (!repMentioned || sameThreads(input_, thread_, probe, replicate_)) continue;
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
