// SPDX-License-Identifier: Apache-2.0
// checkShiftCounts: a shift TileLang refuses is refused here too, never evaluated as 64 bits
// (where `i >> 40` would quietly be 0 and `i << 33` a huge thread).
#include "layout_eval.h"
#include "tilescope/lang/tvm_simplify.h"
#include "tilescope/layout/layout.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <map>

namespace ts {

namespace {

constexpr std::int64_t kShiftLimit = 32; // int32, TileLang's index type

void collectShifts(const Expr& e, std::vector<Expr>& out) {
    if (!e) return;
    if (e->op == Op::Shl || e->op == Op::Shr) {
        const bool seen = std::any_of(out.begin(), out.end(),
                                      [&](const Expr& s) { return structurallyEqual(s, e); });
        if (!seen) out.push_back(e);
    }
    for (int k = 0; k < arity(e->op); ++k)
        collectShifts(e->operand(k), out);
}

std::string tvmWords() {
    return "TileLang refuses it as TVM does for int32 indices (\"Shift amount must be "
           "non-negative and less than 32 for type int32\")";
}

} // namespace

void checkShiftCounts(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t replicate) {
    std::vector<Expr> written;
    for (const Expr& e : exprs)
        collectShifts(e, written);
    if (written.empty()) return;
    // A constant count is checked by TVM's shift builder as the expression is built, before any
    // simplification: `(i << 40) * 0` is refused too.
    for (const Expr& s : written) {
        std::int64_t c;
        if (isConst(s->b, &c) && (c < 0 || c >= kShiftLimit))
            throw InputError("the shift `" + printExpr(s) + "` is by " + std::to_string(c) + ": " +
                             tvmWords());
    }
    // A cell is evaluated on the form TileLang stored (TVM's simplification of it), where a
    // shift may have gone (`(0 << (i + 28)) // 4`, bounded to 0, drops out) or its count may
    // have become a constant (`i << (j - j + 33)`); a count outside 0..31 there fails the cell.
    std::map<std::string, std::int64_t> ext;
    for (std::size_t d = 0; d < shape.size(); ++d)
        ext[placeholderName(d)] = shape[d];
    ext[kRepVar] = replicate;
    std::vector<Expr> shifts;
    for (const Expr& e : exprs)
        collectShifts(tvmSimplify(e, ext).expr, shifts);
    for (const Expr& s : shifts) {
        std::int64_t c;
        if (isConst(s->b, &c)) {
            if (c < 0 || c >= kShiftLimit)
                throw InputError("the shift `" + printExpr(s) + "` is by " + std::to_string(c) +
                                 " wherever it is evaluated: " + tvmWords());
            continue;
        }
        // A count that varies: the first cell where it leaves 0..31 is where TileLang fails.
        for (std::int64_t r = 0; r < replicate; ++r) {
            std::int64_t bad = -1, value = 0;
            try {
                detail::forEachBatch(shape, {s->b}, r,
                                     [&](std::int64_t first, std::size_t n, const auto& outs) {
                                         if (bad >= 0) return;
                                         for (std::size_t p = 0; p < n; ++p)
                                             if (outs[0][p] < 0 || outs[0][p] >= kShiftLimit) {
                                                 bad = first + static_cast<std::int64_t>(p);
                                                 value = outs[0][p];
                                                 return;
                                             }
                                     });
            } catch (const EvalError&) {
                continue; // the count itself fails there; the layout's evaluation reports it
            }
            if (bad >= 0) {
                std::string cell = formatCell(detail::unflatten(bad, shape));
                if (replicate > 1) cell += " (replica " + std::to_string(r) + ")";
                throw InputError("the shift `" + printExpr(s) + "` is by " + std::to_string(value) +
                                 " at cell " + cell + ": " + tvmWords());
            }
        }
    }
}

} // namespace ts
