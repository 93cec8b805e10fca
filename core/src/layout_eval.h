// Internal: evaluate expressions over every cell of a shape, in batches.
#pragma once

#include "tilescope/expr.h"
#include "tilescope/layout.h"

#include <functional>

namespace ts::detail {

// Calls sink(firstCell, n, outputs) for consecutive runs of cells in row-major order, where
// outputs[o][p] is expression o at cell firstCell + p. `rep` is the value bound to `_rep`.
// Throws EvalError naming the cell on a division by zero or bad shift.
void forEachBatch(const Shape& shape, const std::vector<Expr>& exprs, std::int64_t rep,
                  const std::function<void(std::int64_t, std::size_t,
                                           const std::vector<const std::int64_t*>&)>& sink);

std::vector<std::int64_t> unflatten(std::int64_t flat, const Shape& shape);
std::vector<std::string> placeholders(std::size_t rank, bool withRep);

} // namespace ts::detail
