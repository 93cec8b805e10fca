// SPDX-License-Identifier: Apache-2.0
#include "grid/gridview.h"

#include "grid/axis_labels.h"

#include <QCursor>
#include <QGestureEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QPinchGesture>
#include <QScrollBar>
#include <QStyle>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <QtConcurrent>
#include <cmath>

namespace tsw {

namespace {
constexpr double kMinScale = 0.0005;
constexpr double kMaxScale = 12.0;
constexpr double kPad = 6;
constexpr double kTitlePx = 14, kSubtitlePx = 11, kHeaderPx = 11, kBannerPx = 12, kCaptionPx = 15;
const QColor kBackground(0xe9, 0xeb, 0xef);
const QColor kHeaderBg(0xf7, 0xf8, 0xfa);

int digitCount(int v) {
    int d = 1;
    for (v = std::max(v, 0); v >= 10; v /= 10)
        ++d;
    return d;
}
} // namespace

GridView::GridView(QWidget* parent) : QWidget(parent) {
    // The view draws its own title and numbers outside the cell area; the renderer paints
    // only the cells (scene = the grid).
    GridRenderer::Style s;
    s.title = false;
    s.headers = false;
    s.margin = 0;
    renderer_.setStyle(s);
    renderer_.setOverviewsArriveLater(true); // prefetchOverviews() builds them
    overviewPool_.setMaxThreadCount(1);

    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    grabGesture(Qt::PinchGesture);
    setMinimumSize(200, 150);
    hbar_ = new QScrollBar(Qt::Horizontal, this);
    vbar_ = new QScrollBar(Qt::Vertical, this);
    hbar_->setObjectName(QStringLiteral("gridHScroll"));
    vbar_->setObjectName(QStringLiteral("gridVScroll"));
    hbar_->hide();
    vbar_->hide();
    for (QScrollBar* b : {hbar_, vbar_})
        connect(b, &QScrollBar::valueChanged, this, [this, b](int v) {
            if (syncingBars_) return;
            fitted_ = false;
            const QRectF vp = cellArea();
            QPointF o = origin_;
            if (b == hbar_)
                o.setX(vp.left() - v);
            else
                o.setY(vp.top() - v);
            applyTransform(scale_, o);
        });
    hintTimer_ = new QTimer(this);
    hintTimer_->setSingleShot(true);
    hintTimer_->setInterval(2500);
    connect(hintTimer_, &QTimer::timeout, this, [this] {
        hint_.clear();
        update();
    });
}

void GridView::setModel(GridModel model, bool keepView, Source source) {
    const bool same = keepView && model.rows() == renderer_.model().rows() &&
                      model.cols() == renderer_.model().cols() && !renderer_.model().isEmpty();
    const Highlight h = renderer_.highlight();
    ++prefetchGen_; // overviews of the old model are of no use now
    prefetchKey_ = 0;
    const bool hovered = renderer_.hover().has_value();
    renderer_.setModel(std::move(model)); // forgets the hovered cell
    // A thread/slot highlight stays meaningful across edits of the same layout, re-evaluated on
    // the new revision: one that covers no cell there (the collisions after they were fixed)
    // would only fade the whole grid, so it goes.
    bool keep = same && h.active() && source.layout == source_.layout;
    if (keep) {
        const GridModel& m = renderer_.model();
        bool covers = false;
        for (int r = 0; r < m.rows() && !covers; ++r)
            for (int c = 0; c < m.cols() && !covers; ++c)
                covers = m.matches(r, c, h);
        keep = covers;
    }
    source_ = source;
    if (keep) highlightSource_ = source;
    renderer_.setHighlight(keep ? h : Highlight{});
    if (!same)
        zoomToFit();
    else
        refit(); // the new model may bring or drop a collision banner: what fits changed
    update();
    // Whoever shows the highlight or the hovered cell (details pane, status bar) must not keep
    // describing the previous model.
    // A highlight kept across models is announced again: what it covers (its cell count) is
    // the new model's.
    if (renderer_.highlight() != h || renderer_.highlight().active())
        emit highlightChanged(renderer_.highlight());
    // The hovered cell is the new model's cell under the mouse, or none: said either way, since
    // the renderer has already forgotten the old one.
    if (hovered) {
        const auto cell = mousePos_ ? cellAtWidget(*mousePos_) : std::nullopt;
        renderer_.setHover(cell);
        emit cellHovered(cell ? cell->y() : -1, cell ? cell->x() : -1);
    }
    refreshToolTip();
    announceZoom(); // kept view, another grid: another share of what fits
}

void GridView::prefetchOverviews() {
    // Every block size down to the smallest zoom, nearest to the current one first.
    const int here = renderer_.overviewBlockAt(scale_);
    std::optional<GridRenderer::OverviewJob> job =
        renderer_.overviewJob(renderer_.overviewBlockAt(kMinScale));
    if (!job || job->key == prefetchKey_) return; // nothing to build, or already under way
    prefetchKey_ = job->key;
    std::stable_sort(job->blocks.begin(), job->blocks.end(), [here](int a, int b) {
        return std::abs(std::log2(double(a) / here)) < std::abs(std::log2(double(b) / here));
    });
    const quint64 gen = ++prefetchGen_;
    (void)QtConcurrent::run(&overviewPool_, [this, job = std::move(*job), gen] {
        for (int k : job.blocks) {
            if (prefetchGen_.load() != gen) return;
            QImage img = GridRenderer::buildOverview(job, k);
            QSet<QRgb> colours = GridRenderer::coloursOf(img);
            // Handed over on the UI thread, which owns the renderer. The view outlives this
            // build (its pool waits for it); an event still queued when the view goes is
            // dropped.
            QMetaObject::invokeMethod(
                this,
                [this, k, key = job.key, img = std::move(img),
                 colours = std::move(colours)]() mutable {
                    renderer_.adoptOverview(k, key, std::move(img), std::move(colours));
                    update(); // a frame may show a nearby level in its place
                },
                Qt::QueuedConnection);
        }
    });
}

GridView::~GridView() {
    ++prefetchGen_; // a running build stops after its current level; the pool waits for it
}

void GridView::setDimmed(bool on) {
    if (dimmed_ == on) return;
    dimmed_ = on;
    update();
}

void GridView::setMessage(const QString& message) {
    message_ = message;
    announceZoom(); // a message takes the legend's place: another share of what fits
    update();
}

void GridView::setBanner(const QString& banner) {
    if (banner_ == banner) return;
    banner_ = banner;
    refit();
    update();
}

void GridView::setCaption(const QString& caption) {
    if (caption_ == caption) return;
    caption_ = caption;
    refit();
    update();
}

QRectF GridView::captionRect() const {
    const Chrome c = chromeNoBars(scale_);
    if (c.captionH <= 0) return {};
    return QRectF(kPad, kPad, width() - 2 * kPad, c.captionH - kPad);
}

void GridView::setTitleVisible(bool on) {
    title_ = on;
    refit();
    update();
}

void GridView::setHeadersVisible(bool on) {
    headers_ = on;
    refit();
    update();
}

void GridView::setPresentation(double fontScale, bool highContrast) {
    fontScale_ = std::clamp(fontScale, 0.5, 4.0);
    contrast_ = highContrast;
    GridRenderer::Style s = renderer_.style();
    s.legendFontPx = 11 * fontScale_;
    // Projected, a label under 14 px cannot be read from the back of a room: it is left out
    // (the colours and the tooltip stay) rather than drawn as noise.
    s.minLabelPx = highContrast ? kPresentationMinLabelPx : GridRenderer::Style().minLabelPx;
    renderer_.setStyle(s);
    refit();
    update();
}

void GridView::setCellToolTip(std::function<QString(int, int)> f) {
    cellToolTip_ = std::move(f);
    refreshToolTip();
}

void GridView::refreshToolTip() {
    if (tipText_.isEmpty()) return;
    if (!QToolTip::isVisible() || QToolTip::text() != tipText_) {
        tipText_.clear(); // someone else's tooltip, or ours went away
        return;
    }
    const auto cell = underMouse() ? cellAtWidget(mapFromGlobal(QCursor::pos())) : std::nullopt;
    const QString tip = cell ? toolTipFor(cell->y(), cell->x()) : QString();
    if (tip.isEmpty()) {
        QToolTip::hideText();
        tipText_.clear();
    } else if (tip != tipText_) {
        QToolTip::showText(QCursor::pos(), tip, this);
        tipText_ = tip;
    }
}

QString GridView::toolTipFor(int row, int col) const {
    if (cellToolTip_) return cellToolTip_(row, col);
    const CellInfo info = model().info(row, col);
    if (!info.valid) return {};
    const QString how =
        model().kind() == GridModel::Kind::Fragment
            ? QStringLiteral("click: highlight this thread · shift-click: this slot")
            : QStringLiteral("click: highlight every cell with this value");
    return info.toToolTip() + QStringLiteral("<br><span style='color:#667'>%1</span>").arg(how);
}

// ---------------------------------------------------------------- geometry

QFont GridView::chromeFont(double px, bool bold) const {
    QFont f = font();
    f.setPixelSize(std::max(6, int(std::lround(px * fontScale_))));
    f.setBold(bold);
    return f;
}

GridView::Chrome GridView::chromeNoBars(double scale) const {
    Chrome c;
    const bool any = !renderer_.model().isEmpty();
    if (!caption_.isEmpty()) {
        const QFontMetricsF fm(chromeFont(kCaptionPx, true));
        const QRectF r =
            fm.boundingRect(QRectF(0, 0, width() - 2 * kPad - 24, 1e6), Qt::TextWordWrap, caption_);
        c.captionH = std::ceil(std::min(r.height(), height() * 0.3) + 14 + kPad);
    }
    if (title_ && any)
        c.titleH =
            std::ceil(QFontMetricsF(chromeFont(kTitlePx, true)).height() + subtitleHeight() + 6);
    // One line per banner: the note or error about the text (amber) above the collision warning
    // about the fragment shown (red), so neither hides the other.
    const int lines =
        int(!banner_.isEmpty()) + int(!renderer_.model().collisionWarning().isEmpty());
    if (lines > 0)
        c.bannerH = lines * std::ceil(QFontMetricsF(chromeFont(kBannerPx)).height() + 12);
    if (headers_ && any) {
        const QFontMetricsF fm(chromeFont(kHeaderPx));
        c.colH = std::ceil(fm.height() + 6);
        c.rowW = std::ceil(fm.horizontalAdvance(QLatin1Char('0')) *
                               digitCount(renderer_.model().rows() - 1) +
                           10 * fontScale_);
    }
    if (legend_ && any && message_.isEmpty()) {
        const QSizeF ls = renderer_.paintLegend(nullptr, {}, width() - 2 * kPad - 20, false, scale);
        // The grid comes first: in a small view the legend keeps whole lines up to a third of
        // the height (the rest is cut; the hover tooltip still explains every cell).
        if (!ls.isEmpty()) {
            const double line = renderer_.legendLineHeight();
            const double cap = std::max(line, std::floor(height() * 0.3 / line) * line);
            c.legendH = std::ceil(std::min(ls.height(), cap) + 12 + kPad);
        }
    }
    const double top = kPad + c.captionH + c.titleH + c.bannerH + c.colH;
    c.viewport = QRectF(kPad + c.rowW, top, std::max(1.0, width() - 2 * kPad - c.rowW),
                        std::max(1.0, height() - top - kPad - c.legendH));
    return c;
}

GridView::Chrome GridView::chrome(double scale, QPointF) const {
    Chrome c = chromeNoBars(scale);
    if (renderer_.model().isEmpty()) return c;
    const QSizeF content = renderer_.sceneSize() * scale;
    const double bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    QRectF& vp = c.viewport;
    c.hbar = content.width() > vp.width() + 0.5;
    c.vbar = content.height() > vp.height() - (c.hbar ? bar : 0) + 0.5;
    if (c.vbar && !c.hbar) c.hbar = content.width() > vp.width() - bar + 0.5;
    if (c.hbar) vp.setHeight(std::max(1.0, vp.height() - bar));
    if (c.vbar) vp.setWidth(std::max(1.0, vp.width() - bar));
    return c;
}

QRectF GridView::cellArea() const {
    return chrome(scale_, origin_).viewport;
}

QRectF GridView::gridRectOnScreen() const {
    return QRectF(origin_, renderer_.sceneSize() * scale_);
}

QRectF GridView::columnHeaderRect() const {
    const Chrome c = chrome(scale_, origin_);
    if (c.colH <= 0) return {};
    const QRectF g = gridRectOnScreen();
    const double y = std::max(c.viewport.top(), g.top()) - c.colH;
    const double l = std::max(c.viewport.left(), g.left());
    const double r = std::min(c.viewport.right(), g.right());
    return QRectF(l, y, std::max(0.0, r - l), c.colH);
}

QRectF GridView::rowHeaderRect() const {
    const Chrome c = chrome(scale_, origin_);
    if (c.rowW <= 0) return {};
    const QRectF g = gridRectOnScreen();
    const double x = std::max(c.viewport.left(), g.left()) - c.rowW;
    const double t = std::max(c.viewport.top(), g.top());
    const double b = std::min(c.viewport.bottom(), g.bottom());
    return QRectF(x, t, c.rowW, std::max(0.0, b - t));
}

QRectF GridView::titleRect() const {
    const Chrome c = chrome(scale_, origin_);
    if (c.titleH <= 0) return {};
    const QRectF g = gridRectOnScreen();
    const double y = std::max(c.viewport.top(), g.top()) - c.colH - c.bannerH - c.titleH;
    // Above the grid's left edge, or further left as far as the title and subtitle need (a
    // small grid centred in a wide view left the subtitle a third of the width).
    const double need = std::min(titleTextWidth() + 4, width() - 2 * kPad); // + rounding
    const double x = std::max(
        kPad, std::min(std::max(c.viewport.left(), g.left()) - c.rowW, width() - kPad - need));
    return QRectF(x, y, width() - kPad - x, c.titleH);
}

double GridView::titleTextWidth() const {
    const GridModel& m = renderer_.model();
    return std::ceil(
        std::max(QFontMetricsF(chromeFont(kTitlePx, true)).horizontalAdvance(m.title()),
                 QFontMetricsF(chromeFont(kSubtitlePx)).horizontalAdvance(m.subtitle())));
}

double GridView::subtitleHeight() const {
    // Wrapped to the view's width: a subtitle is shown whole (a CuTe TV layout's explains its
    // axes in a long line), never cut with an ellipsis.
    const QFontMetricsF sm(chromeFont(kSubtitlePx));
    const QString& sub = renderer_.model().subtitle();
    if (sub.isEmpty()) return sm.height();
    return std::ceil(
        sm.boundingRect(QRectF(0, 0, std::max(1.0, width() - 2 * kPad), 1e6), Qt::TextWordWrap, sub)
            .height());
}

QRectF GridView::legendRect() const {
    const Chrome c = chrome(scale_, origin_);
    if (c.legendH <= 0) return {};
    const QSizeF ls = renderer_.paintLegend(nullptr, {}, width() - 2 * kPad - 20, false, scale_);
    const double h = c.legendH - 12 - kPad;
    const QRectF g = gridRectOnScreen();
    const double bar = c.hbar ? style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) : 0;
    const double y = std::min(c.viewport.bottom(), g.bottom()) + bar + kPad;
    double x = std::max(c.viewport.left(), g.left()) - c.rowW;
    const double w = ls.width() + 20;
    if (x + w > width() - kPad) x = std::max(kPad, width() - kPad - w);
    return QRectF(x, y, w, std::min(ls.height(), h) + 12);
}

double GridView::fitScale() const {
    const QSizeF s = renderer_.sceneSize();
    if (s.isEmpty()) return 1;
    // The legend may depend on the scale (overview entries): settle in two passes.
    double f = scale_;
    for (int pass = 0; pass < 2; ++pass) {
        const QRectF vp = chromeNoBars(f).viewport;
        f = std::clamp(std::min((vp.width() - 2) / s.width(), (vp.height() - 2) / s.height()),
                       kMinScale, 2.0);
    }
    return f;
}

double GridView::zoomRelative() const {
    // Fitted is 100 % by definition: fitScale() from the fitted scale need not give that scale
    // again (the legend's height depends on the scale), and "zoom 89%" beside a grid that has
    // just been fitted was wrong.
    return fitted_ ? 1.0 : scale_ / fitScale();
}

void GridView::setLegendVisible(bool on) {
    legend_ = on;
    refit();
    update();
}

void GridView::setHighlight(const Highlight& h) {
    if (h == renderer_.highlight()) return;
    highlightSource_ = source_; // made on what is shown now
    renderer_.setHighlight(h);
    update();
    emit highlightChanged(h);
}

std::optional<QPoint> GridView::cellAtWidget(QPointF p) const {
    if (!cellArea().contains(p)) return std::nullopt;
    return renderer_.cellAt(widgetToScene(p));
}

// ---------------------------------------------------------------- transform

void GridView::applyTransform(double scale, QPointF origin) {
    scale = std::clamp(scale, kMinScale, kMaxScale);
    const double oldScale = scale_;
    const QPointF oldOrigin = origin_;
    scale_ = scale;
    origin_ = origin;
    clampOrigin();
    if (scale_ == oldScale && origin_ == oldOrigin) return;
    // The cell under a still mouse changes with the view (keyboard zoom, scrollbars).
    if (underMouse()) updateHover(mapFromGlobal(QCursor::pos()));
    refreshToolTip();
    update();
    emit viewTransformChanged(scale_, origin_);
    announceZoom();
}

void GridView::clampOrigin() {
    // Spreadsheet behaviour: a grid smaller than the cell area is centred, a larger one covers
    // it (no scrolling into emptiness).
    const QRectF vp = chrome(scale_, origin_).viewport;
    const QSizeF s = renderer_.sceneSize() * scale_;
    if (s.width() <= vp.width())
        origin_.setX(vp.left() + (vp.width() - s.width()) / 2);
    else
        origin_.setX(std::clamp(origin_.x(), vp.right() - s.width(), vp.left()));
    if (s.height() <= vp.height())
        origin_.setY(vp.top() + (vp.height() - s.height()) / 2);
    else
        origin_.setY(std::clamp(origin_.y(), vp.bottom() - s.height(), vp.top()));
    syncScrollBars();
}

void GridView::syncScrollBars() {
    const Chrome c = chrome(scale_, origin_);
    const QRectF& vp = c.viewport;
    barsViewport_ = vp;
    const QSizeF s = renderer_.sceneSize() * scale_;
    const int bar = style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this);
    syncingBars_ = true;
    hbar_->setVisible(c.hbar);
    vbar_->setVisible(c.vbar);
    if (c.hbar) {
        hbar_->setGeometry(QRect(int(vp.left()), int(vp.bottom()), int(vp.width()), bar));
        hbar_->setRange(0, std::max(0, int(std::ceil(s.width() - vp.width()))));
        hbar_->setPageStep(std::max(1, int(vp.width())));
        hbar_->setSingleStep(std::max(8, int(vp.width() / 20)));
        hbar_->setValue(int(std::lround(vp.left() - origin_.x())));
    }
    if (c.vbar) {
        vbar_->setGeometry(QRect(int(vp.right()), int(vp.top()), bar, int(vp.height())));
        vbar_->setRange(0, std::max(0, int(std::ceil(s.height() - vp.height()))));
        vbar_->setPageStep(std::max(1, int(vp.height())));
        vbar_->setSingleStep(std::max(8, int(vp.height() / 20)));
        vbar_->setValue(int(std::lround(vp.top() - origin_.y())));
    }
    syncingBars_ = false;
}

void GridView::setViewTransform(double scale, QPointF pan) {
    fitted_ = false;
    applyTransform(scale, pan);
}

void GridView::zoomToFit() {
    fitted_ = true;
    scale_ = fitScale();
    const QRectF vp = chrome(scale_, origin_).viewport;
    const QSizeF s = renderer_.sceneSize() * scale_;
    // Centred when it fits; a grid that does not fit even at the smallest zoom (a 256 x 65536
    // output view) starts at its first row and column, not in its middle.
    origin_ =
        QPointF(s.width() <= vp.width() ? vp.left() + (vp.width() - s.width()) / 2 : vp.left(),
                s.height() <= vp.height() ? vp.top() + (vp.height() - s.height()) / 2 : vp.top());
    syncScrollBars();
    if (underMouse()) updateHover(mapFromGlobal(QCursor::pos()));
    refreshToolTip();
    update();
    emit viewTransformChanged(scale_, origin_);
    announceZoom();
}

void GridView::setZoomRelative(double z) {
    if (std::abs(z - 1.0) < 1e-9) {
        zoomToFit();
        return;
    }
    const QRectF vp = cellArea();
    zoomBy(z * fitScale() / scale_, vp.center());
}

void GridView::zoomBy(double factor, QPointF anchor) {
    fitted_ = false;
    const double ns = std::clamp(scale_ * factor, kMinScale, kMaxScale);
    const QPointF scenePt = widgetToScene(anchor);
    applyTransform(ns, anchor - scenePt * ns);
}

void GridView::zoomIn() {
    zoomBy(1.25, cellArea().center());
}
void GridView::zoomOut() {
    zoomBy(0.8, cellArea().center());
}

void GridView::setHoveredCell(int row, int col) {
    std::optional<QPoint> c;
    if (row >= 0 && col >= 0 && row < model().rows() && col < model().cols()) c = QPoint(col, row);
    if (c == renderer_.hover()) return;
    renderer_.setHover(c);
    update();
}

void GridView::resizeEvent(QResizeEvent*) {
    refit();
}

void GridView::refit() {
    if (fitted_) {
        zoomToFit();
    } else {
        // A banner or caption that comes or goes moves the cell area's top edge: the grid moves
        // with it, so the row under the top edge (row 0 before a warning about row 0) stays in
        // view rather than sliding under the column numbers.
        const QRectF vp = chrome(scale_, origin_).viewport;
        if (!barsViewport_.isEmpty()) origin_ += vp.topLeft() - barsViewport_.topLeft();
        clampOrigin();
        update();
    }
    // The same scale is another share of what fits now.
    announceZoom();
}

void GridView::announceZoom() {
    const double z = zoomRelative();
    if (z == announcedZoom_) return;
    announcedZoom_ = z;
    emit zoomRelativeChanged(z);
}

void GridView::showHint(const QString& text) {
    flashHint(text);
}

void GridView::flashHint(const QString& text, int ms) {
    hint_ = text;
    hintTimer_->start(ms);
    update();
}

// ---------------------------------------------------------------- painting

void GridView::paintHeaders(QPainter& p, const Chrome& c) const {
    const GridModel& m = renderer_.model();
    if (c.colH <= 0 || m.isEmpty()) return;
    const QRectF vp = c.viewport;
    const QRectF g = gridRectOnScreen();
    const double cellPx = renderer_.style().cell * scale_;
    const QColor ink = contrast_ ? QColor(Qt::black) : QColor(0x4b, 0x52, 0x5c);
    const QColor bg = contrast_ ? QColor(Qt::white) : kHeaderBg;
    const QFont f = chromeFont(kHeaderPx);
    QFont fb = f;
    fb.setBold(true);
    const QFontMetricsF fm(f);
    const std::optional<QPoint> hover = renderer_.hover();

    // Column numbers: above the grid, or along the top of the cell area once the grid's top
    // edge has scrolled away.
    const QRectF colStrip = columnHeaderRect();
    const QRectF rowStrip = rowHeaderRect();
    p.save();
    p.fillRect(colStrip, bg);
    p.fillRect(rowStrip, bg);
    p.fillRect(QRectF(rowStrip.left(), colStrip.top(), rowStrip.width(), colStrip.height()), bg);
    p.setPen(QPen(contrast_ ? QColor(Qt::black) : QColor(0, 0, 0, 50), 1));
    p.drawLine(QLineF(colStrip.bottomLeft(), colStrip.bottomRight()));
    p.drawLine(QLineF(rowStrip.topRight(), rowStrip.bottomRight()));
    p.setFont(f);

    const double labelW = fm.horizontalAdvance(QLatin1Char('0')) * digitCount(m.cols() - 1);
    const int cstep = headerStep(labelW + 8 * fontScale_, cellPx);
    const int c0 = std::max(0, int(std::floor((vp.left() - g.left()) / cellPx)));
    const int c1 = std::min(m.cols() - 1, int(std::floor((vp.right() - g.left()) / cellPx)));
    p.setClipRect(colStrip);
    // Each number whole or not at all, apart from its neighbours (placeAxisLabels); the hovered
    // column's number always, bold.
    auto drawSpots = [&](const std::vector<AxisLabelSpot>& spots, bool columns,
                         std::optional<int> bold) {
        for (const AxisLabelSpot& s : spots) {
            const bool isBold = bold && *bold == s.index;
            QRectF r = columns ? QRectF(s.lo, colStrip.top(), s.hi - s.lo, colStrip.height())
                               : QRectF(rowStrip.left(), s.lo, rowStrip.width() - 5 * fontScale_,
                                        s.hi - s.lo);
            if (isBold) {
                const QRectF cell =
                    columns ? QRectF(std::min(r.left(), g.left() + s.index * cellPx), r.top(),
                                     std::max(r.width(), cellPx), r.height())
                            : QRectF(rowStrip.left(), std::min(r.top(), g.top() + s.index * cellPx),
                                     rowStrip.width(), std::max(r.height(), cellPx));
                p.fillRect(cell, contrast_ ? QColor(255, 230, 120) : QColor(0xdd, 0xe6, 0xf3));
                p.setFont(fb);
            }
            p.setPen(ink);
            p.drawText(r, columns ? Qt::AlignCenter : (Qt::AlignRight | Qt::AlignVCenter),
                       columns ? m.colHeader(s.index) : m.rowHeader(s.index));
            if (isBold) p.setFont(f);
        }
    };
    const QFontMetricsF fmb(fb);
    AxisLabelRequest cols;
    cols.first = c0;
    cols.last = c1;
    cols.count = m.cols();
    cols.step = cstep;
    cols.stripLo = colStrip.left();
    cols.stripHi = colStrip.right();
    cols.gap = 4 * fontScale_;
    if (hover) cols.pinned = hover->x();
    cols.centre = [&](int col) { return g.left() + (col + 0.5) * cellPx; };
    cols.extent = [&](int col) {
        // Bold is wider: the hovered number is measured as drawn.
        const QFontMetricsF& mm = hover && hover->x() == col ? fmb : fm;
        return mm.horizontalAdvance(m.colHeader(col)) + 2;
    };
    drawnCols_ = placeAxisLabels(cols);
    drawSpots(drawnCols_, true, hover ? std::optional<int>(hover->x()) : std::nullopt);

    // Row numbers: left of the grid, or along the cell area's left edge.
    const int rstep = headerStep(fm.height() + 2, cellPx);
    const int r0 = std::max(0, int(std::floor((vp.top() - g.top()) / cellPx)));
    const int r1 = std::min(m.rows() - 1, int(std::floor((vp.bottom() - g.top()) / cellPx)));
    // Row 0's number may reach up into the empty corner left of the column numbers.
    const double corner = colStrip.isEmpty() ? 0.0 : std::max(0.0, rowStrip.top() - colStrip.top());
    p.setClipRect(rowStrip.adjusted(0, -corner, 0, 0));
    AxisLabelRequest rows;
    rows.first = r0;
    rows.last = r1;
    rows.count = m.rows();
    rows.step = rstep;
    rows.stripLo = rowStrip.top();
    rows.stripHi = rowStrip.bottom();
    rows.roomBefore = corner;
    rows.gap = 1;
    if (hover) rows.pinned = hover->y();
    rows.centre = [&](int row) { return g.top() + (row + 0.5) * cellPx; };
    rows.extent = [&](int) { return fm.height() + 2; };
    drawnRows_ = placeAxisLabels(rows);
    drawSpots(drawnRows_, false, hover ? std::optional<int>(hover->y()) : std::nullopt);
    p.restore();
}

void GridView::paintTitle(QPainter& p, const Chrome& c) const {
    const GridModel& m = renderer_.model();
    if (c.captionH > 0) {
        const QRectF r = captionRect();
        p.save();
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(Qt::NoPen);
        p.setBrush(contrast_ ? QColor(0x10, 0x2a, 0x43) : QColor(0xdb, 0xea, 0xfe));
        p.drawRoundedRect(r, 6, 6);
        p.setFont(chromeFont(kCaptionPx, true));
        p.setPen(contrast_ ? QColor(Qt::white) : QColor(0x1e, 0x3a, 0x5f));
        p.drawText(r.adjusted(12, 4, -12, -4), Qt::AlignVCenter | Qt::AlignLeft | Qt::TextWordWrap,
                   caption_);
        p.restore();
    }
    const QRectF t = titleRect();
    if (c.titleH > 0 && !t.isEmpty()) {
        const QFont tf = chromeFont(kTitlePx, true), sf = chromeFont(kSubtitlePx);
        const QFontMetricsF tm(tf), sm(sf);
        p.setFont(tf);
        p.setPen(contrast_ ? QColor(Qt::black) : QColor(0x1d, 0x21, 0x27));
        p.drawText(QRectF(t.left(), t.top(), t.width(), tm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   tm.elidedText(m.title(), Qt::ElideRight, t.width()));
        p.setFont(sf);
        p.setPen(contrast_ ? QColor(0x20, 0x20, 0x20) : QColor(0x5f, 0x66, 0x70));
        p.drawText(QRectF(t.left(), t.top() + tm.height() + 2, t.width(), subtitleHeight()),
                   Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m.subtitle());
    }
    if (c.bannerH > 0) {
        const QFont bf = chromeFont(kBannerPx);
        const QFontMetricsF bm(bf);
        // The error banner (stale layout) is amber; a collision warning about the layout shown
        // is red, so it cannot be mistaken for a note.
        for (const bool collision : {false, true}) {
            const QString text = collision ? renderer_.model().collisionWarning() : banner_;
            if (text.isEmpty()) continue;
            const QRectF b = bannerRect(c, collision);
            p.setPen(Qt::NoPen);
            p.setBrush(collision ? QColor(0xfe, 0xe2, 0xe2) : QColor(0xfe, 0xf3, 0xc7));
            p.drawRoundedRect(b, 6, 6);
            p.setFont(bf);
            p.setPen(collision ? QColor(0x99, 0x1b, 0x1b) : QColor(0x78, 0x4a, 0x05));
            p.drawText(b, Qt::AlignCenter, bm.elidedText(text, Qt::ElideRight, b.width() - 16));
        }
    }
}

void GridView::paintEvent(QPaintEvent* e) {
    QElapsedTimer t;
    t.start();
    // Overlays change through renderer() without telling the view: a shown tooltip is checked
    // after the repaint they ask for.
    if (!tipText_.isEmpty()) QTimer::singleShot(0, this, &GridView::refreshToolTip);
    // So is what fits (an overlay's legend takes room): the relative zoom is checked likewise.
    QTimer::singleShot(0, this, &GridView::announceZoom);
    drawnCols_.clear();
    drawnRows_.clear();
    QPainter p(this);
    p.fillRect(e->rect(), contrast_ ? QColor(Qt::white) : kBackground);
    const Chrome c = chrome(scale_, origin_);
    if (!renderer_.model().isEmpty()) {
        const QRectF scene = gridRectOnScreen();
        const QRectF dev = scene.intersected(c.viewport).intersected(QRectF(e->rect()));
        // Soft shadow around the page.
        p.save();
        p.setClipRect(c.viewport);
        p.fillRect(scene.translated(2, 3), QColor(0, 0, 0, contrast_ ? 90 : 28));
        p.restore();
        if (!dev.isEmpty()) renderer_.paint(p, dev, origin_, scale_);
        // Below ~256K cells a level builds within a frame: no need.
        if (renderer_.model().cellCount() >= (std::int64_t{1} << 18)) prefetchOverviews();
        // The legend lists only colours a paint has drawn, so its height (and with it the cell
        // area the scroll bars border) can change with the first paint at a zoom.
        if (chrome(scale_, origin_).viewport != barsViewport_)
            QTimer::singleShot(0, this, &GridView::syncScrollBars);
        // Faded enough to read as "not current", light enough to still read the last valid
        // layout; the banner above it says why.
        if (dimmed_)
            p.fillRect(c.viewport.intersected(QRectF(e->rect())), QColor(0xe9, 0xeb, 0xef, 150));
        paintHeaders(p, c);
        paintTitle(p, c);
    } else if (c.bannerH > 0 || c.captionH > 0) {
        paintTitle(p, c);
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF lr = legendRect();
    if (!lr.isEmpty()) {
        p.setPen(QPen(contrast_ ? QColor(Qt::black) : QColor(0, 0, 0, 40), 1));
        p.setBrush(QColor(255, 255, 255, 245));
        p.drawRoundedRect(lr, 6, 6);
        p.save();
        p.setClipRect(lr.adjusted(1, 1, -1, -1));
        renderer_.paintLegend(&p, lr.topLeft() + QPointF(10, 6), width() - 2 * kPad - 20, true,
                              scale_);
        p.restore();
    }
    if (!message_.isEmpty()) {
        QFont f = chromeFont(14);
        p.setFont(f);
        const QRectF area = rect().adjusted(40, 40, -40, -40);
        const QRectF tb = p.boundingRect(area, Qt::AlignCenter | Qt::TextWordWrap, message_);
        const QRectF b = tb.adjusted(-20, -14, 20, 14);
        p.setPen(QPen(QColor(0, 0, 0, 40), 1));
        p.setBrush(QColor(255, 255, 255, 245));
        p.drawRoundedRect(b, 8, 8);
        p.setPen(QColor(0x3b, 0x41, 0x4b));
        p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, message_);
    }
    if (!hint_.isEmpty()) {
        const QFont f = chromeFont(12);
        p.setFont(f);
        const QFontMetricsF fm(f);
        const double maxW = std::max(120.0, c.viewport.width() - 16);
        const QRectF tb = fm.boundingRect(QRectF(0, 0, maxW - 24, 1e6),
                                          Qt::AlignCenter | Qt::TextWordWrap, hint_);
        const double w = tb.width() + 24, h = tb.height() + 12;
        const QRectF b(c.viewport.center().x() - w / 2, c.viewport.bottom() - h - 10, w, h);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(30, 34, 40, 215));
        p.drawRoundedRect(b, 6, 6);
        p.setPen(Qt::white);
        p.drawText(b.adjusted(12, 6, -12, -6), Qt::AlignCenter | Qt::TextWordWrap, hint_);
    }
    ++paintCount_;
    lastPaintMs_ = t.nsecsElapsed() / 1e6;
}

// ---------------------------------------------------------------- input

void GridView::wheelEvent(QWheelEvent* e) {
    if (e->modifiers() & Qt::ControlModifier) {
        // Ctrl+wheel zooms around the cursor, as in browsers and image viewers.
        const double steps =
            (e->angleDelta().y() ? e->angleDelta().y() : e->angleDelta().x()) / 120.0;
        zoomBy(std::pow(1.2, steps), e->position());
        e->accept();
        return;
    }
    // The wheel scrolls: vertical wheels pan vertically, horizontal ones (or Shift) sideways.
    QPointF d = !e->pixelDelta().isNull() ? QPointF(e->pixelDelta())
                                          : QPointF(e->angleDelta()) / 120.0 * 60.0;
    if ((e->modifiers() & Qt::ShiftModifier) && d.x() == 0) d = QPointF(d.y(), 0);
    const QPointF before = origin_;
    if (!d.isNull()) {
        fitted_ = false;
        applyTransform(scale_, origin_ + d);
    }
    if (origin_ == before) {
        // Nothing to scroll (the grid fits): let a surrounding scroll area have the wheel, and
        // say how to zoom.
        showHint(QStringLiteral("Ctrl + wheel zooms · wheel, drag or arrow keys pan"));
        e->ignore();
        return;
    }
    e->accept();
}

void GridView::mousePressEvent(QMouseEvent* e) {
    pressPos_ = e->pos();
    pressOrigin_ = origin_;
    pressButton_ = e->button();
    panning_ = e->button() == Qt::MiddleButton;
    if (panning_) setCursor(Qt::ClosedHandCursor);
}

void GridView::mouseMoveEvent(QMouseEvent* e) {
    if (pressButton_ != Qt::NoButton && (e->buttons() & (Qt::LeftButton | Qt::MiddleButton))) {
        if (!panning_ && (e->pos() - pressPos_).manhattanLength() > 4) {
            panning_ = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (panning_) {
            fitted_ = false;
            applyTransform(scale_, pressOrigin_ + QPointF(e->pos() - pressPos_));
            return;
        }
    }
    updateHover(e->position());
}

QString GridView::shownBanner() const {
    const QString collision = renderer_.model().collisionWarning();
    if (banner_.isEmpty()) return collision;
    return collision.isEmpty() ? banner_ : banner_ + QLatin1Char('\n') + collision;
}

QRectF GridView::bannerRect(const Chrome& c, bool collisionLine) const {
    const QString text = collisionLine ? renderer_.model().collisionWarning() : banner_;
    if (c.bannerH <= 0 || text.isEmpty()) return {};
    const QFontMetricsF bm(chromeFont(kBannerPx));
    const double lineH = std::ceil(bm.height() + 12);
    const QRectF g = gridRectOnScreen();
    // The collision line is the lower one when both are shown.
    const double below = collisionLine ? 0 : c.bannerH - lineH;
    const double y = std::max(c.viewport.top(), g.top()) - c.colH - lineH - below + 2;
    const double w = std::min(bm.horizontalAdvance(text) + 28, width() - 2 * kPad);
    const double x = std::clamp(c.viewport.center().x() - w / 2, kPad, width() - kPad - w);
    return QRectF(x, y, w, lineH - 6);
}

void GridView::mouseReleaseEvent(QMouseEvent* e) {
    const bool wasPanning = panning_;
    panning_ = false;
    pressButton_ = Qt::NoButton;
    unsetCursor();
    if (wasPanning) return;
    if (e->button() == Qt::LeftButton &&
        bannerRect(chrome(scale_, origin_), true).contains(e->position())) {
        // The collision warning toggles a highlight of every cell involved.
        const Highlight all{Highlight::Collisions, 0};
        setHighlight(highlight() == all ? Highlight{} : all);
        return;
    }
    const auto cell = cellAtWidget(e->position());
    if (!cell) {
        if (e->button() == Qt::LeftButton && cellArea().contains(e->position())) setHighlight({});
        return;
    }
    const bool slot = e->button() == Qt::RightButton || (e->modifiers() & Qt::ShiftModifier);
    const Highlight h = model().highlightFor(cell->y(), cell->x(), slot);
    setHighlight(h == highlight() ? Highlight{} : h);
    emit cellClicked(cell->y(), cell->x());
}

void GridView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (!cellAtWidget(e->position())) zoomToFit();
}

void GridView::leaveEvent(QEvent*) {
    mousePos_.reset();
    if (renderer_.hover()) {
        renderer_.setHover(std::nullopt);
        update();
        emit cellHovered(-1, -1);
    }
}

void GridView::updateHover(QPointF pos) {
    mousePos_ = pos;
    const auto cell = cellAtWidget(pos);
    if (cell == renderer_.hover()) return;
    renderer_.setHover(cell);
    update();
    if (cell)
        emit cellHovered(cell->y(), cell->x());
    else
        emit cellHovered(-1, -1);
}

void GridView::keyPressEvent(QKeyEvent* e) {
    const double step = 60;
    auto pan = [this](QPointF d) {
        fitted_ = false;
        applyTransform(scale_, origin_ + d);
    };
    switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_0:
        zoomToFit();
        break;
    case Qt::Key_Escape:
        if (!highlight().active()) {
            QWidget::keyPressEvent(e); // let a window leave presenter mode, close a dialog
            return;
        }
        setHighlight({});
        break;
    case Qt::Key_Left:
        pan(QPointF(step, 0));
        break;
    case Qt::Key_Right:
        pan(QPointF(-step, 0));
        break;
    case Qt::Key_Up:
        pan(QPointF(0, step));
        break;
    case Qt::Key_Down:
        pan(QPointF(0, -step));
        break;
    default:
        QWidget::keyPressEvent(e);
        return;
    }
    e->accept();
}

bool GridView::event(QEvent* e) {
    switch (e->type()) {
    case QEvent::ToolTip: {
        auto* he = static_cast<QHelpEvent*>(e);
        const auto cell = cellAtWidget(he->pos());
        const QString tip = cell ? toolTipFor(cell->y(), cell->x()) : QString();
        if (!tip.isEmpty())
            QToolTip::showText(he->globalPos(), tip, this);
        else
            QToolTip::hideText();
        tipText_ = tip;
        return true;
    }
    case QEvent::Gesture: {
        auto* ge = static_cast<QGestureEvent*>(e);
        if (auto* pinch = static_cast<QPinchGesture*>(ge->gesture(Qt::PinchGesture))) {
            if (pinch->changeFlags() & QPinchGesture::ScaleFactorChanged)
                zoomBy(pinch->scaleFactor(), mapFromGlobal(pinch->centerPoint().toPoint()));
            ge->accept(pinch);
            return true;
        }
        break;
    }
    case QEvent::NativeGesture: {
        auto* ne = static_cast<QNativeGestureEvent*>(e);
        if (ne->gestureType() == Qt::ZoomNativeGesture) {
            zoomBy(1.0 + ne->value(), ne->position());
            return true;
        }
        break;
    }
    default:
        break;
    }
    return QWidget::event(e);
}

} // namespace tsw
