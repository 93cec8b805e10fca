// SPDX-License-Identifier: Apache-2.0
#include "tilescope/layout/layout.h"

#include "layout_eval.h"
#include "tilescope/lang/simplify.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/huge_pages.h"
#include "tilescope/support/limits.h"
#include "tilescope/support/simd_clones.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <sstream>
#include <unordered_map>

namespace ts {

using detail::forEachBatch;
using detail::unflatten;

std::int64_t cellCount(const Shape& s) {
    std::int64_t n = 1;
    for (std::int64_t e : s) {
        if (e <= 0) throw InputError("shape " + formatShape(s) + " has a non-positive extent");
        if (n > limits::kMaxCells / e)
            throw InputError("shape " + formatShape(s) + " has more than " +
                             std::to_string(limits::kMaxCells) + " cells (the limit)");
        n *= e;
    }
    return n;
}

void checkShape(const Shape& s, const char* what) {
    if (s.size() > limits::kMaxRank)
        throw InputError(std::string(what) + " has rank " + std::to_string(s.size()) +
                         "; at most " + std::to_string(limits::kMaxRank) + " dimensions");
    cellCount(s);
}

std::string formatShape(const Shape& s, bool tupleStyle) {
    std::ostringstream os;
    os << (tupleStyle ? '(' : '[');
    for (std::size_t k = 0; k < s.size(); ++k)
        os << (k ? ", " : "") << s[k];
    if (tupleStyle && s.size() == 1) os << ',';
    os << (tupleStyle ? ')' : ']');
    return os.str();
}

std::string Collision::describe() const {
    return "logical " + formatCell(first) + " and " + formatCell(second) + " both map to " +
           formatCell(target);
}

namespace {

void checkStored(std::int64_t cells, std::size_t perCell) {
    if (cells * static_cast<std::int64_t>(perCell) > limits::kMaxStoredValues)
        throw InputError("layout needs " + std::to_string(cells) + " cells x " +
                         std::to_string(perCell) + " values, over the limit of " +
                         std::to_string(limits::kMaxStoredValues));
}

// Throws for the first value of component k (of `width` per entry, `replicas` entries per input
// cell) that fails `bad`, naming the cell as the user writes it, never by its place in the table:
// "the thread of cell (0, 0) is -1".
template <class Bad>
void refuseValue(const std::vector<std::int64_t>& values, std::size_t width, std::size_t k,
                 std::int64_t replicas, const Shape& input, const std::string& name,
                 const std::string& why, Bad bad) {
    const std::size_t entries = width ? values.size() / width : 0;
    for (std::size_t e = 0; e < entries; ++e) {
        const std::int64_t v = values[e * width + k];
        if (!bad(v)) continue;
        const std::int64_t cell = std::int64_t(e) / replicas;
        std::string where = "cell " + formatCell(detail::unflatten(cell, input));
        if (replicas > 1) where += " (replica " + std::to_string(std::int64_t(e) % replicas) + ")";
        throw EvalError(name + " of " + where + " is " + std::to_string(v) + why);
    }
}

// "the output" of a 1-D result, "output 1" of a 2-D one (the same for a local index).
std::string componentName(const char* what, std::size_t k, std::size_t width) {
    return width == 1 ? std::string("the ") + what : std::string(what) + " " + std::to_string(k);
}

// Component k of `values` holds a negative value somewhere: throws for the first one.
void refuseNegative(const std::vector<std::int64_t>& values, std::size_t width, std::size_t k,
                    std::int64_t replicas, const Shape& input, const char* what) {
    refuseValue(values, width, k, replicas, input, componentName(what, k, width), "",
                [](std::int64_t v) { return v < 0; });
}

Shape extentsOf(const std::vector<std::int64_t>& values, std::size_t rank, const Shape& input,
                const char* what) {
    Shape ext(rank, 0);
    const std::size_t cells = rank ? values.size() / rank : 0;
    for (std::size_t k = 0; k < rank; ++k) {
        std::int64_t lo = 0, hi = -1;
        if (rank == 1) {
            for (std::int64_t v : values) {
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        } else {
            for (std::size_t c = 0; c < cells; ++c) {
                const std::int64_t v = values[c * rank + k];
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        }
        if (lo < 0) refuseNegative(values, rank, k, 1, input, what);
        ext[k] = hi + 1;
    }
    return ext;
}

// Widens [lo, hi] to cover v[0..n) (a contiguous batch: this loop vectorizes).
TS_CLONES void widen(const std::int64_t* v, std::size_t n, std::int64_t& lo, std::int64_t& hi) {
    std::int64_t a = lo, b = hi;
    for (std::size_t p = 0; p < n; ++p) {
        a = v[p] < a ? v[p] : a;
        b = v[p] > b ? v[p] : b;
    }
    lo = a;
    hi = b;
}

// dst[p * R + k] = outs[k][p]; a fixed R lets the compiler unroll the inner loop.
template <std::size_t R>
void interleave(std::int64_t* dst, const std::vector<const std::int64_t*>& outs, std::size_t n) {
    const std::int64_t* src[R];
    for (std::size_t k = 0; k < R; ++k)
        src[k] = outs[k];
    for (std::size_t p = 0; p < n; ++p)
        for (std::size_t k = 0; k < R; ++k)
            dst[p * R + k] = src[k][p];
}
void interleave(std::int64_t* dst, const std::vector<const std::int64_t*>& outs, std::size_t n) {
    const std::size_t R = outs.size();
    switch (R) {
    case 2:
        return interleave<2>(dst, outs, n);
    case 3:
        return interleave<3>(dst, outs, n);
    case 4:
        return interleave<4>(dst, outs, n);
    default:
        for (std::size_t k = 0; k < R; ++k)
            for (std::size_t p = 0; p < n; ++p)
                dst[p * R + k] = outs[k][p];
    }
}

// Finds two points with the same key; keys are linear indices below `space` when dense.
template <class KeyAt>
std::optional<std::pair<std::int64_t, std::int64_t>>
firstDuplicate(std::int64_t points, std::int64_t space, KeyAt keyAt) {
    if (space > 0 && space <= limits::kMaxStoredValues) {
        std::vector<std::int64_t> seen(static_cast<std::size_t>(space), -1);
        for (std::int64_t p = 0; p < points; ++p) {
            std::int64_t k = keyAt(p);
            if (seen[k] >= 0) return std::make_pair(seen[k], p);
            seen[k] = p;
        }
        return std::nullopt;
    }
    std::unordered_map<std::int64_t, std::int64_t> seen;
    for (std::int64_t p = 0; p < points; ++p) {
        auto [it, fresh] = seen.emplace(keyAt(p), p);
        if (!fresh) return std::make_pair(it->second, p);
    }
    return std::nullopt;
}

std::int64_t linearize(const std::int64_t* v, const Shape& ext) {
    std::int64_t r = 0;
    for (std::size_t k = 0; k < ext.size(); ++k)
        r = r * ext[k] + v[k];
    return r;
}

std::int64_t normDim(std::int64_t dim, std::size_t rank) {
    std::int64_t r = static_cast<std::int64_t>(rank);
    if (dim < -r || dim >= r)
        throw InputError("dim " + std::to_string(dim) + " is out of range for rank " +
                         std::to_string(rank));
    return dim < 0 ? dim + r : dim;
}

} // namespace

// ---------------------------------------------------------------- Layout

Layout::Layout(Shape inputShape, std::vector<Expr> forward)
    : input_(std::move(inputShape)), forward_(std::move(forward)) {
    checkShape(input_, "layout input shape");
    if (forward_.empty()) throw InputError("a layout needs at least one output expression");
    std::set<std::string> vars;
    for (const Expr& e : forward_)
        collectVars(e, vars);
    auto allowed = detail::placeholders(input_.size(), false);
    for (const auto& v : vars)
        if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
            throw InputError("layout expression uses '" + v + "', which is not an input variable");
    std::map<std::string, std::int64_t> ext;
    for (std::size_t k = 0; k < input_.size(); ++k)
        ext[placeholderName(k)] = input_[k];
    for (Expr& e : forward_)
        e = simplify(e, ext);
}

Layout Layout::tabulated(Shape inputShape, std::size_t outRank, std::vector<std::int64_t> values) {
    Layout l;
    l.input_ = std::move(inputShape);
    l.tableRank_ = outRank;
    l.table_ = std::make_shared<const std::vector<std::int64_t>>(std::move(values));
    return l;
}

std::size_t Layout::outputRank() const {
    return table_ ? tableRank_ : forward_.size();
}

LayoutTable Layout::evaluate() const {
    LayoutTable t;
    t.inputShape = input_;
    t.outRank = outputRank();
    const std::int64_t cells = cellCount(input_);
    checkStored(cells, t.outRank);
    if (table_) {
        t.out = *table_;
    } else {
        const std::size_t R = t.outRank;
        // Over ~1M cells the work is split across the cores; each chunk writes its own part of
        // the presized table and keeps its own extents.
        const std::size_t chunks = detail::parallelChunks(cells);
        detail::reserveHuge(t.out, static_cast<std::size_t>(cells) * R);
        // One output: values go straight into the table, which grows a batch at a time (the
        // zero-fill of a batch is in cache; a whole-table fill would be a second pass).
        auto place = [&](std::int64_t first, std::size_t n, std::vector<std::int64_t*>& o) {
            if (R != 1) return false;
            if (chunks == 1) t.out.resize(static_cast<std::size_t>(first) + n);
            o[0] = t.out.data() + first;
            return true;
        };
        if (R != 1 || chunks > 1) t.out.resize(static_cast<std::size_t>(cells) * R);
        // Extents are taken per output while each batch is contiguous and in cache (or come
        // free from the tabulated terms); a strided pass over the table afterwards cost more.
        std::vector<std::vector<std::int64_t>> clo(chunks, std::vector<std::int64_t>(R, 0)),
            chi(chunks, std::vector<std::int64_t>(R, -1));
        detail::Bounds bounds;
        detail::forEachBatchChunked(
            input_, forward_, 0, chunks,
            [&](std::size_t c, std::int64_t first, std::size_t n, const auto& outs) {
                if (bounds.empty())
                    for (std::size_t k = 0; k < R; ++k)
                        widen(outs[k], n, clo[c][k], chi[c][k]);
                if (R != 1) interleave(t.out.data() + first * std::int64_t(R), outs, n);
            },
            place, &bounds);
        std::vector<std::int64_t> lo(R, 0), hi(R, -1);
        for (std::size_t c = 0; c < chunks; ++c)
            for (std::size_t k = 0; k < R; ++k) {
                lo[k] = std::min(lo[k], clo[c][k]);
                hi[k] = std::max(hi[k], chi[c][k]);
            }
        for (std::size_t k = 0; k < bounds.size(); ++k) {
            lo[k] = std::min<std::int64_t>(0, bounds[k].first);
            hi[k] = std::max<std::int64_t>(-1, bounds[k].second);
        }
        const bool negative = std::any_of(lo.begin(), lo.end(), [](auto v) { return v < 0; });
        for (std::size_t k = 0; k < R; ++k) // throws, naming the first negative cell
            if (lo[k] < 0) refuseNegative(t.out, R, k, 1, input_, "output");
        t.outputShape.resize(R);
        for (std::size_t k = 0; k < R; ++k)
            t.outputShape[k] = hi[k] + 1;
        return t;
    }
    t.outputShape = extentsOf(t.out, t.outRank, input_, "output");
    return t;
}

Layout Layout::repeat(std::int64_t dim, std::int64_t factor) const {
    if (input_.empty()) throw InputError("cannot repeat a 0-dimensional layout");
    std::int64_t d = normDim(dim, input_.size());
    if (factor < 1) throw InputError("repeat factor must be >= 1, got " + std::to_string(factor));
    if (factor == 1) return *this;
    if (table_) throw InputError("repeat of a tabulated (inverted) layout is not supported");
    const std::int64_t S = input_[d];
    Shape shape = input_;
    shape[d] = S * factor;
    checkShape(shape, "repeated layout");
    Expr x = var(placeholderName(d));
    std::vector<Expr> fwd{floordiv(x, S)};
    for (const Expr& e : forward_)
        fwd.push_back(substitute(e, [&](const std::string& n) -> Expr {
            return n == x->name ? floormod(x, S) : nullptr;
        }));
    return Layout(shape, fwd);
}

Layout Layout::expand(const Shape& leading) const {
    if (leading.empty()) return *this;
    for (std::int64_t e : leading)
        if (e <= 0) throw InputError("expand extents must be positive, got " + std::to_string(e));
    if (table_) throw InputError("expand of a tabulated (inverted) layout is not supported");
    Shape shape = leading;
    shape.insert(shape.end(), input_.begin(), input_.end());
    checkShape(shape, "expanded layout");
    const std::size_t L = leading.size();
    std::vector<Expr> fwd;
    for (std::size_t k = 0; k < L; ++k)
        fwd.push_back(var(placeholderName(k)));
    for (const Expr& e : forward_)
        fwd.push_back(substitute(e, [&](const std::string& n) -> Expr {
            for (std::size_t k = 0; k < input_.size(); ++k)
                if (n == placeholderName(k)) return var(placeholderName(k + L));
            return nullptr;
        }));
    return Layout(shape, fwd);
}

std::optional<Collision> Layout::findCollision() const {
    // A table only when there is something to name (see streamed_injectivity.cpp).
    if (!table_ && detail::streamedInjective(input_, forward_, false) == true) return std::nullopt;
    LayoutTable t = evaluate();
    std::int64_t space = 1;
    for (std::int64_t e : t.outputShape)
        space = (space > limits::kMaxStoredValues / e) ? -1 : space * e;
    auto dup = firstDuplicate(t.cells(), space, [&](std::int64_t p) {
        return linearize(&t.out[p * t.outRank], t.outputShape);
    });
    if (!dup) return std::nullopt;
    Collision c;
    c.first = unflatten(dup->first, input_);
    c.second = unflatten(dup->second, input_);
    c.target.assign(t.out.begin() + dup->first * t.outRank,
                    t.out.begin() + (dup->first + 1) * t.outRank);
    return c;
}

std::optional<std::string> Layout::bijectivityProblem() const {
    if (!table_ && detail::streamedInjective(input_, forward_, true) == true) return std::nullopt;
    if (auto c = findCollision()) return "not injective: " + c->describe();
    LayoutTable t = evaluate();
    std::int64_t space = 1;
    for (std::int64_t e : t.outputShape)
        space *= e;
    if (space != t.cells()) {
        // Injective but with holes: name the first physical position nothing maps to.
        std::vector<char> hit(static_cast<std::size_t>(space), 0);
        for (std::int64_t p = 0; p < t.cells(); ++p)
            hit[linearize(&t.out[p * t.outRank], t.outputShape)] = 1;
        auto it = std::find(hit.begin(), hit.end(), 0);
        return "not onto its output shape " + formatShape(t.outputShape) + ": output " +
               formatCell(unflatten(it - hit.begin(), t.outputShape)) + " is never reached";
    }
    return std::nullopt;
}

Layout Layout::inverse() const {
    if (auto problem = bijectivityProblem())
        throw InputError("cannot invert: the layout is " + *problem);
    LayoutTable t = evaluate();
    const std::size_t rank = input_.size();
    std::vector<std::int64_t> values(static_cast<std::size_t>(t.cells()) * rank);
    for (std::int64_t p = 0; p < t.cells(); ++p) {
        std::int64_t q = linearize(&t.out[p * t.outRank], t.outputShape);
        auto c = unflatten(p, input_);
        std::copy(c.begin(), c.end(), values.begin() + q * static_cast<std::int64_t>(rank));
    }
    return tabulated(t.outputShape, rank, std::move(values));
}

// ---------------------------------------------------------------- Fragment

Fragment::Fragment(Shape inputShape, Expr thread, std::vector<Expr> index, std::int64_t replicate)
    : input_(std::move(inputShape)), thread_(std::move(thread)), index_(std::move(index)),
      replicate_(replicate) {
    checkShape(input_, "fragment input shape");
    if (replicate_ < 1 || replicate_ > limits::kMaxReplicate)
        throw InputError("replicate must be in 1.." + std::to_string(limits::kMaxReplicate) +
                         ", got " + std::to_string(replicate_));
    if (!thread_) throw InputError("a fragment needs a thread map");
    std::set<std::string> vars;
    collectVars(thread_, vars);
    auto allowed = detail::placeholders(input_.size(), true);
    auto check = [&](const std::set<std::string>& vs, const char* what) {
        for (const auto& v : vs)
            if (std::find(allowed.begin(), allowed.end(), v) == allowed.end())
                throw InputError(std::string(what) + " uses '" + v +
                                 "', which is not an input variable");
    };
    check(vars, "fragment thread map");
    if (index_.empty()) index_.push_back(inferFragmentIndex(input_, thread_, replicate_));
    std::set<std::string> ivars;
    for (const Expr& e : index_)
        collectVars(e, ivars);
    if (ivars.count(kRepVar))
        throw InputError("a fragment's index map must not depend on the replica variable");
    check(ivars, "fragment index map");
    std::map<std::string, std::int64_t> ext;
    for (std::size_t k = 0; k < input_.size(); ++k)
        ext[placeholderName(k)] = input_[k];
    ext[kRepVar] = replicate_;
    thread_ = simplify(thread_, ext);
    for (Expr& e : index_)
        e = simplify(e, ext);
}

Fragment Fragment::fullyReplicated(Shape inputShape, std::int64_t threads) {
    Fragment f(std::move(inputShape), var(kRepVar), {}, threads);
    f.range_ = std::make_pair(std::int64_t{0}, threads);
    return f;
}

Layout Layout::withNote(std::string note) const {
    Layout l = *this;
    l.notes_.push_back(std::move(note));
    return l;
}

Fragment Fragment::withNote(std::string note) const {
    Fragment f = *this;
    f.notes_.push_back(std::move(note));
    return f;
}

const std::vector<std::string>& mappingNotes(const Mapping& m) {
    return std::visit([](const auto& x) -> const std::vector<std::string>& { return x.notes(); },
                      m);
}

Fragment Fragment::withThreadRange(std::int64_t begin, std::int64_t end) const {
    Fragment f = *this;
    f.range_ = std::make_pair(begin, end);
    return f;
}

FragmentTable Fragment::evaluate() const {
    FragmentTable t;
    t.inputShape = input_;
    t.replicate = replicate_;
    t.localRank = index_.size();
    const std::int64_t cells = cellCount(input_);
    checkStored(cells, static_cast<std::size_t>(replicate_) + t.localRank);
    const std::size_t L = t.localRank;
    const std::int64_t R = replicate_;
    detail::reserveHuge(t.threads, static_cast<std::size_t>(cells * R));
    detail::reserveHuge(t.local, static_cast<std::size_t>(cells) * L);
    // Over ~1M cells the work is split across the cores: the tables are presized, each chunk
    // writes its own part and keeps its own extents.
    const std::size_t chunks = detail::parallelChunks(cells);
    const bool parallel = chunks > 1;
    if (R > 1 || parallel) t.threads.resize(static_cast<std::size_t>(cells * R));
    if (parallel) t.local.resize(static_cast<std::size_t>(cells) * L);
    // Replica 0 evaluates index and thread in one pass (shared subterms compile once); extents
    // are taken while each batch is still in cache.
    std::vector<Expr> first = index_;
    first.push_back(thread_);
    std::vector<std::vector<std::int64_t>> clo(chunks, std::vector<std::int64_t>(L + 1, 0)),
        chi(chunks, std::vector<std::int64_t>(L + 1, -1));
    // One index and no replicas: values go straight into the tables, grown a batch at a time.
    const bool direct = L == 1 && R == 1;
    auto place = [&](std::int64_t firstCell, std::size_t n, std::vector<std::int64_t*>& o) {
        if (!direct) return false;
        if (!parallel) {
            t.local.resize(static_cast<std::size_t>(firstCell) + n);
            t.threads.resize(static_cast<std::size_t>(firstCell) + n);
        }
        o[0] = t.local.data() + firstCell;
        o[1] = t.threads.data() + firstCell;
        return true;
    };
    detail::Bounds bounds;
    auto sink = [&](std::size_t c, std::int64_t firstCell, std::size_t n, const auto& outs) {
        if (bounds.empty())
            for (std::size_t k = 0; k <= L; ++k)
                widen(outs[k], n, clo[c][k], chi[c][k]);
        if (direct) return;
        if (parallel) {
            std::int64_t* loc = t.local.data() + firstCell * std::int64_t(L);
            for (std::size_t p = 0; p < n; ++p)
                for (std::size_t k = 0; k < L; ++k)
                    loc[p * L + k] = outs[k][p];
        } else if (L == 1) {
            t.local.insert(t.local.end(), outs[0], outs[0] + n);
        } else {
            for (std::size_t p = 0; p < n; ++p)
                for (std::size_t k = 0; k < L; ++k)
                    t.local.push_back(outs[k][p]);
        }
        if (R == 1 && !parallel) {
            t.threads.insert(t.threads.end(), outs[L], outs[L] + n);
        } else {
            std::int64_t* dst = t.threads.data() + firstCell * R;
            for (std::size_t p = 0; p < n; ++p)
                dst[static_cast<std::int64_t>(p) * R] = outs[L][p];
        }
    };
    detail::forEachBatchChunked(input_, first, 0, chunks, sink, place, &bounds);
    for (std::int64_t r = 1; r < R; ++r)
        detail::forEachBatchChunked(
            input_, {thread_}, r, chunks,
            [&](std::size_t c, std::int64_t firstCell, std::size_t n, const auto& outs) {
                widen(outs[0], n, clo[c][L], chi[c][L]);
                std::int64_t* dst = t.threads.data() + firstCell * R + r;
                for (std::size_t p = 0; p < n; ++p)
                    dst[static_cast<std::int64_t>(p) * R] = outs[0][p];
            });
    std::vector<std::int64_t> lo(L + 1, 0), hi(L + 1, -1);
    for (std::size_t c = 0; c < chunks; ++c)
        for (std::size_t k = 0; k <= L; ++k) {
            lo[k] = std::min(lo[k], clo[c][k]);
            hi[k] = std::max(hi[k], chi[c][k]);
        }
    for (std::size_t k = 0; k < bounds.size(); ++k) {
        lo[k] = std::min(lo[k], bounds[k].first);
        hi[k] = std::max(hi[k], bounds[k].second);
    }
    // Negative values are errors: find the first one for the message.
    if (lo[L] < 0) refuseNegative(t.threads, 1, 0, R, input_, "thread");
    for (std::size_t k = 0; k < L; ++k)
        if (lo[k] < 0) refuseNegative(t.local, L, k, 1, input_, "local index");
    t.threadExtent = hi[L] + 1;
    if (t.threadExtent > limits::kMaxThreadExtent) {
        // The cell that asks for so many threads, named, as for a negative one.
        const std::string why = ", over the limit of " + std::to_string(limits::kMaxThreadExtent) +
                                " threads (0 to " + std::to_string(limits::kMaxThreadExtent - 1) +
                                ")";
        refuseValue(t.threads, 1, 0, R, input_, "the thread", why,
                    [](std::int64_t v) { return v >= limits::kMaxThreadExtent; });
        throw InputError("thread extent " + std::to_string(t.threadExtent) + " exceeds the limit " +
                         std::to_string(limits::kMaxThreadExtent));
    }
    t.localShape.assign(hi.begin(), hi.begin() + static_cast<std::ptrdiff_t>(L));
    for (auto& e : t.localShape)
        ++e;
    return t;
}

Fragment Fragment::repeat(const Shape& repeats, bool repeatOnThread, bool lowerDimFirst) const {
    if (repeats.size() != input_.size())
        throw InputError("repeat needs " + std::to_string(input_.size()) +
                         " factors (one per dim), got " + std::to_string(repeats.size()));
    for (std::int64_t r : repeats)
        if (r < 1) throw InputError("repeat factors must be >= 1, got " + std::to_string(r));
    if (!repeatOnThread && index_.size() != 1)
        throw InputError("repeat on the index needs a single index expression");
    const FragmentTable t = evaluate();
    Shape shape(input_.size());
    for (std::size_t k = 0; k < shape.size(); ++k)
        shape[k] = input_[k] * repeats[k];
    checkShape(shape, "repeated fragment");

    auto wrap = [&](const Expr& e) {
        return substitute(e, [&](const std::string& n) -> Expr {
            for (std::size_t k = 0; k < input_.size(); ++k)
                if (n == placeholderName(k) && repeats[k] > 1) return floormod(var(n), input_[k]);
            return nullptr;
        });
    };
    // Group index of the repeated copy a cell falls in.
    Expr g = constant(0);
    std::int64_t stride = 1;
    auto addDim = [&](std::size_t k) {
        if (repeats[k] > 1) g = g + floordiv(var(placeholderName(k)), input_[k]) * stride;
        stride *= repeats[k];
    };
    if (lowerDimFirst)
        for (std::size_t k = input_.size(); k-- > 0;)
            addDim(k);
    else
        for (std::size_t k = 0; k < input_.size(); ++k)
            addDim(k);

    Expr thread = wrap(thread_);
    std::vector<Expr> index;
    for (const Expr& e : index_)
        index.push_back(wrap(e));
    if (repeatOnThread)
        thread = thread + g * t.threadExtent;
    else
        index[0] = index[0] + g * t.localShape[0];
    return Fragment(shape, thread, index, replicate_);
}

Fragment Fragment::replicateBy(std::int64_t n) const {
    if (n < 1) throw InputError("replicate factor must be >= 1, got " + std::to_string(n));
    const std::int64_t T = threadExtent();
    Expr rep = var(kRepVar);
    Expr inner = replicate_ == 1 ? constant(0) : floormod(rep, replicate_);
    Expr thread = substitute(
        thread_, [&](const std::string& v) -> Expr { return v == kRepVar ? inner : nullptr; });
    thread = thread + (replicate_ == 1 ? rep : floordiv(rep, replicate_)) * T;
    return Fragment(input_, thread, index_, replicate_ * n);
}

Layout Fragment::asLayout() const {
    // (x..., rep) -> (local..., thread); TileLang keeps the rep dimension even when R == 1.
    Shape shape = input_;
    shape.push_back(replicate_);
    Expr repVar = var(placeholderName(input_.size()));
    std::vector<Expr> fwd = index_;
    fwd.push_back(substitute(
        thread_, [&](const std::string& n) -> Expr { return n == kRepVar ? repVar : nullptr; }));
    return Layout(shape, fwd);
}

Layout Fragment::inverse() const {
    return asLayout().inverse();
}

std::optional<Collision> Fragment::findCollision() const {
    const FragmentTable t = evaluate();
    const std::int64_t R = replicate_;
    const std::size_t L = t.localRank;
    std::int64_t space = t.threadExtent;
    for (std::int64_t e : t.localShape)
        space = (space > limits::kMaxStoredValues / e) ? -1 : space * e;
    auto key = [&](std::int64_t p) {
        std::int64_t cell = p / R;
        std::int64_t k = t.threads[p];
        for (std::size_t d = 0; d < L; ++d)
            k = k * t.localShape[d] + t.local[cell * L + d];
        return k;
    };
    auto dup = firstDuplicate(t.cells() * R, space, key);
    if (!dup) return std::nullopt;
    Collision c;
    auto point = [&](std::int64_t p) {
        auto v = unflatten(p / R, input_);
        if (R > 1) v.push_back(p % R);
        return v;
    };
    c.first = point(dup->first);
    c.second = point(dup->second);
    c.target.push_back(t.threads[dup->first]);
    for (std::size_t d = 0; d < L; ++d)
        c.target.push_back(t.local[(dup->first / R) * L + d]);
    return c;
}

} // namespace ts
