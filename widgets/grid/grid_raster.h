// SPDX-License-Identifier: Apache-2.0
// The picture of a grid that an export shows (title, column and row numbers, cells with their
// labels, legend), drawn into pixel buffers with FreeType and no Qt GUI library: the CLI's
// `render` to PNG starts in a few milliseconds this way, where loading Qt's GUI library and
// its platform plugin alone took longer than the whole render. The layout is the renderer's
// (grid_layout.h): same sizes, same rules for labels, numbers and legend lines.
//
// A picture is planned once, then drawn in horizontal bands of any height, in any order and on
// several threads at once (each with its own FontRaster), so that an encoder can take its rows
// band by band without the whole image in memory.
#pragma once

#include "grid/font_raster.h"
#include "grid/gridmodel.h"

#include <memory>
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

class GridPicture {
public:
    // The plan, or nothing with *whyNot saying what the picture would need that only the
    // QPainter renderer draws: cells under one pixel (the aggregated overview), or more than
    // maxPixels (the renderer shrinks the cells and keeps the text's size). `fonts` measures.
    static std::optional<GridPicture> plan(const GridModel& m, const RasterOptions& o,
                                           FontRaster& fonts, std::string* whyNot);
    ~GridPicture();
    GridPicture(GridPicture&&) noexcept;
    GridPicture& operator=(GridPicture&&) noexcept;

    int width() const;
    int height() const;
    // Rows [y0, y1) of the picture into `out` (width() pixels a row, packed).
    void drawBand(int y0, int y1, std::uint32_t* out, FontRaster& fonts) const;

private:
    GridPicture();
    struct Plan;
    std::unique_ptr<Plan> p_;
};

// The whole picture at once (plan, then one band).
std::optional<RasterImage> rasterizeGrid(const GridModel& m, const RasterOptions& o,
                                         FontRaster& fonts, std::string* whyNot);

} // namespace tsw
