// SPDX-License-Identifier: Apache-2.0
#include "tilescope/lang/expr.h"

#include "tilescope/lang/expr_apply.h"
#include "tilescope/support/errors.h"

#include <cstdint>
#include <stdexcept>

namespace ts {

namespace {

Expr make(Op op, std::int64_t v, std::string name, Expr a, Expr b, Expr c = nullptr) {
    auto n = std::make_shared<ExprNode>();
    n->op = op;
    n->value = v;
    n->name = std::move(name);
    n->a = std::move(a);
    n->b = std::move(b);
    n->c = std::move(c);
    return n;
}

// Builders refuse a wrong operand count, so no pass ever meets a node with a missing operand.
Expr checked(Op op, int count, Expr a, Expr b, Expr c) {
    if (arity(op) != count || count == 0)
        throw std::invalid_argument("operator " + std::to_string(int(op)) + " takes " +
                                    std::to_string(arity(op)) + " operands, not " +
                                    std::to_string(count));
    for (int k = 0; k < count; ++k)
        if (!(k == 0 ? a : k == 1 ? b : c))
            throw std::invalid_argument("null operand " + std::to_string(k));
    return make(op, 0, {}, std::move(a), std::move(b), std::move(c));
}

// Python precedence levels, higher binds tighter.
int precedence(Op op) {
    switch (op) {
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
        return 0;
    case Op::BitOr:
        return 1;
    case Op::BitXor:
        return 2;
    case Op::BitAnd:
        return 3;
    case Op::Shl:
    case Op::Shr:
        return 4;
    case Op::Add:
    case Op::Sub:
        return 5;
    case Op::Mul:
    case Op::FloorDiv:
    case Op::FloorMod:
        return 6;
    case Op::Neg:
        return 7;
    default:
        return 9; // atoms and calls
    }
}

const char* infix(Op op) {
    switch (op) {
    case Op::Add:
        return " + ";
    case Op::Sub:
        return " - ";
    case Op::Mul:
        return " * ";
    case Op::FloorDiv:
        return " // ";
    case Op::FloorMod:
        return " % ";
    case Op::BitXor:
        return " ^ ";
    case Op::BitAnd:
        return " & ";
    case Op::BitOr:
        return " | ";
    case Op::Shl:
        return " << ";
    case Op::Shr:
        return " >> ";
    case Op::Lt:
        return " < ";
    case Op::Le:
        return " <= ";
    case Op::Gt:
        return " > ";
    case Op::Ge:
        return " >= ";
    case Op::Eq:
        return " == ";
    case Op::Ne:
        return " != ";
    default:
        return nullptr;
    }
}

const char* callName(Op op) {
    switch (op) {
    case Op::Min:
        return "T.min";
    case Op::Max:
        return "T.max";
    case Op::TruncDiv:
        return "T.truncdiv";
    case Op::TruncMod:
        return "T.truncmod";
    case Op::And:
        return "T.And";
    case Op::Or:
        return "T.Or";
    case Op::Not:
        return "T.Not";
    case Op::Select:
        return "T.Select";
    case Op::IfThenElse:
        return "T.if_then_else";
    default:
        return nullptr;
    }
}

// Operand k of op must be a truth value (TVM checks the bool type there).
bool booleanSlot(Op op, int k) {
    switch (op) {
    case Op::And:
    case Op::Or:
    case Op::Not:
    case Op::Cast:
        return true;
    case Op::Select:
    case Op::IfThenElse:
        return k == 0;
    default:
        return false;
    }
}

int nodePrecedence(const Expr& e) {
    if (e->op == Op::Const && e->value < 0) return 7; // prints as unary minus
    return precedence(e->op);
}

void print(const Expr& e, std::string& out);

// An operand where TVM wants a truth value. Trees the language builds always have one there;
// a tree built through the API may not, and still prints as text with the same value.
void printBoolean(const Expr& e, std::string& out) {
    std::int64_t v;
    if (isConst(e, &v) && (v == 0 || v == 1)) {
        out += v ? "T.bool(True)" : "T.bool(False)";
    } else if (!isBoolean(e)) {
        const bool paren = nodePrecedence(e) <= 0;
        if (paren) out += '(';
        print(e, out);
        out += paren ? ") != 0" : " != 0";
    } else {
        print(e, out);
    }
}

void print(const Expr& e, std::string& out) {
    switch (e->op) {
    case Op::Const:
        out += std::to_string(e->value);
        return;
    case Op::Var:
        out += e->name;
        return;
    case Op::Neg: {
        out += '-';
        bool paren = nodePrecedence(e->a) < 7 || (e->a->op == Op::Const && e->a->value < 0) ||
                     e->a->op == Op::Neg;
        if (paren) out += '(';
        print(e->a, out);
        if (paren) out += ')';
        return;
    }
    case Op::Cast:
        out += "T.Cast(\"int32\", ";
        printBoolean(e->a, out);
        out += ')';
        return;
    default:
        break;
    }
    if (const char* fn = callName(e->op)) {
        out += fn;
        out += '(';
        for (int k = 0; k < arity(e->op); ++k) {
            if (k) out += ", ";
            if (booleanSlot(e->op, k))
                printBoolean(e->operand(k), out);
            else
                print(e->operand(k), out);
        }
        out += ')';
        return;
    }
    int p = precedence(e->op);
    // Python chains comparisons (`a < b < c` is `a < b and b < c`), so a comparison operand of a
    // comparison always gets parentheses.
    bool lp = p == 0 ? nodePrecedence(e->a) <= 0 : nodePrecedence(e->a) < p;
    bool rp = nodePrecedence(e->b) <= p;
    if (lp) out += '(';
    print(e->a, out);
    if (lp) out += ')';
    out += infix(e->op);
    if (rp) out += '(';
    print(e->b, out);
    if (rp) out += ')';
}

std::int64_t floorDivInt(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
std::int64_t floorModInt(std::int64_t a, std::int64_t b) {
    std::int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    return m;
}

} // namespace

std::int64_t applyBinary(Op op, std::int64_t x, std::int64_t y) {
    using U = std::uint64_t;
    switch (op) {
    case Op::Add:
        return static_cast<std::int64_t>(U(x) + U(y));
    case Op::Sub:
        return static_cast<std::int64_t>(U(x) - U(y));
    case Op::Mul:
        return static_cast<std::int64_t>(U(x) * U(y));
    case Op::FloorDiv:
        if (y == 0) throw EvalError("division by zero");
        if (y == -1) return static_cast<std::int64_t>(U(0) - U(x));
        return floorDivInt(x, y);
    case Op::FloorMod:
        if (y == 0) throw EvalError("modulo by zero");
        if (y == -1) return 0;
        return floorModInt(x, y);
    case Op::TruncDiv:
        if (y == 0) throw EvalError("division by zero");
        if (y == -1) return static_cast<std::int64_t>(U(0) - U(x));
        return x / y;
    case Op::TruncMod:
        if (y == 0) throw EvalError("modulo by zero");
        if (y == -1) return 0;
        return x % y;
    case Op::BitXor:
        return x ^ y;
    case Op::BitAnd:
        return x & y;
    case Op::BitOr:
        return x | y;
    case Op::Shl:
        if (y < 0 || y > 62) throw EvalError("shift count " + std::to_string(y) + " out of range");
        return static_cast<std::int64_t>(U(x) << y);
    case Op::Shr:
        if (y < 0 || y > 62) throw EvalError("shift count " + std::to_string(y) + " out of range");
        return x >> y;
    case Op::Min:
        return x < y ? x : y;
    case Op::Max:
        return x > y ? x : y;
    case Op::Lt:
        return x < y;
    case Op::Le:
        return x <= y;
    case Op::Gt:
        return x > y;
    case Op::Ge:
        return x >= y;
    case Op::Eq:
        return x == y;
    case Op::Ne:
        return x != y;
    case Op::And:
        return x != 0 && y != 0;
    case Op::Or:
        return x != 0 || y != 0;
    case Op::Const:
    case Op::Var:
    case Op::Neg:
    case Op::Not:
    case Op::Cast:
    case Op::Select:
    case Op::IfThenElse:
        break;
    }
    throw std::invalid_argument("applyBinary: not a two-operand operator");
}

std::int64_t applyUnary(Op op, std::int64_t x) {
    switch (op) {
    case Op::Neg:
        return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(x));
    case Op::Not:
        return x == 0;
    case Op::Cast:
        return x;
    default:
        throw std::invalid_argument("applyUnary: not a one-operand operator");
    }
}

Expr constant(std::int64_t v) {
    return make(Op::Const, v, {}, nullptr, nullptr);
}
Expr var(std::string name) {
    return make(Op::Var, 0, std::move(name), nullptr, nullptr);
}
Expr unary(Op op, Expr a) {
    return checked(op, 1, std::move(a), nullptr, nullptr);
}
Expr binary(Op op, Expr a, Expr b) {
    return checked(op, 2, std::move(a), std::move(b), nullptr);
}
Expr ternary(Op op, Expr a, Expr b, Expr c) {
    return checked(op, 3, std::move(a), std::move(b), std::move(c));
}
Expr negate(Expr a) {
    std::int64_t v;
    if (isConst(a, &v))
        return constant(static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v)));
    // TVM refuses `-b` of a truth value; the negation of its 0/1 is `-T.Cast("int32", b)`.
    if (isBoolean(a)) a = unary(Op::Cast, std::move(a));
    return unary(Op::Neg, std::move(a));
}

bool isBoolean(const Expr& e) {
    if (!e) return false;
    switch (e->op) {
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
    case Op::Not:
        return true;
    case Op::Select:
    case Op::IfThenElse:
        return isBoolean(e->b) && isBoolean(e->c);
    case Op::Mul:
    case Op::Min:
    case Op::Max:
        // TVM keeps the bool type for these of two truth values (the language refuses the
        // other operators there).
        return isBoolean(e->a) && isBoolean(e->b);
    default:
        return false;
    }
}

bool isConst(const Expr& e, std::int64_t* value) {
    if (!e || e->op != Op::Const) return false;
    if (value) *value = e->value;
    return true;
}

namespace {
Expr foldRaw(Op op, const Expr& a, const Expr& b) {
    std::int64_t x, y;
    bool ca = isConst(a, &x), cb = isConst(b, &y);
    if (ca && cb) {
        try {
            return constant(applyBinary(op, x, y));
        } catch (const EvalError&) {
            return binary(op, a, b); // keep it: the error surfaces with its cell on evaluation
        }
    }
    switch (op) {
    case Op::Add:
        if (ca && x == 0) return b;
        if (cb && y == 0) return a;
        if (cb && y < 0) return binary(Op::Sub, a, constant(-y));
        break;
    case Op::Sub:
        if (cb && y == 0) return a;
        break;
    case Op::Mul:
        if ((ca && x == 0) || (cb && y == 0)) return constant(0);
        if (ca && x == 1) return b;
        if (cb && y == 1) return a;
        break;
    case Op::FloorDiv:
        if (cb && y == 1) return a;
        break;
    case Op::FloorMod:
        if (cb && y == 1) return constant(0);
        break;
    default:
        break;
    }
    return binary(op, a, b);
}

// Folds constants, keeping the type: `(a < b) * 1` folds to T.Cast("int32", a < b), not to the
// truth value itself, so that it still prints (and reads back) as an integer.
Expr fold(Op op, const Expr& a, const Expr& b) {
    if (arity(op) != 2) throw std::invalid_argument("fold: not a two-operand operator");
    Expr r = foldRaw(op, a, b);
    if (r != a && r != b) return r;
    const bool wantBoolean =
        isComparison(op) || op == Op::And || op == Op::Or ||
        ((op == Op::Mul || op == Op::Min || op == Op::Max) && isBoolean(a) && isBoolean(b));
    return !wantBoolean && isBoolean(r) ? unary(Op::Cast, r) : r;
}
} // namespace

Expr operator+(const Expr& a, const Expr& b) {
    return fold(Op::Add, a, b);
}
Expr operator-(const Expr& a, const Expr& b) {
    return fold(Op::Sub, a, b);
}
Expr operator*(const Expr& a, const Expr& b) {
    return fold(Op::Mul, a, b);
}
Expr operator+(const Expr& a, std::int64_t b) {
    return a + constant(b);
}
Expr operator-(const Expr& a, std::int64_t b) {
    return a - constant(b);
}
Expr operator*(const Expr& a, std::int64_t b) {
    return a * constant(b);
}
Expr operator*(std::int64_t a, const Expr& b) {
    return constant(a) * b;
}
Expr floordiv(const Expr& a, std::int64_t b) {
    return fold(Op::FloorDiv, a, constant(b));
}
Expr floormod(const Expr& a, std::int64_t b) {
    return fold(Op::FloorMod, a, constant(b));
}
Expr floordiv(const Expr& a, const Expr& b) {
    return fold(Op::FloorDiv, a, b);
}
Expr floormod(const Expr& a, const Expr& b) {
    return fold(Op::FloorMod, a, b);
}
Expr bitxor(const Expr& a, const Expr& b) {
    return fold(Op::BitXor, a, b);
}

Expr withOperands(const Expr& e, Expr a, Expr b, Expr c) {
    switch (arity(e->op)) {
    case 0:
        return e;
    case 1: {
        std::int64_t v;
        if (e->op == Op::Neg) return negate(std::move(a));
        if (isConst(a, &v)) return constant(applyUnary(e->op, v));
        // A cast of what is no longer a truth value is that value.
        if (e->op == Op::Cast && !isBoolean(a)) return a;
        return unary(e->op, std::move(a));
    }
    case 2:
        return fold(e->op, a, b);
    default: {
        // Only when every operand is known: a branch that fails must keep failing (Op::Select).
        std::int64_t x, y, z;
        if (isConst(a, &x) && isConst(b, &y) && isConst(c, &z))
            return constant(applyTernary(x, y, z));
        return ternary(e->op, std::move(a), std::move(b), std::move(c));
    }
    }
}

bool structurallyEqual(const Expr& x, const Expr& y) {
    if (x == y) return true;
    if (!x || !y || x->op != y->op) return false;
    switch (x->op) {
    case Op::Const:
        return x->value == y->value;
    case Op::Var:
        return x->name == y->name;
    default:
        for (int k = 0; k < arity(x->op); ++k)
            if (!structurallyEqual(x->operand(k), y->operand(k))) return false;
        return true;
    }
}

Expr substitute(const Expr& e, const std::function<Expr(const std::string&)>& f) {
    switch (e->op) {
    case Op::Const:
        return e;
    case Op::Var: {
        Expr r = f(e->name);
        return r ? r : e;
    }
    default: {
        Expr ops[3];
        bool same = true;
        for (int k = 0; k < arity(e->op); ++k) {
            ops[k] = substitute(e->operand(k), f);
            same = same && ops[k] == e->operand(k);
        }
        return same ? e : withOperands(e, ops[0], ops[1], ops[2]);
    }
    }
}

void collectVars(const Expr& e, std::set<std::string>& out) {
    if (!e) return;
    if (e->op == Op::Var) out.insert(e->name);
    for (int k = 0; k < arity(e->op); ++k)
        collectVars(e->operand(k), out);
}

std::size_t exprDepth(const Expr& e) {
    if (!e) return 0;
    std::size_t d = 0;
    for (int k = 0; k < arity(e->op); ++k)
        d = std::max(d, exprDepth(e->operand(k)));
    return 1 + d;
}
std::size_t exprSize(const Expr& e) {
    if (!e) return 0;
    std::size_t n = 1;
    for (int k = 0; k < arity(e->op); ++k)
        n += exprSize(e->operand(k));
    return n;
}

std::string printExpr(const Expr& e) {
    std::string out;
    print(e, out);
    return out;
}

std::int64_t evaluatePoint(const Expr& e,
                           const std::function<std::int64_t(const std::string&)>& env) {
    switch (e->op) {
    case Op::Const:
        return e->value;
    case Op::Var:
        return env(e->name);
    default:
        break;
    }
    switch (arity(e->op)) {
    case 1:
        return applyUnary(e->op, evaluatePoint(e->a, env));
    case 2: {
        const std::int64_t x = evaluatePoint(e->a, env);
        return applyBinary(e->op, x, evaluatePoint(e->b, env));
    }
    default: {
        // Both branches, in order: the first failing operand names the error (Op::Select).
        const std::int64_t c = evaluatePoint(e->a, env);
        const std::int64_t t = evaluatePoint(e->b, env);
        return applyTernary(c, t, evaluatePoint(e->c, env));
    }
    }
}

std::string placeholderName(std::size_t dim) {
    return std::string("_") + char('i' + dim);
}

} // namespace ts
