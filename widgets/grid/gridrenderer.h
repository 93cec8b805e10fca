// SPDX-License-Identifier: Apache-2.0
// GridRenderer: geometry (cell <-> scene <-> device) and painting of a GridModel. The widget,
// image export (PNG/SVG/PDF) and the CLI `render` command all paint through it, and a trace
// viewer can put two renderers side by side.
//
// Scene units: one unit is one pixel at scale 1 (one point in PDF/SVG). The scene holds a title,
// column/row headers, the cell grid and, for exports, a legend below the grid. paint() draws any
// device rectangle of the scene at any scale with level of detail: labels only where legible,
// one pixel per cell from a cached image when cells are smaller than a few pixels, and below one
// pixel per cell an overview where each pixel summarises a block of cells (grid_overview.h), so
// a 1024 x 1024 fragment shows its warps instead of a grey moire.
//
// Extension points for overlays (heat maps, bank histograms, diff views):
//  - CellColorOverlay replaces the base colour of cells (e.g. ValueColorOverlay: value -> ramp);
//  - GridOverlay layers paint on top of the cells in device coordinates, in order.
#pragma once

#include "grid/grid_layout.h"
#include "grid/gridmodel.h"

#include <QFont>
#include <QImage>
#include <QPointF>
#include <QRectF>
#include <QSet>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QPainter;

namespace tsw {

class GridRenderer;

// Progress and cancellation of a long export, shared with the thread that runs it: painting
// checks `cancelled` row by row and stops, the file is then not written.
struct ExportProgress {
    std::atomic<bool> cancelled{false};
    std::atomic<int> permille{0}; // 0..1000
    std::atomic<int> stage{0};    // 0 drawing, 1 encoding and writing
};

// Replaces cell colours; return nullopt to keep the model's colour.
class CellColorOverlay {
public:
    virtual ~CellColorOverlay() = default;
    virtual std::optional<QRgb> cellColor(int row, int col) const = 0;
    virtual std::vector<LegendEntry> legend() const { return {}; }
    // Bump when the colours change, so cached low-detail images are rebuilt.
    virtual quint64 revision() const { return 0; }
};

// Per-cell value -> colour on a ramp (NaN = keep the model colour). Values are row-major.
class ValueColorOverlay : public CellColorOverlay {
public:
    ValueColorOverlay(int cols, std::vector<double> values, double lo, double hi,
                      std::function<QColor(double)> ramp = {}, QString legendTitle = {});
    std::optional<QRgb> cellColor(int row, int col) const override;
    std::vector<LegendEntry> legend() const override;
    quint64 revision() const override { return revision_; }

private:
    int cols_;
    std::vector<double> values_;
    double lo_, hi_;
    std::function<QColor(double)> ramp_;
    QString title_;
    quint64 revision_;
};

// A layer painted over the cells. `cells` is the visible cell range (inclusive-exclusive in
// QRect terms: left/top = first col/row, width/height = counts).
class GridOverlay {
public:
    virtual ~GridOverlay() = default;
    virtual void paint(QPainter& p, const GridRenderer& r, const QRect& cells) const = 0;
};

class GridRenderer {
public:
    struct Style {
        double cell = 48;           // scene units per cell
        bool title = true;          // title and subtitle above the grid
        bool headers = true;        // row / column numbers
        bool legendInScene = false; // legend below the grid (exports)
        // An exported page: as wide as its subtitle too (an image is cut at its edge; a view lets
        // the text run past the page rather than fit a small grid to its subtitle).
        bool exportPage = false;
        double minLabelPx = 5.5;  // smallest label font drawn, device pixels
        double margin = 14;       // white page border around everything, scene units
        double legendFontPx = 11; // legend text, legend units (device pixels in a view)
        double maxPixels = 120e6; // bitmap exports: cells shrink to stay under this
        QString fontFamily;       // empty: application default
    };

    GridRenderer();
    explicit GridRenderer(GridModel model);
    GridRenderer(GridModel model, Style style);

    void setModel(GridModel model);
    const GridModel& model() const { return model_; }
    void setStyle(const Style& s);
    const Style& style() const { return style_; }

    void setHighlight(const Highlight& h);
    const Highlight& highlight() const { return highlight_; }
    void setHover(std::optional<QPoint> cell) { hover_ = cell; }
    std::optional<QPoint> hover() const { return hover_; }

    void setCellColorOverlay(std::shared_ptr<const CellColorOverlay> o);
    void addOverlay(std::shared_ptr<const GridOverlay> o);
    void clearOverlays();

    // Geometry in scene units.
    QSizeF sceneSize() const;
    QRectF gridRect() const;
    QRectF cellRect(int row, int col) const;              // scene
    std::optional<QPoint> cellAt(QPointF scenePos) const; // (x = col, y = row)
    // Current transform while painting (for overlays): scene -> device.
    QPointF origin() const { return origin_; }
    double scale() const { return scale_; }
    QRectF deviceCellRect(int row, int col) const;

    // Paints the part of the scene inside deviceRect, with scene (0,0) at `origin` (device) and
    // `scale` device pixels per scene unit.
    void paint(QPainter& p, const QRectF& deviceRect, QPointF origin, double scale) const;
    // The legend box (device coordinates); returns its size. paint=false only measures.
    // `scale` is the zoom the legend describes (the overview adds entries below one pixel per
    // cell); < 0: the scale of the last paint.
    QSizeF paintLegend(QPainter* p, QPointF topLeft, double maxWidth, bool paint = true,
                       double scale = -1) const;
    std::vector<LegendEntry> legendEntries(double scale = -1) const;
    double legendLineHeight() const; // one line of the legend

    // Overviews built away from the painting thread. A job is a snapshot of what the overviews
    // of the model's own colours depend on (nothing when an overlay, highlight or diff marks
    // colour the cells: those are built when painted) and the block sizes 2..maxBlock not built
    // yet; buildOverview runs on any thread; adoptOverview keeps a result if the colouring is
    // still the job's.
    struct OverviewJob {
        GridModel model;
        quint64 key = 0;
        std::vector<int> blocks;
    };
    std::optional<OverviewJob> overviewJob(int maxBlock) const;
    // On: a frame whose overview level is not built yet draws the nearest level that is (the
    // view builds the rest in the background and repaints as they arrive); off (exports): built
    // when painted.
    void setOverviewsArriveLater(bool on) { overviewsArriveLater_ = on; }
    // The block size a paint at block size k draws with (see setOverviewsArriveLater).
    int drawnOverviewBlock(int k) const;
    static QImage buildOverview(const OverviewJob& job, int k);
    // The colours an overview image shows (what its legend may list): 11 ms for the 2x2 level of
    // a 4096 x 4096 grid, so the view collects them with the level, off the UI thread.
    static QSet<QRgb> coloursOf(const QImage& img);
    // `colours`: coloursOf(img) when the caller has it (else collected when first needed).
    void adoptOverview(int k, quint64 key, QImage img, std::optional<QSet<QRgb>> colours = {});

    // Cells per overview pixel (per side) at a scale: 1 when cells are at least a pixel.
    int overviewBlockAt(double scale) const;
    // Whether the overview at `scale` may colour blocks by group (warp) rather than by cell.
    bool overviewGroupsAt(double scale) const;

    QRgb effectiveColor(int row, int col) const;
    // The smallest cell (scene units at scale 1) whose labels are drawn (Style::minLabelPx).
    double labelCellPx() const;
    // Label font sizes (device px) of the two lines at `scale` (f[2]); *compact: the first line
    // uses the compact form. Labels are drawn when f[0] >= Style::minLabelPx.
    void labelFonts(double scale, double* f, bool* compact) const;

    // Whole-scene export; format from the extension (png, jpg, svg, pdf, txt, tsv).
    // PNG size = ceil(sceneSize * scale); cell sizes (not the title, numbers or legend) are
    // reduced so that a bitmap stays under Style::maxPixels. Returns false and sets *error on
    // failure. With `progress`, reports it and stops early (false, "cancelled") when asked to;
    // a cancelled export leaves no file behind.
    bool exportFile(const QString& path, QString* error, double scale = 1.0,
                    ExportProgress* progress = nullptr) const;
    QImage renderImage(double scale = 1.0, ExportProgress* progress = nullptr) const;
    static QStringList exportFormats(); // {"png","svg","pdf","txt"}

private:
    double headerW() const;
    double headerH() const;
    double titleH() const;
    double legendH() const;
    void paintCells(QPainter& p, const QRect& cells) const;
    void paintLowDetail(QPainter& p, const QRect& cells) const;
    void ensureLowDetail() const; // the one-pixel-per-cell image for the current colouring
    bool plainColours() const;    // cells show the model's own colours
    void paintHeaders(QPainter& p, const QRect& cells, const QRectF& deviceRect) const;
    const QImage& overviewImage(int k) const;
    QImage renderAt(double scale, QSizeF size, ExportProgress* progress) const;
    quint64 colorKey() const;

    GridModel model_;
    Style style_;
    Highlight highlight_;
    std::optional<QPoint> hover_;
    std::shared_ptr<const CellColorOverlay> colorOverlay_;
    std::vector<std::shared_ptr<const GridOverlay>> overlays_;
    mutable bool cellsDrawnElsewhere_ = false; // SVG export: cells come from grid_svg.h
    mutable QPointF origin_;
    mutable double scale_ = 1;
    mutable QImage lowDetail_; // one pixel per cell, effective colours
    // Set while an export paints (0..`progressSpan_` of its permille).
    mutable ExportProgress* progress_ = nullptr;
    mutable int progressSpan_ = 1000;
    mutable quint64 lowDetailKey_ = 0;
    mutable std::vector<std::pair<int, QImage>> overviews_; // per block size, same key
    // The colours each overview draws (for its legend), built once per overview.
    mutable std::vector<std::pair<int, QSet<QRgb>>> overviewColours_;
    const QSet<QRgb>& overviewColours(int k) const;
    quint64 revision_ = 1;
    bool overviewsArriveLater_ = false;
};

} // namespace tsw
