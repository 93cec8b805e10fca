// SPDX-License-Identifier: Apache-2.0
// TVM's RewriteSimplifier (rewrite_simplify.cc) for the operators of the mapping language: the
// same rules in the same order, each read as in TVM. Vector, float and vscale rules are left
// out (index expressions have none), and so are the extensions TileLang does not enable.
#include "tvm_rewrite.h"

#include "tilescope/support/errors.h"

#include <functional>

namespace ts::tvmarith {

// ------------------------------------------------------------------ patterns

namespace {

Pat node(Op op, std::vector<Pat> kids) {
    Pat p;
    p.kind = Pat::Node;
    p.op = op;
    p.kids = std::move(kids);
    return p;
}

Pat anyOf(int slot) {
    Pat p;
    p.kind = Pat::Any;
    p.slot = slot;
    return p;
}

Pat intOf(int slot) {
    Pat p;
    p.kind = Pat::Int;
    p.slot = slot;
    return p;
}

// TVM's PVar<PrimExpr> x, y, z, s1, s2, b1, b2 and PVar<IntImm> c1, c2, c3.
const Pat x = anyOf(0), y = anyOf(1), z = anyOf(2), s1 = anyOf(3), s2 = anyOf(4), b1 = anyOf(5),
          b2 = anyOf(6);
const Pat c1 = intOf(7), c2 = intOf(8), c3 = intOf(9);

} // namespace

Pat lit(std::int64_t v) {
    Pat p;
    p.kind = Pat::Lit;
    p.lit = v;
    return p;
}
Pat operator+(const Pat& a, const Pat& b) {
    return node(Op::Add, {a, b});
}
Pat operator-(const Pat& a, const Pat& b) {
    return node(Op::Sub, {a, b});
}
Pat operator*(const Pat& a, const Pat& b) {
    return node(Op::Mul, {a, b});
}
Pat operator+(const Pat& a, std::int64_t b) {
    return a + lit(b);
}
Pat operator-(const Pat& a, std::int64_t b) {
    return a - lit(b);
}
Pat operator*(const Pat& a, std::int64_t b) {
    return a * lit(b);
}
Pat operator-(std::int64_t a, const Pat& b) {
    return lit(a) - b;
}
Pat operator<(const Pat& a, const Pat& b) {
    return node(Op::Lt, {a, b});
}
Pat operator<=(const Pat& a, const Pat& b) {
    return node(Op::Le, {a, b});
}
Pat operator>(const Pat& a, const Pat& b) {
    return node(Op::Gt, {a, b});
}
Pat operator>=(const Pat& a, const Pat& b) {
    return node(Op::Ge, {a, b});
}
Pat operator==(const Pat& a, const Pat& b) {
    return node(Op::Eq, {a, b});
}
Pat operator!=(const Pat& a, const Pat& b) {
    return node(Op::Ne, {a, b});
}
Pat operator&&(const Pat& a, const Pat& b) {
    return node(Op::And, {a, b});
}
Pat operator||(const Pat& a, const Pat& b) {
    return node(Op::Or, {a, b});
}
Pat operator!(const Pat& a) {
    return node(Op::Not, {a});
}
Pat fdiv(const Pat& a, const Pat& b) {
    return node(Op::FloorDiv, {a, b});
}
Pat fmod(const Pat& a, const Pat& b) {
    return node(Op::FloorMod, {a, b});
}
Pat tdiv(const Pat& a, const Pat& b) {
    return node(Op::TruncDiv, {a, b});
}
Pat tmod(const Pat& a, const Pat& b) {
    return node(Op::TruncMod, {a, b});
}
Pat pmin(const Pat& a, const Pat& b) {
    return node(Op::Min, {a, b});
}
Pat pmax(const Pat& a, const Pat& b) {
    return node(Op::Max, {a, b});
}
Pat psel(const Pat& c, const Pat& t, const Pat& f) {
    return node(Op::Select, {c, t, f});
}
Pat fdiv(const Pat& a, std::int64_t b) {
    return fdiv(a, lit(b));
}
Pat fmod(const Pat& a, std::int64_t b) {
    return fmod(a, lit(b));
}

bool Match::match(const Pat& p, const Expr& e) {
    switch (p.kind) {
    case Pat::Any:
        if (bound_[p.slot]) return structurallyEqual(bound_[p.slot], e);
        bound_[p.slot] = e;
        return true;
    case Pat::Int:
        if (e->op != Op::Const) return false;
        if (bound_[p.slot]) return bound_[p.slot]->value == e->value;
        bound_[p.slot] = e;
        return true;
    case Pat::Lit:
        return e->op == Op::Const && e->value == p.lit;
    case Pat::Node:
        return matchNode(p, e);
    }
    return false;
}

bool Match::matchNode(const Pat& p, const Expr& e) {
    if (e->op != p.op) return false;
    for (std::size_t k = 0; k < p.kids.size(); ++k)
        if (!match(p.kids[k], e->operand(static_cast<int>(k)))) return false;
    return true;
}

// Pattern Eval(): TryConstFold then the node, except Not and Select, which TVM's patterns build
// with the plain constructors.
Expr Match::eval(const Pat& p) const {
    switch (p.kind) {
    case Pat::Any:
    case Pat::Int:
        return bound_[p.slot];
    case Pat::Lit:
        return constant(p.lit);
    case Pat::Node:
        break;
    }
    if (p.op == Op::Not) return unary(Op::Not, eval(p.kids[0]));
    if (p.op == Op::Select)
        return ternary(Op::Select, eval(p.kids[0]), eval(p.kids[1]), eval(p.kids[2]));
    return fold(p.op, eval(p.kids[0]), eval(p.kids[1]));
}

// TVM_TRY_REWRITE and friends. Each pattern is built once (a static local in its own block).
#define TS_TRY(SRC, RES)                                                                           \
    {                                                                                              \
        static const Pat src_ = (SRC), res_ = (RES);                                               \
        m.reset();                                                                                 \
        if (m.match(src_, ret)) return m.eval(res_);                                               \
    }
#define TS_TRY_IF(SRC, RES, COND)                                                                  \
    {                                                                                              \
        static const Pat src_ = (SRC), res_ = (RES);                                               \
        m.reset();                                                                                 \
        if (m.match(src_, ret) && (COND)) return m.eval(res_);                                     \
    }
#define TS_TRY_REC(SRC, RES)                                                                       \
    {                                                                                              \
        static const Pat src_ = (SRC), res_ = (RES);                                               \
        m.reset();                                                                                 \
        if (m.match(src_, ret)) return recursiveRewrite(m.eval(res_));                             \
    }
#define TS_TRY_REC_IF(SRC, RES, COND)                                                              \
    {                                                                                              \
        static const Pat src_ = (SRC), res_ = (RES);                                               \
        m.reset();                                                                                 \
        if (m.match(src_, ret) && (COND)) return recursiveRewrite(m.eval(res_));                   \
    }
// matches_one_of / PMatchesOneOf: the alternatives in order, the condition checked for each.
#define TS_TRY_ANY_IF(SRCS, RES, COND)                                                             \
    {                                                                                              \
        static const std::vector<Pat> srcs_ = SRCS;                                                \
        static const Pat res_ = (RES);                                                             \
        for (const Pat& src_ : srcs_) {                                                            \
            m.reset();                                                                             \
            if (m.match(src_, ret) && (COND)) return m.eval(res_);                                 \
        }                                                                                          \
    }
#define TS_TRY_ANY(SRCS, RES) TS_TRY_ANY_IF(SRCS, RES, true)
#define TS_TRY_REC_ANY_IF(SRCS, RES, COND)                                                         \
    {                                                                                              \
        static const std::vector<Pat> srcs_ = SRCS;                                                \
        static const Pat res_ = (RES);                                                             \
        for (const Pat& src_ : srcs_) {                                                            \
            m.reset();                                                                             \
            if (m.match(src_, ret) && (COND)) return recursiveRewrite(m.eval(res_));               \
        }                                                                                          \
    }
#define TS_TRY_REC_ANY(SRCS, RES) TS_TRY_REC_ANY_IF(SRCS, RES, true)
#define V(P) m.v(P)
#define L(...) std::vector<Pat>({__VA_ARGS__})

// ------------------------------------------------------------------ framework

namespace {

bool isZeroConst(const Expr& e) {
    std::int64_t v;
    return isConst(e, &v) && v == 0;
}
bool isOneConst(const Expr& e) {
    std::int64_t v;
    return isConst(e, &v) && v == 1;
}

bool containsFloorDiv(const Expr& e) {
    if (!e) return false;
    if (e->op == Op::FloorDiv) return true;
    return containsFloorDiv(e->a) || containsFloorDiv(e->b) || containsFloorDiv(e->c);
}

// NormalizeBooleanOperators (rewrite_simplify.cc).
Expr normalizeBoolean(Expr e) {
    while (true) {
        if (e->op == Op::Not && e->a->op == Op::Not) {
            e = e->a->a;
            continue;
        }
        if (e->op == Op::Not && e->a->op == Op::Or)
            return fold(Op::And, normalizeBoolean(unary(Op::Not, e->a->a)),
                        normalizeBoolean(unary(Op::Not, e->a->b)));
        if (e->op == Op::Not && e->a->op == Op::And)
            return fold(Op::Or, normalizeBoolean(unary(Op::Not, e->a->a)),
                        normalizeBoolean(unary(Op::Not, e->a->b)));
        if (e->op == Op::Ge) return fold(Op::Le, e->b, e->a);
        if (e->op == Op::Not && e->a->op == Op::Lt) return fold(Op::Le, e->a->b, e->a->a);
        if (e->op == Op::Not && e->a->op == Op::Gt) return fold(Op::Le, e->a->a, e->a->b);
        if (e->op == Op::Gt) return fold(Op::Lt, e->b, e->a);
        if (e->op == Op::Not && e->a->op == Op::Le) return fold(Op::Lt, e->a->b, e->a->a);
        if (e->op == Op::Not && e->a->op == Op::Ge) return fold(Op::Lt, e->a->a, e->a->b);
        if (e->op == Op::Not && e->a->op == Op::Eq) return fold(Op::Ne, e->a->a, e->a->b);
        if (e->op == Op::Not && e->a->op == Op::Ne) return fold(Op::Eq, e->a->a, e->a->b);
        return e;
    }
}

// ExtractConstantOffset.
std::pair<Expr, std::int64_t> extractConstantOffset(const Expr& e) {
    std::int64_t c;
    if (e->op == Op::Add && isConst(e->b, &c)) return {e->a, c};
    if (e->op == Op::Sub && isConst(e->b, &c)) return {e->a, -c};
    if (e->op == Op::Sub && isConst(e->a, &c)) return {e->b, c};
    return {e, 0};
}

} // namespace

Expr Rewriter::recursiveRewrite(const Expr& e) {
    if (recurDepth_ >= kMaxRecurDepth) return e;
    ++recurDepth_;
    Expr r = visit(e);
    --recurDepth_;
    return r;
}

// IRMutatorWithAnalyzer's default: the operands visited, the node rebuilt only if one changed
// (with the plain constructor: folding is each visitor's business).
Expr Rewriter::mutateChildren(const Expr& e) {
    const int n = arity(e->op);
    Expr k[3];
    bool changed = false;
    for (int i = 0; i < n; ++i) {
        k[i] = visit(e->operand(i));
        changed = changed || k[i] != e->operand(i);
    }
    if (!changed) return e;
    if (n == 1) return unary(e->op, k[0]);
    if (n == 2) return binary(e->op, k[0], k[1]);
    return ternary(e->op, k[0], k[1], k[2]);
}

Expr Rewriter::tryMatchLiteral(const Expr& e) const {
    Expr negation = unary(Op::Not, e);
    for (const Expr& c : literal_) {
        if (structurallyEqual(c, e)) return constant(1);
        if (structurallyEqual(c, negation)) return constant(0);
    }
    return nullptr;
}

void Rewriter::enterConstraint(const Expr& constraint) {
    literalMarks_.push_back(literal_.size());
    Expr simplified = run(constraint);
    std::vector<Expr> parts;
    std::function<void(const Expr&)> collect = [&](const Expr& e) {
        if (e->op == Op::And) {
            collect(e->a);
            collect(e->b);
        } else {
            parts.push_back(e);
        }
    };
    collect(simplified);
    for (const Expr& sub : parts) {
        literal_.push_back(sub);
        Expr negation =
            isTruth(sub) ? normalizeBoolean(unary(Op::Not, sub)) : fold(Op::Eq, sub, constant(0));
        literal_.push_back(unary(Op::Not, negation));
    }
}

void Rewriter::exitConstraint() {
    literal_.resize(literalMarks_.back());
    literalMarks_.pop_back();
}

Cmp Rewriter::tryCompare(const Expr& xe, std::int64_t val) {
    Expr diff = visit(xe);
    std::int64_t v;
    if (isConst(diff, &v)) return v == val ? kEQ : v > val ? kGT : kLT;
    Bound b = an_.boundOf(diff);
    if (b.min == val && b.max == val) return kEQ;
    if (b.min > val) return kGT;
    if (b.max < val) return kLT;
    if (b.min >= val) return kGE;
    if (b.max <= val) return kLE;
    if (val == 0) {
        Modular m = an_.modularOf(diff);
        if (m.base != 0) return kNE;
    }
    return kUnknown;
}

Cmp Rewriter::tryCompare(const Expr& xe, const Expr& ye) {
    // TryCompareUsingConstIntBounds; the transitive-comparison analyzer has no known
    // inequalities between index expressions here beyond the variables' bounds.
    return static_cast<Cmp>(kUnknown & tryCompare(fold(Op::Sub, xe, ye), 0));
}

Expr Rewriter::visitNode(const Expr& e) {
    an_.spend();
    switch (e->op) {
    case Op::Const:
        return e;
    case Op::Var: {
        Expr bound = an_.boundValue(e->name);
        return bound ? bound : e;
    }
    case Op::Neg:
        return visit(fold(Op::Mul, e->a, constant(-1)));
    case Op::Add:
        return visitAdd(e);
    case Op::Sub:
        return visitSub(e);
    case Op::Mul:
        return visitMul(e);
    case Op::TruncDiv:
        return visitDiv(e);
    case Op::TruncMod:
        return visitMod(e);
    case Op::FloorDiv:
        return visitFloorDiv(e);
    case Op::FloorMod:
        return visitFloorMod(e);
    case Op::Min:
        return visitMin(e);
    case Op::Max:
        return visitMax(e);
    case Op::Eq:
        return visitEq(e);
    case Op::Ne:
        return visitNe(e);
    case Op::Le:
        return visitLe(e);
    case Op::Lt:
        return visitLt(e);
    case Op::Gt:
        return visit(fold(Op::Lt, e->b, e->a));
    case Op::Ge:
        return visit(fold(Op::Le, e->b, e->a));
    case Op::Not:
        return visitNot(e);
    case Op::And:
        return visitAnd(e);
    case Op::Or:
        return visitOr(e);
    case Op::Select:
        return visitSelect(e);
    case Op::IfThenElse:
        return visitIfThenElse(e);
    case Op::Cast:
        return visitCast(e);
    case Op::BitXor:
    case Op::BitAnd:
    case Op::BitOr:
    case Op::Shl:
    case Op::Shr:
        return visitCall(e);
    }
    return e;
}

// ------------------------------------------------------------------ + - *

Expr Rewriter::visitAdd(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Add, ret->a, ret->b)) return c;
    Match m;
    // cancelation rules
    TS_TRY((x - y) + y, x);
    TS_TRY(x + (y - x), y);
    TS_TRY((x - y) + (y - z), x - z);
    TS_TRY((x - y) + (z - x), z - y);
    TS_TRY(pmin(x, y - z) + z, pmin(x + z, y));
    TS_TRY(pmin(x - z, y) + z, pmin(x, y + z));
    TS_TRY(pmax(x, y - z) + z, pmax(x + z, y));
    TS_TRY(pmax(x - z, y) + z, pmax(x, y + z));
    TS_TRY_IF(pmin(x, y + z * c1) + z * c2, pmin(x + z * c2, y), V(c1) == -V(c2));
    TS_TRY_IF(pmax(x, y + z * c1) + z * c2, pmax(x + z * c2, y), V(c1) == -V(c2));
    TS_TRY_IF(pmin(y + z * c1, x) + z * c2, pmin(x + z * c2, y), V(c1) == -V(c2));
    TS_TRY_IF(pmax(y + z * c1, x) + z * c2, pmax(x + z * c2, y), V(c1) == -V(c2));
    TS_TRY_ANY(L(pmax(x, y) + pmin(x, y), pmin(x, y) + pmax(x, y), pmax(x, y) + pmin(y, x),
                 pmin(x, y) + pmax(y, x)),
               x + y);
    TS_TRY_IF(pmin(x, y + c1) + c2, pmin(x + c2, y), V(c1) == -V(c2));
    TS_TRY_IF(pmin(x + c1, y) + c2, pmin(x, y + c2), V(c1) == -V(c2));
    TS_TRY_IF(pmax(x, y + c1) + c2, pmax(x + c2, y), V(c1) == -V(c2));
    TS_TRY_IF(pmax(x + c1, y) + c2, pmax(x, y + c2), V(c1) == -V(c2));
    // constant folding
    TS_TRY((x + c1) + c2, x + (c1 + c2));
    // mul co-efficient folding
    TS_TRY(x + x, x * 2);
    TS_TRY_ANY(L(x * y + x, y * x + x, x + y * x, x + x * y), (y + 1) * x);
    TS_TRY_ANY(L(x * y + x * z, y * x + x * z, x * y + z * x, y * x + z * x), (y + z) * x);
    // DivMod rules
    TS_TRY(tdiv(x, c1) * c1 + tmod(x, c1), x);
    TS_TRY_ANY(L(fdiv(x, y) * y + fmod(x, y), y * fdiv(x, y) + fmod(x, y),
                 fmod(x, y) + fdiv(x, y) * y, fmod(x, y) + y * fdiv(x, y)),
               x);
    TS_TRY_IF(fdiv(fmod(x, c2) + c1, c2) + fdiv(x, c2), fdiv(x + c1, c2), V(c2) > 0);
    TS_TRY_REC(fdiv(x, 2) + fmod(x, 2), fdiv(x + 1, 2));
    TS_TRY_IF(fmod(x + c1, 2) + fmod(x, 2), lit(1), tvmFloorMod(V(c1), 2) == 1);
    TS_TRY_IF(fmod(x, 2) + fmod(x + c1, 2), lit(1), tvmFloorMod(V(c1), 2) == 1);
    // canonicalization rule
    TS_TRY_REC_ANY(L(x + (c1 - y), (c1 - y) + x), (x - y) + c1);
    TS_TRY_REC_ANY(L((x + c1) + y, x + (c1 + y), x + (y + c1)), (x + y) + c1);
    TS_TRY_REC(x + pmax(y, z), pmax(y, z) + x);
    TS_TRY_REC(x + pmin(y, z), pmin(y, z) + x);
    TS_TRY_REC(tmod(y, c1) + x * c1, x * c1 + tmod(y, c1));
    TS_TRY_REC(fmod(y, c1) + x * c1, x * c1 + fmod(y, c1));
    // condition rules
    TS_TRY(psel(x, b1, b2) + psel(x, s1, s2), psel(x, b1 + s1, b2 + s2));
    return ret;
}

Expr Rewriter::visitSub(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Sub, ret->a, ret->b)) return c;
    Match m;
    // cancelation rules
    TS_TRY_ANY(L((x + y) - y, (y + x) - y), x);
    TS_TRY_ANY(L(x - (y + x), x - (x + y)), 0 - y);
    TS_TRY_ANY(L(pmin(x, y) - y, x - pmax(y, x)), pmin(x - y, lit(0)));
    TS_TRY_ANY(L(x - pmax(x, y), pmin(y, x) - y), pmin(lit(0), x - y));
    TS_TRY_ANY(L(pmax(x, y) - y, x - pmin(y, x)), pmax(x - y, lit(0)));
    TS_TRY_ANY(L(x - pmin(x, y), pmax(y, x) - y), pmax(lit(0), x - y));
    // mul co-efficient folding
    TS_TRY(x - x, lit(0));
    TS_TRY_ANY(L(x * y - x, y * x - x), (y - 1) * x);
    TS_TRY_ANY(L(x - y * x, x - x * y), (1 - y) * x);
    TS_TRY_ANY(L(x * y - x * z, y * x - x * z, x * y - z * x, y * x - z * x), (y - z) * x);
    // constant cancelation
    TS_TRY((x + c1) - c2, x + (c1 - c2));
    TS_TRY((c1 - x) - (c2 - y), (y - x) + (c1 - c2));
    // cancelization rule involving 4 operands
    TS_TRY_ANY(L((x + y) - (x + z), (x + y) - (z + x), (y + x) - (z + x), (y + x) - (x + z)),
               y - z);
    TS_TRY_ANY(L(pmin(x + y, z) - x, pmin(y + x, z) - x), pmin(y, z - x));
    TS_TRY_ANY(L(pmin(z, x + y) - x, pmin(z, y + x) - x), pmin(z - x, y));
    TS_TRY_ANY(L(pmax(x + y, z) - x, pmax(y + x, z) - x), pmax(y, z - x));
    TS_TRY_ANY(L(pmax(z, x + y) - x, pmax(z, y + x) - x), pmax(z - x, y));
    TS_TRY_ANY(L(x - pmin(x + y, z), x - pmin(y + x, z)), pmax(0 - y, x - z));
    TS_TRY_ANY(L(x - pmin(z, x + y), x - pmin(z, y + x)), pmax(x - z, 0 - y));
    TS_TRY_ANY(L(x - pmax(x + y, z), x - pmax(y + x, z)), pmin(0 - y, x - z));
    TS_TRY_ANY(L(x - pmax(z, x + y), x - pmax(z, y + x)), pmin(x - z, 0 - y));
    TS_TRY(pmin(x, y) - pmin(y, x), lit(0));
    TS_TRY(pmax(x, y) - pmax(y, x), lit(0));
    {
        static const Pat d_ = (b1 - s1) - (b2 - s2);
        TS_TRY_ANY_IF(L(pmin(b1, b2) - pmin(s1, s2), pmin(b1, b2) - pmin(s2, s1)), b1 - s1,
                      canProveEqual(m.eval(d_), 0));
        TS_TRY_ANY_IF(L(pmax(b1, b2) - pmax(s1, s2), pmax(b1, b2) - pmax(s2, s1)), b1 - s1,
                      canProveEqual(m.eval(d_), 0));
    }
    // DivMod rules: truncdiv
    TS_TRY_IF(x - tdiv(x, c1) * c1, tmod(x, c1), V(c1) != 0);
    TS_TRY_IF(tdiv(x, c1) * c1 - x, 0 - tmod(x, c1), V(c1) != 0);
    TS_TRY_IF(x - tdiv(x + y, c1) * c1, tmod(x + y, c1) - y, V(c1) != 0);
    TS_TRY_IF(tdiv(x + y, c1) * c1 - x, y - tmod(x + y, c1), V(c1) != 0);
    TS_TRY_IF(x - tdiv(x - y, c1) * c1, tmod(x - y, c1) + y, V(c1) != 0);
    TS_TRY_IF(tdiv(x - y, c1) * c1 - x, 0 - tmod(x - y, c1) - y, V(c1) != 0);
    TS_TRY_IF(x * c2 - tdiv(x, c1) * c3, tmod(x, c1) * c2, V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(tdiv(x, c1) * c3 - x * c2, 0 - tmod(x, c1) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(x * c2 - tdiv(x + y, c1) * c3, (tmod(x + y, c1) - y) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(tdiv(x + y, c1) * c3 - x * c2, (y - tmod(x + y, c1)) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(x * c2 - tdiv(x - y, c1) * c3, (tmod(x - y, c1) + y) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(tdiv(x - y, c1) * c3 - x * c2, (0 - tmod(x - y, c1) - y) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(tdiv(x + c1, c3) - tdiv(x + c2, c3), tdiv(tmod(x + fmod(c2, c3), c3) + (c1 - c2), c3),
              V(c3) > 0 && canProveGreaterEqual(m[x], -V(c2)) && V(c1) >= V(c2));
    TS_TRY_IF(tdiv(x + c1, c3) - tdiv(x, c3), tdiv(tmod(x, c3) + c1, c3),
              canProveGreaterEqual(m[x], 0) && V(c1) >= 0 && V(c3) > 0);
    // floordiv
    TS_TRY_IF(x - fdiv(x, c1) * c1, fmod(x, c1), V(c1) != 0);
    TS_TRY_IF(fdiv(x, c1) * c1 - x, 0 - fmod(x, c1), V(c1) != 0);
    TS_TRY_IF(x - fdiv(x + y, c1) * c1, fmod(x + y, c1) - y, V(c1) != 0);
    TS_TRY_IF(fdiv(x + y, c1) * c1 - x, y - fmod(x + y, c1), V(c1) != 0);
    TS_TRY_IF(x - fdiv(x - y, c1) * c1, fmod(x - y, c1) + y, V(c1) != 0);
    TS_TRY_IF(fdiv(x - y, c1) * c1 - x, 0 - fmod(x - y, c1) - y, V(c1) != 0);
    TS_TRY_REC(fdiv(x + c1, 2) - fdiv(x + c2, 2),
               fmod(x, 2) * (fmod(c1, 2) - fmod(c2, 2)) + (fdiv(c1, 2) - fdiv(c2, 2)));
    TS_TRY_REC(fdiv(x, 2) - fdiv(x + c2, 2), fmod(x, 2) * (0 - fmod(c2, 2)) - fdiv(c2, 2));
    TS_TRY_REC(fdiv(x + c1, 2) - fdiv(x, 2), fmod(x, 2) * fmod(c1, 2) + fdiv(c1, 2));
    TS_TRY_IF(x * c2 - fdiv(x, c1) * c3, fmod(x, c1) * c2, V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(fdiv(x, c1) * c3 - x * c2, 0 - fmod(x, c1) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(x * c2 - fdiv(x + y, c1) * c3, (fmod(x + y, c1) - y) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(fdiv(x + y, c1) * c3 - x * c2, (y - fmod(x + y, c1)) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(x * c2 - fdiv(x - y, c1) * c3, (fmod(x - y, c1) + y) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_IF(fdiv(x - y, c1) * c3 - x * c2, (0 - fmod(x - y, c1) - y) * c2,
              V(c1) != 0 && V(c3) == V(c1) * V(c2));
    TS_TRY_REC(fdiv(x + 1, 2) - fmod(x, 2), fdiv(x, 2));
    TS_TRY_IF(fdiv(x + c1, c3) - fdiv(x + c2, c3), fdiv(fmod(x + fmod(c2, c3), c3) + (c1 - c2), c3),
              V(c3) > 0);
    TS_TRY_IF(fdiv(x + c1, c3) - fdiv(x, c3), fdiv(fmod(x, c3) + c1, c3), V(c3) > 0);
    // canonicalization rule
    TS_TRY(x - c1, x + (0 - c1));
    TS_TRY_REC((x + c1) - y, (x - y) + c1);
    TS_TRY_REC(x - (y + c1), (x - y) + (0 - c1));
    TS_TRY_REC(x - (y - z), (x + z) - y);
    TS_TRY_REC(x - y * c1, x + y * (0 - c1));
    // condition rules
    TS_TRY(psel(x, b1, b2) - psel(x, s1, s2), psel(x, b1 - s1, b2 - s2));
    TS_TRY(psel(x, y, z) - z, psel(x, y - z, lit(0)));
    TS_TRY(psel(x, y, z) - y, psel(x, lit(0), z - y));
    return ret;
}

Expr Rewriter::visitMul(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Mul, ret->a, ret->b)) return c;
    Match m;
    TS_TRY((x + c1) * c2, x * c2 + c1 * c2);
    TS_TRY((x * c1) * c2, x * (c1 * c2));
    TS_TRY_ANY(L(pmin(x, y) * pmax(x, y), pmax(x, y) * pmin(x, y)), x * y);
    TS_TRY_IF(fdiv(x - fmod(x, c2), c1) * c1, x - fmod(x, c2), V(c1) == -V(c2));
    // canonicalization
    TS_TRY_REC(x * (c1 * y), (x * y) * c1);
    TS_TRY_REC(c1 * x, x * c1);
    TS_TRY_REC_IF((x - y) * c1, (y - x) * (0 - c1), V(c1) < 0);
    return ret;
}

// ------------------------------------------------------------------ / %

Expr Rewriter::visitDiv(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::TruncDiv, ret->a, ret->b)) return c;
    Match m;
    auto ge0 = [&](const Expr& v) { return canProveGreaterEqual(v, 0); };
    TS_TRY_IF(tdiv(tmod(x, c1), c2), lit(0), V(c1) > 0 && V(c2) > V(c1) && ge0(m[x]));
    TS_TRY_IF(tdiv(tdiv(x, c1), c2), tdiv(x, c1 * c2), V(c1) > 0 && V(c2) > 0);
    TS_TRY_IF(tdiv(tdiv(x, c1) + c2, c3), tdiv(x + c1 * c2, c1 * c3),
              V(c1) > 0 && V(c2) >= 0 && V(c3) > 0 && ge0(m[x]));
    {
        static const Pat p_ = tdiv(x * c1, c2);
        m.reset();
        if (m.match(p_, ret)) {
            const std::int64_t a = V(c1), b = V(c2);
            if (a > 0 && b > 0) {
                if (a % b == 0) return fold(Op::Mul, m[x], constant(a / b));
                if (b % a == 0) return fold(Op::TruncDiv, m[x], constant(b / a));
            }
        }
    }
    TS_TRY(tdiv(x, x), lit(1));
    TS_TRY_ANY(L(tdiv(x * c1, x), tdiv(c1 * x, x)), c1);
    const auto divides = [&] { return V(c1) >= 0 && V(c2) > 0 && V(c1) % V(c2) == 0; };
    // Rules involving 2-operands.
    TS_TRY_IF(tdiv(x * c1 + y, c2), x * tdiv(c1, c2) + tdiv(y, c2),
              divides() && ge0(m[x]) && ge0(m[y]));
    TS_TRY_IF(tdiv(pmin(x * c1, y), c2), pmin(x * tdiv(c1, c2), tdiv(y, c2)),
              divides() && ge0(m[x]) && ge0(m[y]));
    TS_TRY_IF(tdiv(pmax(x * c1, y), c2), pmax(x * tdiv(c1, c2), tdiv(y, c2)),
              divides() && ge0(m[x]) && ge0(m[y]));
    TS_TRY_IF(tdiv(y + x * c1, c2), tdiv(y, c2) + x * tdiv(c1, c2),
              divides() && ge0(m[x]) && ge0(m[y]));
    TS_TRY_IF(tdiv(pmin(y, x * c1), c2), pmin(tdiv(y, c2), x * tdiv(c1, c2)),
              divides() && ge0(m[x]) && ge0(m[y]));
    TS_TRY_IF(tdiv(pmax(y, x * c1), c2), pmax(tdiv(y, c2), x * tdiv(c1, c2)),
              divides() && ge0(m[x]) && ge0(m[y]));
    // Rules involving 3-operands.
    {
        static const Pat yz_ = y + z, zy_ = z - y, ymz_ = y - z;
        TS_TRY_IF(tdiv(x * c1 + y + z, c2), x * tdiv(c1, c2) + tdiv(y + z, c2),
                  divides() && ge0(m[x]) && ge0(m.eval(yz_)));
        TS_TRY_IF(tdiv(x * c1 - y + z, c2), x * tdiv(c1, c2) + tdiv(z - y, c2),
                  divides() && ge0(m[x]) && ge0(m.eval(zy_)));
        TS_TRY_IF(tdiv(x * c1 + y - z, c2), x * tdiv(c1, c2) + tdiv(y - z, c2),
                  divides() && ge0(m[x]) && ge0(m.eval(ymz_)));
        TS_TRY_IF(tdiv(y + x * c1 + z, c2), x * tdiv(c1, c2) + tdiv(y + z, c2),
                  V(c1) > 0 && V(c2) > 0 && V(c1) % V(c2) == 0 && ge0(m[x]) && ge0(m.eval(yz_)));
        TS_TRY_IF(tdiv(x + c1, c2), tdiv(x, c2) + tdiv(c1, c2),
                  V(c1) > 0 && V(c2) > 0 && V(c1) % V(c2) == 0 && ge0(m[x]));
        TS_TRY_ANY_IF(L(tdiv(x + y, x), tdiv(y + x, x)), tdiv(y, x) + 1, ge0(m[x]) && ge0(m[y]));
        TS_TRY_ANY_IF(L(tdiv((x + y) + z, x), tdiv((y + x) + z, x), tdiv(y + (z + x), x),
                        tdiv(y + (x + z), x)),
                      tdiv(y + z, x) + 1, ge0(m[x]) && ge0(m.eval(yz_)));
    }
    TS_TRY_ANY_IF(L(tdiv(x * y, y), tdiv(y * x, y)), x, ge0(m[x]) && ge0(m[y]));
    TS_TRY_ANY_IF(L(tdiv(x * z + y, z), tdiv(z * x + y, z)), x + tdiv(y, z),
                  ge0(m[x]) && ge0(m[y]) && ge0(m[z]));
    TS_TRY_ANY_IF(L(tdiv(y + x * z, z), tdiv(y + z * x, z)), tdiv(y, z) + x,
                  ge0(m[x]) && ge0(m[y]) && ge0(m[z]));
    return ret;
}

Expr Rewriter::visitMod(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::TruncMod, ret->a, ret->b)) return c;
    Match m;
    auto ge0 = [&](const Expr& v) { return canProveGreaterEqual(v, 0); };
    static const Pat xc1_ = x * c1, yc1_ = y * c1;
    TS_TRY_IF(tmod(x * c1, c2), lit(0), V(c2) != 0 && V(c1) % V(c2) == 0);
    TS_TRY_IF(tmod(x * c1 + y, c2), tmod(y, c2),
              V(c2) > 0 && V(c1) % V(c2) == 0 && ge0(m.eval(xc1_)) && ge0(m[y]));
    TS_TRY_IF(tmod(x + c1, c2), tmod(x, c2),
              V(c2) > 0 && V(c1) >= 0 && V(c1) % V(c2) == 0 && ge0(m[x]));
    TS_TRY_IF(tmod(x + y * c1, c2), tmod(x, c2),
              V(c2) > 0 && V(c1) % V(c2) == 0 && ge0(m[x]) && ge0(m.eval(yc1_)));
    {
        static const Pat p_ = tmod(x, c1);
        m.reset();
        if (m.match(p_, ret) && V(c1) < 0)
            return recursiveRewrite(fold(Op::TruncMod, m[x], constant(-V(c1))));
        m.reset();
        if (m.match(p_, ret)) {
            Modular mod = an_.modularOf(m[x]);
            const std::int64_t c = V(c1);
            if (c > 0 && mod.coeff % c == 0 && ge0(m[x]))
                return fold(Op::TruncMod, constant(mod.base), m[c1]);
        }
    }
    return ret;
}

Expr Rewriter::visitFloorDiv(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::FloorDiv, ret->a, ret->b)) return c;
    Match m;
    TS_TRY_IF(fdiv(fdiv(x, c1), c2), fdiv(x, c1 * c2), V(c1) > 0 && V(c2) > 0);
    TS_TRY_IF(fdiv(fdiv(x, c1) + c2, c3), fdiv(x + c1 * c2, c1 * c3), V(c1) > 0 && V(c3) > 0);
    {
        static const Pat p1_ = fdiv(x * c1 + y, c2), p2_ = fdiv(x * c1, c2),
                         p3_ = fdiv(y + x * c1, c2);
        // TVM matches the three in turn with the same pattern variables: y keeps what the
        // first bound only when the first matched, else it is unset (EvalOr(0)).
        m.reset();
        bool hit = m.match(p1_, ret);
        if (!hit) {
            m.reset();
            hit = m.match(p2_, ret);
        }
        if (!hit) {
            m.reset();
            hit = m.match(p3_, ret);
        }
        if (hit) {
            const std::int64_t a = V(c1), b = V(c2);
            Expr yval = m.filled(y) ? m[y] : constant(0);
            if (b == 0) return ret;
            Expr residue = fold(Op::FloorDiv,
                                fold(Op::Add, fold(Op::Mul, m[x], constant(tvmFloorMod(a, b))),
                                     fold(Op::FloorMod, yval, constant(b))),
                                constant(b));
            Expr ydivRaw = fold(Op::FloorDiv, yval, constant(b));
            Expr ydiv = canProveEqual(ydivRaw, 0) ? constant(0) : ydivRaw;
            Bound bd = an_.boundOf(residue);
            if (bd.max == bd.min)
                return fold(Op::Add, fold(Op::Mul, m[x], constant(tvmFloorDiv(a, b))),
                            fold(Op::Add, ydiv, constant(bd.max)));
            if (a > 0 && b > 0 && b % a == 0 &&
                canProveLess(fold(Op::FloorMod, yval, constant(b)), a))
                return fold(Op::Add, fold(Op::FloorDiv, m[x], constant(b / a)), ydiv);
        }
    }
    TS_TRY(fdiv(x, x), lit(1));
    TS_TRY_ANY(L(fdiv(x * c1, x), fdiv(c1 * x, x)), c1);
    TS_TRY(fdiv(fmod(x, 2) + 1, 2), fmod(x, 2));
    const auto divides = [&] { return V(c2) > 0 && V(c1) % V(c2) == 0; };
    // Rules involving 2-operands.
    TS_TRY_IF(fdiv(pmin(x * c1, y), c2), pmin(x * fdiv(c1, c2), fdiv(y, c2)), divides());
    TS_TRY_IF(fdiv(pmax(x * c1, y), c2), pmax(x * fdiv(c1, c2), fdiv(y, c2)), divides());
    TS_TRY_IF(fdiv(pmin(y, x * c1), c2), pmin(fdiv(y, c2), x * fdiv(c1, c2)), divides());
    TS_TRY_IF(fdiv(pmax(y, x * c1), c2), pmax(fdiv(y, c2), x * fdiv(c1, c2)), divides());
    // Rules involving 3-operands.
    TS_TRY_IF(fdiv(x * c1 + y + z, c2), x * fdiv(c1, c2) + fdiv(y + z, c2), divides());
    {
        static const Pat q_ = fdiv(y + z, c1);
        TS_TRY_IF(fdiv(x * c1 + y + z, c2), fdiv(x, fdiv(c2, c1)),
                  V(c1) > 0 && V(c2) > 0 && V(c2) % V(c1) == 0 && canProveEqual(m.eval(q_), 0));
    }
    TS_TRY_ANY_IF(L(fdiv(x * c1 - y + z, c2), fdiv(x * c1 + z - y, c2)),
                  x * fdiv(c1, c2) + fdiv(z - y, c2), divides());
    TS_TRY_IF(fdiv(y + x * c1 + z, c2), x * fdiv(c1, c2) + fdiv(y + z, c2), divides());
    TS_TRY_IF(fdiv(x + c1, c2), fdiv(x, c2) + fdiv(c1, c2), divides());
    TS_TRY_IF(fdiv(x * c1, x * c2), fdiv(c1, c2), V(c2) > 0);
    auto ge0 = [&](const Expr& v) { return canProveGreaterEqual(v, 0); };
    TS_TRY_ANY_IF(L(fdiv(x + y, x), fdiv(y + x, x)), fdiv(y, x) + 1, ge0(m[x]));
    TS_TRY_ANY_IF(
        L(fdiv((x + y) + z, x), fdiv((y + x) + z, x), fdiv(y + (z + x), x), fdiv(y + (x + z), x)),
        fdiv(y + z, x) + 1, ge0(m[x]));
    TS_TRY_ANY_IF(L(fdiv(x * y, y), fdiv(y * x, y)), x, ge0(m[y]));
    TS_TRY_ANY_IF(L(fdiv(x * z + y, z), fdiv(z * x + y, z)), x + fdiv(y, z), ge0(m[z]));
    TS_TRY_ANY_IF(L(fdiv(y + x * z, z), fdiv(y + z * x, z)), fdiv(y, z) + x, ge0(m[z]));
    {
        static const Pat zc_ = z * c1;
        TS_TRY_IF(fdiv(x * z * c1 + y, z * c1), x + fdiv(y, z * c1), ge0(m.eval(zc_)));
    }
    TS_TRY_IF(fdiv(x - fmod(x, c1), c1), fdiv(x, c1), V(c1) != 0);
    return ret;
}

Expr Rewriter::visitFloorMod(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::FloorMod, ret->a, ret->b)) return c;
    Match m;
    TS_TRY_IF(fmod(x * c1, c2), fmod(x * fmod(c1, c2), c2), V(c2) != 0);
    {
        static const Pat yd_ = fdiv(y, c1), zd_ = fdiv(z, c2);
        TS_TRY_IF(fmod(x * c1 + y, c2), fmod(x, fdiv(c2, c1)) * c1 + y,
                  V(c1) > 0 && V(c2) > 0 && V(c2) % V(c1) == 0 && canProveEqual(m.eval(yd_), 0));
        TS_TRY_IF(fmod(x * c1 + y * c2 + z, c3), fmod(x * fdiv(c1, c2) + y, fdiv(c3, c2)) * c2 + z,
                  V(c2) > 0 && V(c3) > 0 && V(c3) % V(c2) == 0 && V(c1) % V(c2) == 0 &&
                      canProveEqual(m.eval(zd_), 0));
    }
    TS_TRY_IF(fmod(x * c1 + y, c2), fmod(x * fmod(c1, c2) + y, c2),
              V(c2) > 0 && V(c1) % V(c2) == 0);
    TS_TRY_IF(fmod(x + c1, c2), fmod(x + fmod(c1, c2), c2),
              V(c2) > 0 && (V(c1) >= V(c2) || V(c1) < 0));
    TS_TRY_IF(fmod(x + y * c1, c2), fmod(x + y * fmod(c1, c2), c2), V(c2) > 0);
    TS_TRY_IF(fmod(x * c1, x * c2), x * fmod(c1, c2), V(c2) != 0);
    TS_TRY_ANY(L(fmod(x * y, y), fmod(y * x, y)), lit(0));
    {
        static const Pat s_ = fmod(x + z, y), d_ = y - z, e_ = y + z;
        TS_TRY_ANY_IF(L(fmod(x + fmod(z, y), y), fmod(fmod(z, y) + x, y)), lit(0),
                      canProveEqual(m.eval(s_), 0));
        TS_TRY_ANY_IF(L(fmod(x - fmod(x, z), y), fmod(fmod(x, z) - x, y)), lit(0),
                      canProveEqual(m.eval(d_), 0) || canProveEqual(m.eval(e_), 0));
    }
    {
        static const Pat zc_ = z * c1;
        TS_TRY_IF(fmod(x * z * c1 + y, z * c1), fmod(y, z * c1),
                  canProveGreaterEqual(m.eval(zc_), 0));
    }
    {
        static const Pat p_ = fmod(x, c1);
        m.reset();
        if (m.match(p_, ret) && V(c1) > 0) {
            const std::int64_t c = V(c1);
            Modular mod = an_.modularOf(m[x]);
            if (mod.coeff % c == 0) return fold(Op::FloorMod, constant(mod.base), m[c1]);
            Bound b = an_.boundOf(m[x]);
            if (b.min >= 0 && b.max < c) return m[x];
        }
    }
    return ret;
}

// ------------------------------------------------------------------ min max

Expr Rewriter::visitMin(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Min, ret->a, ret->b)) return c;
    if (isTruth(ret)) return ret;
    Match m;
    TS_TRY(pmin(x, x), x);
    {
        Bound a = an_.boundOf(ret->a), b = an_.boundOf(ret->b);
        if (a.max <= b.min) return ret->a;
        if (b.max <= a.min) return ret->b;
    }
    {
        static const Pat p1_ = pmin(x + c1, x + c2), p2_ = pmin(x + c1, x), p3_ = pmin(x, x + c1),
                         p4_ = pmin(c1 - x, c2 - x);
        static const Pat xc1_ = x + c1, xc2_ = x + c2, c1x_ = c1 - x, c2x_ = c2 - x;
        m.reset();
        if (m.match(p1_, ret)) return m.eval(V(c1) < V(c2) ? xc1_ : xc2_);
        m.reset();
        bool hit = m.match(p2_, ret);
        if (!hit) {
            m.reset();
            hit = m.match(p3_, ret);
        }
        if (hit) return V(c1) < 0 ? m.eval(xc1_) : m[x];
        m.reset();
        if (m.match(p4_, ret)) return m.eval(V(c1) < V(c2) ? c1x_ : c2x_);
    }
    // DivMod rules
    TS_TRY_ANY_IF(L(pmin(tdiv(x + c1, c2) * c2, x), pmin(x, tdiv(x + c1, c2) * c2),
                    pmin(fdiv(x + c1, c2) * c2, x), pmin(x, fdiv(x + c1, c2) * c2)),
                  x, V(c2) > 0 && V(c1) + 1 == V(c2));
    TS_TRY_ANY_IF(
        L(pmin(tdiv(x + c1, c2) * c2, pmax(x, c2)), pmin(pmax(x, c2), tdiv(x + c1, c2) * c2),
          pmin(fdiv(x + c1, c2) * c2, pmax(x, c2)), pmin(pmax(x, c2), fdiv(x + c1, c2) * c2)),
        pmax(x, c2), V(c2) > 0 && V(c1) + 1 == V(c2) && canProveGreaterEqual(m[x], 1));
    TS_TRY_ANY_IF(L(pmin(x, fdiv(x, c2) * c2), pmin(fdiv(x, c2) * c2, x)), fdiv(x, c2) * c2,
                  V(c2) > 0);
    TS_TRY_ANY(L(pmin(pmax(x, y), pmin(x, y)), pmin(pmax(x, y), pmin(y, x)),
                 pmin(pmin(x, y), pmax(x, y)), pmin(pmin(x, y), pmax(y, x)), pmin(pmin(x, y), x),
                 pmin(pmin(x, y), y), pmin(x, pmin(x, y)), pmin(y, pmin(x, y))),
               pmin(x, y));
    TS_TRY_ANY(
        L(pmin(pmax(x, y), x), pmin(pmax(y, x), x), pmin(x, pmax(x, y)), pmin(x, pmax(y, x))), x);
    TS_TRY(pmin(pmin(pmin(x, y), z), y), pmin(pmin(x, y), z));
    TS_TRY(pmin(pmin(pmin(pmin(x, y), z), s1), y), pmin(pmin(pmin(x, y), z), s1));
    TS_TRY(pmin(pmin(pmin(pmin(pmin(x, y), z), s1), s2), y),
           pmin(pmin(pmin(pmin(x, y), z), s1), s2));
    TS_TRY_ANY(L(pmin(pmax(x, y), pmax(x, z)), pmin(pmax(x, y), pmax(z, x)),
                 pmin(pmax(y, x), pmax(x, z)), pmin(pmax(y, x), pmax(z, x))),
               pmax(pmin(y, z), x));
    TS_TRY_ANY(L(pmin(pmin(x, y), pmin(x, z)), pmin(pmin(x, y), pmin(z, x)),
                 pmin(pmin(y, x), pmin(x, z)), pmin(pmin(y, x), pmin(z, x))),
               pmin(pmin(y, z), x));
    TS_TRY_ANY(L(pmin(y + x, z + x), pmin(y + x, x + z), pmin(x + y, x + z), pmin(x + y, z + x)),
               pmin(y, z) + x);
    // sub distribution
    TS_TRY(pmin(y - x, z - x), pmin(y, z) - x);
    TS_TRY(pmin(x - y, x - z), x - pmax(y, z));
    // constant folding rule.
    TS_TRY(pmin(pmin(x, c1), c2), pmin(x, pmin(c1, c2)));
    // scaling rule
    {
        static const Pat td_ = pmin(tdiv(x, c1), tdiv(y, c1)), fd_ = pmin(fdiv(x, c1), fdiv(y, c1)),
                         mu_ = pmin(x * c1, y * c1), mc_ = pmin(x * c1, c2);
        m.reset();
        if (m.match(td_, ret))
            return fold(Op::TruncDiv, fold(V(c1) > 0 ? Op::Min : Op::Max, m[x], m[y]), m[c1]);
        m.reset();
        if (m.match(fd_, ret))
            return fold(Op::FloorDiv, fold(V(c1) > 0 ? Op::Min : Op::Max, m[x], m[y]), m[c1]);
        m.reset();
        if (m.match(mu_, ret))
            return fold(Op::Mul, fold(V(c1) > 0 ? Op::Min : Op::Max, m[x], m[y]), m[c1]);
        m.reset();
        if (m.match(mc_, ret)) {
            const std::int64_t a = V(c1), b = V(c2);
            if (a == 0) return b < 0 ? m[c2] : m[c1];
            if (b % a == 0)
                return fold(Op::Mul, fold(a > 0 ? Op::Min : Op::Max, m[x], constant(b / a)),
                            constant(a));
        }
    }
    // canonicalization
    TS_TRY_REC(pmin(pmin(x, c1), y), pmin(pmin(x, y), c1));
    TS_TRY_REC_IF(pmin(c1 - x, c2), c1 - pmax(x, c1 - c2), V(c2) != 0);
    // condition rules.
    TS_TRY(pmin(psel(x, y, z), psel(x, s1, s2)), psel(x, pmin(y, s1), pmin(z, s2)));
    return ret;
}

Expr Rewriter::visitMax(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Max, ret->a, ret->b)) return c;
    if (isTruth(ret)) return ret;
    Match m;
    TS_TRY(pmax(x, x), x);
    {
        Bound a = an_.boundOf(ret->a), b = an_.boundOf(ret->b);
        if (a.min >= b.max) return ret->a;
        if (b.min >= a.max) return ret->b;
    }
    {
        static const Pat p1_ = pmax(x + c1, x + c2), p2_ = pmax(x + c1, x), p3_ = pmax(x, x + c1),
                         p4_ = pmax(c1 - x, c2 - x);
        static const Pat xc1_ = x + c1, xc2_ = x + c2, c1x_ = c1 - x, c2x_ = c2 - x;
        m.reset();
        if (m.match(p1_, ret)) return m.eval(V(c1) > V(c2) ? xc1_ : xc2_);
        m.reset();
        bool hit = m.match(p2_, ret);
        if (!hit) {
            m.reset();
            hit = m.match(p3_, ret);
        }
        if (hit) return V(c1) > 0 ? m.eval(xc1_) : m[x];
        m.reset();
        if (m.match(p4_, ret)) return m.eval(V(c1) > V(c2) ? c1x_ : c2x_);
    }
    // DivMod rules
    TS_TRY_ANY_IF(L(pmax(tdiv(x + c1, c2) * c2, x), pmax(x, tdiv(x + c1, c2) * c2)),
                  tdiv(x + c1, c2) * c2, V(c2) > 0 && V(c1) + 1 == V(c2));
    TS_TRY_ANY_IF(L(pmax(fdiv(x + c1, c2) * c2, x), pmax(x, fdiv(x + c1, c2) * c2)),
                  fdiv(x + c1, c2) * c2, V(c2) > 0 && V(c1) + 1 == V(c2));
    TS_TRY_ANY_IF(L(pmax(fdiv(x, c2) * c2, x), pmax(x, fdiv(x, c2) * c2)), x, V(c2) > 0);
    TS_TRY_ANY(
        L(pmax(pmin(x, y), x), pmax(pmin(y, x), x), pmax(x, pmin(x, y)), pmax(x, pmin(y, x))), x);
    TS_TRY_ANY(L(pmax(pmin(x, y), pmax(x, y)), pmax(pmin(x, y), pmax(y, x)),
                 pmax(pmax(x, y), pmin(x, y)), pmax(pmax(x, y), pmin(y, x)), pmax(pmax(x, y), x),
                 pmax(pmax(x, y), y), pmax(x, pmax(x, y)), pmax(y, pmax(x, y))),
               pmax(x, y));
    TS_TRY(pmax(pmax(pmax(x, y), z), y), pmax(pmax(x, y), z));
    TS_TRY(pmax(pmax(pmax(pmax(x, y), z), s1), y), pmax(pmax(pmax(x, y), z), s1));
    TS_TRY(pmax(pmax(pmax(pmax(pmax(x, y), z), s1), s2), y),
           pmax(pmax(pmax(pmax(x, y), z), s1), s2));
    // max/max cancelation
    TS_TRY_ANY(L(pmax(pmax(x, y), pmax(x, z)), pmax(pmax(x, y), pmax(z, x)),
                 pmax(pmax(y, x), pmax(x, z)), pmax(pmax(y, x), pmax(z, x))),
               pmax(pmax(y, z), x));
    // max/min distribution
    TS_TRY_ANY(L(pmax(pmin(x, y), pmin(x, z)), pmax(pmin(x, y), pmin(z, x)),
                 pmax(pmin(y, x), pmin(x, z)), pmax(pmin(y, x), pmin(z, x))),
               pmin(pmax(y, z), x));
    // add distribution
    TS_TRY_ANY(L(pmax(y + x, z + x), pmax(y + x, x + z), pmax(x + y, x + z), pmax(x + y, z + x)),
               pmax(y, z) + x);
    // sub distribution
    TS_TRY(pmax(y - x, z - x), pmax(y, z) - x);
    TS_TRY(pmax(x - y, x - z), x - pmin(y, z));
    // constant folding rule.
    TS_TRY(pmax(pmax(x, c1), c2), pmax(x, pmax(c1, c2)));
    // scaling rule
    {
        static const Pat td_ = pmax(tdiv(x, c1), tdiv(y, c1)), fd_ = pmax(fdiv(x, c1), fdiv(y, c1)),
                         mu_ = pmax(x * c1, y * c1), mc_ = pmax(x * c1, c2);
        m.reset();
        if (m.match(td_, ret))
            return fold(Op::TruncDiv, fold(V(c1) > 0 ? Op::Max : Op::Min, m[x], m[y]), m[c1]);
        m.reset();
        if (m.match(fd_, ret))
            return fold(Op::FloorDiv, fold(V(c1) > 0 ? Op::Max : Op::Min, m[x], m[y]), m[c1]);
        m.reset();
        if (m.match(mu_, ret))
            return fold(Op::Mul, fold(V(c1) > 0 ? Op::Max : Op::Min, m[x], m[y]), m[c1]);
        m.reset();
        if (m.match(mc_, ret)) {
            const std::int64_t a = V(c1), b = V(c2);
            if (a == 0) return b > 0 ? m[c2] : m[c1];
            if (b % a == 0)
                return fold(Op::Mul, fold(a > 0 ? Op::Max : Op::Min, m[x], constant(b / a)),
                            constant(a));
        }
    }
    // canonicalization
    TS_TRY_REC(pmax(pmax(x, c1), y), pmax(pmax(x, y), c1));
    TS_TRY_REC_IF(pmax(c1 - x, c2), c1 - pmin(x, c1 - c2), V(c2) != 0);
    // condition rules.
    TS_TRY(pmax(psel(x, y, z), psel(x, s1, s2)), psel(x, pmax(y, s1), pmax(z, s2)));
    return ret;
}

// ------------------------------------------------------------------ comparisons

Expr Rewriter::visitEq(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Eq, ret->a, ret->b)) return c;
    if (Expr lit = tryMatchLiteral(ret)) return lit;
    return rulesEq(ret);
}

Expr Rewriter::rulesEq(const Expr& ret) {
    Match m;
    if (!isTruth(ret->a)) {
        const Cmp r = tryCompare(ret->a, ret->b);
        if (r == kEQ) return constant(1);
        if (r == kNE || r == kGT || r == kLT) return constant(0);
        TS_TRY(c1 == x, x == c1);
        TS_TRY(x - c1 == c2, x == c2 + c1);
        TS_TRY(c1 - x == c2, x == c1 - c2);
        TS_TRY(x + c1 == c2, x == c2 - c1);
        TS_TRY_REC(x * y == lit(0), x == lit(0) || y == lit(0));
        TS_TRY(x == x, lit(1));
    } else {
        TS_TRY(x == x, lit(1));
    }
    return ret;
}

Expr Rewriter::visitNe(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Ne, ret->a, ret->b)) return c;
    if (Expr lit = tryMatchLiteral(ret)) return lit;
    if (!isTruth(ret->a)) {
        const Cmp r = tryCompare(ret->a, ret->b);
        if (r == kNE || r == kGT || r == kLT) return constant(1);
        if (r == kEQ) return constant(0);
        if (r == kGE) return rulesLt(binary(Op::Lt, ret->b, ret->a));
        if (r == kLE) return rulesLt(binary(Op::Lt, ret->a, ret->b));
    }
    return rulesNot(unary(Op::Not, rulesEq(binary(Op::Eq, ret->a, ret->b))));
}

Expr Rewriter::visitLe(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Le, ret->a, ret->b)) return c;
    if (Expr lit = tryMatchLiteral(ret)) return lit;
    ret = rulesNot(unary(Op::Not, rulesLt(binary(Op::Lt, ret->b, ret->a))));
    if (ret->op == Op::Le && !isTruth(ret->a)) {
        const Cmp r = tryCompare(ret->a, ret->b);
        if (r == kLE || r == kLT || r == kEQ) return constant(1);
        if (r == kGT) return constant(0);
        if (r == kNE) return rulesLt(binary(Op::Lt, ret->a, ret->b));
        if (r == kGE) return rulesEq(binary(Op::Eq, ret->a, ret->b));
    }
    return ret;
}

Expr Rewriter::visitLt(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Lt, ret->a, ret->b)) return c;
    if (Expr lit = tryMatchLiteral(ret)) return lit;
    return rulesLt(ret);
}

Expr Rewriter::rulesLt(const Expr& ret) {
    if (isTruth(ret->a)) return ret;
    Match m;
    const Cmp r = tryCompare(ret->a, ret->b);
    if (r == kLT) return constant(1);
    if (r == kEQ || r == kGT || r == kGE) return constant(0);
    TS_TRY(x + y < x + z, y < z);
    TS_TRY(x + y < z + x, y < z);
    TS_TRY(y + x < x + z, y < z);
    TS_TRY(y + x < z + x, y < z);
    TS_TRY(y - x < z - x, y < z);
    TS_TRY(x - y < x - z, z < y);
    TS_TRY(x < x + z, lit(0) < z);
    TS_TRY(x < z + x, lit(0) < z);
    TS_TRY(x < x - z, z < lit(0));
    TS_TRY_IF(x * c1 < y * c1, x<y, V(c1)> 0);
    TS_TRY_IF(x * c1 < y * c1, y < x, V(c1) < 0);
    // constant cancelation: only need to make use of one mod
    TS_TRY_IF(x * c2 < c1, x<tdiv(c1 - 1, c2) + 1, V(c1)> 0 && V(c2) > 0);
    TS_TRY_IF(x * c2 < c1, x < tdiv(c1, c2), V(c1) <= 0 && V(c2) > 0);
    TS_TRY_IF(x * c2<c1, tdiv(c1 - 1, c2) - 1 < x, V(c1)> 0 && V(c2) < 0);
    TS_TRY_IF(x * c2 < c1, tdiv(c1, c2) < x, V(c1) <= 0 && V(c2) < 0);
    TS_TRY_IF(c1 < x * c2, tdiv(c1 + 1, c2) - 1 < x, V(c1) < 0 && V(c2) > 0);
    TS_TRY_IF(c1 < x * c2, tdiv(c1, c2) < x, V(c1) >= 0 && V(c2) > 0);
    TS_TRY_IF(c1 < x * c2, x < tdiv(c1 + 1, c2) + 1, V(c1) < 0 && V(c2) < 0);
    TS_TRY_IF(c1 < x * c2, x < tdiv(c1, c2), V(c1) >= 0 && V(c2) < 0);
    // DivMod rules: trunc div
    TS_TRY_IF(tdiv(x, c1) < c2, x<c1 * c2, V(c1)> 0 && V(c2) > 0);
    TS_TRY_IF(tdiv(x, c1) < c2, x<c1*(c2 - 1) + 1, V(c1)> 0 && V(c2) <= 0);
    TS_TRY_IF(c1 < tdiv(x, c2), (c1 + 1) * c2 - 1 < x, V(c1) >= 0 && V(c2) > 0);
    TS_TRY_IF(c1 < tdiv(x, c2), c1 * c2 < x, V(c1) < 0 && V(c2) > 0);
    TS_TRY_IF(tdiv(x, c1) * c1<x, lit(0) < tmod(x, c1), V(c1)> 0);
    TS_TRY_IF(tdiv(x, c1) * c1<x + y, lit(0) < tmod(x, c1) + y, V(c1)> 0);
    TS_TRY_IF(tdiv(x, c1) * c1 < x - y, y<tmod(x, c1), V(c1)> 0);
    TS_TRY_IF(tdiv(x + c2, c1) * c1 < x, c2<tmod(x + c2, c1), V(c1)> 0);
    TS_TRY_IF(tdiv(x + c2, c1) * c1 < x + y, c2<tmod(x + c2, c1) + y, V(c1)> 0);
    TS_TRY_IF(tdiv(x + c2, c1) * c1 < x - y, y<tmod(x + c2, c1) + (0 - c2), V(c1)> 0);
    // floordiv
    TS_TRY_IF(fdiv(x, c1) < c2, x<c1 * c2, V(c1)> 0);
    TS_TRY_IF(c1<fdiv(x, c2), (c1 + 1) * c2 - 1 < x, V(c2)> 0);
    TS_TRY_IF(fdiv(x, c1) * c1<x, lit(0) < fmod(x, c1), V(c1)> 0);
    TS_TRY_IF(fdiv(x, c1) * c1<x + y, lit(0) < fmod(x, c1) + y, V(c1)> 0);
    TS_TRY_IF(fdiv(x, c1) * c1 < x - y, y<fmod(x, c1), V(c1)> 0);
    TS_TRY_IF(fdiv(x + c2, c1) * c1 < x, c2<fmod(x + c2, c1), V(c1)> 0);
    TS_TRY_IF(fdiv(x + c2, c1) * c1 < x + y, c2<fmod(x + c2, c1) + y, V(c1)> 0);
    TS_TRY_IF(fdiv(x + c2, c1) * c1 < x - y, y<fmod(x + c2, c1) + (0 - c2), V(c1)> 0);
    // canonicalization rule
    TS_TRY_REC(pmin(x, y) < z, x < z || y < z);
    TS_TRY_REC(pmax(x, y) < z, x < z && y < z);
    TS_TRY_REC(z < pmin(x, y), z < x && z < y);
    TS_TRY_REC(z < pmax(x, y), z < x || z < y);
    TS_TRY_REC_ANY(L(c1 < x + c2, c1 - x < c2), c1 - c2 < x);
    TS_TRY_REC_ANY(L(c1 < c2 - x, x + c1 < c2), x < c2 - c1);
    TS_TRY_REC(c1 < x - c2, c1 + c2 < x);
    TS_TRY_REC(x - c2 < c1, x < c1 + c2);
    TS_TRY_REC(x < c1 - y, x + y < c1);
    TS_TRY_REC(c1 - y < x, c1 < x + y);
    TS_TRY_REC(x < c1 + y, x - y < c1);
    TS_TRY_REC(c1 + y < x, c1 < x - y);

    auto isMultipleOf = [&](const Expr& ex, std::int64_t gcd, std::int64_t factor) {
        if (factor <= 1) return false;
        if (gcd % factor == 0) return true;
        Expr cond = fold(Op::Eq, fold(Op::FloorMod, ex, constant(factor)), constant(0));
        if (Expr lit = tryMatchLiteral(cond)) return lit->value != 0;
        return canProve(cond);
    };
    auto boundedOffset = [&](const Expr& base, const Expr& offset, const Expr& rhs) -> Expr {
        Bound ob = an_.boundOf(offset);
        if (ob.min < 0) return nullptr;
        Modular bm = an_.modularOf(base), rm = an_.modularOf(rhs);
        const std::int64_t bg = zeroAwareGcd(bm.base, bm.coeff),
                           rg = zeroAwareGcd(rm.base, rm.coeff);
        const std::int64_t common = zeroAwareGcd(bg, rg);
        const std::int64_t factor = common > 1 ? common : bg;
        if (factor <= 1 || ob.max >= factor || !isMultipleOf(rhs, rg, factor)) return nullptr;
        return recursiveRewrite(fold(Op::Lt, base, rhs));
    };
    if (ret->a->op == Op::Add) {
        if (Expr s = boundedOffset(ret->a->a, ret->a->b, ret->b)) return s;
        if (Expr s = boundedOffset(ret->a->b, ret->a->a, ret->b)) return s;
    }
    auto boundedOffsetRhs = [&](const Expr& lhs, const Expr& base, const Expr& offset) -> Expr {
        Bound ob = an_.boundOf(offset);
        if (ob.min < 0) return nullptr;
        Modular bm = an_.modularOf(base), lm = an_.modularOf(lhs);
        const std::int64_t bg = zeroAwareGcd(bm.base, bm.coeff),
                           lg = zeroAwareGcd(lm.base, lm.coeff);
        const std::int64_t common = zeroAwareGcd(bg, lg);
        const std::int64_t factor = common > 1 ? common : bg;
        if (factor <= 1 || ob.max >= factor || !isMultipleOf(lhs, lg, factor)) return nullptr;
        if (ob.min > 0) return recursiveRewrite(fold(Op::Le, lhs, base));
        if (ob.min == 0 && ob.max == 0) return recursiveRewrite(fold(Op::Lt, lhs, base));
        return nullptr;
    };
    if (ret->b->op == Op::Add) {
        if (Expr s = boundedOffsetRhs(ret->a, ret->b->a, ret->b->b)) return s;
        if (Expr s = boundedOffsetRhs(ret->a, ret->b->b, ret->b->a)) return s;
    }
    {
        auto [lhs, lo] = extractConstantOffset(ret->a);
        auto [rhs, ro] = extractConstantOffset(ret->b);
        if (lo != 0 || ro != 0) {
            const std::int64_t diff = ro - lo;
            Expr merged;
            if (diff == 0)
                merged = fold(Op::Lt, lhs, rhs);
            else if (diff == 1)
                merged = fold(Op::Le, lhs, rhs);
            else if (diff < 0 && ro != 0)
                merged = fold(Op::Lt, fold(Op::Add, lhs, constant(-diff)), rhs);
            else if (diff > 0 && lo != 0)
                merged = fold(Op::Lt, lhs, fold(Op::Add, rhs, constant(diff)));
            if (merged) return recursiveRewrite(merged);
        }
    }
    {
        Modular ma = an_.modularOf(ret->a), mb = an_.modularOf(ret->b);
        const std::int64_t cf =
            zeroAwareGcd(zeroAwareGcd(ma.base, ma.coeff), zeroAwareGcd(mb.base, mb.coeff));
        if (cf > 1) {
            Expr lhs = visit(fold(Op::FloorDiv, ret->a, constant(cf)));
            Expr rhs = visit(fold(Op::FloorDiv, ret->b, constant(cf)));
            if (!containsFloorDiv(lhs) && !containsFloorDiv(rhs))
                return recursiveRewrite(fold(Op::Lt, lhs, rhs));
        }
    }
    return ret;
}

// ------------------------------------------------------------------ logic

Expr Rewriter::visitNot(const Expr& e) {
    Expr ret = mutateChildren(e);
    std::int64_t v;
    if (isConst(ret->a, &v)) return constant(v == 0);
    if (Expr lit = tryMatchLiteral(ret)) return lit;
    return rulesNot(ret);
}

Expr Rewriter::rulesNot(const Expr& ret) {
    Match m;
    TS_TRY(!(!x), x);
    TS_TRY(!(x <= y), y < x);
    TS_TRY(!(x >= y), x < y);
    TS_TRY(!(x < y), y <= x);
    TS_TRY(!(x > y), x <= y);
    TS_TRY(!(x == y), x != y);
    TS_TRY(!(x != y), x == y);
    TS_TRY_REC(!(x || y), (!x) && (!y));
    TS_TRY_REC(!(x && y), (!x) || (!y));
    return ret;
}

Expr Rewriter::visitAnd(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::And, ret->a, ret->b)) return c;
    if (Expr lit = tryMatchLiteral(ret)) return lit;
    Match m;
    const Pat f = lit(0);
    TS_TRY(x == y && x != y, f);
    TS_TRY(x != y && x == y, f);
    TS_TRY(x && !x, f);
    TS_TRY(x <= y && y < x, f);
    TS_TRY(y < x && x <= y, f);
    TS_TRY_IF(x < c1 && c2 < x, f, V(c2) + 1 >= V(c1));
    TS_TRY_IF(c2 < x && x < c1, f, V(c2) + 1 >= V(c1));
    TS_TRY_ANY_IF(L(x < c1 && c2 <= x, c2 <= x && x < c1, x <= c1 && c2 < x, c2 < x && x <= c1), f,
                  V(c2) >= V(c1));
    TS_TRY_ANY_IF(L(x <= c1 && c2 <= x, c2 <= x && x <= c1), f, V(c2) > V(c1));
    TS_TRY((x == c1) && (x == c2), (x == c1) && (c1 == c2));
    TS_TRY_ANY(L(x == c1 && x != c2, x != c2 && x == c1), x == c1 && c1 != c2);
    TS_TRY_REC_ANY(
        L(fdiv(x, c2) == c1 && fmod(x, c2) == c3, fmod(x, c2) == c3 && fdiv(x, c2) == c1),
        x == c1 * c2 + c3);
    TS_TRY_REC_ANY_IF(
        L(lit(0) <= x - y * c1 && x - y * c1 < c1, x - y * c1 < c1 && lit(0) <= x - y * c1),
        y == fdiv(x, c1), V(c1) > 0);
    TS_TRY_REC_ANY(
        L(c1 < x - y * c1 && x - y * c1 <= lit(0), x - y * c1 < c1 && lit(0) <= x - y * c1),
        y == fdiv(x, c1));
    TS_TRY_REC_ANY_IF(
        L(lit(0) <= x + y * c2 && x + y * c2 < c1, x + y * c2 < c1 && lit(0) <= x + y * c2),
        y == fdiv(x, c1), V(c2) == -V(c1));
    const auto nz = [&] { return V(c2) != 0; };
    TS_TRY_REC_IF(x < c1 && fmod(x, c2) < c3, x < c1 - c2 + c3 && fmod(x, c2) < c3,
                  nz() && V(c1) % V(c2) == 0);
    TS_TRY_REC_IF(x < c1 && fmod(x, c2) < c3, x < c1 - fmod(c1, c2) + c3 && fmod(x, c2) < c3,
                  nz() && (V(c1) % V(c2) + V(c2)) % V(c2) > V(c3));
    TS_TRY_REC_IF(x <= c1 && fmod(x, c2) < c3, x < c1 + 1 - c2 + c3 && fmod(x, c2) < c3,
                  nz() && (V(c1) + 1) % V(c2) == 0);
    TS_TRY_REC_IF(x <= c1 && fmod(x, c2) < c3, x < c1 + 1 - fmod(c1, c2) + c3 && fmod(x, c2) < c3,
                  nz() && (((V(c1) + 1) % V(c2)) + V(c2)) % V(c2) > V(c3));
    TS_TRY_REC_ANY(L(fdiv(x, c2) == c1 && fmod(x, c2) < c3, fmod(x, c2) < c3 && fdiv(x, c2) == c1),
                   c1 * c2 <= x && x < c1 * c2 + c3);
    TS_TRY_REC_ANY(
        L(fdiv(x, c2) == c1 && fmod(x, c2) <= c3, fmod(x, c2) <= c3 && fdiv(x, c2) == c1),
        c1 * c2 <= x && x <= c1 * c2 + c3);
    TS_TRY_REC_ANY(
        L(fdiv(x, c2) == c1 && c3 <= fmod(x, c2), c3 <= fmod(x, c2) && fdiv(x, c2) == c1),
        c1 * c2 + c3 <= x && x < (c1 + 1) * c2);
    TS_TRY_REC_ANY(L(fdiv(x, c2) == c1 && c3 < fmod(x, c2), c3 < fmod(x, c2) && fdiv(x, c2) == c1),
                   c1 * c2 + c3 < x && x < (c1 + 1) * c2);
    TS_TRY_REC(x && (y && z), (x && y) && z);
    return ret;
}

Expr Rewriter::visitOr(const Expr& e) {
    Expr ret = mutateChildren(e);
    if (Expr c = tryConstFold(Op::Or, ret->a, ret->b)) return c;
    if (Expr lit = tryMatchLiteral(ret)) return lit;
    Match m;
    const Pat t = lit(1);
    TS_TRY(x == y || x != y, t);
    TS_TRY(x != y || x == y, t);
    TS_TRY(x || !x, t);
    TS_TRY(x <= y || y < x, t);
    TS_TRY(y < x || x <= y, t);
    TS_TRY(x < y || y < x, x != y);
    TS_TRY_IF(x < c1 || c2 < x, t, V(c2) < V(c1));
    TS_TRY_IF(c2 < x || x < c1, t, V(c2) < V(c1));
    TS_TRY_IF(x <= c1 || c2 < x, t, V(c2) <= V(c1));
    TS_TRY_IF(c2 < x || x <= c1, t, V(c2) <= V(c1));
    TS_TRY_IF(x < c1 || c2 <= x, t, V(c2) <= V(c1));
    TS_TRY_IF(c2 <= x || x < c1, t, V(c2) <= V(c1));
    TS_TRY_IF(x <= c1 || c2 <= x, t, V(c2) <= V(c1) + 1);
    TS_TRY_IF(c2 <= x || x <= c1, t, V(c2) <= V(c1) + 1);
    TS_TRY(x != c1 || x != c2, x != c1 || c1 != c2);
    TS_TRY(x != c1 || x == c2, x != c1 || c1 == c2);
    TS_TRY(x == c2 || x != c1, x != c1 || c1 == c2);
    TS_TRY_REC(x < y || x == y, x <= y);
    TS_TRY_REC(x < y || y == x, x <= y);
    TS_TRY_REC(x == y || x < y, x <= y);
    TS_TRY_REC(y == x || x < y, x <= y);
    TS_TRY_REC(x || (y || z), (x || y) || z);
    return ret;
}

// ------------------------------------------------------------------ select, calls, cast

// IRMutatorWithAnalyzer::VisitExpr_(SelectNode), then select(x, y, y) => y.
Expr Rewriter::visitSelect(const Expr& e) {
    Expr cond = visit(e->a);
    Expr t, f;
    {
        Analyzer::Scope s(an_, cond);
        t = visit(e->b);
    }
    Expr neg = an_.rewriteSimplify(unary(Op::Not, cond));
    {
        Analyzer::Scope s(an_, neg);
        f = visit(e->c);
    }
    if (isZeroConst(cond)) return f;
    if (isOneConst(cond)) return t;
    Expr ret = (cond == e->a && t == e->b && f == e->c) ? e : ternary(Op::Select, cond, t, f);
    if (structurallyEqual(ret->b, ret->c)) return ret->b;
    return ret;
}

// IRMutatorWithAnalyzer::VisitExpr_(CallNode) for if_then_else, then the nested if_then_else
// rule of RewriteSimplifier::VisitExpr_(CallNode).
Expr Rewriter::visitIfThenElse(const Expr& e) {
    Expr cond = visit(e->a);
    Expr t, f;
    {
        Analyzer::Scope s(an_, cond);
        t = visit(e->b);
    }
    {
        Analyzer::Scope s(an_, unary(Op::Not, cond));
        f = visit(e->c);
    }
    if (isZeroConst(cond)) return f;
    if (isOneConst(cond)) return t;
    Expr ret = (cond == e->a && t == e->b && f == e->c) ? e : ternary(Op::IfThenElse, cond, t, f);
    if (ret->b->op == Op::IfThenElse) {
        const Expr& inner = ret->b;
        if (isConst(inner->c) && isConst(ret->c) && canProve(fold(Op::Eq, inner->c, ret->c))) {
            Expr c = fold(Op::And, ret->a, inner->a);
            if (isOneConst(c)) return inner->b;
            if (isZeroConst(c)) return ret->c;
            return ternary(Op::IfThenElse, c, inner->b, ret->c);
        }
    }
    return ret;
}

// Bitwise operators and shifts are calls in TVM: only a shift of two constants is folded (the
// shift builders, which also refuse a count outside 0..31).
Expr Rewriter::visitCall(const Expr& e) {
    Expr ret = mutateChildren(e);
    if ((ret->op == Op::Shl || ret->op == Op::Shr) && isConst(ret->a) && isConst(ret->b))
        return fold(ret->op, ret->a, ret->b);
    return ret;
}

Expr Rewriter::visitCast(const Expr& e) {
    Expr ret = mutateChildren(e);
    return buildCast(ret->a);
}

} // namespace ts::tvmarith
