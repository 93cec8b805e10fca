// SPDX-License-Identifier: Apache-2.0
// Text on a 32-bit pixel buffer through FreeType, for the raster picture of a grid (the CLI's
// `render` without Qt's GUI library). Glyphs are rendered unhinted with grayscale antialiasing,
// as the renderer's QPainter draws them (its fonts prefer no hinting), and cached per size.
#pragma once

#include "grid/grid_colors.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tsw {

// A view of 0xAARRGGBB pixels: rows [originY, originY + height) of a taller picture.
struct PixelView {
    std::uint32_t* pixels = nullptr;
    int width = 0, height = 0;
    std::size_t stride = 0; // pixels per row
    int originY = 0;        // the picture's row that pixels' first row is
};

class FontRaster {
public:
    // The regular and bold faces: TILESCOPE_FONT / TILESCOPE_FONT_BOLD when set, else DejaVu
    // Sans where Debian puts it, else what fontconfig gives for sans-serif. Null when none of
    // these loads (the caller draws another way, it never draws without labels).
    static std::unique_ptr<FontRaster> open(std::string* error);
    ~FontRaster();
    FontRaster(const FontRaster&) = delete;
    FontRaster& operator=(const FontRaster&) = delete;

    struct Metrics {
        double ascent = 0, descent = 0; // pixels, both positive
        double height() const { return ascent + descent; }
    };
    // Pixel sizes are rounded to whole pixels, as the renderer's fonts are.
    Metrics metrics(double px, bool bold = false);
    double advance(std::string_view utf8, double px, bool bold = false);
    // Draws `utf8` with its baseline's left end at (x, baseline), in picture coordinates.
    void draw(PixelView& dst, double x, double baseline, std::string_view utf8, double px, Argb ink,
              bool bold = false);

private:
    FontRaster();
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace tsw
