// SPDX-License-Identifier: Apache-2.0
// GridPicture (grid_raster.h): the export painting of GridRenderer (paint, paintCells,
// paintHeaders, paintLegend) for a plain model, pixel by pixel and band by band.
#include "grid/grid_raster.h"

#include "grid/axis_labels.h"
#include "grid/grid_layout.h"

#include "tilescope/support/huge_pages.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace tsw {

namespace {

using namespace layout;

constexpr double kSwatch = 12, kSwatchGap = 6, kEntrySpacing = 16;

std::string utf8(const QString& s) {
    return s.toStdString();
}

// A band of the picture: rows [y0, y0 + h) in `view`.
struct Band {
    PixelView view;
    int y0() const { return view.originY; }
    int y1() const { return view.originY + view.height; }

    // Pixels whose centres lie inside [x0, x1) x [ya, yb), as QPainter fills without
    // antialiasing.
    void fill(double x0, double ya, double x1, double yb, Argb c) {
        const int a = std::max(0, int(std::lround(x0)));
        const int b = std::min(view.width, int(std::lround(x1)));
        const int t = std::max(y0(), int(std::lround(ya)));
        const int u = std::min(y1(), int(std::lround(yb)));
        for (int y = t; y < u; ++y) {
            std::uint32_t* row = view.pixels + std::size_t(y - y0()) * view.stride;
            std::fill(row + a, row + std::max(a, b), 0xff000000u | c);
        }
    }
    void blend(int x, int y, Argb c, std::uint32_t alpha) {
        if (x < 0 || y < y0() || x >= view.width || y >= y1()) return;
        std::uint32_t& p = view.pixels[std::size_t(y - y0()) * view.stride + std::size_t(x)];
        auto mix = [&](int s) {
            return (((p >> s) & 0xff) * (255 - alpha) + ((c >> s) & 0xff) * alpha + 127) / 255;
        };
        p = 0xff000000u | mix(16) << 16 | mix(8) << 8 | mix(0);
    }
    // A one-pixel outline from (x, y) to (x + w, y + h), both ends drawn (QPainter's cosmetic
    // pen without antialiasing).
    void outline(int x, int y, int w, int h, Argb c, std::uint32_t alpha) {
        for (int k = 0; k <= w; ++k) {
            blend(x + k, y, c, alpha);
            blend(x + k, y + h, c, alpha);
        }
        for (int k = 1; k < h; ++k) {
            blend(x, y + k, c, alpha);
            blend(x + w, y + k, c, alpha);
        }
    }
};

struct LegendItem {
    LegendEntry entry;
    double x, y, width; // scene units, from the legend's top-left
};

enum class Align { Left, Centre, Right };

} // namespace

// Everything measured once; drawing a band only reads it.
struct GridPicture::Plan {
    GridModel m;
    RasterOptions o;
    int width = 0, height = 0;
    double hw = 0, gx = 0, gy = 0, gw = 0, gh = 0, cellPx = 0;
    std::string title, subtitle;
    double f[2] = {0, 0};
    bool compact = false, labels = false;
    std::vector<LegendItem> legend;
    double legendLine = 0;
    struct AxisLabel {
        std::string text;
        double lo, hi;
    };
    std::vector<AxisLabel> colLabels, rowLabels; // device pixels along their axis

    // Text in a box, vertically centred; skipped when it misses the band.
    void text(Band& b, FontRaster& fonts, const std::string& s, double px, bool bold, Argb ink,
              double x, double y, double bw, double bh, Align a) const {
        const FontRaster::Metrics fm = fonts.metrics(px, bold);
        const double top = y + (bh - fm.height()) / 2;
        const double reach = 2 + px * 0.25; // glyphs may overshoot the ascent and descent
        if (top + fm.height() + reach < b.y0() || top - reach >= b.y1()) return;
        const double adv = a == Align::Left ? 0 : fonts.advance(s, px, bold);
        const double left = a == Align::Left     ? x
                            : a == Align::Centre ? x + (bw - adv) / 2
                                                 : x + bw - adv;
        fonts.draw(b.view, left, top + fm.ascent, s, px, ink, bold);
    }
};

GridPicture::GridPicture() : p_(std::make_unique<Plan>()) {}
GridPicture::~GridPicture() = default;
GridPicture::GridPicture(GridPicture&&) noexcept = default;
GridPicture& GridPicture::operator=(GridPicture&&) noexcept = default;
int GridPicture::width() const {
    return p_->width;
}
int GridPicture::height() const {
    return p_->height;
}

std::optional<GridPicture> GridPicture::plan(const GridModel& m, const RasterOptions& o,
                                             FontRaster& fonts, std::string* whyNot) {
    auto refuse = [&](const std::string& why) -> std::optional<GridPicture> {
        if (whyNot) *whyNot = why;
        return std::nullopt;
    };
    if (m.isEmpty()) return refuse("nothing to draw");
    GridPicture pic;
    Plan& p = *pic.p_;
    p.m = m;
    p.o = o;
    const double scale = o.scale, cell = o.cell;
    p.cellPx = cell * scale;
    if (p.cellPx < 1) return refuse("cells under one pixel are drawn as an overview");

    // Scene geometry (GridRenderer::gridRect, sceneSize, legendH).
    p.hw = headerWidth(m.rows());
    const double titleH = o.title ? kTitleHeight : 0;
    p.gx = o.margin + p.hw;
    p.gy = o.margin + titleH + kHeaderHeight;
    p.gw = m.cols() * cell;
    p.gh = m.rows() * cell;
    p.title = utf8(m.title());
    p.subtitle = utf8(m.subtitle());
    double sceneW = p.gx + p.gw + o.margin;
    if (o.title)
        sceneW = std::max({sceneW, p.gx + fonts.advance(p.title, kTitleFont, true) + o.margin,
                           p.gx + fonts.advance(p.subtitle, kSubtitleFont) + o.margin});

    labelFonts(m, cell, scale, p.f, &p.compact);
    p.labels = p.f[0] >= o.minLabelPx;
    double legendH = 0;
    if (o.legend) {
        std::vector<LegendEntry> entries;
        if (m.kind() == GridModel::Kind::Fragment)
            entries.push_back({kTransparent, QStringLiteral("T = thread, L = register slot")});
        for (const LegendEntry& e : m.legend())
            if (p.labels || !e.aboutLabels) entries.push_back(e);
        if (!p.labels)
            entries.push_back(
                {kTransparent,
                 labelsOmitted(p.cellPx, labelCellPx(m, cell, o.minLabelPx) * scale)});
        // GridRenderer::paintLegend's flow, in scene units.
        const FontRaster::Metrics fm = fonts.metrics(kLegendFont);
        p.legendLine = std::max(fm.height(), kSwatch) + 6;
        double x = 0, y = 0;
        for (const LegendEntry& e : entries) {
            const bool swatch = (e.color >> 24) != 0;
            const double ew =
                (swatch ? kSwatch + kSwatchGap : 0) + fonts.advance(utf8(e.text), kLegendFont);
            if (x > 0 && x + ew > p.gw + p.hw) {
                x = 0;
                y += p.legendLine;
            }
            p.legend.push_back({e, x, y, ew});
            x += ew + kEntrySpacing;
        }
        legendH = (entries.empty() ? 0 : y + p.legendLine) + 8;
    }
    const double sceneH = p.gy + p.gh + o.margin + legendH;
    const double w = std::ceil(std::ceil(sceneW) * scale), h = std::ceil(std::ceil(sceneH) * scale);
    if (w * h > o.maxPixels)
        return refuse("more pixels than the limit: the cells are shrunk to fit");
    p.width = int(w);
    p.height = int(h);

    // Column and row numbers (GridRenderer::paintHeaders), placed once.
    if (const double fpx = kHeaderFont * scale; fpx >= 5) {
        const FontRaster::Metrics fm = fonts.metrics(fpx);
        const double x0 = p.gx * scale, y0 = p.gy * scale, cpx = p.cellPx;
        AxisLabelRequest cols;
        cols.first = 0;
        cols.last = m.cols() - 1;
        cols.count = m.cols();
        cols.step = headerStep(
            fonts.advance("0", fpx) * double(std::to_string(m.cols() - 1).size()) + 8, cpx);
        cols.stripLo = x0 - p.hw * scale;
        cols.stripHi = x0 + m.cols() * cpx;
        cols.gap = 4 * scale;
        cols.centre = [&](int c) { return x0 + (c + 0.5) * cpx; };
        cols.extent = [&](int c) { return fonts.advance(std::to_string(c), fpx) + 2; };
        for (const AxisLabelSpot& s : placeAxisLabels(cols))
            p.colLabels.push_back({std::to_string(s.index), s.lo, s.hi});
        AxisLabelRequest rows;
        rows.first = 0;
        rows.last = m.rows() - 1;
        rows.count = m.rows();
        rows.step = headerStep(fm.height() + 2, cpx);
        rows.stripLo = y0;
        rows.stripHi = y0 + m.rows() * cpx;
        rows.roomBefore = kHeaderHeight * scale; // the empty corner above the row numbers
        rows.gap = 1;
        rows.centre = [&](int r) { return y0 + (r + 0.5) * cpx; };
        rows.extent = [&](int) { return fm.height() + 2; };
        for (const AxisLabelSpot& s : placeAxisLabels(rows))
            p.rowLabels.push_back({std::to_string(s.index), s.lo, s.hi});
    }
    return pic;
}

void GridPicture::drawBand(int y0, int y1, std::uint32_t* out, FontRaster& fonts) const {
    const Plan& p = *p_;
    const GridModel& m = p.m;
    const RasterOptions& o = p.o;
    const double scale = o.scale, cellPx = p.cellPx;
    y0 = std::max(0, y0);
    y1 = std::min(p.height, y1);
    if (y1 <= y0) return;
    Band b{PixelView{out, p.width, y1 - y0, std::size_t(p.width), y0}};
    std::fill(out, out + std::size_t(p.width) * std::size_t(y1 - y0), 0xffffffffu);

    // Title and subtitle.
    if (o.title && kTitleFont * scale >= 4) {
        p.text(b, fonts, p.title, kTitleFont * scale, true, kInk, p.gx * scale, o.margin * scale,
               1e6, kTitleLine * scale, Align::Left);
        p.text(b, fonts, p.subtitle, kSubtitleFont * scale, false, kMuted, p.gx * scale,
               (o.margin + kTitleLine) * scale, 1e6, kSubtitleLine * scale, Align::Left);
    }

    // The cell rows this band meets: fills, then labels (GridRenderer::paintCells).
    const double x0 = p.gx * scale, gy0 = p.gy * scale;
    const double gap = cellPx >= kLabelGapMinPx ? 1.0 : 0.0;
    const int r0 = std::max(0, int(std::floor((y0 - gy0) / cellPx)) - 1);
    const int r1 = std::min(m.rows(), int(std::ceil((y1 - gy0) / cellPx)) + 1);
    for (int r = r0; r < r1; ++r)
        for (int c = 0; c < m.cols(); ++c) {
            const double cx = x0 + c * cellPx, cy = gy0 + r * cellPx;
            b.fill(cx, cy, cx + cellPx - gap, cy + cellPx - gap, m.color(r, c));
        }
    if (p.labels && r0 < r1) {
        const int lines = m.labelLines();
        // Labels repeat (a thread owns many cells): each text is measured once.
        std::unordered_map<std::string, double> advances[2];
        const FontRaster::Metrics fm[2] = {fonts.metrics(p.f[0]), fonts.metrics(p.f[1])};
        auto centred = [&](int line, double x, double y, double bw, double bh, const QString& label,
                           Argb ink) {
            const double top = y + bh / 2 - fm[line].height() / 2;
            const double reach = 2 + p.f[line] * 0.25;
            if (top + fm[line].height() + reach < y0 || top - reach >= y1) return;
            const std::string s = utf8(label);
            auto it = advances[line].find(s);
            if (it == advances[line].end())
                it = advances[line].emplace(s, fonts.advance(s, p.f[line])).first;
            fonts.draw(b.view, x + bw / 2 - it->second / 2, top + fm[line].ascent, s, p.f[line],
                       ink);
        };
        for (int r = r0; r < r1; ++r)
            for (int c = 0; c < m.cols(); ++c) {
                if (!m.filled(r, c)) continue;
                const double dx = x0 + c * cellPx, dy = gy0 + r * cellPx, d = cellPx - gap;
                const Argb ink = isDark(m.color(r, c)) ? 0xffffffffu : kInk;
                if (lines == 2) {
                    centred(0, dx, dy + d * 0.10, d, d * 0.42,
                            p.compact ? m.compactLabel(r, c) : m.label(r, c, 0), ink);
                    if (p.f[1] >= o.minLabelPx)
                        centred(1, dx, dy + d * 0.50, d, d * 0.40, m.label(r, c, 1), ink);
                } else {
                    centred(0, dx, dy, d, d, m.label(r, c, 0), ink);
                }
            }
    }

    // Column and row numbers.
    if (const double fpx = kHeaderFont * scale; fpx >= 5) {
        const double hh = kHeaderHeight * scale, hwPx = p.hw * scale;
        for (const auto& l : p.colLabels)
            p.text(b, fonts, l.text, fpx, false, kMuted, l.lo, gy0 - hh, l.hi - l.lo, hh,
                   Align::Centre);
        for (const auto& l : p.rowLabels)
            p.text(b, fonts, l.text, fpx, false, kMuted, x0 - hwPx, l.lo, hwPx - 6, l.hi - l.lo,
                   Align::Right);
    }

    // Legend (GridRenderer::paintLegend, scaled as the renderer's painter is).
    if (o.legend) {
        const double lx = (p.gx - p.hw) * scale, ly = (p.gy + p.gh + kLegendTop) * scale;
        const double lh = p.legendLine;
        for (const LegendItem& it : p.legend) {
            const double ex = lx + it.x * scale, ey = ly + it.y * scale;
            if (ey > y1 || ey + lh * scale < y0) continue;
            const bool swatch = (it.entry.color >> 24) != 0;
            if (swatch) {
                const double sx = ex, sy = ey + ((lh - 6 - kSwatch) / 2 + 3) * scale;
                b.fill(sx, sy, sx + kSwatch * scale, sy + kSwatch * scale, it.entry.color);
                b.outline(int(std::lround(sx)), int(std::lround(sy)),
                          int(std::lround(kSwatch * scale)), int(std::lround(kSwatch * scale)), 0,
                          60);
            }
            const double tx = ex + (swatch ? (kSwatch + kSwatchGap) * scale : 0);
            p.text(b, fonts, utf8(it.entry.text), kLegendFont * scale, false, kMuted, tx, ey,
                   it.width * scale, lh * scale, Align::Left);
        }
    }
}

std::optional<RasterImage> rasterizeGrid(const GridModel& m, const RasterOptions& o,
                                         FontRaster& fonts, std::string* whyNot) {
    auto pic = GridPicture::plan(m, o, fonts, whyNot);
    if (!pic) return std::nullopt;
    RasterImage img;
    img.width = pic->width();
    img.height = pic->height();
    const std::size_t n = std::size_t(img.width) * std::size_t(img.height);
    ts::detail::reserveHuge(img.pixels, n);
    img.pixels.resize(n);
    pic->drawBand(0, img.height, img.pixels.data(), fonts);
    return img;
}

} // namespace tsw
