// SPDX-License-Identifier: Apache-2.0
// The Export View dialog: a file dialog that starts where the user expects (the project's folder)
// with a Size row under it: a scale in percent and the pixel size it gives, so that a 1024 x 1024
// grid need not become an 11000-pixel PNG.
#pragma once

#include <QSizeF>
#include <QString>
#include <optional>

class QWidget;

namespace tsw {

struct ExportChoice {
    QString path;
    double scale = 1.0;
};

// `startPath`: folder and suggested file name; `nativeSize`: the export's size at 100 %.
// `textTable`: offer the grid's text table too (a panel's picture has none). Empty when cancelled.
std::optional<ExportChoice> askExportFile(QWidget* parent, const QString& startPath,
                                          QSizeF nativeSize, const QString& title = {},
                                          bool textTable = true);

// "2048 × 2051 px at 50 %" (what the Size row says).
QString exportSizeText(QSizeF nativeSize, int percent);

} // namespace tsw
