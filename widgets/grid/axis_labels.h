// SPDX-License-Identifier: Apache-2.0
// Which row/column numbers of a grid axis to draw, and where. A number is drawn whole or not at
// all, with a gap to its neighbours: a number cut by the view's edge ("100" for 1000) or two
// run together ("1015" for 10 and 15) reads as a wrong number. Shared by the on-screen grid and
// the renderer's exports so both follow the same rule.
#pragma once

#include <functional>
#include <optional>
#include <vector>

namespace tsw {

struct AxisLabelSpot {
    int index = 0; // row or column
    double lo = 0; // start of the label along the axis
    double hi = 0; // end of the label along the axis
};

struct AxisLabelRequest {
    int first = 0, last = -1; // indices in view (inclusive)
    int count = 0;            // indices on the whole axis (the first and last may move inwards)
    int step = 1;             // draw multiples of step
    double stripLo = 0, stripHi = 0; // where labels may be drawn
    double gap = 4;                  // least space between two labels
    // Empty space before stripLo (the header corner above the row numbers) that index 0's label
    // may reach into rather than move inwards: moved, it would push out the next number ("2").
    double roomBefore = 0;
    std::optional<int> pinned;         // the hovered index: always drawn, moved inwards to fit
    std::function<double(int)> centre; // centre of index's cell along the axis
    std::function<double(int)> extent; // the label's length along the axis
};

// The labels to draw, in ascending order, none overlapping another (plus gap), each inside
// the strip.
std::vector<AxisLabelSpot> placeAxisLabels(const AxisLabelRequest& r);

} // namespace tsw
