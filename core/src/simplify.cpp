#include "tilescope/simplify.h"

#include <algorithm>
#include <optional>
#include <vector>

namespace ts {

namespace {

struct Range {
    std::int64_t lo, hi;
};
constexpr std::int64_t kBig = std::int64_t{1} << 40; // beyond this, ranges are not tracked

class Simplifier {
public:
    explicit Simplifier(const std::map<std::string, std::int64_t>& ext) : ext_(ext) {}

    Expr run(const Expr& e) {
        Expr s = e;
        for (int pass = 0; pass < 4; ++pass) {
            Expr next = visit(s);
            if (structurallyEqual(next, s)) break;
            s = next;
        }
        return s;
    }

private:
    std::optional<Range> range(const Expr& e) {
        std::int64_t c;
        if (isConst(e, &c)) return Range{c, c};
        switch (e->op) {
        case Op::Var: {
            auto it = ext_.find(e->name);
            if (it == ext_.end()) return std::nullopt;
            return Range{0, it->second - 1};
        }
        case Op::Add:
        case Op::Sub:
        case Op::Mul: {
            auto a = range(e->a), b = range(e->b);
            if (!a || !b) return std::nullopt;
            std::int64_t lo, hi;
            if (e->op == Op::Add)
                lo = a->lo + b->lo, hi = a->hi + b->hi;
            else if (e->op == Op::Sub)
                lo = a->lo - b->hi, hi = a->hi - b->lo;
            else {
                std::int64_t p[4] = {a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi};
                lo = *std::min_element(p, p + 4), hi = *std::max_element(p, p + 4);
            }
            if (lo < -kBig || hi > kBig) return std::nullopt;
            return Range{lo, hi};
        }
        case Op::FloorDiv: {
            auto a = range(e->a);
            if (!a || !isConst(e->b, &c) || c <= 0 || a->lo < 0) return std::nullopt;
            return Range{a->lo / c, a->hi / c};
        }
        case Op::FloorMod: {
            if (!isConst(e->b, &c) || c <= 0) return std::nullopt;
            auto a = range(e->a);
            if (a && a->lo >= 0 && a->hi < c) return a;
            return Range{0, c - 1};
        }
        default:
            return std::nullopt;
        }
    }

    bool within(const Expr& e, std::int64_t lo, std::int64_t hiExclusive) {
        auto r = range(e);
        return r && r->lo >= lo && r->hi < hiExclusive;
    }

    // A term's constant multiplier (for ordering sums as TVM's canonical form does).
    static std::int64_t coefficient(const Expr& e) {
        std::int64_t c;
        if (isConst(e, &c)) return -1; // constants go last
        if (e->op == Op::Mul && isConst(e->b, &c)) return c;
        return 1;
    }

    void flatten(const Expr& e, bool negative, std::vector<std::pair<Expr, bool>>& terms) {
        if (e->op == Op::Add) {
            flatten(e->a, negative, terms);
            flatten(e->b, negative, terms);
        } else if (e->op == Op::Sub) {
            flatten(e->a, negative, terms);
            flatten(e->b, !negative, terms);
        } else {
            terms.emplace_back(e, negative);
        }
    }

    Expr visit(const Expr& e) {
        if (e->op == Op::Const || e->op == Op::Var) return e;
        if (e->op == Op::Neg) return negate(visit(e->a));
        Expr a = visit(e->a), b = visit(e->b);
        std::int64_t c, d;
        switch (e->op) {
        case Op::Add:
        case Op::Sub: {
            std::vector<std::pair<Expr, bool>> terms;
            flatten(binary(e->op, a, b), false, terms);
            std::int64_t constant = 0;
            std::vector<std::pair<Expr, bool>> rest;
            for (auto& [t, neg] : terms) {
                if (isConst(t, &c))
                    constant += neg ? -c : c;
                else
                    rest.emplace_back(t, neg);
            }
            std::stable_sort(rest.begin(), rest.end(), [](const auto& x, const auto& y) {
                return coefficient(x.first) > coefficient(y.first);
            });
            Expr out;
            for (auto& [t, neg] : rest) {
                if (!out)
                    out = neg ? negate(t) : t;
                else
                    out = neg ? binary(Op::Sub, out, t) : binary(Op::Add, out, t);
            }
            if (!out) return ts::constant(constant);
            if (constant > 0) out = binary(Op::Add, out, ts::constant(constant));
            if (constant < 0) out = binary(Op::Sub, out, ts::constant(-constant));
            return out;
        }
        case Op::Mul: {
            if (isConst(a, &c) && !isConst(b)) std::swap(a, b); // constant multiplier on the right
            if (isConst(b, &c)) {
                if (c == 0) return ts::constant(0);
                if (c == 1) return a;
                if (a->op == Op::Mul && isConst(a->b, &d))
                    return binary(Op::Mul, a->a, ts::constant(c * d));
                // Distribute over sums so that terms line up (TVM's canonical form does too).
                if (a->op == Op::Add || a->op == Op::Sub)
                    return visit(binary(a->op, binary(Op::Mul, a->a, b), binary(Op::Mul, a->b, b)));
            }
            return a * b;
        }
        case Op::FloorDiv: {
            if (!isConst(b, &c) || c <= 0) return floordiv(a, b);
            if (c == 1) return a;
            if (within(a, 0, c)) return ts::constant(0);
            if (a->op == Op::FloorDiv && isConst(a->b, &d) && d > 0) return floordiv(a->a, c * d);
            if (a->op == Op::Mul && isConst(a->b, &d) && d % c == 0) return a->a * (d / c);
            return floordiv(a, c);
        }
        case Op::FloorMod: {
            if (!isConst(b, &c) || c <= 0) return floormod(a, b);
            if (c == 1) return ts::constant(0);
            if (within(a, 0, c)) return a;
            if (a->op == Op::FloorMod && isConst(a->b, &d) && d > 0 && d % c == 0)
                return floormod(a->a, c);
            if (a->op == Op::Mul && isConst(a->b, &d) && d % c == 0) return ts::constant(0);
            return floormod(a, c);
        }
        default:
            return binary(e->op, a, b);
        }
    }

    const std::map<std::string, std::int64_t>& ext_;
};

} // namespace

Expr simplify(const Expr& e, const std::map<std::string, std::int64_t>& extents) {
    return Simplifier(extents).run(e);
}

} // namespace ts
