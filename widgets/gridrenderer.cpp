#include "gridrenderer.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QPageSize>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <cmath>
#include <cstring>

namespace tsw {

namespace {

constexpr double kMargin = 14;
constexpr double kHeaderFont = 11;
constexpr double kTitleFont = 15;
constexpr double kSubtitleFont = 11;
constexpr double kLegendFont = 11;
constexpr double kMaxPixels = 120e6;
const QColor kInk(0x1d, 0x21, 0x27);
const QColor kMuted(0x5f, 0x66, 0x70);

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

int niceStep(double raw) {
    int s = 1;
    static const int kSteps[] = {1, 2, 5};
    for (int mag = 1;; mag *= 10)
        for (int k : kSteps) {
            s = k * mag;
            if (s >= raw) return s;
        }
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
    return {{ramp_(0), QStringLiteral("%1 %2").arg(title_).arg(lo_)},
            {ramp_(1), QStringLiteral("%1 %2").arg(title_).arg(hi_)}};
}

// ---------------------------------------------------------------- GridRenderer

GridRenderer::GridRenderer() = default;
GridRenderer::GridRenderer(GridModel model) : model_(std::move(model)) {}
GridRenderer::GridRenderer(GridModel model, Style style)
    : model_(std::move(model)), style_(std::move(style)) {}

void GridRenderer::setModel(GridModel model) {
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
    if (!style_.headers) return 0;
    int d = 1;
    for (int v = std::max(model_.rows() - 1, 0); v >= 10; v /= 10)
        ++d;
    return std::max(26.0, d * 7.5 + 12);
}
double GridRenderer::headerH() const {
    return style_.headers ? 22 : 0;
}
double GridRenderer::titleH() const {
    return style_.title ? 48 : 0;
}
double GridRenderer::legendH() const {
    if (!style_.legendInScene || model_.isEmpty()) return 0;
    return paintLegend(nullptr, {}, model_.cols() * style_.cell + headerW(), false).height() + 8;
}

QRectF GridRenderer::gridRect() const {
    return QRectF(kMargin + headerW(), kMargin + titleH() + headerH(), model_.cols() * style_.cell,
                  model_.rows() * style_.cell);
}

QSizeF GridRenderer::sceneSize() const {
    const QRectF g = gridRect();
    double w = g.right() + kMargin;
    if (style_.title) {
        // Keep the title on the page for narrow grids.
        QFontMetricsF fm(fontPx(style_.fontFamily, kTitleFont, true));
        w = std::max(w, g.left() + fm.horizontalAdvance(model_.title()) + kMargin);
    }
    return {std::ceil(w), std::ceil(g.bottom() + kMargin + legendH())};
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

std::vector<LegendEntry> GridRenderer::legendEntries() const {
    std::vector<LegendEntry> e;
    if (model_.kind() == GridModel::Kind::Fragment)
        e.push_back({QColor(Qt::transparent), QStringLiteral("T = thread, L = register slot")});
    if (colorOverlay_) {
        auto o = colorOverlay_->legend();
        if (!o.empty()) {
            e.insert(e.end(), o.begin(), o.end());
            return e;
        }
    }
    const auto& m = model_.legend();
    e.insert(e.end(), m.begin(), m.end());
    return e;
}

QSizeF GridRenderer::paintLegend(QPainter* p, QPointF topLeft, double maxWidth, bool paint) const {
    const double s = paint && p ? 1.0 : 1.0;
    const QFont f = fontPx(style_.fontFamily, kLegendFont * s);
    QFontMetricsF fm(f);
    const double sw = 12, gap = 6, spacing = 16, lineH = std::max(fm.height(), sw) + 6;
    double x = 0, y = 0, w = 0;
    const auto entries = legendEntries();
    if (paint && p) {
        p->save();
        p->setFont(f);
    }
    for (const auto& e : entries) {
        const bool swatch = e.color.alpha() > 0;
        const double ew = (swatch ? sw + gap : 0) + fm.horizontalAdvance(e.text);
        if (x > 0 && x + ew > maxWidth) {
            x = 0;
            y += lineH;
        }
        if (paint && p) {
            const QPointF at = topLeft + QPointF(x, y);
            if (swatch) {
                const QRectF r(at.x(), at.y() + (lineH - 6 - sw) / 2 + 3, sw, sw);
                p->fillRect(r, e.color);
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
    p.fillRect(deviceRect, Qt::white);
    if (model_.isEmpty()) {
        p.restore();
        return;
    }
    const QRectF g = gridRect();
    auto toDev = [&](QPointF s) { return origin + s * scale; };

    // Title and subtitle.
    if (style_.title && kTitleFont * scale >= 4) {
        const QPointF t = toDev(QPointF(g.left(), kMargin));
        p.setPen(kInk);
        p.setFont(fontPx(style_.fontFamily, kTitleFont * scale, true));
        p.drawText(QRectF(t, QSizeF(1e6, 22 * scale)), Qt::AlignLeft | Qt::AlignVCenter,
                   model_.title());
        p.setPen(kMuted);
        p.setFont(fontPx(style_.fontFamily, kSubtitleFont * scale));
        p.drawText(QRectF(t + QPointF(0, 22 * scale), QSizeF(1e6, 16 * scale)),
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
        else
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
        const QPointF at = toDev(QPointF(g.left() - headerW(), g.bottom() + 10));
        p.save();
        p.translate(at);
        p.scale(scale, scale);
        paintLegend(&p, {}, g.width() + headerW(), true);
        p.restore();
    }
    p.restore();
}

void GridRenderer::paintLowDetail(QPainter& p, const QRect& cells) const {
    const quint64 key = revision_ ^ (colorOverlay_ ? colorOverlay_->revision() << 32 : 0);
    if (lowDetail_.isNull() || lowDetailKey_ != key) {
        QImage img(model_.cols(), model_.rows(), QImage::Format_RGB32);
        const QRgb* base = model_.colorData();
        const bool plain = !colorOverlay_ && !highlight_.active() && !model_.hasMarks() && base;
        for (int r = 0; plain && r < model_.rows(); ++r)
            std::memcpy(img.scanLine(r), base + std::size_t(r) * model_.cols(),
                        sizeof(QRgb) * std::size_t(model_.cols()));
        for (int r = 0; !plain && r < model_.rows(); ++r) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(r));
            for (int c = 0; c < model_.cols(); ++c)
                line[c] = model_.mark(r, c) ? qRgb(220, 30, 30) : effectiveColor(r, c);
        }
        lowDetail_ = img;
        lowDetailKey_ = key;
    }
    const QRectF target(deviceCellRect(cells.top(), cells.left()).topLeft(),
                        QSizeF(cells.width(), cells.height()) * style_.cell * scale_);
    p.setRenderHint(QPainter::SmoothPixmapTransform, style_.cell * scale_ < 1.0);
    p.drawImage(target, lowDetail_, cells);
}

void GridRenderer::paintCells(QPainter& p, const QRect& cells) const {
    const double cellPx = style_.cell * scale_;
    const double gap = cellPx >= 10 ? 1.0 : 0.0;
    const QRectF g0 = deviceCellRect(0, 0);
    // Fills.
    for (int r = cells.top(); r < cells.top() + cells.height(); ++r)
        for (int c = cells.left(); c < cells.left() + cells.width(); ++c) {
            const QRectF d(g0.left() + c * cellPx, g0.top() + r * cellPx, cellPx - gap,
                           cellPx - gap);
            p.fillRect(d, QColor(effectiveColor(r, c)));
        }
    // Labels, only where legible.
    const int lines = model_.labelLines();
    const double cell = style_.cell;
    double f[2] = {0, 0};
    for (int l = 0; l < lines; ++l) {
        const double byWidth = cell * 0.94 / (std::max(1, model_.maxLabelChars(l)) * 0.60);
        f[l] = std::min(cell * (lines == 2 ? 0.30 : 0.34), byWidth) * scale_;
    }
    if (lines == 2) f[1] = std::min(f[1], f[0] * 1.05);
    QFont fonts[2] = {fontPx(style_.fontFamily, f[0]), fontPx(style_.fontFamily, f[1])};
    const bool drawLabels = f[0] >= style_.minLabelPx;
    const QColor light(255, 255, 255), dark(0x1d, 0x21, 0x27), dim(0x1d, 0x21, 0x27, 110);
    for (int r = cells.top(); r < cells.top() + cells.height(); ++r)
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
                    p.drawText(
                        QRectF(d.left(), d.top() + d.height() * 0.10, d.width(), d.height() * 0.42),
                        Qt::AlignCenter, model_.label(r, c, 0));
                    if (f[1] >= style_.minLabelPx) {
                        p.setFont(fonts[1]);
                        p.drawText(QRectF(d.left(), d.top() + d.height() * 0.50, d.width(),
                                          d.height() * 0.40),
                                   Qt::AlignCenter, model_.label(r, c, 1));
                    }
                } else {
                    p.setFont(fonts[0]);
                    p.drawText(d, Qt::AlignCenter, model_.label(r, c, 0));
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
    // Column numbers above the grid.
    const double colDigits = QString::number(model_.cols() - 1).size();
    const int cstep = niceStep((fm.horizontalAdvance(QLatin1Char('0')) * colDigits + 8) / cellPx);
    const double hh = headerH() * scale_;
    const double hy = g0.top() - hh;
    for (int c = cells.left(); c < cells.left() + cells.width(); ++c) {
        if (c % cstep) continue;
        p.drawText(QRectF(g0.left() + c * cellPx, hy, cellPx, hh), Qt::AlignCenter,
                   model_.colHeader(c));
    }
    // Row numbers left of the grid.
    const int rstep = niceStep((fm.height() + 2) / cellPx);
    const double hw = headerW() * scale_;
    for (int r = cells.top(); r < cells.top() + cells.height(); ++r) {
        if (r % rstep) continue;
        p.drawText(QRectF(g0.left() - hw, g0.top() + r * cellPx, hw - 6, cellPx),
                   Qt::AlignRight | Qt::AlignVCenter, model_.rowHeader(r));
    }
    (void)deviceRect;
}

// ---------------------------------------------------------------- export

QStringList GridRenderer::exportFormats() {
    return {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"),
            QStringLiteral("txt")};
}

QImage GridRenderer::renderImage(double scale) const {
    QSizeF s = sceneSize() * scale;
    if (s.width() * s.height() > kMaxPixels) {
        scale *= std::sqrt(kMaxPixels / (s.width() * s.height()));
        s = sceneSize() * scale;
    }
    QImage img(QSize(int(std::ceil(s.width())), int(std::ceil(s.height()))), QImage::Format_RGB32);
    if (img.isNull()) return img;
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    paint(p, QRectF(QPointF(0, 0), s), QPointF(0, 0), scale);
    return img;
}

bool GridRenderer::exportFile(const QString& path, QString* error, double scale) const {
    auto fail = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    if (model_.isEmpty()) return fail(QStringLiteral("nothing to export: no valid layout"));
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("txt") || ext == QLatin1String("tsv")) {
        QSaveFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Text))
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        f.write(model_.toTextTable().toUtf8());
        if (!f.commit())
            return fail(QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        return true;
    }
    if (ext == QLatin1String("png") || ext == QLatin1String("jpg") ||
        ext == QLatin1String("jpeg") || ext == QLatin1String("bmp")) {
        const QImage img = renderImage(scale);
        if (img.isNull()) return fail(QStringLiteral("the image is too large to allocate"));
        // Light compression: large grids encode several times faster, files grow ~20%.
        if (!img.save(path, nullptr, ext == QLatin1String("png") ? 80 : -1))
            return fail(QStringLiteral("cannot write image %1").arg(path));
        return true;
    }
    if (ext == QLatin1String("svg")) {
        const QSizeF s = sceneSize() * scale;
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(s.toSize());
        gen.setViewBox(QRectF(QPointF(0, 0), s));
        gen.setTitle(model_.title());
        gen.setDescription(QStringLiteral("Tilescope grid export"));
        QPainter p;
        if (!p.begin(&gen)) return fail(QStringLiteral("cannot write SVG %1").arg(path));
        paint(p, QRectF(QPointF(0, 0), s), QPointF(0, 0), scale);
        p.end();
        return QFileInfo(path).size() > 0 ? true
                                          : fail(QStringLiteral("cannot write %1").arg(path));
    }
    if (ext == QLatin1String("pdf")) {
        // PDF pages are limited to 200 inches; larger grids are scaled down to fit.
        QSizeF s = sceneSize() * scale;
        const double maxPt = 14400;
        if (std::max(s.width(), s.height()) > maxPt) {
            scale *= maxPt / std::max(s.width(), s.height());
            s = sceneSize() * scale;
        }
        QPdfWriter w(path);
        w.setResolution(72);
        w.setPageSize(QPageSize(s, QPageSize::Point, QString(), QPageSize::ExactMatch));
        w.setPageMargins(QMarginsF(0, 0, 0, 0));
        w.setTitle(model_.title());
        w.setCreator(QStringLiteral("Tilescope"));
        QPainter p;
        if (!p.begin(&w)) return fail(QStringLiteral("cannot write PDF %1").arg(path));
        paint(p, QRectF(QPointF(0, 0), s), QPointF(0, 0), scale);
        p.end();
        return QFileInfo(path).size() > 0 ? true
                                          : fail(QStringLiteral("cannot write %1").arg(path));
    }
    return fail(
        QStringLiteral("unknown export format '.%1' (use .png, .svg, .pdf or .txt)").arg(ext));
}

} // namespace tsw
