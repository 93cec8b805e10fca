// SPDX-License-Identifier: Apache-2.0
#include "tilescope/lang/simplify.h"

#include <algorithm>
#include <limits>
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
    static std::int64_t floorDiv(std::int64_t a, std::int64_t c) {
        return a >= 0 ? a / c : -((-a + c - 1) / c);
    }

    static int bitLength(std::int64_t v) {
        int n = 0;
        for (; v > 0; v >>= 1)
            ++n;
        return n;
    }

    // TVM's constant-integer bounds of the bitwise operators on non-negative operands (the only
    // ones it bounds): `&` by the smaller maximum, `|` and `^` by the next power of two, shifts
    // by shifting the ends.
    static std::optional<Range> bitwiseRange(Op op, std::optional<Range> a,
                                             std::optional<Range> b) {
        if (!a || !b) {
            if (op == Op::BitAnd) {
                if (b && b->lo >= 0) return Range{0, b->hi};
                if (a && a->lo >= 0) return Range{0, a->hi};
            }
            return std::nullopt;
        }
        if (op == Op::BitAnd) {
            if (a->lo >= 0 && b->lo >= 0) return Range{0, std::min(a->hi, b->hi)};
            if (b->lo >= 0) return Range{0, b->hi};
            if (a->lo >= 0) return Range{0, a->hi};
            return std::nullopt;
        }
        if (a->lo < 0 || b->lo < 0) return std::nullopt;
        if (op == Op::BitOr || op == Op::BitXor) {
            const int bits = bitLength(std::max(a->hi, b->hi));
            if (bits >= 40) return std::nullopt;
            return Range{0, (std::int64_t{1} << bits) - 1};
        }
        if (b->hi >= 40) return std::nullopt;
        if (op == Op::Shr) return Range{a->lo >> b->hi, a->hi >> b->lo};
        if (bitLength(a->hi) + b->hi >= 40) return std::nullopt;
        return Range{a->lo << b->lo, a->hi << b->hi};
    }

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
            if (!a || !isConst(e->b, &c) || c <= 0) return std::nullopt;
            return Range{floorDiv(a->lo, c), floorDiv(a->hi, c)};
        }
        case Op::FloorMod: {
            // TVM's bound: [0, min(a.max, c - 1)] for a non-negative a, else [0, c - 1].
            if (!isConst(e->b, &c) || c <= 0) return std::nullopt;
            auto a = range(e->a);
            if (a && a->lo >= 0) return Range{0, std::min(a->hi, c - 1)};
            return Range{0, c - 1};
        }
        case Op::BitAnd:
        case Op::BitOr:
        case Op::BitXor:
        case Op::Shl:
        case Op::Shr:
            return bitwiseRange(e->op, range(e->a), range(e->b));
        case Op::Min:
        case Op::Max: {
            auto a = range(e->a), b = range(e->b);
            if (!a || !b) return std::nullopt;
            if (e->op == Op::Min) return Range{std::min(a->lo, b->lo), std::min(a->hi, b->hi)};
            return Range{std::max(a->lo, b->lo), std::max(a->hi, b->hi)};
        }
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
        case Op::Eq:
        case Op::Ne:
        case Op::And:
        case Op::Or:
        case Op::Not:
            return Range{0, 1};
        case Op::Cast:
            return range(e->a);
        case Op::Neg: {
            auto a = range(e->a);
            if (!a) return std::nullopt;
            return Range{-a->hi, -a->lo};
        }
        case Op::IfThenElse:
            // TVM bounds a call (T.if_then_else is one) by its type alone: nothing is known.
            return std::nullopt;
        case Op::Select: {
            auto t = range(e->b), f = range(e->c);
            if (!t || !f) return std::nullopt;
            return Range{std::min(t->lo, f->lo), std::max(t->hi, f->hi)};
        }
        default:
            return std::nullopt;
        }
    }

    // 1 or 0 when the comparison holds everywhere or nowhere over the ranges, else nothing.
    std::optional<std::int64_t> decide(Op op, const Expr& a, const Expr& b) {
        auto x = range(a), y = range(b);
        if (!x || !y) return std::nullopt;
        switch (op) {
        case Op::Lt:
            if (x->hi < y->lo) return 1;
            if (x->lo >= y->hi) return 0;
            break;
        case Op::Le:
            if (x->hi <= y->lo) return 1;
            if (x->lo > y->hi) return 0;
            break;
        case Op::Gt:
            if (x->lo > y->hi) return 1;
            if (x->hi <= y->lo) return 0;
            break;
        case Op::Ge:
            if (x->lo >= y->hi) return 1;
            if (x->hi < y->lo) return 0;
            break;
        case Op::Eq:
        case Op::Ne: {
            const bool disjoint = x->hi < y->lo || y->hi < x->lo;
            const bool same = x->lo == x->hi && y->lo == y->hi && x->lo == y->lo;
            if (disjoint || same) return (op == Op::Eq) == same ? 1 : 0;
            break;
        }
        default:
            break;
        }
        return std::nullopt;
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

    // A sum as TVM's canonical form sees it: like terms combined, each with its integer
    // coefficient.
    struct Linear {
        std::vector<std::pair<Expr, std::int64_t>> terms;
        std::int64_t constant = 0;
    };

    Linear linear(const Expr& e) {
        std::vector<std::pair<Expr, bool>> flat;
        flatten(e, false, flat);
        Linear l;
        std::int64_t c;
        for (auto& [t, neg] : flat) {
            if (isConst(t, &c)) {
                l.constant += neg ? -c : c;
                continue;
            }
            Expr base = t;
            std::int64_t coef = 1;
            if (t->op == Op::Mul && isConst(t->b, &c)) base = t->a, coef = c;
            if (neg) coef = -coef;
            auto same = std::find_if(l.terms.begin(), l.terms.end(), [&](const auto& x) {
                return structurallyEqual(x.first, base);
            });
            if (same != l.terms.end())
                same->second += coef;
            else
                l.terms.emplace_back(base, coef);
        }
        dropZeros(l);
        mergeSplits(l);
        return l;
    }

    // A term as a piece of a value: (x // lower) % extent, extent 0 meaning no `%`.
    struct Piece {
        Expr x;
        std::int64_t lower = 1, extent = 0;
    };
    static Piece pieceOf(const Expr& t) {
        std::int64_t l, e;
        if (t->op == Op::FloorMod && isConst(t->b, &e) && e > 0) {
            const Expr& in = t->a;
            if (in->op == Op::FloorDiv && isConst(in->b, &l) && l > 0) return {in->a, l, e};
            return {in, 1, e};
        }
        if (t->op == Op::FloorDiv && isConst(t->b, &l) && l > 0) {
            const Expr& in = t->a;
            // x % (l * e) // l, the way TVM prints a split.
            if (in->op == Op::FloorMod && isConst(in->b, &e) && e > 0 && e % l == 0 && e > l)
                return {in->a, l, e / l};
            return {in, l, 0};
        }
        return {t, 1, 0};
    }
    static Expr pieceExpr(const Piece& p) {
        if (p.extent == 0) return p.lower == 1 ? p.x : floordiv(p.x, p.lower);
        if (p.lower == 1) return floormod(p.x, p.extent);
        return floordiv(floormod(p.x, p.lower * p.extent), p.lower);
    }

    // TVM's canonical form merges adjacent pieces of one value: (x // 4) * 2 + x // 2 % 2 is
    // x // 2, and x % 4 + x // 4 * 4 is x.
    static void mergeSplits(Linear& l) {
        for (bool merged = true; merged;) {
            merged = false;
            for (std::size_t a = 0; a < l.terms.size() && !merged; ++a)
                for (std::size_t b = 0; b < l.terms.size() && !merged; ++b) {
                    if (a == b) continue;
                    const Piece hi = pieceOf(l.terms[a].first), lo = pieceOf(l.terms[b].first);
                    if (lo.extent == 0 || !structurallyEqual(hi.x, lo.x)) continue;
                    if (hi.lower != lo.lower * lo.extent) continue;
                    if (l.terms[a].second != l.terms[b].second * lo.extent) continue;
                    const Piece joined{lo.x, lo.lower, hi.extent == 0 ? 0 : hi.extent * lo.extent};
                    l.terms[b].first = pieceExpr(joined);
                    l.terms.erase(l.terms.begin() + static_cast<std::ptrdiff_t>(a));
                    merged = true;
                }
        }
    }

    static void dropZeros(Linear& l) {
        l.terms.erase(std::remove_if(l.terms.begin(), l.terms.end(),
                                     [](const auto& x) { return x.second == 0; }),
                      l.terms.end());
    }

    static Expr build(Linear l) {
        // Larger coefficients first, constants last (TVM's canonical order).
        auto key = [](const std::pair<Expr, std::int64_t>& t) {
            const std::int64_t c = t.second < 0 ? -t.second : t.second;
            return c == 1 ? coefficient(t.first) : c;
        };
        // Among equal scales TVM orders the pieces by lower factor, then by upper factor, both
        // descending (canonical_simplify's SplitExpr order): `i % 2 + i // 2 + j` is
        // `i // 2 + j + i % 2`. The order decides which pieces index inference meets first.
        auto upper = [](const Piece& p) {
            return p.extent == 0 ? std::numeric_limits<std::int64_t>::max() : p.lower * p.extent;
        };
        std::stable_sort(l.terms.begin(), l.terms.end(), [&](const auto& x, const auto& y) {
            if (key(x) != key(y)) return key(x) > key(y);
            const Piece px = pieceOf(x.first), py = pieceOf(y.first);
            if (px.lower != py.lower) return px.lower > py.lower;
            return upper(px) > upper(py);
        });
        Expr out;
        for (auto& [t, coef] : l.terms) {
            const std::int64_t mag = coef < 0 ? -coef : coef;
            Expr term = mag == 1 ? t : binary(Op::Mul, t, ts::constant(mag));
            if (!out)
                out = coef < 0 ? negate(term) : term;
            else
                out = binary(coef < 0 ? Op::Sub : Op::Add, out, term);
        }
        if (!out) return ts::constant(l.constant);
        if (l.constant > 0) out = binary(Op::Add, out, ts::constant(l.constant));
        if (l.constant < 0) out = binary(Op::Sub, out, ts::constant(-l.constant));
        return out;
    }

    // TVM's rewrite rule floormod(x + y * c1, c2) -> floormod(x + y * (c1 % c2), c2) reaches only
    // the last term of the sum (checked against its analyzer: `(j * 8 + i * 5) % 3` becomes
    // `(j * 8 + i * 2) % 3`), unless every term has the same coefficient, which then factors out.
    static void reduceLastCoefficient(Linear& l, std::int64_t c) {
        if (l.terms.empty() || l.constant != 0) return;
        bool same = true;
        for (const auto& t : l.terms)
            same = same && t.second == l.terms[0].second;
        if (same && l.terms[0].second > c) {
            for (auto& t : l.terms)
                t.second %= c;
            return;
        }
        auto last =
            std::min_element(l.terms.begin(), l.terms.end(),
                             [](const auto& x, const auto& y) { return x.second < y.second; });
        if (last->second > c) last->second %= c;
    }

    // H + L with every coefficient of H a multiple of g (g divides m) and L in [0, g): then
    // (H + L) % m == (H/g % (m/g)) * g + L and (H + L) // m == (H/g) // (m/g), the split TVM's
    // canonical simplifier makes.
    struct Parts {
        Linear hi, lo;
        std::int64_t g;
    };
    std::optional<Parts> splitAt(const Linear& l, std::int64_t m) {
        std::vector<std::int64_t> cands;
        for (const auto& t : l.terms)
            if (t.second > 1 && m % t.second == 0) cands.push_back(t.second);
        std::sort(cands.rbegin(), cands.rend());
        for (std::int64_t g : cands) {
            Parts p{{}, {}, g};
            p.lo.constant = l.constant;
            for (const auto& t : l.terms)
                (t.second % g == 0 ? p.hi : p.lo).terms.push_back(t);
            if (p.hi.terms.empty() || (p.lo.terms.empty() && p.lo.constant == 0) ||
                !within(build(p.lo), 0, g))
                continue;
            for (auto& t : p.hi.terms)
                t.second /= g;
            return p;
        }
        return std::nullopt;
    }

    // Not, Cast, Select, IfThenElse. A condition that is decided drops the branch not taken,
    // as TVM's simplification does when a layout is built (so a division by zero there never
    // runs, in TileLang either).
    Expr visitOther(const Expr& e) {
        std::int64_t c;
        Expr a = visit(e->a);
        switch (e->op) {
        case Op::Select:
        case Op::IfThenElse: {
            if (isConst(a, &c)) return visit(c != 0 ? e->b : e->c);
            Expr t = visit(e->b), f = visit(e->c);
            std::int64_t x, y;
            const bool ct = isConst(t, &x), cf = isConst(f, &y);
            if (isBoolean(e) && (ct || cf)) {
                // A truth-valued choice with a known branch (0 or 1) is a logical formula; kept
                // as a Select it would mix a truth value with a number, which TVM refuses.
                if (ct && cf) return x == y ? t : x ? a : unary(Op::Not, a);
                if (ct) return x ? binary(Op::Or, a, f) : binary(Op::And, unary(Op::Not, a), f);
                return y ? binary(Op::Or, unary(Op::Not, a), t) : binary(Op::And, a, t);
            }
            return withOperands(e, a, t, f);
        }
        case Op::Not:
            if (a->op == Op::Not && isBoolean(a->a)) return a->a;
            return withOperands(e, a);
        default:
            return withOperands(e, a);
        }
    }

    // Every rule keeps the type, so that the result prints as text with the same meaning: an
    // integer never becomes a bare truth value (it gets T.Cast), and a truth value whose parts
    // became numbers (`T.if_then_else(c, x < 2, 1)` once `y < 9` is decided) is compared with 0.
    Expr visit(const Expr& e) {
        Expr r = visitNode(e);
        if (!isBoolean(e) && isBoolean(r)) return unary(Op::Cast, r);
        if (isBoolean(e) && !isBoolean(r) && !isConst(r)) return binary(Op::Ne, r, constant(0));
        return r;
    }

    // A whole chain of `+`/`-` at once, as TVM's canonical form sees a sum: its leaves are
    // simplified, like terms combined, and the rules that look at the whole sum applied here
    // only (not to a part of a longer sum).
    Expr visitSum(const Expr& e) {
        std::vector<std::pair<Expr, bool>> leaves;
        flatten(e, false, leaves);
        Expr sum;
        for (auto& [t, neg] : leaves) {
            Expr v = visit(t);
            sum = !sum ? (neg ? negate(v) : v) : binary(neg ? Op::Sub : Op::Add, sum, v);
        }
        Linear l = linear(sum);
        // x % 2 + x // 2 is (x + 1) // 2, when the sum is exactly these two (k times each):
        // TVM's rewrite rule, which changes which pieces of x the thread map uses.
        if (l.terms.size() == 2 && l.constant == 0 && l.terms[0].second == l.terms[1].second) {
            for (int k = 0; k < 2; ++k) {
                const Expr& m = l.terms[k].first;
                const Expr& q = l.terms[1 - k].first;
                std::int64_t two1, two2;
                if (m->op == Op::FloorMod && q->op == Op::FloorDiv && isConst(m->b, &two1) &&
                    isConst(q->b, &two2) && two1 == 2 && two2 == 2 &&
                    structurallyEqual(m->a, q->a)) {
                    Linear out;
                    out.terms.emplace_back(floordiv(visit(binary(Op::Add, m->a, constant(1))), 2),
                                           l.terms[0].second);
                    return build(out);
                }
            }
        }
        return build(l);
    }

    Expr visitNode(const Expr& e) {
        if (e->op == Op::Const || e->op == Op::Var) return e;
        if (e->op == Op::Neg) return negate(visit(e->a));
        if (arity(e->op) != 2) return visitOther(e);
        if (e->op == Op::Add || e->op == Op::Sub) return visitSum(e);
        Expr a = visit(e->a), b = visit(e->b);
        std::int64_t c, d;
        switch (e->op) {
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
            // The whole range of `a` in one window [n*c, (n+1)*c): the quotient is n.
            if (auto r = range(a); r && floorDiv(r->lo, c) == floorDiv(r->hi, c))
                return ts::constant(floorDiv(r->lo, c));
            if (a->op == Op::FloorDiv && isConst(a->b, &d) && d > 0) return floordiv(a->a, c * d);
            if (a->op == Op::Mul && isConst(a->b, &d) && d % c == 0) return a->a * (d / c);
            if (a->op == Op::Add || a->op == Op::Sub) {
                // Terms whose coefficient is a multiple of c leave the division exactly.
                Linear l = linear(a), out, rest;
                rest.constant = l.constant;
                for (const auto& t : l.terms)
                    if (t.second % c == 0)
                        out.terms.emplace_back(t.first, t.second / c);
                    else
                        rest.terms.push_back(t);
                if (!out.terms.empty()) {
                    if (rest.constant % c == 0) {
                        out.constant = rest.constant / c;
                        rest.constant = 0;
                    }
                    return visit(binary(Op::Add, build(out), floordiv(build(rest), c)));
                }
                if (auto p = splitAt(l, c)) return visit(floordiv(build(p->hi), c / p->g));
            }
            return floordiv(a, c);
        }
        case Op::FloorMod: {
            if (!isConst(b, &c) || c <= 0) return floormod(a, b);
            if (c == 1) return ts::constant(0);
            if (within(a, 0, c)) return a;
            if (a->op != Op::Add && a->op != Op::Sub)
                if (auto r = range(a); r && floorDiv(r->lo, c) == floorDiv(r->hi, c))
                    return visit(binary(Op::Sub, a, ts::constant(floorDiv(r->lo, c) * c)));
            if (a->op == Op::FloorMod && isConst(a->b, &d) && d > 0 && d % c == 0)
                return floormod(a->a, c);
            if (a->op == Op::Mul && isConst(a->b, &d) && d % c == 0) return ts::constant(0);
            if (a->op == Op::Mul && isConst(a->b, &d) && d > c)
                return visit(floormod(a->a * (d % c), c));
            if (a->op == Op::Add || a->op == Op::Sub) {
                // (x*k*c + y) % c == y % c. TVM drops such terms but leaves other coefficients
                // as written (`(i * 8 + j) % 3` stays), which index inference depends on.
                Linear l = linear(a);
                for (auto& t : l.terms)
                    if (t.second % c == 0) t.second = 0;
                dropZeros(l);
                // The constant is reduced modulo c (`(i + 9) % 7` is `(i + 2) % 7` in TVM).
                if (!l.terms.empty()) l.constant = ((l.constant % c) + c) % c;
                reduceLastCoefficient(l, c);
                Expr r = build(l);
                if (within(r, 0, c)) return r;
                // The range of the sum in one window [n*c, (n+1)*c): the remainder is the sum
                // less n*c (TVM's bound-based rewrite).
                if (auto rr = range(r); rr && floorDiv(rr->lo, c) == floorDiv(rr->hi, c)) {
                    l.constant -= floorDiv(rr->lo, c) * c;
                    return build(l);
                }
                if (auto p = splitAt(l, c))
                    return visit(
                        binary(Op::Add, floormod(build(p->hi), c / p->g) * p->g, build(p->lo)));
                if (!structurallyEqual(r, a)) return floormod(r, c);
            }
            return floormod(a, c);
        }
        case Op::Min:
        case Op::Max: {
            if (structurallyEqual(a, b)) return a;
            auto ra = range(a), rb = range(b);
            if (ra && rb && ra->hi <= rb->lo) return e->op == Op::Min ? a : b;
            if (ra && rb && rb->hi <= ra->lo) return e->op == Op::Min ? b : a;
            return binary(e->op, a, b);
        }
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
        case Op::Eq:
        case Op::Ne:
            if (auto v = decide(e->op, a, b)) return ts::constant(*v);
            return withOperands(e, a, b);
        case Op::And:
        case Op::Or: {
            // A known operand decides the result (false and x, true or x) or drops out.
            const std::int64_t absorbing = e->op == Op::And ? 0 : 1;
            for (int k = 0; k < 2; ++k) {
                const Expr& known = k ? b : a;
                const Expr& other = k ? a : b;
                if (!isConst(known, &c)) continue;
                if ((c != 0) == (absorbing != 0)) return ts::constant(absorbing);
                if (isBoolean(other)) return other;
            }
            return withOperands(e, a, b);
        }
        default:
            return withOperands(e, a, b); // folds constant operands, as Python would
        }
    }

    const std::map<std::string, std::int64_t>& ext_;
};

} // namespace

Expr simplify(const Expr& e, const std::map<std::string, std::int64_t>& extents) {
    return Simplifier(extents).run(e);
}

} // namespace ts
