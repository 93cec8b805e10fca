// SPDX-License-Identifier: Apache-2.0
// Crash reports for real: start the `tilescope` binary offscreen with a private recovery
// directory, trigger menu actions through the menu bar (as clicks and shortcuts do), make it die
// of SIGSEGV or SIGABRT (TILESCOPE_TEST_CRASH), and check that the report it left next to the
// autosave names the signal, the version, those actions in order, and holds a backtrace; that
// the process still died of the signal (the handler raises it again); that the next start
// offers the report; and that the dialog shows it whole, copies it, saves it and deletes it.
#include "test_process_helpers.h"

#include "document/crash_dialog.h"
#include "document/crash_report.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QProcess>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

class TestCrashReport : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;
    QString recoveryDir_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        e.insert(QStringLiteral("TILESCOPE_RECOVERY_DIR"), recoveryDir_);
        e.insert(QStringLiteral("TILESCOPE_NO_DIALOGS"), QStringLiteral("1"));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp_.path() + QStringLiteral("/config"));
        e.insert(QStringLiteral("XDG_DATA_HOME"), tmp_.path() + QStringLiteral("/data"));
        // The crash is the test's; a core file of it is not wanted.
        e.insert(QStringLiteral("ASAN_OPTIONS"), QStringLiteral("handle_segv=0:handle_abort=0"));
        for (const char* k : {"TILESCOPE_TEST_EDIT", "TILESCOPE_RECOVERY_ANSWER",
                              "TILESCOPE_TEST_CRASH", "TILESCOPE_TEST_ACTIONS"})
            e.remove(QString::fromLatin1(k));
        return e;
    }

    QStringList reports() const {
        return QDir(recoveryDir_).entryList({QStringLiteral("crash-*.txt")}, QDir::Files);
    }

    // Starts the app, lets it trigger `actions` and die of `how`; returns the report's path.
    QString crash(const QString& how, const QString& actions, QByteArray* output) {
        QProcess p;
        QProcessEnvironment e = env();
        e.insert(QStringLiteral("TILESCOPE_TEST_CRASH"), how);
        e.insert(QStringLiteral("TILESCOPE_TEST_ACTIONS"), actions);
        p.setProcessEnvironment(e);
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(TILESCOPE_GUI_BIN), {});
        if (!p.waitForStarted(20000)) return {};
        const QString prefix = QStringLiteral("crash-%1-").arg(p.processId());
        p.waitForFinished(60000);
        *output = p.readAll();
        if (p.exitStatus() != QProcess::CrashExit) {
            *output += "\n(exited normally, not by the signal)";
            return {};
        }
        for (const QString& f : reports())
            if (f.startsWith(prefix)) return recoveryDir_ + QLatin1Char('/') + f;
        return {};
    }

private slots:
    void initTestCase() {
        QVERIFY(tmp_.isValid());
        recoveryDir_ = tmp_.path() + QStringLiteral("/recovery");
    }

    void crashLeavesAReportThatIsOffered_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("signal");
        QTest::newRow("SIGSEGV") << QStringLiteral("segv") << QStringLiteral("signal: 11 SIGSEGV");
        QTest::newRow("SIGABRT") << QStringLiteral("abort") << QStringLiteral("signal: 6 SIGABRT");
    }
    void crashLeavesAReportThatIsOffered() {
        QFETCH(QString, how);
        QFETCH(QString, signal);
        for (const QString& f : reports())
            QFile::remove(recoveryDir_ + QLatin1Char('/') + f);
        QByteArray out;
        const QString report =
            crash(how, QStringLiteral("Zoom In;Output View;Warp;Zoom to Fit"), &out);
        QVERIFY2(!report.isEmpty(), out.constData());
        QVERIFY(out.contains("tilescope: crashing now"));
        const QString text = QString::fromUtf8(readAll(report));
        QVERIFY2(text.startsWith(QStringLiteral("Tilescope crash report\nversion: ")),
                 qPrintable(text));
        QVERIFY2(text.contains(signal), qPrintable(text));
        // The actions in the order they were triggered, each named by its menu.
        const qsizetype a = text.indexOf(QStringLiteral("View ▸ Zoom In"));
        const qsizetype b = text.indexOf(QStringLiteral("View ▸ Output View"));
        const qsizetype c = text.indexOf(QStringLiteral("View ▸ Colour By ▸ Warp (Ctrl+2)"));
        const qsizetype d = text.indexOf(QStringLiteral("View ▸ Zoom to Fit (Ctrl+0)"));
        QVERIFY2(a > 0 && a < b && b < c && c < d, qPrintable(text));
        // A backtrace: frames of this binary, ending the report.
        const qsizetype bt = text.indexOf(QStringLiteral("\nbacktrace:\n"));
        QVERIFY2(bt > d, qPrintable(text));
        const QStringList frames = text.mid(bt + 12)
                                       .split(QLatin1Char('\n'), Qt::SkipEmptyParts)
                                       .filter(QStringLiteral("tilescope"));
        QVERIFY2(frames.size() >= 3, qPrintable(text));
        QVERIFY(text.endsWith(QStringLiteral("(end of report)\n")));

        // The next start offers it (listed by the scripted answer to the recovery prompt).
        QProcess next;
        QProcessEnvironment e = env();
        e.insert(QStringLiteral("TILESCOPE_RECOVERY_ANSWER"), QStringLiteral("discard"));
        next.setProcessEnvironment(e);
        next.setProcessChannelMode(QProcess::MergedChannels);
        next.start(QStringLiteral(TILESCOPE_GUI_BIN), {});
        QVERIFY(next.waitForStarted(20000));
        QByteArray out2;
        const QByteArray want = "tilescope: crash report " + report.toUtf8();
        const bool offered = waitFor(
            [&] {
                out2 += next.readAll();
                return out2.contains(want);
            },
            60000);
        next.kill();
        next.waitForFinished(20000);
        QVERIFY2(offered, out2.constData());
    }

    // The dialog the user gets: the whole report, Copy, Save As, Delete.
    void dialogShowsCopiesSavesAndDeletes() {
        QByteArray out;
        const QString report = crash(QStringLiteral("segv"), QStringLiteral("Zoom In"), &out);
        QVERIFY2(!report.isEmpty(), out.constData());
        const QList<tsw::crash::Report> pending = tsw::crash::pending(recoveryDir_);
        QVERIFY(!pending.isEmpty());
        QCOMPARE(pending.first().file, report); // newest first
        const QString text = QString::fromUtf8(readAll(report));
        {
            tsw::CrashReportDialog d(pending.first());
            QCOMPARE(d.reportText(), text);
            QApplication::clipboard()->clear();
            d.copyReport();
            QCOMPARE(QApplication::clipboard()->text(), text);
            const QString saved = tmp_.path() + QStringLiteral("/saved-report.txt");
            QString err;
            QVERIFY2(d.saveReportAs(saved, &err), qPrintable(err));
            QCOMPARE(QString::fromUtf8(readAll(saved)), text);
        }
        // offerCrashReports shows each pending report; Delete removes it, Keep leaves it.
        const int before = int(reports().size());
        QTimer::singleShot(200, this, [] {
            auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!d) return;
            for (QPushButton* b : d->findChildren<QPushButton*>())
                if (b->text() == QStringLiteral("&Delete Report")) b->click();
        });
        // Every other pending report is kept (a timer per dialog: one shown after another).
        for (int k = 1; k < before; ++k)
            QTimer::singleShot(400 + 200 * k, this, [] {
                if (auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget()))
                    d->reject();
            });
        tsw::offerCrashReports(nullptr, recoveryDir_);
        QVERIFY(!QFile::exists(report));
        QCOMPARE(int(reports().size()), before - 1);
    }
};

QTEST_MAIN(TestCrashReport)
#include "test_crash_report.moc"
