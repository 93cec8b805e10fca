// Interpreter for the mapping language: walks the syntax tree with Python semantics for plain
// integers and builds index expressions where lambda parameters are involved.
#include "tilescope/mapping.h"

#include "pyparse.h"
#include "tilescope/builtins.h"
#include "tilescope/errors.h"
#include "tilescope/interop.h"

#include <map>
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
                                             {"T.shift_right", Op::Shr}};
    return m;
}

class Interp {
public:
    Interp(std::string_view src, std::map<std::string, Expr> freeVars)
        : src_(src), free_(std::move(freeVars)) {}

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
        case NodeKind::Tuple: {
            List items;
            for (const auto& it : n->items)
                items.push_back(eval(it, scope));
            Value v{items};
            v.tuple = n->kind == NodeKind::Tuple;
            return v;
        }
        case NodeKind::Lambda:
            return {Lambda{n}};
        case NodeKind::Unary: {
            Value a = eval(n->items[0], scope);
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
        case NodeKind::Binary:
            return binop(n, scope);
        case NodeKind::Keyword:
            fail("unexpected keyword argument", n);
        }
        fail("unsupported syntax", n);
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
    Value name(const NodePtr& n, const std::map<std::string, Expr>& scope) {
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
        fail("unknown name '" + s + "'", n);
    }

    Value attr(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        Value obj = eval(n->target, scope);
        if (std::holds_alternative<Module>(obj.v)) {
            const std::string& a = n->text;
            if (a == "language" || a == "layout" || a == "tools") return obj; // tilelang.language.X
            if (a == "Layout" || a == "Fragment") return {Func{"T." + a}};
            if (callOps().count("T." + a) || a == "Cast" || a == "int64" || a == "int32" ||
                a == "int16" || a == "int8" || a == "uint32" || a == "uint64")
                return {Func{"T." + a}};
            if (findBuiltin(a)) return {Func{a}};
            fail("unknown function 'T." + a + "'", n);
        }
        if (std::holds_alternative<Mapping>(obj.v))
            return {Method{std::make_shared<Value>(obj), n->text}};
        fail("'." + n->text + "' is only available on a Layout or Fragment", n);
    }

    Value binop(const NodePtr& n, const std::map<std::string, Expr>& scope) {
        Value a = eval(n->items[0], scope), b = eval(n->items[1], scope);
        if (n->text == "/")
            fail("true division '/' is not an index operation; use '//' (floor division)", n);
        Op op = binaryOps().at(n->text);
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

    struct Args {
        std::vector<std::pair<Value, NodePtr>> positional;
        std::map<std::string, std::pair<Value, NodePtr>> keyword;
    };

    Value call(const NodePtr& n, const std::map<std::string, Expr>& scope) {
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
        if (fn == "T.Cast") {
            if (args.positional.size() != 2 || !args.keyword.empty())
                fail("T.Cast takes (dtype, value)", n);
            return asIntOrExpr(args.positional[1].first, args.positional[1].second);
        }
        if (fn.rfind("T.int", 0) == 0 || fn.rfind("T.uint", 0) == 0) {
            if (args.positional.size() != 1) fail(fn + " takes one value", n);
            return asIntOrExpr(args.positional[0].first, args.positional[0].second);
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
            auto* x = std::get_if<std::int64_t>(&acc.v);
            auto* y = std::get_if<std::int64_t>(&args.positional[k].first.v);
            if (x && y && (op == Op::Min || op == Op::Max)) {
                acc = {op == Op::Min ? std::min(*x, *y) : std::max(*x, *y)};
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
                                                          const Args& args, const NodePtr& n) {
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

    // Applies a lambda to placeholder variables; returns its result as a list of expressions.
    std::vector<Expr> apply(const Value& fnv, const NodePtr& at, std::size_t rank, bool withRep,
                            const char* what) {
        auto* lam = std::get_if<Lambda>(&fnv.v);
        if (!lam) fail(std::string(what) + " must be a lambda", at);
        const auto& params = lam->node->params;
        std::size_t want = rank + (withRep ? 1 : 0);
        if (params.size() != want)
            fail(std::string(what) + " takes " + std::to_string(params.size()) +
                     " parameters, but the shape has " + std::to_string(rank) + " dimensions" +
                     (withRep ? " plus the replica index" : ""),
                 lam->node);
        std::map<std::string, Expr> scope;
        for (std::size_t k = 0; k < rank; ++k)
            scope[params[k]] = var(placeholderName(k));
        if (withRep) scope[params[rank]] = var(kRepVar);
        Value r = eval(lam->node->target, scope);
        std::vector<Expr> out;
        if (auto* l = std::get_if<List>(&r.v)) {
            for (const Value& x : *l)
                out.push_back(toExpr(x, lam->node->target));
        } else {
            out.push_back(toExpr(r, lam->node->target));
        }
        return out;
    }

    Value makeLayout(const Args& args, const NodePtr& n) {
        auto a = bind("T.Layout", {"shape", "forward_fn"}, args, n);
        if (!a.count("shape") || !a.count("forward_fn"))
            fail("T.Layout needs (shape, forward_fn)", n);
        Shape shape = toShape(a["shape"].first, a["shape"].second, "shape");
        checkShapeAt(shape, a["shape"].second);
        auto fwd =
            apply(a["forward_fn"].first, a["forward_fn"].second, shape.size(), false, "forward_fn");
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
                fail("forward_fn takes " + std::to_string(params.size()) +
                         " parameters, but the shape has " + std::to_string(shape.size()) +
                         " dimensions" + (withRep ? " plus the replica index" : ""),
                     lam->node);
            std::map<std::string, Expr> scope;
            for (std::size_t k = 0; k < shape.size(); ++k)
                scope[params[k]] = var(placeholderName(k));
            if (withRep) scope[params.back()] = var(kRepVar);
            Value r = eval(lam->node->target, scope);
            auto* l = std::get_if<List>(&r.v);
            if (!l || l->size() != 2)
                fail("forward_fn must return (thread, index)", lam->node->target);
            thread = toExpr((*l)[0], lam->node->target);
            if (auto* il = std::get_if<List>(&(*l)[1].v))
                for (const Value& x : *il)
                    index.push_back(toExpr(x, lam->node->target));
            else
                index.push_back(toExpr((*l)[1], lam->node->target));
        } else {
            if (isNone("forward_thread_fn"))
                fail("T.Fragment needs forward_thread_fn or forward_fn", n);
            auto th = apply(a["forward_thread_fn"].first, a["forward_thread_fn"].second,
                            shape.size(), rep > 1, "forward_thread_fn");
            if (th.size() != 1)
                fail("forward_thread_fn must return one expression", a["forward_thread_fn"].second);
            thread = th[0];
            if (!isNone("forward_index_fn"))
                index = apply(a["forward_index_fn"].first, a["forward_index_fn"].second,
                              shape.size(), false, "forward_index_fn");
        }
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
                    return {Mapping(l->inverse())};
                }
                fail("Layout has no method '" + m.name + "' (repeat, expand, inverse)", n->target);
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
            fail("Fragment has no method '" + m.name +
                     "' (repeat, replicate, inverse, condense_rep_var)",
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
};

} // namespace

Mapping parseMapping(std::string_view text) {
    // CuTe and Triton text have their own parsers (interop.h); recognised by the first tokens.
    if (auto foreign = parseForeignNotation(text)) return *foreign;
    py::NodePtr root = py::parse(text);
    Interp in(text, {});
    auto v = in.eval(root, {});
    if (auto* m = std::get_if<Mapping>(&v.v)) return *m;
    throw ParseError(
        "the text is not a layout: expected T.Layout(...), T.Fragment(...) or a builtin",
        std::string(text), root->column);
}

Expr parseExpr(std::string_view text, const std::vector<std::string>& vars) {
    py::NodePtr root = py::parse(text);
    std::map<std::string, Expr> free;
    for (const auto& v : vars)
        free[v] = var(v);
    Interp in(text, free);
    auto v = in.eval(root, {});
    return in.toExpr(v, root);
}

} // namespace ts
