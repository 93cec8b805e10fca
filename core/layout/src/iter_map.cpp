// SPDX-License-Identifier: Apache-2.0
// A port of the part of TVM's iterator-map rewriter that TileLang's fragment index inference uses
// (iter_affine_map.cc: IterMapRewriter at NoCheck level with trivial iterators simplified;
// TileLang utils.cc: IterMarkSplitCollector, get_unused_iters, DivideUnusedIterators,
// MakeFlattenedExpression). Names follow TVM's so the two can be read side by side.
//
// All extents here are constants (fragment shapes are), so a TVM "CanProve" over extents is an
// exact integer test; one over an opaque base goes through TVM's simplifier (tvmSimplify) and,
// where TVM falls back to Z3, is refused when the answer would matter (see divisible()). Where
// TVM would reason about a symbolic quantity (a scale multiplied by a non-constant expression, a
// non-constant divisor, a negative scale under `//`), this port throws an InputError that names
// the construct instead of guessing.
#include "iter_map.h"

#include "tilescope/lang/tvm_simplify.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

namespace ts::detail {

namespace {

struct Mark;
using MarkPtr = std::shared_ptr<const Mark>;

// (source // lower) % extent * scale
struct Split {
    MarkPtr source;
    std::int64_t lower = 1, extent = 1, scale = 1;
    bool symbolicScale = false; // scaled by a non-constant expression somewhere
};

struct Sum {
    std::vector<Split> args;
    Expr base = constant(0);
};

// An iterator: an input variable, a fused sum of splits, or (after a `//` TVM cannot fold into
// the source) a split of another mark.
struct Mark {
    int dim = -1;
    std::optional<Sum> sumSource;
    std::optional<Split> splitSource;
    std::int64_t extent = 1;
};

// What the rewriter returns for a sub-expression: not an iterator expression at all (a constant
// or something opaque), a single split, or a sum of splits plus a base.
struct Val {
    enum Kind { Plain, SplitK, SumK } kind = Plain;
    Expr plain;
    Split split;
    Sum sum;
    // Depends on a divisibility TVM leaves to Z3 (see Rewriter::divisible): were TVM to decide
    // it the other way, this value would differ.
    bool unsure = false;
    static Val ofPlain(Expr e) { return Val{Plain, std::move(e), {}, {}}; }
    static Val ofSplit(Split s) { return Val{SplitK, nullptr, std::move(s), {}}; }
    static Val ofSum(Sum s) { return Val{SumK, nullptr, {}, std::move(s)}; }
    bool isIter() const { return kind != Plain; }
    Val tainted(bool u) && {
        unsure = unsure || u;
        return std::move(*this);
    }
};

[[noreturn]] void unsupported(const std::string& what) {
    throw InputError("index inference: " + what +
                     " in the thread map is beyond what Tilescope reproduces of TileLang's "
                     "inference; give forward_index_fn explicitly");
}

std::int64_t floorDivInt(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool sameSplit(const Split& a, const Split& b) {
    return a.source == b.source && a.lower == b.lower && a.extent == b.extent &&
           a.scale == b.scale && a.symbolicScale == b.symbolicScale;
}

class Rewriter {
public:
    explicit Rewriter(const std::vector<std::int64_t>& extents) : extents_(extents) {
        for (std::size_t d = 0; d < extents.size(); ++d) {
            if (extents[d] == 1) {
                varMarks_.push_back(nullptr); // trivial: the constant 0
                continue;
            }
            auto m = std::make_shared<Mark>();
            m->dim = static_cast<int>(d);
            m->extent = extents[d];
            varMarks_.push_back(m);
        }
        for (std::size_t d = 0; d < extents.size(); ++d)
            names_[placeholderName(d)] = d;
    }

    const MarkPtr& varMark(std::size_t d) const { return varMarks_[d]; }

    // NormalizeToIterSum: rewrite, combine splits of one source, order by scale.
    Sum normalize(const Expr& e) {
        Val top = visit(e);
        // An undecidable divisibility that reaches the result (not one inside an operand of a
        // node TVM keeps opaque whatever it decides) makes the index uncertain.
        if (top.unsure) unsupported(unsure_);
        Sum s = toSum(top);
        if (s.args.empty()) return s;
        if (auto c = combineSameSource(s)) s = *c;
        std::stable_sort(s.args.begin(), s.args.end(), [](const Split& x, const Split& y) {
            std::int64_t cx = x.symbolicScale ? 1 : x.scale, cy = y.symbolicScale ? 1 : y.scale;
            if (cx != cy) return cx > cy;
            return x.symbolicScale > y.symbolicScale;
        });
        return s;
    }

    // The first sub-expression (innermost first) kept opaque although it uses an input
    // variable: where TVM's rewriter, above its NoCheck level, records an error ("IterMapExpr or
    // subclasses should only result from calls in IterMapRewriter", "Dividend ... can't be
    // written as a single fused IterSum", "Product of two iterators").
    const Expr& firstOpaque() const { return opaque_; }

    // DetectIterMap's levels above NoCheck (TileLang's Layout::Inverse asks for Bijective):
    // iterators fuse only with exactly matching scales.
    void requireExactFusion() { exactFusion_ = true; }

private:
    Expr opaque_;
    bool exactFusion_ = false;
    std::vector<std::int64_t> extents_;
    std::vector<MarkPtr> varMarks_;
    std::map<std::string, std::size_t> names_;
    struct Fused {
        std::vector<Split> flattened;
        MarkPtr mark;
    };
    std::vector<Fused> fuseCache_;
    bool pendingUnsure_ = false;
    std::string unsure_;

    static Sum toSum(const Val& v) {
        if (v.kind == Val::SumK) return v.sum;
        if (v.kind == Val::SplitK) return Sum{{v.split}, constant(0)};
        return Sum{{}, v.plain};
    }

    std::map<std::string, std::int64_t> extentMap() const {
        std::map<std::string, std::int64_t> m;
        for (std::size_t d = 0; d < extents_.size(); ++d)
            m[placeholderName(d)] = extents_[d];
        return m;
    }

    // CanProveDivisible(x, c) for the bases this rewriter carries: CanProveEqual(x, c) or
    // CanProve(x % c == 0). Where TVM's rules do not settle it, TileLang's TVM asks Z3 under a
    // resource limit (a base such as `(i % 3) << 2` or `j * j // 2` is divisible by 2 only by its
    // values, and Z3 proves the first but, after other queries, not always the second): a false
    // fact is never proved, a true one is refused by name (tvmCanProve says which).
    bool divisible(const Expr& x, std::int64_t c) {
        if (c == 0) return false;
        std::int64_t v;
        if (isConst(x, &v)) return v % c == 0;
        std::string unsureEqual, unsureMod;
        const auto ext = extentMap();
        if (tvmCanProve(binary(Op::Eq, binary(Op::Sub, x, constant(c)), constant(0)), ext,
                        &unsureEqual) ||
            tvmCanProve(binary(Op::Eq, binary(Op::FloorMod, x, constant(c)), constant(0)), ext,
                        &unsureMod))
            return true;
        if (!unsureEqual.empty() || !unsureMod.empty()) {
            pendingUnsure_ = true;
            unsure_ = !unsureEqual.empty() ? unsureEqual : unsureMod;
        }
        return false;
    }
    bool isZero(const Expr& x) {
        std::int64_t v;
        return isConst(x, &v) && v == 0;
    }
    Expr simplified(const Expr& x) { return tvmSimplify(x, extentMap()).expr; }

    Val visit(const Expr& e) {
        Val v = visitNode(e);
        if (!opaque_ && v.kind == Val::Plain && usesInput(v.plain)) opaque_ = e;
        return v;
    }

    bool usesInput(const Expr& e) const {
        std::set<std::string> vars;
        collectVars(e, vars);
        return std::any_of(vars.begin(), vars.end(),
                           [&](const std::string& v) { return names_.count(v) > 0; });
    }

    Val visitNode(const Expr& e) {
        std::int64_t c;
        switch (e->op) {
        case Op::Const:
            return Val::ofPlain(e);
        case Op::Var: {
            auto it = names_.find(e->name);
            if (it == names_.end()) return Val::ofSum(Sum{}); // the replica variable: range [0, 1)
            const MarkPtr& m = varMarks_[it->second];
            if (!m) return Val::ofSum(Sum{});
            return Val::ofSplit(Split{m, 1, m->extent, 1});
        }
        case Op::Add:
        case Op::Sub: {
            Val a = visit(e->a), b = visit(e->b);
            const bool u = a.unsure || b.unsure;
            return addSub(e, a, b, e->op == Op::Add ? 1 : -1).tainted(u);
        }
        case Op::Neg: {
            Val a = visit(e->a);
            const bool u = a.unsure;
            return mul(e, std::move(a), Val::ofPlain(constant(-1))).tainted(u);
        }
        case Op::Mul: {
            Val a = visit(e->a), b = visit(e->b);
            const bool u = a.unsure || b.unsure;
            return mul(e, std::move(a), std::move(b)).tainted(u);
        }
        case Op::FloorDiv:
        case Op::FloorMod: {
            Val a = visit(e->a), b = visit(e->b);
            const bool saved = pendingUnsure_;
            pendingUnsure_ = a.unsure || b.unsure;
            Val r = divMod(e, std::move(a), std::move(b));
            const bool u = pendingUnsure_;
            pendingUnsure_ = saved;
            return std::move(r).tainted(u);
        }
        default:
            // TVM's default mutator still rewrites the operands (fusions they form are cached
            // and shared with later ones), but the node itself is not an iterator expression.
            for (const Expr* operand : {&e->a, &e->b, &e->c})
                if (*operand) visit(*operand);
            return Val::ofPlain(e);
        }
    }

    // The `//` and `%` of the visitor, by a constant, as IterMapRewriter does them.
    Val divMod(const Expr& e, Val a, Val b) {
        std::int64_t c;
        const bool div = e->op == Op::FloorDiv;
        if (!a.isIter() && !b.isIter()) return Val::ofPlain(e);
        if (b.isIter()) return Val::ofPlain(e); // dividing by an iterator: unresolved
        if (!isConst(b.plain, &c)) unsupported("a '//' or '%' by a non-constant");
        if (c == 0) throw InputError("index inference: division by zero in the thread map");
        if (c == 1) return div ? a : Val::ofPlain(constant(0));
        if (c < 0) unsupported("a '//' or '%' by a negative constant");
        // A variable subtracted under `//` or `%`: TVM's rewriter then builds splits of
        // negative scale and extent (TileLang prints indices such as `_i // -21 * 3`), which
        // this port does not reproduce.
        if (negativeScale(a))
            unsupported("a variable subtracted (a negative scale) under '//' or '%'");
        std::optional<Sum> pre = preprocessDividend(a);
        if (!pre) return Val::ofPlain(e);
        std::optional<Val> r = div ? splitFloorDivConst(pre->args[0], pre->base, c)
                                   : splitFloorModConst(pre->args[0], pre->base, c);
        return r ? *r : Val::ofPlain(e);
    }

    static bool negativeScale(const Val& v) {
        if (v.kind == Val::SplitK) return !v.split.symbolicScale && v.split.scale < 0;
        if (v.kind != Val::SumK) return false;
        for (const Split& s : v.sum.args)
            if (!s.symbolicScale && s.scale < 0) return true;
        return false;
    }

    static void addToLhs(Sum& lhs, Split rhs, int sign) {
        for (Split& l : lhs.args) {
            if (l.source == rhs.source && l.lower == rhs.lower && l.extent == rhs.extent) {
                rhs.symbolicScale = rhs.symbolicScale || l.symbolicScale;
                rhs.scale = sign > 0 ? l.scale + rhs.scale : l.scale - rhs.scale;
                l = rhs;
                return;
            }
        }
        if (sign < 0) rhs.scale = -rhs.scale;
        lhs.args.push_back(rhs);
    }

    Val addSub(const Expr& e, const Val& a, const Val& b, int sign) {
        std::int64_t ca, cb;
        const bool aConst = !a.isIter() && isConst(a.plain, &ca);
        const bool bConst = !b.isIter() && isConst(b.plain, &cb);
        if (aConst && bConst) return Val::ofPlain(constant(sign > 0 ? ca + cb : ca - cb));
        if (sign > 0 && aConst && ca == 0) return b;
        if (bConst && cb == 0) return a;
        if (!a.isIter() && !b.isIter()) return Val::ofPlain(e);
        Sum ret = toSum(a);
        if (!b.isIter()) {
            ret.base = sign > 0 ? ret.base + b.plain : ret.base - b.plain;
        } else {
            Sum rb = toSum(b);
            for (const Split& s : rb.args)
                addToLhs(ret, s, sign);
            ret.base = sign > 0 ? ret.base + rb.base : ret.base - rb.base;
        }
        return Val::ofSum(std::move(ret));
    }

    Val mul(const Expr& e, Val a, Val b) {
        std::int64_t ca, cb;
        const bool aConst = !a.isIter() && isConst(a.plain, &ca);
        const bool bConst = !b.isIter() && isConst(b.plain, &cb);
        if (aConst && bConst) return Val::ofPlain(constant(ca * cb));
        if (aConst && ca == 1) return b;
        if (aConst && ca == 0) return a;
        if (bConst && cb == 1) return a;
        if (bConst && cb == 0) return b;
        if (!a.isIter() && !b.isIter()) return Val::ofPlain(e);
        if (a.isIter() && b.isIter()) return Val::ofPlain(e); // product of two iterators
        if (!a.isIter()) std::swap(a, b);
        std::int64_t factor = 1;
        const bool symbolic = !isConst(b.plain, &factor);
        auto scaleBy = [&](Split& s) {
            if (symbolic)
                s.symbolicScale = true;
            else
                s.scale *= factor;
        };
        if (a.kind == Val::SumK) {
            for (Split& s : a.sum.args)
                scaleBy(s);
            a.sum.base = a.sum.base * b.plain;
            return a;
        }
        scaleBy(a.split);
        return a;
    }

    std::optional<Sum> preprocessDividend(const Val& a) {
        if (a.kind == Val::SplitK) return Sum{{a.split}, constant(0)};
        const Sum& s = a.sum;
        if (s.args.empty()) return std::nullopt;
        if (s.args.size() == 1) return s;
        std::optional<Sum> fused = tryFuseIters(s, true);
        if (!fused || fused->args.size() != 1) return std::nullopt;
        return fused;
    }

    Val splitOrSum(const Split& s, const Expr& base) {
        if (isZero(base)) return Val::ofSplit(s);
        return Val::ofSum(Sum{{s}, base});
    }

    std::optional<Val> splitFloorDivConst(Split lhs, Expr base, std::int64_t rhs) {
        if (lhs.symbolicScale) unsupported("a '//' of a term scaled by a non-constant");
        if (lhs.scale != 1) {
            const std::int64_t s = lhs.scale;
            if (s % rhs == 0 && isZero(base)) {
                lhs.scale = floorDivInt(s, rhs);
                return Val::ofSplit(lhs);
            } else if (s % rhs == 0 && divisible(base, rhs)) {
                lhs.scale = floorDivInt(s, rhs);
                return Val::ofSum(Sum{{lhs}, simplified(floordiv(base, rhs))});
            } else if (s != 0 && rhs % s == 0 && isZero(base)) {
                rhs = floorDivInt(rhs, s);
                lhs.scale = 1;
            } else if (s != 0 && rhs % s == 0 && divisible(base, s)) {
                base = simplified(floordiv(base, s));
                rhs = floorDivInt(rhs, s);
                lhs.scale = 1;
            } else {
                return std::nullopt;
            }
            if (rhs <= 0) unsupported("a negative scale under '//'");
            if (rhs == 1) return splitOrSum(lhs, base);
        }
        const Expr leftPad = simplified(floormod(base, rhs));
        Split out;
        if (lhs.extent % rhs == 0) {
            out = Split{lhs.source, lhs.lower * rhs, lhs.extent / rhs, lhs.scale};
        } else if (lhs.lower == 1 && lhs.extent == lhs.source->extent) {
            out = Split{lhs.source, rhs, (lhs.extent + rhs - 1) / rhs, lhs.scale};
        } else {
            auto m = std::make_shared<Mark>();
            m->splitSource = lhs;
            m->extent = lhs.extent;
            out = Split{m, rhs, (lhs.extent + rhs - 1) / rhs, 1};
        }
        return splitOrSum(out, simplified(floordiv(base - leftPad, rhs)));
    }

    std::optional<Val> splitFloorModConst(Split lhs, Expr base, std::int64_t rhs) {
        if (lhs.symbolicScale) unsupported("a '%' of a term scaled by a non-constant");
        if (lhs.scale != 1) {
            const std::int64_t s = lhs.scale;
            if (s % rhs == 0 && divisible(base, rhs)) return Val::ofPlain(constant(0));
            if (s != 0 && rhs % s == 0 && isZero(base))
                rhs = floorDivInt(rhs, s);
            else if (s != 0 && rhs % s == 0 && divisible(base, s))
                rhs = floorDivInt(rhs, s);
            else
                return std::nullopt;
            if (rhs <= 0) unsupported("a negative scale under '%'");
        }
        // (x // lower % extent) % rhs is x // lower % rhs only when rhs divides extent or the
        // split reaches the top of its source; TileLang's TVM leaves anything else unresolved
        // (checked against its arith.NormalizeToIterSum: `i % 4 % 3` stays opaque).
        if (lhs.extent % rhs != 0 && lhs.lower * lhs.extent < lhs.source->extent)
            return std::nullopt;
        return Val::ofSplit(Split{lhs.source, lhs.lower, rhs, lhs.scale});
    }

    // FindBaseIter: the smallest constant scale, preferring unit extents on ties.
    static int findBaseIter(const Sum& e, const std::vector<bool>& skip, const Mark* source,
                            int rbegin) {
        int base = -1;
        for (int i = rbegin; i >= 0; --i) {
            const Split& s = e.args[i];
            if (skip[i] || (source && s.source.get() != source) || s.symbolicScale) continue;
            if (base == -1 || s.scale < e.args[base].scale)
                base = i;
            else if (s.scale == e.args[base].scale && s.extent == 1 && e.args[base].extent != 1)
                base = i;
        }
        return base;
    }

    static int firstUnitExtent(const Sum& e) {
        for (std::size_t i = 0; i < e.args.size(); ++i)
            if (e.args[i].extent == 1) return static_cast<int>(i);
        return static_cast<int>(e.args.size());
    }

    static int findIterWithExactScale(const Sum& e, const std::vector<bool>& skip,
                                      std::int64_t expected, const Mark* source, int rbegin,
                                      int firstUnit) {
        int matched = -1;
        for (int j = rbegin; j >= 0; --j) {
            const Split& s = e.args[j];
            if (skip[j] || (source && s.source.get() != source)) continue;
            if (!s.symbolicScale && s.scale == expected) {
                if (s.extent == 1) return j;
                if (matched == -1) matched = j;
                if (j <= firstUnit) return matched;
            }
        }
        return matched;
    }

    static int findIterSmallerClosestToScale(const Sum& e, const std::vector<bool>& skip,
                                             std::int64_t expected, std::int64_t* matchedScale) {
        int matched = -1;
        for (int j = static_cast<int>(e.args.size()) - 1; j >= 0; --j) {
            const Split& s = e.args[j];
            if (skip[j] || s.symbolicScale) continue;
            if (expected - s.scale >= 0 && s.scale >= 0 &&
                (matched == -1 || *matchedScale - s.scale < 0)) {
                matched = j;
                *matchedScale = s.scale;
            }
        }
        return matched;
    }

    // TryCombineSplitFromSameSource: ((x // (c*s)) % m) * s*t + ((x // c) % s) * t
    // becomes (x // c) % (m*s) * t.
    std::optional<Sum> combineSameSource(const Sum& e) {
        if (e.args.size() <= 1) return std::nullopt;
        std::map<const Mark*, int> hits;
        bool overlap = false;
        for (const Split& s : e.args)
            overlap |= ++hits[s.source.get()] > 1;
        if (!overlap) return std::nullopt;
        for (const Split& s : e.args)
            if (hits[s.source.get()] > 1 && s.symbolicScale)
                unsupported("a non-constant scale on a variable used more than once");
        std::vector<bool> visited(e.args.size(), false);
        std::vector<Split> reversed;
        const int firstUnit = firstUnitExtent(e);
        for (int rend = static_cast<int>(e.args.size()) - 1; rend >= 0;) {
            if (visited[rend]) {
                --rend;
                continue;
            }
            if (hits[e.args[rend].source.get()] == 1) {
                reversed.push_back(e.args[rend]);
                visited[rend] = true;
                --rend;
                continue;
            }
            int m = findBaseIter(e, visited, e.args[rend].source.get(), rend);
            if (m == -1) unsupported("a variable whose pieces TVM cannot order");
            visited[m] = true;
            Split rhs = e.args[m];
            while (true) {
                const std::int64_t lhsScale = rhs.extent * rhs.scale;
                m = findIterWithExactScale(e, visited, lhsScale, rhs.source.get(), rend, firstUnit);
                if (m == -1) break;
                const Split& lhs = e.args[m];
                if (lhs.lower != rhs.lower * rhs.extent) break;
                visited[m] = true;
                rhs.extent = lhs.extent * rhs.extent;
            }
            reversed.push_back(rhs);
        }
        Sum out;
        out.args.assign(reversed.rbegin(), reversed.rend());
        out.base = e.base;
        return out;
    }

    // TryFuseIters at NoCheck level without predicates: x1*c1 + ... + xn*cn becomes one mark.
    std::optional<Sum> tryFuseIters(Sum e, bool allowEarlySkip) {
        if (auto c = combineSameSource(e)) {
            e = *c;
            if (e.args.size() <= 1 && allowEarlySkip) return e;
        }
        for (const Split& s : e.args)
            if (s.symbolicScale) unsupported("a sum with a non-constant scale under '//' or '%'");
        std::vector<bool> visited(e.args.size(), false);
        const int baseIndex =
            findBaseIter(e, visited, nullptr, static_cast<int>(e.args.size()) - 1);
        if (baseIndex == -1) return std::nullopt;
        const std::int64_t baseScale = e.args[baseIndex].scale;
        if (baseScale <= 0) unsupported("a negative or zero scale inside a '//' or '%'");
        std::int64_t tailExtent = 0, expected = baseScale;
        const int firstUnit = firstUnitExtent(e);
        std::vector<Split> flattened;
        for (std::size_t i = 0; i < e.args.size(); ++i) {
            std::int64_t matchedScale = 0;
            bool exact = false;
            int pos = i == 0
                          ? baseIndex
                          : findIterWithExactScale(e, visited, expected, nullptr,
                                                   static_cast<int>(e.args.size()) - 1, firstUnit);
            if (pos != -1) {
                matchedScale = expected;
                exact = true;
            } else if (baseScale == 1 && !exactFusion_) {
                // Fusing with a gap (a tail extent) is what TVM allows at its NoCheck level
                // only; above it a dividend that needs it is an error.
                pos = findIterSmallerClosestToScale(e, visited, expected, &matchedScale);
            }
            if (pos == -1) return std::nullopt;
            visited[pos] = true;
            Split arg = e.args[pos];
            arg.scale = floorDivInt(arg.scale, baseScale);
            flattened.push_back(arg);
            if (!exact) tailExtent += expected - matchedScale;
            expected = e.args[pos].extent * matchedScale;
        }
        std::reverse(flattened.begin(), flattened.end());
        for (const Fused& f : fuseCache_) {
            if (f.flattened.size() != flattened.size()) continue;
            bool same = true;
            for (std::size_t k = 0; k < flattened.size() && same; ++k)
                same = sameSplit(f.flattened[k], flattened[k]);
            if (same) return Sum{{Split{f.mark, 1, f.mark->extent, baseScale}}, e.base};
        }
        auto mark = std::make_shared<Mark>();
        mark->sumSource = Sum{flattened, constant(0)};
        mark->extent = expected / baseScale + tailExtent;
        fuseCache_.push_back({flattened, mark});
        return Sum{{Split{mark, 1, mark->extent, baseScale}}, e.base};
    }
};

// IterMarkSplitCollector: every mark reached from the top-level sum, with the splits taken of it.
struct Collector {
    std::vector<MarkPtr> order;
    std::map<const Mark*, std::vector<Split>> splits;

    void collect(const Sum& top) {
        for (const Split& s : top.args) {
            internal(s.source);
            splits[s.source.get()].push_back(s);
        }
    }
    void internal(const MarkPtr& m) {
        if (splits.count(m.get())) return;
        splits[m.get()];
        order.push_back(m);
        if (m->sumSource)
            for (const Split& s : m->sumSource->args) {
                internal(s.source);
                splits[s.source.get()].push_back(s);
            }
    }
};

// get_unused_iters: the pieces of `mark` that none of `used` covers, lowest first.
std::vector<Split> unusedPieces(const MarkPtr& mark, const std::vector<Split>& used) {
    std::int64_t expected = 1;
    std::vector<bool> taken(used.size(), false);
    std::vector<Split> out;
    for (std::size_t i = 0; i < used.size();) {
        std::size_t j = 0, lowest = used.size();
        for (; j < used.size(); ++j) {
            if (taken[j]) continue;
            if (used[j].lower == expected) break;
            if (lowest == used.size() ||
                (used[j].lower != 0 && used[lowest].lower % used[j].lower == 0))
                lowest = j;
        }
        if (j == used.size()) {
            if (lowest == used.size() || used[lowest].lower % expected != 0)
                throw InputError("the register index of this thread map cannot be inferred, as in "
                                 "TileLang (Cannot prove divisible for " +
                                 std::to_string(lowest == used.size() ? 0 : used[lowest].lower) +
                                 " and " + std::to_string(expected) + "); give forward_index_fn");
            out.push_back(Split{mark, expected, used[lowest].lower / expected, 1});
            expected = used[lowest].lower;
        } else {
            taken[j] = true;
            ++i;
            expected = used[j].lower * used[j].extent;
        }
    }
    if (expected < mark->extent) out.push_back(Split{mark, expected, mark->extent / expected, 1});
    return out;
}

Expr markExpr(const Mark& m);

Expr splitExpr(const Split& s) {
    Expr src = markExpr(*s.source);
    const std::int64_t ext = s.source->extent;
    if (s.extent == ext && s.lower == 1) return src * s.scale;
    if (ext == s.lower * s.extent) {
        if (s.extent == 1 && ext != 1) return constant(0);
        return floordiv(src, s.lower) * s.scale;
    }
    return floordiv(floormod(src, s.lower * s.extent), s.lower) * s.scale;
}

Expr markExpr(const Mark& m) {
    if (m.dim >= 0) return var(placeholderName(static_cast<std::size_t>(m.dim)));
    if (m.splitSource) return splitExpr(*m.splitSource);
    Expr e = constant(0);
    for (const Split& s : m.sumSource->args)
        e = e + splitExpr(s);
    return e + m.sumSource->base;
}

} // namespace

std::optional<Expr> iterMapOpaquePart(const std::vector<Expr>& outputs,
                                      const std::vector<std::int64_t>& extents) {
    Rewriter rw(extents);
    rw.requireExactFusion();
    for (const Expr& e : outputs) {
        try {
            rw.normalize(e);
        } catch (const InputError&) {
            return e; // a construct this port does not model: not shown to be representable
        }
        if (rw.firstOpaque()) return rw.firstOpaque();
    }
    return std::nullopt;
}

Expr inferIndexLikeTileLang(const Expr& thread, const std::vector<std::int64_t>& extents) {
    Rewriter rw(extents);
    Sum sum = rw.normalize(thread);
    Collector col;
    col.collect(sum);
    // Input variables first, in dimension order, then the fused marks in the order reached.
    std::vector<MarkPtr> order;
    for (std::size_t d = 0; d < extents.size(); ++d)
        if (rw.varMark(d)) order.push_back(rw.varMark(d));
    for (const MarkPtr& m : col.order)
        if (m->dim < 0) order.push_back(m);
    std::vector<Split> pieces;
    int contributing = 0;
    for (const MarkPtr& m : order) {
        auto it = col.splits.find(m.get());
        std::vector<Split> unused =
            unusedPieces(m, it == col.splits.end() ? std::vector<Split>{} : it->second);
        if (m->dim < 0 && !unused.empty()) ++contributing;
        pieces.insert(pieces.end(), unused.rbegin(), unused.rend());
    }
    // TileLang orders the marks that are not input variables as it iterates an unordered_set
    // keyed by their addresses (utils.cc IterMarkSplitCollector::visited_, ObjectPtrHash): with
    // unused pieces from two or more such marks, which comes first in the index is not something
    // the thread map decides.
    if (contributing >= 2)
        unsupported("unused pieces of two fused or split iterators, whose order TileLang takes "
                    "from a set hashed by memory address,");
    // MakeFlattenedExpression: the first piece is the most significant.
    Expr index = constant(0);
    std::int64_t scale = 1;
    for (auto it = pieces.rbegin(); it != pieces.rend(); ++it) {
        Split s = *it;
        s.scale = scale;
        index = splitExpr(s) + index;
        scale *= s.extent;
    }
    return index;
}

} // namespace ts::detail
