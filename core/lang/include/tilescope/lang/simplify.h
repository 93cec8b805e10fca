// SPDX-License-Identifier: Apache-2.0
// A small, exact simplifier so that printed layouts read like TileLang's canonical forms
// (`_j // 16 * 64 + _i % 8 * 4`, not `(_j % 16) % 8 ...`). Every rule preserves the value at
// every point of the given variable ranges; the golden tests check that cell by cell.
#pragma once

#include "tilescope/lang/expr.h"

#include <map>
#include <string>

namespace ts {

// Variables not in `extents` are treated as unbounded.
Expr simplify(const Expr& e, const std::map<std::string, std::int64_t>& extents);

} // namespace ts
