// SPDX-License-Identifier: Apache-2.0
// Internal: evaluate expressions over every cell of a shape, in batches.
#pragma once

#include "tilescope/lang/expr.h"
#include "tilescope/layout/layout.h"

#include <functional>
#include <optional>

namespace ts::detail {

using BatchSink =
    std::function<void(std::int64_t, std::size_t, const std::vector<const std::int64_t*>&)>;
// Where a batch's outputs should be written: set outs[o] to room for n values and return true,
// or return false to have them written to internal buffers (the sink sees them either way).
using BatchPlace = std::function<bool(std::int64_t, std::size_t, std::vector<std::int64_t*>&)>;

// Calls sink(firstCell, n, outputs) for consecutive runs of cells in row-major order, where
// outputs[o][p] is expression o at cell firstCell + p. `rep` is the value bound to `_rep`.
// Throws EvalError naming the cell on a division by zero or bad shift.
//
// Layout formulas are mostly sums of terms in one coordinate each (`i % 8 * 4 + j // 2`): such
// terms are tabulated once per coordinate value and added per cell; only the rest (XOR
// swizzles, products of coordinates) runs per cell.
//
// `bounds`, when given, receives each output's exact [min, max] over the shape when that comes
// free from the tabulated terms (no mixed terms), and is left empty otherwise.
using Bounds = std::vector<std::pair<std::int64_t, std::int64_t>>;
void forEachBatch(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep,
                  const BatchSink& sink, const BatchPlace& place = {}, Bounds* bounds = nullptr);

// Each output's exact [min, max] over the shape when it comes from per-coordinate tables alone
// (no term mixes coordinates), without visiting the cells; empty otherwise.
Bounds tabulatedBounds(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep);

// The same over `chunks` contiguous ranges of cells, each on its own thread (chunk 0 on the
// caller's). sink(chunk, first, n, outputs) is called from chunk's thread only, in row-major
// order within a chunk; `place` is called from every thread and must be safe for disjoint
// ranges. An evaluation error is rethrown from the lowest failing chunk (the first failing
// cell).
using ChunkSink = std::function<void(std::size_t, std::int64_t, std::size_t,
                                     const std::vector<const std::int64_t*>&)>;
void forEachBatchChunked(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep,
                         std::size_t chunks, const ChunkSink& sink, const BatchPlace& place = {},
                         Bounds* bounds = nullptr);

// Whether `exprs` send the cells of `shape` to distinct positions (and, with `onto`, to every
// position of [0, max + 1) per output), decided in streaming passes with one bit per position
// rather than a table. Only "true" is an answer: false or nullopt (a negative value, too many
// positions) leave the question to the table path, which names the offending cells. Evaluation
// errors propagate as from forEachBatch.
std::optional<bool> streamedInjective(const Shape& shape, const std::vector<Expr>& exprs,
                                      bool onto);

// How many chunks an evaluation of `cells` cells is worth: 1 below kParallelCells, else up to
// one per core this process may use (at most TILESCOPE_THREADS when set).
inline constexpr std::int64_t kParallelCells = std::int64_t{1} << 20;
std::size_t parallelChunks(std::int64_t cells);

std::vector<std::int64_t> unflatten(std::int64_t flat, const Shape& shape);
std::vector<std::string> placeholders(std::size_t rank, bool withRep);

} // namespace ts::detail
