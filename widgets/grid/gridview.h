// SPDX-License-Identifier: Apache-2.0
// GridView: the interactive grid widget over a GridRenderer, laid out like a spreadsheet: a
// title band, row and column numbers that stay in view while zoomed and panned (they follow
// the grid's edge and stick to the view's edge once it scrolls away), scrollbars, and the legend
// docked below the cells (it never covers one). Ctrl+wheel or pinch zooms around the cursor;
// the wheel, scrollbars, dragging and arrow keys pan. Hover tooltip, click to highlight a thread
// (shift/right click: a slot). Two views can be kept in step (trace/diff viewers) by connecting
// viewTransformChanged() of one to setViewTransform() of the other; cellHovered() and
// highlightChanged() can be cross-connected the same way.
#pragma once

#include "grid/axis_labels.h"
#include "grid/gridrenderer.h"

#include <QThreadPool>
#include <atomic>
#include <memory>

#include <QElapsedTimer>
#include <QWidget>
#include <functional>

class QScrollBar;
class QTimer;

namespace tsw {

// The smallest cell label drawn in presenter mode (setPresentation with high contrast), pixels.
inline constexpr double kPresentationMinLabelPx = 14.0;

// Which layout, at which revision, a grid depicts: the DocumentModel's LayoutId and revision
// ({0, 0}: no project layout, e.g. a trace's grid).
struct GridSource {
    quint64 layout = 0, revision = 0;
    bool operator==(const GridSource&) const = default;
};

class GridView : public QWidget {
    Q_OBJECT
public:
    explicit GridView(QWidget* parent = nullptr);
    ~GridView() override;

    GridRenderer& renderer() { return renderer_; }
    const GridRenderer& renderer() const { return renderer_; }
    const GridModel& model() const { return renderer_.model(); }

    // keepView: keep zoom and pan when the grid has the same dimensions (live editing).
    // Which layout, at which revision, a model depicts (see GridSource). A highlight belongs to
    // the revision it was made on: a model of another layout drops it, a new revision of the
    // same layout keeps it only where it still covers a cell (then it is that revision's).
    using Source = GridSource;
    void setModel(GridModel model, bool keepView = false, Source source = {});
    Source source() const { return source_; }
    // The revision the highlight was made on (or re-evaluated for); meaningful while active.
    Source highlightSource() const { return highlightSource_; }
    // A centred message over the grid (too large, no layout); empty to clear.
    void setMessage(const QString& message);
    QString message() const { return message_; }
    // A small banner above the grid (e.g. "showing the last valid layout"); empty to clear.
    void setBanner(const QString& banner);
    QString banner() const { return banner_; }
    // What the banner shows: the error banner, else the model's collision warning.
    QString shownBanner() const;
    // A veil over the cells (under the banner): what is drawn is not the current input's.
    void setDimmed(bool on);
    bool dimmed() const { return dimmed_; }

    // A caption above everything (a lesson step's one-line explanation); empty to clear.
    void setCaption(const QString& caption);
    QString caption() const { return caption_; }
    QRectF captionRect() const;

    // Chrome: the title band (model title and subtitle) and the row/column numbers.
    void setTitleVisible(bool on);
    bool titleVisible() const { return title_; }
    void setHeadersVisible(bool on);
    bool headersVisible() const { return headers_; }
    // Presentation: fonts of the chrome, legend and messages scaled (labels in cells follow the
    // zoom anyway), darker ink on plain white for projectors.
    void setPresentation(double fontScale, bool highContrast);
    double fontScale() const { return fontScale_; }
    bool highContrast() const { return contrast_; }
    // Replaces the default hover tooltip (rich text; empty = none) for panels whose cells mean
    // something else than the model's (bank heat).
    void setCellToolTip(std::function<QString(int row, int col)> f);
    QString toolTipFor(int row, int col) const;

    double scale() const { return scale_; }
    QPointF pan() const { return origin_; }
    double fitScale() const;
    // Whether the view follows resizes (zoomed to fit and not zoomed or panned since).
    bool isFitted() const { return fitted_; }
    double zoomRelative() const; // scale / fitScale
    void setLegendVisible(bool on);
    bool legendVisible() const { return legend_; }
    void setHighlight(const Highlight& h);
    Highlight highlight() const { return renderer_.highlight(); }
    std::optional<QPoint> hoveredCell() const { return renderer_.hover(); }

    QPointF widgetToScene(QPointF p) const { return (p - origin_) / scale_; }
    QPointF sceneToWidget(QPointF s) const { return origin_ + s * scale_; }
    std::optional<QPoint> cellAtWidget(QPointF p) const;

    // Geometry (widget coordinates) of what is on screen now.
    QRectF cellArea() const;         // where cells are drawn (the viewport)
    QRectF gridRectOnScreen() const; // the whole grid at the current zoom (may exceed cellArea)
    QRectF columnHeaderRect() const; // empty without headers
    // The column and row numbers the last paint drew (index and extent along the axis).
    const std::vector<AxisLabelSpot>& drawnColumnLabels() const { return drawnCols_; }
    const std::vector<AxisLabelSpot>& drawnRowLabels() const { return drawnRows_; }
    QRectF rowHeaderRect() const;
    QRectF titleRect() const;
    QRectF legendRect() const; // empty when hidden or nothing to show
    QScrollBar* horizontalBar() const { return hbar_; }
    QScrollBar* verticalBar() const { return vbar_; }
    // The transient hint shown when the wheel cannot scroll ("Ctrl+wheel zooms").
    QString hint() const { return hint_; }
    void flashHint(const QString& text, int ms = 2500);

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
    // zoomRelative() changed: by a zoom, or by a resize or a new model changing what fits.
    void zoomRelativeChanged(double zoom);
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
    // Where everything goes for a given scale (the legend may depend on it).
    struct Chrome {
        QRectF viewport; // cell area
        double captionH = 0, titleH = 0, bannerH = 0, colH = 0, rowW = 0, legendH = 0;
        bool hbar = false, vbar = false;
    };
    Chrome chrome(double scale, QPointF origin) const;
    Chrome chromeNoBars(double scale) const;
    // The banner line of the note/error (collisionLine false) or of the collision warning.
    QRectF bannerRect(const Chrome& c, bool collisionLine) const;
    QFont chromeFont(double px, bool bold = false) const;
    void applyTransform(double scale, QPointF origin);
    // Builds, off the UI thread, the overviews that zooming out and back in will need, so that
    // a frame at a new zoom level does not stop to aggregate millions of cells.
    void prefetchOverviews();
    void updateHover(QPointF pos);
    // A shown cell tooltip follows the view: after a zoom, scroll or model change it tells the
    // cell now under the mouse, or goes.
    void refreshToolTip();
    void clampOrigin();
    void syncScrollBars();
    void showHint(const QString& text);
    void paintHeaders(QPainter& p, const Chrome& c) const;
    void paintTitle(QPainter& p, const Chrome& c) const;
    double titleTextWidth() const; // the wider of the title and the subtitle on one line
    double subtitleHeight() const; // the subtitle wrapped to the view's width

    Source source_, highlightSource_;
    GridRenderer renderer_;
    double scale_ = 1;
    QPointF origin_;
    bool fitted_ = true;       // follow resizes while the user has not zoomed
    double announcedZoom_ = 0; // the last zoomRelative() announced
    void announceZoom();
    // What fits changed (size, banner, caption, legend...): follow it while fitted, else keep
    // the scale inside the new bounds.
    void refit();
    bool legend_ = true;
    bool title_ = true, headers_ = true;
    double fontScale_ = 1;
    bool contrast_ = false;
    QString message_, banner_, hint_, caption_;
    std::function<QString(int, int)> cellToolTip_;
    QString tipText_; // the cell tooltip this view shows, empty when none
    mutable std::vector<AxisLabelSpot> drawnCols_, drawnRows_;
    QScrollBar *hbar_, *vbar_;
    QTimer* hintTimer_;
    bool syncingBars_ = false;
    bool dimmed_ = false;
    QPoint pressPos_;
    std::optional<QPointF> mousePos_; // where the mouse is over this view (none after it left)
    QPointF pressOrigin_;
    Qt::MouseButton pressButton_ = Qt::NoButton;
    bool panning_ = false;
    double lastPaintMs_ = 0;
    quint64 paintCount_ = 0;
    QRectF barsViewport_; // the cell area the scroll bars were last placed around
    // The colouring whose overviews are being (or were) built, the generation that tells a
    // running build it has been superseded, and the view's own builder thread (not the global
    // pool: the evaluation of the next keystroke must not queue behind an overview). Declared
    // last so that it is destroyed first, waiting for a running build, while the view is whole.
    quint64 prefetchKey_ = 0;
    std::atomic<quint64> prefetchGen_{0};
    QThreadPool overviewPool_;
};

} // namespace tsw
