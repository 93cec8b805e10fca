// SPDX-License-Identifier: Apache-2.0
// Run on device and the safety of the child processes it starts, offscreen:
//  - the real tilescope-probe on this CPU-only machine: "no CUDA driver" shown cleanly;
//  - layout checks in core before any child starts (not a bijection, tile too large, fragment);
//  - a fake ssh on PATH exiting 255: "lost connection";
//  - cancel and timeout on a hanging stub kill its whole process group;
//  - children run in a private 0700 temporary directory that is removed afterwards;
//  - opening a project never executes anything; the history persists.
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "run/run_controller.h"
#include "run/run_history.h"
#include "run/run_panel.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/stat.h>

using namespace tsw;

namespace {

const QString kRowMajor = QStringLiteral("T.Layout([32, 64], lambda i, j: (i, j))");

RunSpec spec(const QString& text = kRowMajor,
             const QString& access = QStringLiteral("ldmatrix:x4")) {
    RunSpec s;
    s.layoutName = QStringLiteral("test layout");
    s.mappingText = text;
    s.dtype = QStringLiteral("float16");
    s.access = access;
    s.ncu = false;
    return s;
}

QString writeScript(const QString& dir, const QString& name, const QByteArray& body) {
    const QString p = dir + '/' + name;
    QFile f(p);
    f.open(QIODevice::WriteOnly);
    f.write(body);
    f.close();
    QFile::setPermissions(p,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return p;
}

bool processGone(qint64 pid, int ms) {
    for (int waited = 0; waited < ms; waited += 50) {
        if (::kill(pid_t(pid), 0) != 0) return true;
        // A reaped child of init disappears; a zombie of ours would not (we never fork it).
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (stat.open(QIODevice::ReadOnly) && stat.readAll().contains(") Z ")) return true;
        QTest::qWait(50);
    }
    return false;
}

} // namespace

class TestRunController : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        guiTestSetUp();
        QVERIFY(dir_.isValid());
    }

    void probeReportsNoDriver() {
        RunController c;
        c.settings().probePath = QStringLiteral(TILESCOPE_PROBE);
        QSignalSpy failed(&c, &RunController::failed);
        QSignalSpy finished(&c, &RunController::finished);
        QVERIFY(c.start(RunTarget::LocalGpu, spec()));
        QVERIFY(c.isRunning());
        QCOMPARE(c.arguments(), QStringList{}); // the request goes over stdin
        QVERIFY(failed.wait(120000));
        const QString msg = failed.first().at(0).toString();
        QVERIFY2(msg.contains(QStringLiteral("No CUDA driver or GPU")), qPrintable(msg));
        QVERIFY2(msg.contains(QStringLiteral("libcuda")), qPrintable(msg)); // the probe's own words
        QCOMPARE(finished.count(), 1);
        const RunRecord r = finished.first().at(0).value<RunRecord>();
        QVERIFY(!r.ok);
        QCOMPARE(r.predictedWf, 32.0); // ldmatrix.x4 on a 128-byte pitch: 8-way per phase
        QVERIFY(!c.isRunning());
        QVERIFY(!QFileInfo::exists(c.workingDirectory())); // private dir removed
    }

    void badLayoutsAreRefusedBeforeAnythingStarts() {
        RunController c;
        c.settings().probePath = QStringLiteral("/nonexistent/never-run");
        QSignalSpy failed(&c, &RunController::failed);
        // A refusal is said, never recorded as a run (the history holds runs that happened).
        QSignalSpy recorded(&c, &RunController::finished);
        struct Case {
            QString text, access, expect;
        } cases[] = {
            {QStringLiteral("T.Layout([8, 8], lambda i, j: (i // 2, j))"),
             QStringLiteral("lanes:lambda t: (t % 8, 0)"),
             QStringLiteral("not a bijection onto shared memory")},
            {QStringLiteral("T.Layout([512, 512], lambda i, j: (i, j))"),
             QStringLiteral("ldmatrix:x4"), QStringLiteral("bytes of shared memory")},
            {QStringLiteral("make_gemm_c_fragment((32, 32), 128)"), QStringLiteral("ldmatrix:x4"),
             QStringLiteral("is a T.Fragment")},
            {QStringLiteral("T.Layout([32, 64], lambda i, j: (i, j"), QStringLiteral("ldmatrix:x4"),
             QString()},
            {kRowMajor, QStringLiteral("lanes:lambda t: (t + 100, 0)"), QStringLiteral("outside")},
        };
        for (const auto& k : cases) {
            failed.clear();
            QVERIFY(!c.start(RunTarget::LocalGpu, spec(k.text, k.access)));
            QCOMPARE(failed.count(), 1);
            const QString msg = failed.first().at(0).toString();
            QVERIFY2(msg.startsWith(QStringLiteral("Cannot run")), qPrintable(msg));
            if (!k.expect.isEmpty()) QVERIFY2(msg.contains(k.expect), qPrintable(msg));
            QVERIFY(c.program().isEmpty()); // nothing was started
            QVERIFY(!c.isRunning());
            QCOMPARE(recorded.count(), 0);
        }
    }

    void lostSshConnection() {
        QTemporaryDir bin;
        writeScript(bin.path(), QStringLiteral("ssh"),
                    "#!/bin/sh\ncat >/dev/null\necho 'client_loop: send disconnect: Broken "
                    "pipe' >&2\nexit 255\n");
        const QByteArray oldPath = qgetenv("PATH");
        qputenv("PATH", bin.path().toLocal8Bit() + ':' + oldPath);
        RunController c;
        c.settings().sshHost = QStringLiteral("gpu-box");
        c.settings().sshUser = QStringLiteral("me");
        c.settings().sshConnectTimeout = 7;
        c.settings().sshRemoteProbe = QStringLiteral("/opt/tilescope/bin/tilescope-probe");
        QSignalSpy failed(&c, &RunController::failed);
        QVERIFY(c.start(RunTarget::Ssh, spec()));
        QVERIFY(failed.wait(20000));
        qputenv("PATH", oldPath);
        const QString msg = failed.first().at(0).toString();
        QVERIFY2(msg.startsWith(QStringLiteral("Lost connection")), qPrintable(msg));
        QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("Broken pipe")));
        const QStringList a = c.arguments();
        QVERIFY(a.contains(QStringLiteral("BatchMode=yes")));
        QVERIFY(a.contains(QStringLiteral("ConnectTimeout=7")));
        QCOMPARE(a.at(a.size() - 3), QStringLiteral("me@gpu-box"));
        QCOMPARE(a.at(a.size() - 2), QStringLiteral("--"));
        QCOMPARE(a.last(), QStringLiteral("/opt/tilescope/bin/tilescope-probe"));
    }

    // ssh exits 255 for every failure of its own: a host that does not resolve made no
    // connection, and says so (the newcomer's "Lost connection" for a typo in the host).
    void sshFailuresSayWhatSshSaid() {
        const struct {
            const char* said;
            const char* expect;
        } cases[] = {
            {"ssh: Could not resolve hostname gpu-box: Name or service not known",
             "Could not resolve host 'gpu-box': ssh found no address"},
            {"ssh: connect to host gpu-box port 22: Connection refused",
             "The remote machine 'gpu-box' refused the connection"},
            {"me@gpu-box: Permission denied (publickey).", "could not log in"},
        };
        for (const auto& k : cases) {
            QTemporaryDir bin;
            writeScript(bin.path(), QStringLiteral("ssh"),
                        QByteArray("#!/bin/sh\ncat >/dev/null\necho '") + k.said +
                            "' >&2\nexit 255\n");
            const QByteArray oldPath = qgetenv("PATH");
            qputenv("PATH", bin.path().toLocal8Bit() + ':' + oldPath);
            RunController c;
            c.settings().sshHost = QStringLiteral("gpu-box");
            c.settings().sshUser = QStringLiteral("me");
            c.settings().sshRemoteProbe = QStringLiteral("/opt/tilescope/bin/tilescope-probe");
            QSignalSpy failed(&c, &RunController::failed);
            QVERIFY(c.start(RunTarget::Ssh, spec()));
            QVERIFY(failed.wait(20000));
            qputenv("PATH", oldPath);
            const QString msg = failed.first().at(0).toString();
            QVERIFY2(msg.contains(QLatin1String(k.expect)), qPrintable(msg));
            QVERIFY2(!msg.contains(QStringLiteral("Lost connection")), qPrintable(msg));
            // ssh's own line stays in the log.
            QVERIFY(failed.first().at(1).toString().contains(QLatin1String(k.said)));
        }
    }

    void sshSettingsCannotInjectOptionsOrShell() {
        RunSettings s;
        s.sshHost = QStringLiteral("-oProxyCommand=touch /tmp/x");
        QVERIFY(!RunController::sshSettingsProblem(s).isEmpty());
        s.sshHost = QStringLiteral("gpu-box");
        s.sshRemoteProbe = QStringLiteral("tilescope-probe; rm -rf ~");
        QVERIFY(!RunController::sshSettingsProblem(s).isEmpty());
        s.sshRemoteProbe = QStringLiteral("$(reboot)");
        QVERIFY(!RunController::sshSettingsProblem(s).isEmpty());
        s.sshRemoteProbe = QStringLiteral("~/bin/tilescope-probe");
        QVERIFY(RunController::sshSettingsProblem(s).isEmpty());
        RunController c;
        c.settings() = s;
        c.settings().sshUser = QStringLiteral("a b");
        QSignalSpy failed(&c, &RunController::failed);
        QVERIFY(!c.start(RunTarget::Ssh, spec()));
        QVERIFY(c.program().isEmpty());
    }

    void cancelKillsHangingProbeAndItsChildren() {
        const QString pidFile = dir_.path() + QStringLiteral("/sleep.pid");
        const QString stub =
            writeScript(dir_.path(), QStringLiteral("hang-probe"),
                        QByteArray("#!/bin/sh\ncat >/dev/null\nsleep 300 &\necho $! > '") +
                            pidFile.toLocal8Bit() + "'\nwait\n");
        RunController c;
        c.settings().probePath = stub;
        QSignalSpy failed(&c, &RunController::failed);
        QVERIFY(c.start(RunTarget::LocalGpu, spec()));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pidFile) && QFileInfo(pidFile).size() > 0, 10000);
        QFile pf(pidFile);
        QVERIFY(pf.open(QIODevice::ReadOnly));
        const qint64 sleepPid = pf.readAll().trimmed().toLongLong();
        QVERIFY(sleepPid > 0);
        QVERIFY(c.isRunning());
        QElapsedTimer t;
        t.start();
        c.cancel();
        QVERIFY(failed.wait(5000));
        QVERIFY(t.elapsed() < 5000);
        QCOMPARE(failed.first().at(0).toString(), QStringLiteral("Cancelled."));
        QVERIFY(!c.isRunning());
        QVERIFY2(processGone(sleepPid, 3000), "the hung probe's child survived cancel");
        QFile::remove(pidFile);
    }

    void timeoutKillsHungRun() {
        const QString stub =
            writeScript(dir_.path(), QStringLiteral("hang2"), "#!/bin/sh\nexec sleep 300\n");
        RunController c;
        c.settings().probePath = stub;
        c.settings().timeoutS = 1;
        QSignalSpy failed(&c, &RunController::failed);
        QVERIFY(c.start(RunTarget::LocalGpu, spec()));
        QVERIFY(failed.wait(10000));
        QVERIFY2(failed.first().at(0).toString().contains(QStringLiteral("did not finish within")),
                 qPrintable(failed.first().at(0).toString()));
    }

    void probeExitCodesGiveClearMessages() {
        // A stub probe that answers like tilescope-probe with each documented exit code.
        for (int code : {3, 4, 5, 6}) {
            const QString stub = writeScript(
                dir_.path(), QStringLiteral("probe%1").arg(code),
                QStringLiteral(
                    "#!/bin/sh\ncat >/dev/null\necho '{\"ok\":false,\"exit_code\":%1,"
                    "\"error\":\"stub %1\",\"compile\":{\"ok\":false,\"log\":\"kernel.cu(3): "
                    "error: expected a ;\"}}'\nexit %1\n")
                    .arg(code)
                    .toLocal8Bit());
            RunController c;
            c.settings().probePath = stub;
            QSignalSpy failed(&c, &RunController::failed);
            QVERIFY(c.start(RunTarget::LocalGpu, spec()));
            QVERIFY(failed.wait(10000));
            const QString msg = failed.first().at(0).toString();
            const QString log = failed.first().at(1).toString();
            const char* expect[] = {
                "", "", "", "No CUDA driver", "did not compile", "hung", "Verification failed"};
            QVERIFY2(msg.contains(QLatin1String(expect[code])), qPrintable(msg));
            QVERIFY(msg.contains(QStringLiteral("stub %1").arg(code)));
            if (code == 4) QVERIFY(log.contains(QStringLiteral("expected a ;")));
        }
    }

    void childRunsInPrivateTemporaryDirectory() {
        const QString report = dir_.path() + QStringLiteral("/where.txt");
        const QString stub = writeScript(
            dir_.path(), QStringLiteral("where-probe"),
            QByteArray("#!/bin/sh\ncat >/dev/null\n{ pwd; stat -c %a .; echo \"$TMPDIR\"; } > '") +
                report.toLocal8Bit() + "'\nexit 3\n");
        RunController c;
        c.settings().probePath = stub;
        QSignalSpy failed(&c, &RunController::failed);
        QVERIFY(c.start(RunTarget::LocalGpu, spec()));
        QVERIFY(failed.wait(10000));
        QFile f(report);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromLocal8Bit(f.readAll()).split('\n');
        QVERIFY(lines.size() >= 3);
        QVERIFY(lines[0].contains(QStringLiteral("tilescope-run-")));
        QCOMPARE(lines[1], QStringLiteral("700"));
        QCOMPARE(lines[2], lines[0]);
        QVERIFY(!QFileInfo::exists(lines[0])); // removed after the run
    }

    void missingProgramIsReported() {
        RunController c;
        c.settings().probePath = dir_.path() + QStringLiteral("/no-such-probe");
        QSignalSpy failed(&c, &RunController::failed);
        QVERIFY(!c.start(RunTarget::LocalGpu, spec()));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().at(0).toString().startsWith(QStringLiteral("Could not start")));
        // A program that exists on no PATH (SSH target): reported when QProcess fails to start.
        failed.clear();
        c.settings().sshProgram = QStringLiteral("tilescope-no-such-ssh");
        c.settings().sshHost = QStringLiteral("gpu-box");
        c.start(RunTarget::Ssh, spec());
        if (failed.isEmpty()) QVERIFY(failed.wait(10000));
        QVERIFY2(failed.first().at(0).toString().startsWith(QStringLiteral("Could not start")),
                 qPrintable(failed.first().at(0).toString()));
        QVERIFY(!c.isRunning());
    }

    void ascendSaysWhatIsMissing() {
        RunController c;
        QSignalSpy failed(&c, &RunController::failed);
        QVERIFY(!c.start(RunTarget::Ascend, spec()));
        const QString msg = failed.first().at(0).toString();
        QVERIFY2(msg.contains(QStringLiteral("Cannot run on Ascend")), qPrintable(msg));
        QVERIFY(msg.contains(QStringLiteral("CANN toolkit")) ||
                msg.contains(QStringLiteral("npu-smi")));
    }

    void ascendKernelComesFromTheSpecBeforeCann() {
        RunController c;
        QSignalSpy failed(&c, &RunController::failed);
        // A 3-D layout has no ND tile to copy: said before any toolkit is looked for.
        QVERIFY(!c.start(RunTarget::Ascend,
                         spec(QStringLiteral("T.Layout([2, 4, 8], lambda a, b, c: (a, b, c))"))));
        QString msg = failed.last().at(0).toString();
        QVERIFY2(msg.contains(QStringLiteral("2-D tile")), qPrintable(msg));
        // npuir cannot store an int32 accumulator: the message names the other back end.
        RunSpec s = spec();
        s.dtype = QStringLiteral("int8");
        s.ascendBackend = QStringLiteral("npuir");
        QVERIFY(!c.start(RunTarget::Ascend, s));
        msg = failed.last().at(0).toString();
        QVERIFY2(msg.contains(QStringLiteral("ascendc_pto")), qPrintable(msg));
        s.ascendBackend = QStringLiteral("pto9");
        QVERIFY(!c.start(RunTarget::Ascend, s));
        QVERIFY(failed.last().at(0).toString().contains(QStringLiteral("back end")));
    }

    void historyPersists() {
        RunHistoryModel m;
        RunRecord a;
        a.layout = QStringLiteral("row-major");
        a.pattern = QStringLiteral("ldmatrix:x4");
        a.predictedWf = 32;
        a.measuredWf = 32;
        a.nsPerInstr = 16.2;
        a.verdict = QStringLiteral("agree");
        a.ok = true;
        RunRecord b = a;
        b.layout = QStringLiteral("full-bank swizzle");
        b.predictedWf = b.measuredWf = 4;
        m.add(a);
        m.add(b);
        QSettings s(dir_.path() + QStringLiteral("/h.ini"), QSettings::IniFormat);
        m.save(s);
        RunHistoryModel n;
        n.load(s);
        QCOMPARE(n.rowCount(), 2);
        QCOMPARE(n.data(n.index(1, RunHistoryModel::Layout), Qt::DisplayRole).toString(),
                 QStringLiteral("full-bank swizzle"));
        QCOMPARE(n.data(n.index(1, RunHistoryModel::Measured), Qt::DisplayRole).toString(),
                 QStringLiteral("4.00"));
        QCOMPARE(n.data(n.index(0, RunHistoryModel::Verdict), Qt::DisplayRole).toString(),
                 QStringLiteral("agree"));
        QVERIFY(!n.fromJson("{not json"));
        QVERIFY(!n.fromJson("{\"runs\": 3}"));
        QCOMPARE(n.rowCount(), 2); // unchanged on bad input
    }

    void mainWindowRunUiAndOpeningNeverExecutes() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("runDock")));
        QVERIFY(w.findChild<QMenu*>(QStringLiteral("runMenu")));
        auto* runAct = w.findChild<QAction*>(QStringLiteral("runAction"));
        QVERIFY(runAct);
        RunController* c = runControllerOf(&w);
        RunPanel* p = runPanelOf(&w);
        QVERIFY(c && p);
        // A project whose text looks like code: opening it must run nothing.
        const QString marker = dir_.path() + QStringLiteral("/executed");
        const QString proj = dir_.path() + QStringLiteral("/evil.tilescope.json");
        QFile f(proj);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QString evil =
            QStringLiteral("{\"format\":\"tilescope-project\",\"version\":1,\"active\":0,"
                           "\"layouts\":[{\"name\":\"evil\",\"text\":\"__import__('os')."
                           "system('touch %1')\"},{\"name\":\"row-major\",\"text\":"
                           "\"T.Layout([32, 64], lambda i, j: (i, j))\"}]}");
        f.write(evil.arg(marker).toUtf8());
        f.close();
        w.openFile(proj);
        QTest::qWait(300);
        QVERIFY(!QFileInfo::exists(marker));
        QVERIFY(!c->isRunning());
        QVERIFY(c->program().isEmpty());
        // Run with the first (non-layout) text: a clean refusal, the GUI stays usable.
        c->settings().probePath = QStringLiteral(TILESCOPE_PROBE);
        QSignalSpy failed(c, &RunController::failed);
        w.document()->setActive(0);
        runAct->trigger();
        QCOMPARE(failed.count(), 1);
        QVERIFY(!QFileInfo::exists(marker));
        QVERIFY(runAct->isEnabled());
        // The real probe through the Run button: "no CUDA driver" in the panel, history row.
        w.document()->setActive(1);
        failed.clear();
        const int rows = static_cast<RunHistoryModel*>(p->table()->model())->rowCount();
        p->runButton()->click();
        QVERIFY(!runAct->isEnabled());
        QVERIFY(p->cancelButton()->isEnabled());
        QVERIFY(failed.wait(120000));
        QVERIFY2(p->statusText().contains(QStringLiteral("No CUDA driver")),
                 qPrintable(p->statusText()));
        QVERIFY(runAct->isEnabled());
        QVERIFY(!p->cancelButton()->isEnabled());
        QCOMPARE(static_cast<RunHistoryModel*>(p->table()->model())->rowCount(), rows + 1);
    }
};

QTEST_MAIN(TestRunController)
#include "test_run_controller.moc"
