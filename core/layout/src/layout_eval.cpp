// SPDX-License-Identifier: Apache-2.0
#include "layout_eval.h"

#include "tilescope/support/cores.h"

#include "tilescope/support/simd_clones.h"

#include "tilescope/lang/expr_eval.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif

namespace ts::detail {

std::vector<std::string> placeholders(std::size_t rank, bool withRep) {
    std::vector<std::string> v;
    for (std::size_t k = 0; k < rank; ++k)
        v.push_back(placeholderName(k));
    if (withRep) v.push_back(kRepVar);
    return v;
}

std::vector<std::int64_t> unflatten(std::int64_t flat, const Shape& shape) {
    std::vector<std::int64_t> c(shape.size());
    for (std::size_t k = shape.size(); k-- > 0;) {
        c[k] = flat % shape[k];
        flat /= shape[k];
    }
    return c;
}

namespace {

struct Term {
    Expr e;
    bool negated;
};

void flattenSum(const Expr& e, bool negated, std::vector<Term>& out) {
    if (e->op == Op::Add || e->op == Op::Sub) {
        flattenSum(e->a, negated, out);
        flattenSum(e->b, e->op == Op::Sub ? !negated : negated, out);
    } else if (e->op == Op::Neg) {
        flattenSum(e->a, !negated, out);
    } else {
        out.push_back({e, negated});
    }
}

void addTerm(Expr& acc, const Term& t) {
    if (!acc)
        acc = t.negated ? negate(t.e) : t.e;
    else
        acc = binary(t.negated ? Op::Sub : Op::Add, acc, t.e);
}

// Expressions split into one sum of terms per coordinate plus the terms that mix coordinates.
// Integer addition wraps the same in any order, so the parts add up to exactly the original.
struct Separated {
    std::vector<std::vector<Expr>> perDim; // [dim][output], null: no terms in that dim
    std::vector<Expr> mixed;               // [output], null: none
    bool useful = false;                   // some output has a one-coordinate term
    bool anyMixed = false;
};

Separated separate(const std::vector<Expr>& exprs, std::size_t rank, std::int64_t rep) {
    Separated s;
    s.perDim.assign(rank, std::vector<Expr>(exprs.size()));
    s.mixed.resize(exprs.size());
    const Expr repValue = constant(rep);
    std::vector<Term> terms;
    for (std::size_t o = 0; o < exprs.size(); ++o) {
        const Expr e = substitute(
            exprs[o], [&](const std::string& n) { return n == kRepVar ? repValue : nullptr; });
        terms.clear();
        flattenSum(e, false, terms);
        for (const Term& t : terms) {
            std::set<std::string> vars;
            collectVars(t.e, vars);
            std::optional<std::size_t> dim;
            if (vars.empty()) dim = rank - 1; // constants ride with the last coordinate
            if (vars.size() == 1)
                for (std::size_t k = 0; k < rank; ++k)
                    if (*vars.begin() == placeholderName(k)) dim = k;
            if (dim) {
                addTerm(s.perDim[*dim][o], t);
                s.useful = s.useful || !vars.empty();
            } else {
                addTerm(s.mixed[o], t);
                s.anyMixed = true;
            }
        }
    }
    return s;
}

std::vector<Expr> orZero(const std::vector<Expr>& v) {
    std::vector<Expr> r = v;
    for (Expr& e : r)
        if (!e) e = constant(0);
    return r;
}

// tables[o * extent + x] = perDim[o] at coordinate x; false when some value fails (the caller
// then takes the plain path, which names the first failing cell).
bool tabulate(const std::vector<Expr>& perDim, std::size_t dim, std::int64_t extent,
              std::vector<std::int64_t>& table) {
    Program prog(orZero(perDim), {placeholderName(dim)}, {extent});
    const std::size_t outs = perDim.size();
    table.assign(outs * static_cast<std::size_t>(extent), 0);
    std::vector<std::int64_t> x(Program::kBatch);
    std::vector<std::int64_t*> outPtr(outs);
    for (std::int64_t first = 0; first < extent; first += std::int64_t(Program::kBatch)) {
        const auto n = static_cast<std::size_t>(
            std::min<std::int64_t>(std::int64_t(Program::kBatch), extent - first));
        for (std::size_t p = 0; p < n; ++p)
            x[p] = first + static_cast<std::int64_t>(p);
        for (std::size_t o = 0; o < outs; ++o)
            outPtr[o] = table.data() + o * static_cast<std::size_t>(extent) + first;
        const std::int64_t* in = x.data();
        std::size_t bad = 0;
        std::string msg;
        if (!prog.run({&in, 1}, outPtr, n, bad, msg)) return false;
    }
    return true;
}

// The sum of per-coordinate tables over the full product of coordinates takes every combination,
// so its extremes are the sums of each table's extremes (exact while they fit in 64 bits).
void boundsOfSum(const std::vector<std::vector<std::int64_t>>& tables, const Shape& shape,
                 std::size_t outs, Bounds& bounds) {
    bounds.clear();
    for (std::size_t o = 0; o < outs; ++o) {
        __int128 lo = 0, hi = 0;
        for (std::size_t k = 0; k < shape.size(); ++k) {
            const auto e = static_cast<std::size_t>(shape[k]);
            const auto [mn, mx] =
                std::minmax_element(tables[k].begin() + std::ptrdiff_t(o * e),
                                    tables[k].begin() + std::ptrdiff_t(o * e + e));
            lo += *mn;
            hi += *mx;
        }
        if (lo < std::numeric_limits<std::int64_t>::min() ||
            hi > std::numeric_limits<std::int64_t>::max()) {
            bounds.clear();
            return;
        }
        bounds.emplace_back(static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi));
    }
}

// d[q] (+)= base + row[q] with wrapping adds; restrict lets the loop vectorize.
TS_CLONES void addSpan(std::int64_t* __restrict d, const std::int64_t* __restrict row,
                       std::uint64_t base, std::size_t n, bool accumulate) {
    if (accumulate)
        for (std::size_t q = 0; q < n; ++q)
            d[q] = static_cast<std::int64_t>(static_cast<std::uint64_t>(d[q]) + base +
                                             static_cast<std::uint64_t>(row[q]));
    else
        for (std::size_t q = 0; q < n; ++q)
            d[q] = static_cast<std::int64_t>(base + static_cast<std::uint64_t>(row[q]));
}

} // namespace

std::size_t parallelChunks(std::int64_t cells) {
    // Below ~1M cells a thread's start-up and the split cost more than the work saves.
    if (cells < kParallelCells) return 1;
    const std::int64_t hw = std::int64_t(usableCores());
    return static_cast<std::size_t>(
        std::min<std::int64_t>(hw, (cells + kParallelCells / 2 - 1) / (kParallelCells / 2)));
}

void forEachBatch(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep,
                  const BatchSink& sink, const BatchPlace& place, Bounds* bounds) {
    forEachBatchChunked(
        shape, exprs, rep, 1,
        [&](std::size_t, std::int64_t first, std::size_t n, const auto& outs) {
            sink(first, n, outs);
        },
        place, bounds);
}

namespace {

// The expressions split into per-coordinate tables and the terms left for each cell.
struct Tabulated {
    Separated sep;
    std::vector<std::vector<std::int64_t>> tables; // [dim][output * extent + x]
    bool split = false;
    bool perCell = true;
};

Tabulated tabulateTerms(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep) {
    const std::size_t rank = shape.size();
    Tabulated t;
    t.tables.resize(rank);
    if (rank >= 2) t.sep = separate(exprs, rank, rep);
    t.split = t.sep.useful;
    for (std::size_t k = 0; k < rank && t.split; ++k)
        t.split = tabulate(t.sep.perDim[k], k, shape[k], t.tables[k]);
    t.perCell = !t.split || t.sep.anyMixed;
    return t;
}

} // namespace

Bounds tabulatedBounds(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep) {
    Bounds bounds;
    const Tabulated t = tabulateTerms(shape, exprs, rep);
    if (!t.perCell && cellCount(shape) > 0) boundsOfSum(t.tables, shape, exprs.size(), bounds);
    return bounds;
}

namespace {

// The shape without its extent-1 dimensions and the expressions over what is left (those
// coordinates are 0), when there are some to drop; nullopt otherwise. Row-major cell order is
// the same with or without them, but the batch loops run along the last dimension, so a
// trailing extent of 1 (a fragment seen as a layout over (i, j, rep) with one replica) would
// turn every cell into a batch span of its own.
std::optional<std::pair<Shape, std::vector<Expr>>> withoutUnitDims(const Shape& shape,
                                                                   const std::vector<Expr>& exprs) {
    if (shape.size() < 2 || std::count(shape.begin(), shape.end(), 1) == 0) return std::nullopt;
    Shape kept;
    std::map<std::string, Expr> rename;
    for (std::size_t k = 0; k < shape.size(); ++k) {
        if (shape[k] == 1) {
            rename[placeholderName(k)] = constant(0);
        } else {
            rename[placeholderName(k)] = var(placeholderName(kept.size()));
            kept.push_back(shape[k]);
        }
    }
    if (kept.empty()) return std::nullopt; // one cell: nothing to gain
    std::vector<Expr> out;
    for (const Expr& e : exprs)
        out.push_back(e ? substitute(e,
                                     [&](const std::string& n) -> Expr {
                                         auto it = rename.find(n);
                                         return it == rename.end() ? nullptr : it->second;
                                     })
                        : e);
    return std::make_pair(std::move(kept), std::move(out));
}

} // namespace

void forEachBatchChunked(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep,
                         std::size_t chunks, const ChunkSink& sink, const BatchPlace& place,
                         Bounds* bounds) {
    if (auto reduced = withoutUnitDims(shape, exprs)) {
        try {
            forEachBatchChunked(reduced->first, reduced->second, rep, chunks, sink, place, bounds);
        } catch (const EvalError& e) {
            // Name the failing cell in the caller's shape (the dropped coordinates are 0).
            if (e.cell().empty()) throw;
            std::vector<std::int64_t> cell;
            std::size_t next = 0;
            for (std::int64_t extent : shape)
                cell.push_back(extent == 1 ? 0 : e.cell()[next++]);
            std::string what = e.what();
            what.resize(what.size() - (" at cell " + formatCell(e.cell())).size());
            throw EvalError(what, std::move(cell));
        }
        return;
    }
    const std::size_t rank = shape.size();
    const std::size_t outs = exprs.size();
    const std::int64_t total = cellCount(shape);
    const std::size_t B = Program::kBatch;

    Tabulated tab = tabulateTerms(shape, exprs, rep);
    const Separated& sep = tab.sep;
    const std::vector<std::vector<std::int64_t>>& tables = tab.tables;
    const bool split = tab.split;
    const bool perCell = tab.perCell;
    if (bounds) {
        bounds->clear();
        if (!perCell && total > 0) boundsOfSum(tables, shape, outs, *bounds);
    }

    // The per-cell program: everything, or only the mixed terms. Program::run is const and
    // keeps its scratch per thread, so the chunks share it.
    Shape extents = shape;
    extents.push_back(rep + 1);
    std::optional<Program> prog;
    if (perCell) prog.emplace(split ? orZero(sep.mixed) : exprs, placeholders(rank, true), extents);

    // Cells [begin, end) in batches; begin is a multiple of the batch size.
    auto runRange = [&](std::size_t chunk, std::int64_t begin, std::int64_t end) {
        std::vector<std::vector<std::int64_t>> in(rank + 1, std::vector<std::int64_t>(B));
        std::fill(in[rank].begin(), in[rank].end(), rep);
        std::vector<std::vector<std::int64_t>> out(outs, std::vector<std::int64_t>(B));
        std::vector<const std::int64_t*> inPtr(rank + 1);
        std::vector<std::int64_t*> outPtr(outs);
        std::vector<const std::int64_t*> outConst(outs);
        for (std::size_t k = 0; k <= rank; ++k)
            inPtr[k] = in[k].data();

        struct Span {
            std::size_t p, n;
            std::int64_t start; // last coordinate at p
        };
        std::vector<Span> spans;
        std::vector<std::int64_t> bases; // [span * outs + o]: the outer coordinates' tabulated sum
        std::vector<std::int64_t> coord(std::max<std::size_t>(rank, 1), 0); // [0] unused at rank 0
        if (rank) {
            const std::vector<std::int64_t> c0 = unflatten(begin, shape);
            std::copy(c0.begin(), c0.end(), coord.begin());
        }
        for (std::int64_t first = begin; first < end; first += static_cast<std::int64_t>(B)) {
            const std::size_t n = static_cast<std::size_t>(std::min<std::int64_t>(B, end - first));
            spans.clear();
            bases.clear();
            // Odometer over the row-major coordinates; the last dimension runs in straight spans.
            for (std::size_t p = 0; p < n;) {
                const std::int64_t last = rank ? shape[rank - 1] : 1;
                const std::int64_t start = rank ? coord[rank - 1] : 0;
                const std::size_t span = static_cast<std::size_t>(
                    std::min<std::int64_t>(last - start, static_cast<std::int64_t>(n - p)));
                if (perCell) {
                    for (std::size_t k = 0; k + 1 < rank; ++k)
                        std::fill_n(in[k].data() + p, span, coord[k]);
                    if (rank)
                        for (std::size_t q = 0; q < span; ++q)
                            in[rank - 1][p + q] = start + static_cast<std::int64_t>(q);
                }
                if (split) {
                    spans.push_back({p, span, start});
                    for (std::size_t o = 0; o < outs; ++o) {
                        std::uint64_t b = 0;
                        for (std::size_t k = 0; k + 1 < rank; ++k)
                            b += static_cast<std::uint64_t>(
                                tables[k][o * static_cast<std::size_t>(shape[k]) +
                                          static_cast<std::size_t>(coord[k])]);
                        bases.push_back(static_cast<std::int64_t>(b));
                    }
                }
                p += span;
                if (!rank) break;
                coord[rank - 1] += static_cast<std::int64_t>(span);
                for (std::size_t k = rank; k-- > 0;) {
                    if (coord[k] < shape[k]) break;
                    coord[k] = 0;
                    if (k) ++coord[k - 1];
                }
            }
            if (!place || !place(first, n, outPtr))
                for (std::size_t o = 0; o < outs; ++o)
                    outPtr[o] = out[o].data();
            for (std::size_t o = 0; o < outs; ++o)
                outConst[o] = outPtr[o];
            if (perCell) {
                std::size_t bad = 0;
                std::string msg;
                if (!prog->run(inPtr, outPtr, n, bad, msg))
                    throw EvalError(msg, unflatten(first + static_cast<std::int64_t>(bad), shape));
            }
            if (split) {
                const std::size_t lastExtent = static_cast<std::size_t>(shape[rank - 1]);
                for (std::size_t s = 0; s < spans.size(); ++s) {
                    const Span& sp = spans[s];
                    for (std::size_t o = 0; o < outs; ++o) {
                        const std::uint64_t base = static_cast<std::uint64_t>(bases[s * outs + o]);
                        const std::int64_t* row = tables[rank - 1].data() + o * lastExtent +
                                                  static_cast<std::size_t>(sp.start);
                        addSpan(outPtr[o] + sp.p, row, base, sp.n, sep.anyMixed);
                    }
                }
            }
            sink(chunk, first, n, outConst);
        }
    };

    chunks = std::max<std::size_t>(1, chunks);
    const std::int64_t batches = (total + static_cast<std::int64_t>(B) - 1) / std::int64_t(B);
    if (chunks == 1 || batches < 2) {
        runRange(0, 0, total);
        return;
    }
    // Contiguous ranges of whole batches, one per thread. A failing cell is reported from the
    // lowest failing chunk, which holds the first failing cell in row-major order.
    const std::int64_t per = (batches + std::int64_t(chunks) - 1) / std::int64_t(chunks);
    runPieces(chunks, [&](std::size_t c) {
        const std::int64_t begin = std::min(total, std::int64_t(c) * per * std::int64_t(B));
        const std::int64_t end = std::min(total, std::int64_t(c + 1) * per * std::int64_t(B));
        if (begin < end) runRange(c, begin, end);
    });
}

} // namespace ts::detail
