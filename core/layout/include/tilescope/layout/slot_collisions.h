// SPDX-License-Identifier: Apache-2.0
// Two logical elements in one register of one thread: almost always a mistake in a hand-made
// fragment (and what TileLang's own index inference produces for some thread maps), so every
// place that shows or prints a fragment reports it instead of drawing `T0 L0` twice.
#pragma once

#include "tilescope/layout/layout.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

struct SlotCollisions {
    // Logical points (cell, replica) beyond the first in each shared (thread, local) slot.
    std::int64_t count = 0;
    // Slots that hold more than one logical point.
    std::int64_t sharedSlots = 0;
    // The first two points found in one slot (row-major order of the points).
    std::optional<Collision> first;
    // Every cell (row-major index into the input shape) with a point in a shared slot, sorted.
    std::vector<std::int64_t> cells;
    bool any() const { return count > 0; }
    // Logical points in a shared slot, the first of each included: every element that shares a
    // register with another (`thread = i, index = j % 4` on 8x8: all 64, in 32 registers).
    std::int64_t elements() const { return count + sharedSlots; }
    // "elements (0, 0) and (0, 4) are both in thread 0, local slot 0; 64 elements share a
    // register with another (32 registers hold more than one)".
    std::string summary() const;
};

SlotCollisions findSlotCollisions(const FragmentTable& t);

} // namespace ts
