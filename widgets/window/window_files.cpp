// SPDX-License-Identifier: Apache-2.0
// MainWindow's project files: new, open, save, recent files, the samples menu, recovery of
// autosaved work and files dropped on the window.
#include "window/mainwindow.h"

#include "common/install_paths.h"
#include "document/crash_dialog.h"
#include "document/documentmodel.h"
#include "document/recent_files.h"
#include "document/recovery.h"
#include "kernel/kernel_panel.h"
#include "run/measurement_import.h"

#include <QAction>
#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

namespace tsw {

namespace {
constexpr int kMaxRecent = 10;
const char* kRecentKey = "recentFiles";
} // namespace

QStringList MainWindow::recentFiles() const {
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::addRecent(const QString& path) {
    QSettings().setValue(QLatin1String(kRecentKey), addRecentPath(recentFiles(), path, kMaxRecent));
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    // Lists written before paths were made canonical may hold two spellings of one file.
    const QStringList r = dedupeRecentPaths(recentFiles());
    const QStringList labels = recentLabels(r);
    for (int k = 0; k < r.size(); ++k) {
        const QString p = r[k];
        auto* a = recentMenu_->addAction(labels[k]);
        a->setToolTip(p);
        a->setStatusTip(p);
        connect(a, &QAction::triggered, this, [this, p] {
            if (maybeSave()) openFile(p);
        });
    }
    if (!r.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(QStringLiteral("Clear List"), this, [this] {
            QSettings().remove(QLatin1String(kRecentKey));
            rebuildRecentMenu();
        });
    }
    recentMenu_->setEnabled(!r.isEmpty());
}

QString MainWindow::samplesDirectory() {
    // TILESCOPE_SAMPLES_DIR, then the checkout's samples while running from its build tree (so
    // edits show), then the installed ones (/usr/share/tilescope/samples, which the CLI reads
    // too), then the copies embedded in the binary.
    const QByteArray env = qgetenv("TILESCOPE_SAMPLES_DIR");
    QStringList candidates;
    if (!env.isEmpty()) candidates << QString::fromLocal8Bit(env);
    if (const QString src = sourceTreeDir(); !src.isEmpty())
        candidates << src + QStringLiteral("/samples");
    if (const QString installed = installedSamplesDir(); !installed.isEmpty())
        candidates << installed;
    for (const QString& c : candidates)
        if (QDir(c).exists() && !QDir(c).entryList({QStringLiteral("*.tilescope.json")}).isEmpty())
            return QDir(c).canonicalPath();
    return embeddedSamplesDir();
}

QString MainWindow::saveAsStart(const QString& docPath, const QString& samplesDir,
                                const QStringList& recent) {
    const QString name = docPath.isEmpty() ? QStringLiteral("untitled.tilescope.json")
                                           : QFileInfo(docPath).fileName();
    const bool sample =
        docPath.startsWith(QLatin1Char(':')) ||
        (!samplesDir.isEmpty() && docPath.startsWith(samplesDir + QLatin1Char('/')));
    if (!docPath.isEmpty() && !sample) return docPath;
    // A sample (or a new project) is saved as the user's own: where the last project was, else
    // the documents folder, never the resources or the bare working directory.
    for (const QString& r : recent) {
        if (r.startsWith(QLatin1Char(':')) ||
            (!samplesDir.isEmpty() && r.startsWith(samplesDir + QLatin1Char('/'))))
            continue;
        const QFileInfo dir(QFileInfo(r).absolutePath());
        if (dir.isDir() && dir.isWritable()) return QDir(dir.absoluteFilePath()).filePath(name);
    }
    QString docs = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (docs.isEmpty()) docs = QDir::homePath();
    return QDir(docs).filePath(name);
}

QString MainWindow::sampleTitle(const QString& path) {
    // The project's own "title"; else its file name made readable ("swizzles" -> "Swizzles").
    QFile f(path);
    if (f.open(QIODevice::ReadOnly) && f.size() < (1 << 20)) {
        const QString t = QJsonDocument::fromJson(f.readAll())
                              .object()
                              .value(QStringLiteral("title"))
                              .toString()
                              .trimmed();
        if (!t.isEmpty()) return t;
    }
    QString title = QFileInfo(path).fileName();
    if (title.endsWith(QLatin1String(".tilescope.json")))
        title.chop(int(QStringLiteral(".tilescope.json").size()));
    title.replace(QLatin1Char('_'), QLatin1Char(' '));
    title.replace(QLatin1Char('-'), QLatin1Char(' '));
    if (!title.isEmpty()) title[0] = title[0].toUpper();
    return title;
}

void MainWindow::rebuildSamplesMenu(QMenu* m) {
    m->clear();
    const QString dir = samplesDirectory();
    const QStringList files =
        dir.isEmpty()
            ? QStringList()
            : QDir(dir).entryList({QStringLiteral("*.tilescope.json")}, QDir::Files, QDir::Name);
    // Sorted by the titles the menu shows.
    QList<QPair<QString, QString>> entries;
    for (const QString& f : files)
        entries.append({sampleTitle(dir + QLatin1Char('/') + f), f});
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return QString::localeAwareCompare(a.first, b.first) < 0;
    });
    for (const auto& [title, f] : entries) {
        auto* a = m->addAction(title);
        const QString path = dir + QLatin1Char('/') + f;
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] {
            if (maybeSave()) openFile(path);
        });
    }
    m->setEnabled(!files.isEmpty());
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1[*] — Tilescope").arg(doc_->displayName()));
    setWindowModified(doc_->isDirty());
}

void MainWindow::showError(const QString& title, const QString& text) {
    lastError_ = text;
    statusBar()->showMessage(text, 8000);
    if (QGuiApplication::platformName() == QLatin1String("offscreen") &&
        qEnvironmentVariableIsSet("TILESCOPE_NO_DIALOGS"))
        return;
    auto* box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->open();
}

bool MainWindow::maybeSave() {
    if (!doc_->isDirty() || !confirmOnClose_) return true;
    // Own buttons: the standard ones carry no mnemonics on every platform (Alt+D must discard).
    QMessageBox box(QMessageBox::Warning, QStringLiteral("Unsaved changes"),
                    QStringLiteral("“%1” has unsaved changes. Save them?").arg(doc_->displayName()),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("unsavedChangesDialog"));
    QPushButton* saveB = box.addButton(QStringLiteral("&Save"), QMessageBox::AcceptRole);
    QPushButton* discardB = box.addButton(QStringLiteral("&Discard"), QMessageBox::DestructiveRole);
    QPushButton* cancelB = box.addButton(QStringLiteral("Cancel"), QMessageBox::RejectRole);
    box.setDefaultButton(saveB);
    box.setEscapeButton(cancelB);
    box.exec();
    if (box.clickedButton() == saveB) return save();
    if (box.clickedButton() == discardB) {
        recovery_->clear();
        return true;
    }
    return false;
}

void MainWindow::newDocument() {
    if (!maybeSave()) return;
    doc_->newDocument();
    recovery_->clear();
    kernelPanel_->clear(); // a new start: no kernel of the last session stays on screen
}

void MainWindow::open() {
    if (!maybeSave()) return;
    const QString start = doc_->filePath().isEmpty() ? dialogStartDir(samplesDirectory())
                                                     : QFileInfo(doc_->filePath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open project"), start,
        QStringLiteral("Tilescope projects (*.tilescope.json *.json);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

bool MainWindow::openFile(const QString& path) {
    QString err;
    if (!doc_->load(path, &err)) {
        showError(QStringLiteral("Cannot open project"),
                  QStringLiteral("Tilescope could not open this file; nothing was changed.\n\n%1")
                      .arg(err));
        return false;
    }
    recovery_->clear();
    addRecent(path);
    // A sample lives in the program's resources (":/tilescope/samples/…"): its title says which.
    const QString samples = samplesDirectory();
    statusBar()->showMessage(!samples.isEmpty() && path.startsWith(samples + QLatin1Char('/'))
                                 ? QStringLiteral("Opened the sample “%1”").arg(sampleTitle(path))
                                 : QStringLiteral("Opened %1").arg(QDir::toNativeSeparators(path)),
                             4000);
    return true;
}

bool MainWindow::openFileAskingToSave(const QString& path) {
    return maybeSave() && openFile(path);
}

bool MainWindow::saveFile(const QString& path) {
    QString err;
    if (!doc_->save(path, &err)) {
        showError(QStringLiteral("Cannot save project"), err);
        return false;
    }
    recovery_->clear();
    addRecent(path);
    statusBar()->showMessage(QStringLiteral("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::save() {
    if (doc_->filePath().isEmpty() ||
        doc_->filePath().startsWith(samplesDirectory() + QLatin1Char('/')))
        return saveAs();
    return saveFile(doc_->filePath());
}

bool MainWindow::saveAs() {
    QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Save project"),
        saveAsStart(doc_->filePath(), samplesDirectory(), recentFiles()),
        QStringLiteral("Tilescope projects (*.tilescope.json)"));
    if (path.isEmpty()) return false;
    if (!path.endsWith(QLatin1String(".json"))) path += QStringLiteral(".tilescope.json");
    return saveFile(path);
}

bool MainWindow::recoverFrom(const RecoveryEntry& e) {
    QFile f(e.file);
    if (!f.open(QIODevice::ReadOnly)) return false;
    try {
        const ts::Document d = ts::parseDocument(f.readAll().toStdString(), e.file.toStdString());
        doc_->replaceDocument(d, e.original, true);
        RecoveryManager::discard(e);
        recovery_->autosaveNow();
        statusBar()->showMessage(
            QStringLiteral("Recovered unsaved work from %1").arg(e.saved.toString()), 6000);
        return true;
    } catch (const std::exception& ex) {
        showError(QStringLiteral("Cannot recover"), QString::fromUtf8(ex.what()));
        return false;
    }
}

void MainWindow::offerRecovery() {
    offerCrashReports(this, RecoveryManager::directory()); // what a crash left, if any
    const QList<RecoveryEntry> entries = RecoveryManager::pending();
    if (entries.isEmpty()) return;
    const RecoveryEntry& e = entries.first();
    QMessageBox box(QMessageBox::Question, QStringLiteral("Recover unsaved work?"),
                    QStringLiteral("Tilescope did not shut down cleanly. Unsaved work of “%1” was "
                                   "autosaved at %2.\n\nRecover it?")
                        .arg(e.original.isEmpty() ? QStringLiteral("Untitled")
                                                  : QFileInfo(e.original).fileName(),
                             e.saved.toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))),
                    QMessageBox::NoButton, this);
    auto* rec = box.addButton(QStringLiteral("&Recover"), QMessageBox::AcceptRole);
    auto* dis = box.addButton(QStringLiteral("&Discard"), QMessageBox::DestructiveRole);
    box.addButton(QStringLiteral("&Later"), QMessageBox::RejectRole);
    box.exec();
    if (box.clickedButton() == static_cast<QAbstractButton*>(rec))
        recoverFrom(e);
    else if (box.clickedButton() == static_cast<QAbstractButton*>(dis))
        for (const auto& x : entries)
            RecoveryManager::discard(x);
}

// Nobody may be there to answer a prompt (the bridge's terminate(), a session ending), and one
// would keep the process alive until it is killed outright. The panel arrangement is kept, as on
// any quit; nothing is saved to the project that the user did not save. Unsaved edits stay in
// the autosave for the next start to offer; a document without any (a layout handed in by the
// bridge is not an edit: DocumentModel::receiveLayout) leaves nothing to recover.
void MainWindow::endSession() {
    saveSettings();
    recovery_->endSession();
}

// Drops are always copies: a move would make the source (the mapping editor, a file manager)
// delete what it handed over.
void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (!(e->mimeData()->hasUrls() || e->mimeData()->hasText()) ||
        !(e->possibleActions() & Qt::CopyAction))
        return;
    e->setDropAction(Qt::CopyAction);
    e->accept();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* e) {
    if (!(e->mimeData()->hasUrls() || e->mimeData()->hasText()) ||
        !(e->possibleActions() & Qt::CopyAction))
        return;
    e->setDropAction(Qt::CopyAction);
    e->accept();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const QMimeData* m = e->mimeData();
    if (m->hasUrls()) {
        for (const QUrl& u : m->urls())
            if (u.isLocalFile()) {
                e->setDropAction(Qt::CopyAction);
                e->accept();
                // Probe results (measured elsewhere) go into the Run history, not open as a
                // project.
                QStringList results;
                for (const QUrl& r : m->urls())
                    if (r.isLocalFile() && isProbeResultFile(r.toLocalFile()))
                        results << r.toLocalFile();
                if (!results.isEmpty()) {
                    importMeasurements(this, results);
                    return;
                }
                if (maybeSave()) openFile(u.toLocalFile());
                return;
            }
    }
    if (m->hasText()) {
        // Dropped code becomes the active layout's mapping (undoable).
        e->setDropAction(Qt::CopyAction);
        e->accept();
        doc_->setText(doc_->active(), m->text().trimmed());
    }
}

} // namespace tsw
