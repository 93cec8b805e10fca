// The picture of a grid that an export shows (title, column and row numbers, cells with their
// labels, legend), drawn into a pixel buffer with FreeType and no Qt GUI library: the CLI's
// `render` to PNG starts in a few milliseconds this way, where loading Qt's GUI library and
// its platform plugin alone took longer than the whole render. The layout is the renderer's
// (grid_layout.h): same sizes, same rules for labels, numbers and legend lines.
#pragma once

#include "grid/font_raster.h"
#include "grid/gridmodel.h"

#include <optional>
#include <string>
#include <vector>

namespace tsw {

struct RasterOptions {
    double cell = 40;  // scene units per cell
    double scale = 1;  // device pixels per scene unit
    bool title = true; // title and subtitle
    bool legend = true;
    double minLabelPx = 5.5; // the renderer's Style defaults
    double margin = 14;
    double maxPixels = 120e6;
};

struct RasterImage {
    int width = 0, height = 0;
    std::vector<std::uint32_t> pixels; // 0xffRRGGBB, row-major
};

// The picture, or nothing with *whyNot saying what it would need that only the QPainter
// renderer draws: cells under one pixel (the aggregated overview), or more than maxPixels (the
// renderer shrinks the cells and keeps the text's size).
std::optional<RasterImage> rasterizeGrid(const GridModel& m, const RasterOptions& o,
                                         FontRaster& fonts, std::string* whyNot);

} // namespace tsw
