// SPDX-License-Identifier: Apache-2.0
// TVM's constant folding (const_fold.h, tirx/op/op.cc), constant integer bounds
// (const_int_bound.cc), modular sets (modular_set.cc) and the Analyzer that ties them together
// (analyzer.cc), for the operators of the mapping language. See tvm_arith.h.
#include "tvm_arith.h"
#include "tvm_rewrite.h"

#include "tilescope/lang/expr_apply.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <functional>
#include <set>

namespace ts::tvmarith {

namespace {

// TileLang's index type is int32: a folded constant wraps as TVM's GetFoldResultInt64Repr does.
std::int64_t wrap32(std::int64_t v) {
    const auto u = static_cast<std::uint64_t>(v) & 0xffffffffULL;
    return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(u)));
}

bool cst(const Expr& e, std::int64_t& v) {
    return isConst(e, &v);
}

[[noreturn]] void divideByZero(Op op) {
    throw EvalError(op == Op::TruncMod || op == Op::FloorMod ? "modulo by zero"
                                                             : "division by zero");
}

} // namespace

bool isTruth(const Expr& e) {
    return isBoolean(e);
}

Modular::Modular(std::int64_t c, std::int64_t b) {
    if (c < 0) {
        c = -c;
        b = -b;
    }
    coeff = c;
    if (c != 0) {
        b %= c;
        if (b < 0) b += c;
    }
    base = b;
}

std::int64_t zeroAwareGcd(std::int64_t a, std::int64_t b) {
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    if (a < b) std::swap(a, b);
    if (b == 0) return a;
    while (a % b != 0) {
        a %= b;
        std::swap(a, b);
    }
    return b;
}

std::int64_t tvmFloorDiv(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::int64_t tvmFloorMod(std::int64_t a, std::int64_t b) {
    return a - tvmFloorDiv(a, b) * b;
}

Expr tryConstFold(Op op, const Expr& a, const Expr& b) {
    std::int64_t x = 0, y = 0;
    const bool pa = cst(a, x), pb = cst(b, y);
    switch (op) {
    case Op::Add:
        if (pa && pb) return constant(wrap32(x + y));
        if (pa && x == 0) return b;
        if (pb && y == 0) return a;
        break;
    case Op::Sub:
        if (pa && pb) return constant(wrap32(x - y));
        if (pb && y == 0) return a;
        break;
    case Op::Mul:
        if (pa && pb) return constant(wrap32(x * y));
        if (pa && x == 1) return b;
        if (pa && x == 0) return a;
        if (pb && y == 1) return a;
        if (pb && y == 0) return b;
        break;
    case Op::TruncDiv:
        if (pb && y == 0) divideByZero(op);
        if (pa && pb) return constant(wrap32(x / y));
        if (pa && x == 0) return a;
        if (pb && y == 1) return a;
        break;
    case Op::TruncMod:
        if (pb && y == 0) divideByZero(op);
        if (pa && pb) return constant(wrap32(x % y));
        if (pa && x == 0) return a;
        if (pb && y == 1) return constant(0);
        break;
    case Op::FloorDiv:
        if (pb && y == 0) divideByZero(op);
        if (pa && pb) return constant(wrap32(tvmFloorDiv(x, y)));
        if (pa && x == 0) return a;
        if (pb && y == 1) return a;
        break;
    case Op::FloorMod:
        if (pb && y == 0) divideByZero(op);
        if (pa && pb) return constant(wrap32(tvmFloorMod(x, y)));
        if (pa && x == 0) return a;
        if (pb && y == 1) return constant(0);
        break;
    case Op::Min:
        if (pa && pb) return constant(std::min(x, y));
        if (a == b) return a;
        break;
    case Op::Max:
        if (pa && pb) return constant(std::max(x, y));
        if (a == b) return a;
        break;
    case Op::Lt:
        if (pa && pb) return constant(x < y);
        break;
    case Op::Le:
        if (pa && pb) return constant(x <= y);
        break;
    case Op::Gt:
        if (pa && pb) return constant(x > y);
        break;
    case Op::Ge:
        if (pa && pb) return constant(x >= y);
        break;
    case Op::Eq:
        if (pa && pb) return constant(x == y);
        break;
    case Op::Ne:
        if (pa && pb) return constant(x != y);
        break;
    case Op::And:
        if (pa) return x ? b : a;
        if (pb) return y ? a : b;
        break;
    case Op::Or:
        if (pa) return x ? a : b;
        if (pb) return y ? b : a;
        break;
    case Op::BitXor:
        if (pa && pb) return constant(wrap32(x ^ y));
        break;
    case Op::BitAnd:
        if (pa && pb) return constant(wrap32(x & y));
        break;
    case Op::BitOr:
        if (pa && pb) return constant(wrap32(x | y));
        break;
    case Op::Shl:
    case Op::Shr:
        // The shift builders check a constant count (op.cc left_shift/right_shift).
        if (pb && (y < 0 || y >= 32))
            throw EvalError("shift count " + std::to_string(y) +
                            " out of range 0..31 (TVM: Shift amount must be non-negative and "
                            "less than 32 for type int32)");
        if (pa && pb) return constant(op == Op::Shl ? wrap32(x << y) : (x >> y));
        if (pb && y == 0) return a;
        break;
    default:
        break;
    }
    return nullptr;
}

Expr fold(Op op, const Expr& a, const Expr& b) {
    Expr r = tryConstFold(op, a, b);
    return r ? r : binary(op, a, b);
}

Expr foldNot(const Expr& a) {
    std::int64_t x;
    if (cst(a, x)) return constant(x == 0);
    return unary(Op::Not, a);
}

Expr build(Op op, const Expr& a, const Expr& b) {
    return fold(op, a, b);
}

Expr buildCast(const Expr& value) {
    // cast() returns a value of the target type unchanged and folds constants.
    if (!isTruth(value) || isConst(value)) return value;
    return unary(Op::Cast, value);
}

namespace {

// BinaryOpMatchTypes: a truth value meeting an integer becomes the int32 0 or 1 first, so that
// `(i < 4) * 32` is `T.Cast("int32", i < 4) * 32` to TVM.
void matchTypes(Expr& a, Expr& b) {
    if (isTruth(a) == isTruth(b)) return;
    (isTruth(a) ? a : b) = buildCast(isTruth(a) ? a : b);
}

} // namespace

Expr fromPython(const Expr& e) {
    switch (e->op) {
    case Op::Const:
    case Op::Var:
        return e;
    case Op::Neg: {
        Expr a = fromPython(e->a);
        std::int64_t v;
        if (cst(a, v)) return constant(wrap32(-v));
        return fold(Op::Mul, a, constant(-1));
    }
    case Op::Not:
        return foldNot(fromPython(e->a));
    case Op::Cast:
        return buildCast(fromPython(e->a));
    case Op::Select:
    case Op::IfThenElse: {
        Expr c = fromPython(e->a);
        std::int64_t v;
        if (e->op == Op::IfThenElse && cst(c, v)) return fromPython(v ? e->b : e->c);
        Expr t = fromPython(e->b), f = fromPython(e->c);
        matchTypes(t, f);
        return ternary(e->op, c, t, f);
    }
    default: {
        Expr a = fromPython(e->a), b = fromPython(e->b);
        if (e->op != Op::And && e->op != Op::Or) matchTypes(a, b);
        return build(e->op, a, b);
    }
    }
}

// ------------------------------------------------------------------ const_int_bound.cc

namespace {

Bound makeBound(std::int64_t lo, std::int64_t hi) {
    Bound b;
    b.min = lo == kPosInf ? lo - 1 : lo;
    b.max = hi == kNegInf ? hi + 1 : hi;
    return b;
}

Bound everything(bool truth) {
    if (truth) return makeBound(0, 1);
    return makeBound(-(std::int64_t{1} << 31), (std::int64_t{1} << 31) - 1);
}

Bound intersect(Bound a, Bound b) {
    return {std::max(a.min, b.min), std::min(a.max, b.max)};
}

Bound unite(Bound a, Bound b) {
    return {std::min(a.min, b.min), std::max(a.max, b.max)};
}

std::int64_t infAdd(std::int64_t x, std::int64_t y) {
    if (x == kPosInf || x == kNegInf) return x;
    if (y == kPosInf || y == kNegInf) return y;
    std::int64_t r;
    if (__builtin_add_overflow(x, y, &r) || r <= kNegInf || r >= kPosInf)
        return x > 0 ? kPosInf : kNegInf;
    return r;
}

std::int64_t infMul(std::int64_t x, std::int64_t y) {
    std::int64_t r;
    if (!__builtin_mul_overflow(x, y, &r) && r > kNegInf && r < kPosInf) return r;
    return ((x > 0 && y > 0) || (x < 0 && y < 0)) ? kPosInf : kNegInf;
}

std::int64_t infDiv(std::int64_t x, std::int64_t y) {
    if (x == kPosInf || x == kNegInf) return y > 0 ? x : -x;
    return x / y;
}

std::int64_t infFloorDiv(std::int64_t x, std::int64_t y) {
    if (x == kPosInf || x == kNegInf) return y > 0 ? x : -x;
    return tvmFloorDiv(x, y);
}

int bitWidthAbs(std::int64_t v) {
    std::uint64_t u = v < 0 ? static_cast<std::uint64_t>(0) - static_cast<std::uint64_t>(v)
                            : static_cast<std::uint64_t>(v);
    int n = 0;
    for (; u; u >>= 1)
        ++n;
    return n;
}

std::int64_t infShl(std::int64_t x, std::int64_t y) {
    if (x == kPosInf || x == kNegInf) return x;
    if (bitWidthAbs(x) + y < 64)
        return static_cast<std::int64_t>(static_cast<std::uint64_t>(x) << y);
    return kPosInf;
}

std::int64_t infShr(std::int64_t x, std::int64_t y) {
    if (x == kPosInf || x == kNegInf) return x;
    return y >= 64 ? (x < 0 ? -1 : 0) : x >> y;
}

template <class F> Bound boundary(Bound a, Bound b, F f) {
    const std::int64_t v[4] = {f(a.min, b.min), f(a.max, b.max), f(a.min, b.max), f(a.max, b.min)};
    return {*std::min_element(v, v + 4), *std::max_element(v, v + 4)};
}

template <class F> Bound division(Bound a, Bound b, F f) {
    if (b.min <= 0 && 0 <= b.max) {
        Bound bn = b.min < 0 ? makeBound(b.min, -1) : everything(false);
        Bound bp = b.max > 0 ? makeBound(1, b.max) : everything(false);
        Bound en = boundary(a, bn, f), ep = boundary(a, bp, f);
        return makeBound(std::min(en.min, ep.min), std::max(en.max, ep.max));
    }
    return boundary(a, b, f);
}

int bitWidth(std::int64_t v) {
    if (v <= 0) return 0;
    int n = 0;
    for (; v; v >>= 1)
        ++n;
    return n;
}

} // namespace

class BoundAnalyzer {
public:
    explicit BoundAnalyzer(Analyzer& a) : an_(a) {}

    Bound visit(const Expr& e) {
        Bound r = node(e);
        for (const auto& info : an_.boundInfo_)
            if (structurallyEqual(e, info.expr)) r = intersect(r, info.bound);
        return r;
    }

private:
    Analyzer& an_;

    // AssumeNoZeroDivisor: nothing when the divisor is the constant 0.
    static bool noZero(Bound& d) {
        if (d.min == 0 && d.max == 0) return false;
        if (d.min == 0) d.min = 1;
        return true;
    }

    Bound modBound(const Expr& e, bool floor) {
        Bound a = visit(e->a), b = visit(e->b);
        if (!noZero(b)) return everything(false);
        if (b.min > 0) {
            const std::int64_t cap = infAdd(b.max, -1);
            if ((floor || a.min >= 0) && b.min == b.max) {
                Modular m = an_.modularOf(e->a);
                const std::int64_t g = zeroAwareGcd(m.coeff, b.min);
                if (g > 1) {
                    std::int64_t bm = m.base % g;
                    if (bm < 0) bm += g;
                    return makeBound(bm, b.min - g + bm);
                }
            }
            if (a.min >= 0) {
                if (a.max < b.min) return a;
                return makeBound(0, std::min(a.max, cap));
            }
            if (floor) return makeBound(0, cap);
            return makeBound(std::max(a.min, -cap),
                             std::min(std::max(a.max, std::int64_t{0}), cap));
        }
        if (!floor) return everything(false);
        const std::int64_t lo = infAdd(b.min, 1), hi = infAdd(b.max, -1);
        return intersect(makeBound(std::min<std::int64_t>(0, lo), std::max<std::int64_t>(0, hi)),
                         everything(false));
    }

    Bound node(const Expr& e) {
        std::int64_t v;
        switch (e->op) {
        case Op::Const:
            v = e->value;
            return makeBound(v, v);
        case Op::Var: {
            Expr bound = an_.boundValue(e->name);
            if (bound && isConst(bound, &v)) return makeBound(v, v);
            if (!an_.knownVar(e->name)) return everything(false);
            return makeBound(0, an_.extentOf(e->name) - 1);
        }
        case Op::Add: {
            Bound a = visit(e->a), b = visit(e->b);
            return {infAdd(a.min, b.min), infAdd(a.max, b.max)};
        }
        case Op::Sub: {
            Bound a = visit(e->a), b = visit(e->b);
            return {infAdd(a.min, b.max == kPosInf ? kNegInf : -b.max),
                    infAdd(a.max, b.min == kNegInf ? kPosInf : -b.min)};
        }
        case Op::Mul:
            return boundary(visit(e->a), visit(e->b), infMul);
        case Op::Neg: {
            Bound a = visit(e->a);
            return {a.max == kPosInf ? kNegInf : -a.max, a.min == kNegInf ? kPosInf : -a.min};
        }
        case Op::TruncDiv: {
            Bound a = visit(e->a), b = visit(e->b);
            if (!noZero(b)) return everything(false);
            return division(a, b, infDiv);
        }
        case Op::FloorDiv: {
            Bound a = visit(e->a), b = visit(e->b);
            if (!noZero(b)) return everything(false);
            return division(a, b, infFloorDiv);
        }
        case Op::TruncMod:
            return modBound(e, false);
        case Op::FloorMod:
            return modBound(e, true);
        case Op::Min: {
            Bound a = visit(e->a), b = visit(e->b);
            return {std::min(a.min, b.min), std::min(a.max, b.max)};
        }
        case Op::Max: {
            Bound a = visit(e->a), b = visit(e->b);
            return {std::max(a.min, b.min), std::max(a.max, b.max)};
        }
        case Op::Select:
            return unite(visit(e->b), visit(e->c));
        case Op::Cast:
            return intersect(visit(e->a), everything(false));
        case Op::Shl: {
            Bound a = visit(e->a), b = visit(e->b);
            if (a.min < 0 || b.min < 0) return everything(false);
            return boundary(a, b, infShl);
        }
        case Op::Shr:
            return boundary(visit(e->a), visit(e->b), infShr);
        case Op::BitAnd: {
            Bound a = visit(e->a), b = visit(e->b);
            if (a.min >= 0 && b.min >= 0) return makeBound(0, std::min(a.max, b.max));
            if (b.min >= 0) return makeBound(0, b.max);
            if (a.min >= 0) return makeBound(0, a.max);
            return everything(false);
        }
        case Op::BitOr:
        case Op::BitXor: {
            Bound a = visit(e->a), b = visit(e->b);
            if (a.min >= 0 && b.min >= 0) {
                const int k = std::max(bitWidth(a.max), bitWidth(b.max));
                if (k >= 63) return everything(false);
                return makeBound(0, (std::int64_t{1} << k) - 1);
            }
            return everything(false);
        }
        case Op::IfThenElse:
            // A call: bounded by its type alone.
            return everything(isTruth(e));
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
        case Op::Eq:
        case Op::Ne:
        case Op::And:
        case Op::Or:
        case Op::Not:
            return everything(true);
        }
        return everything(false);
    }
};

// ------------------------------------------------------------------ modular_set.cc

namespace {

Modular modEverything() {
    return Modular(1, 0);
}

Modular modUnion(Modular a, Modular b) {
    const std::int64_t c = zeroAwareGcd(a.coeff, b.coeff);
    if (c == 0) {
        if (a.base == b.base) return a;
        return modEverything();
    }
    const std::int64_t b0 = a.base % c, b1 = b.base % c;
    if (b0 == b1) return Modular(c, b0);
    return Modular(zeroAwareGcd(zeroAwareGcd(b0, b1), c), b0);
}

std::int64_t extendedEuclidean(std::int64_t a, std::int64_t b, std::int64_t* x, std::int64_t* y) {
    std::int64_t s = 0, oldS = 1, r = b, oldR = a >= 0 ? a : -a;
    while (r != 0) {
        const std::int64_t q = oldR / r;
        std::int64_t t = oldR;
        oldR = r;
        r = t - q * r;
        t = oldS;
        oldS = s;
        s = t - q * s;
    }
    *x = a >= 0 ? oldS : -oldS;
    *y = b != 0 ? (oldR - (*x) * a) / b : 1;
    return oldR;
}

Modular modIntersect(Modular a, Modular b) {
    std::int64_t x, y;
    const std::int64_t g = extendedEuclidean(a.coeff, b.coeff, &x, &y);
    const std::int64_t v = b.base - a.base;
    if (g != 0 && v % g == 0) {
        x = v / g * x;
        return Modular(a.coeff / g * b.coeff, x * a.coeff + a.base);
    }
    Modular nothing;
    nothing.coeff = 0;
    nothing.base = 1;
    return nothing;
}

} // namespace

Modular Analyzer::modularOf(const Expr& e) {
    std::int64_t v;
    auto divByConst = [&](const Expr& lhs, std::int64_t val, bool roundDown) {
        Modular a = modularOf(lhs);
        if (a.coeff % val == 0) {
            if (a.base == 0) return Modular(std::abs(a.coeff / val), 0);
            if (a.base > 0 && val > 0 && (roundDown || canProveGreaterEqual(lhs, 0)))
                return Modular(a.coeff / val, a.base / val);
        }
        return modEverything();
    };
    auto modByConst = [&](const Expr& lhs, std::int64_t val, bool roundDown) {
        Modular a = modularOf(lhs);
        const std::int64_t c = zeroAwareGcd(a.coeff, val);
        if (c != 0 &&
            (a.base % c == 0 || (a.base > 0 && (roundDown || canProveGreaterEqual(lhs, 0)))))
            return Modular(c, a.base % c);
        return modEverything();
    };
    switch (e->op) {
    case Op::Const:
        return Modular(0, e->value);
    case Op::Var: {
        Expr bound = boundValue(e->name);
        if (bound && isConst(bound, &v)) return Modular(0, v);
        auto it = modularVars_.find(e->name);
        return it == modularVars_.end() ? modEverything() : it->second;
    }
    case Op::Cast:
        return modularOf(e->a);
    case Op::Add: {
        Modular a = modularOf(e->a), b = modularOf(e->b);
        return Modular(zeroAwareGcd(a.coeff, b.coeff), a.base + b.base);
    }
    case Op::Sub: {
        Modular a = modularOf(e->a), b = modularOf(e->b);
        return Modular(zeroAwareGcd(a.coeff, b.coeff), a.base - b.base);
    }
    case Op::Mul: {
        Modular a = modularOf(e->a), b = modularOf(e->b);
        const std::int64_t pq = a.coeff * b.coeff, pm = a.coeff * b.base, qn = a.base * b.coeff;
        return Modular(zeroAwareGcd(pq, zeroAwareGcd(pm, qn)), a.base * b.base);
    }
    case Op::TruncDiv:
    case Op::FloorDiv: {
        Modular b = modularOf(e->b);
        if (b.coeff == 0 && b.base != 0) return divByConst(e->a, b.base, e->op == Op::FloorDiv);
        return modEverything();
    }
    case Op::TruncMod:
    case Op::FloorMod: {
        Modular b = modularOf(e->b);
        if (b.coeff == 0 && b.base != 0) return modByConst(e->a, b.base, e->op == Op::FloorMod);
        return modEverything();
    }
    case Op::Min:
    case Op::Max:
        return modUnion(modularOf(e->a), modularOf(e->b));
    case Op::Select:
        return modUnion(modularOf(e->b), modularOf(e->c));
    case Op::Shr: {
        Modular b = modularOf(e->b);
        if (b.coeff == 0 && b.base >= 0 && b.base < 62)
            return divByConst(e->a, std::int64_t{1} << b.base, true);
        return modEverything();
    }
    case Op::BitAnd: {
        Modular b = modularOf(e->b);
        if (b.coeff == 0) {
            const std::int64_t m = b.base + 1;
            if (m > 0 && (m & (m - 1)) == 0) return modByConst(e->a, m, true);
        }
        return modEverything();
    }
    default:
        return modEverything();
    }
}

// ------------------------------------------------------------------ analyzer.cc

Analyzer::Analyzer(const std::map<std::string, std::int64_t>& extents)
    : extents_(extents), rewrite_(std::make_unique<Rewriter>(*this)),
      canonical_(std::make_unique<Canonical>(*this)) {}

Analyzer::~Analyzer() = default;

Expr Analyzer::boundValue(const std::string& var) const {
    auto it = extents_.find(var);
    if (it != extents_.end() && it->second == 1) return constant(0);
    return nullptr;
}

std::int64_t Analyzer::extentOf(const std::string& var) const {
    return extents_.at(var);
}

Bound Analyzer::boundOf(const Expr& e) {
    return BoundAnalyzer(*this).visit(e);
}

Bound Analyzer::constIntBound(const Expr& e) {
    return boundOf(e);
}

Modular Analyzer::modularSet(const Expr& e) {
    return modularOf(e);
}

// RewriteSimplifier::operator(): up to two passes, stopping when one changes nothing.
Expr Analyzer::rewriteSimplify(const Expr& e) {
    Expr res = e;
    for (int i = 0; i < 2; ++i) {
        Expr next = rewrite_->run(res);
        if (next == res) return res;
        res = next;
    }
    return res;
}

Expr Analyzer::canonicalSimplify(const Expr& e) {
    return canonical_->run(e);
}

Expr Analyzer::simplify(const Expr& e, int steps) {
    Expr res = canonicalSimplify(e);
    for (int i = 0; i < steps; ++i) {
        if (isConst(res)) return res;
        res = i % 2 == 0 ? rewriteSimplify(res) : canonicalSimplify(res);
    }
    return res;
}

bool Analyzer::canProveGreaterEqual(const Expr& e, std::int64_t lower) {
    std::int64_t v;
    if (isConst(e, &v)) return v >= lower;
    return boundOf(rewriteSimplify(e)).min >= lower;
}

bool Analyzer::canProveLess(const Expr& e, std::int64_t upper) {
    std::int64_t v;
    if (isConst(e, &v)) return v < upper;
    return boundOf(rewriteSimplify(e)).max < upper;
}

bool Analyzer::canProveEqual(const Expr& a, const Expr& b) {
    std::int64_t x, y;
    if (isConst(a, &x) && isConst(b, &y)) return x == y;
    return canProve(fold(Op::Eq, fold(Op::Sub, a, b), constant(0)));
}

bool Analyzer::canProve(const Expr& e) {
    std::int64_t v;
    if (isConst(e, &v)) return v != 0;
    Expr s = simplify(e);
    if (isConst(s, &v) && v) return true;
    if (s->op == Op::Not) {
        const Expr& a = s->a;
        switch (a->op) {
        case Op::Lt:
            return canProve(binary(Op::Ge, a->a, a->b));
        case Op::Le:
            return canProve(binary(Op::Gt, a->a, a->b));
        case Op::Gt:
            return canProve(binary(Op::Le, a->a, a->b));
        case Op::Ge:
            return canProve(binary(Op::Lt, a->a, a->b));
        case Op::Eq:
            return canProve(binary(Op::Ne, a->a, a->b));
        case Op::Ne:
            return canProve(binary(Op::Eq, a->a, a->b));
        case Op::Or:
            return canProve(binary(Op::And, unary(Op::Not, a->a), unary(Op::Not, a->b)));
        case Op::And:
            return canProve(binary(Op::Or, unary(Op::Not, a->a), unary(Op::Not, a->b)));
        case Op::Not:
            return canProve(a->a);
        default:
            break;
        }
        Expr as = simplify(a);
        if (isConst(as, &v) && v == 0) return true;
    }
    if (s->op == Op::Or && (canProve(s->a) || canProve(s->b))) return true;
    if (s->op == Op::And && canProve(s->a) && canProve(s->b)) return true;
    // TileLang's TVM asks Z3 here (analyzer.cc, z3_prover.CanProve).
    return exhaustiveProof(s);
}

// TileLang's TVM hands what its rules leave open to Z3 (z3_prover_on.cc), with a resource limit
// (rlimit 1e4) whose use depends on every query the analyzer made before, and bit-vector
// conversions for the bitwise operators; calls it does not know (T.if_then_else) become free
// variables. Which true facts it then proves is not predictable, so this port only decides what
// needs no prover: a fact false at some point is never proved (Z3 is sound). A fact true at every
// point (where the active constraints hold) may or may not be proved by TVM: that is recorded in
// `unsure` and the answer is false, and the caller refuses rather than guess.
bool Analyzer::exhaustiveProof(const Expr& e) {
    std::set<std::string> vars;
    collectVars(e, vars);
    for (const Expr& c : constraints_)
        collectVars(c, vars);
    std::vector<std::string> names(vars.begin(), vars.end());
    std::int64_t points = 1;
    for (const auto& n : names) {
        auto it = extents_.find(n);
        if (it == extents_.end()) {
            if (unsure.empty())
                unsure = "a fact over an unbounded variable, `" + printExpr(e) + "`,";
            return false;
        }
        points *= std::max<std::int64_t>(it->second, 1);
        if (points > (std::int64_t{1} << 16)) {
            if (unsure.empty())
                unsure = "a fact TVM leaves to Z3 over more points than Tilescope tries, `" +
                         printExpr(e) + "`,";
            return false;
        }
    }
    std::map<std::string, std::int64_t> at;
    auto env = [&](const std::string& n) { return at.at(n); };
    for (std::int64_t p = 0; p < points; ++p) {
        std::int64_t rest = p;
        for (const auto& n : names) {
            const std::int64_t ext = std::max<std::int64_t>(extents_.at(n), 1);
            at[n] = rest % ext;
            rest /= ext;
        }
        try {
            bool holds = true;
            for (const Expr& c : constraints_)
                holds = holds && evaluatePoint(c, env) != 0;
            if (holds && evaluatePoint(e, env) == 0) return false;
        } catch (const EvalError&) {
            return false;
        }
    }
    if (unsure.empty())
        unsure = "a fact that holds everywhere but that TVM's rules do not show, `" + printExpr(e) +
                 "` (TileLang then asks Z3 under a resource limit, which proves "
                 "such facts or not depending on the queries before it),";
    return false;
}

void Analyzer::enterConstraint(const Expr& constraint) {
    constraints_.push_back(constraint);
    // const_int_bound: DetectBoundInfo on the constraint and its conjuncts.
    boundInfoMarks_.push_back(boundInfo_.size());
    std::vector<Expr> parts;
    std::function<void(const Expr&)> collect = [&](const Expr& x) {
        parts.push_back(x);
        if (x->op == Op::And) {
            collect(x->a);
            collect(x->b);
        }
    };
    collect(constraint);
    auto addInfo = [&](const Expr& x, std::int64_t lo, std::int64_t hi) {
        if (!isConst(x)) boundInfo_.push_back({x, makeBound(lo, hi)});
    };
    for (const Expr& s : parts) {
        std::int64_t c;
        const bool ca = s->a && isConst(s->a, &c);
        std::int64_t d;
        const bool cb = s->b && isConst(s->b, &d);
        switch (s->op) {
        case Op::Le:
            if (ca)
                addInfo(s->b, c, kPosInf); // c <= x
            else if (cb)
                addInfo(s->a, kNegInf, d); // x <= c
            break;
        case Op::Ge:
            if (cb) addInfo(s->a, d, kPosInf); // x >= c
            break;
        case Op::Lt:
            if (ca)
                addInfo(s->b, c + 1, kPosInf); // c < x
            else if (cb)
                addInfo(s->a, kNegInf, d - 1); // x < c
            break;
        case Op::Gt:
            if (cb)
                addInfo(s->a, d + 1, kPosInf); // x > c
            else if (ca)
                addInfo(s->b, kNegInf, c - 1); // c > x
            break;
        case Op::Eq:
            if (cb)
                addInfo(s->a, d, d);
            else if (ca)
                addInfo(s->b, c, c);
            break;
        case Op::Not: {
            const Expr& in = s->a;
            std::int64_t k;
            const bool ka = in->a && isConst(in->a, &k);
            std::int64_t l;
            const bool kb = in->b && isConst(in->b, &l);
            if (in->op == Op::Le && ka)
                addInfo(in->b, kNegInf, k - 1);
            else if (in->op == Op::Ge && kb)
                addInfo(in->a, kNegInf, l - 1);
            else if (in->op == Op::Lt && ka)
                addInfo(in->b, kNegInf, k);
            else if (in->op == Op::Gt && kb)
                addInfo(in->a, kNegInf, l);
            else if (in->op == Op::Le && kb)
                addInfo(in->a, l + 1, kPosInf);
            else if (in->op == Op::Lt && kb)
                addInfo(in->a, l, kPosInf);
            else if (in->op == Op::Gt && ka)
                addInfo(in->b, k, kPosInf);
            break;
        }
        default:
            break;
        }
    }
    // modular_set: `x % c == b` and `x == b` of a variable.
    std::vector<ModularUpdate> updates;
    auto update = [&](const std::string& var, Modular m) {
        auto it = modularVars_.find(var);
        updates.push_back({var, it != modularVars_.end(),
                           it != modularVars_.end() ? it->second : modEverything()});
        Modular old = it != modularVars_.end() ? it->second : modEverything();
        modularVars_[var] = modIntersect(old, m);
    };
    if (constraint->op == Op::Eq) {
        const Expr& l = constraint->a;
        const Expr& r = constraint->b;
        std::int64_t base, coeff;
        if ((l->op == Op::FloorMod || l->op == Op::TruncMod) && l->a->op == Op::Var &&
            isConst(l->b, &coeff) && isConst(r, &base))
            update(l->a->name, Modular(coeff, base));
        else if (l->op == Op::Var && isConst(r, &base))
            update(l->name, Modular(1, base));
        else if (r->op == Op::Var && isConst(l, &base))
            update(r->name, Modular(1, base));
    }
    modularMarks_.push_back(std::move(updates));
    rewrite_->enterConstraint(constraint);
}

void Analyzer::exitConstraint() {
    rewrite_->exitConstraint();
    auto updates = std::move(modularMarks_.back());
    modularMarks_.pop_back();
    for (auto it = updates.rbegin(); it != updates.rend(); ++it) {
        if (it->had)
            modularVars_[it->var] = it->old;
        else
            modularVars_.erase(it->var);
    }
    boundInfo_.resize(boundInfoMarks_.back());
    boundInfoMarks_.pop_back();
    constraints_.pop_back();
}

} // namespace ts::tvmarith
