// SPDX-License-Identifier: Apache-2.0
// Heat and lane tags of an access instance (see kernel_heat.h).
#include "kernel/kernel_heat.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace tsw {

namespace {
quint64 nextRevision() {
    // Apart from the other overlays' counters only in that it is its own: the renderer compares
    // revisions of one overlay object's successive states, never across classes.
    static quint64 counter = 5000000;
    return ++counter;
}
} // namespace

InstanceHeatOverlay::InstanceHeatOverlay(int cols, std::vector<double> values, double lo, double hi)
    : cols_(cols), values_(std::move(values)), lo_(lo), hi_(hi), revision_(nextRevision()) {}

QColor InstanceHeatOverlay::heatColor(double t) {
    t = std::clamp(t, 0.0, 1.0);
    const QColor a(255, 247, 200), b(253, 141, 60), c(165, 15, 21);
    auto mix = [](QColor x, QColor y, double u) {
        return QColor::fromRgbF(x.redF() + (y.redF() - x.redF()) * u,
                                x.greenF() + (y.greenF() - x.greenF()) * u,
                                x.blueF() + (y.blueF() - x.blueF()) * u);
    };
    return t < 0.5 ? mix(a, b, t * 2) : mix(b, c, (t - 0.5) * 2);
}

double InstanceHeatOverlay::value(int row, int col) const {
    const std::size_t i = std::size_t(row) * std::size_t(cols_) + std::size_t(col);
    return i < values_.size() ? values_[i] : std::nan("");
}

std::optional<QRgb> InstanceHeatOverlay::cellColor(int row, int col) const {
    const double v = value(row, col);
    if (std::isnan(v)) return kUntouched;
    return heatColor(hi_ > lo_ ? (v - lo_) / (hi_ - lo_) : 0.0).rgb();
}

std::vector<LegendEntry> InstanceHeatOverlay::legend() const {
    std::vector<double> present;
    for (double v : values_)
        if (!std::isnan(v) && std::find(present.begin(), present.end(), v) == present.end()) {
            present.push_back(v);
            if (present.size() > 8) break;
        }
    std::sort(present.begin(), present.end());
    std::vector<LegendEntry> e;
    for (double v : present)
        e.push_back({heatColor(hi_ > lo_ ? (v - lo_) / (hi_ - lo_) : 0.0),
                     QStringLiteral("%1 wavefront%2 (this instruction)")
                         .arg(v)
                         .arg(v == 1 ? QString() : QStringLiteral("s"))});
    e.push_back({QColor::fromRgba(kUntouched), QStringLiteral("not touched by it")});
    e.push_back({LaneTagOverlay::kTag, QStringLiteral("tag: the lane that reads or writes the "
                                                      "cell first")});
    e.push_back({kTransparent, QStringLiteral("label: bank"), true});
    return e;
}

LaneTagOverlay::LaneTagOverlay(std::vector<LaneTag> tags, std::vector<double> values, int cols)
    : tags_(std::move(tags)), values_(std::move(values)), cols_(std::max(1, cols)) {}

void LaneTagOverlay::paint(QPainter& p, const GridRenderer& r, const QRect& cells) const {
    p.save();
    const double px = r.deviceCellRect(0, 0).width();
    // Frames thin with the cells and vanish below a few pixels, where they would hide the
    // colour they surround (as the bank panel's instruction frames do).
    const double pw = std::clamp(px / 10.0, 1.0, 2.0);
    if (px >= 6) {
        p.setPen(QPen(kTag, pw));
        p.setBrush(Qt::NoBrush);
        for (int row = cells.top(); row < cells.top() + cells.height(); ++row)
            for (int col = cells.left(); col < cells.left() + cells.width() && col < cols_; ++col) {
                const std::size_t i = std::size_t(row) * std::size_t(cols_) + std::size_t(col);
                if (i >= values_.size() || std::isnan(values_[i])) continue;
                p.drawRect(r.deviceCellRect(row, col).adjusted(pw / 2, pw / 2, -pw / 2, -pw / 2));
            }
    }
    for (const LaneTag& t : tags_) {
        if (!cells.contains(t.col, t.row)) continue;
        const QRectF rc = r.deviceCellRect(t.row, t.col);
        if (rc.width() < 14) continue;
        QFont f = p.font();
        f.setPixelSize(std::max(7, int(rc.height() * 0.30)));
        f.setBold(true);
        p.setFont(f);
        const QRectF tag(rc.left() + 1, rc.top() + 1, rc.width() * 0.62, rc.height() * 0.36);
        p.fillRect(tag, QColor(0, 90, 200, 210));
        p.setPen(Qt::white);
        p.drawText(tag, Qt::AlignCenter, QString::number(t.lane));
    }
    p.restore();
}

} // namespace tsw
