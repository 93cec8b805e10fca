// SPDX-License-Identifier: Apache-2.0
// Overlays and small grid-model helpers shared by the bank, swizzle, fractal and rasterization
// panels. Painting only: every number comes from core (access.h, swizzle_search.h, fractal.h,
// raster.h).
#pragma once

#include "grid/gridrenderer.h"

#include <QString>
#include <functional>
#include <vector>

namespace tsw {

// Cells coloured by a cost (wavefronts): NaN = untouched (light grey), otherwise a white ->
// yellow -> red ramp over [lo, hi]. The legend names the ends.
class HeatOverlay : public CellColorOverlay {
public:
    // `unit` is singular ("wavefront"); the legend pluralises it.
    HeatOverlay(int cols, std::vector<double> values, double lo, double hi, QString unit);
    std::optional<QRgb> cellColor(int row, int col) const override;
    // One entry per value present (up to 8, else the two ends), the untouched colour, extras.
    std::vector<LegendEntry> legend() const override;
    void setNoneText(const QString& t) { none_ = t; }
    void addLegend(const LegendEntry& e) { extra_.push_back(e); }
    quint64 revision() const override { return revision_; }
    double value(int row, int col) const;
    static QColor heatColor(double t); // t in 0..1

private:
    int cols_;
    std::vector<double> values_;
    double lo_, hi_;
    QString unit_;
    QString none_ = QStringLiteral("not accessed");
    std::vector<LegendEntry> extra_;
    quint64 revision_;
};

// Cells coloured by a category index (< 0: `none` colour).
class CategoryOverlay : public CellColorOverlay {
public:
    CategoryOverlay(int cols, std::vector<std::int64_t> cats, QRgb none = 0xffe8e8e8,
                    std::function<QColor(std::int64_t)> color = {},
                    std::vector<LegendEntry> legend = {});
    std::optional<QRgb> cellColor(int row, int col) const override;
    std::vector<LegendEntry> legend() const override { return legend_; }
    quint64 revision() const override { return revision_; }

private:
    int cols_;
    std::vector<std::int64_t> cats_;
    QRgb none_;
    std::function<QColor(std::int64_t)> color_;
    std::vector<LegendEntry> legend_;
    quint64 revision_;
};

// Thick lines between cells whose block ids differ (fractal blocks, swizzle periods); optional
// text per cell drawn over it (lane numbers in step mode, "pad").
class BlockOutlineOverlay : public GridOverlay {
public:
    BlockOutlineOverlay(int rows, int cols, std::vector<std::int64_t> blocks,
                        QColor color = QColor(20, 20, 20), double width = 2.5);
    void paint(QPainter& p, const GridRenderer& r, const QRect& cells) const override;

private:
    int rows_, cols_;
    std::vector<std::int64_t> blocks_;
    QColor color_;
    double width_;
};

// A frame around selected cells (the current instruction) with lane tags. A tagged cell is
// laid out again: its own label (the bank) in the upper half, the lane tag in the lower half,
// so the two never overlap; each is drawn only at the renderer's smallest legible size
// (Style::minLabelPx, 14 px in presenter mode) or not at all.
class CellMarksOverlay : public GridOverlay {
public:
    struct Mark {
        int row, col;
        QString text;
    };
    struct MarkedCell {
        QRectF label, tag;  // where the cell's label and the lane tag go
        double labelPx = 0; // their fonts (pixels) for texts of the given lengths
        double tagPx = 0;
    };
    static MarkedCell layoutMarkedCell(const QRectF& cell, int labelChars, int tagChars);
    static inline const QColor kFrame = QColor(0, 90, 200);
    CellMarksOverlay(std::vector<Mark> marks, std::vector<std::pair<int, int>> framed,
                     QColor frame = kFrame);
    void paint(QPainter& p, const GridRenderer& r, const QRect& cells) const override;

private:
    std::vector<Mark> marks_;
    std::vector<std::pair<int, int>> framed_;
    QColor frame_;
};

// A grid model over a hand-made LayoutTable (physical fractal storage, launch orders): the
// input view labels each cell with its flattened output; the output view labels each physical
// cell with its source coordinates, "—" where nothing maps (padding). outputShape is given so
// trailing padding stays visible.
GridModel tableGrid(const ts::Shape& input, std::size_t outRank, std::vector<std::int64_t> out,
                    const ts::Shape& outputShape, ViewMode view);

} // namespace tsw
