// SPDX-License-Identifier: Apache-2.0
// Validating on hardware from anywhere: the request the Run button sends is the one
// `tilescope-cli probe-request` writes, and a probe result measured on the H200 (committed under
// data/h200/e2e/, produced there from that CLI request) comes back into the GUI: File > Import
// Measurements and drag and drop put it in the Run history of the layout it measured, predicted
// next to measured, and the history is saved with the project.
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "run/measurement_import.h"
#include "run/run_controller.h"
#include "run/run_history.h"
#include "run/run_panel.h"
#include "window/mainwindow.h"

#include "tilescope/device/subprocess.h"

#include <QAction>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QJsonDocument>
#include <QMimeData>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

using namespace tsw;

namespace {
const QString kDir = QStringLiteral(TILESCOPE_SOURCE_DIR "/data/h200/e2e/");
const QString kProject = kDir + QStringLiteral("layouts.tilescope.json");
const QString kSwizzled = QStringLiteral("full-bank 128B swizzle 16x64 fp16");

int rowOf(const RunHistoryModel* h, const QString& layout, const QString& pattern) {
    for (int r = 0; r < h->rowCount(); ++r)
        if (h->record(r).layout == layout && h->record(r).pattern == pattern) return r;
    return -1;
}
} // namespace

class TestMeasurementImport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        guiTestSetUp();
        QVERIFY(dir_.isValid());
    }

    // The Run button's request (RunController) and the CLI's are one construction: equal JSON
    // for the same layout, access, dtype, vector and run timeout.
    void cliRequestEqualsTheRunButtons() {
        QFile pf(kProject);
        QVERIFY(pf.open(QIODevice::ReadOnly));
        struct Case {
            QString layout, text, access;
            int vector;
        } cases[] = {
            {kSwizzled, QStringLiteral("make_full_bank_swizzled_layout((16, 64), \"float16\")"),
             QStringLiteral("ldmatrix:x4"), 0},
            {QStringLiteral("padded"),
             QStringLiteral("T.Layout([16, 64], lambda i, j: i * 72 + j)"),
             QStringLiteral("lanes:lambda t: (t % 16, 8 * (t // 16))"), 2},
        };
        for (const Case& c : cases) {
            RunController ctl;
            ctl.settings().probePath = dir_.path() + QStringLiteral("/no-such-probe");
            ctl.settings().timeoutS = 95;
            RunSpec spec;
            spec.layoutName = c.layout;
            spec.mappingText = c.text;
            spec.dtype = QStringLiteral("float16");
            spec.access = c.access;
            spec.vector = c.vector;
            QVERIFY(!ctl.start(RunTarget::LocalGpu, spec)); // no probe: built, then refused
            const QByteArray gui = ctl.lastRequest();
            QVERIFY(!gui.isEmpty());
            std::vector<std::string> argv = {TILESCOPE_CLI,
                                             "probe-request",
                                             c.text.toStdString(),
                                             "--name",
                                             c.layout.toStdString(),
                                             "--access",
                                             c.access.toStdString(),
                                             "--dtype",
                                             "float16",
                                             "--run-timeout",
                                             "95"};
            if (c.vector) {
                argv.push_back("--vector");
                argv.push_back(std::to_string(c.vector));
            }
            const ts::ProcessResult r = ts::runProcess(argv, {}, 60);
            QCOMPARE(r.exit_code, 0);
            QCOMPARE(QByteArray::fromStdString(r.out).trimmed(), gui); // byte for byte
            const QJsonObject o = QJsonDocument::fromJson(gui).object();
            QCOMPARE(o.value("timeout_s").toDouble(), 85.0);
            QCOMPARE(o.value("spec").toObject().value("vector").toInt(), c.vector);
        }
    }

    // The committed H200 result: imported on its layout, predicted vs measured, provenance kept;
    // saved with the project and read back.
    void importsTheRealH200ResultAndKeepsItWithTheProject() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.document()->load(kProject, nullptr));
        auto* history = w.findChild<RunHistoryModel*>(QStringLiteral("runHistoryModel"));
        QVERIFY(history);
        history->setRecords({}); // no runs of other tests or sessions
        QVERIFY(w.findChild<QAction*>(QStringLiteral("importMeasurementsAction")));
        w.document()->setActive(0); // the row-major layout: the import switches to its own

        const ImportReport rep = importMeasurements(
            &w, {kDir + QStringLiteral("sweep_result.json"), kDir + QStringLiteral("result.json")});
        QVERIFY2(rep.problems.isEmpty(), qPrintable(rep.problems.join('\n')));
        QCOMPARE(rep.added, 10); // one request + a sweep of 9
        QCOMPARE(history->rowCount(), 10);
        QCOMPARE(w.document()->layout(w.document()->active()).name, kSwizzled.toStdString());
        const int row = rowOf(history, kSwizzled, QStringLiteral("ldmatrix:x4"));
        QVERIFY(row >= 0);
        const RunRecord r = history->record(row); // a copy: the history is reset and reloaded below
        QCOMPARE(r.predictedWf, 4.0);
        QCOMPARE(r.measuredWf, 4.0); // ncu on the H200, one warp per SM
        QCOMPARE(r.verdict, QStringLiteral("agree"));
        QCOMPARE(r.roundTrip, QStringLiteral("pass"));
        QCOMPARE(r.device, QStringLiteral("NVIDIA H200"));
        QCOMPARE(r.driver, QStringLiteral("580.159.04"));
        QVERIFY2(r.ncuVersion.contains(QStringLiteral("2025.3.1")), qPrintable(r.ncuVersion));
        QVERIFY(r.when.isValid());
        QCOMPARE(r.when.date().year(), 2026);
        // The conflicted layout's row: 32 predicted, 32 measured.
        const int bad =
            rowOf(history, QStringLiteral("row-major 16x64 fp16"), QStringLiteral("ldmatrix:x4"));
        QVERIFY(bad >= 0);
        QCOMPARE(history->record(bad).predictedWf, 32.0);
        QCOMPARE(history->record(bad).measuredWf, 32.0);
        // Shown: the table's predicted and measured columns, and the Run dock is up.
        RunPanel* panel = runPanelOf(&w);
        QVERIFY(panel);
        QCOMPARE(panel->access(), QStringLiteral("ldmatrix:x4")); // the last one imported
        QCOMPARE(panel->table()->model()->index(row, RunHistoryModel::Predicted).data().toString(),
                 QStringLiteral("4.00"));
        QCOMPARE(panel->table()->model()->index(row, RunHistoryModel::Measured).data().toString(),
                 QStringLiteral("4.00"));
        QVERIFY(w.document()->isDirty()); // a measurement is part of the project now

        // Saved with the project, and read back into the history when it is opened again.
        const QString saved = dir_.path() + QStringLiteral("/with-runs.tilescope.json");
        QVERIFY(w.document()->save(saved, nullptr));
        history->setRecords({});
        QVERIFY(w.document()->load(saved, nullptr));
        QCOMPARE(history->rowCount(), 10);
        const int again = rowOf(history, kSwizzled, QStringLiteral("ldmatrix:x4"));
        QVERIFY(again >= 0);
        QCOMPARE(history->record(again).measuredWf, 4.0);
        QCOMPARE(history->record(again).driver, QStringLiteral("580.159.04"));
        QCOMPARE(history->record(again).device, QStringLiteral("NVIDIA H200"));
        QCOMPARE(history->record(again).when, r.when);
    }

    // A result of a layout the open project does not have: a clear message, nothing added.
    void aResultOfAnotherLayoutIsRefusedWithAReason() {
        MainWindow w;
        w.setConfirmOnClose(false);
        const QString proj = dir_.path() + QStringLiteral("/other.tilescope.json");
        QFile f(proj);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [{\"name\": "
                "\"full-bank 128B swizzle 16x64 fp16\", \"text\": \"T.Layout([16, 64], lambda i, "
                "j: i * 72 + j)\"}]}");
        f.close();
        QVERIFY(w.document()->load(proj, nullptr));
        auto* history = w.findChild<RunHistoryModel*>(QStringLiteral("runHistoryModel"));
        history->setRecords({});
        const ImportReport rep = importMeasurements(&w, {kDir + QStringLiteral("result.json")});
        QCOMPARE(rep.added, 0);
        QCOMPARE(history->rowCount(), 0);
        QCOMPARE(rep.problems.size(), 1);
        QVERIFY2(rep.problems[0].contains(QStringLiteral("matches no layout of this project")) &&
                     rep.problems[0].contains(QStringLiteral("other shared-memory addresses")),
                 qPrintable(rep.problems[0]));
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("not imported")));
        // A request file (not a result) is named as such.
        const ImportReport req = importMeasurements(&w, {kDir + QStringLiteral("request.json")});
        QCOMPARE(req.added, 0);
        QVERIFY2(req.problems.value(0).contains(QStringLiteral("not a tilescope-probe result")),
                 qPrintable(req.problems.value(0)));
    }

    // Dropping a probe result imports it; it is not opened as a project.
    void droppingAResultImportsIt() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.document()->load(kProject, nullptr));
        auto* history = w.findChild<RunHistoryModel*>(QStringLiteral("runHistoryModel"));
        history->setRecords({});
        QVERIFY(isProbeResultFile(kDir + QStringLiteral("result.json")));
        QVERIFY(!isProbeResultFile(kProject));
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(kDir + QStringLiteral("result.json"))});
        // As a real drag: entered first (the window accepts it), then dropped.
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        QVERIFY(drop.isAccepted());
        QCOMPARE(history->rowCount(), 1);
        QCOMPARE(history->record(0).layout, kSwizzled);
        QCOMPARE(w.document()->filePath(), QFileInfo(kProject).absoluteFilePath()); // still open
    }
};

QTEST_MAIN(TestMeasurementImport)
#include "test_measurement_import.moc"
