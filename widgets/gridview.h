// GridView: the interactive grid widget over a GridRenderer: wheel/pinch zoom around the cursor,
// drag or arrow-key pan, hover tooltip, click to highlight a thread (shift/right click: a slot),
// and a legend overlay. Two views can be kept in step (trace/diff viewers) by connecting
// viewTransformChanged() of one to setViewTransform() of the other; cellHovered() and
// highlightChanged() can be cross-connected the same way.
#pragma once

#include "gridrenderer.h"

#include <QElapsedTimer>
#include <QWidget>

namespace tsw {

class GridView : public QWidget {
    Q_OBJECT
public:
    explicit GridView(QWidget* parent = nullptr);

    GridRenderer& renderer() { return renderer_; }
    const GridRenderer& renderer() const { return renderer_; }
    const GridModel& model() const { return renderer_.model(); }

    // keepView: keep zoom and pan when the grid has the same dimensions (live editing).
    void setModel(GridModel model, bool keepView = false);
    // A centred message over the grid (too large, no layout); empty to clear.
    void setMessage(const QString& message);
    QString message() const { return message_; }
    // A small banner at the top (e.g. "showing the last valid layout"); empty to clear.
    void setBanner(const QString& banner);
    QString banner() const { return banner_; }

    double scale() const { return scale_; }
    QPointF pan() const { return origin_; }
    double fitScale() const;
    double zoomRelative() const; // scale / fitScale
    void setLegendVisible(bool on);
    bool legendVisible() const { return legend_; }
    void setHighlight(const Highlight& h);
    Highlight highlight() const { return renderer_.highlight(); }
    std::optional<QPoint> hoveredCell() const { return renderer_.hover(); }

    QPointF widgetToScene(QPointF p) const { return (p - origin_) / scale_; }
    QPointF sceneToWidget(QPointF s) const { return origin_ + s * scale_; }
    std::optional<QPoint> cellAtWidget(QPointF p) const;

    double lastPaintMs() const { return lastPaintMs_; }
    quint64 paintCount() const { return paintCount_; }

    QSize sizeHint() const override { return {800, 600}; }

public slots:
    void setViewTransform(double scale, QPointF pan);
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void setZoomRelative(double z);
    void zoomBy(double factor, QPointF anchor);
    void setHoveredCell(int row, int col); // from a synchronised view; (-1,-1) clears

signals:
    void viewTransformChanged(double scale, QPointF pan);
    void cellHovered(int row, int col); // (-1, -1) when the mouse leaves the grid
    void cellClicked(int row, int col);
    void highlightChanged(const tsw::Highlight& h);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool event(QEvent*) override;

private:
    void applyTransform(double scale, QPointF origin);
    void updateHover(QPointF pos);
    void clampOrigin();
    double legendReserve() const;

    GridRenderer renderer_;
    double scale_ = 1;
    QPointF origin_;
    bool fitted_ = true; // follow resizes while the user has not zoomed
    bool legend_ = true;
    QString message_, banner_;
    QPoint pressPos_;
    QPointF pressOrigin_;
    Qt::MouseButton pressButton_ = Qt::NoButton;
    bool panning_ = false;
    double lastPaintMs_ = 0;
    quint64 paintCount_ = 0;
};

} // namespace tsw
