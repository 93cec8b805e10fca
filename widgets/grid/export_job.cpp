// SPDX-License-Identifier: Apache-2.0
// ExportJob (see export_job.h).
#include "grid/export_job.h"

#include <QFileInfo>
#include <QProgressDialog>
#include <QTimer>
#include <QtConcurrent>

namespace tsw {

ExportJob::ExportJob(GridRenderer renderer, QString path, double scale, QWidget* dialogParent,
                     int showAfterMs)
    // Owned by the dialog's parent (the window) so that a job nobody replaces is freed with it.
    : QObject(dialogParent), renderer_(std::move(renderer)), path_(std::move(path)), scale_(scale),
      progress_(std::make_shared<ExportProgress>()), parent_(dialogParent), poll_(new QTimer(this)),
      showAfterMs_(showAfterMs) {
    poll_->setInterval(50);
    connect(poll_, &QTimer::timeout, this, &ExportJob::poll);
    connect(&watcher_, &QFutureWatcher<QString>::finished, this, [this] {
        poll_->stop();
        running_ = false;
        const QString err = watcher_.result();
        const bool cancelled = progress_->cancelled.load();
        if (dialog_) dialog_->deleteLater();
        emit finished(err.isEmpty() && !cancelled, cancelled, err, clock_.elapsed() / 1000.0);
    });
}

ExportJob::~ExportJob() {
    // A running export stops at its next row and writes nothing; the pool finishes it.
    progress_->cancelled = true;
    if (dialog_) delete dialog_;
}

void ExportJob::start() {
    running_ = true;
    clock_.start();
    poll_->start();
    // The worker owns a copy of the renderer and a share of the progress: the job may be
    // destroyed while it runs.
    GridRenderer r = renderer_;
    const QString path = path_;
    const double scale = scale_;
    std::shared_ptr<ExportProgress> progress = progress_;
    watcher_.setFuture(QtConcurrent::run([r, path, scale, progress] {
        QString err;
        if (r.exportFile(path, &err, scale, progress.get())) return QString();
        return err.isEmpty() ? QStringLiteral("export failed") : err;
    }));
}

void ExportJob::cancel() {
    progress_->cancelled = true;
    if (dialog_) dialog_->setLabelText(QStringLiteral("Cancelling…"));
}

void ExportJob::poll() {
    if (!running_) return;
    if (!dialog_ && clock_.elapsed() >= showAfterMs_) {
        dialog_ = new QProgressDialog(parent_);
        dialog_->setObjectName(QStringLiteral("exportProgress"));
        dialog_->setWindowTitle(QStringLiteral("Exporting"));
        dialog_->setWindowModality(Qt::WindowModal);
        dialog_->setRange(0, 1000);
        dialog_->setMinimumDuration(0);
        dialog_->setAutoClose(false);
        dialog_->setAutoReset(false);
        connect(dialog_, &QProgressDialog::canceled, this, &ExportJob::cancel);
        dialog_->show();
    }
    if (!dialog_ || progress_->cancelled) return;
    const QString file = QFileInfo(path_).fileName();
    dialog_->setLabelText(progress_->stage.load() == 0
                              ? QStringLiteral("Drawing %1…").arg(file)
                              : QStringLiteral("Encoding and writing %1…").arg(file));
    dialog_->setValue(progress_->permille.load());
}

} // namespace tsw
