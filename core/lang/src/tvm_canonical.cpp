// SPDX-License-Identifier: Apache-2.0
// TVM's CanonicalSimplifier (canonical_simplify.cc): sums of splits ((x % upper) / lower * scale)
// for + - * / % and their floor versions; every other node goes through the rewrite rules. And
// tvmSimplify(), TVM's Analyzer::Simplify: canonical, rewrite, canonical.
#include "tvm_rewrite.h"

#include "tilescope/lang/tvm_simplify.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <functional>

namespace ts::tvmarith {

namespace {

Expr modImpl(const Expr& a, std::int64_t b, DivMode mode) {
    return fold(mode == kTruncDiv ? Op::TruncMod : Op::FloorMod, a, constant(b));
}

Expr divImpl(const Expr& a, std::int64_t b, DivMode mode) {
    return fold(mode == kTruncDiv ? Op::TruncDiv : Op::FloorDiv, a, constant(b));
}

bool compatible(const SplitE& s, DivMode mode) {
    return s.mode == mode || (s.lower == 1 && s.upper == kPosInf);
}

bool indexEqual(const SplitE& a, const SplitE& b) {
    return a.index == b.index || structurallyEqual(a.index, b.index);
}

// SumExprNode::AddToSelf(SplitExpr, scale): splits of one index stay together, ordered by
// decreasing lower factor.
void addSplit(SumE& sum, SplitE other, std::int64_t scale) {
    if (other.scale == 0) return;
    std::size_t start = 0;
    for (; start < sum.args.size(); ++start)
        if (indexEqual(sum.args[start], other)) break;
    for (std::size_t j = start; j < sum.args.size(); ++j) {
        if (!indexEqual(sum.args[j], other) || other.lower > sum.args[j].lower) {
            other.scale *= scale;
            sum.args.insert(sum.args.begin() + static_cast<std::ptrdiff_t>(j), std::move(other));
            return;
        }
        if (other.lower == sum.args[j].lower && other.upper == sum.args[j].upper &&
            compatible(other, sum.args[j].mode)) {
            sum.args[j].scale += other.scale * scale;
            return;
        }
    }
    other.scale *= scale;
    sum.args.push_back(std::move(other));
}

void addSum(SumE& sum, const SumE& other, std::int64_t scale) {
    for (const SplitE& s : other.args)
        addSplit(sum, s, scale);
    sum.base += other.base * scale;
}

bool isZeroSum(const SumE& s) {
    return s.base == 0 && s.args.empty();
}

void divideBy(SumE& s, std::int64_t c) {
    s.base /= c;
    for (SplitE& a : s.args)
        a.scale /= c;
}

void mulToSelf(SumE& s, std::int64_t c) {
    s.base *= c;
    for (SplitE& a : s.args)
        a.scale *= c;
}

void separateDivisibleParts(const SumE& s, std::int64_t coeff, SumE& divisible, SumE& rest) {
    divisible = SumE{};
    rest = SumE{};
    if (s.base % coeff == 0)
        divisible.base = s.base;
    else
        rest.base = s.base;
    for (const SplitE& a : s.args)
        (a.scale % coeff == 0 ? divisible : rest).args.push_back(a);
}

// SimplifySplitExprs: merge splits of one index, then order by scale, lower and upper factor,
// division mode, all descending (the order printed sums keep).
std::vector<SplitE> simplifySplits(std::vector<SplitE> args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].scale == 0) continue;
        for (std::size_t j = i + 1; j < args.size(); ++j) {
            SplitE& lhs = args[i];
            SplitE& rhs = args[j];
            if (!indexEqual(lhs, rhs)) break;
            if (lhs.upper < rhs.lower) break;
            if (lhs.upper == rhs.upper && lhs.lower == rhs.lower && compatible(lhs, rhs.mode)) {
                rhs.scale += lhs.scale;
                lhs.scale = 0;
            } else if (lhs.lower == rhs.upper && rhs.scale != 0 && lhs.scale % rhs.scale == 0 &&
                       lhs.lower == (lhs.scale / rhs.scale) * rhs.lower &&
                       compatible(lhs, rhs.mode)) {
                rhs.upper = lhs.upper;
                lhs.scale = 0;
                break;
            }
        }
    }
    std::stable_sort(args.begin(), args.end(), [](const SplitE& l, const SplitE& r) {
        if (l.scale != r.scale) return l.scale > r.scale;
        if (l.lower != r.lower) return l.lower > r.lower;
        if (l.upper != r.upper) return l.upper > r.upper;
        return l.mode > r.mode;
    });
    return args;
}

SplitE splitOf(Expr e) {
    SplitE s;
    s.index = std::move(e);
    return s;
}

// MulAndNormalize (product_normal_form.h): the factors of both products in order, constants
// gathered into one scale at the end.
Expr mulAndNormalize(const Expr& lhs, const Expr& rhs) {
    std::int64_t cscale = 1;
    Expr res = constant(1);
    std::function<void(const Expr&)> collect = [&](const Expr& v) {
        if (v->op == Op::Mul) {
            collect(v->a);
            collect(v->b);
            return;
        }
        std::int64_t c;
        if (isConst(v, &c))
            cscale *= c;
        else
            res = fold(Op::Mul, res, v);
    };
    collect(lhs);
    collect(rhs);
    if (cscale != 1) res = fold(Op::Mul, res, constant(cscale));
    return res;
}

bool plainConst(const CVal& v, std::int64_t& c) {
    return v.kind == CVal::Plain && isConst(v.plain, &c);
}

// TryConstFold over the canonical simplifier's values: temporary forms are never constants.
bool tryFoldC(Op op, const CVal& a, const CVal& b, CVal& out) {
    std::int64_t x = 0, y = 0;
    const bool pa = plainConst(a, x), pb = plainConst(b, y);
    if (pa && pb) {
        out = CVal::of(fold(op, a.plain, b.plain));
        return true;
    }
    switch (op) {
    case Op::Add:
        if (pa && x == 0) return out = b, true;
        if (pb && y == 0) return out = a, true;
        break;
    case Op::Sub:
        if (pb && y == 0) return out = a, true;
        break;
    case Op::Mul:
        if (pa && x == 1) return out = b, true;
        if (pa && x == 0) return out = a, true;
        if (pb && y == 1) return out = a, true;
        if (pb && y == 0) return out = b, true;
        break;
    case Op::TruncDiv:
    case Op::FloorDiv:
        if (pb && y == 0) throw EvalError("division by zero");
        if (pa && x == 0) return out = a, true;
        if (pb && y == 1) return out = a, true;
        break;
    case Op::TruncMod:
    case Op::FloorMod:
        if (pb && y == 0) throw EvalError("modulo by zero");
        if (pa && x == 0) return out = a, true;
        if (pb && y == 1) return out = CVal::of(constant(0)), true;
        break;
    default:
        break;
    }
    return false;
}

} // namespace

Expr normalizeSplit(const SplitE& s, std::int64_t sscale) {
    if (s.scale == 0) return constant(0);
    Expr res = s.index;
    if (s.upper != kPosInf) res = modImpl(res, s.upper, s.mode);
    if (s.lower != 1) res = divImpl(res, s.lower, s.mode);
    sscale *= s.scale;
    if (sscale != 1) res = fold(Op::Mul, res, constant(sscale));
    return res;
}

Expr normalizeSum(const SumE& s) {
    if (s.args.empty()) return constant(s.base);
    std::vector<SplitE> args = simplifySplits(s.args);
    Expr res = constant(0);
    for (const SplitE& a : args)
        if (a.scale > 0) res = fold(Op::Add, res, normalizeSplit(a));
    if (s.base > 0) res = fold(Op::Add, res, constant(s.base));
    for (const SplitE& a : args)
        if (a.scale < 0) res = fold(Op::Sub, res, normalizeSplit(a, -1));
    if (s.base < 0) res = fold(Op::Sub, res, constant(-s.base));
    return res;
}

Expr Canonical::normalize(const CVal& v) {
    switch (v.kind) {
    case CVal::Plain:
        return v.plain;
    case CVal::Split:
        return normalizeSplit(v.split);
    case CVal::Sum:
        return normalizeSum(v.sum);
    }
    return v.plain;
}

SplitE Canonical::toSplit(const CVal& v) {
    if (v.kind == CVal::Split) return v.split;
    if (v.kind == CVal::Sum && v.sum.base == 0 && v.sum.args.size() == 1) return v.sum.args[0];
    return splitOf(normalize(v));
}

SumE Canonical::toSum(const CVal& v) {
    if (v.kind == CVal::Sum) return v.sum;
    SumE s;
    std::int64_t c;
    if (plainConst(v, c)) {
        s.base = c;
        return s;
    }
    s.args.push_back(toSplit(v));
    return s;
}

SplitE Canonical::convertDivMode(SplitE s, DivMode mode) {
    if (s.mode == mode) return s;
    if (compatible(s, mode)) {
        s.mode = mode;
        return s;
    }
    s = splitOf(normalizeSplit(s));
    s.mode = mode;
    return s;
}

SplitE Canonical::splitDivConst(SplitE lhs, std::int64_t cval, DivMode mode) {
    lhs = convertDivMode(std::move(lhs), mode);
    if (lhs.scale % cval == 0) {
        lhs.scale /= cval;
        return lhs;
    }
    if (cval % lhs.scale == 0) {
        const std::int64_t scaled = cval / lhs.scale;
        if (lhs.upper == kPosInf || lhs.upper % (lhs.lower * scaled) == 0) {
            lhs.scale = 1;
            lhs.lower *= scaled;
            return lhs;
        }
        if (lhs.upper <= lhs.lower * scaled) return splitOf(constant(0));
        lhs.index = modImpl(lhs.index, lhs.upper, mode);
        lhs.upper = kPosInf;
        lhs.scale = 1;
        lhs.lower *= scaled;
        return lhs;
    }
    lhs = splitOf(normalizeSplit(lhs));
    lhs.lower *= cval;
    lhs.mode = mode;
    return lhs;
}

SplitE Canonical::splitModConst(SplitE lhs, std::int64_t cval, DivMode mode) {
    lhs = convertDivMode(std::move(lhs), mode);
    if (lhs.scale % cval == 0) {
        lhs.scale = 0;
        return lhs;
    }
    if (cval % lhs.scale == 0) {
        const std::int64_t scaled = cval / lhs.scale;
        const std::int64_t newUpper = lhs.lower * scaled;
        if (lhs.upper == kPosInf || lhs.upper % newUpper == 0) {
            if (newUpper < lhs.upper && lhs.upper != kPosInf) {
                SplitE updated = splitOf(visit(modImpl(lhs.index, newUpper, mode)));
                if (lhs.lower != 1) {
                    SplitE r = splitDivConst(updated, lhs.lower, mode);
                    r.scale *= lhs.scale;
                    return r;
                }
                updated.scale *= lhs.scale;
                return updated;
            }
            lhs.upper = newUpper;
            return lhs;
        }
        if (newUpper % lhs.upper == 0) return lhs;
    }
    lhs = splitOf(normalizeSplit(lhs));
    lhs.mode = mode;
    lhs.upper = cval;
    return lhs;
}

bool Canonical::prodDivSimplify(Expr& lhs, Expr& rhs, Expr& commonScale) {
    if (isConst(rhs)) return false;
    std::vector<Expr> lhsProds;
    Expr newRhs = constant(1), newCommon = constant(1);
    std::int64_t lc = 1, rc = 1;
    int eliminated = 0;
    std::function<void(const Expr&)> collectLhs = [&](const Expr& v) {
        if (v->op == Op::Mul) {
            collectLhs(v->a);
            collectLhs(v->b);
            return;
        }
        std::int64_t c;
        if (isConst(v, &c))
            lc *= c;
        else
            lhsProds.push_back(v);
    };
    collectLhs(lhs);
    std::function<void(const Expr&)> collectRhs = [&](const Expr& v) {
        if (v->op == Op::Mul) {
            collectRhs(v->a);
            collectRhs(v->b);
            return;
        }
        std::int64_t c;
        if (isConst(v, &c)) {
            rc *= c;
            return;
        }
        for (Expr& p : lhsProds)
            if (p && structurallyEqual(v, p)) {
                p = nullptr;
                ++eliminated;
                newCommon = fold(Op::Mul, newCommon, v);
                return;
            }
        newRhs = fold(Op::Mul, newRhs, v);
    };
    collectRhs(rhs);
    const std::int64_t g = zeroAwareGcd(lc, rc);
    if (g != 0) {
        lc /= g;
        rc /= g;
    }
    if (eliminated == 0 && g == 1) return false;
    Expr newLhs = constant(1);
    for (const Expr& p : lhsProds)
        if (p) newLhs = fold(Op::Mul, newLhs, p);
    lhs = fold(Op::Mul, newLhs, constant(lc));
    rhs = fold(Op::Mul, newRhs, constant(rc));
    commonScale = fold(Op::Mul, newCommon, constant(g));
    return true;
}

CVal Canonical::mutate(const Expr& e) {
    an_.spend();
    switch (e->op) {
    case Op::Add:
        return cAdd(e, 1);
    case Op::Sub:
        return cAdd(e, -1);
    case Op::Mul:
        return cMul(e);
    case Op::TruncDiv:
        return cDiv(e, kTruncDiv);
    case Op::FloorDiv:
        return cDiv(e, kFloorDiv);
    case Op::TruncMod:
        return cMod(e, kTruncDiv);
    case Op::FloorMod:
        return cMod(e, kFloorDiv);
    case Op::Cast:
        return CVal::of(cCast(e));
    case Op::Lt:
        return CVal::of(cLt(e));
    default:
        return CVal::of(visitNode(e));
    }
}

CVal Canonical::cAdd(const Expr& e, int sign) {
    CVal a = mutate(e->a), b = mutate(e->b);
    CVal folded;
    if (tryFoldC(sign > 0 ? Op::Add : Op::Sub, a, b, folded)) return folded;
    SumE ret = toSum(a);
    std::int64_t c;
    if (plainConst(b, c))
        ret.base += sign * c;
    else if (b.kind == CVal::Sum)
        addSum(ret, b.sum, sign);
    else
        addSplit(ret, toSplit(b), sign);
    return CVal::of(std::move(ret));
}

CVal Canonical::cMul(const Expr& e) {
    CVal a = mutate(e->a), b = mutate(e->b);
    CVal folded;
    if (tryFoldC(Op::Mul, a, b, folded)) return folded;
    std::int64_t c;
    if (plainConst(a, c)) std::swap(a, b);
    if (plainConst(b, c)) {
        if (a.kind == CVal::Sum) {
            mulToSelf(a.sum, c);
            return a;
        }
        SplitE s = toSplit(a);
        s.scale *= c;
        return CVal::of(std::move(s));
    }
    // A product of two non-constants: TVM only puts the factors in a normal order.
    return CVal::of(mulAndNormalize(normalize(a), normalize(b)));
}

CVal Canonical::cDiv(const Expr& e, DivMode mode) {
    const Op op = mode == kTruncDiv ? Op::TruncDiv : Op::FloorDiv;
    CVal a = mutate(e->a), b = mutate(e->b);
    CVal folded;
    if (tryFoldC(op, a, b, folded)) return folded;
    std::int64_t cval;
    if (plainConst(b, cval) && cval > 0) {
        if (cval == 1) return a;
        if (a.kind == CVal::Sum) {
            SumE lhs, extra;
            separateDivisibleParts(a.sum, cval, lhs, extra);
            if (isZeroSum(extra)) {
                divideBy(lhs, cval);
                return CVal::of(std::move(lhs));
            }
            if (mode == kTruncDiv) {
                // Both parts non-negative: truncation is floor division there.
                if (an_.canProveGreaterEqual(normalizeSum(lhs), 0) &&
                    an_.canProveGreaterEqual(normalizeSum(extra), 0)) {
                    divideBy(lhs, cval);
                    Expr temp = normalizeSum(extra);
                    std::int64_t t;
                    if (isConst(temp, &t))
                        lhs.base += t / cval;
                    else if (tryCompare(temp, cval) != kLT)
                        addSplit(lhs, splitDivConst(splitOf(temp), cval, kTruncDiv), 1);
                    return CVal::of(std::move(lhs));
                }
            } else {
                divideBy(lhs, cval);
                Expr temp = normalizeSum(extra);
                std::int64_t t;
                if (isConst(temp, &t))
                    lhs.base += tvmFloorDiv(t, cval);
                else if (!(tryCompare(temp, cval) == kLT && an_.canProveGreaterEqual(temp, 0)))
                    addSplit(lhs, splitDivConst(splitOf(temp), cval, kFloorDiv), 1);
                return CVal::of(std::move(lhs));
            }
        } else {
            Bound bd = an_.boundOf(normalize(a));
            if (bd.min >= 0 && bd.max < cval) return CVal::of(constant(0));
        }
        return CVal::of(splitDivConst(toSplit(a), cval, mode));
    }
    Expr na = normalize(a), nb = normalize(b);
    Expr scale;
    if (prodDivSimplify(na, nb, scale)) return CVal::of(fold(op, na, nb));
    if (na == e->a && nb == e->b) return CVal::of(e);
    return CVal::of(binary(op, na, nb));
}

CVal Canonical::cMod(const Expr& e, DivMode mode) {
    const Op op = mode == kTruncDiv ? Op::TruncMod : Op::FloorMod;
    CVal a = mutate(e->a), b = mutate(e->b);
    CVal folded;
    if (tryFoldC(op, a, b, folded)) return folded;
    std::int64_t cval;
    if (plainConst(b, cval) && cval > 0) {
        if (a.kind == CVal::Sum) {
            SumE lhs, extra;
            separateDivisibleParts(a.sum, cval, lhs, extra);
            if (mode == kTruncDiv) {
                if (isZeroSum(extra)) return CVal::of(constant(0));
                if (an_.canProveGreaterEqual(normalizeSum(lhs), 0) &&
                    an_.canProveGreaterEqual(normalizeSum(extra), 0)) {
                    Expr temp = normalizeSum(extra);
                    if (isConst(temp)) return CVal::of(fold(Op::TruncMod, temp, b.plain));
                    if (tryCompare(temp, cval) == kLT) return CVal::of(temp);
                    a = CVal::of(extra);
                }
                // (x - 5) % 3 => (x - 2) % 3 if x - 5 >= 0
                Bound bd = an_.boundOf(normalize(a));
                const std::int64_t newBase = a.sum.base % cval;
                if (bd.min >= 0 && bd.min - a.sum.base + newBase >= 0) {
                    SumE s = a.sum;
                    s.base = newBase;
                    return CVal::of(splitModConst(toSplit(CVal::of(std::move(s))), cval, mode));
                }
            } else {
                Expr temp = normalizeSum(extra);
                if (isConst(temp)) return CVal::of(fold(Op::FloorMod, temp, b.plain));
                if (tryCompare(temp, cval) == kLT && an_.canProveGreaterEqual(temp, 0))
                    return CVal::of(temp);
                SumE s = extra;
                s.base = tvmFloorMod(s.base, cval);
                return CVal::of(splitModConst(toSplit(CVal::of(std::move(s))), cval, mode));
            }
        } else {
            Bound bd = an_.boundOf(normalize(a));
            if (bd.min >= 0 && bd.max < cval) return a;
        }
        return CVal::of(splitModConst(toSplit(a), cval, mode));
    }
    Expr na = normalize(a), nb = normalize(b);
    Expr scale;
    if (prodDivSimplify(na, nb, scale)) return CVal::of(fold(Op::Mul, fold(op, na, nb), scale));
    if (na == e->a && nb == e->b) return CVal::of(e);
    return CVal::of(binary(op, na, nb));
}

// A cast of a truth value to int32 (the only cast the language has) is never a sum, so TVM
// visits it as the rewrite simplifier does, after a first, discarded, canonical visit.
Expr Canonical::cCast(const Expr& e) {
    (void)mutate(e->a);
    return visitCast(e);
}

Expr Canonical::cLt(const Expr& e) {
    CVal diff = mutate(fold(Op::Sub, e->a, e->b));
    if (diff.kind == CVal::Sum) {
        const SumE& lhs = diff.sum;
        std::int64_t gcd = lhs.base;
        bool nonUnit = false;
        for (const SplitE& s : lhs.args)
            if (s.scale > 1 || s.scale < -1) {
                nonUnit = true;
                gcd = zeroAwareGcd(gcd, std::abs(s.scale));
            }
        if (nonUnit && gcd > 1) {
            SumE divisible, extra;
            separateDivisibleParts(lhs, gcd, divisible, extra);
            Expr normalExtra = normalizeSum(extra);
            if (an_.canProve(fold(Op::Lt, normalExtra, constant(gcd))) &&
                an_.canProve(fold(Op::Ge, normalExtra, constant(0)))) {
                divideBy(divisible, gcd);
                return normalize(mutate(fold(Op::Lt, normalizeSum(divisible), constant(0))));
            }
            if (extra.args.size() == 1 && extra.args[0].scale == 1 &&
                extra.args[0].upper != kPosInf &&
                extra.args[0].upper % (gcd * extra.args[0].lower) == 0) {
                divideBy(divisible, gcd);
                const SplitE& s = extra.args[0];
                const std::int64_t lower = gcd * s.lower;
                Expr extraExpr = fold(Op::FloorMod, fold(Op::FloorDiv, s.index, constant(lower)),
                                      constant(tvmFloorDiv(s.upper, lower)));
                return normalize(mutate(
                    fold(Op::Lt, fold(Op::Add, normalizeSum(divisible), extraExpr), constant(0))));
            }
        }
    }
    return visitLt(e);
}

} // namespace ts::tvmarith

namespace ts {

namespace {

// Every select left in the simplified expression, with the conditions known where it sits.
void collectUndecided(const Expr& e, std::vector<Expr>& context, std::vector<TvmUndecided>& out) {
    if (!e) return;
    if (e->op == Op::Select || e->op == Op::IfThenElse) {
        collectUndecided(e->a, context, out);
        out.push_back({e->a, context});
        context.push_back(e->a);
        collectUndecided(e->b, context, out);
        context.back() = unary(Op::Not, e->a);
        collectUndecided(e->c, context, out);
        context.pop_back();
        return;
    }
    for (int k = 0; k < arity(e->op); ++k)
        collectUndecided(e->operand(k), context, out);
}

} // namespace

namespace {

const char* kOverBudget = "an expression nested too deeply for Tilescope's port of TVM's "
                          "simplifier to follow in reasonable time";

} // namespace

TvmSimplified tvmSimplify(const Expr& e, const std::map<std::string, std::int64_t>& extents) {
    tvmarith::Analyzer an(extents);
    TvmSimplified out;
    try {
        out.expr = an.simplify(tvmarith::fromPython(e));
    } catch (const tvmarith::Analyzer::OverBudget&) {
        out.expr = e;
        out.unsure = kOverBudget;
        return out;
    }
    std::vector<Expr> context;
    collectUndecided(out.expr, context, out.undecided);
    out.unsure = an.unsure;
    return out;
}

bool tvmCanProve(const Expr& condition, const std::map<std::string, std::int64_t>& extents,
                 std::string* unsure) {
    tvmarith::Analyzer an(extents);
    bool proved = false;
    try {
        proved = an.canProve(tvmarith::fromPython(condition));
    } catch (const tvmarith::Analyzer::OverBudget&) {
        if (unsure) *unsure = kOverBudget;
        return false;
    }
    if (unsure && !proved) *unsure = an.unsure;
    return proved;
}

} // namespace ts
