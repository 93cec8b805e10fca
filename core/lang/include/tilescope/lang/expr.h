// SPDX-License-Identifier: Apache-2.0
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

// Adding an operator touches: this enum and arity(); expr.cpp (print, applyBinary or
// evaluateNode, fold); expr_eval.cpp (Compiler::emit, rangeOf, Program::exec);
// simplify.cpp (range, visit); mapping.cpp (the interpreter's operators and calls); the
// random trees in tests/core/lang/test_expr.cpp; README's mapping-language list. Code that switches
// over Op has no `default:` where a missed case would be wrong, so -Wswitch names the places.
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
    // Comparisons give 1 or 0. In TVM they are of type bool and are cast to 0/1 where they meet
    // integers, which gives the same values.
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    // TVM's tir.And / tir.Or / tir.Not on truth values (printed `a and b`, `a or b`, `not a`).
    And,
    Or,
    Not,
    // T.Cast("int32", b): a truth value used as an integer. The value is unchanged; the node only
    // keeps the type, so that the printed text means the same to TileLang.
    Cast,
    // c ? t : f. Both branches are evaluated, as TVM does when it evaluates a layout at a point
    // (its constant folding of either branch fails on a division by zero), so a failing branch
    // fails the cell even where it is not taken. They differ only in how they print.
    Select,
    IfThenElse,
};

// Number of operands: 0 for Const/Var, 1, 2 or 3. Builders check it, and generic passes visit
// exactly operand(0) .. operand(arity - 1).
constexpr int arity(Op op) {
    switch (op) {
    case Op::Const:
    case Op::Var:
        return 0;
    case Op::Neg:
    case Op::Not:
    case Op::Cast:
        return 1;
    case Op::Select:
    case Op::IfThenElse:
        return 3;
    default:
        return 2;
    }
}

constexpr bool isComparison(Op op) {
    return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq ||
           op == Op::Ne;
}

struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;

struct ExprNode {
    Op op = Op::Const;
    std::int64_t value = 0; // Const
    std::string name;       // Var
    // The first arity(op) are set, the rest are null. Select/IfThenElse: a is the condition,
    // b the value when it holds, c the value when it does not.
    Expr a, b, c;
    const Expr& operand(int k) const { return k == 0 ? a : k == 1 ? b : c; }
};

Expr constant(std::int64_t v);
Expr var(std::string name);
// Each builder throws std::invalid_argument when `op` does not take that many operands.
Expr unary(Op op, Expr a);
Expr binary(Op op, Expr a, Expr b);
Expr ternary(Op op, Expr a, Expr b, Expr c);
Expr negate(Expr a);
// The same operator over new operands (as many as e has), constants folded as the builders do.
Expr withOperands(const Expr& e, Expr a, Expr b = nullptr, Expr c = nullptr);

// True when e is a truth value as TVM types it (a comparison, And/Or/Not, or a Select/
// IfThenElse of two truth values): such a value needs T.Cast to become an integer output.
bool isBoolean(const Expr& e);

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
// min/max as `T.min(a, b)`, xor as `^`, comparisons infix (a comparison inside another one in
// parentheses, since Python chains `a < b < c`), `T.And`/`T.Or`/`T.Not`, `T.Select`,
// `T.if_then_else`, `T.Cast("int32", b)`: text that TileLang's Python and the dump reader both
// read with the same meaning. parseExpr(printExpr(e)) is structurally equal to e.
std::string printExpr(const Expr& e);

// Evaluates one point (slow path, for tests and single cells). Throws EvalError.
// Every operand is evaluated, Select/IfThenElse branches included (see Op::Select).
std::int64_t evaluatePoint(const Expr& e,
                           const std::function<std::int64_t(const std::string&)>& env);

// Placeholder variable of input dimension k as TileLang names it: _i, _j, _k, ...
std::string placeholderName(std::size_t dim);
inline const char* kRepVar = "_rep";

} // namespace ts
