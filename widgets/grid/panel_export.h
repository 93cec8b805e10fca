// SPDX-License-Identifier: Apache-2.0
// PanelExporter: "Export Picture…" for a panel. A panel adds the pictures it can give (a heat map,
// a histogram, ...), each a function that builds a PanelPicture from what is on screen or says
// why it cannot (its numbers are being recomputed, there is nothing to show). The exporter puts
// them in the panel's context menu and the window lists them (File > Export Panel Picture, by
// finding every PanelExporter under it), so no feature needs the window and the window needs
// no feature.
//
// Like the grid export: the file is chosen in the export dialog (PNG, SVG, PDF, and a scale),
// the picture is written off the UI thread (writePanelPicture) and atomically, a failure is
// said in a message box, and a picture whose numbers are not current is refused.
#pragma once

#include "grid/panel_picture.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <functional>
#include <optional>
#include <vector>

class QMenu;
class QWidget;

namespace tsw {

class PanelExporter : public QObject {
    Q_OBJECT
public:
    // Builds the picture now (UI thread), or returns nullopt and sets *whyNot.
    using Source = std::function<std::optional<PanelPicture>(QString* whyNot)>;

    // Installs the context menu on `panel` (a right click anywhere in it that no child keeps).
    explicit PanelExporter(QWidget* panel, QString panelTitle);

    // `title`: the menu entry's name ("Heat Map").
    void addPicture(const QString& title, Source source);
    int pictureCount() const { return int(pictures_.size()); }
    QString pictureTitle(int k) const { return pictures_.at(std::size_t(k)).title; }
    QString panelTitle() const { return panelTitle_; }
    QWidget* panel() const { return panel_; }

    // Adds "Export <title> Picture…" entries to `menu`.
    void addActions(QMenu* menu);
    // Asks for a file (the export dialog), then exports. Refusals and errors in a message box.
    void exportDialog(int k);
    // Without a dialog: builds the picture and starts writing `path`; false and *error when
    // the picture is refused or an export is still running. finished() follows a true return.
    bool exportTo(int k, const QString& path, double scale = 1.0, QString* error = nullptr);
    bool running() const { return watcher_.isRunning(); }

signals:
    void finished(bool ok, const QString& path, const QString& error);

private:
    struct Picture {
        QString title;
        Source source;
    };
    QPointer<QWidget> panel_;
    QString panelTitle_;
    std::vector<Picture> pictures_;
    QFutureWatcher<QString> watcher_;
    QString path_;
};

} // namespace tsw
