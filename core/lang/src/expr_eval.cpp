// SPDX-License-Identifier: Apache-2.0
#include "tilescope/lang/expr_eval.h"

#include "tilescope/lang/expr_apply.h"
#include "tilescope/support/simd_clones.h"

#include "tilescope/support/errors.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ts {

namespace {

struct Key {
    Op op;
    bool imm;
    int a, b, c;
    std::int64_t v;
    auto operator<=>(const Key&) const = default;
};

struct Compiler {
    std::map<std::string, int> varReg;
    std::map<Key, int> cse;
    int next = 0;
    std::vector<std::tuple<Op, bool, int, int, int, int, std::int64_t>> code;

    // Returns a register, or sets isC/value when the subtree is a constant.
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
        default:
            break;
        }
        switch (arity(e->op)) {
        case 1: {
            bool c;
            std::int64_t v;
            int ra = emit(e->a, c, v);
            if (c) {
                isC = true;
                value = applyUnary(e->op, v);
                return -1;
            }
            if (e->op == Op::Cast) return ra; // the same value, only TVM's type differs
            return intern(e->op, false, ra, -1, 0);
        }
        case 2:
            break;
        default: {
            // Every operand is emitted, so a failing branch fails even where it is not taken
            // (Op::Select); a constant condition then just picks the other register.
            bool cc, ct, cf;
            std::int64_t vc = 0, vt = 0, vf = 0;
            int rc = emit(e->a, cc, vc);
            int rt = emit(e->b, ct, vt);
            int rf = emit(e->c, cf, vf);
            if (cc) {
                const bool t = vc != 0;
                isC = t ? ct : cf;
                value = t ? vt : vf;
                return t ? rt : rf;
            }
            if (ct) rt = intern(Op::Const, true, -1, -1, vt);
            if (cf) rf = intern(Op::Const, true, -1, -1, vf);
            return intern(e->op, false, rc, rt, 0, rf);
        }
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
                e->op == Op::BitAnd || e->op == Op::BitOr || e->op == Op::Min || e->op == Op::Max ||
                e->op == Op::Eq || e->op == Op::Ne || e->op == Op::And || e->op == Op::Or)
                return intern(e->op, true, rb, -1, va);
            int rc = intern(Op::Const, true, -1, -1, va);
            return intern(e->op, false, rc, rb, 0);
        }
        return intern(e->op, false, ra, rb, 0);
    }

    int intern(Op op, bool imm, int a, int b, std::int64_t v, int c = -1) {
        Key k{op, imm, a, b, c, v};
        auto it = cse.find(k);
        if (it != cse.end()) return it->second;
        int dst = next++;
        code.emplace_back(op, imm, dst, a, b, c, v);
        cse.emplace(k, dst);
        return dst;
    }
};

// Interval of every register, saturating; used only to pick the 32-bit path.
struct Range {
    __int128 lo, hi;
};

// One of three interval analyses, each for its own question: this one (saturating __int128)
// decides the 32-bit path; simplify.cpp's `range` (int64, gives up beyond 2^40) proves rewrites;
// layout_eval.cpp's tabulated bounds are exact extremes of evaluated tables.
Range rangeOf(Op op, Range a, Range b, Range c, bool imm, std::int64_t k) {
    if (imm) b = {k, k};
    auto nonneg = [](Range r) { return r.lo >= 0; };
    auto pow2Above = [](__int128 v) {
        __int128 p = 1;
        while (p <= v && p < (__int128(1) << 100))
            p <<= 1;
        return p;
    };
    const Range wide{-(__int128(1) << 100), __int128(1) << 100};
    switch (op) {
    case Op::Add:
        return {a.lo + b.lo, a.hi + b.hi};
    case Op::Sub:
        return {a.lo - b.hi, a.hi - b.lo};
    case Op::Mul: {
        if (a.hi - a.lo > (__int128(1) << 62) || b.hi - b.lo > (__int128(1) << 62)) return wide;
        __int128 c[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
        return {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
    }
    case Op::FloorDiv:
    case Op::TruncDiv:
        if (b.lo > 0 && nonneg(a)) return {a.lo / b.hi, a.hi / b.lo};
        if (b.lo > 0) return {-(-a.lo + b.lo - 1) / b.lo - 1, a.hi / b.lo + 1};
        return wide;
    case Op::FloorMod:
    case Op::TruncMod:
        if (b.lo > 0 && nonneg(a) && a.hi < b.lo) return a;
        if (b.lo > 0) return {op == Op::FloorMod ? 0 : -(b.hi - 1), b.hi - 1};
        return wide;
    case Op::BitXor:
    case Op::BitOr:
        if (nonneg(a) && nonneg(b)) return {0, pow2Above(std::max(a.hi, b.hi)) - 1};
        return wide;
    case Op::BitAnd:
        if (nonneg(a) && nonneg(b)) return {0, std::min(a.hi, b.hi)};
        if (nonneg(a)) return {0, a.hi};
        if (nonneg(b)) return {0, b.hi};
        return wide;
    case Op::Shl:
        if (b.lo >= 0 && b.hi <= 62)
            return {a.lo < 0 ? a.lo << b.hi : a.lo << b.lo, a.hi < 0 ? a.hi << b.lo : a.hi << b.hi};
        return wide;
    case Op::Shr:
        if (b.lo >= 0 && b.hi <= 62)
            return {a.lo < 0 ? a.lo : a.lo >> b.hi, a.hi < 0 ? a.hi >> b.hi : a.hi >> b.lo};
        return wide;
    case Op::Min:
        return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
    case Op::Max:
        return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
    case Op::Neg:
        return {-a.hi, -a.lo};
    case Op::Const:
        return {k, k};
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::And:
    case Op::Or:
    case Op::Not:
        return {0, 1};
    case Op::Cast:
        return a;
    case Op::Select:
    case Op::IfThenElse:
        return {std::min(b.lo, c.lo), std::max(b.hi, c.hi)};
    case Op::Var:
        return wide;
    }
    return wide;
}

template <class T, class F>
inline void loop(T* __restrict d, const T* __restrict a, const T* __restrict b, T imm, bool useImm,
                 std::size_t n, F f) {
    if (useImm)
        for (std::size_t p = 0; p < n; ++p)
            d[p] = f(a[p], imm);
    else
        for (std::size_t p = 0; p < n; ++p)
            d[p] = f(a[p], b[p]);
}

} // namespace

Program::Program(const std::vector<Expr>& outputs, const std::vector<std::string>& vars)
    : Program(outputs, vars, {}) {}

Program::Program(const std::vector<Expr>& outputs, const std::vector<std::string>& vars,
                 const std::vector<std::int64_t>& extents) {
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
    for (auto& [op, imm, dst, a, b, c3, v] : c.code)
        code_.push_back(Instr{op, imm, dst, a, b, c3, v});
    regCount_ = c.next;

    if (extents.size() == vars.size()) {
        // Every register (and every immediate) must fit in int32 for the narrow path.
        std::vector<Range> r(static_cast<std::size_t>(regCount_));
        for (std::size_t k = 0; k < vars.size(); ++k)
            r[k] = {0, std::max<std::int64_t>(extents[k], 1) - 1};
        constexpr __int128 lo32 = std::numeric_limits<std::int32_t>::min();
        constexpr __int128 hi32 = std::numeric_limits<std::int32_t>::max();
        bool fits = true;
        for (std::int64_t k : outputConst_)
            fits = fits && k >= lo32 && k <= hi32;
        for (const Instr& in : code_) {
            Range a = in.a >= 0 ? r[in.a] : Range{in.imm, in.imm};
            Range b = (!in.immediate && in.b >= 0) ? r[in.b] : Range{in.imm, in.imm};
            Range c3 = in.c >= 0 ? r[in.c] : Range{0, 0};
            r[in.dst] = rangeOf(in.op, a, b, c3, in.immediate, in.imm);
            if (in.op == Op::Shl || in.op == Op::Shr)
                fits = fits && (in.immediate ? in.imm : b.hi) <= 30;
            fits = fits && r[in.dst].lo >= lo32 && r[in.dst].hi <= hi32 && in.imm >= lo32 &&
                   in.imm <= hi32;
        }
        for (std::size_t k = 0; k < vars.size(); ++k)
            fits = fits && r[k].hi <= hi32;
        narrow_ = fits;
    }
}

bool Program::run(std::span<const std::int64_t* const> inputs,
                  std::span<std::int64_t* const> outputs, std::size_t n, std::size_t& failedPoint,
                  std::string& message) const {
    auto once = [&](std::size_t count, std::size_t& bad, std::string& msg) {
        return narrow_ ? run32(inputs, outputs, count, bad, msg)
                       : run64(inputs, outputs, count, bad, msg);
    };
    if (once(n, failedPoint, message)) return true;
    // Instructions run a batch at a time, so the first failure found may not be the first
    // failing point: re-run the prefix before it until no earlier point fails.
    for (std::size_t limit = failedPoint; limit > 0;) {
        std::size_t bad = 0;
        std::string msg;
        if (once(limit, bad, msg)) break;
        failedPoint = bad;
        message = msg;
        limit = bad;
    }
    return false;
}

template <class T>
TS_INLINE bool Program::exec(std::span<const std::int64_t* const> inputs,
                             std::span<std::int64_t* const> outputs, std::size_t n,
                             std::size_t& failedPoint, std::string& message) const {
    using U = std::make_unsigned_t<T>;
    const std::size_t chunk = std::max<std::size_t>(n, 1);
    // Reused across calls: a fresh large block per batch costs page faults on every run.
    thread_local std::vector<T> scratch;
    const std::size_t need = static_cast<std::size_t>(regCount_) * chunk;
    if (scratch.size() < need) scratch.resize(need);
    auto regPtr = [&](int r) { return scratch.data() + static_cast<std::size_t>(r) * chunk; };
    std::vector<const T*> reg(static_cast<std::size_t>(regCount_));
    for (int v = 0; v < varCount_; ++v) {
        T* d = regPtr(v);
        const std::int64_t* s = inputs[static_cast<std::size_t>(v)];
        for (std::size_t p = 0; p < n; ++p)
            d[p] = static_cast<T>(s[p]);
        reg[static_cast<std::size_t>(v)] = d;
    }

    auto fail = [&](const T* values, auto bad, const char* what) {
        for (std::size_t p = 0; p < n; ++p)
            if (bad(values[p])) {
                failedPoint = p;
                message = what;
                return true;
            }
        return false;
    };

    for (const Instr& in : code_) {
        T* d = regPtr(in.dst);
        const T* a = in.a >= 0 ? reg[in.a] : nullptr;
        const T* b = (!in.immediate && in.b >= 0) ? reg[in.b] : nullptr;
        const T k = static_cast<T>(in.imm);
        const bool im = in.immediate;
        switch (in.op) {
        case Op::Const:
            std::fill(d, d + n, k);
            break;
        case Op::Neg:
            for (std::size_t p = 0; p < n; ++p)
                d[p] = static_cast<T>(U(0) - U(a[p]));
            break;
        case Op::Add:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(U(x) + U(y)); });
            break;
        case Op::Sub:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(U(x) - U(y)); });
            break;
        case Op::Mul:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(U(x) * U(y)); });
            break;
        case Op::FloorDiv:
        case Op::FloorMod:
        case Op::TruncDiv:
        case Op::TruncMod: {
            const bool isDiv = in.op == Op::FloorDiv || in.op == Op::TruncDiv;
            const bool floor = in.op == Op::FloorDiv || in.op == Op::FloorMod;
            if (im) {
                if (k == 0) {
                    failedPoint = 0;
                    message = isDiv ? "division by zero" : "modulo by zero";
                    return false;
                }
                if (k > 0 && (k & (k - 1)) == 0 && floor) {
                    // Arithmetic shift and mask are exactly floor division and modulo by 2^s.
                    if (isDiv) {
                        const int sh = __builtin_ctzll(static_cast<unsigned long long>(k));
                        for (std::size_t p = 0; p < n; ++p)
                            d[p] = static_cast<T>(a[p] >> sh);
                    } else {
                        const T mask = k - 1;
                        for (std::size_t p = 0; p < n; ++p)
                            d[p] = a[p] & mask;
                    }
                    break;
                }
                if (k > 0 && floor) {
                    if (isDiv)
                        for (std::size_t p = 0; p < n; ++p) {
                            T q = a[p] / k;
                            d[p] = static_cast<T>(q - ((a[p] % k) < 0));
                        }
                    else
                        for (std::size_t p = 0; p < n; ++p) {
                            T m = a[p] % k;
                            d[p] = static_cast<T>(m + (m < 0 ? k : 0));
                        }
                    break;
                }
                for (std::size_t p = 0; p < n; ++p)
                    d[p] = static_cast<T>(applyBinary(in.op, a[p], k));
                break;
            }
            if (fail(
                    b, [](T y) { return y == 0; }, isDiv ? "division by zero" : "modulo by zero"))
                return false;
            for (std::size_t p = 0; p < n; ++p)
                d[p] = static_cast<T>(applyBinary(in.op, a[p], b[p]));
            break;
        }
        case Op::BitXor:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x ^ y); });
            break;
        case Op::BitAnd:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x & y); });
            break;
        case Op::BitOr:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x | y); });
            break;
        case Op::Shl:
        case Op::Shr: {
            if (im ? (k < 0 || k > 62)
                   : fail(
                         b, [](T y) { return y < 0 || y > 62; }, "")) {
                if (im) failedPoint = 0;
                message = "shift count out of range 0..62";
                return false;
            }
            if (in.op == Op::Shl)
                loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(U(x) << y); });
            else
                loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x >> y); });
            break;
        }
        case Op::Min:
            loop(d, a, b, k, im, n, [](T x, T y) { return std::min(x, y); });
            break;
        case Op::Max:
            loop(d, a, b, k, im, n, [](T x, T y) { return std::max(x, y); });
            break;
        case Op::Lt:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x < y); });
            break;
        case Op::Le:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x <= y); });
            break;
        case Op::Gt:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x > y); });
            break;
        case Op::Ge:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x >= y); });
            break;
        case Op::Eq:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x == y); });
            break;
        case Op::Ne:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>(x != y); });
            break;
        case Op::And:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>((x != 0) & (y != 0)); });
            break;
        case Op::Or:
            loop(d, a, b, k, im, n, [](T x, T y) { return static_cast<T>((x != 0) | (y != 0)); });
            break;
        case Op::Not:
            for (std::size_t p = 0; p < n; ++p)
                d[p] = static_cast<T>(a[p] == 0);
            break;
        case Op::Cast: // never emitted (the operand's register is used), kept for -Wswitch
            std::copy(a, a + n, d);
            break;
        case Op::Select:
        case Op::IfThenElse: {
            const T* __restrict t = b;
            const T* __restrict f = reg[in.c];
            for (std::size_t p = 0; p < n; ++p)
                d[p] = a[p] != 0 ? t[p] : f[p];
            break;
        }
        case Op::Var:
            break;
        }
        reg[in.dst] = d;
    }
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
        int r = outputs_[o];
        if (r < 0) {
            std::fill(outputs[o], outputs[o] + n, outputConst_[static_cast<std::size_t>(-1 - r)]);
        } else {
            const T* s = reg[r];
            std::int64_t* dst = outputs[o];
            for (std::size_t p = 0; p < n; ++p)
                dst[p] = s[p];
        }
    }
    return true;
}

TS_CLONES bool Program::run32(std::span<const std::int64_t* const> inputs,
                              std::span<std::int64_t* const> outputs, std::size_t n,
                              std::size_t& failedPoint, std::string& message) const {
    return exec<std::int32_t>(inputs, outputs, n, failedPoint, message);
}

TS_CLONES bool Program::run64(std::span<const std::int64_t* const> inputs,
                              std::span<std::int64_t* const> outputs, std::size_t n,
                              std::size_t& failedPoint, std::string& message) const {
    return exec<std::int64_t>(inputs, outputs, n, failedPoint, message);
}

} // namespace ts
