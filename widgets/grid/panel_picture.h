// SPDX-License-Identifier: Apache-2.0
// PanelPicture: what a panel (the bank heat map, its histogram, a trace comparison, the fractal
// or swizzle previews, the Ascend UB panel) exports as a picture, and the writer that turns it
// into PNG, SVG or PDF.
//
// A picture is a header (what it shows, the layout its numbers belong to and that layout's text
// revision, caption lines, and a red note when it had to be marked) over parts laid out left to
// right, each with a label. A grid part is a copy of a GridRenderer and is drawn from its model
// by the writer, so it is as sharp as the grid export; any other part (a chart, a table) is a
// QPicture recorded from its widget on the UI thread, replayed by the writer. The writer touches
// no widget: it runs on a worker thread (panel_export.h) and writes the file atomically.
#pragma once

#include "grid/gridrenderer.h"

#include <QPicture>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

class QWidget;

namespace tsw {

class GridView;

struct PanelPicturePart {
    QString label;                    // above the part ("current · acc"); may be empty
    std::optional<GridRenderer> grid; // drawn from its model
    QPicture drawing;                 // else: a widget as recorded
    QSizeF drawingSize;
};

struct PanelPicture {
    QString what;       // "Bank conflicts: heat map"
    QString layoutName; // what the numbers are about ("smem A", "zN 40 x 40 float16")
    QString layoutText; // its text; the picture names its revision (textRevision)
    QStringList caption;
    QString staleNote; // non-empty: drawn in red under the header
    std::vector<PanelPicturePart> parts;

    // "smem_A-heat_map": a file name from the layout and what is shown.
    QString suggestedBaseName() const;
    // The header's second line: "layout «smem A» · text rev 3f2a9c1e".
    QString layoutLine() const;
};

// The first 8 hex digits of the SHA-1 of the text (UTF-8): the same text always gives the same
// revision, an edited text another, so a picture can be matched to the text it was drawn from.
QString textRevision(const QString& text);

// A copy of what the view draws (model, overlays, highlight) with the export page's style: title,
// headers and the legend below the cells.
PanelPicturePart gridPart(const GridView* view, const QString& label);
// The widget as it is drawn now (UI thread only).
PanelPicturePart widgetPart(QWidget* widget, const QString& label);

// A label's text without its markup (captions are often rich text).
QString plainTextOf(const QString& labelText);

// The page size at scale 1 (scene units: pixels of a PNG at 100 %, points of a PDF).
QSizeF panelPictureSize(const PanelPicture& picture);

// Writes the picture as PNG, SVG or PDF (from the path's suffix) at `scale`, atomically (an
// existing file is replaced only by a complete one). Any thread. False and *error on failure.
bool writePanelPicture(const PanelPicture& picture, const QString& path, double scale,
                       QString* error);

} // namespace tsw
