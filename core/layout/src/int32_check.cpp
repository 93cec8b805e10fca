// SPDX-License-Identifier: Apache-2.0
// checkInt32Evaluation: what TileLang refuses or computes differently because its indices are
// int32 is refused here, never evaluated quietly as 64 bits (where `i >> 40` would be 0, `i << 33`
// a huge thread, and `(i * 1000000000) % 64` a value TileLang's wrapped product does not give).
#include "layout_eval.h"
#include "tilescope/lang/expr_eval.h"
#include "tilescope/lang/tvm_simplify.h"
#include "tilescope/layout/layout.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

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

// The first cell, replica by replica, where `value` of the evaluated sub-expression is out of
// the range [lo, hi]; nothing when there is none (or when the expression fails to evaluate,
// which the layout's own evaluation reports).
struct Found {
    std::string cell;
    std::int64_t value = 0;
};
std::optional<Found> firstOutside(const Shape& shape, const Expr& e, std::int64_t replicate,
                                  std::int64_t lo, std::int64_t hi) {
    for (std::int64_t r = 0; r < replicate; ++r) {
        std::int64_t bad = -1, value = 0;
        try {
            detail::forEachBatch(shape, {e}, r,
                                 [&](std::int64_t first, std::size_t n, const auto& outs) {
                                     if (bad >= 0) return;
                                     for (std::size_t p = 0; p < n; ++p)
                                         if (outs[0][p] < lo || outs[0][p] > hi) {
                                             bad = first + static_cast<std::int64_t>(p);
                                             value = outs[0][p];
                                             return;
                                         }
                                 });
        } catch (const EvalError&) {
            return std::nullopt;
        }
        if (bad >= 0) {
            std::string cell = formatCell(detail::unflatten(bad, shape));
            if (replicate > 1) cell += " (replica " + std::to_string(r) + ")";
            return Found{cell, value};
        }
    }
    return std::nullopt;
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
    for (const Expr& s : shifts) {
        std::int64_t c;
        if (isConst(s->b, &c)) {
            if (c < 0 || c >= kShiftLimit)
                throw InputError("the shift `" + printExpr(s) + "` is by " + std::to_string(c) +
                                 " wherever it is evaluated: " + shiftWords());
            continue;
        }
        // A count that varies: the first cell where it leaves 0..31 is where TileLang fails.
        if (auto f = firstOutside(shape, s->b, replicate, 0, kShiftLimit - 1))
            throw InputError("the shift `" + printExpr(s) + "` is by " + std::to_string(f->value) +
                             " at cell " + f->cell + ": " + shiftWords());
    }
    // Every intermediate value must be an int32 too. Where interval analysis shows it (the
    // evaluator's narrow path), nothing is evaluated; else each value is, at every cell. A
    // shifted value out of range is a literal TVM refuses; a sum or product out of range wraps
    // around in TVM's folding, which Tilescope does not reproduce.
    try {
        if (Program(stored, names, extents).narrow()) return;
    } catch (const std::exception&) {
        return; // an expression the evaluator refuses is reported by the layout's evaluation
    }
    std::vector<Expr> values;
    for (const Expr& e : stored)
        collect(e, isIntegerNode, values);
    for (const Expr& v : values) {
        auto f = firstOutside(shape, v, replicate, kMin32, kMax32);
        if (!f) continue;
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
}

} // namespace ts
