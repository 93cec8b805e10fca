// SPDX-License-Identifier: Apache-2.0
// Overlays shared by the analysis panels (see bank_overlays.h).
#include "banks/bank_overlays.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace tsw {

namespace {
quint64 nextRevision() {
    static quint64 counter = 1000000;
    return ++counter;
}
} // namespace

HeatOverlay::HeatOverlay(int cols, std::vector<double> values, double lo, double hi, QString unit)
    : cols_(cols), values_(std::move(values)), lo_(lo), hi_(hi), unit_(std::move(unit)),
      revision_(nextRevision()) {}

QColor HeatOverlay::heatColor(double t) {
    t = std::clamp(t, 0.0, 1.0);
    // white-ish yellow (cheap) -> orange -> deep red (expensive)
    const QColor a(255, 247, 200), b(253, 141, 60), c(165, 15, 21);
    auto mix = [](QColor x, QColor y, double u) {
        return QColor::fromRgbF(x.redF() + (y.redF() - x.redF()) * u,
                                x.greenF() + (y.greenF() - x.greenF()) * u,
                                x.blueF() + (y.blueF() - x.blueF()) * u);
    };
    return t < 0.5 ? mix(a, b, t * 2) : mix(b, c, (t - 0.5) * 2);
}

double HeatOverlay::value(int row, int col) const {
    const std::size_t i = std::size_t(row) * std::size_t(cols_) + std::size_t(col);
    return i < values_.size() ? values_[i] : std::nan("");
}

std::optional<QRgb> HeatOverlay::cellColor(int row, int col) const {
    const double v = value(row, col);
    if (std::isnan(v)) return qRgb(236, 236, 236);
    return heatColor(hi_ > lo_ ? (v - lo_) / (hi_ - lo_) : 0.0).rgb();
}

std::vector<LegendEntry> HeatOverlay::legend() const {
    std::vector<double> present;
    bool untouched = false;
    for (double v : values_) {
        if (std::isnan(v)) {
            untouched = true;
            continue;
        }
        if (std::find(present.begin(), present.end(), v) == present.end()) present.push_back(v);
        if (present.size() > 8) break;
    }
    std::sort(present.begin(), present.end());
    auto name = [this](double v) {
        return QStringLiteral("%1 %2%3").arg(v).arg(unit_).arg(v == 1 ? "" : "s");
    };
    auto colorOf = [this](double v) { return heatColor(hi_ > lo_ ? (v - lo_) / (hi_ - lo_) : 0); };
    std::vector<LegendEntry> e;
    if (present.size() <= 8) {
        for (double v : present)
            e.push_back({colorOf(v), name(v)});
    } else {
        e.push_back({heatColor(0), name(lo_)});
        e.push_back({heatColor(0.5), QStringLiteral("…")});
        e.push_back({heatColor(1), name(hi_)});
    }
    if (untouched || values_.empty()) e.push_back({QColor(236, 236, 236), none_});
    e.insert(e.end(), extra_.begin(), extra_.end());
    return e;
}

CategoryOverlay::CategoryOverlay(int cols, std::vector<std::int64_t> cats, QRgb none,
                                 std::function<QColor(std::int64_t)> color,
                                 std::vector<LegendEntry> legend)
    : cols_(cols), cats_(std::move(cats)), none_(none), color_(std::move(color)),
      legend_(std::move(legend)), revision_(nextRevision()) {
    if (!color_) color_ = [](std::int64_t i) { return categoricalColor(i); };
}

std::optional<QRgb> CategoryOverlay::cellColor(int row, int col) const {
    const std::size_t i = std::size_t(row) * std::size_t(cols_) + std::size_t(col);
    if (i >= cats_.size()) return std::nullopt;
    if (cats_[i] < 0) return none_;
    return color_(cats_[i]).rgb();
}

BlockOutlineOverlay::BlockOutlineOverlay(int rows, int cols, std::vector<std::int64_t> blocks,
                                         QColor color, double width)
    : rows_(rows), cols_(cols), blocks_(std::move(blocks)), color_(color), width_(width) {}

void BlockOutlineOverlay::paint(QPainter& p, const GridRenderer& r, const QRect& cells) const {
    auto id = [&](int row, int col) -> std::int64_t {
        if (row < 0 || col < 0 || row >= rows_ || col >= cols_) return -2;
        return blocks_[std::size_t(row) * std::size_t(cols_) + std::size_t(col)];
    };
    p.save();
    QPen pen(color_, width_);
    pen.setCapStyle(Qt::SquareCap);
    p.setPen(pen);
    for (int row = cells.top(); row < cells.top() + cells.height() && row < rows_; ++row)
        for (int col = cells.left(); col < cells.left() + cells.width() && col < cols_; ++col) {
            const QRectF rc = r.deviceCellRect(row, col);
            const std::int64_t me = id(row, col);
            if (id(row, col + 1) != me) p.drawLine(rc.topRight(), rc.bottomRight());
            if (id(row + 1, col) != me) p.drawLine(rc.bottomLeft(), rc.bottomRight());
            if (col == 0) p.drawLine(rc.topLeft(), rc.bottomLeft());
            if (row == 0) p.drawLine(rc.topLeft(), rc.topRight());
        }
    p.restore();
}

CellMarksOverlay::CellMarksOverlay(std::vector<Mark> marks, std::vector<std::pair<int, int>> framed,
                                   QColor frame)
    : marks_(std::move(marks)), framed_(std::move(framed)), frame_(frame) {}

void CellMarksOverlay::paint(QPainter& p, const GridRenderer& r, const QRect& cells) const {
    p.save();
    // Frames thin with the cells, and vanish below a few pixels, where they would hide the
    // heat colour they surround.
    const double px = r.deviceCellRect(0, 0).width();
    const double pw = std::clamp(px / 10.0, 1.0, 2.0);
    p.setPen(QPen(frame_, pw));
    p.setBrush(Qt::NoBrush);
    for (auto [row, col] : framed_) {
        if (px < 6) break;
        if (!cells.contains(col, row)) continue;
        p.drawRect(r.deviceCellRect(row, col).adjusted(pw / 2, pw / 2, -pw / 2, -pw / 2));
    }
    const double minPx = r.style().minLabelPx;
    for (const Mark& m : marks_) {
        if (!cells.contains(m.col, m.row)) continue;
        const QRectF rc = r.deviceCellRect(m.row, m.col);
        if (rc.width() < 14) continue;
        const QString label = r.model().label(m.row, m.col, 0);
        const MarkedCell mc = layoutMarkedCell(rc, int(label.size()), int(m.text.size()));
        // The renderer's centred label would sit under the tag: the cell is cleared inside its
        // frame and both are drawn in their own halves.
        const QColor fill(r.effectiveColor(m.row, m.col));
        p.fillRect(rc.adjusted(pw, pw, -pw, -pw), fill);
        QFont f = p.font();
        f.setBold(false);
        if (mc.labelPx >= minPx && !label.isEmpty()) {
            f.setPixelSize(std::max(1, int(mc.labelPx)));
            p.setFont(f);
            p.setPen(qGray(fill.rgb()) < 140 ? QColor(Qt::white) : QColor(0x1d, 0x21, 0x27));
            p.drawText(mc.label, Qt::AlignCenter, label);
        }
        if (mc.tagPx >= minPx) {
            f.setBold(true);
            f.setPixelSize(std::max(1, int(mc.tagPx)));
            p.setFont(f);
            p.fillRect(mc.tag, QColor(0, 90, 200, 220));
            p.setPen(Qt::white);
            p.drawText(mc.tag, Qt::AlignCenter, m.text);
        }
        p.setPen(QPen(frame_, pw));
    }
    p.restore();
}

CellMarksOverlay::MarkedCell CellMarksOverlay::layoutMarkedCell(const QRectF& cell, int labelChars,
                                                                int tagChars) {
    MarkedCell m;
    const double w = cell.width(), h = cell.height();
    // Upper and lower halves, a pixel apart; fonts fit their half's height and the text's width
    // (0.6 em per digit).
    m.label = QRectF(cell.left() + 1, cell.top() + 1, w - 2, h * 0.5 - 1.5);
    m.tag = QRectF(cell.left() + 1, cell.top() + h * 0.5 + 0.5, w - 2, h * 0.5 - 1.5);
    auto fit = [](const QRectF& r, int chars) {
        return std::min(r.height() * 0.85, r.width() * 0.94 / (std::max(1, chars) * 0.62));
    };
    m.labelPx = fit(m.label, labelChars);
    m.tagPx = fit(m.tag, tagChars);
    return m;
}

GridModel tableGrid(const ts::Shape& input, std::size_t outRank, std::vector<std::int64_t> out,
                    const ts::Shape& outputShape, ViewMode view) {
    ts::LayoutTable t;
    t.inputShape = input;
    t.outRank = outRank;
    t.out = std::move(out);
    t.outputShape = outputShape;
    return GridModel::fromLayout(t, view, false); // values shown per cell, not a layout
}

} // namespace tsw
