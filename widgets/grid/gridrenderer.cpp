// SPDX-License-Identifier: Apache-2.0
#include "grid/gridrenderer.h"

#include "grid/axis_labels.h"

#include "grid/grid_layout.h"
#include "grid/grid_overview.h"
#include "grid/grid_svg.h"
#include "grid/png_fast.h"

#include <QBuffer>

#include <QFileInfo>
#include <QFontMetricsF>
#include <QHash>
#include <QPageSize>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSet>
#include <QStaticText>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace tsw {

namespace {

using layout::kHeaderFont;
using layout::kLegendFont;
using layout::kSubtitleFont;
using layout::kTitleFont;
const QColor kInk = QColor::fromRgba(layout::kInk);
const QColor kMuted = QColor::fromRgba(layout::kMuted);

QRgb blendWhite(QRgb c, double t) {
    return qRgb(int(qRed(c) + (255 - qRed(c)) * t), int(qGreen(c) + (255 - qGreen(c)) * t),
                int(qBlue(c) + (255 - qBlue(c)) * t));
}

QFont fontPx(const QString& family, double px, bool bold = false) {
    QFont f;
    if (!family.isEmpty()) f.setFamily(family);
    f.setPixelSize(std::max(1, int(std::lround(px))));
    f.setBold(bold);
    f.setHintingPreference(QFont::PreferNoHinting);
    return f;
}

} // namespace

// ---------------------------------------------------------------- ValueColorOverlay

ValueColorOverlay::ValueColorOverlay(int cols, std::vector<double> values, double lo, double hi,
                                     std::function<QColor(double)> ramp, QString legendTitle)
    : cols_(cols), values_(std::move(values)), lo_(lo), hi_(hi), ramp_(std::move(ramp)),
      title_(std::move(legendTitle)) {
    static quint64 counter = 0;
    revision_ = ++counter;
    if (!ramp_) ramp_ = [](double t) { return rampColor(1.0 - t); };
}

std::optional<QRgb> ValueColorOverlay::cellColor(int row, int col) const {
    const std::size_t i = std::size_t(row) * cols_ + col;
    if (i >= values_.size() || std::isnan(values_[i])) return std::nullopt;
    const double t = hi_ > lo_ ? (values_[i] - lo_) / (hi_ - lo_) : 0.0;
    return ramp_(std::clamp(t, 0.0, 1.0)).rgb();
}

std::vector<LegendEntry> ValueColorOverlay::legend() const {
    return {{ramp_(0).rgba(), QStringLiteral("%1 %2").arg(title_).arg(lo_)},
            {ramp_(1).rgba(), QStringLiteral("%1 %2").arg(title_).arg(hi_)}};
}

// ---------------------------------------------------------------- GridRenderer

GridRenderer::GridRenderer() = default;
GridRenderer::GridRenderer(GridModel model) : model_(std::move(model)) {}
GridRenderer::GridRenderer(GridModel model, Style style)
    : model_(std::move(model)), style_(std::move(style)) {}

void GridRenderer::setModel(GridModel model) {
    lowDetail_ = QImage(); // it may show the old model's colours in place
    overviews_.clear();
    overviewColours_.clear();
    model_ = std::move(model);
    ++revision_;
    hover_.reset();
}
void GridRenderer::setStyle(const Style& s) {
    style_ = s;
    ++revision_;
}
void GridRenderer::setHighlight(const Highlight& h) {
    if (h == highlight_) return;
    highlight_ = h;
    ++revision_;
}
void GridRenderer::setCellColorOverlay(std::shared_ptr<const CellColorOverlay> o) {
    colorOverlay_ = std::move(o);
    ++revision_;
}
void GridRenderer::addOverlay(std::shared_ptr<const GridOverlay> o) {
    overlays_.push_back(std::move(o));
}
void GridRenderer::clearOverlays() {
    overlays_.clear();
}

double GridRenderer::headerW() const {
    return style_.headers ? layout::headerWidth(model_.rows()) : 0;
}
double GridRenderer::headerH() const {
    return style_.headers ? layout::kHeaderHeight : 0;
}
double GridRenderer::titleH() const {
    return style_.title ? layout::kTitleHeight : 0;
}
double GridRenderer::legendH() const {
    if (!style_.legendInScene || model_.isEmpty()) return 0;
    return paintLegend(nullptr, {}, model_.cols() * style_.cell + headerW(), false).height() + 8;
}

QRectF GridRenderer::gridRect() const {
    return QRectF(style_.margin + headerW(), style_.margin + titleH() + headerH(),
                  model_.cols() * style_.cell, model_.rows() * style_.cell);
}

QSizeF GridRenderer::sceneSize() const {
    const QRectF g = gridRect();
    double w = g.right() + style_.margin;
    if (style_.title) {
        // Keep the title on the page for narrow grids, and on an exported page the subtitle (a
        // CuTe layout's names its axes and is often the widest line).
        QFontMetricsF fm(fontPx(style_.fontFamily, kTitleFont, true));
        QFontMetricsF sub(fontPx(style_.fontFamily, kSubtitleFont));
        w = std::max(w, g.left() + fm.horizontalAdvance(model_.title()) + style_.margin);
        if (style_.exportPage)
            w = std::max(w, g.left() + sub.horizontalAdvance(model_.subtitle()) + style_.margin);
    }
    return {std::ceil(w), std::ceil(g.bottom() + style_.margin + legendH())};
}

QRectF GridRenderer::cellRect(int row, int col) const {
    const QRectF g = gridRect();
    return QRectF(g.left() + col * style_.cell, g.top() + row * style_.cell, style_.cell,
                  style_.cell);
}

QRectF GridRenderer::deviceCellRect(int row, int col) const {
    const QRectF s = cellRect(row, col);
    return QRectF(origin_ + s.topLeft() * scale_, s.size() * scale_);
}

std::optional<QPoint> GridRenderer::cellAt(QPointF scenePos) const {
    const QRectF g = gridRect();
    if (model_.isEmpty() || !g.contains(scenePos)) return std::nullopt;
    const int c = std::min(model_.cols() - 1, int((scenePos.x() - g.left()) / style_.cell));
    const int r = std::min(model_.rows() - 1, int((scenePos.y() - g.top()) / style_.cell));
    return QPoint(c, r);
}

QRgb GridRenderer::effectiveColor(int row, int col) const {
    QRgb c = model_.color(row, col);
    if (colorOverlay_)
        if (auto o = colorOverlay_->cellColor(row, col)) c = *o;
    if (highlight_.active() && !model_.matches(row, col, highlight_)) c = blendWhite(c, 0.78);
    return c;
}

int GridRenderer::overviewBlockAt(double scale) const {
    return overviewBlock(style_.cell * scale);
}

bool GridRenderer::overviewGroupsAt(double scale) const {
    return !colorOverlay_ && model_.hasGroups() && overviewBlockAt(scale) > 1;
}

std::vector<LegendEntry> GridRenderer::legendEntries(double scale) const {
    if (scale < 0) scale = scale_;
    std::vector<LegendEntry> e;
    if (model_.kind() == GridModel::Kind::Fragment)
        e.push_back({kTransparent, QStringLiteral("T = thread, L = register slot")});
    bool overlay = false;
    if (colorOverlay_) {
        auto o = colorOverlay_->legend();
        if (!o.empty()) {
            e.insert(e.end(), o.begin(), o.end());
            overlay = true;
        }
    }
    if (!overlay) {
        const auto& m = model_.legend();
        e.insert(e.end(), m.begin(), m.end());
    }
    const int k = overviewBlockAt(scale);
    {
        // A line about the labels goes when no label is drawn at this scale.
        double f[2];
        bool compact = false;
        labelFonts(scale, f, &compact);
        if (k > 1 || f[0] < style_.minLabelPx)
            e.erase(std::remove_if(e.begin(), e.end(),
                                   [](const LegendEntry& x) { return x.aboutLabels; }),
                    e.end());
    }
    if (style_.legendInScene && !model_.isEmpty() && k <= 1) {
        // An export too small for its labels says so, rather than silently dropping them.
        double f[2];
        bool compact = false;
        labelFonts(scale, f, &compact);
        if (f[0] < style_.minLabelPx)
            e.push_back(
                {kTransparent, layout::labelsOmitted(style_.cell * scale, labelCellPx() * scale)});
    }
    // Below a pixel per cell only the overview's colours are drawn: where it has been built (and
    // no highlight or diff mark tints it), a swatch of a colour it does not contain is left out.
    const bool knownColours = k > 1 && !model_.isEmpty() && !highlight_.active() &&
                              !model_.hasMarks() && !lowDetail_.isNull() &&
                              lowDetailKey_ == colorKey();
    const QSet<QRgb> none;
    const QSet<QRgb>& drawn = knownColours ? overviewColours(drawnOverviewBlock(k)) : none;
    if (knownColours) {
        e.erase(std::remove_if(e.begin(), e.end(),
                               [&](const LegendEntry& x) {
                                   return qAlpha(x.color) != 0 &&
                                          !drawn.contains(x.color | 0xff000000u);
                               }),
                e.end());
    }
    if (k > 1 && !model_.isEmpty()) {
        // Below a pixel per cell the colours summarise blocks: say how, with the group colours.
        // The block size is the one drawn (a nearby level stands in while this one is built).
        const int shown = drawnOverviewBlock(k);
        const QString rule =
            overviewGroupsAt(scale)
                ? QStringLiteral("overview (%1×%1 cells per pixel): the colour of most of a "
                                 "block's cells, else of its most common %2:")
                      .arg(shown)
                      .arg(model_.groupName())
                : QStringLiteral("overview (%1×%1 cells per pixel): the colour of most of a "
                                 "block's cells, else %2")
                      .arg(shown)
                      .arg(model_.continuousColors() && !colorOverlay_
                               ? QStringLiteral("their mean")
                               : QStringLiteral("the most common one"));
        e.push_back({kTransparent, rule});
        if (overviewGroupsAt(scale)) {
            const std::int64_t n = model_.groupCount();
            for (std::int64_t g = 0; g < std::min<std::int64_t>(n, 12); ++g)
                if (!knownColours || drawn.contains(GridModel::groupColor(g) | 0xff000000u))
                    e.push_back({GridModel::groupColor(g),
                                 QStringLiteral("%1 %2").arg(model_.groupName()).arg(g)});
            if (n > 12)
                e.push_back(
                    {kTransparent,
                     QStringLiteral("… %1 %2s (colours repeat)").arg(n).arg(model_.groupName())});
        }
    }
    return e;
}

double GridRenderer::legendLineHeight() const {
    const QFontMetricsF fm(fontPx(style_.fontFamily, style_.legendFontPx));
    const double u = style_.legendFontPx / kLegendFont;
    return std::max(fm.height(), 12 * u) + 6 * u;
}

QSizeF GridRenderer::paintLegend(QPainter* p, QPointF topLeft, double maxWidth, bool paint,
                                 double scale) const {
    const QFont f = fontPx(style_.fontFamily, style_.legendFontPx);
    QFontMetricsF fm(f);
    const double u = style_.legendFontPx / kLegendFont;
    const double sw = 12 * u, gap = 6 * u, spacing = 16 * u,
                 lineH = std::max(fm.height(), sw) + 6 * u;
    double x = 0, y = 0, w = 0;
    const auto entries = legendEntries(scale);
    if (paint && p) {
        p->save();
        p->setFont(f);
    }
    for (const auto& e : entries) {
        const bool swatch = qAlpha(e.color) > 0;
        const double ew = (swatch ? sw + gap : 0) + fm.horizontalAdvance(e.text);
        if (x > 0 && x + ew > maxWidth) {
            x = 0;
            y += lineH;
        }
        if (paint && p) {
            const QPointF at = topLeft + QPointF(x, y);
            if (swatch) {
                const QRectF r(at.x(), at.y() + (lineH - 6 - sw) / 2 + 3, sw, sw);
                p->fillRect(r, QColor::fromRgba(e.color));
                p->setPen(QPen(QColor(0, 0, 0, 60), 1));
                p->setBrush(Qt::NoBrush);
                p->drawRect(r);
            }
            p->setPen(kMuted);
            p->drawText(QRectF(at.x() + (swatch ? sw + gap : 0), at.y(), ew, lineH),
                        Qt::AlignVCenter | Qt::AlignLeft, e.text);
        }
        x += ew + spacing;
        w = std::max(w, x - spacing);
    }
    if (paint && p) p->restore();
    return entries.empty() ? QSizeF() : QSizeF(w, y + lineH);
}

void GridRenderer::paint(QPainter& p, const QRectF& deviceRect, QPointF origin,
                         double scale) const {
    origin_ = origin;
    scale_ = scale;
    p.save();
    p.setClipRect(deviceRect);
    // (SVG export writes the page and the cells itself, under what is painted here.)
    if (!cellsDrawnElsewhere_) p.fillRect(deviceRect, Qt::white);
    if (model_.isEmpty()) {
        p.restore();
        return;
    }
    const QRectF g = gridRect();
    auto toDev = [&](QPointF s) { return origin + s * scale; };

    // Title and subtitle.
    if (style_.title && kTitleFont * scale >= 4) {
        const QPointF t = toDev(QPointF(g.left(), style_.margin));
        p.setPen(kInk);
        p.setFont(fontPx(style_.fontFamily, kTitleFont * scale, true));
        p.drawText(QRectF(t, QSizeF(1e6, layout::kTitleLine * scale)),
                   Qt::AlignLeft | Qt::AlignVCenter, model_.title());
        p.setPen(kMuted);
        p.setFont(fontPx(style_.fontFamily, kSubtitleFont * scale));
        p.drawText(QRectF(t + QPointF(0, layout::kTitleLine * scale),
                          QSizeF(1e6, layout::kSubtitleLine * scale)),
                   Qt::AlignLeft | Qt::AlignVCenter, model_.subtitle());
    }

    // Visible cell range.
    const QRectF sceneExposed((deviceRect.topLeft() - origin) / scale, deviceRect.size() / scale);
    const QRectF vis = sceneExposed.intersected(g);
    if (!vis.isEmpty()) {
        const int c0 = std::max(0, int(std::floor((vis.left() - g.left()) / style_.cell)));
        const int r0 = std::max(0, int(std::floor((vis.top() - g.top()) / style_.cell)));
        const int c1 =
            std::min(model_.cols(), int(std::ceil((vis.right() - g.left()) / style_.cell)));
        const int r1 =
            std::min(model_.rows(), int(std::ceil((vis.bottom() - g.top()) / style_.cell)));
        const QRect cells(c0, r0, std::max(0, c1 - c0), std::max(0, r1 - r0));
        // Below ~10 px a cell has no gap and no label: one image pixel per cell is exact and
        // far cheaper than a rectangle per cell.
        if (style_.cell * scale < 10.0 && p.paintEngine()->type() != QPaintEngine::SVG &&
            p.paintEngine()->type() != QPaintEngine::Pdf)
            paintLowDetail(p, cells);
        else if (!cellsDrawnElsewhere_)
            paintCells(p, cells);
        for (const auto& o : overlays_)
            o->paint(p, *this, cells);
        if (hover_ && cells.contains(*hover_)) {
            p.setPen(QPen(kInk, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(deviceCellRect(hover_->y(), hover_->x()).adjusted(1, 1, -1, -1));
        }
        paintHeaders(p, cells, deviceRect);
    }
    if (style_.legendInScene) {
        const QPointF at = toDev(QPointF(g.left() - headerW(), g.bottom() + layout::kLegendTop));
        p.save();
        p.translate(at);
        p.scale(scale, scale);
        paintLegend(&p, {}, g.width() + headerW(), true);
        p.restore();
    }
    p.restore();
}

quint64 GridRenderer::colorKey() const {
    return revision_ ^ (colorOverlay_ ? colorOverlay_->revision() << 32 : 0);
}

QSet<QRgb> GridRenderer::coloursOf(const QImage& img) {
    QSet<QRgb> drawn;
    // Neighbouring pixels mostly share a colour (a warp is a block of them): hashing only where
    // the colour changes rather than per pixel (4M inserts at the 2x2 level of 4096 x 4096).
    for (int y = 0; y < img.height(); ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        QRgb last = 0;
        for (int x = 0; x < img.width(); ++x) {
            const QRgb c = line[x] | 0xff000000u;
            if (x > 0 && c == last) continue;
            drawn.insert(c);
            last = c;
        }
    }
    return drawn;
}

const QSet<QRgb>& GridRenderer::overviewColours(int k) const {
    for (const auto& [kk, set] : overviewColours_)
        if (kk == k) return set;
    overviewColours_.emplace_back(k, coloursOf(overviewImage(k)));
    return overviewColours_.back().second;
}

namespace {

// What an overview of a model's own colours (no overlay, highlight or marks) is built from.
OverviewInput plainOverviewInput(const GridModel& m) {
    OverviewInput in;
    in.rows = m.rows();
    in.cols = m.cols();
    in.colors = m.colorData();
    if (m.hasGroups()) {
        const GridModel::GroupSource g = m.groupSource();
        in.groups = g.values;
        in.groupStride = g.stride;
        in.groupDivisor = g.divisor;
        in.groupColor = &GridModel::groupColor;
    }
    in.continuous = m.continuousColors();
    return in;
}

} // namespace

bool GridRenderer::plainColours() const {
    return !colorOverlay_ && !highlight_.active() && !model_.hasMarks() && model_.colorData();
}

std::optional<GridRenderer::OverviewJob> GridRenderer::overviewJob(int maxBlock) const {
    if (!plainColours() || model_.isEmpty()) return std::nullopt;
    OverviewJob job{model_, colorKey(), {}};
    for (int k = 2; k <= maxBlock; k *= 2)
        if (std::none_of(overviews_.begin(), overviews_.end(),
                         [&](const auto& o) { return o.first == k && lowDetailKey_ == job.key; }))
            job.blocks.push_back(k);
    if (job.blocks.empty()) return std::nullopt;
    return job;
}

QImage GridRenderer::buildOverview(const OverviewJob& job, int k) {
    return aggregateOverview(plainOverviewInput(job.model), k);
}

void GridRenderer::adoptOverview(int k, quint64 key, QImage img,
                                 std::optional<QSet<QRgb>> colours) {
    if (key != colorKey() || img.isNull()) return;
    ensureLowDetail();
    for (const auto& o : overviews_)
        if (o.first == k) return;
    overviews_.emplace_back(k, std::move(img));
    if (colours && std::none_of(overviewColours_.begin(), overviewColours_.end(),
                                [k](const auto& c) { return c.first == k; }))
        overviewColours_.emplace_back(k, std::move(*colours));
}

int GridRenderer::drawnOverviewBlock(int k) const {
    if (k <= 1 || !overviewsArriveLater_ || !plainColours() || lowDetailKey_ != colorKey())
        return k;
    auto built = [&](int b) {
        return std::any_of(overviews_.begin(), overviews_.end(),
                           [b](const auto& o) { return o.first == b; });
    };
    if (built(k) || overviews_.empty()) return k; // none at all yet: build this one now
    // The nearest level built: a coarser one first (blocky for a moment rather than aliased).
    for (int step = 2; step <= (1 << 20); step *= 2) {
        if (built(k * step)) return k * step;
        if (k / step >= 2 && built(k / step)) return k / step;
    }
    return k;
}

const QImage& GridRenderer::overviewImage(int k) const {
    for (const auto& [kk, img] : overviews_)
        if (kk == k) return img;
    if (plainColours()) {
        overviews_.emplace_back(k, aggregateOverview(plainOverviewInput(model_), k));
        return overviews_.back().second;
    }
    OverviewInput in;
    in.rows = model_.rows();
    in.cols = model_.cols();
    in.colors = reinterpret_cast<const QRgb*>(lowDetail_.constBits());
    const std::size_t n = std::size_t(in.rows) * std::size_t(in.cols);
    if (!colorOverlay_ && model_.hasGroups()) {
        const GridModel::GroupSource g = model_.groupSource();
        in.groups = g.values;
        in.groupStride = g.stride;
        in.groupDivisor = g.divisor;
        in.groupColor = &GridModel::groupColor;
    }
    std::vector<std::uint8_t> emph;
    if (highlight_.active()) {
        emph.resize(n);
        for (int r = 0; r < in.rows; ++r)
            for (int c = 0; c < in.cols; ++c)
                emph[std::size_t(r) * std::size_t(in.cols) + c] = model_.matches(r, c, highlight_);
        in.emphasised = emph.data();
        in.dimUnemphasised = true;
    }
    if (model_.hasMarks()) {
        // Diff marks win their block like a highlight does.
        emph.resize(n);
        for (int r = 0; r < in.rows; ++r)
            for (int c = 0; c < in.cols; ++c)
                emph[std::size_t(r) * std::size_t(in.cols) + c] |= model_.mark(r, c) ? 1 : 0;
        in.emphasised = emph.data();
    }
    in.continuous = !colorOverlay_ && model_.continuousColors();
    overviews_.emplace_back(k, aggregateOverview(in, k));
    return overviews_.back().second;
}

void GridRenderer::ensureLowDetail() const {
    const quint64 key = colorKey();
    if (lowDetail_.isNull() || lowDetailKey_ != key) {
        overviews_.clear();
        overviewColours_.clear();
        const QRgb* base = model_.colorData();
        const bool plain = plainColours();
        // Plain colours are the model's own array, shown in place (read-only; model_ keeps it
        // alive): a copy of a 16M-cell grid is 64 MB of fresh memory on every open.
        QImage img = plain
                         ? QImage(reinterpret_cast<const uchar*>(base), model_.cols(),
                                  model_.rows(), qsizetype(model_.cols()) * 4, QImage::Format_RGB32)
                         : QImage(model_.cols(), model_.rows(), QImage::Format_RGB32);
        for (int r = 0; !plain && r < model_.rows(); ++r) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(r));
            for (int c = 0; c < model_.cols(); ++c)
                line[c] = model_.mark(r, c) ? qRgb(220, 30, 30) : effectiveColor(r, c);
        }
        lowDetail_ = img;
        lowDetailKey_ = key;
    }
}

void GridRenderer::paintLowDetail(QPainter& p, const QRect& cells) const {
    ensureLowDetail();
    // The block size this zoom needs, or a level near it while that one is being built.
    const int k = drawnOverviewBlock(overviewBlock(style_.cell * scale_));
    if (k <= 1) {
        const QRectF target(deviceCellRect(cells.top(), cells.left()).topLeft(),
                            QSizeF(cells.width(), cells.height()) * style_.cell * scale_);
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(target, lowDetail_, cells);
        return;
    }
    // Whole blocks covering the visible cells; each overview pixel is k cells wide, at least
    // one device pixel, so nothing aliases.
    const QImage& ov = overviewImage(k);
    const int bx0 = cells.left() / k, by0 = cells.top() / k;
    const int bx1 = std::min(ov.width(), (cells.left() + cells.width() + k - 1) / k);
    const int by1 = std::min(ov.height(), (cells.top() + cells.height() + k - 1) / k);
    if (bx1 <= bx0 || by1 <= by0) return;
    const QRectF tl = deviceCellRect(by0 * k, bx0 * k);
    const double blockPx = k * style_.cell * scale_;
    // A partial last block is cut at the grid's edge rather than squeezed.
    const QRectF grid(deviceCellRect(0, 0).topLeft(),
                      QSizeF(model_.cols(), model_.rows()) * style_.cell * scale_);
    p.save();
    p.setClipRect(grid, Qt::IntersectClip);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.drawImage(QRectF(tl.topLeft(), QSizeF(bx1 - bx0, by1 - by0) * blockPx), ov,
                QRectF(bx0, by0, bx1 - bx0, by1 - by0));
    p.restore();
}

void GridRenderer::labelFonts(double scale, double* f, bool* compact) const {
    layout::labelFonts(model_, style_.cell, scale, f, compact);
}

double GridRenderer::labelCellPx() const {
    return layout::labelCellPx(model_, style_.cell, style_.minLabelPx);
}

void GridRenderer::paintCells(QPainter& p, const QRect& cells) const {
    const double cellPx = style_.cell * scale_;
    const double gap = cellPx >= layout::kLabelGapMinPx ? 1.0 : 0.0;
    const QRectF g0 = deviceCellRect(0, 0);
    // An export reports each row (fills are the first half of the work, labels the second) and
    // stops when cancelled.
    auto stopAt = [&](int r, int half) {
        if (!progress_) return false;
        if (progress_->cancelled.load(std::memory_order_relaxed)) return true;
        const double done = (half + double(r - cells.top()) / std::max(1, cells.height())) / 2;
        progress_->permille.store(int(done * progressSpan_), std::memory_order_relaxed);
        return false;
    };
    // Fills.
    for (int r = cells.top(); r < cells.top() + cells.height(); ++r) {
        if (stopAt(r, 0)) return;
        for (int c = cells.left(); c < cells.left() + cells.width(); ++c) {
            const QRectF d(g0.left() + c * cellPx, g0.top() + r * cellPx, cellPx - gap,
                           cellPx - gap);
            p.fillRect(d, QColor(effectiveColor(r, c)));
        }
    }
    // Labels, only where legible.
    const int lines = model_.labelLines();
    bool compact = false;
    double f[2] = {0, 0};
    labelFonts(scale_, f, &compact);
    QFont fonts[2] = {fontPx(style_.fontFamily, f[0]), fontPx(style_.fontFamily, f[1])};
    const bool drawLabels = f[0] >= style_.minLabelPx;
    // Labels repeat (a thread owns many cells): each distinct text is laid out once per font
    // and then only positioned, which is several times cheaper than drawText's layout per call.
    QHash<QString, QStaticText> laidOut[2];
    auto centred = [&](int font, const QRectF& r, const QString& text) {
        auto it = laidOut[font].find(text);
        if (it == laidOut[font].end()) {
            QStaticText st(text);
            st.setTextFormat(Qt::PlainText);
            st.setPerformanceHint(QStaticText::AggressiveCaching);
            st.prepare(p.transform(), fonts[font]);
            it = laidOut[font].insert(text, st);
        }
        const QSizeF sz = it->size();
        p.drawStaticText(QPointF(r.center().x() - sz.width() / 2, r.center().y() - sz.height() / 2),
                         *it);
    };
    const QColor light(255, 255, 255), dark(0x1d, 0x21, 0x27), dim(0x1d, 0x21, 0x27, 110);
    for (int r = cells.top(); r < cells.top() + cells.height(); ++r) {
        if (stopAt(r, 1)) return;
        for (int c = cells.left(); c < cells.left() + cells.width(); ++c) {
            const QRectF d(g0.left() + c * cellPx, g0.top() + r * cellPx, cellPx - gap,
                           cellPx - gap);
            const bool hl = highlight_.active() && model_.matches(r, c, highlight_);
            if (drawLabels && model_.filled(r, c)) {
                const QRgb col = effectiveColor(r, c);
                QColor ink = isDark(col) ? light : dark;
                if (highlight_.active() && !hl) ink = dim;
                p.setPen(ink);
                if (lines == 2) {
                    p.setFont(fonts[0]);
                    centred(
                        0,
                        QRectF(d.left(), d.top() + d.height() * 0.10, d.width(), d.height() * 0.42),
                        compact ? model_.compactLabel(r, c) : model_.label(r, c, 0));
                    if (f[1] >= style_.minLabelPx) {
                        p.setFont(fonts[1]);
                        centred(1,
                                QRectF(d.left(), d.top() + d.height() * 0.50, d.width(),
                                       d.height() * 0.40),
                                model_.label(r, c, 1));
                    }
                } else {
                    p.setFont(fonts[0]);
                    centred(0, d, model_.label(r, c, 0));
                }
            }
            if (hl && cellPx >= 4) {
                p.setPen(QPen(kInk, std::max(1.0, std::min(2.5, cellPx / 16))));
                p.setBrush(Qt::NoBrush);
                p.drawRect(d.adjusted(0.5, 0.5, -0.5, -0.5));
            }
            if (const auto m = model_.mark(r, c)) {
                (void)m;
                p.setPen(QPen(QColor(220, 30, 30), std::max(1.0, cellPx / 20)));
                p.setBrush(Qt::NoBrush);
                p.drawRect(d.adjusted(1, 1, -1, -1));
                QPainterPath tri;
                tri.moveTo(d.topRight());
                tri.lineTo(d.topRight() + QPointF(-d.width() * 0.28, 0));
                tri.lineTo(d.topRight() + QPointF(0, d.height() * 0.28));
                tri.closeSubpath();
                p.fillPath(tri, QColor(220, 30, 30));
            }
        }
    }
}

void GridRenderer::paintHeaders(QPainter& p, const QRect& cells, const QRectF& deviceRect) const {
    if (!style_.headers) return;
    const double fpx = kHeaderFont * scale_;
    if (fpx < 5) return;
    const double cellPx = style_.cell * scale_;
    const QRectF g0 = deviceCellRect(0, 0);
    const QFont f = fontPx(style_.fontFamily, fpx);
    p.setFont(f);
    p.setPen(kMuted);
    QFontMetricsF fm(f);
    // Column numbers above the grid, row numbers left of it: each whole or not at all, apart
    // from its neighbours (placeAxisLabels), as on screen.
    const double colDigits = QString::number(model_.cols() - 1).size();
    const double hh = headerH() * scale_;
    const double hy = g0.top() - hh;
    AxisLabelRequest cols;
    cols.first = cells.left();
    cols.last = cells.left() + cells.width() - 1;
    cols.count = model_.cols();
    cols.step = headerStep(fm.horizontalAdvance(QLatin1Char('0')) * colDigits + 8, cellPx);
    cols.stripLo = g0.left() - headerW() * scale_;
    cols.stripHi = g0.left() + model_.cols() * cellPx;
    cols.gap = 4 * scale_;
    cols.centre = [&](int c) { return g0.left() + (c + 0.5) * cellPx; };
    cols.extent = [&](int c) { return fm.horizontalAdvance(model_.colHeader(c)) + 2; };
    for (const AxisLabelSpot& s : placeAxisLabels(cols))
        p.drawText(QRectF(s.lo, hy, s.hi - s.lo, hh), Qt::AlignCenter | Qt::TextDontClip,
                   model_.colHeader(s.index));
    const double hw = headerW() * scale_;
    AxisLabelRequest rows;
    rows.first = cells.top();
    rows.last = cells.top() + cells.height() - 1;
    rows.count = model_.rows();
    rows.step = headerStep(fm.height() + 2, cellPx);
    rows.stripLo = g0.top();
    rows.stripHi = g0.top() + model_.rows() * cellPx;
    rows.roomBefore = hh; // the empty corner above the row numbers
    rows.gap = 1;
    rows.centre = [&](int r) { return g0.top() + (r + 0.5) * cellPx; };
    rows.extent = [&](int) { return fm.height() + 2; };
    for (const AxisLabelSpot& s : placeAxisLabels(rows))
        p.drawText(QRectF(g0.left() - hw, s.lo, hw - 6, s.hi - s.lo),
                   Qt::AlignRight | Qt::AlignVCenter | Qt::TextDontClip, model_.rowHeader(s.index));
    (void)deviceRect;
}

// ---------------------------------------------------------------- export

QStringList GridRenderer::exportFormats() {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"),
            QStringLiteral("txt")};
}

namespace {

// A save file that refuses to write once the export is cancelled (the image encoder then stops)
// and is never committed then: a cancelled export leaves no file.
class ExportFile : public QSaveFile {
public:
    ExportFile(const QString& path, ExportProgress* progress)
        : QSaveFile(path), progress_(progress) {}

protected:
    qint64 writeData(const char* data, qint64 len) override {
        if (progress_ && progress_->cancelled.load(std::memory_order_relaxed)) return -1;
        return QSaveFile::writeData(data, len);
    }

private:
    ExportProgress* progress_;
};

bool wasCancelled(const ExportProgress* p) {
    return p && p->cancelled.load();
}

} // namespace

QImage GridRenderer::renderImage(double scale, ExportProgress* progress) const {
    QSizeF s = sceneSize() * scale;
    if (s.width() * s.height() > style_.maxPixels) {
        // Too many pixels: smaller cells, but the title, numbers and legend keep their size
        // (scaling the whole page left a 1024 x 1024 export with a 4-pixel title). Cells under
        // a pixel become the overview.
        GridRenderer small(*this);
        for (int it = 0; it < 8 && s.width() * s.height() > style_.maxPixels; ++it) {
            small.style_.cell *= std::sqrt(style_.maxPixels / (s.width() * s.height())) * 0.995;
            ++small.revision_;
            s = small.sceneSize() * scale;
        }
        if (s.width() * s.height() > style_.maxPixels) {
            scale *= std::sqrt(style_.maxPixels / (s.width() * s.height()));
            s = small.sceneSize() * scale;
        }
        return small.renderAt(scale, s, progress);
    }
    return renderAt(scale, s, progress);
}

QImage GridRenderer::renderAt(double scale, QSizeF s, ExportProgress* progress) const {
    QImage img(QSize(int(std::ceil(s.width())), int(std::ceil(s.height()))), QImage::Format_RGB32);
    if (img.isNull()) return img;
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    progress_ = progress;
    paint(p, QRectF(QPointF(0, 0), s), QPointF(0, 0), scale);
    progress_ = nullptr;
    return img;
}

bool GridRenderer::exportFile(const QString& path, QString* error, double scale,
                              ExportProgress* progress) const {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    const auto cancelled = [] { return QStringLiteral("cancelled"); };
    if (model_.isEmpty()) return fail(QStringLiteral("nothing to export: no valid layout"));
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("txt") || ext == QLatin1String("tsv")) {
        ExportFile f(path, progress);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Text))
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        f.write(model_.toTextTable().toUtf8());
        if (wasCancelled(progress)) {
            f.cancelWriting();
            return fail(cancelled());
        }
        if (!f.commit())
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        return true;
    }
    if (ext == QLatin1String("png") || ext == QLatin1String("jpg") ||
        ext == QLatin1String("jpeg") || ext == QLatin1String("bmp")) {
        progressSpan_ = 700; // drawing; encoding takes the rest
        const QImage img = renderImage(scale, progress);
        progressSpan_ = 1000;
        if (wasCancelled(progress)) return fail(cancelled());
        if (img.isNull()) return fail(QStringLiteral("the image is too large to allocate"));
        if (progress) {
            progress->permille = 700;
            progress->stage = 1;
        }
        ExportFile f(path, progress);
        if (!f.open(QIODevice::WriteOnly))
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        QString why;
        const bool written = ext == QLatin1String("png")
                                 ? writeFastPng(img, &f, &why)
                                 : img.save(&f, ext.toUpper().toLatin1().constData());
        if (wasCancelled(progress)) {
            f.cancelWriting();
            return fail(cancelled());
        }
        if (!written || !f.commit())
            return fail(why.isEmpty() ? QStringLiteral("cannot write image %1").arg(path) : why);
        return true;
    }
    if (ext == QLatin1String("svg")) {
        // Title, numbers, legend and overlays through QSvgGenerator; the cells (nearly all of
        // the file) written compactly by gridCellsSvg, below everything else. Diff marks are
        // rare and go the QPainter way.
        const QSizeF s = sceneSize() * scale;
        QBuffer buf;
        buf.open(QIODevice::WriteOnly);
        QSvgGenerator gen;
        gen.setOutputDevice(&buf);
        gen.setSize(s.toSize());
        gen.setViewBox(QRectF(QPointF(0, 0), s));
        gen.setTitle(model_.title());
        gen.setDescription(QStringLiteral("Tilescope grid export"));
        const bool compactCells = !model_.hasMarks();
        QPainter p;
        if (!p.begin(&gen)) return fail(QStringLiteral("cannot write SVG %1").arg(path));
        progress_ = progress;
        cellsDrawnElsewhere_ = compactCells;
        paint(p, QRectF(QPointF(0, 0), s), QPointF(0, 0), scale);
        cellsDrawnElsewhere_ = false;
        progress_ = nullptr;
        p.end();
        if (wasCancelled(progress)) return fail(cancelled());
        QByteArray doc = buf.data();
        if (compactCells) {
            qsizetype at = doc.indexOf("</defs>");
            at = at >= 0 ? at + 7 : doc.indexOf('>', doc.indexOf("<svg")) + 1;
            if (at <= 0) return fail(QStringLiteral("cannot write SVG %1").arg(path));
            doc.insert(at, "\n" + gridCellsSvg(*this, scale));
        }
        ExportFile f(path, progress);
        if (!f.open(QIODevice::WriteOnly) || f.write(doc) != doc.size()) {
            f.cancelWriting();
            return wasCancelled(progress)
                       ? fail(cancelled())
                       : fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        }
        if (!f.commit()) return fail(QStringLiteral("cannot write %1").arg(path));
        return true;
    }
    if (ext == QLatin1String("pdf")) {
        // PDF pages are limited to 200 inches; larger grids are scaled down to fit.
        QSizeF s = sceneSize() * scale;
        const double maxPt = 14400;
        if (std::max(s.width(), s.height()) > maxPt) {
            scale *= maxPt / std::max(s.width(), s.height());
            s = sceneSize() * scale;
        }
        ExportFile f(path, progress);
        if (!f.open(QIODevice::WriteOnly))
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        {
            QPdfWriter w(&f);
            w.setResolution(72);
            w.setPageSize(QPageSize(s, QPageSize::Point, QString(), QPageSize::ExactMatch));
            w.setPageMargins(QMarginsF(0, 0, 0, 0));
            w.setTitle(model_.title());
            w.setCreator(QStringLiteral("Tilescope"));
            QPainter p;
            if (!p.begin(&w)) return fail(QStringLiteral("cannot write PDF %1").arg(path));
            progress_ = progress;
            paint(p, QRectF(QPointF(0, 0), s), QPointF(0, 0), scale);
            progress_ = nullptr;
            p.end();
        }
        if (wasCancelled(progress)) {
            f.cancelWriting();
            return fail(cancelled());
        }
        if (f.size() == 0 || !f.commit()) return fail(QStringLiteral("cannot write %1").arg(path));
        return true;
    }
    return fail(
        QStringLiteral("unknown export format '.%1' (use .png, .svg, .pdf or .txt)").arg(ext));
}

} // namespace tsw
