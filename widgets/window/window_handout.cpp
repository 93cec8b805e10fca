// SPDX-License-Identifier: Apache-2.0
// MainWindow's File > Export Lesson Handout…: the lesson handout (banks/lesson_handout.h)
// written on a worker thread, so a long lesson never freezes the window; past 100 ms a progress
// dialog with Cancel shows how many pages are done. The pages are computed from a copy of the
// document taken when asked, not from the panels.
#include "window/mainwindow.h"

#include "banks/lesson_handout.h"
#include "document/documentmodel.h"

#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QPointer>
#include <QProgressDialog>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QtConcurrent>

namespace tsw {

bool MainWindow::handoutRunning() const {
    return handoutJob_ != nullptr;
}

void MainWindow::exportHandoutDialog() {
    if (handoutRunning()) return;
    QString base = doc_->filePath().isEmpty() ? QStringLiteral("lesson")
                                              : QFileInfo(doc_->filePath()).fileName();
    base.remove(QStringLiteral(".tilescope.json")).remove(QStringLiteral(".json"));
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Export Lesson Handout"),
                                                      exportStartDirectory() + QLatin1Char('/') +
                                                          base + QStringLiteral("-handout.pdf"),
                                                      QStringLiteral("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    QSettings().setValue(QStringLiteral("export/lastDir"), QFileInfo(path).absolutePath());
    startHandoutExport(QFileInfo(path).suffix().isEmpty() ? path + QStringLiteral(".pdf") : path);
}

bool MainWindow::startHandoutExport(const QString& path) {
    if (handoutRunning()) return false;
    const ts::Document doc = doc_->document(); // the lesson as it is now
    auto progress = std::make_shared<ExportProgress>();
    auto* watcher = new QFutureWatcher<HandoutOutcome>(this);
    handoutJob_ = watcher;
    auto* poll = new QTimer(watcher);
    poll->setInterval(50);
    auto clock = std::make_shared<QElapsedTimer>();
    clock->start();
    auto dialog = std::make_shared<QPointer<QProgressDialog>>();
    const int pages = int(doc.layouts.size());
    connect(poll, &QTimer::timeout, this, [this, progress, clock, dialog, pages] {
        if (!*dialog && clock->elapsed() >= 100) {
            auto* d = new QProgressDialog(QStringLiteral("Writing the lesson handout…"),
                                          QStringLiteral("Cancel"), 0, 1000, this);
            d->setObjectName(QStringLiteral("handoutProgress"));
            d->setWindowTitle(QStringLiteral("Exporting"));
            d->setWindowModality(Qt::WindowModal);
            d->setAutoClose(false);
            d->setAutoReset(false);
            d->setMinimumDuration(0);
            connect(d, &QProgressDialog::canceled, this,
                    [progress] { progress->cancelled.store(true); });
            d->show();
            *dialog = d;
        }
        if (*dialog) {
            const int pm = progress->permille.load();
            (*dialog)->setValue(pm);
            (*dialog)->setLabelText(QStringLiteral("Writing the lesson handout: page %1 of %2…")
                                        .arg(std::min(pages, pm * pages / 1000 + 1))
                                        .arg(pages));
        }
    });
    connect(watcher, &QFutureWatcher<HandoutOutcome>::finished, this,
            [this, watcher, dialog, path, clock] {
                const HandoutOutcome r = watcher->result();
                if (*dialog) (*dialog)->deleteLater();
                handoutJob_ = nullptr;
                watcher->deleteLater();
                if (r.ok)
                    statusBar()->showMessage(QStringLiteral("Exported the lesson handout %1 (%2 "
                                                            "pages, %3 s)")
                                                 .arg(path)
                                                 .arg(r.pages)
                                                 .arg(clock->elapsed() / 1000.0, 0, 'f', 1),
                                             8000);
                else if (r.cancelled)
                    statusBar()->showMessage(
                        QStringLiteral("Handout cancelled: %1 was not written").arg(path), 6000);
                else
                    showError(
                        QStringLiteral("Handout not exported"),
                        QStringLiteral("The lesson handout was not written: %1").arg(r.error));
                emit handoutFinished(r.ok, r.cancelled, r.error, r.pages);
            });
    watcher->setFuture(QtConcurrent::run(
        [doc, path, progress] { return writeLessonHandout(doc, path, progress.get()); }));
    poll->start();
    statusBar()->showMessage(QStringLiteral("Exporting the lesson handout %1…").arg(path));
    return true;
}

} // namespace tsw
