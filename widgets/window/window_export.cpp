// SPDX-License-Identifier: Apache-2.0
// MainWindow's outputs of the active layout: Copy as TileLang / CuTe / Triton and Export View
// (the picture written off the UI thread by ExportJob).
#include "window/mainwindow.h"

#include "common/export_refusal.h"
#include "common/result_state.h"
#include "document/documentmodel.h"
#include "editor/mappingeditor.h"
#include "grid/export_dialog.h"
#include "grid/export_job.h"
#include "grid/gridview.h"

#include "tilescope/notation/mapping.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>

namespace tsw {

void MainWindow::copyAsCuTe() {
    copyConversion(QStringLiteral("CuTe"), &ts::toCuTe);
}

void MainWindow::copyAsTriton() {
    copyConversion(QStringLiteral("Triton LinearLayout"), &ts::toTritonLinear);
}

void MainWindow::showLayoutMessage(const QString& text, int ms) {
    layoutMessage_ = text;
    statusBar()->showMessage(text, ms);
}

void MainWindow::dropLayoutMessage() {
    // A message about the layout as it was ("Not copied: …") is wrong about the new text.
    if (!layoutMessage_.isEmpty() && statusBar()->currentMessage() == layoutMessage_)
        statusBar()->clearMessage();
    layoutMessage_.clear();
}

void MainWindow::copyConversion(const QString& target,
                                ts::Conversion (*convert)(const ts::Mapping&)) {
    if (!mapping_) {
        showLayoutMessage(QStringLiteral("No valid layout to copy as %1").arg(target), 6000);
        return;
    }
    try {
        const ts::Conversion c = convert(*mapping_);
        QApplication::clipboard()->setText(QString::fromStdString(c.text));
        showLayoutMessage(QStringLiteral("Copied as %1%2")
                              .arg(target, c.note.empty() ? QString()
                                                          : QStringLiteral(" (%1)").arg(
                                                                QString::fromStdString(c.note))),
                          c.note.empty() ? 3000 : 10000);
    } catch (const std::exception& e) {
        showLayoutMessage(QStringLiteral("Not copied: no exact %1 form: %2")
                              .arg(target, QString::fromUtf8(e.what())),
                          10000);
    }
}

void MainWindow::copyAsTileLang() {
    QString code;
    if (mapping_) {
        try {
            code = QString::fromStdString(ts::toTileLangCode(*mapping_));
        } catch (const std::exception& e) {
            showLayoutMessage(QString::fromUtf8(e.what()), 6000);
        }
    }
    if (code.isEmpty()) code = editor_->text();
    QApplication::clipboard()->setText(code);
    showLayoutMessage(QStringLiteral("Copied TileLang code to the clipboard"), 3000);
}

bool MainWindow::exportView(const QString& path, double scale) {
    if (const QString no =
            exportRefusal(gridState_->state(), grid_->model().isEmpty(), gridState_->errorText());
        !no.isEmpty()) {
        showError(QStringLiteral("Not exported"), no);
        return false;
    }
    GridRenderer::Style s;
    s.legendInScene = true;
    s.exportPage = true;
    GridRenderer r(grid_->model(), s);
    r.setHighlight(grid_->highlight());
    QString err;
    if (!r.exportFile(path, &err, scale)) {
        showError(QStringLiteral("Export failed"), err);
        return false;
    }
    statusBar()->showMessage(QStringLiteral("Exported %1").arg(path), 4000);
    return true;
}

QString MainWindow::exportStartDirectory() const {
    // The project's folder; for a sample (read-only, shipped) or an untitled project the folder of
    // the last export, else home.
    const QString path = doc_->filePath();
    if (!path.isEmpty() && !path.startsWith(samplesDirectory() + '/') &&
        !path.startsWith(QLatin1Char(':')))
        return QFileInfo(path).absolutePath();
    const QString last = QSettings().value(QStringLiteral("export/lastDir")).toString();
    return !last.isEmpty() && QFileInfo(last).isDir() ? last : QDir::homePath();
}

void MainWindow::exportViewDialog() {
    if (exportJob_ && exportJob_->running()) {
        if (exportJob_->dialog()) exportJob_->dialog()->raise();
        return;
    }
    if (const QString no =
            exportRefusal(gridState_->state(), grid_->model().isEmpty(), gridState_->errorText());
        !no.isEmpty()) {
        showError(QStringLiteral("Not exported"), no);
        return;
    }
    QString base =
        QString::fromStdString(doc_->activeLayout() ? doc_->activeLayout()->name : "layout");
    // A file name from the layout's name: letters, digits, '-', '.', '_' (no commas or slashes).
    for (QChar& ch : base)
        if (!ch.isLetterOrNumber() && ch != QLatin1Char('-') && ch != QLatin1Char('.'))
            ch = QLatin1Char('_');
    while (base.contains(QStringLiteral("__")))
        base.replace(QStringLiteral("__"), QStringLiteral("_"));
    GridRenderer::Style style;
    style.legendInScene = true;
    style.exportPage = true;
    const QSizeF native = GridRenderer(grid_->model(), style).sceneSize();
    const auto choice = askExportFile(
        this, exportStartDirectory() + QLatin1Char('/') + base + QStringLiteral(".png"), native);
    if (!choice) return;
    QSettings().setValue(QStringLiteral("export/lastDir"), QFileInfo(choice->path).absolutePath());
    startExport(choice->path, choice->scale);
}

bool MainWindow::startExport(const QString& path, double scale) {
    if (const QString no =
            exportRefusal(gridState_->state(), grid_->model().isEmpty(), gridState_->errorText());
        !no.isEmpty()) {
        showError(QStringLiteral("Not exported"), no);
        return false;
    }
    if (exportJob_ && exportJob_->running()) return false;
    GridRenderer::Style s;
    s.legendInScene = true;
    s.exportPage = true;
    GridRenderer r(grid_->model(), s);
    r.setHighlight(grid_->highlight());
    if (exportJob_) exportJob_->deleteLater();
    exportJob_ = new ExportJob(std::move(r), path, scale, this);
    connect(exportJob_, &ExportJob::finished, this,
            [this, path](bool ok, bool cancelled, const QString& err, double seconds) {
                if (ok)
                    statusBar()->showMessage(
                        QStringLiteral("Exported %1 (%2 s)").arg(path).arg(seconds, 0, 'f', 1),
                        6000);
                else if (cancelled)
                    statusBar()->showMessage(
                        QStringLiteral("Export cancelled: %1 was not written").arg(path), 6000);
                else
                    showError(QStringLiteral("Export failed"), err);
                emit exportFinished(ok, cancelled);
            });
    exportJob_->start();
    statusBar()->showMessage(QStringLiteral("Exporting %1…").arg(path));
    return true;
}

} // namespace tsw
