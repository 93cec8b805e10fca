// SPDX-License-Identifier: Apache-2.0
// SIGTERM is a normal end, not a crash (app/gui/termination.h). The real `tilescope` is started
// as the Python bridge's show() starts it (`--text`, a private socket); the layout it is handed
// is not the user's edit, so:
//   - SIGTERM with no edit: it exits normally, leaves nothing of its session in the recovery
//     directory (nor its socket), and the next start finds nothing to recover;
//   - SIGTERM after an edit (TILESCOPE_TEST_EDIT) and its autosave: it exits normally and the
//     edit is kept for the next start to recover: a logout must not lose work;
//   - SIGKILL, the control: the autosave stays and the next start recovers it, as after a crash;
//   - SIGTERM while the recovery prompt of a start is open (a modal dialog's event loop): it
//     still ends at once, and the crashed session's file is left for a later start.
#include "document/recovery.h"
#include "test_process_helpers.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <sys/types.h>

using namespace tsw;

namespace {

const QString kText = QStringLiteral("T.Layout([4, 8], lambda i, j: (j, i))  # term-test-text");
// The user's edit of it (TILESCOPE_TEST_EDIT).
const QString kEdit = QStringLiteral("TILESCOPE_TEST_EDIT=T.Layout([4, 8], lambda i, j: (j, 3 - "
                                     "i % 4))  # term-test-text, edited");

} // namespace

class TestRecoveryTerm : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QString recoveryDir_, socket_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        e.insert(QStringLiteral("TILESCOPE_RECOVERY_DIR"), recoveryDir_);
        e.insert(QStringLiteral("TILESCOPE_SOCKET"), socket_);
        e.insert(QStringLiteral("TILESCOPE_NO_DIALOGS"), QStringLiteral("1"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp_.path() + QStringLiteral("/config"));
        e.insert(QStringLiteral("XDG_DATA_HOME"), tmp_.path() + QStringLiteral("/data"));
        e.remove(QStringLiteral("TILESCOPE_TEST_EDIT"));
        e.remove(QStringLiteral("TILESCOPE_RECOVERY_ANSWER"));
        return e;
    }

    // Files of the session of process `pid` in the recovery directory (autosave, meta, lock).
    QStringList sessionFiles(qint64 pid) const {
        return QDir(recoveryDir_)
            .entryList({QStringLiteral("session-%1-*").arg(pid)}, QDir::Files | QDir::Hidden);
    }

    // Starts tilescope as show() does, with extra environment `extra`.
    void start(QProcess& p, const QStringList& extra = {}) {
        QProcessEnvironment e = env();
        for (const QString& kv : extra)
            e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(TILESCOPE_GUI_BIN),
                {QStringLiteral("--text"), kText, QStringLiteral("--layout-name"),
                 QStringLiteral("from python")});
        QVERIFY2(p.waitForStarted(20000), qPrintable(p.errorString()));
    }

    // Waits for the session's autosave of the edited layout; its file name.
    QString awaitAutosave(QProcess& p) {
        const QString prefix = QStringLiteral("session-%1-").arg(p.processId());
        QString found;
        const bool ok = waitFor(
            [&] {
                for (const QString& f :
                     QDir(recoveryDir_)
                         .entryList({QStringLiteral("*.tilescope.json")}, QDir::Files))
                    if (f.startsWith(prefix) &&
                        readAll(recoveryDir_ + QLatin1Char('/') + f).contains("term-test-text")) {
                        found = f;
                        return true;
                    }
                return false;
            },
            60000);
        if (!ok) qWarning("no autosave; output:\n%s", p.readAll().constData());
        return found;
    }

    // Starts tilescope answering the recovery prompt with "recover"; what it printed once it
    // said whether it recovered anything. It is then ended with SIGTERM, which must be clean.
    QByteArray nextStart() {
        QProcess p;
        start(p, {QStringLiteral("TILESCOPE_RECOVERY_ANSWER=recover")});
        QByteArray out;
        const bool said = waitFor(
            [&] {
                out += p.readAll();
                return out.contains("tilescope: nothing to recover") ||
                       out.contains("tilescope: recovered");
            },
            60000);
        ::kill(pid_t(p.processId()), SIGTERM);
        const bool ended = p.waitForFinished(20000);
        out += p.readAll();
        if (!said || !ended || p.exitStatus() != QProcess::NormalExit)
            qWarning("the next start did not say or did not end; output:\n%s", out.constData());
        return said && ended ? out : QByteArray();
    }

private slots:
    // Each case starts from an empty recovery directory.
    void cleanup() {
        QDir d(recoveryDir_);
        for (const QString& f : d.entryList(QDir::Files | QDir::Hidden))
            d.remove(f);
        QFile::remove(socket_);
    }

    void initTestCase() {
        QVERIFY(tmp_.isValid());
        recoveryDir_ = tmp_.path() + QStringLiteral("/recovery");
        socket_ = tmp_.path() + QStringLiteral("/s.socket");
        // RecoveryManager::pending() below looks where the started processes write.
        qputenv("TILESCOPE_RECOVERY_DIR", recoveryDir_.toLocal8Bit());
    }

    void sigtermWithoutEditsLeavesNothingToRecover() {
        QProcess app;
        start(app);
        QVERIFY(waitFor([&] { return QFile::exists(socket_); }, 20000));
        const qint64 pid = app.processId();
        QTest::qWait(4000); // past the autosave interval (3 s): the handed-in layout is no edit
        QCOMPARE(sessionFiles(pid).size(), qsizetype(1)); // the lock alone

        QCOMPARE(::kill(pid_t(pid), SIGTERM), 0);
        QVERIFY(app.waitForFinished(20000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        QVERIFY2(sessionFiles(pid).isEmpty(), qPrintable(sessionFiles(pid).join(u' ')));
        QVERIFY(!QFile::exists(socket_)); // the next show() finds no stale socket either
        QVERIFY(RecoveryManager::pending().isEmpty());

        const QByteArray out = nextStart();
        QVERIFY(out.contains("tilescope: nothing to recover"));
        QVERIFY(!out.contains("tilescope: recovered"));
        QVERIFY(QDir(recoveryDir_).entryList(QDir::Files | QDir::Hidden).isEmpty());
    }

    // The user's unsaved edit survives SIGTERM (a logout, `kill PID`) as it survives a crash.
    void sigtermKeepsUnsavedEditsForRecovery() {
        QProcess app;
        start(app, {kEdit});
        const QString autosave = awaitAutosave(app);
        QVERIFY(!autosave.isEmpty());
        QVERIFY(waitFor([&] { return QFile::exists(socket_); }, 20000));
        QCOMPARE(::kill(pid_t(app.processId()), SIGTERM), 0);
        QVERIFY(app.waitForFinished(20000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        QVERIFY(!QFile::exists(socket_));
        const QList<RecoveryEntry> pending = RecoveryManager::pending();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(QFileInfo(pending.first().file).fileName(), autosave);
        QVERIFY(readAll(pending.first().file).contains("edited"));
        const QByteArray out = nextStart();
        QVERIFY2(out.contains("tilescope: recovered " + pending.first().file.toUtf8()),
                 out.constData());
    }

    // The control: the same session ended by SIGKILL is recovered by the next start.
    void sigkillStillOffersRecovery() {
        QProcess app;
        start(app, {kEdit});
        const QString autosave = awaitAutosave(app);
        QVERIFY(!autosave.isEmpty());
        QCOMPARE(::kill(pid_t(app.processId()), SIGKILL), 0);
        QVERIFY(app.waitForFinished(20000));
        QCOMPARE(app.exitStatus(), QProcess::CrashExit);
        const QList<RecoveryEntry> pending = RecoveryManager::pending();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(QFileInfo(pending.first().file).fileName(), autosave);

        const QByteArray out = nextStart();
        QVERIFY2(out.contains("tilescope: recovered " + pending.first().file.toUtf8()),
                 out.constData());
        // The recovering session holds the recovered work unsaved, so its SIGTERM keeps it in
        // its own autosave, not in the crashed session's file.
        const QList<RecoveryEntry> after = RecoveryManager::pending();
        QCOMPARE(after.size(), 1);
        QVERIFY(after.first().file != pending.first().file);
    }

    // A start that finds a crashed session's autosave opens the recovery prompt (a modal
    // dialog, whose event loop then runs). SIGTERM ends it there; the prompt is left
    // unanswered, so the crashed session's file is still offered later.
    void sigtermEndsTheRecoveryPrompt() {
        QProcess crashed;
        start(crashed, {kEdit});
        const QString autosave = awaitAutosave(crashed);
        QVERIFY(!autosave.isEmpty());
        ::kill(pid_t(crashed.processId()), SIGKILL);
        QVERIFY(crashed.waitForFinished(20000));
        QFile::remove(socket_); // the killed session's: the next one is awaited below

        QProcess prompted;
        start(prompted); // no TILESCOPE_RECOVERY_ANSWER: the prompt is shown
        QVERIFY(waitFor([&] { return QFile::exists(socket_); }, 20000));
        QTest::qWait(1000); // the prompt opens on the first pass of the event loop
        QCOMPARE(::kill(pid_t(prompted.processId()), SIGTERM), 0);
        QVERIFY2(prompted.waitForFinished(20000), "SIGTERM did not end the recovery prompt");
        QCOMPARE(prompted.exitStatus(), QProcess::NormalExit);
        QCOMPARE(prompted.exitCode(), 0);
        QVERIFY(sessionFiles(prompted.processId()).isEmpty());
        const QList<RecoveryEntry> pending = RecoveryManager::pending();
        QCOMPARE(pending.size(), 1);
        QCOMPARE(QFileInfo(pending.first().file).fileName(), autosave);
    }
};

QTEST_GUILESS_MAIN(TestRecoveryTerm)
#include "test_recovery_term.moc"
