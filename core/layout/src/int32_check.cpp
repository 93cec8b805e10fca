// SPDX-License-Identifier: Apache-2.0
// checkInt32Evaluation: what TileLang refuses or computes differently because its indices are
// int32 is refused here, never evaluated quietly as 64 bits (where `i >> 40` would be 0, `i << 33`
// a huge thread, and `(i * 1000000000) % 64` a value TileLang's wrapped product does not give).
#include "layout_eval.h"
#include "tilescope/lang/expr_eval.h"
#include "tilescope/lang/tvm_simplify.h"
#include "tilescope/layout/layout.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/limits.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>

namespace ts {

namespace {

constexpr std::int64_t kShiftLimit = 32; // int32, TileLang's index type
constexpr std::int64_t kMin32 = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kMax32 = std::numeric_limits<std::int32_t>::max();

// Post-order (operands first), as TVM folds a cell, so that the first value found out of range
// is the innermost one, the one TVM meets first.
void collect(const Expr& e, bool (*want)(const Expr&), std::vector<Expr>& out) {
    if (!e) return;
    for (int k = 0; k < arity(e->op); ++k)
        collect(e->operand(k), want, out);
    if (want(e) && std::none_of(out.begin(), out.end(),
                                [&](const Expr& s) { return structurallyEqual(s, e); }))
        out.push_back(e);
}

bool isShift(const Expr& e) {
    return e->op == Op::Shl || e->op == Op::Shr;
}

// An integer value TVM computes when it folds a cell: every node but the leaves and the truth
// values (0 or 1 anyway).
bool isIntegerNode(const Expr& e) {
    return e->op != Op::Const && e->op != Op::Var && !isBoolean(e);
}

std::string shiftWords() {
    return "TileLang refuses it as TVM does for int32 indices (\"Shift amount must be "
           "non-negative and less than 32 for type int32\")";
}

// Where one of `exprs` first leaves [lo, hi]: the first cell, replica by replica, and which
// expression (the first in `exprs`' order at that cell: TVM folds a cell operands first, so with
// `exprs` in post-order it is the value TVM meets first).
struct Found {
    std::size_t which = 0;
    std::string cell;
    std::int64_t value = 0;
};

// Coordinates (replica first, then the dimensions) an evaluation visits at most; past it a map
// whose values interval analysis cannot bound to int32 is refused by name rather than checked
// for minutes. The same as the layout cell limit, so the check never costs more than one
// evaluation of the largest layout.
constexpr std::int64_t kCheckBudget = limits::kMaxCells;

// The variables a check sweeps: `_rep` (as dimension 0) then the shape's dimensions.
struct Domain {
    std::vector<std::string> names;
    std::vector<std::int64_t> extents;
};
Domain domainOf(const Shape& shape, std::int64_t replicate) {
    Domain d;
    d.names.push_back(kRepVar);
    d.extents.push_back(std::max<std::int64_t>(replicate, 1));
    for (std::size_t k = 0; k < shape.size(); ++k) {
        d.names.push_back(placeholderName(k));
        d.extents.push_back(shape[k]);
    }
    return d;
}

// A value depends only on the variables it uses, so each group of expressions with the same
// variables is swept over those alone (`_rep * _rep` over the replicas, not every cell of every
// replica). A group's first failing point, with the unused coordinates 0, is the first failing
// cell in replica-major row-major order; the earliest over all groups is the answer.
// A group whose sweep would pass kCheckBudget points is not swept: `unchecked` receives its
// first expression, for the caller to refuse by name when nothing else failed.
std::optional<Found> firstOutside(const Shape& shape, const std::vector<Expr>& exprs,
                                  std::int64_t replicate, std::int64_t lo, std::int64_t hi,
                                  Expr& unchecked) {
    const Domain dom = domainOf(shape, replicate);
    std::map<std::vector<std::size_t>, std::vector<std::size_t>> groups; // used dims -> exprs
    for (std::size_t k = 0; k < exprs.size(); ++k) {
        std::set<std::string> used;
        collectVars(exprs[k], used);
        std::vector<std::size_t> dims;
        for (std::size_t d = 0; d < dom.names.size(); ++d)
            if (used.count(dom.names[d])) dims.push_back(d);
        groups[dims].push_back(k);
    }
    std::optional<std::pair<std::vector<std::int64_t>, Found>> best;
    std::size_t uncheckedAt = 0;
    struct Stop {};
    for (const auto& group : groups) {
        const std::vector<std::size_t>& dims = group.first;
        const std::vector<std::size_t>& members = group.second; // a lambda below captures it
        std::int64_t points = 1;
        bool tooMany = false;
        for (std::size_t d : dims) {
            tooMany = tooMany || points > kCheckBudget / dom.extents[d];
            points = tooMany ? points : points * dom.extents[d];
        }
        if (tooMany) {
            if (!unchecked || members.front() < uncheckedAt) {
                unchecked = exprs[members.front()];
                uncheckedAt = members.front();
            }
            continue;
        }
        Shape sub;
        std::map<std::string, Expr> to;
        for (std::size_t q = 0; q < dims.size(); ++q) {
            sub.push_back(dom.extents[dims[q]]);
            to[dom.names[dims[q]]] = var(placeholderName(q));
        }
        std::vector<Expr> es;
        for (std::size_t k : members)
            es.push_back(substitute(exprs[k], [&](const std::string& name) {
                auto it = to.find(name);
                return it == to.end() ? Expr{} : it->second;
            }));
        std::int64_t bad = -1;
        Found found;
        try {
            detail::forEachBatch(sub, es, 0,
                                 [&](std::int64_t first, std::size_t count, const auto& outs) {
                                     for (std::size_t p = 0; p < count; ++p)
                                         for (std::size_t m = 0; m < es.size(); ++m)
                                             if (outs[m][p] < lo || outs[m][p] > hi) {
                                                 bad = first + static_cast<std::int64_t>(p);
                                                 found.which = members[m];
                                                 found.value = outs[m][p];
                                                 throw Stop{};
                                             }
                                 });
        } catch (const Stop&) {
        } catch (const EvalError&) {
            continue; // the layout's own evaluation names the failing cell
        }
        if (bad < 0) continue;
        std::vector<std::int64_t> at(dom.names.size(), 0);
        const std::vector<std::int64_t> point = detail::unflatten(bad, sub);
        for (std::size_t q = 0; q < dims.size(); ++q)
            at[dims[q]] = point[q];
        if (!best || at < best->first || (at == best->first && found.which < best->second.which))
            best.emplace(at, found);
    }
    if (!best) return std::nullopt;
    auto& [at, found] = *best;
    found.cell = formatCell(std::vector<std::int64_t>(at.begin() + 1, at.end()));
    if (replicate > 1) found.cell += " (replica " + std::to_string(at.front()) + ")";
    return found;
}

// Refuses, by name, a value left unchecked because its sweep would cost more than kCheckBudget.
[[noreturn]] void refuseUnchecked(const Expr& e) {
    throw InputError("`" + printExpr(e) +
                     "` cannot be shown to stay within int32 (TileLang's index type) without "
                     "evaluating it at more than " +
                     std::to_string(kCheckBudget) +
                     " points, more than Tilescope checks: a smaller shape or replicate, or a "
                     "map whose values are bounded as written, is checked");
}

} // namespace

void checkInt32Evaluation(const Shape& shape, const std::vector<Expr>& exprs,
                          std::int64_t replicate) {
    // A constant count is checked by TVM's shift builder as the expression is built, before any
    // simplification: `(i << 40) * 0` is refused too.
    std::vector<Expr> written;
    for (const Expr& e : exprs)
        collect(e, isShift, written);
    for (const Expr& s : written) {
        std::int64_t c;
        if (isConst(s->b, &c) && (c < 0 || c >= kShiftLimit))
            throw InputError("the shift `" + printExpr(s) + "` is by " + std::to_string(c) + ": " +
                             shiftWords());
    }
    // A cell is evaluated on the form TileLang stored (TVM's simplification of it), where a
    // shift may have gone (`(0 << (i + 28)) // 4`, bounded to 0, drops out) or its count may
    // have become a constant (`i << (j - j + 33)`), and where every value is an int32.
    std::map<std::string, std::int64_t> ext;
    std::vector<std::string> names;
    std::vector<std::int64_t> extents;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        ext[placeholderName(d)] = shape[d];
        names.push_back(placeholderName(d));
        extents.push_back(shape[d]);
    }
    ext[kRepVar] = replicate;
    names.push_back(kRepVar);
    extents.push_back(replicate);
    // Most layouts have no shift and values interval analysis shows to be int32 as written:
    // nothing to simplify or evaluate then.
    try {
        if (written.empty() && Program(exprs, names, extents).narrow()) return;
    } catch (const std::exception&) {
        return; // an expression the evaluator refuses is reported by the layout's evaluation
    }
    std::vector<Expr> stored;
    try {
        for (const Expr& e : exprs) {
            TvmSimplified s = tvmSimplify(e, ext);
            // Past the port's budget the form is not TVM's: the map as written is checked
            // instead, which only a shift TVM simplifies away could make stricter.
            stored.push_back(s.expr);
        }
    } catch (const EvalError&) {
        return; // a division by a literal 0: the layout's evaluation names the cell
    }
    std::vector<Expr> shifts;
    for (const Expr& e : stored)
        collect(e, isShift, shifts);
    std::vector<Expr> varying;
    for (const Expr& s : shifts) {
        std::int64_t c;
        if (isConst(s->b, &c)) {
            if (c < 0 || c >= kShiftLimit)
                throw InputError("the shift `" + printExpr(s) + "` is by " + std::to_string(c) +
                                 " wherever it is evaluated: " + shiftWords());
            continue;
        }
        varying.push_back(s);
    }
    // A count that varies: the first cell where it leaves 0..31 is where TileLang fails.
    std::vector<Expr> counts;
    for (const Expr& s : varying)
        counts.push_back(s->b);
    Expr unchecked;
    if (auto f = firstOutside(shape, counts, replicate, 0, kShiftLimit - 1, unchecked))
        throw InputError("the shift `" + printExpr(varying[f->which]) + "` is by " +
                         std::to_string(f->value) + " at cell " + f->cell + ": " + shiftWords());
    if (unchecked) refuseUnchecked(unchecked);
    // Every intermediate value must be an int32 too. Where interval analysis shows it (the
    // evaluator's narrow path), nothing is evaluated; else each value is, over the variables it
    // uses. A
    // shifted value out of range is a literal TVM refuses; a sum or product out of range wraps
    // around in TVM's folding, which Tilescope does not reproduce.
    try {
        if (Program(stored, names, extents).narrow()) return;
    } catch (const std::exception&) {
        return; // an expression the evaluator refuses is reported by the layout's evaluation
    }
    // Only the values interval analysis cannot bound to int32 are evaluated (a value whose
    // operands fit and whose own range fits needs no cell visited).
    std::vector<Expr> all, values;
    for (const Expr& e : stored)
        collect(e, isIntegerNode, all);
    for (const Expr& v : all)
        if (!Program({v}, names, extents).narrow()) values.push_back(v);
    if (auto f = firstOutside(shape, values, replicate, kMin32, kMax32, unchecked)) {
        const Expr& v = values[f->which];
        const std::string where =
            "`" + printExpr(v) + "` is " + std::to_string(f->value) + " at cell " + f->cell;
        if (v->op == Op::Shl)
            throw InputError(where +
                             ", beyond int32: TileLang refuses it as TVM does (\"Literal "
                             "value " +
                             std::to_string(f->value) + " exceeds " +
                             (f->value > 0 ? "maximum" : "minimum") + " of int32\")");
        throw InputError(where + ", beyond int32, where TileLang's index arithmetic wraps "
                                 "around: that wrap is beyond what Tilescope reproduces (it "
                                 "computes in 64 bits)");
    }
    if (unchecked) refuseUnchecked(unchecked);
}

} // namespace ts
