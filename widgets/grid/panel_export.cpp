// SPDX-License-Identifier: Apache-2.0
// PanelExporter (see panel_export.h).
#include "grid/panel_export.h"

#include "grid/export_dialog.h"

#include <QDir>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QWidget>
#include <QtConcurrent>

namespace tsw {

namespace {

// The window whose status bar reports a finished export: a floating dock's parent is still the
// main window.
QMainWindow* mainWindowOf(QWidget* w) {
    for (; w; w = w->parentWidget())
        if (auto* mw = qobject_cast<QMainWindow*>(w)) return mw;
    return nullptr;
}

} // namespace

PanelExporter::PanelExporter(QWidget* panel, QString panelTitle)
    : QObject(panel), panel_(panel), panelTitle_(std::move(panelTitle)) {
    setObjectName(QStringLiteral("panelExporter"));
    panel->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(panel, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) {
        if (!panel_) return;
        QMenu menu(panel_);
        addActions(&menu);
        menu.exec(panel_->mapToGlobal(at));
    });
    connect(&watcher_, &QFutureWatcher<QString>::finished, this, [this] {
        const QString err = watcher_.result();
        const bool ok = err.isEmpty();
        if (ok) {
            if (QMainWindow* mw = mainWindowOf(panel_))
                mw->statusBar()->showMessage(QStringLiteral("Exported %1").arg(path_), 6000);
        }
        emit finished(ok, path_, err);
    });
}

void PanelExporter::addPicture(const QString& title, Source source) {
    pictures_.push_back({title, std::move(source)});
}

void PanelExporter::addActions(QMenu* menu) {
    for (int k = 0; k < pictureCount(); ++k) {
        QAction* a = menu->addAction(
            QStringLiteral("Export %1 Picture…").arg(pictures_[std::size_t(k)].title));
        a->setObjectName(QStringLiteral("exportPicture%1").arg(k));
        a->setEnabled(!running());
        connect(a, &QAction::triggered, this, [this, k] { exportDialog(k); });
    }
}

void PanelExporter::exportDialog(int k) {
    if (!panel_ || k < 0 || k >= pictureCount() || running()) return;
    const Picture& pic = pictures_[std::size_t(k)];
    const QString title = QStringLiteral("Export %1 picture").arg(pic.title.toLower());
    QString why;
    const std::optional<PanelPicture> built = pic.source(&why);
    if (!built) {
        QMessageBox::information(panel_->window(), title, why);
        return;
    }
    // The window's export folder (its exportStartDirectory property), else home.
    const QMainWindow* mw = mainWindowOf(panel_);
    QString dir = mw ? mw->property("exportStartDirectory").toString() : QString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir()) dir = QDir::homePath();
    const auto choice =
        askExportFile(panel_->window(),
                      dir + QLatin1Char('/') + built->suggestedBaseName() + QStringLiteral(".png"),
                      panelPictureSize(*built), title, false);
    if (!choice) return;
    // The dialog ran an event loop: what the panel shows may have changed, so the picture is
    // built again from what it shows now (and refused if that is no longer current).
    QString err;
    if (!exportTo(k, choice->path, choice->scale, &err)) {
        QMessageBox::warning(panel_->window(), title, err);
        return;
    }
    connect(
        this, &PanelExporter::finished, this,
        [this, title](bool ok, const QString&, const QString& error) {
            if (!ok && panel_)
                QMessageBox::warning(panel_->window(), title,
                                     QStringLiteral("Export failed: %1").arg(error));
        },
        Qt::SingleShotConnection);
}

bool PanelExporter::exportTo(int k, const QString& path, double scale, QString* error) {
    auto refuse = [&](const QString& m) {
        if (error) *error = m;
        return false;
    };
    if (k < 0 || k >= pictureCount()) return refuse(QStringLiteral("no such picture"));
    if (running()) return refuse(QStringLiteral("an export of this panel is still running"));
    QString why;
    std::optional<PanelPicture> pic = pictures_[std::size_t(k)].source(&why);
    if (!pic) return refuse(why);
    path_ = path;
    watcher_.setFuture(QtConcurrent::run([pic = std::move(*pic), path, scale] {
        QString err;
        if (writePanelPicture(pic, path, scale, &err)) return QString();
        return err.isEmpty() ? QStringLiteral("export failed") : err;
    }));
    return true;
}

} // namespace tsw
