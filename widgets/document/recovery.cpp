// SPDX-License-Identifier: Apache-2.0
#include "document/recovery.h"

#include "document/documentmodel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>
#include <QStandardPaths>
#include <QUuid>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/types.h>
#include <unistd.h>

namespace tsw {

namespace {

// Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses):
// [0] is the state, [19] the start time in clock ticks since boot.
QList<QByteArray> procStat(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray all = f.readAll();
    const qsizetype close = all.lastIndexOf(')');
    if (close < 0) return {};
    return all.mid(close + 2).trimmed().split(' ');
}

// The start time that, with the PID, names one process for as long as the machine is up
// ("" when /proc cannot say).
QString processStartTime(qint64 pid) {
    const QList<QByteArray> f = procStat(pid);
    return f.size() > 19 ? QString::fromLatin1(f[19]) : QString();
}

// The fallback for recovery files without a lock file: the PID must name a running process (not a
// zombie) that started when the recording session did.
bool processAlive(qint64 pid, const QString& startTime) {
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return false;
    const QList<QByteArray> f = procStat(pid);
    if (f.isEmpty()) return true; // no /proc: the PID is all there is
    if (f[0] == "Z" || f[0] == "X") return false;
    return startTime.isEmpty() || (f.size() > 19 && QString::fromLatin1(f[19]) == startTime);
}

enum class LockState { Held, Free, Missing };

// Whether another process holds the session lock at `path`. Taking it (and letting it go at
// once) is the test: flock() conflicts between open file descriptions even inside one process.
LockState sessionLock(const QString& path) {
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return LockState::Missing;
    const int r = ::flock(fd, LOCK_EX | LOCK_NB);
    const bool held = r != 0 && errno == EWOULDBLOCK;
    ::close(fd); // releases the lock if we took it
    return held ? LockState::Held : LockState::Free;
}

// Recovery files owned by live managers of this process.
QSet<QString>& liveFiles() {
    static QSet<QString> s;
    return s;
}

QString metaPath(const QString& file) {
    QString m = file;
    m.replace(QLatin1String(".tilescope.json"), QLatin1String(".meta.json"));
    return m;
}

QString lockPath(const QString& file) {
    QString m = file;
    m.replace(QLatin1String(".tilescope.json"), QLatin1String(".lock"));
    return m;
}

} // namespace

QString RecoveryManager::directory() {
    const QByteArray env = qgetenv("TILESCOPE_RECOVERY_DIR");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/recovery");
}

RecoveryManager::RecoveryManager(DocumentModel* doc, QObject* parent) : QObject(parent), doc_(doc) {
    file_ = directory() + QStringLiteral("/session-%1-%2.tilescope.json")
                              .arg(QCoreApplication::applicationPid())
                              .arg(QUuid::createUuid().toString(QUuid::Id128).left(8));
    timer_.setInterval(3000);
    connect(&timer_, &QTimer::timeout, this, [this] { autosaveNow(); });
    timer_.start();
    liveFiles().insert(file_);
    // The lock is taken now, before any autosave exists, so that a recovery file is never
    // visible without its owner's lock. It is taken on a file under a private name and then
    // renamed into place (a lock belongs to the file, not its name): created under its own name,
    // another instance's pending() could probe it between the open and the flock, take the lock
    // for that moment so that this session's flock failed (a live session without a lock, whose
    // autosaves would be offered as a crashed one's), or find it free without an autosave and
    // delete it.
    QDir().mkpath(directory());
    const QString lock = lockPath(file_);
    const QString hidden = lock + QStringLiteral(".new");
    lockFd_ =
        ::open(QFile::encodeName(hidden).constData(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (lockFd_ >= 0 && (::flock(lockFd_, LOCK_EX | LOCK_NB) != 0 ||
                         ::rename(QFile::encodeName(hidden).constData(),
                                  QFile::encodeName(lock).constData()) != 0)) {
        ::unlink(QFile::encodeName(hidden).constData());
        ::close(lockFd_);
        lockFd_ = -1;
    }
}

RecoveryManager::~RecoveryManager() {
    liveFiles().remove(file_);
    if (lockFd_ >= 0) {
        QFile::remove(lockPath(file_)); // while still held: no one can see it free and ours
        ::close(lockFd_);
    }
}

bool RecoveryManager::autosaveNow() {
    if (ended_ || !doc_->isDirty()) return false;
    const QByteArray json = doc_->toJson();
    if (json == lastWritten_ && QFile::exists(file_)) return false;
    QDir().mkpath(directory());
    // The meta first: a recovery file is only offered once it exists, and killed between the
    // two writes the session would leave an autosave that does not say which file it belongs to
    // (recovered as untitled). Killed the other way round, there is only a meta, not offered.
    QJsonObject meta{
        {QStringLiteral("original"), doc_->filePath()},
        {QStringLiteral("pid"), QCoreApplication::applicationPid()},
        {QStringLiteral("start_time"), processStartTime(QCoreApplication::applicationPid())},
        {QStringLiteral("saved"), QDateTime::currentDateTime().toString(Qt::ISODate)}};
    QSaveFile m(metaPath(file_));
    if (!m.open(QIODevice::WriteOnly)) return false;
    m.write(QJsonDocument(meta).toJson());
    if (!m.commit()) return false;
    QSaveFile f(file_);
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write(json);
    if (!f.commit()) return false;
    lastWritten_ = json;
    return true;
}

void RecoveryManager::clear() {
    QFile::remove(file_);
    QFile::remove(metaPath(file_));
    lastWritten_.clear();
}

void RecoveryManager::endSession() {
    timer_.stop();
    if (doc_->isDirty())
        autosaveNow();
    else
        clear();
    ended_ = true;
}

QList<RecoveryEntry> RecoveryManager::pending() {
    QList<RecoveryEntry> out;
    QDir d(directory());
    for (const QFileInfo& fi :
         d.entryInfoList({QStringLiteral("*.tilescope.json")}, QDir::Files, QDir::Time)) {
        RecoveryEntry e;
        e.file = fi.absoluteFilePath();
        e.saved = fi.lastModified();
        QFile m(metaPath(e.file));
        qint64 pid = 0;
        QString startTime;
        if (m.open(QIODevice::ReadOnly)) {
            const QJsonObject o = QJsonDocument::fromJson(m.readAll()).object();
            e.original = o.value(QStringLiteral("original")).toString();
            pid = o.value(QStringLiteral("pid")).toInteger();
            startTime = o.value(QStringLiteral("start_time")).toString();
        }
        if (liveFiles().contains(e.file)) continue; // this session's own file
        switch (sessionLock(lockPath(e.file))) {
        case LockState::Held:
            continue; // another running session owns it
        case LockState::Free:
            break; // its owner is gone, however it ended
        case LockState::Missing:
            if (pid != QCoreApplication::applicationPid() && processAlive(pid, startTime)) continue;
            break;
        }
        out << e;
    }
    // Locks of killed sessions that never autosaved: nothing to recover, so nothing to keep
    // (nor the meta of an autosave that a kill cut short: the meta is written first).
    for (const QFileInfo& fi : d.entryInfoList({QStringLiteral("*.lock")}, QDir::Files)) {
        QString project = fi.absoluteFilePath();
        project.replace(QLatin1String(".lock"), QLatin1String(".tilescope.json"));
        if (!QFile::exists(project) && sessionLock(fi.absoluteFilePath()) == LockState::Free) {
            QFile::remove(metaPath(project));
            QFile::remove(fi.absoluteFilePath());
        }
    }
    // A session killed between creating its lock under the private name and renaming it. Only
    // old ones are probed: probing one being created could make its owner's flock fail.
    const QDateTime old = QDateTime::currentDateTime().addSecs(-60);
    for (const QFileInfo& fi : d.entryInfoList({QStringLiteral("*.lock.new")}, QDir::Files))
        if (fi.lastModified() < old && sessionLock(fi.absoluteFilePath()) == LockState::Free)
            QFile::remove(fi.absoluteFilePath());
    return out;
}

void RecoveryManager::discard(const RecoveryEntry& e) {
    QFile::remove(e.file);
    QFile::remove(metaPath(e.file));
    QFile::remove(lockPath(e.file)); // a dead owner's lock, left behind by SIGKILL
}

} // namespace tsw
