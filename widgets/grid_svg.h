// Compact SVG for a grid's cells. QSvgGenerator writes every cell as its own group with a full
// style and transform (about 1 KB a cell with labels), so a 512 x 512 export was 280 MB. Here
// the cells become one path per colour (horizontal runs of a colour merged, the 1-px gaps one
// white stroked path over them), and the labels <text> elements that inherit font, size and ink
// from their group and take their baseline from a per-row group: about 70-90 bytes a cell.
#pragma once

#include <QByteArray>

namespace tsw {

class GridRenderer;

// The SVG elements (one <g>) drawing all cells of `r` with their labels, as GridRenderer::paint
// draws them at `scale` with the scene origin at (0, 0). Diff marks are not drawn (the caller
// paints those through QPainter).
QByteArray gridCellsSvg(const GridRenderer& r, double scale);

} // namespace tsw
