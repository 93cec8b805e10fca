// SPDX-License-Identifier: Apache-2.0
// The grid's colours without Qt's colour classes, so that the grid model and its raster picture
// link Qt Core alone (the CLI's `render` loads no Qt GUI library). Values are 0xAARRGGBB, the
// layout of QRgb; each function gives exactly what the QColor computation it replaced gave
// (TestGridColors compares them over every thread colour and a dense sample of the ramp).
#pragma once

#include <cstdint>

namespace tsw {

using Argb = std::uint32_t;
inline constexpr Argb kTransparent = 0; // legend lines without a swatch

// A thread's colour: hue from its lane, saturation and lightness from its warp (four tints).
Argb threadColor(std::int64_t thread);
// 36 distinct light colours (Tableau-like, three lightness cycles), repeating.
Argb categoricalColor(std::int64_t i);
// 0..1 on matplotlib's Spectral ramp (9 stops).
Argb rampColor(double t);
// Whether white text reads better than dark text on this colour.
bool isDark(Argb c);

} // namespace tsw
