// SPDX-License-Identifier: Apache-2.0
// Internal: TVM's RewriteSimplifier and CanonicalSimplifier (see tvm_arith.h), and the small
// pattern language their rules are written in (TVM's pattern_match.h), so that each rule reads
// as it does in rewrite_simplify.cc.
#pragma once

#include "tvm_arith.h"

#include <array>
#include <initializer_list>
#include <vector>

namespace ts::tvmarith {

// ------------------------------------------------------------------ patterns

// A pattern: any expression bound to a slot (TVM's PVar<PrimExpr>), an integer constant bound
// to a slot (PVar<IntImm>), a literal integer, or an operator over sub-patterns.
struct Pat {
    enum Kind : std::uint8_t { Any, Int, Lit, Node } kind = Lit;
    int slot = -1;
    std::int64_t lit = 0;
    Op op = Op::Const;
    std::vector<Pat> kids;
};

Pat operator+(const Pat& a, const Pat& b);
Pat operator-(const Pat& a, const Pat& b);
Pat operator*(const Pat& a, const Pat& b);
Pat operator+(const Pat& a, std::int64_t b);
Pat operator-(const Pat& a, std::int64_t b);
Pat operator*(const Pat& a, std::int64_t b);
Pat operator-(std::int64_t a, const Pat& b);
Pat operator<(const Pat& a, const Pat& b);
Pat operator<=(const Pat& a, const Pat& b);
Pat operator>(const Pat& a, const Pat& b);
Pat operator>=(const Pat& a, const Pat& b);
Pat operator==(const Pat& a, const Pat& b);
Pat operator!=(const Pat& a, const Pat& b);
Pat operator&&(const Pat& a, const Pat& b);
Pat operator||(const Pat& a, const Pat& b);
Pat operator!(const Pat& a);
Pat lit(std::int64_t v);
Pat fdiv(const Pat& a, const Pat& b);
Pat fmod(const Pat& a, const Pat& b);
Pat tdiv(const Pat& a, const Pat& b);
Pat tmod(const Pat& a, const Pat& b);
Pat pmin(const Pat& a, const Pat& b);
Pat pmax(const Pat& a, const Pat& b);
Pat psel(const Pat& c, const Pat& t, const Pat& f);
Pat fdiv(const Pat& a, std::int64_t b);
Pat fmod(const Pat& a, std::int64_t b);

constexpr int kSlots = 10;

// Match state: slots bound so far. A slot met twice must hold deep-equal expressions.
class Match {
public:
    bool match(const Pat& p, const Expr& e);
    Expr eval(const Pat& p) const;
    const Expr& operator[](const Pat& p) const { return bound_[p.slot]; }
    std::int64_t v(const Pat& p) const { return bound_[p.slot]->value; }
    bool filled(const Pat& p) const { return bound_[p.slot] != nullptr; }
    void reset() { bound_.fill(nullptr); }

private:
    bool matchNode(const Pat& p, const Expr& e);
    std::array<Expr, kSlots> bound_{};
};

// ------------------------------------------------------------------ the simplifiers

class Rewriter {
public:
    explicit Rewriter(Analyzer& a) : an_(a) {}
    virtual ~Rewriter() = default;
    Rewriter(const Rewriter&) = delete;
    Rewriter& operator=(const Rewriter&) = delete;

    Expr run(const Expr& e) { return visit(e); }
    // ExprFunctor::VisitExpr: the canonical simplifier overrides it to normalize.
    virtual Expr visit(const Expr& e) { return visitNode(e); }

    void enterConstraint(const Expr& constraint);
    void exitConstraint();

    // TryCompare(x, val): what bounds and modular sets say about x against val.
    Cmp tryCompare(const Expr& x, std::int64_t val);
    Cmp tryCompare(const Expr& x, const Expr& y);

protected:
    Analyzer& an_;
    int recurDepth_ = 0;
    std::vector<Expr> literal_;
    std::vector<std::size_t> literalMarks_;
    static constexpr int kMaxRecurDepth = 5;

    // Rewriter::VisitExpr_ for each node type.
    Expr visitNode(const Expr& e);
    Expr mutateChildren(const Expr& e);
    Expr recursiveRewrite(const Expr& e);

    Expr visitAdd(const Expr& e);
    Expr visitSub(const Expr& e);
    Expr visitMul(const Expr& e);
    Expr visitDiv(const Expr& e);
    Expr visitMod(const Expr& e);
    Expr visitFloorDiv(const Expr& e);
    Expr visitFloorMod(const Expr& e);
    Expr visitMin(const Expr& e);
    Expr visitMax(const Expr& e);
    Expr visitEq(const Expr& e);
    Expr visitNe(const Expr& e);
    Expr visitLe(const Expr& e);
    Expr visitLt(const Expr& e);
    Expr visitNot(const Expr& e);
    Expr visitAnd(const Expr& e);
    Expr visitOr(const Expr& e);
    Expr visitSelect(const Expr& e);
    Expr visitIfThenElse(const Expr& e);
    Expr visitCall(const Expr& e);
    Expr visitCast(const Expr& e);

    Expr rulesEq(const Expr& ret);
    Expr rulesLt(const Expr& ret);
    Expr rulesNot(const Expr& ret);
    Expr tryMatchLiteral(const Expr& e) const;

    bool canProveGreaterEqual(const Expr& x, std::int64_t v) {
        return an_.canProveGreaterEqual(x, v);
    }
    bool canProveLess(const Expr& x, std::int64_t v) { return an_.canProveLess(x, v); }
    bool canProveEqual(const Expr& x, std::int64_t v) { return tryCompare(x, v) == kEQ; }
    bool canProve(const Expr& x) { return an_.canProve(x); }

    friend class Analyzer;
};

// A split of an index: ((index % upper) / lower) * scale, `/` and `%` truncating or flooring.
enum DivMode : int { kTruncDiv = 0, kFloorDiv = 1 };

struct SplitE {
    Expr index;
    std::int64_t lower = 1, upper = kPosInf, scale = 1;
    DivMode mode = kTruncDiv;
};

struct SumE {
    std::vector<SplitE> args;
    std::int64_t base = 0;
};

// What the canonical simplifier's visitors return: an expression, or one of its temporary forms.
struct CVal {
    enum Kind { Plain, Split, Sum } kind = Plain;
    Expr plain;
    SplitE split;
    SumE sum;
    static CVal of(Expr e) {
        CVal v;
        v.plain = std::move(e);
        return v;
    }
    static CVal of(SplitE s) {
        CVal v;
        v.kind = Split;
        v.split = std::move(s);
        return v;
    }
    static CVal of(SumE s) {
        CVal v;
        v.kind = Sum;
        v.sum = std::move(s);
        return v;
    }
};

class Canonical : public Rewriter {
public:
    explicit Canonical(Analyzer& a) : Rewriter(a) {}
    Expr visit(const Expr& e) override { return normalize(mutate(e)); }

private:
    CVal mutate(const Expr& e);
    CVal cAdd(const Expr& e, int sign);
    CVal cMul(const Expr& e);
    CVal cDiv(const Expr& e, DivMode mode);
    CVal cMod(const Expr& e, DivMode mode);
    Expr cCast(const Expr& e);
    Expr cLt(const Expr& e);

    Expr normalize(const CVal& v);
    SplitE toSplit(const CVal& v);
    SumE toSum(const CVal& v);
    SplitE convertDivMode(SplitE s, DivMode mode);
    SplitE splitDivConst(SplitE lhs, std::int64_t cval, DivMode mode);
    SplitE splitModConst(SplitE lhs, std::int64_t cval, DivMode mode);
    bool prodDivSimplify(Expr& lhs, Expr& rhs, Expr& commonScale);
};

Expr normalizeSplit(const SplitE& s, std::int64_t sscale = 1);
Expr normalizeSum(const SumE& s);

} // namespace ts::tvmarith
