// SPDX-License-Identifier: Apache-2.0
// File/Help ▸ Sample Logs: the compiler logs shipped with the samples, embedded in the binary for
// an installed app (which has no source tree), each opening in the Trace panel.
#include "common/install_paths.h"
#include "test_gui_common.h"
#include "trace/sample_logs.h"
#include "trace/trace_viewer.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QtTest>

using namespace tsw;

namespace {
const QString kSourceLogs = QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/logs");

QStringList fileNames(const QList<SampleLog>& logs) {
    QStringList n;
    for (const SampleLog& l : logs)
        n << QFileInfo(l.path).fileName();
    n.sort();
    return n;
}

QMenu* submenu(QMainWindow& w, const QString& top, const QString& sub) {
    for (QAction* a : w.menuBar()->actions())
        if (a->menu() && a->text().remove(QLatin1Char('&')) == top)
            for (QAction* b : a->menu()->actions())
                if (b->menu() && b->text().remove(QLatin1Char('&')) == sub) return b->menu();
    return nullptr;
}

int expectedEvents(const QString& logName) {
    QFile f(QStringLiteral(TILESCOPE_SOURCE_DIR "/tests/data/logs/") +
            QString(logName).replace(QStringLiteral(".log"), QStringLiteral(".expected.json")));
    if (!f.open(QIODevice::ReadOnly)) return -1;
    return int(QJsonDocument::fromJson(f.readAll())
                   .object()
                   .value(QStringLiteral("events"))
                   .toArray()
                   .size());
}
} // namespace

class TestSampleLogs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void embeddedLogsAreTheSamples() {
        const QStringList want =
            QDir(kSourceLogs).entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name);
        QVERIFY(want.size() >= 8);
        const QList<SampleLog> embedded = sampleLogs(embeddedSamplesDir());
        QCOMPARE(fileNames(embedded), want);
        for (const SampleLog& l : embedded) {
            QVERIFY2(l.path.startsWith(QStringLiteral(":/tilescope/samples/logs/")),
                     qPrintable(l.path));
            QFile a(l.path), b(kSourceLogs + QLatin1Char('/') + QFileInfo(l.path).fileName());
            QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
            QCOMPARE(a.readAll(), b.readAll());
        }
        QCOMPARE(sampleLogTitle(QStringLiteral("conflict_gemm_transpose_A.log")),
                 QStringLiteral("Conflict gemm transpose A"));
        QVERIFY(sampleLogs(QString()).isEmpty());
        QVERIFY(sampleLogs(QDir::tempPath() + QStringLiteral("/no-such-samples")).isEmpty());
    }

    // The menus of a window that uses the embedded samples (as the installed app does): every log
    // listed in both, and choosing one opens it in the Trace panel with its events.
    void menuOpensALogInTheTracePanel() {
        qputenv("TILESCOPE_SAMPLES_DIR", embeddedSamplesDir().toLocal8Bit());
        MainWindow w;
        qunsetenv("TILESCOPE_SAMPLES_DIR");
        w.setConfirmOnClose(false);
        w.resize(1400, 900);
        w.show();
        const int n = int(QDir(kSourceLogs).entryList({QStringLiteral("*.log")}).size());
        QMenu* help = submenu(w, QStringLiteral("Help"), QStringLiteral("Sample Logs"));
        QMenu* file = submenu(w, QStringLiteral("File"), QStringLiteral("Sample Logs"));
        QVERIFY(help && file);
        QCOMPARE(int(help->actions().size()), n);
        QCOMPARE(int(file->actions().size()), n);
        QVERIFY(help->isEnabled());
        auto* dock = qobject_cast<QDockWidget*>(w.traceViewer()->parentWidget());
        QVERIFY(dock && !dock->isVisible());

        for (const QString title :
             {QStringLiteral("Conflict parallel cast"), QStringLiteral("Flash attn fwd")}) {
            QAction* a = nullptr;
            for (QAction* x : help->actions())
                if (x->text() == title) a = x;
            QVERIFY2(a, qPrintable(title));
            const QString path = a->data().toString();
            QVERIFY2(path.startsWith(QStringLiteral(":/tilescope/samples/logs/")),
                     qPrintable(path));
            QSignalSpy done(w.traceViewer(), &TraceViewer::importFinished);
            a->trigger();
            QVERIFY(dock->isVisible());
            QCOMPARE(w.traceViewer()->importer()->source(), path);
            if (w.traceViewer()->busy()) QVERIFY(done.wait(10000));
            const int want = expectedEvents(QFileInfo(path).fileName());
            QVERIFY(want > 0);
            QCOMPARE(w.traceViewer()->model()->eventCount(), want);
            QVERIFY2(w.traceViewer()->statusText().endsWith(QStringLiteral(" · ") +
                                                            QFileInfo(path).fileName()),
                     qPrintable(w.traceViewer()->statusText()));
        }
    }
};

QTEST_MAIN(TestSampleLogs)
#include "test_sample_logs.moc"
