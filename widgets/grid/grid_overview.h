// SPDX-License-Identifier: Apache-2.0
// Overview of a grid drawn at less than one pixel per cell. Plain downsampling of thousands of
// per-lane hues averages them into grey or aliases them into a moire; instead each k x k block
// of cells becomes one pixel coloured by what dominates the block:
//   1. the colour of more than half of its cells, if there is one;
//   2. else, when the cells fall into groups (a fragment's warps), the most common group's colour;
//   3. else, for colours on a continuous ramp (physical offsets), the mean colour;
//   4. else the most common colour.
// Emphasised cells (a highlighted thread) win their block when present, so a highlight stays
// visible at any zoom. Pure computation over plain arrays: callable from any thread.
#pragma once

#include <QColor>
#include <QImage>
#include <cstdint>
#include <functional>

namespace tsw {

struct OverviewInput {
    int rows = 0, cols = 0;
    const QRgb* colors = nullptr; // rows * cols, row-major (effective colours)
    // A cell's group is groups[cell * groupStride] / groupDivisor (a fragment's warp is its first
    // replica's thread / 32, read from the table itself); null: no grouping.
    const std::int64_t* groups = nullptr;
    std::int64_t groupStride = 1, groupDivisor = 1;
    std::function<QRgb(std::int64_t)> groupColor;
    const std::uint8_t* emphasised = nullptr; // per cell 0/1, or null
    bool continuous = false;                  // colours lie on a ramp: average them
    bool dimUnemphasised = false;             // blocks without emphasised cells are faded
};

// One pixel per k x k block (the last row/column of blocks may be partial):
// ceil(cols / k) x ceil(rows / k). k >= 1.
QImage aggregateOverview(const OverviewInput& in, int k);

// The block size for a zoom: the smallest power of two k with k * cellPx >= 1 (1 when cells
// are at least a pixel).
int overviewBlock(double cellPx);

} // namespace tsw
