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
#include <QPlainTextEdit>
#include <QPushButton>
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
        // The project has a layout of the measured name with another text: its own reason.
        QVERIFY2(
            rep.problems[0].contains(QStringLiteral("this project's 'full-bank 128B swizzle "
                                                    "16x64 fp16' is not the layout it "
                                                    "measured")) &&
                rep.problems[0].contains(QStringLiteral("other shared-memory addresses")) &&
                rep.problems[0].contains(QStringLiteral("Open the project it was measured on")),
            qPrintable(rep.problems[0]));
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("not imported")));
        // A request file (not a result) is named as such.
        const ImportReport req = importMeasurements(&w, {kDir + QStringLiteral("request.json")});
        QCOMPARE(req.added, 0);
        QVERIFY2(req.problems.value(0).contains(QStringLiteral("not a tilescope-probe result")),
                 qPrintable(req.problems.value(0)));
    }

    // A project without the measured layouts (the newcomer's: a fragment and a 16 x 16 tile): one
    // paragraph per file and measured layout, naming that layout and saying what to do, and
    // nothing about the project's unrelated layouts.
    void aResultForAnotherProjectSaysWhichToOpen() {
        MainWindow w;
        w.setConfirmOnClose(false);
        const QString proj = dir_.path() + QStringLiteral("/mine.tilescope.json");
        QFile f(proj);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": \"tilescope-project\", \"version\": 1, \"layouts\": [{\"name\": "
                "\"my 16x16 frag\", \"text\": \"T.Fragment([16, 16], forward_thread_fn=lambda i, "
                "j: i * 2 + j // 8, forward_index_fn=lambda i, j: j % 8)\"}, {\"name\": \"swz\", "
                "\"text\": \"make_swizzled_layout((16, 16), 'float16')\"}]}");
        f.close();
        QVERIFY(w.document()->load(proj, nullptr));
        w.findChild<RunHistoryModel*>(QStringLiteral("runHistoryModel"))->setRecords({});
        const ImportReport rep = importMeasurements(&w, {kDir + QStringLiteral("result.json")});
        QCOMPARE(rep.added, 0);
        QCOMPARE(rep.problems.size(), 1);
        const QString p = rep.problems[0];
        QVERIFY2(p.startsWith(QStringLiteral("result.json was measured on layout 'full-bank 128B "
                                             "swizzle 16x64 fp16' (ldmatrix:x4)")) &&
                     p.contains(QStringLiteral("Open the project it was measured on (the one "
                                               "with layout 'full-bank 128B swizzle 16x64 "
                                               "fp16')")),
                 qPrintable(p));
        QVERIFY2(!p.contains(QStringLiteral("my 16x16 frag")) && !p.contains(QStringLiteral("swz")),
                 qPrintable(p));
        // The headline counts; the paragraph is not repeated in it.
        QCOMPARE(rep.headline(), QStringLiteral("Imported 0 measurements; 1 not imported"));
        // A sweep of 9 patterns over 3 layouts: one paragraph per layout, its patterns listed.
        const ImportReport sweep =
            importMeasurements(&w, {kDir + QStringLiteral("sweep_result.json")});
        QCOMPARE(sweep.added, 0);
        QCOMPARE(sweep.problems.size(), 3);
        for (const QString& q : sweep.problems)
            QVERIFY2(q.startsWith(QStringLiteral("sweep_result.json holds 3 measurements of "
                                                 "layout '")),
                     qPrintable(q));
    }

    // Without a GPU: Export Probe Request writes what `tilescope-cli probe-request` writes for the
    // active layout and access (byte for byte), and the panel says how the result comes back.
    void exportProbeRequestIsTheCliRequest() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.document()->load(kProject, nullptr));
        RunPanel* panel = runPanelOf(&w);
        RunController* ctl = runControllerOf(&w);
        QVERIFY(panel && ctl);
        QVERIFY(panel->exportRequestButton()->isVisibleTo(panel));
        QVERIFY(w.findChild<QAction*>(QStringLiteral("exportProbeRequestAction")));
        int at = -1;
        for (int i = 0; i < w.document()->count(); ++i)
            if (w.document()->layout(i).name == kSwizzled.toStdString()) at = i;
        QVERIFY(at >= 0);
        const ts::DocLayout& l = w.document()->layout(at);
        RunSpec spec;
        spec.layoutName = kSwizzled;
        spec.mappingText = QString::fromStdString(l.text);
        spec.dtype = QStringLiteral("float16");
        spec.access = QStringLiteral("stmatrix:x4");
        ctl->settings().timeoutS = 120;
        const QString gui = dir_.path() + QStringLiteral("/gui-request.json");
        const QString cli = dir_.path() + QStringLiteral("/cli-request.json");
        QVERIFY(exportProbeRequestTo(ctl, panel, spec, gui));
        const ts::ProcessResult r = ts::runProcess(
            {TILESCOPE_CLI, "probe-request", l.text, "--name", kSwizzled.toStdString(), "--access",
             "stmatrix:x4", "--dtype", "float16", "--run-timeout", "120", "-o", cli.toStdString()},
            {}, 60);
        QCOMPARE(r.exit_code, 0);
        QFile a(gui), b(cli);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray written = a.readAll();
        QVERIFY(written.size() > 100);
        QCOMPARE(written, b.readAll());
        const QString said = panel->lastRequestMessage();
        QVERIFY2(said.contains(gui) && said.contains(QStringLiteral("tilescope-probe")) &&
                     said.contains(QStringLiteral("File ▸ Import Measurements")),
                 qPrintable(said));
        QVERIFY(panel->log()->toPlainText().contains(QStringLiteral("File ▸ Import Measurements")));
        // A fragment is no shared tile: nothing is written and the panel says why.
        spec.mappingText =
            QStringLiteral("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i * 4 + j // 2, "
                           "forward_index_fn=lambda i, j: j % 2)");
        const QString bad = dir_.path() + QStringLiteral("/fragment-request.json");
        QVERIFY(!exportProbeRequestTo(ctl, panel, spec, bad));
        QVERIFY(!QFile::exists(bad));
        QVERIFY2(panel->lastRequestMessage().startsWith(QStringLiteral("Cannot write a request")),
                 qPrintable(panel->lastRequestMessage()));
        // The no-GPU message points at the headless path.
        const QString noGpu = RunController::messageForExit(RunTarget::LocalGpu, 3, {});
        QVERIFY2(noGpu.contains(QStringLiteral("Export Probe Request")) &&
                     noGpu.contains(QStringLiteral("File ▸ Import Measurements")),
                 qPrintable(noGpu));
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
