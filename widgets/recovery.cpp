#include "recovery.h"

#include "documentmodel.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QSet>
#include <QStandardPaths>
#include <QUuid>
#include <csignal>
#include <sys/types.h>
#include <unistd.h>

namespace tsw {

namespace {

bool processAlive(qint64 pid) {
    if (pid <= 0) return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0;
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
}

RecoveryManager::~RecoveryManager() {
    liveFiles().remove(file_);
}

bool RecoveryManager::autosaveNow() {
    if (!doc_->isDirty()) return false;
    const QByteArray json = doc_->toJson();
    if (json == lastWritten_ && QFile::exists(file_)) return false;
    QDir().mkpath(directory());
    QSaveFile f(file_);
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write(json);
    if (!f.commit()) return false;
    QJsonObject meta{{QStringLiteral("original"), doc_->filePath()},
                     {QStringLiteral("pid"), QCoreApplication::applicationPid()},
                     {QStringLiteral("saved"), QDateTime::currentDateTime().toString(Qt::ISODate)}};
    QSaveFile m(metaPath(file_));
    if (m.open(QIODevice::WriteOnly)) {
        m.write(QJsonDocument(meta).toJson());
        m.commit();
    }
    lastWritten_ = json;
    return true;
}

void RecoveryManager::clear() {
    QFile::remove(file_);
    QFile::remove(metaPath(file_));
    lastWritten_.clear();
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
        if (m.open(QIODevice::ReadOnly)) {
            const QJsonObject o = QJsonDocument::fromJson(m.readAll()).object();
            e.original = o.value(QStringLiteral("original")).toString();
            pid = o.value(QStringLiteral("pid")).toInteger();
        }
        if (liveFiles().contains(e.file)) continue; // this session's own file
        if (pid != QCoreApplication::applicationPid() && processAlive(pid))
            continue; // another running session owns it
        out << e;
    }
    return out;
}

void RecoveryManager::discard(const RecoveryEntry& e) {
    QFile::remove(e.file);
    QFile::remove(metaPath(e.file));
}

} // namespace tsw
