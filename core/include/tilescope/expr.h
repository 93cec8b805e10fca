// Integer index expressions: the values that TileLang layouts are made of.
//
// Nodes are immutable and shared; an Expr is a pointer to a const node, so values can be copied
// freely and compared structurally. Division and modulo are floor operations as in TileLang/Python.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ts {

enum class Op : std::uint8_t {
    Const,
    Var,
    Add,
    Sub,
    Mul,
    FloorDiv,
    FloorMod,
    TruncDiv,
    TruncMod,
    BitXor,
    BitAnd,
    BitOr,
    Shl,
    Shr,
    Min,
    Max,
    Neg,
};

struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;

struct ExprNode {
    Op op = Op::Const;
    std::int64_t value = 0; // Const
    std::string name;       // Var
    Expr a, b;              // operands (b empty for Neg)
};

Expr constant(std::int64_t v);
Expr var(std::string name);
Expr binary(Op op, Expr a, Expr b);
Expr negate(Expr a);

// Builders that fold constants, so generated formulas stay readable when printed.
Expr operator+(const Expr& a, const Expr& b);
Expr operator-(const Expr& a, const Expr& b);
Expr operator*(const Expr& a, const Expr& b);
Expr operator+(const Expr& a, std::int64_t b);
Expr operator-(const Expr& a, std::int64_t b);
Expr operator*(const Expr& a, std::int64_t b);
Expr operator*(std::int64_t a, const Expr& b);
Expr floordiv(const Expr& a, std::int64_t b);
Expr floormod(const Expr& a, std::int64_t b);
Expr floordiv(const Expr& a, const Expr& b);
Expr floormod(const Expr& a, const Expr& b);
Expr bitxor(const Expr& a, const Expr& b);

bool isConst(const Expr& e, std::int64_t* value = nullptr);
bool structurallyEqual(const Expr& x, const Expr& y);
// Replaces every variable for which `f` returns a non-null expression.
Expr substitute(const Expr& e, const std::function<Expr(const std::string&)>& f);
void collectVars(const Expr& e, std::set<std::string>& out);
std::size_t exprDepth(const Expr& e);
std::size_t exprSize(const Expr& e);

// TileLang/TVMScript style: `_i % 8 * 16 + _j // 8`, minimal parentheses, left associative,
// min/max as `T.min(a, b)`, xor as `^`. parseExpr(printExpr(e)) is structurally equal to e.
std::string printExpr(const Expr& e);

// Evaluates one point (slow path, for tests and single cells). Throws EvalError.
std::int64_t evaluatePoint(const Expr& e,
                           const std::function<std::int64_t(const std::string&)>& env);

// Placeholder variable of input dimension k as TileLang names it: _i, _j, _k, ...
std::string placeholderName(std::size_t dim);
inline const char* kRepVar = "_rep";

} // namespace ts
