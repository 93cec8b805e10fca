// SPDX-License-Identifier: Apache-2.0
#include "grid/axis_labels.h"

#include <algorithm>

namespace tsw {

namespace {

// The label of `index`, or nothing when it cannot be drawn whole inside the strip. The grid's
// first and last numbers move inwards rather than being cut, and so does the hovered one (its
// cell is highlighted under it); a middle number moved would sit over the wrong cell.
std::optional<AxisLabelSpot> spotOf(const AxisLabelRequest& r, int index) {
    const double len = r.extent(index);
    const double c = r.centre(index);
    AxisLabelSpot s{index, c - len / 2, c + len / 2};
    const bool edge = index == 0 || index == r.count - 1 || (r.pinned && *r.pinned == index);
    const double lo =
        index == 0 && c >= r.stripLo ? r.stripLo - std::max(0.0, r.roomBefore) : r.stripLo;
    if (edge && c >= r.stripLo && c <= r.stripHi) {
        if (s.lo < lo) s = {index, lo, lo + len};
        if (s.hi > r.stripHi) s = {index, r.stripHi - len, r.stripHi};
    }
    if (s.lo < lo - 1e-6 || s.hi > r.stripHi + 1e-6) return std::nullopt;
    return s;
}

bool clash(const AxisLabelSpot& a, const AxisLabelSpot& b, double gap) {
    return a.lo < b.hi + gap && b.lo < a.hi + gap;
}

} // namespace

std::vector<AxisLabelSpot> placeAxisLabels(const AxisLabelRequest& r) {
    std::vector<AxisLabelSpot> out;
    if (r.count <= 0 || r.last < r.first || !r.centre || !r.extent) return out;
    const int step = std::max(1, r.step);
    std::optional<AxisLabelSpot> pin;
    if (r.pinned && *r.pinned >= r.first && *r.pinned <= r.last) pin = spotOf(r, *r.pinned);
    const double gap = std::max(0.0, r.gap);
    for (int i = std::max(0, r.first / step * step); i <= r.last; i += step) {
        if (i < r.first || (pin && pin->index == i)) continue;
        const auto s = spotOf(r, i);
        if (!s) continue;
        if (pin && clash(*s, *pin, gap)) continue;
        if (!out.empty() && clash(*s, out.back(), gap)) continue;
        out.push_back(*s);
    }
    if (pin) {
        out.insert(std::upper_bound(out.begin(), out.end(), *pin,
                                    [](const AxisLabelSpot& a, const AxisLabelSpot& b) {
                                        return a.index < b.index;
                                    }),
                   *pin);
    }
    return out;
}

} // namespace tsw
