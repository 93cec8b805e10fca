// SPDX-License-Identifier: Apache-2.0
// Crash recovery for real: start the `tilescope` binary offscreen with a private recovery
// directory, make an edit (TILESCOPE_TEST_EDIT), wait past the autosave interval, SIGKILL it,
// start it again answering the recovery prompt (TILESCOPE_RECOVERY_ANSWER=recover) and check
// that the second process holds the edit (its own autosave of the recovered document carries
// the edited text) while the project file on disk was never touched.
#include "test_process_helpers.h"
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <sys/types.h>

namespace {

const QString kEdit = QStringLiteral("T.Layout([4, 8], lambda i, j: (j, i))  # kill-test-edit");

// Recovery files (not their .meta.json) in dir.
QStringList recoveryFiles(const QString& dir) {
    return QDir(dir).entryList({QStringLiteral("*.tilescope.json")}, QDir::Files, QDir::Name);
}

} // namespace

class TestRecoveryKill : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QString recoveryDir_, project_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        e.insert(QStringLiteral("TILESCOPE_RECOVERY_DIR"), recoveryDir_);
        e.insert(QStringLiteral("TILESCOPE_NO_DIALOGS"), QStringLiteral("1"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp_.path() + QStringLiteral("/config"));
        e.insert(QStringLiteral("XDG_DATA_HOME"), tmp_.path() + QStringLiteral("/data"));
        e.remove(QStringLiteral("TILESCOPE_TEST_EDIT"));
        e.remove(QStringLiteral("TILESCOPE_RECOVERY_ANSWER"));
        return e;
    }

private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        recoveryDir_ = tmp_.path() + QStringLiteral("/recovery");
        project_ = tmp_.path() + QStringLiteral("/kill.tilescope.json");
        QVERIFY(QFile::copy(QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                            project_));
    }

    void killAndRecover() {
        const QByteArray before = readAll(project_);
        QVERIFY(!before.isEmpty());
        QVERIFY(!before.contains("kill-test-edit"));

        // 1. Start, edit, wait for the autosave (every 3 s), then SIGKILL.
        QProcess first;
        QProcessEnvironment e1 = env();
        e1.insert(QStringLiteral("TILESCOPE_TEST_EDIT"), kEdit);
        first.setProcessEnvironment(e1);
        first.setProcessChannelMode(QProcess::MergedChannels);
        first.start(QStringLiteral(TILESCOPE_GUI_BIN), {project_});
        QVERIFY2(first.waitForStarted(20000), qPrintable(first.errorString()));
        const QString pid1 = QString::number(first.processId());
        auto firstAutosave = [&]() -> QString {
            for (const QString& f : recoveryFiles(recoveryDir_))
                if (f.startsWith(QStringLiteral("session-") + pid1 + QLatin1Char('-')) &&
                    readAll(recoveryDir_ + QLatin1Char('/') + f).contains("kill-test-edit"))
                    return f;
            return {};
        };
        QVERIFY2(waitFor([&] { return !firstAutosave().isEmpty(); }, 60000),
                 qPrintable(QStringLiteral("no autosave with the edit; output:\n") +
                            QString::fromLocal8Bit(first.readAll())));
        const QString autosave1 = firstAutosave();
        QTest::qWait(500);
        ::kill(pid_t(first.processId()), SIGKILL);
        QVERIFY(first.waitForFinished(20000));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);
        // Saves are atomic and autosave never writes to the project itself.
        QCOMPARE(readAll(project_), before);
        QVERIFY(QFile::exists(recoveryDir_ + QLatin1Char('/') + autosave1));

        // 2. Restart: the killed session's file is pending and is recovered.
        QProcess second;
        QProcessEnvironment e2 = env();
        e2.insert(QStringLiteral("TILESCOPE_RECOVERY_ANSWER"), QStringLiteral("recover"));
        second.setProcessEnvironment(e2);
        second.setProcessChannelMode(QProcess::MergedChannels);
        second.start(QStringLiteral(TILESCOPE_GUI_BIN), {project_});
        QVERIFY2(second.waitForStarted(20000), qPrintable(second.errorString()));
        const QString pid2 = QString::number(second.processId());
        QByteArray out;
        auto recovered = [&] {
            out += second.readAll();
            if (!out.contains("tilescope: recovered")) return false;
            // recoverFrom() autosaves the recovered (dirty) document into the new session's file.
            for (const QString& f : recoveryFiles(recoveryDir_))
                if (f.startsWith(QStringLiteral("session-") + pid2 + QLatin1Char('-')) &&
                    readAll(recoveryDir_ + QLatin1Char('/') + f).contains("kill-test-edit"))
                    return true;
            return false;
        };
        const bool ok = waitFor(recovered, 60000);
        second.kill();
        second.waitForFinished(20000);
        QVERIFY2(ok, out.constData());
        QVERIFY(out.contains(autosave1.toUtf8()));
        // The killed session's file was consumed; the project on disk is still the original.
        QVERIFY(!QFile::exists(recoveryDir_ + QLatin1Char('/') + autosave1));
        QCOMPARE(readAll(project_), before);
    }
};

QTEST_GUILESS_MAIN(TestRecoveryKill)
#include "test_recovery_kill.moc"
