// SPDX-License-Identifier: Apache-2.0
// Interpreter for the mapping language: walks the syntax tree with Python semantics for plain
// integers and builds index expressions where lambda parameters are involved.
#include "tilescope/notation/mapping.h"

#include "tilescope/lang/expr_apply.h"
#include "tilescope/lang/pyparse.h"
#include "tilescope/lang/simplify.h"
#include "tilescope/layout/builtins.h"
#include "tilescope/layout/tilelang_inverse.h"
#include "tilescope/notation/interop.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/wording.h"

#include <map>
#include <set>
#include <variant>

namespace ts {

namespace {

using py::Node;
using py::NodeKind;
using py::NodePtr;

struct Value;
using List = std::vector<Value>;

struct None {};
struct Func {
    std::string name; // "T.Layout", "min", "T.floordiv", a builtin name, ...
};
struct Lambda {
    NodePtr node;
};
struct Method {
    std::shared_ptr<Value> self;
    std::string name;
};
struct Module {
    std::string name;
};

struct Value {
    std::variant<None, std::int64_t, bool, std::string, Expr, List, Lambda, Func, Method, Mapping,
                 Module>
        v;
    bool tuple = false;
};

std::int64_t floorDivI(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    return q - ((a % b != 0) && ((a < 0) != (b < 0)));
}
std::int64_t floorModI(std::int64_t a, std::int64_t b) {
    std::int64_t m = a % b;
    return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}

const std::map<std::string, Op>& binaryOps() {
    static const std::map<std::string, Op> m{
        {"+", Op::Add},      {"-", Op::Sub},    {"*", Op::Mul},    {"//", Op::FloorDiv},
        {"%", Op::FloorMod}, {"^", Op::BitXor}, {"&", Op::BitAnd}, {"|", Op::BitOr},
        {"<<", Op::Shl},     {">>", Op::Shr}};
    return m;
}

const std::map<std::string, Op>& compareOps() {
    static const std::map<std::string, Op> m{{"<", Op::Lt},  {"<=", Op::Le}, {">", Op::Gt},
                                             {">=", Op::Ge}, {"==", Op::Eq}, {"!=", Op::Ne}};
    return m;
}

// Functions TVM prints in dumps, and Python's min/max.
const std::map<std::string, Op>& callOps() {
    static const std::map<std::string, Op> m{{"min", Op::Min},
                                             {"max", Op::Max},
                                             {"T.min", Op::Min},
                                             {"T.max", Op::Max},
                                             {"T.floordiv", Op::FloorDiv},
                                             {"T.floormod", Op::FloorMod},
                                             {"T.truncdiv", Op::TruncDiv},
                                             {"T.truncmod", Op::TruncMod},
                                             {"T.Div", Op::TruncDiv},
                                             {"T.Mod", Op::TruncMod},
                                             {"T.bitwise_xor", Op::BitXor},
                                             {"T.bitwise_and", Op::BitAnd},
                                             {"T.bitwise_or", Op::BitOr},
                                             {"T.shift_left", Op::Shl},
                                             {"T.shift_right", Op::Shr},
                                             {"T.EQ", Op::Eq},
                                             {"T.NE", Op::Ne},
                                             {"T.LT", Op::Lt},
                                             {"T.LE", Op::Le},
                                             {"T.GT", Op::Gt},
                                             {"T.GE", Op::Ge}};
    return m;
}

// T.* functions over truth values and conditionals (not plain two-operand operators).
const std::vector<std::string>& conditionalFunctions() {
    static const std::vector<std::string> f{"if_then_else", "Select", "And",  "Or",
                                            "Not",          "likely", "bool", "abs"};
    return f;
}
bool isConditionalFunction(const std::string& a) {
    for (const std::string& f : conditionalFunctions())
        if (a == f) return true;
    return false;
}

// A truth value as TVM types it: Python's True/False, or a comparison-like expression.
bool isTruth(const Value& v) {
    if (std::holds_alternative<bool>(v.v)) return true;
    auto* e = std::get_if<Expr>(&v.v);
    return e && isBoolean(*e);
}
bool isSymbolic(const Value& v) {
    return std::holds_alternative<Expr>(v.v);
}
// Python ints and bools, as ints.
bool plainInt(const Value& v, std::int64_t& out) {
    if (auto* i = std::get_if<std::int64_t>(&v.v)) return out = *i, true;
    if (auto* b = std::get_if<bool>(&v.v)) return out = *b, true;
    return false;
}

// `T.Cast(dtype, x)` and the typed literals `T.int64(5)`: the value passes through unchanged.
const std::set<std::string>& castFunctions() {
    static const std::set<std::string> s{"T.Cast", "T.int64",  "T.int32", "T.int16",
                                         "T.int8", "T.uint32", "T.uint64"};
    return s;
}

class Interp {
public:
    Interp(std::string_view src, std::map<std::string, Expr> freeVars, ExprDialect dialect)
        : src_(src), free_(std::move(freeVars)), dialect_(dialect) {}

    Value eval(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        switch (n->kind) {
        case NodeKind::Int:
            return {n->value};
        case NodeKind::Str:
            return {n->text};
        case NodeKind::Name:
            return name(n, scope);
        case NodeKind::Attr:
            return attr(n, scope);
        case NodeKind::Call:
            return call(n, scope);
        case NodeKind::List:
        case NodeKind::Tuple:
            return sequence(n, scope);
        case NodeKind::Lambda:
            return {Lambda{n}};
        case NodeKind::Unary:
            return unaryOp(n, scope);
        case NodeKind::Binary:
            return binop(n, scope);
        case NodeKind::Compare:
            return compareChain(n, scope);
        case NodeKind::BoolOp:
            return boolOp(n, scope);
        case NodeKind::IfExp:
            return ifExp(n, scope);
        case NodeKind::Keyword:
            break;
        }
        unsupported(n);
    }

    [[noreturn, gnu::noinline]] void unsupported(const NodePtr& n) const {
        fail(n->kind == NodeKind::Keyword ? "unexpected keyword argument" : "unsupported syntax",
             n);
    }

    // eval() recurses once per level of the expression (a left-deep sum of 1000 terms is 1000
    // levels), so it keeps no locals of its own: every case with temporaries is a separate,
    // non-inlined function, and only the levels that use one pay for its frame. Sanitizer
    // builds give each local its own padded slot, which overflowed the stack here.
    [[gnu::noinline]] Value sequence(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        List items;
        for (const auto& it : n->items)
            items.push_back(eval(it, scope));
        Value v{items};
        v.tuple = n->kind == NodeKind::Tuple;
        return v;
    }

    [[gnu::noinline]] Value ifExp(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        // TVMScript evaluates `x if c else y` as Python does, in both dialects.
        Value c = eval(n->items[1], scope);
        if (dialect_ == ExprDialect::PerValue && isSymbolic(c))
            return {ternary(Op::IfThenElse, condition(c, n->items[1]),
                            toExpr(eval(n->items[0], scope), n->items[0]),
                            toExpr(eval(n->items[2], scope), n->items[2]))};
        return eval(truthy(c, n->items[1], "`x if c else y`") ? n->items[0] : n->items[2], scope);
    }

    [[gnu::noinline]] Value unaryOp(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        Value a = eval(n->items[0], scope);
        if (n->text == "not") {
            if (dialect_ == ExprDialect::Printed && isSymbolic(a))
                return logicalNot(a, n->items[0], "not");
            if (dialect_ == ExprDialect::PerValue && isSymbolic(a))
                return {binary(Op::Eq, toExpr(a, n->items[0]), constant(0))};
            return {!truthy(a, n->items[0], "`not`")};
        }
        if (n->text != "+" && isSymbolic(a) && isTruth(a))
            fail("unary '" + n->text +
                     "' of a truth value: TVM keeps the bool type and fails on it (\"-1 "
                     "exceeds range of bool\"); make it an integer first with "
                     "T.Cast(\"int32\", x)",
                 n);
        if (auto* t = std::get_if<bool>(&a.v)) a.v = std::int64_t{*t};
        if (n->text == "+") return {asIntOrExpr(a, n->items[0])};
        if (auto* i = std::get_if<std::int64_t>(&a.v)) {
            if (n->text == "-")
                return {static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(*i))};
            return {~*i};
        }
        Expr e = toExpr(a, n->items[0]);
        if (n->text == "-") return {negate(e)};
        return {binary(Op::BitXor, e, constant(-1))};
    }

    [[noreturn]] void fail(const std::string& msg, const NodePtr& at) const {
        throw ParseError(msg, std::string(src_), at ? at->column : 0);
    }

    Expr toExpr(const Value& v, const NodePtr& at) const {
        if (auto* i = std::get_if<std::int64_t>(&v.v)) return constant(*i);
        if (auto* b = std::get_if<bool>(&v.v)) return constant(*b ? 1 : 0);
        if (auto* e = std::get_if<Expr>(&v.v)) return *e;
        fail("expected an integer expression here", at);
    }
    std::int64_t toInt(const Value& v, const NodePtr& at, const char* what) const {
        if (auto* i = std::get_if<std::int64_t>(&v.v)) return *i;
        if (auto* b = std::get_if<bool>(&v.v)) return *b;
        fail(std::string("expected an integer for ") + what, at);
    }
    Value asIntOrExpr(const Value& v, const NodePtr& at) const {
        if (std::holds_alternative<std::int64_t>(v.v) || std::holds_alternative<Expr>(v.v))
            return v;
        return {toExpr(v, at)};
    }
    Shape toShape(const Value& v, const NodePtr& at, const char* what) const {
        if (auto* i = std::get_if<std::int64_t>(&v.v)) return {*i};
        auto* l = std::get_if<List>(&v.v);
        if (!l) fail(std::string("expected a shape (a list or tuple of integers) for ") + what, at);
        Shape s;
        for (const Value& x : *l) {
            auto* i = std::get_if<std::int64_t>(&x.v);
            if (!i)
                fail(std::string("every extent of ") + what + " must be an integer constant", at);
            s.push_back(*i);
        }
        return s;
    }

private:
    struct Args {
        std::vector<std::pair<Value, NodePtr>> positional;
        std::map<std::string, std::pair<Value, NodePtr>> keyword;
    };

    // Python's truth test, for `if`, `and`, `or`, `not` and comparison chains. A value that
    // depends on the lambda's parameters has none: TVM raises for most, and for `==`/`!=` it
    // answers by object identity, which no one means; either way Tilescope refuses.
    bool truthy(const Value& v, const NodePtr& at, const std::string& what) const {
        if (auto* b = std::get_if<bool>(&v.v)) return *b;
        if (auto* i = std::get_if<std::int64_t>(&v.v)) return *i != 0;
        if (std::holds_alternative<None>(v.v)) return false;
        if (auto* s = std::get_if<std::string>(&v.v)) return !s->empty();
        if (auto* l = std::get_if<List>(&v.v)) return !l->empty();
        if (auto* e = std::get_if<Expr>(&v.v)) {
            const std::string use =
                " Write T.if_then_else(cond, a, b) (or T.Select) for a value that depends on a "
                "condition, and T.And / T.Or / T.Not to combine conditions.";
            if ((*e)->op == Op::Eq || (*e)->op == Op::Ne)
                fail(what +
                         " needs a plain truth value, but this comparison depends on the "
                         "lambda's parameters. TileLang does not raise here: it decides "
                         "`==`/`!=` between expressions by object identity, not by value, so "
                         "the result would not mean what it says." +
                         use,
                     at);
            fail(what +
                     " needs a plain truth value, but this depends on the lambda's "
                     "parameters; TileLang refuses it too (\"Cannot use and / or / not "
                     "operator to Expr\")." +
                     use,
                 at);
        }
        return true;
    }

    Value compare(Op op, const Value& a, const Value& b, const NodePtr& at) const {
        std::int64_t x, y;
        if (plainInt(a, x) && plainInt(b, y)) return {applyBinary(op, x, y) != 0};
        return {binary(op, toExpr(a, at), toExpr(b, at))};
    }

    // Python reads `a < b < c` as `a < b and b < c`; TVMScript folds it left, `(a < b) < c`,
    // and that is how TVM prints a comparison of comparisons.
    [[gnu::noinline]] Value compareChain(const NodePtr& n,
                                         const std::map<std::string, Expr>& scope) {
        Value left = eval(n->items[0], scope);
        for (std::size_t k = 0; k < n->ops.size(); ++k) {
            Value right = eval(n->items[k + 1], scope);
            Value r = compare(compareOps().at(n->ops[k]), left, right, n->items[k + 1]);
            if (k + 1 == n->ops.size()) return r;
            if (dialect_ == ExprDialect::Printed) {
                left = r;
                continue;
            }
            if (dialect_ == ExprDialect::PerValue && isSymbolic(r)) {
                // a < b < c is a < b and b < c, per value: the rest decides where the first holds.
                Value rest = compareChainFrom(n, k + 1, right, scope);
                return {ternary(Op::IfThenElse, condition(r, n), toExpr(rest, n), toExpr(r, n))};
            }
            if (!truthy(r, n, "a chained comparison `a < b < c`")) return r;
            left = right;
        }
        return left; // not reached: a Compare node has at least one operator
    }

    // The chain `left op[k] items[k+1] op[k+1] ...` of a Compare node, from operator k on.
    [[gnu::noinline]] Value compareChainFrom(const NodePtr& n, std::size_t k, Value left,
                                             const std::map<std::string, Expr>& scope) {
        for (; k < n->ops.size(); ++k) {
            Value right = eval(n->items[k + 1], scope);
            Value r = compare(compareOps().at(n->ops[k]), left, right, n->items[k + 1]);
            if (k + 1 == n->ops.size()) return r;
            if (isSymbolic(r)) {
                Value rest = compareChainFrom(n, k + 1, right, scope);
                return {ternary(Op::IfThenElse, condition(r, n), toExpr(rest, n), toExpr(r, n))};
            }
            if (!truthy(r, n, "a chained comparison `a < b < c`")) return r;
            left = right;
        }
        return left;
    }

    // Python's truth test of a value that depends on the parameters, as a condition evaluated
    // per value: a comparison stays one, a number is compared with 0.
    Expr condition(const Value& v, const NodePtr& at) const {
        Expr e = toExpr(v, at);
        return isTruth(v) ? e : binary(Op::Ne, e, constant(0));
    }

    // Python: `and`/`or` give one of their operands, evaluated only as far as needed. TVMScript:
    // tir.And / tir.Or of every operand, left to right.
    [[gnu::noinline]] Value boolOp(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        const bool isAnd = n->text == "and";
        Value v = eval(n->items[0], scope);
        for (std::size_t k = 1; k < n->items.size(); ++k) {
            if (dialect_ == ExprDialect::Printed) {
                Value w = eval(n->items[k], scope);
                if (isSymbolic(v) || isSymbolic(w)) {
                    v = logical(isAnd ? Op::And : Op::Or, v, n->items[k - 1], w, n->items[k],
                                n->text);
                    continue;
                }
                if (truthy(v, n->items[k - 1], n->text) == isAnd) v = w;
                continue;
            }
            if (dialect_ == ExprDialect::PerValue && isSymbolic(v)) {
                // Per value: `a and b` is b where a holds, else a; `a or b` the other way round.
                Value w = boolOpFrom(n, k, scope);
                const Expr a = toExpr(v, n->items[k - 1]), b = toExpr(w, n->items[k]);
                return {ternary(Op::IfThenElse, condition(v, n->items[k - 1]), isAnd ? b : a,
                                isAnd ? a : b)};
            }
            if (truthy(v, n->items[k - 1], "`" + n->text + "`") != isAnd) return v;
            v = eval(n->items[k], scope);
        }
        return v;
    }

    // The rest of an `and`/`or` chain, from operand k on (Python dialects).
    Value boolOpFrom(const NodePtr& n, std::size_t k, const std::map<std::string, Expr>& scope) {
        auto rest = std::make_shared<py::Node>(*n);
        rest->items.assign(n->items.begin() + static_cast<std::ptrdiff_t>(k), n->items.end());
        return rest->items.size() == 1 ? eval(rest->items[0], scope) : boolOp(rest, scope);
    }

    // tir.And / tir.Or: both operands must be truth values (TVM checks the bool type).
    Value logical(Op op, const Value& a, const NodePtr& atA, const Value& b, const NodePtr& atB,
                  const std::string& fn) const {
        for (auto [v, at] : {std::pair{&a, &atA}, std::pair{&b, &atB}})
            if (!isTruth(*v))
                fail("'" + fn +
                         "' needs truth values (comparisons such as `i < 4`, or True/False); "
                         "TVM refuses an integer here",
                     *at);
        auto* x = std::get_if<bool>(&a.v);
        auto* y = std::get_if<bool>(&b.v);
        if (x && y) return {op == Op::And ? (*x && *y) : (*x || *y)};
        // A known operand decides the result or drops out, as TVM's simplification does.
        for (auto [known, other] : {std::pair{x, &b}, std::pair{y, &a}})
            if (known) return *known == (op == Op::Or) ? Value{*known} : *other;
        return {binary(op, toExpr(a, atA), toExpr(b, atB))};
    }

    Value logicalNot(const Value& a, const NodePtr& at, const std::string& fn) const {
        if (!isTruth(a))
            fail("'" + fn +
                     "' needs a truth value (a comparison such as `i < 4`, or True/False); TVM "
                     "refuses an integer here",
                 at);
        if (auto* b = std::get_if<bool>(&a.v)) return {!*b};
        return {ts::unary(Op::Not, toExpr(a, at))};
    }

    // T.bool(x) and T.Cast("bool", x): TVM accepts truth values and the constants 0 and 1 (any
    // other integer "exceeds range of bool").
    Value toBool(const Value& v, const NodePtr& at, const std::string& fn) const {
        std::int64_t i;
        if (isTruth(v)) return v;
        if (plainInt(v, i) && (i == 0 || i == 1)) return {i == 1};
        fail(fn + " of an integer that is not 0 or 1: TVM refuses it (\"exceeds range of "
                  "bool\"); compare instead, e.g. `x != 0`",
             at);
    }

    // T.Cast to an integer type, T.int32(x), ...: a truth value becomes 0/1, kept as a Cast so
    // that it still prints as an integer.
    Value toInteger(const Value& v, const NodePtr& at) const {
        if (auto* b = std::get_if<bool>(&v.v)) return {std::int64_t{*b}};
        if (isTruth(v)) return {ts::unary(Op::Cast, std::get<Expr>(v.v))};
        return asIntOrExpr(v, at);
    }

    Value conditionalCall(const std::string& fn, const Args& args, const NodePtr& n) {
        if (!args.keyword.empty()) fail(fn + " takes no keyword arguments", n);
        const auto& p = args.positional;
        auto need = [&](std::size_t count) {
            if (p.size() != count)
                fail(fn + " takes " + std::to_string(count) + " argument" +
                         (count == 1 ? "" : "s") + ", got " + std::to_string(p.size()),
                     n);
        };
        if (fn == "T.if_then_else" || fn == "T.Select") {
            need(3);
            const Value& c = p[0].first;
            if (!isTruth(c))
                fail(fn + " needs a truth value as its condition (a comparison such as `i < 4`, "
                          "or True/False); TVM refuses an integer there",
                     p[0].second);
            if (fn == "T.Select" && isTruth(p[1].first) != isTruth(p[2].first))
                fail("T.Select needs both values of one type, but one is a truth value and the "
                     "other an integer (TVM: \"mismatched types\"); T.if_then_else converts",
                     p[2].second);
            // A known condition picks its value (TVM folds it when it builds the layout).
            if (auto* b = std::get_if<bool>(&c.v)) return p[*b ? 1 : 2].first;
            return {ternary(fn == "T.Select" ? Op::Select : Op::IfThenElse, toExpr(c, p[0].second),
                            toExpr(p[1].first, p[1].second), toExpr(p[2].first, p[2].second))};
        }
        if (fn == "T.And" || fn == "T.Or") {
            need(2);
            return logical(fn == "T.And" ? Op::And : Op::Or, p[0].first, p[0].second, p[1].first,
                           p[1].second, fn);
        }
        if (fn == "T.Not") {
            need(1);
            return logicalNot(p[0].first, p[0].second, fn);
        }
        if (fn == "T.likely") { // a hint to the code generator; the value is its argument
            need(1);
            return p[0].first;
        }
        if (fn == "T.bool") {
            need(1);
            return toBool(p[0].first, p[0].second, fn);
        }
        // T.abs: TVM builds (and prints) T.Select(x >= 0, x, -x) for an integer.
        need(1);
        std::int64_t i;
        if (plainInt(p[0].first, i))
            return {i < 0 ? static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(i)) : i};
        if (isTruth(p[0].first)) return p[0].first;
        Expr x = toExpr(p[0].first, p[0].second);
        return {ternary(Op::Select, binary(Op::Ge, x, constant(0)), x, negate(x))};
    }

    // A lambda's result that becomes a layout output. TVM types a comparison as bool, and a
    // bool output that can be 1 fails when TileLang computes the output shape.
    Expr outputExpr(const Value& v, const NodePtr& at, const char* what, std::size_t k,
                    std::size_t count, const std::map<std::string, std::int64_t>& extents) const {
        if (!isTruth(v)) return toExpr(v, at);
        Expr e = toExpr(v, at);
        std::int64_t c;
        if (isConst(simplify(e, extents), &c) && c == 0) return constant(0);
        fail(std::string(what) + (count > 1 ? " output " + std::to_string(k + 1) : "") +
                 " is a truth value (a comparison): TileLang refuses a bool layout output that "
                 "can be 1 (\"2 exceeds range of bool\"); make it an integer with "
                 "T.Cast(\"int32\", ...) or T.if_then_else(cond, 1, 0)",
             at);
    }

    [[gnu::noinline]] Value name(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        if (auto it = scope.find(n->text); it != scope.end()) return {it->second};
        if (auto it = free_.find(n->text); it != free_.end()) return {it->second};
        const std::string& s = n->text;
        if (s == "True") return {true};
        if (s == "False") return {false};
        if (s == "None") return {None{}};
        if (s == "T" || s == "tilelang" || s == "tl" || s == "language" || s == "layout")
            return {Module{s}};
        if (s == "min" || s == "max" || s == "Layout" || s == "Fragment")
            return {Func{s == "Layout" || s == "Fragment" ? "T." + s : s}};
        if (findBuiltin(s)) return {Func{s}};
        if (s == "GemmWarpPolicy") return {Module{s}};
        if (auto why = unsupportedBuiltin(s)) fail(*why, n);
        // A Triton or CuTe spelling that is not one of the forms read: say which are.
        if (s == "LinearLayout" || s == "BlockedEncodingAttr" || s == "Layout_TV" ||
            s == "make_layout" || s == "TiledMMA" || s == "TiledCopy")
            fail("unknown name '" + s +
                     "': Triton linear layouts are read as DistributedLinearLayout(reg_bases=..., "
                     "lane_bases=..., warp_bases=..., block_bases=[], shape=[...]), "
                     "SharedLinearLayout(offset_bases=...), #ttg.linear<{register = ..., lane = "
                     "..., warp = ..., block = ...}> or LinearLayout::toString() text; CuTe "
                     "layouts as they print, shape:stride (e.g. (8,64):(64,1))",
                 n);
        fail("unknown name '" + s + "'", n);
    }

    [[gnu::noinline]] Value attr(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        Value obj = eval(n->target, scope);
        if (auto* mod = std::get_if<Module>(&obj.v); mod && mod->name == "GemmWarpPolicy") {
            const std::string& a = n->text;
            if (a == "Square" || a == "FullRow" || a == "FullCol") return {a};
            fail("unknown GemmWarpPolicy '" + a + "' (Square, FullRow or FullCol)", n);
        }
        if (std::holds_alternative<Module>(obj.v)) {
            const std::string& a = n->text;
            if (a == "GemmWarpPolicy") return {Module{a}};
            if (a == "language" || a == "layout" || a == "tools") return obj; // tilelang.language.X
            if (a == "Layout" || a == "Fragment") return {Func{"T." + a}};
            if (callOps().count("T." + a) || isConditionalFunction(a) ||
                castFunctions().count("T." + a))
                return {Func{"T." + a}};
            if (findBuiltin(a)) return {Func{a}};
            if (auto why = unsupportedBuiltin(a)) fail(*why, n);
            fail("unknown function 'T." + a + "'", n);
        }
        if (std::holds_alternative<Mapping>(obj.v))
            return {Method{std::make_shared<Value>(obj), n->text}};
        fail("'." + n->text + "' is only available on a Layout or Fragment", n);
    }

    [[gnu::noinline]] Value binop(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        Value a = eval(n->items[0], scope);
        Value b = eval(n->items[1], scope);
        return combine(n, std::move(a), std::move(b));
    }

    // The operator applied to evaluated operands: kept out of binop() so that the recursion's
    // frames do not carry its temporaries.
    [[gnu::noinline]] Value combine(const NodePtr& n, Value a, Value b) {
        if (n->text == "/")
            fail("true division '/' is not an index operation; use '//' (floor division)", n);
        Op op = binaryOps().at(n->text);
        checkNotBothTruth(op, a, b, n, "'" + n->text + "'");
        // Python's bool is an int: `16 - False` is the integer 16, folded like any other.
        for (Value* v : {&a, &b})
            if (auto* t = std::get_if<bool>(&v->v)) v->v = std::int64_t{*t};
        auto* x = std::get_if<std::int64_t>(&a.v);
        auto* y = std::get_if<std::int64_t>(&b.v);
        if (x && y) {
            // Plain integers: Python evaluates these before TileLang sees them.
            if ((op == Op::FloorDiv || op == Op::FloorMod) && *y == 0)
                fail(op == Op::FloorDiv ? "division by zero" : "modulo by zero", n);
            if ((op == Op::Shl || op == Op::Shr) && (*y < 0 || *y > 62))
                fail("shift count out of range 0..62", n);
            switch (op) {
            case Op::FloorDiv:
                return {*y == -1 ? -*x : floorDivI(*x, *y)};
            case Op::FloorMod:
                return {*y == -1 ? 0 : floorModI(*x, *y)};
            default:
                return {evaluatePoint(binary(op, constant(*x), constant(*y)), nullptr)};
            }
        }
        Expr ea = toExpr(a, n->items[0]), eb = toExpr(b, n->items[1]);
        std::int64_t c;
        if ((op == Op::FloorDiv || op == Op::FloorMod) && isConst(eb, &c) && c == 0)
            fail(op == Op::FloorDiv ? "division by zero" : "modulo by zero", n);
        return {binary(op, ea, eb)};
    }

    // TVM's shift builders (left_shift/right_shift in tirx/op/op.cc) on two int32 constants, as
    // `T.shift_left(3, 40)` calls them: a count outside 0..31 is refused (C and TVM leave it
    // undefined for TileLang's int32 indices). A shift inside a layout or fragment is checked
    // where the layout is built (checkInt32Evaluation); Python's own `3 << 40` is Python's.
    std::int64_t constantShift(Op op, std::int64_t x, std::int64_t c, const NodePtr& at) const {
        if (c < 0 || c >= 32)
            fail("shift by " + std::to_string(c) +
                     ": TileLang refuses it as TVM does for int32 indices (\"Shift amount must "
                     "be non-negative and less than 32 for type int32\")",
                 at);
        return evaluatePoint(binary(op, constant(x), constant(c)), nullptr);
    }

    // TVM keeps the bool type for an operator on two truth values and then fails on a value
    // outside 0..1 (or cannot evaluate bitwise ones); a product stays within 0..1 and works.
    void checkNotBothTruth(Op op, const Value& a, const Value& b, const NodePtr& at,
                           const std::string& shown) const {
        if (op == Op::Mul || op == Op::Min || op == Op::Max || isComparison(op)) return;
        if (isTruth(a) && isTruth(b) && (isSymbolic(a) || isSymbolic(b)))
            fail(shown + " of two truth values: TVM keeps the bool type and fails on it; make one "
                         "side an integer first with T.Cast(\"int32\", x)",
                 at);
    }

    [[gnu::noinline]] Value call(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        Value callee = eval(n->target, scope);
        Args args;
        for (const auto& it : n->items) {
            if (it->kind == NodeKind::Keyword) {
                if (args.keyword.count(it->text))
                    fail("keyword '" + it->text + "' given twice", it);
                args.keyword[it->text] = {eval(it->target, scope), it};
            } else {
                args.positional.emplace_back(eval(it, scope), it);
            }
        }
        if (auto* m = std::get_if<Method>(&callee.v)) return method(*m, args, n);
        auto* f = std::get_if<Func>(&callee.v);
        if (!f) fail("this value cannot be called", n->target);
        const std::string& fn = f->name;
        if (auto it = callOps().find(fn); it != callOps().end())
            return exprCall(fn, it->second, args, n);
        if (fn.rfind("T.", 0) == 0 && isConditionalFunction(fn.substr(2)))
            return conditionalCall(fn, args, n);
        if (fn == "T.Cast") {
            if (args.positional.size() != 2 || !args.keyword.empty())
                fail("T.Cast takes (dtype, value)", n);
            auto* dtype = std::get_if<std::string>(&args.positional[0].first.v);
            if (dtype && *dtype == "bool")
                return toBool(args.positional[1].first, args.positional[1].second,
                              "T.Cast(\"bool\", x)");
            return toInteger(args.positional[1].first, args.positional[1].second);
        }
        if (fn.rfind("T.int", 0) == 0 || fn.rfind("T.uint", 0) == 0) {
            if (args.positional.size() != 1) fail(fn + " takes one value", n);
            return toInteger(args.positional[0].first, args.positional[0].second);
        }
        if (fn == "T.Layout") return makeLayout(args, n);
        if (fn == "T.Fragment") return makeFragment(args, n);
        if (const Builtin* b = findBuiltin(fn)) return callBuiltin(*b, args, n);
        fail("unknown function '" + fn + "'", n);
    }

    Value exprCall(const std::string& fn, Op op, const Args& args, const NodePtr& n) {
        if (!args.keyword.empty()) fail(fn + " takes no keyword arguments", n);
        const bool nary = op == Op::Min || op == Op::Max;
        if (args.positional.size() != 2 && !(nary && args.positional.size() > 2))
            fail(fn + " takes 2 arguments, got " + std::to_string(args.positional.size()), n);
        Value acc = args.positional[0].first;
        for (std::size_t k = 1; k < args.positional.size(); ++k) {
            checkNotBothTruth(op, acc, args.positional[k].first, n, fn);
            std::int64_t x, y;
            if ((op == Op::Shl || op == Op::Shr) && plainInt(acc, x) &&
                plainInt(args.positional[k].first, y)) {
                // T.shift_left(3, 40) is TVM's builder on two int32 constants: checked too.
                acc = Value{constantShift(op, x, y, args.positional[k].second)};
                continue;
            }
            if (plainInt(acc, x) && plainInt(args.positional[k].first, y)) {
                // Constants fold, as TVM folds them: `T.floordiv(7, 2)` is 3 (so that the
                // printed form reads back to the same tree).
                try {
                    const std::int64_t r = applyBinary(op, x, y);
                    acc = isComparison(op) ? Value{r != 0} : Value{r};
                } catch (const EvalError& e) {
                    fail(e.what(), args.positional[k].second);
                }
                continue;
            }
            Expr a = toExpr(acc, args.positional[0].second);
            Expr b = toExpr(args.positional[k].first, args.positional[k].second);
            std::int64_t c;
            if ((op == Op::FloorDiv || op == Op::FloorMod || op == Op::TruncDiv ||
                 op == Op::TruncMod) &&
                isConst(b, &c) && c == 0)
                fail("division by zero", args.positional[k].second);
            acc = {binary(op, a, b)};
        }
        return acc;
    }

    // Binds positional and keyword arguments to parameter names in order.
    std::map<std::string, std::pair<Value, NodePtr>> bind(const std::string& fn,
                                                          const std::vector<std::string>& names,
                                                          const Args& args,
                                                          const NodePtr& /*call*/) {
        std::map<std::string, std::pair<Value, NodePtr>> out;
        if (args.positional.size() > names.size())
            fail(fn + " takes at most " + std::to_string(names.size()) +
                     " positional arguments, got " + std::to_string(args.positional.size()),
                 args.positional[names.size()].second);
        for (std::size_t k = 0; k < args.positional.size(); ++k)
            out[names[k]] = args.positional[k];
        for (const auto& [k, v] : args.keyword) {
            if (std::find(names.begin(), names.end(), k) == names.end()) {
                std::string known;
                for (const auto& nm : names)
                    known += (known.empty() ? "" : ", ") + nm;
                fail("unknown keyword '" + k + "' for " + fn + " (expected one of: " + known + ")",
                     v.second);
            }
            if (out.count(k)) fail("argument '" + k + "' given twice", v.second);
            out[k] = v;
        }
        return out;
    }

    static std::map<std::string, std::int64_t> extentsOf(const Shape& shape, std::int64_t rep) {
        std::map<std::string, std::int64_t> ext;
        for (std::size_t k = 0; k < shape.size(); ++k)
            ext[placeholderName(k)] = shape[k];
        ext[kRepVar] = rep;
        return ext;
    }

    // The outputs of a lambda's result: one per element of a tuple or list (a 1-tuple `(x,)`
    // gives one), or the single value.
    std::vector<Expr> outputs(const Value& r, const NodePtr& at, const char* what,
                              const std::map<std::string, std::int64_t>& extents) const {
        std::vector<Expr> out;
        if (auto* l = std::get_if<List>(&r.v)) {
            for (std::size_t k = 0; k < l->size(); ++k)
                out.push_back(outputExpr((*l)[k], at, what, k, l->size(), extents));
        } else {
            out.push_back(outputExpr(r, at, what, 0, 1, extents));
        }
        return out;
    }

    // Applies a lambda to placeholder variables; returns its result as a list of expressions.
    std::vector<Expr> apply(const Value& fnv, const NodePtr& at, const Shape& shape,
                            std::int64_t rep, bool withRep, const char* what) {
        const std::size_t rank = shape.size();
        auto* lam = std::get_if<Lambda>(&fnv.v);
        if (!lam) fail(std::string(what) + " must be a lambda", at);
        const auto& params = lam->node->params;
        std::size_t want = rank + (withRep ? 1 : 0);
        if (params.size() != want)
            fail(std::string(what) + " takes " + countNoun(long(params.size()), "parameter") +
                     ", but the shape has " + countNoun(long(rank), "dimension") +
                     (withRep ? " plus the replica index" : ""),
                 lam->node);
        std::map<std::string, Expr> scope;
        for (std::size_t k = 0; k < rank; ++k)
            scope[params[k]] = var(placeholderName(k));
        if (withRep) scope[params[rank]] = var(kRepVar);
        Value r = eval(lam->node->target, scope);
        return outputs(r, lam->node->target, what, extentsOf(shape, rep));
    }

    Value makeLayout(const Args& args, const NodePtr& n) {
        auto a = bind("T.Layout", {"shape", "forward_fn"}, args, n);
        if (!a.count("shape") || !a.count("forward_fn"))
            fail("T.Layout needs (shape, forward_fn)", n);
        Shape shape = toShape(a["shape"].first, a["shape"].second, "shape");
        checkShapeAt(shape, a["shape"].second);
        auto fwd =
            apply(a["forward_fn"].first, a["forward_fn"].second, shape, 1, false, "forward_fn");
        checkInt32Evaluation(shape, fwd);
        return wrap(Layout(shape, fwd), n);
    }

    Value makeFragment(const Args& args, const NodePtr& n) {
        auto a = bind("T.Fragment",
                      {"shape", "forward_fn", "forward_thread_fn", "replicate", "forward_index_fn"},
                      args, n);
        if (!a.count("shape")) fail("T.Fragment needs a shape", n);
        Shape shape = toShape(a["shape"].first, a["shape"].second, "shape");
        checkShapeAt(shape, a["shape"].second);
        std::int64_t rep = 1;
        if (a.count("replicate"))
            rep = toInt(a["replicate"].first, a["replicate"].second, "replicate");
        if (rep < 1) fail("replicate must be >= 1", a["replicate"].second);
        auto isNone = [&](const char* k) {
            return !a.count(k) || std::holds_alternative<None>(a[k].first.v);
        };
        Expr thread;
        std::vector<Expr> index;
        if (!isNone("forward_fn")) {
            if (!isNone("forward_thread_fn") || !isNone("forward_index_fn"))
                fail("give either forward_fn or forward_thread_fn/forward_index_fn, not both", n);
            auto* lam = std::get_if<Lambda>(&a["forward_fn"].first.v);
            if (!lam) fail("forward_fn must be a lambda", a["forward_fn"].second);
            // forward_fn returns (thread, index); index may itself be a list.
            const auto& params = lam->node->params;
            bool withRep = rep > 1;
            if (params.size() != shape.size() + (withRep ? 1 : 0))
                fail("forward_fn takes " + countNoun(long(params.size()), "parameter") +
                         ", but the shape has " + countNoun(long(shape.size()), "dimension") +
                         (withRep ? " plus the replica index" : ""),
                     lam->node);
            std::map<std::string, Expr> scope;
            for (std::size_t k = 0; k < shape.size(); ++k)
                scope[params[k]] = var(placeholderName(k));
            if (withRep) scope[params.back()] = var(kRepVar);
            Value r = eval(lam->node->target, scope);
            auto* l = std::get_if<List>(&r.v);
            if (!l || l->size() != 2)
                fail("forward_fn must return (thread, index)", lam->node->target);
            const auto ext = extentsOf(shape, rep);
            thread = outputExpr((*l)[0], lam->node->target, "forward_fn's thread", 0, 1, ext);
            index = outputs((*l)[1], lam->node->target, "forward_fn's index", ext);
        } else {
            if (isNone("forward_thread_fn"))
                fail("T.Fragment needs forward_thread_fn or forward_fn", n);
            auto th = apply(a["forward_thread_fn"].first, a["forward_thread_fn"].second, shape, rep,
                            rep > 1, "forward_thread_fn");
            if (th.size() != 1)
                fail("forward_thread_fn must return one expression", a["forward_thread_fn"].second);
            thread = th[0];
            if (!isNone("forward_index_fn"))
                index = apply(a["forward_index_fn"].first, a["forward_index_fn"].second, shape, rep,
                              false, "forward_index_fn");
        }
        std::vector<Expr> all = index;
        all.push_back(thread);
        checkInt32Evaluation(shape, all, rep);
        return wrap(Fragment(shape, thread, index, rep), n);
    }

    void checkShapeAt(const Shape& s, const NodePtr& at) {
        try {
            checkShape(s, "shape");
        } catch (const InputError& e) {
            fail(e.what(), at);
        }
    }

    // Semantic errors from the core get the column of the call that caused them.
    template <class T> Value wrap(T&& value, const NodePtr&) {
        return {Mapping(std::forward<T>(value))};
    }

    struct Reshape {
        Shape shape;
        std::int64_t num = 1, den = 1;
    };
    Reshape reshapeArgs(const char* fn, const Args& args, const NodePtr& n) {
        auto a = bind(fn, {"shape", "rescale_num", "rescale_den"}, args, n);
        if (!a.count("shape")) fail(std::string(fn) + " needs a shape", n);
        Reshape r;
        r.shape = toShape(a["shape"].first, a["shape"].second, "shape");
        if (a.count("rescale_num"))
            r.num = toInt(a["rescale_num"].first, a["rescale_num"].second, "rescale_num");
        if (a.count("rescale_den"))
            r.den = toInt(a["rescale_den"].first, a["rescale_den"].second, "rescale_den");
        return r;
    }

    Value method(const Method& m, const Args& args, const NodePtr& n) {
        const Mapping& self = std::get<Mapping>(m.self->v);
        try {
            if (const Layout* l = std::get_if<Layout>(&self)) {
                if (m.name == "repeat") {
                    auto a = bind("Layout.repeat", {"dim", "factor"}, args, n);
                    if (!a.count("dim") || !a.count("factor"))
                        fail("Layout.repeat needs (dim, factor)", n);
                    return {
                        Mapping(l->repeat(toInt(a["dim"].first, a["dim"].second, "dim"),
                                          toInt(a["factor"].first, a["factor"].second, "factor")))};
                }
                if (m.name == "expand") {
                    auto a = bind("Layout.expand", {"leading_shape"}, args, n);
                    if (!a.count("leading_shape")) fail("Layout.expand needs leading_shape", n);
                    return {Mapping(l->expand(toShape(
                        a["leading_shape"].first, a["leading_shape"].second, "leading_shape")))};
                }
                if (m.name == "inverse") {
                    bind("Layout.inverse", {}, args, n);
                    Layout inv = l->inverse();
                    if (auto refusal = tileLangInverseRefusal(*l)) inv = inv.withNote(*refusal);
                    return {Mapping(inv)};
                }
                if (m.name == "reshape") {
                    Reshape r = reshapeArgs("Layout.reshape", args, n);
                    return {Mapping(l->reshape(r.shape, r.num, r.den))};
                }
                fail("Layout has no method '" + m.name + "' (repeat, expand, reshape, inverse)",
                     n->target);
            }
            const Fragment& f = std::get<Fragment>(self);
            if (m.name == "repeat") {
                auto a = bind("Fragment.repeat", {"repeats", "repeat_on_thread", "lower_dim_first"},
                              args, n);
                if (!a.count("repeats")) fail("Fragment.repeat needs repeats", n);
                bool onThread = a.count("repeat_on_thread") &&
                                toInt(a["repeat_on_thread"].first, a["repeat_on_thread"].second,
                                      "repeat_on_thread");
                bool ldf = !a.count("lower_dim_first") ||
                           toInt(a["lower_dim_first"].first, a["lower_dim_first"].second,
                                 "lower_dim_first");
                return {Mapping(f.repeat(
                    toShape(a["repeats"].first, a["repeats"].second, "repeats"), onThread, ldf))};
            }
            if (m.name == "replicate") {
                auto a = bind("Fragment.replicate", {"replicate"}, args, n);
                if (!a.count("replicate")) fail("Fragment.replicate needs a factor", n);
                return {Mapping(f.replicateBy(
                    toInt(a["replicate"].first, a["replicate"].second, "replicate")))};
            }
            if (m.name == "inverse") {
                bind("Fragment.inverse", {}, args, n);
                return {Mapping(f.inverse())};
            }
            if (m.name == "condense_rep_var") {
                bind("Fragment.condense_rep_var", {}, args, n);
                return {Mapping(f.condenseRepVar())};
            }
            if (m.name == "reshape") {
                Reshape r = reshapeArgs("Fragment.reshape", args, n);
                return {Mapping(f.reshape(r.shape, r.num, r.den))};
            }
            if (m.name == "expand") {
                auto a = bind("Fragment.expand", {"leading_shape"}, args, n);
                if (!a.count("leading_shape")) fail("Fragment.expand needs leading_shape", n);
                Shape leading =
                    toShape(a["leading_shape"].first, a["leading_shape"].second, "leading_shape");
                if (leading.empty()) return {Mapping(f)};
                return {Mapping(f.expandIndex(leading))};
            }
            fail("Fragment has no method '" + m.name +
                     "' (repeat, replicate, expand, reshape, inverse, condense_rep_var)",
                 n->target);
        } catch (const InputError& e) {
            fail(e.what(), n);
        }
    }

    Value callBuiltin(const Builtin& b, const Args& args, const NodePtr& n) {
        std::vector<std::string> names;
        for (const auto& p : b.params)
            names.push_back(p.name);
        auto a = bind(b.name, names, args, n);
        BuiltinArgs out;
        for (const auto& p : b.params) {
            std::pair<Value, NodePtr> v;
            if (a.count(p.name)) {
                v = a[p.name];
            } else if (p.defaultText) {
                v = {eval(py::parse(*p.defaultText), {}), n};
            } else {
                fail(b.name + " is missing argument '" + p.name + "' (" + builtinSignature(b) + ")",
                     n);
            }
            // An optional parameter (default None) given None is left out: the builtin decides.
            if (std::holds_alternative<None>(v.first.v) && p.defaultText == "None") continue;
            switch (p.kind) {
            case ParamKind::Shape:
                out.values[p.name] = toShape(v.first, v.second, p.name.c_str());
                break;
            case ParamKind::Int:
                out.values[p.name] = toInt(v.first, v.second, p.name.c_str());
                break;
            case ParamKind::Bool:
                out.values[p.name] = toInt(v.first, v.second, p.name.c_str()) != 0;
                break;
            case ParamKind::Dtype:
            case ParamKind::String: {
                auto* s = std::get_if<std::string>(&v.first.v);
                if (!s) fail("'" + p.name + "' must be a string", v.second);
                if (p.kind == ParamKind::Dtype) {
                    try {
                        dtypeBits(*s);
                    } catch (const InputError& e) {
                        fail(e.what(), v.second);
                    }
                }
                out.values[p.name] = *s;
                break;
            }
            }
        }
        try {
            return {b.make(out)};
        } catch (const InputError& e) {
            fail(e.what(), n);
        }
    }

    std::string_view src_;
    std::map<std::string, Expr> free_;
    ExprDialect dialect_;
};

} // namespace

Mapping parseMapping(std::string_view text) {
    // CuTe and Triton text have their own parsers (interop.h); recognised by the first tokens.
    if (auto foreign = parseForeignNotation(text)) return *foreign;
    py::NodePtr root = py::parse(text);
    Interp in(text, {}, ExprDialect::Python);
    auto v = in.eval(root, {});
    if (auto* m = std::get_if<Mapping>(&v.v)) return *m;
    throw ParseError(
        "the text is not a layout: expected T.Layout(...), T.Fragment(...) or a builtin",
        std::string(text), root->column);
}

std::vector<std::string> expressionFunctions() {
    std::vector<std::string> out;
    for (const auto& [name, op] : callOps())
        out.push_back(name);
    for (const auto& name : conditionalFunctions())
        out.push_back("T." + name);
    for (const auto& name : castFunctions())
        out.push_back(name);
    return out;
}

Expr parseExpr(std::string_view text, const std::vector<std::string>& vars, ExprDialect dialect) {
    py::NodePtr root = py::parse(text);
    std::map<std::string, Expr> free;
    for (const auto& v : vars)
        free[v] = var(v);
    Interp in(text, free, dialect);
    auto v = in.eval(root, {});
    return in.toExpr(v, root);
}

LambdaExprs parseLambda(std::string_view text) {
    py::NodePtr root = py::parse(text);
    if (root->kind != NodeKind::Lambda)
        throw ParseError("expected a lambda, such as `lambda t: (t // 8, t % 8)`",
                         std::string(text), root->column);
    LambdaExprs out;
    out.params = root->params;
    std::map<std::string, Expr> scope;
    for (const auto& p : out.params)
        scope[p] = var(p);
    Interp in(text, {}, ExprDialect::PerValue);
    Value r = in.eval(root->target, scope);
    if (auto* l = std::get_if<List>(&r.v)) {
        for (const Value& x : *l)
            out.outputs.push_back(in.toExpr(x, root->target));
    } else {
        out.outputs.push_back(in.toExpr(r, root->target));
    }
    return out;
}

} // namespace ts
