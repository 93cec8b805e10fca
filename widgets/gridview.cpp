#include "gridview.h"

#include <QGestureEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QPinchGesture>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace tsw {

namespace {
constexpr double kMinScale = 0.002;
constexpr double kMaxScale = 12.0;
constexpr double kFitPad = 12;
} // namespace

GridView::GridView(QWidget* parent) : QWidget(parent) {
    GridRenderer::Style s;
    renderer_.setStyle(s);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    grabGesture(Qt::PinchGesture);
    setMinimumSize(200, 150);
}

void GridView::setModel(GridModel model, bool keepView) {
    const bool same = keepView && model.rows() == renderer_.model().rows() &&
                      model.cols() == renderer_.model().cols() && !renderer_.model().isEmpty();
    const Highlight h = renderer_.highlight();
    renderer_.setModel(std::move(model));
    // A thread/slot highlight stays meaningful across edits of the same grid.
    renderer_.setHighlight(same ? h : Highlight{});
    if (!same) zoomToFit();
    update();
}

void GridView::setMessage(const QString& message) {
    message_ = message;
    update();
}

void GridView::setBanner(const QString& banner) {
    if (banner_ == banner) return;
    banner_ = banner;
    update();
}

double GridView::fitScale() const {
    const QSizeF s = renderer_.sceneSize();
    if (s.isEmpty()) return 1;
    const double legendH = legendReserve();
    const double f = std::min((width() - 2 * kFitPad) / s.width(),
                              (height() - 2 * kFitPad - legendH) / s.height());
    return std::clamp(f, kMinScale, 2.0);
}

double GridView::legendReserve() const {
    // Room for the legend overlay at the bottom when fitting.
    if (!legend_) return 0;
    const QSizeF ls = renderer_.paintLegend(nullptr, {}, std::min(width() - 24.0, 560.0), false);
    return ls.isEmpty() ? 0 : ls.height() + 24;
}

double GridView::zoomRelative() const {
    return scale_ / fitScale();
}

void GridView::setLegendVisible(bool on) {
    legend_ = on;
    if (fitted_) zoomToFit();
    update();
}

void GridView::setHighlight(const Highlight& h) {
    if (h == renderer_.highlight()) return;
    renderer_.setHighlight(h);
    update();
    emit highlightChanged(h);
}

std::optional<QPoint> GridView::cellAtWidget(QPointF p) const {
    return renderer_.cellAt(widgetToScene(p));
}

void GridView::applyTransform(double scale, QPointF origin) {
    scale = std::clamp(scale, kMinScale, kMaxScale);
    if (scale == scale_ && origin == origin_) return;
    scale_ = scale;
    origin_ = origin;
    clampOrigin();
    update();
    emit viewTransformChanged(scale_, origin_);
}

void GridView::clampOrigin() {
    // Keep at least a quarter of the view covered by the scene.
    const QSizeF s = renderer_.sceneSize() * scale_;
    const double mx = width() * 0.75, my = height() * 0.75;
    origin_.setX(std::clamp(origin_.x(), std::min(0.0, width() - s.width() - mx), mx));
    origin_.setY(std::clamp(origin_.y(), std::min(0.0, height() - s.height() - my), my));
}

void GridView::setViewTransform(double scale, QPointF pan) {
    fitted_ = false;
    applyTransform(scale, pan);
}

void GridView::zoomToFit() {
    fitted_ = true;
    const double f = fitScale();
    const QSizeF s = renderer_.sceneSize() * f;
    scale_ = f;
    const double avail = height() - legendReserve();
    origin_ = QPointF((width() - s.width()) / 2, std::max(kFitPad, (avail - s.height()) / 2));
    update();
    emit viewTransformChanged(scale_, origin_);
}

void GridView::setZoomRelative(double z) {
    if (std::abs(z - 1.0) < 1e-9) {
        zoomToFit();
        return;
    }
    zoomBy(z * fitScale() / scale_, QPointF(width() / 2.0, height() / 2.0));
}

void GridView::zoomBy(double factor, QPointF anchor) {
    fitted_ = false;
    const double ns = std::clamp(scale_ * factor, kMinScale, kMaxScale);
    const QPointF scenePt = widgetToScene(anchor);
    applyTransform(ns, anchor - scenePt * ns);
}

void GridView::zoomIn() {
    zoomBy(1.25, QPointF(width() / 2.0, height() / 2.0));
}
void GridView::zoomOut() {
    zoomBy(0.8, QPointF(width() / 2.0, height() / 2.0));
}

void GridView::setHoveredCell(int row, int col) {
    std::optional<QPoint> c;
    if (row >= 0 && col >= 0 && row < model().rows() && col < model().cols()) c = QPoint(col, row);
    if (c == renderer_.hover()) return;
    renderer_.setHover(c);
    update();
}

void GridView::resizeEvent(QResizeEvent*) {
    if (fitted_)
        zoomToFit();
    else
        clampOrigin();
}

void GridView::paintEvent(QPaintEvent* e) {
    QElapsedTimer t;
    t.start();
    QPainter p(this);
    p.fillRect(e->rect(), QColor(0xe9, 0xeb, 0xef));
    if (!renderer_.model().isEmpty()) {
        const QRectF scene(origin_, renderer_.sceneSize() * scale_);
        const QRectF dev = scene.intersected(QRectF(e->rect()));
        // Soft shadow around the page.
        p.fillRect(scene.translated(2, 3).intersected(QRectF(e->rect())), QColor(0, 0, 0, 28));
        if (!dev.isEmpty()) renderer_.paint(p, dev, origin_, scale_);
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    QFont f = font();
    if (legend_ && !renderer_.model().isEmpty() && message_.isEmpty()) {
        const double maxW = std::min(width() - 24.0, 560.0);
        const QSizeF ls = renderer_.paintLegend(&p, {}, maxW, false);
        if (!ls.isEmpty()) {
            const QRectF box(12, height() - ls.height() - 24, ls.width() + 20, ls.height() + 12);
            p.setPen(QPen(QColor(0, 0, 0, 40), 1));
            p.setBrush(QColor(255, 255, 255, 235));
            p.drawRoundedRect(box, 6, 6);
            renderer_.paintLegend(&p, box.topLeft() + QPointF(10, 6), maxW, true);
        }
    }
    if (!banner_.isEmpty()) {
        p.setFont(f);
        QFontMetricsF fm(f);
        const QRectF b(width() / 2.0 - fm.horizontalAdvance(banner_) / 2 - 14, 10,
                       fm.horizontalAdvance(banner_) + 28, fm.height() + 12);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0xfe, 0xf3, 0xc7, 245));
        p.drawRoundedRect(b, 6, 6);
        p.setPen(QColor(0x78, 0x4a, 0x05));
        p.drawText(b, Qt::AlignCenter, banner_);
    }
    if (!message_.isEmpty()) {
        f.setPointSizeF(f.pointSizeF() * 1.15);
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
    ++paintCount_;
    lastPaintMs_ = t.nsecsElapsed() / 1e6;
}

void GridView::wheelEvent(QWheelEvent* e) {
    const QPoint ang = e->angleDelta();
    if (e->modifiers() & Qt::ShiftModifier) {
        // Shift+wheel pans (horizontal wheels report x).
        fitted_ = false;
        applyTransform(scale_, origin_ + QPointF(ang.y(), ang.x()) * 0.5);
    } else {
        const double steps = ang.y() / 120.0;
        zoomBy(std::pow(1.2, steps), e->position());
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

void GridView::mouseReleaseEvent(QMouseEvent* e) {
    const bool wasPanning = panning_;
    panning_ = false;
    pressButton_ = Qt::NoButton;
    unsetCursor();
    if (wasPanning) return;
    const auto cell = cellAtWidget(e->position());
    if (!cell) {
        if (e->button() == Qt::LeftButton) setHighlight({});
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
    if (renderer_.hover()) {
        renderer_.setHover(std::nullopt);
        update();
        emit cellHovered(-1, -1);
    }
}

void GridView::updateHover(QPointF pos) {
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
        setHighlight({});
        break;
    case Qt::Key_Left:
        fitted_ = false;
        applyTransform(scale_, origin_ + QPointF(step, 0));
        break;
    case Qt::Key_Right:
        fitted_ = false;
        applyTransform(scale_, origin_ - QPointF(step, 0));
        break;
    case Qt::Key_Up:
        fitted_ = false;
        applyTransform(scale_, origin_ + QPointF(0, step));
        break;
    case Qt::Key_Down:
        fitted_ = false;
        applyTransform(scale_, origin_ - QPointF(0, step));
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
        if (const auto cell = cellAtWidget(he->pos())) {
            const CellInfo info = model().info(cell->y(), cell->x());
            QToolTip::showText(he->globalPos(),
                               info.toToolTip() +
                                   QStringLiteral("<br><span style='color:#667'>click: highlight "
                                                  "thread · shift-click: slot</span>"),
                               this);
        } else {
            QToolTip::hideText();
        }
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
