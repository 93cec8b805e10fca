// SPDX-License-Identifier: Apache-2.0
// The sizes and rules of a drawn grid that every way of drawing it shares: the renderer's
// QPainter (window, PNG, SVG, PDF) and the CLI's raster picture (grid_raster.h). Scene units:
// one unit is one pixel at scale 1.
#pragma once

#include "grid/gridmodel.h"

namespace tsw {

// Label spacing for row/column numbers: every n-th index, n in 1, 2, 5, 10, 20, 50, ...,
// so that labels `labelPx` wide fit cells `cellPx` wide.
int headerStep(double labelPx, double cellPx);

} // namespace tsw

namespace tsw::layout {

inline constexpr double kHeaderFont = 11;   // row and column numbers
inline constexpr double kTitleFont = 15;    // bold
inline constexpr double kSubtitleFont = 11; // the colour mode
inline constexpr double kLegendFont = 11;
inline constexpr double kTitleLine = 22, kSubtitleLine = 16;
inline constexpr double kTitleHeight = 48;   // title and subtitle, with the space below them
inline constexpr double kHeaderHeight = 22;  // the column numbers' strip
inline constexpr double kLegendTop = 10;     // from the grid's bottom to the legend
inline constexpr double kLabelGapMinPx = 10; // cells this large (device px) get a 1-px gap
inline constexpr Argb kInk = 0xff1d2127;
inline constexpr Argb kMuted = 0xff5f6670;

// Width of the row numbers' strip for a grid of `rows` rows.
double headerWidth(int rows);

// Label font sizes (device px) for cells of `cell` scene units drawn at `scale`: f[0] for the
// first line, f[1] for the second (0 when there is none); *compact when the first line should
// use the model's compact form.
void labelFonts(const GridModel& m, double cell, double scale, double* f, bool* compact);

// The smallest cell (scene units at scale 1) whose first label line reaches minLabelPx.
double labelCellPx(const GridModel& m, double cell, double minLabelPx);

// The legend line of an export whose cells are too small for their labels.
QString labelsOmitted(double cellPx, double neededPx);

} // namespace tsw::layout
