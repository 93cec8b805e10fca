// SPDX-License-Identifier: Apache-2.0
// ExportJob: writes a grid export (PNG, SVG, PDF, text) on a worker thread with a progress
// dialog and Cancel, so a large grid (seconds at 1024 x 1024) never freezes the window. The job
// paints its own copy of the renderer (models share their data, so the copy is cheap); a
// cancelled export leaves no file.
#pragma once

#include "grid/gridrenderer.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QProgressDialog>
#include <memory>

class QTimer;
class QWidget;

namespace tsw {

class ExportJob : public QObject {
    Q_OBJECT
public:
    // `dialogParent` gets the progress dialog (window-modal), shown when the export takes
    // longer than `showAfterMs`.
    ExportJob(GridRenderer renderer, QString path, double scale, QWidget* dialogParent,
              int showAfterMs = 100);
    ~ExportJob() override;

    void start();
    void cancel();
    bool running() const { return running_; }
    int permille() const { return progress_->permille.load(); }
    QString path() const { return path_; }
    QProgressDialog* dialog() const { return dialog_; }

signals:
    // ok: written; cancelled: stopped by the user (no file); error otherwise.
    void finished(bool ok, bool cancelled, const QString& error, double seconds);

private:
    void poll();

    GridRenderer renderer_;
    QString path_;
    double scale_;
    std::shared_ptr<ExportProgress> progress_;
    QFutureWatcher<QString> watcher_;
    QPointer<QWidget> parent_;
    QPointer<QProgressDialog> dialog_;
    QTimer* poll_;
    QElapsedTimer clock_;
    int showAfterMs_;
    bool running_ = false;
};

} // namespace tsw
