// SPDX-License-Identifier: Apache-2.0
// Autosave and crash recovery. While the document is dirty, its JSON is written every few
// seconds to <recovery dir>/<session>.tilescope.json (+ .meta.json naming the original file).
// A clean save, or closing without keeping changes, removes it. On the next start, files left by
// sessions that are no longer running are offered for recovery.
// "No longer running" is decided by a lock that dies with its owner: each session holds an
// exclusive flock() on <session>.lock for its whole life, and the kernel drops it when the process
// exits in any way (SIGKILL included; a zombie has already closed its files). A PID alone is not
// enough: a zombie still answers kill(pid, 0), and a PID can be reused by an unrelated process.
// Files without a lock (written by an older Tilescope) fall back to the PID plus the process's
// start time recorded in the .meta.json.
// The directory is $TILESCOPE_RECOVERY_DIR, else <AppLocalDataLocation>/recovery.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

namespace tsw {

class DocumentModel;

struct RecoveryEntry {
    QString file;     // the autosaved project
    QString original; // the file it was edited from ("" = untitled)
    QDateTime saved;
};

class RecoveryManager : public QObject {
    Q_OBJECT
public:
    RecoveryManager(DocumentModel* doc, QObject* parent = nullptr);
    ~RecoveryManager() override;

    static QString directory();
    // Recovery files of sessions that are not running any more (newest first).
    static QList<RecoveryEntry> pending();
    static void discard(const RecoveryEntry& e);

    void setIntervalMs(int ms) { timer_.setInterval(ms); }
    QString recoveryFile() const { return file_; }
    // Whether this session holds its lock (false only when the directory is not writable).
    bool holdsLock() const { return lockFd_ >= 0; }
    bool autosaveNow(); // writes if dirty; returns whether a file was written
    void clear();       // removes this session's recovery file
    // A normal end without asking (SIGTERM: app/gui/termination.h). With nothing unsaved, this
    // session's recovery file goes and none is written after it, so that the next start offers
    // nothing; with unsaved edits, they are written once more and kept, so that the next start
    // offers them, as after a crash: a logout must not lose work. The lock goes with this
    // object, as on any quit.
    void endSession();

private:
    DocumentModel* doc_;
    QTimer timer_;
    QString file_;
    QByteArray lastWritten_;
    int lockFd_ = -1; // held (flock LOCK_EX) from construction to destruction
    bool ended_ = false;
};

} // namespace tsw
