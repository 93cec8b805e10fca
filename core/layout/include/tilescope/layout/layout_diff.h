// SPDX-License-Identifier: Apache-2.0
// Cell-by-cell comparison of two layouts or two fragments (the conflict diff of the trace
// viewer and `tilescope-cli diff`), with a plain-language summary when a simple relation
// explains the difference.
//
// Both inputs are shown as 2-D grids the way plot_layout flattens them (rank 0 -> 1x1, rank 1 ->
// 1xN, higher ranks -> prod(leading) x last), aligned at (0, 0). The diff grid covers the union of
// the two grids; a cell that only one of them has differs by Shape.
#pragma once

#include "tilescope/layout/layout.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

// Bit flags: a cell can differ in several ways at once.
enum DiffBits : std::uint8_t {
    kDiffSame = 0,
    kDiffThread = 1,  // fragments: the set of threads holding the element differs
    kDiffSlot = 2,    // fragments: local (register) index differs; layouts: physical offset
    kDiffReplica = 4, // fragments: number of threads holding it (replication) differs
    kDiffShape = 8,   // only one of the two has this cell
};

struct DiffCounts {
    std::int64_t cells = 0; // cells of the aligned grid
    std::int64_t same = 0;
    std::int64_t thread = 0, slot = 0, replica = 0, shape = 0; // a cell may count in several
    std::int64_t differing() const { return cells - same; }
};

struct LayoutDiff {
    bool fragments = true;             // false: two Layouts
    std::int64_t rows = 0, cols = 0;   // the aligned grid
    std::int64_t rowsA = 0, colsA = 0; // each side flattened
    std::int64_t rowsB = 0, colsB = 0;
    std::vector<std::uint8_t> cells; // DiffBits, row-major rows x cols
    DiffCounts counts;
    // Plain-language relations that explain the difference, most specific first (may be empty);
    // `summary` is one paragraph built from them and the counts.
    std::vector<std::string> relations;
    std::string summary;

    std::uint8_t at(std::int64_t r, std::int64_t c) const {
        return (r < 0 || c < 0 || r >= rows || c >= cols)
                   ? std::uint8_t(kDiffShape)
                   : cells[static_cast<std::size_t>(r * cols + c)];
    }
};

// Throws InputError when one is a Layout and the other a Fragment, or on limits. Names are
// used in the summary ("current", "previous", "loop", ...).
LayoutDiff diffLayouts(const Mapping& a, const Mapping& b, const std::string& nameA = "A",
                       const std::string& nameB = "B");

// "thread", "slot", "replica", "shape" joined by '+', or "same".
std::string diffBitsName(std::uint8_t bits);

// Flattening used by the diff and the views: rows x cols of an input shape.
std::pair<std::int64_t, std::int64_t> flatten2d(const Shape& s);

} // namespace ts
