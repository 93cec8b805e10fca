// SPDX-License-Identifier: Apache-2.0
// Crash recovery decides "is the session that wrote this file still running?" with a lock that
// dies with its owner, not with kill(pid, 0): here the owner is a real `tilescope` process that
// autosaved an edit and was then killed without being reaped (a zombie, which kill(pid, 0) still
// reports alive), and a recovery file whose recorded PID now belongs to an unrelated live process
// (PID reuse). Both must be offered for recovery; a file whose owner is running must not. And a
// session that starts while another instance probes the directory still holds its lock.
#include "document/documentmodel.h"
#include "document/recovery.h"
#include "test_process_helpers.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <csignal>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <sys/file.h>
#include <sys/types.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tsw;

namespace {

// Another instance's pending() on `dir`, over and over: every *.lock is taken for a moment, and
// one found free with no autosave beside it is deleted. Counts the probes.
void probeLocks(const QByteArray& dir, const std::atomic<bool>& stop, std::atomic<long>& probes) {
    while (!stop) {
        DIR* d = ::opendir(dir.constData());
        if (!d) continue;
        while (dirent* e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name.size() < 5 || name.compare(name.size() - 5, 5, ".lock") != 0) continue;
            const std::string path = dir.toStdString() + '/' + name;
            const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue;
            if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
                const std::string project = path.substr(0, path.size() - 5) + ".tilescope.json";
                if (::access(project.c_str(), F_OK) != 0) ::unlink(path.c_str());
            }
            ::close(fd);
            ++probes;
        }
        ::closedir(d);
    }
}

// The state letter of /proc/<pid>/stat ('Z' for a zombie), or 0.
char procState(qint64 pid) {
    const QByteArray s = readAll(QStringLiteral("/proc/%1/stat").arg(pid));
    const qsizetype close = s.lastIndexOf(')');
    return close >= 0 && close + 2 < s.size() ? s[close + 2] : 0;
}

bool pendingHas(const QString& file) {
    for (const RecoveryEntry& e : RecoveryManager::pending())
        if (QFileInfo(e.file).fileName() == file) return true;
    return false;
}

} // namespace

class TestRecoveryLock : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QString recoveryDir_, project_;
    QProcess shell_; // `sh` that starts tilescope in the background, then becomes `sleep`
    qint64 appPid_ = 0;
    QString autosave_;

private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        recoveryDir_ = tmp_.path() + QStringLiteral("/recovery");
        project_ = tmp_.path() + QStringLiteral("/lock.tilescope.json");
        QVERIFY(QFile::copy(QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                            project_));
        qputenv("TILESCOPE_RECOVERY_DIR", recoveryDir_.toLocal8Bit());

        // tilescope's parent is the shell, which then execs `sleep` and never waits: once
        // tilescope is killed it stays a zombie until the sleep ends.
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        e.insert(QStringLiteral("TILESCOPE_NO_DIALOGS"), QStringLiteral("1"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp_.path() + QStringLiteral("/config"));
        e.insert(QStringLiteral("XDG_DATA_HOME"), tmp_.path() + QStringLiteral("/data"));
        e.insert(QStringLiteral("TILESCOPE_TEST_EDIT"),
                 QStringLiteral("T.Layout([4, 8], lambda i, j: (j, i))  # lock-test-edit"));
        shell_.setProcessEnvironment(e);
        shell_.start(QStringLiteral("/bin/sh"),
                     {QStringLiteral("-c"),
                      QStringLiteral("\"$0\" \"$1\" >/dev/null 2>&1 & echo $!; exec sleep 600"),
                      QStringLiteral(TILESCOPE_GUI_BIN), project_});
        QVERIFY(shell_.waitForStarted(20000));
        QVERIFY(waitFor([&] { return shell_.canReadLine(); }, 20000));
        appPid_ = shell_.readLine().trimmed().toLongLong();
        QVERIFY(appPid_ > 0);
        const QString prefix = QStringLiteral("session-%1-").arg(appPid_);
        auto autosave = [&]() -> QString {
            for (const QString& f :
                 QDir(recoveryDir_).entryList({QStringLiteral("*.tilescope.json")}, QDir::Files))
                if (f.startsWith(prefix) &&
                    readAll(recoveryDir_ + QLatin1Char('/') + f).contains("lock-test-edit"))
                    return f;
            return {};
        };
        QVERIFY2(waitFor([&] { return !autosave().isEmpty(); }, 60000), "no autosave");
        autosave_ = autosave();
    }

    void cleanupTestCase() {
        if (appPid_ > 0) ::kill(pid_t(appPid_), SIGKILL);
        shell_.kill();
        shell_.waitForFinished(20000);
    }

    // Order matters: the owner runs in the first test, is a zombie in the second.
    void runningOwnerKeepsItsFile() {
        QCOMPARE(::kill(pid_t(appPid_), 0), 0);
        QVERIFY(!pendingHas(autosave_));
    }

    void zombieOwnerReleasesItsFile() {
        QCOMPARE(::kill(pid_t(appPid_), SIGKILL), 0);
        QVERIFY(waitFor([&] { return procState(appPid_) == 'Z'; }, 20000));
        QCOMPARE(::kill(pid_t(appPid_), 0), 0); // what the PID alone would have believed
        // A child the app had forked but not yet exec'd shares the lock's open file for a
        // moment; once it is gone the lock is free.
        QVERIFY2(waitFor([&] { return pendingHas(autosave_); }, 10000),
                 "a zombie's recovery file was not offered");
    }

    void reusedPidDoesNotHideAFile() {
        // A file written by a session without a lock (an older Tilescope, or a lost lock file)
        // whose PID now names a live process that started at another time: the shell's sleep.
        const QString name =
            QStringLiteral("session-%1-reused00.tilescope.json").arg(shell_.processId());
        QVERIFY(QFile::copy(recoveryDir_ + QLatin1Char('/') + autosave_,
                            recoveryDir_ + QLatin1Char('/') + name));
        QFile meta(
            recoveryDir_ + QLatin1Char('/') +
            QString(name).replace(QLatin1String(".tilescope.json"), QLatin1String(".meta.json")));
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write(QJsonDocument(QJsonObject{{QStringLiteral("original"), project_},
                                             {QStringLiteral("pid"), shell_.processId()},
                                             {QStringLiteral("start_time"), QStringLiteral("1")}})
                       .toJson());
        meta.close();
        QCOMPARE(::kill(pid_t(shell_.processId()), 0), 0);
        QVERIFY2(pendingHas(name), "a reused PID hid a recovery file");

        // The same file with the live process's real start time is that process's: kept.
        const QByteArray stat = readAll(QStringLiteral("/proc/%1/stat").arg(shell_.processId()));
        const QList<QByteArray> f = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        QVERIFY(f.size() > 19);
        QVERIFY(meta.open(QIODevice::WriteOnly | QIODevice::Truncate));
        meta.write(
            QJsonDocument(QJsonObject{{QStringLiteral("original"), project_},
                                      {QStringLiteral("pid"), shell_.processId()},
                                      {QStringLiteral("start_time"), QString::fromLatin1(f[19])}})
                .toJson());
        meta.close();
        QVERIFY(!pendingHas(name));
    }

    void startingSessionAlwaysHoldsItsLock() {
        const QString dir = tmp_.path() + QStringLiteral("/race");
        QVERIFY(QDir().mkpath(dir));
        qputenv("TILESCOPE_RECOVERY_DIR", dir.toLocal8Bit());
        std::atomic<bool> stop{false};
        std::atomic<long> probes{0};
        std::thread prober(probeLocks, QFile::encodeName(dir), std::cref(stop), std::ref(probes));
        std::vector<std::unique_ptr<DocumentModel>> docs;
        std::vector<std::unique_ptr<RecoveryManager>> sessions;
        for (int i = 0; i < 1500; ++i) {
            docs.push_back(std::make_unique<DocumentModel>());
            sessions.push_back(std::make_unique<RecoveryManager>(docs.back().get()));
        }
        stop = true;
        prober.join();
        qputenv("TILESCOPE_RECOVERY_DIR", recoveryDir_.toLocal8Bit());
        // Every session holds the lock under its own name: a probe now finds it taken.
        int lost = 0;
        for (const auto& s : sessions) {
            QString lock = s->recoveryFile();
            lock.replace(QLatin1String(".tilescope.json"), QLatin1String(".lock"));
            const int fd = ::open(QFile::encodeName(lock).constData(), O_RDONLY | O_CLOEXEC);
            const bool held = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) != 0;
            if (fd >= 0) ::close(fd);
            if (!s->holdsLock() || !held) ++lost;
        }
        qInfo("%ld probes while 1500 sessions started; %d without their lock", probes.load(), lost);
        QVERIFY(probes > 1500);
        QCOMPARE(lost, 0);
        sessions.clear();
        QVERIFY(QDir(dir).entryList({QStringLiteral("*.lock*")}, QDir::Files).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRecoveryLock)
#include "test_recovery_lock.moc"
