// SPDX-License-Identifier: Apache-2.0
// Which two layouts of a project Compare Layouts opens on: only two fragments or two T.Layouts
// compare cell by cell, so the partner of the active layout is the nearest one of its kind.
#pragma once

#include "tilescope/notation/document.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ts {

struct ComparePartner {
    std::optional<std::size_t> index; // the layout to compare with; none when none fits
    // Why there is none (empty when there is one): says what the active layout is and what it
    // can be compared with.
    std::string why;
};

// The layout nearest to layouts[from] in the list (the next, the previous, then two away...)
// that is of the same kind (both T.Fragment or both T.Layout, in any notation); a text that does
// not read is skipped. When layouts[from] itself does not read, its neighbour is returned so
// that the comparison shows its error.
ComparePartner nearestComparable(const std::vector<DocLayout>& layouts, std::size_t from);

} // namespace ts
