// rasterizeGrid (grid_raster.h): the export painting of GridRenderer (paint, paintCells,
// paintHeaders, paintLegend) for a plain model, pixel by pixel.
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

struct Canvas {
    RasterImage& img;
    PixelView view;

    explicit Canvas(RasterImage& i)
        : img(i), view{i.pixels.data(), i.width, i.height, std::size_t(i.width)} {}

    // Pixels whose centres lie inside [x0, x1) x [y0, y1), as QPainter fills without
    // antialiasing.
    void fill(double x0, double y0, double x1, double y1, Argb c) {
        const int a = std::max(0, int(std::lround(x0))),
                  b = std::min(img.width, int(std::lround(x1)));
        const int t = std::max(0, int(std::lround(y0))),
                  u = std::min(img.height, int(std::lround(y1)));
        for (int y = t; y < u; ++y)
            std::fill(img.pixels.begin() + std::ptrdiff_t(y) * img.width + a,
                      img.pixels.begin() + std::ptrdiff_t(y) * img.width + std::max(a, b),
                      0xff000000u | c);
    }
    void blend(int x, int y, Argb c, std::uint32_t alpha) {
        if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
        std::uint32_t& p = img.pixels[std::size_t(y) * std::size_t(img.width) + std::size_t(x)];
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

std::string utf8(const QString& s) {
    return s.toStdString();
}

// What paintLegend lays out: entries in rows no wider than maxWidth, in scene units.
struct LegendItem {
    const LegendEntry* entry;
    double x, y, width;
};
struct LegendLayout {
    std::vector<LegendItem> items;
    double width = 0, height = 0, lineH = 0;
};

constexpr double kSwatch = 12, kSwatchGap = 6, kEntrySpacing = 16;

LegendLayout layoutLegend(const std::vector<LegendEntry>& entries, double maxWidth,
                          FontRaster& fonts) {
    LegendLayout l;
    const FontRaster::Metrics fm = fonts.metrics(kLegendFont);
    l.lineH = std::max(fm.height(), kSwatch) + 6;
    double x = 0, y = 0;
    for (const LegendEntry& e : entries) {
        const bool swatch = (e.color >> 24) != 0;
        const double ew =
            (swatch ? kSwatch + kSwatchGap : 0) + fonts.advance(utf8(e.text), kLegendFont);
        if (x > 0 && x + ew > maxWidth) {
            x = 0;
            y += l.lineH;
        }
        l.items.push_back({&e, x, y, ew});
        x += ew + kEntrySpacing;
        l.width = std::max(l.width, x - kEntrySpacing);
    }
    l.height = entries.empty() ? 0 : y + l.lineH;
    return l;
}

} // namespace

std::optional<RasterImage> rasterizeGrid(const GridModel& m, const RasterOptions& o,
                                         FontRaster& fonts, std::string* whyNot) {
    auto refuse = [&](const std::string& why) -> std::optional<RasterImage> {
        if (whyNot) *whyNot = why;
        return std::nullopt;
    };
    if (m.isEmpty()) return refuse("nothing to draw");
    const double scale = o.scale, cell = o.cell, cellPx = cell * scale;
    if (cellPx < 1) return refuse("cells under one pixel are drawn as an overview");

    // Scene geometry (GridRenderer::gridRect, sceneSize, legendH).
    const double hw = headerWidth(m.rows()), titleH = o.title ? kTitleHeight : 0;
    const double gx = o.margin + hw, gy = o.margin + titleH + kHeaderHeight;
    const double gw = m.cols() * cell, gh = m.rows() * cell;
    const std::string title = utf8(m.title());
    double sceneW = gx + gw + o.margin;
    if (o.title) sceneW = std::max(sceneW, gx + fonts.advance(title, kTitleFont, true) + o.margin);

    double f[2] = {0, 0};
    bool compact = false;
    labelFonts(m, cell, scale, f, &compact);
    const bool labels = f[0] >= o.minLabelPx;
    std::vector<LegendEntry> entries;
    if (o.legend) {
        if (m.kind() == GridModel::Kind::Fragment)
            entries.push_back({kTransparent, QStringLiteral("T = thread, L = register slot")});
        for (const LegendEntry& e : m.legend())
            if (labels || !e.aboutLabels) entries.push_back(e);
        if (!labels)
            entries.push_back(
                {kTransparent, labelsOmitted(cellPx, labelCellPx(m, cell, o.minLabelPx) * scale)});
    }
    const LegendLayout legend = layoutLegend(entries, gw + hw, fonts);
    const double legendH = o.legend ? legend.height + 8 : 0;
    const double sceneH = gy + gh + o.margin + legendH;
    const double w = std::ceil(std::ceil(sceneW) * scale), h = std::ceil(std::ceil(sceneH) * scale);
    if (w * h > o.maxPixels)
        return refuse("more pixels than the limit: the cells are shrunk to fit");

    RasterImage img;
    img.width = int(w);
    img.height = int(h);
    ts::detail::reserveHuge(img.pixels, std::size_t(img.width) * std::size_t(img.height));
    img.pixels.assign(std::size_t(img.width) * std::size_t(img.height), 0xffffffffu);
    Canvas cv(img);

    // Text in a box: horizontally from the left, centred or to the right; vertically centred.
    enum class Align { Left, Centre, Right };
    auto text = [&](const std::string& s, double px, bool bold, Argb ink, double x, double y,
                    double bw, double bh, Align a) {
        const FontRaster::Metrics fm = fonts.metrics(px, bold);
        const double adv = a == Align::Left ? 0 : fonts.advance(s, px, bold);
        const double left = a == Align::Left     ? x
                            : a == Align::Centre ? x + (bw - adv) / 2
                                                 : x + bw - adv;
        fonts.draw(cv.view, left, y + (bh - fm.height()) / 2 + fm.ascent, s, px, ink, bold);
    };

    // Title and subtitle.
    if (o.title && kTitleFont * scale >= 4) {
        text(title, kTitleFont * scale, true, kInk, gx * scale, o.margin * scale, 1e6,
             kTitleLine * scale, Align::Left);
        text(utf8(m.subtitle()), kSubtitleFont * scale, false, kMuted, gx * scale,
             (o.margin + kTitleLine) * scale, 1e6, kSubtitleLine * scale, Align::Left);
    }

    // Cells, then their labels (GridRenderer::paintCells).
    const double x0 = gx * scale, y0 = gy * scale;
    const double gap = cellPx >= kLabelGapMinPx ? 1.0 : 0.0;
    for (int r = 0; r < m.rows(); ++r)
        for (int c = 0; c < m.cols(); ++c) {
            const double cx = x0 + c * cellPx, cy = y0 + r * cellPx;
            cv.fill(cx, cy, cx + cellPx - gap, cy + cellPx - gap, m.color(r, c));
        }
    if (labels) {
        const int lines = m.labelLines();
        // Labels repeat (a thread owns many cells): each text is measured once.
        std::unordered_map<std::string, double> advances[2];
        const FontRaster::Metrics fm[2] = {fonts.metrics(f[0]), fonts.metrics(f[1])};
        auto centred = [&](int line, double x, double y, double bw, double bh, const QString& label,
                           Argb ink) {
            const std::string s = utf8(label);
            auto it = advances[line].find(s);
            if (it == advances[line].end())
                it = advances[line].emplace(s, fonts.advance(s, f[line])).first;
            fonts.draw(cv.view, x + bw / 2 - it->second / 2,
                       y + bh / 2 - fm[line].height() / 2 + fm[line].ascent, s, f[line], ink);
        };
        for (int r = 0; r < m.rows(); ++r)
            for (int c = 0; c < m.cols(); ++c) {
                if (!m.filled(r, c)) continue;
                const double dx = x0 + c * cellPx, dy = y0 + r * cellPx, d = cellPx - gap;
                const Argb ink = isDark(m.color(r, c)) ? 0xffffffffu : kInk;
                if (lines == 2) {
                    centred(0, dx, dy + d * 0.10, d, d * 0.42,
                            compact ? m.compactLabel(r, c) : m.label(r, c, 0), ink);
                    if (f[1] >= o.minLabelPx)
                        centred(1, dx, dy + d * 0.50, d, d * 0.40, m.label(r, c, 1), ink);
                } else {
                    centred(0, dx, dy, d, d, m.label(r, c, 0), ink);
                }
            }
    }

    // Column and row numbers (GridRenderer::paintHeaders).
    if (const double fpx = kHeaderFont * scale; fpx >= 5) {
        const FontRaster::Metrics fm = fonts.metrics(fpx);
        const double hh = kHeaderHeight * scale, hy = y0 - hh, hwPx = hw * scale;
        AxisLabelRequest cols;
        cols.first = 0;
        cols.last = m.cols() - 1;
        cols.count = m.cols();
        cols.step = headerStep(
            fonts.advance("0", fpx) * double(std::to_string(m.cols() - 1).size()) + 8, cellPx);
        cols.stripLo = x0 - hwPx;
        cols.stripHi = x0 + m.cols() * cellPx;
        cols.gap = 4 * scale;
        cols.centre = [&](int c) { return x0 + (c + 0.5) * cellPx; };
        cols.extent = [&](int c) { return fonts.advance(std::to_string(c), fpx) + 2; };
        for (const AxisLabelSpot& s : placeAxisLabels(cols))
            text(std::to_string(s.index), fpx, false, kMuted, s.lo, hy, s.hi - s.lo, hh,
                 Align::Centre);
        AxisLabelRequest rows;
        rows.first = 0;
        rows.last = m.rows() - 1;
        rows.count = m.rows();
        rows.step = headerStep(fm.height() + 2, cellPx);
        rows.stripLo = y0;
        rows.stripHi = y0 + m.rows() * cellPx;
        rows.gap = 1;
        rows.centre = [&](int r) { return y0 + (r + 0.5) * cellPx; };
        rows.extent = [&](int) { return fm.height() + 2; };
        for (const AxisLabelSpot& s : placeAxisLabels(rows))
            text(std::to_string(s.index), fpx, false, kMuted, x0 - hwPx, s.lo, hwPx - 6,
                 s.hi - s.lo, Align::Right);
    }

    // Legend (GridRenderer::paintLegend, scaled as the renderer's painter is).
    if (o.legend) {
        const double lx = (gx - hw) * scale, ly = (gy + gh + kLegendTop) * scale;
        const double lh = legend.lineH;
        for (const LegendItem& it : legend.items) {
            const bool swatch = (it.entry->color >> 24) != 0;
            const double ex = lx + it.x * scale, ey = ly + it.y * scale;
            if (swatch) {
                const double sx = ex, sy = ey + ((lh - 6 - kSwatch) / 2 + 3) * scale;
                cv.fill(sx, sy, sx + kSwatch * scale, sy + kSwatch * scale, it.entry->color);
                cv.outline(int(std::lround(sx)), int(std::lround(sy)),
                           int(std::lround(kSwatch * scale)), int(std::lround(kSwatch * scale)), 0,
                           60);
            }
            const double tx = ex + (swatch ? (kSwatch + kSwatchGap) * scale : 0);
            text(utf8(it.entry->text), kLegendFont * scale, false, kMuted, tx, ey, it.width * scale,
                 lh * scale, Align::Left);
        }
    }
    return img;
}

} // namespace tsw
