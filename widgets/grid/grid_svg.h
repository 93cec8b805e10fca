// SPDX-License-Identifier: Apache-2.0
// Compact SVG for a grid's cells. QSvgGenerator writes every cell as its own group with a full
// style and transform (about 1 KB a cell with labels), so a 512 x 512 export was 280 MB. Here
// the cells become one path per colour (horizontal runs of a colour merged, the 1-px gaps one
// white stroked path over them), and the labels <text> elements that inherit font, size and ink
// from their group and take their baseline from a per-row group: about 75 bytes a cell.
#pragma once

#include <QByteArray>

namespace tsw {

class GridRenderer;

// The SVG elements (one <g>) drawing the white page and all cells of `r` with their labels, as
// GridRenderer::paint draws them at `scale` with the scene origin at (0, 0); the rest of the page
// (title, numbers, legend, overlays) goes on top. Diff marks are not drawn (exports of grids with
// marks paint their cells through QPainter).
QByteArray gridCellsSvg(const GridRenderer& r, double scale);

} // namespace tsw
