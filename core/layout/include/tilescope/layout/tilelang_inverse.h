// SPDX-License-Identifier: Apache-2.0
// Whether TileLang itself would build a layout's inverse. Tilescope inverts any bijective layout
// from its table; TileLang's Layout::Inverse (layout.cc) first rewrites the forward index with
// TVM's DetectIterMap at the bijective level and raises "Layout ... has errors" where a part of it
// is not a sum of iterator splits (a swizzle's xor, a `%` of a sum of two variables' pieces).
#pragma once

#include "tilescope/layout/layout.h"

#include <optional>
#include <string>

namespace ts {

// The sentence saying that TileLang would refuse `l.inverse()` and which part of the forward map
// it cannot represent; nothing when its iterator map represents every output (the table
// Tilescope inverts is then TileLang's inverse) or when `l` is known only by a table.
std::optional<std::string> tileLangInverseRefusal(const Layout& l);

} // namespace ts
