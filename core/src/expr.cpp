#include "tilescope/expr.h"

#include "tilescope/errors.h"

#include <cstdint>

namespace ts {

namespace {

Expr make(Op op, std::int64_t v, std::string name, Expr a, Expr b) {
    auto n = std::make_shared<ExprNode>();
    n->op = op;
    n->value = v;
    n->name = std::move(name);
    n->a = std::move(a);
    n->b = std::move(b);
    return n;
}

// Python precedence levels, higher binds tighter.
int precedence(Op op) {
    switch (op) {
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
    default:
        return nullptr;
    }
}

int nodePrecedence(const Expr& e) {
    if (e->op == Op::Const && e->value < 0) return 7; // prints as unary minus
    return precedence(e->op);
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
    default:
        break;
    }
    if (const char* fn = callName(e->op)) {
        out += fn;
        out += '(';
        print(e->a, out);
        out += ", ";
        print(e->b, out);
        out += ')';
        return;
    }
    int p = precedence(e->op);
    bool lp = nodePrecedence(e->a) < p;
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
    default:
        return 0;
    }
}

Expr constant(std::int64_t v) {
    return make(Op::Const, v, {}, nullptr, nullptr);
}
Expr var(std::string name) {
    return make(Op::Var, 0, std::move(name), nullptr, nullptr);
}
Expr binary(Op op, Expr a, Expr b) {
    return make(op, 0, {}, std::move(a), std::move(b));
}
Expr negate(Expr a) {
    std::int64_t v;
    if (isConst(a, &v))
        return constant(static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v)));
    return make(Op::Neg, 0, {}, std::move(a), nullptr);
}

bool isConst(const Expr& e, std::int64_t* value) {
    if (!e || e->op != Op::Const) return false;
    if (value) *value = e->value;
    return true;
}

namespace {
Expr fold(Op op, const Expr& a, const Expr& b) {
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

bool structurallyEqual(const Expr& x, const Expr& y) {
    if (x == y) return true;
    if (!x || !y || x->op != y->op) return false;
    switch (x->op) {
    case Op::Const:
        return x->value == y->value;
    case Op::Var:
        return x->name == y->name;
    case Op::Neg:
        return structurallyEqual(x->a, y->a);
    default:
        return structurallyEqual(x->a, y->a) && structurallyEqual(x->b, y->b);
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
    case Op::Neg: {
        Expr a = substitute(e->a, f);
        return a == e->a ? e : negate(a);
    }
    default: {
        Expr a = substitute(e->a, f), b = substitute(e->b, f);
        if (a == e->a && b == e->b) return e;
        return fold(e->op, a, b);
    }
    }
}

void collectVars(const Expr& e, std::set<std::string>& out) {
    if (!e) return;
    if (e->op == Op::Var) out.insert(e->name);
    collectVars(e->a, out);
    collectVars(e->b, out);
}

std::size_t exprDepth(const Expr& e) {
    if (!e) return 0;
    return 1 + std::max(exprDepth(e->a), exprDepth(e->b));
}
std::size_t exprSize(const Expr& e) {
    if (!e) return 0;
    return 1 + exprSize(e->a) + exprSize(e->b);
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
    case Op::Neg:
        return static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(evaluatePoint(e->a, env)));
    default:
        return applyBinary(e->op, evaluatePoint(e->a, env), evaluatePoint(e->b, env));
    }
}

std::string placeholderName(std::size_t dim) {
    return std::string("_") + char('i' + dim);
}

} // namespace ts
