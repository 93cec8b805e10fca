#include "tilescope/expr_eval.h"

#include "tilescope/errors.h"

#include <algorithm>
#include <map>
#include <memory>

namespace ts {

std::int64_t applyBinary(Op op, std::int64_t x, std::int64_t y); // expr.cpp

namespace {

struct Key {
    Op op;
    bool imm;
    int a, b;
    std::int64_t v;
    auto operator<=>(const Key&) const = default;
};

struct Compiler {
    std::map<std::string, int> varReg;
    std::map<Key, int> cse;
    std::vector<std::pair<Op, std::int64_t>>* dummy = nullptr;
    int next = 0;
    std::vector<std::tuple<Op, bool, int, int, int, std::int64_t>> code;

    // Returns a register, or sets isConst/value when the subtree is a constant.
    int emit(const Expr& e, bool& isC, std::int64_t& value) {
        isC = false;
        switch (e->op) {
        case Op::Const:
            isC = true;
            value = e->value;
            return -1;
        case Op::Var: {
            auto it = varReg.find(e->name);
            if (it == varReg.end()) throw InputError("unknown variable '" + e->name + "'");
            return it->second;
        }
        case Op::Neg: {
            bool c;
            std::int64_t v;
            int ra = emit(e->a, c, v);
            if (c) {
                isC = true;
                value = static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v));
                return -1;
            }
            return intern(Op::Neg, false, ra, -1, 0);
        }
        default:
            break;
        }
        bool ca, cb;
        std::int64_t va = 0, vb = 0;
        int ra = emit(e->a, ca, va);
        int rb = emit(e->b, cb, vb);
        if (ca && cb) {
            isC = true;
            value = applyBinary(e->op, va, vb); // may throw EvalError: constant division by zero
            return -1;
        }
        if (cb) return intern(e->op, true, ra, -1, vb);
        if (ca) {
            // Commutative ops take the constant as the immediate; others load it once.
            if (e->op == Op::Add || e->op == Op::Mul || e->op == Op::BitXor ||
                e->op == Op::BitAnd || e->op == Op::BitOr || e->op == Op::Min || e->op == Op::Max)
                return intern(e->op, true, rb, -1, va);
            int rc = intern(Op::Const, true, -1, -1, va);
            return intern(e->op, false, rc, rb, 0);
        }
        return intern(e->op, false, ra, rb, 0);
    }

    int intern(Op op, bool imm, int a, int b, std::int64_t v) {
        Key k{op, imm, a, b, v};
        auto it = cse.find(k);
        if (it != cse.end()) return it->second;
        int dst = next++;
        code.emplace_back(op, imm, dst, a, b, v);
        cse.emplace(k, dst);
        return dst;
    }
};

template <class F>
inline void loop(std::int64_t* d, const std::int64_t* a, const std::int64_t* b, std::int64_t imm,
                 bool useImm, std::size_t n, F f) {
    if (useImm)
        for (std::size_t p = 0; p < n; ++p)
            d[p] = f(a[p], imm);
    else
        for (std::size_t p = 0; p < n; ++p)
            d[p] = f(a[p], b[p]);
}

} // namespace

Program::Program(const std::vector<Expr>& outputs, const std::vector<std::string>& vars) {
    Compiler c;
    for (std::size_t k = 0; k < vars.size(); ++k)
        c.varReg[vars[k]] = static_cast<int>(k);
    c.next = static_cast<int>(vars.size());
    varCount_ = c.next;
    for (const Expr& e : outputs) {
        bool isC;
        std::int64_t v = 0;
        int r;
        try {
            r = c.emit(e, isC, v);
        } catch (const EvalError& err) {
            throw EvalError(std::string(err.what()) + " in '" + printExpr(e) + "'");
        }
        if (isC) {
            outputs_.push_back(-1 - static_cast<int>(outputConst_.size()));
            outputConst_.push_back(v);
        } else {
            outputs_.push_back(r);
        }
    }
    for (auto& [op, imm, dst, a, b, v] : c.code)
        code_.push_back(Instr{op, imm, dst, a, b, v});
    regCount_ = c.next;
}

bool Program::run(std::span<const std::int64_t* const> inputs,
                  std::span<std::int64_t* const> outputs, std::size_t n, std::size_t& failedPoint,
                  std::string& message) const {
    using U = std::uint64_t;
    // Registers: variables point at the caller's arrays; temporaries live in one scratch block.
    std::vector<const std::int64_t*> reg(regCount_);
    for (int v = 0; v < varCount_; ++v)
        reg[v] = inputs[v];
    const std::size_t chunk = std::max<std::size_t>(n, 1);
    std::unique_ptr<std::int64_t[]> scratch(
        new std::int64_t[static_cast<std::size_t>(regCount_ - varCount_) * chunk]);
    auto tmp = [&](int r) {
        return scratch.get() + static_cast<std::size_t>(r - varCount_) * chunk;
    };

    auto fail = [&](const std::int64_t* values, std::size_t count, auto bad, const char* what) {
        for (std::size_t p = 0; p < count; ++p)
            if (bad(values[p])) {
                failedPoint = p;
                message = what;
                return true;
            }
        return false;
    };

    for (const Instr& in : code_) {
        std::int64_t* d = tmp(in.dst);
        const std::int64_t* a = in.a >= 0 ? reg[in.a] : nullptr;
        const std::int64_t* b = (!in.immediate && in.b >= 0) ? reg[in.b] : nullptr;
        const std::int64_t k = in.imm;
        const bool im = in.immediate;
        switch (in.op) {
        case Op::Const:
            std::fill(d, d + n, k);
            break;
        case Op::Neg:
            for (std::size_t p = 0; p < n; ++p)
                d[p] = static_cast<std::int64_t>(0 - U(a[p]));
            break;
        case Op::Add:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) {
                return static_cast<std::int64_t>(U(x) + U(y));
            });
            break;
        case Op::Sub:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) {
                return static_cast<std::int64_t>(U(x) - U(y));
            });
            break;
        case Op::Mul:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) {
                return static_cast<std::int64_t>(U(x) * U(y));
            });
            break;
        case Op::FloorDiv:
        case Op::FloorMod:
        case Op::TruncDiv:
        case Op::TruncMod: {
            const bool isDiv = in.op == Op::FloorDiv || in.op == Op::TruncDiv;
            if (im) {
                if (k == 0) {
                    failedPoint = 0;
                    message = isDiv ? "division by zero" : "modulo by zero";
                    return false;
                }
                if (k > 0 && (in.op == Op::FloorDiv || in.op == Op::FloorMod)) {
                    // The common case: positive constant divisor; branch-free floor semantics.
                    if (in.op == Op::FloorDiv)
                        for (std::size_t p = 0; p < n; ++p) {
                            std::int64_t q = a[p] / k;
                            d[p] = q - ((a[p] % k) < 0);
                        }
                    else
                        for (std::size_t p = 0; p < n; ++p) {
                            std::int64_t m = a[p] % k;
                            d[p] = m + (m < 0 ? k : 0);
                        }
                    break;
                }
                for (std::size_t p = 0; p < n; ++p)
                    d[p] = applyBinary(in.op, a[p], k);
                break;
            }
            if (fail(
                    b, n, [](std::int64_t y) { return y == 0; },
                    isDiv ? "division by zero" : "modulo by zero"))
                return false;
            for (std::size_t p = 0; p < n; ++p)
                d[p] = applyBinary(in.op, a[p], b[p]);
            break;
        }
        case Op::BitXor:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) { return x ^ y; });
            break;
        case Op::BitAnd:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) { return x & y; });
            break;
        case Op::BitOr:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) { return x | y; });
            break;
        case Op::Shl:
        case Op::Shr: {
            if (im ? (k < 0 || k > 62)
                   : fail(
                         b, n, [](std::int64_t y) { return y < 0 || y > 62; }, "")) {
                if (im) failedPoint = 0;
                message = "shift count out of range 0..62";
                return false;
            }
            if (in.op == Op::Shl)
                loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) {
                    return static_cast<std::int64_t>(U(x) << y);
                });
            else
                loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) { return x >> y; });
            break;
        }
        case Op::Min:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) { return std::min(x, y); });
            break;
        case Op::Max:
            loop(d, a, b, k, im, n, [](std::int64_t x, std::int64_t y) { return std::max(x, y); });
            break;
        case Op::Var:
            break;
        }
        reg[in.dst] = d;
    }
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
        int r = outputs_[o];
        if (r < 0)
            std::fill(outputs[o], outputs[o] + n, outputConst_[static_cast<std::size_t>(-1 - r)]);
        else
            std::copy(reg[r], reg[r] + n, outputs[o]);
    }
    return true;
}

} // namespace ts
