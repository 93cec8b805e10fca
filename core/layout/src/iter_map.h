// SPDX-License-Identifier: Apache-2.0
// The register index TileLang infers for a fragment given only its thread map.
//
// TileLang (layout.cc `infer_fragment_index`, utils.cc `DivideUnusedIterators`) does not look at
// values: it rewrites the simplified thread map into TVM's iterator-map form (iter_affine_map.cc,
// `NormalizeToIterSum` at check level NoCheck), collects which pieces (splits) of each input
// variable the affine parts use, and flattens the unused pieces into the index. Everything the
// rewriter cannot represent (xor, shifts, bitwise and/or, min/max, products of two variables, a
// `%`/`//` over a sum it cannot fuse) stays opaque and uses no piece at all. This file reproduces
// that rewrite so the inferred index agrees with TileLang's cell by cell, collisions included.
#pragma once

#include "tilescope/lang/expr.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ts::detail {

// `thread` must already be in the form TVM's Analyzer::Simplify gives it (tvmSimplify), which
// is what TileLang's Fragment constructor stores and infers from. `extents[k]` is the extent
// of placeholder k; the replica variable counts as the constant 0, as in TileLang. Throws
// InputError with TileLang's message where TileLang's inference fails, and with a message naming
// the construct where this port does not model TVM exactly (never a silent guess).
Expr inferIndexLikeTileLang(const Expr& thread, const std::vector<std::int64_t>& extents);

// The first part of `outputs` (in tvmSimplify form, over the placeholders with `extents`) that
// TVM's iterator-map rewriter cannot write as sums of iterator splits (an xor, a product of two
// variables, a `%` of a sum it cannot fuse), or that this port does not model; nothing when
// every output is such a sum. DetectIterMap fails on such a part, so TileLang's
// Layout::Inverse refuses the layout ("Layout ... has errors").
std::optional<Expr> iterMapOpaquePart(const std::vector<Expr>& outputs,
                                      const std::vector<std::int64_t>& extents);

} // namespace ts::detail
