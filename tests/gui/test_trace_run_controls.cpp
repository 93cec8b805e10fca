// SPDX-License-Identifier: Apache-2.0
// The trace viewer's and the Run panel's controls do what they show: Follow starts and stops
// following a growing log at any time; Trace ▸ Run Script and Run ▸ TileLang use one Python and
// name it when it fails; error events say where they were raised and relate to their conflict;
// the Run panel compiles without running, marks failed runs in History, shows the probe's output
// in its log and numbers chart bars by successful run.
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "run/run_controller.h"
#include "run/run_history.h"
#include "run/run_panel.h"
#include "trace/trace_viewer.h"
#include "window/mainwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QTableView>
#include <QtTest>

#include "test_screenshots.h"

using namespace tsw;
using ts::dump::EventKind;

namespace {

QString logPath(const char* name) {
    return QStringLiteral(TILESCOPE_SOURCE_DIR "/tests/data/logs/") + QString::fromLatin1(name);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool waitIdle(TraceViewer& v, int ms = 10000) {
    return QTest::qWaitFor([&] { return !v.busy(); }, ms);
}

QString writeScript(const QString& dir, const QString& name, const QByteArray& body) {
    const QString p = dir + QLatin1Char('/') + name;
    QFile f(p);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write("#!/bin/sh\n" + body);
    f.close();
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return p;
}

RunRecord record(const QString& layout, bool ok, const QString& verdict, double predicted = 4) {
    RunRecord r;
    r.when = QDateTime::currentDateTime();
    r.layout = layout;
    r.ok = ok;
    r.verdict = verdict;
    r.predictedWf = predicted;
    return r;
}

} // namespace

class TestTraceRunControls : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void followCheckboxStartsAndStopsFollowing() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("grow.log"));
        const QByteArray all = readAll(logPath("softmax_rows.log"));
        const qsizetype cut = all.indexOf("row_sum");
        QVERIFY(cut > 0);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(all.left(cut));
        f.flush();
        TraceViewer v;
        auto* follow = v.findChild<QCheckBox*>(QStringLiteral("traceFollow"));
        QVERIFY(follow);
        v.openLog(path, false); // opened without Follow: read once
        QVERIFY(waitIdle(v));
        QCOMPARE(v.model()->eventCount(), 1);
        QVERIFY(!follow->isChecked());
        QVERIFY(v.selectEvent(0));
        // Ticking Follow once the log is open starts following.
        follow->click();
        QVERIFY(follow->isChecked());
        QTRY_COMPARE(v.importer()->state(), TraceImporter::State::Following);
        QTRY_COMPARE(v.model()->eventCount(), 1);
        QVERIFY(v.list()->currentIndex().isValid()); // the selection came back after re-reading
        f.write(all.mid(cut));
        f.flush();
        QTRY_COMPARE_WITH_TIMEOUT(v.model()->eventCount(), 3, 5000);
        QVERIFY(v.statusText().contains(QStringLiteral("following")));
        // Unticking stops: what is appended later is not read, the events stay.
        follow->click();
        QVERIFY(!follow->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(!v.busy(), 5000);
        QVERIFY(!v.statusText().contains(QStringLiteral("following")));
        QVERIFY(!v.statusText().contains(QStringLiteral("cancelled")));
        f.write(all);
        f.flush();
        QTest::qWait(1200); // longer than the follow poll interval
        QCOMPARE(v.model()->eventCount(), 3);
        // Ticking again catches up with what was appended meanwhile.
        follow->click();
        QTRY_COMPARE_WITH_TIMEOUT(v.model()->eventCount(), 3 + 3, 5000);
        QCOMPARE(v.importer()->state(), TraceImporter::State::Following);
        v.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!v.busy(), 5000);
        // A script's output cannot be followed: the checkbox says so by being disabled.
        v.importer()->runProcess(QStringLiteral("/bin/cat"), {logPath("elementwise_add.log")});
        QVERIFY(waitIdle(v));
        QVERIFY(!follow->isEnabled());
        v.openLog(logPath("elementwise_add.log"));
        QVERIFY(waitIdle(v));
        QVERIFY(follow->isEnabled());
    }

    void oneInterpreterForTraceAndRun() {
        QSettings s;
        s.remove(QStringLiteral("run"));
        RunSettings rs;
        rs.load(s);
        // Automatic: both resolve to the same interpreter.
        const PythonChoice autoChoice = resolvePython(rs);
        QString origin;
        QCOMPARE(TraceViewer::scriptPython(&origin), autoChoice.program);
        QCOMPARE(origin, autoChoice.origin);
        // Set in Run ▸ Settings: the trace uses it too.
        rs.python = QStringLiteral("/opt/custom/bin/python3.11");
        rs.save(s);
        QCOMPARE(TraceViewer::scriptPython(&origin), QStringLiteral("/opt/custom/bin/python3.11"));
        QCOMPARE(origin, QStringLiteral("Run ▸ Settings"));
        s.remove(QStringLiteral("run"));
    }

    void failingInterpreterIsNamed() {
        QTemporaryDir dir;
        const QString fake = writeScript(
            dir.path(), QStringLiteral("fakepython"),
            // What the generated kernel script prints (for Run) and Python prints (for the
            // trace's bootstrap) when tilelang is not importable.
            "echo \"TILESCOPE_ERROR cannot import tilelang: No module named 'tilelang'\"\n"
            "echo 'Traceback (most recent call last):' >&2\n"
            "echo '  File \"kernel.py\", line 1, in <module>' >&2\n"
            "echo \"ModuleNotFoundError: No module named 'tilelang'\" >&2\nexit 1\n");
        QVERIFY(!fake.isEmpty());
        // Trace ▸ Run Script.
        TraceViewer v;
        QSignalSpy fin(&v, &TraceViewer::importFinished);
        v.runScript(fake, dir.filePath(QStringLiteral("kernel.py")));
        QVERIFY(fin.wait(10000));
        const QString err = fin.at(0).at(1).toString();
        QVERIFY2(err.contains(fake) && err.contains(QStringLiteral("exited with code 1")),
                 qPrintable(err));
        QVERIFY(v.statusText().contains(fake));
        QCOMPARE(v.findEvent(EventKind::Error) >= 0, true); // the ModuleNotFoundError line
        // Run ▸ Target: TileLang with the same interpreter.
        RunController c;
        c.settings().python = fake;
        QSignalSpy failed(&c, &RunController::failed);
        RunSpec spec;
        spec.layoutName = QStringLiteral("row-major");
        spec.mappingText = QStringLiteral("T.Layout([32, 64], lambda i, j: (i, j))");
        QVERIFY(c.start(RunTarget::TileLang, spec));
        QVERIFY(failed.wait(20000));
        const QString msg = failed.at(0).at(0).toString();
        QVERIFY2(msg.contains(fake) && msg.contains(QStringLiteral("tilelang")), qPrintable(msg));
    }

    void errorEventsSayWhereAndRelateToTheirConflict() {
        TraceViewer v;
        v.resize(1200, 700);
        v.openLog(logPath("error_no_layout.log"));
        QVERIFY(waitIdle(v));
        const int err = v.findEvent(EventKind::Error);
        QVERIFY(err >= 0);
        QVERIFY(v.selectEvent(std::size_t(err)));
        QCOMPARE(v.pages()->currentIndex(), 3);
        QVERIFY2(v.contextLine().contains(QStringLiteral("layout_inference.cc:1539")),
                 qPrintable(v.contextLine()));
        QVERIFY(v.contextLine().contains(QStringLiteral("InferInFreeMode")));
        const QString row =
            v.model()
                ->data(v.model()->index(v.model()->rowOfEvent(std::size_t(err))), Qt::DisplayRole)
                .toString();
        QVERIFY2(row.contains(QStringLiteral("layout_inference.cc:1539")), qPrintable(row));
        // The message page shows the whole message, not the list's shortened one.
        auto* msg = v.pages()->widget(3)->findChild<QPlainTextEdit*>();
        const QPlainTextEdit* page =
            msg ? msg : qobject_cast<QPlainTextEdit*>(v.pages()->widget(3));
        QVERIFY(page);
        QVERIFY(page->toPlainText().contains(QStringLiteral("no available layout found")));

        // A conflict and the exception that raised it tell the same line numbers.
        v.openLog(logPath("conflict_gemm_transpose_A.log"));
        QVERIFY(waitIdle(v));
        QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::Conflict))));
        const QString conflictContext = v.contextLine();
        QVERIFY2(conflictContext.contains(QStringLiteral("lines 1–4")),
                 qPrintable(conflictContext));
        QVERIFY(conflictContext.contains(QStringLiteral("gen_logs.py:165")));
        QVERIFY(
            conflictContext.contains(QStringLiteral("A_frag = T.alloc_fragment((M, K), dtype)")));
        QVERIFY(conflictContext.contains(QStringLiteral("at line 51")));
        QVERIFY(conflictContext.contains(QStringLiteral("BufferUseDefCollector::RunInferStep")));
        // The exception is shown as itself (its line, where it was raised), with the grids of
        // the conflict it reports side by side and the line that conflict was first reported at.
        QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::Error))));
        QCOMPARE(v.pages()->currentIndex(), 2);
        const QString errorContext = v.contextLine();
        QVERIFY2(errorContext.startsWith(QStringLiteral("<b>error</b>")), qPrintable(errorContext));
        QVERIFY(errorContext.contains(QStringLiteral("line 51")));
        QVERIFY(errorContext.contains(QStringLiteral("tvm.error.InternalError")));
        QVERIFY(errorContext.contains(QStringLiteral("BufferUseDefCollector::RunInferStep")));
        QVERIFY(errorContext.contains(QStringLiteral("first reported at line 1")));
        QVERIFY(v.currentLayoutName(0).startsWith(QStringLiteral("A_frag current")));
    }

    void historyMarksFailuresAndChartCountsSuccesses() {
        RunController c;
        RunHistoryModel h;
        RunPanel panel(&c, &h);
        h.add(record(QStringLiteral("swizzle 8x64"), false,
                     QStringLiteral("No CUDA driver or GPU on this machine (exit 3)")));
        h.add(record(QStringLiteral("swizzle 8x64"), false, QStringLiteral("Cancelled.")));
        RunRecord compiled = record(QStringLiteral("row-major 32x64"), true,
                                    QStringLiteral("compiled with nvrtc"), 8);
        compiled.compileOnly = true;
        compiled.pattern = QStringLiteral("ldmatrix:x4");
        h.add(compiled);
        RunRecord lanes =
            record(QStringLiteral("row-major 32x64"), true, QStringLiteral("agree"), 4);
        lanes.pattern = QStringLiteral("lanes:lambda t: (t % 16, 8 * (t // 16))");
        h.add(lanes);
        QCOMPARE(h.headerData(RunHistoryModel::Status, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("Status"));
        auto status = [&](int row) {
            return h.data(h.index(row, RunHistoryModel::Status), Qt::DisplayRole).toString();
        };
        QCOMPARE(status(0), QStringLiteral("failed"));
        QCOMPARE(status(1), QStringLiteral("cancelled"));
        QCOMPARE(status(2), QStringLiteral("compiled"));
        QCOMPARE(status(3), QStringLiteral("ok"));
        QCOMPARE(h.data(h.index(0, RunHistoryModel::Status), Qt::ForegroundRole).value<QColor>(),
                 QColor(0xb0, 0x00, 0x20));
        QVERIFY(!h.data(h.index(3, RunHistoryModel::Status), Qt::ForegroundRole).isValid());
        // The status survives the round trip through the saved history.
        RunHistoryModel again;
        QVERIFY(again.fromJson(h.toJson()));
        QCOMPARE(again.data(again.index(2, RunHistoryModel::Status), Qt::DisplayRole).toString(),
                 QStringLiteral("compiled"));
        // Bars: the successful runs only, numbered among them.
        panel.rebuildChart();
        // Two runs of one layout: their labels tell the patterns apart (layout, then pattern).
        QCOMPARE(panel.chartCategories(),
                 QStringList({QStringLiteral("1 row-major 32x64<br>ldmatrix:x4"),
                              QStringLiteral("2 row-major 32x64<br>lanes:λt: (t % 16, 8 …")}));
        QCOMPARE(runChartLabel(7, QStringLiteral("full-bank 128B swizzle 16x64 fp16"),
                               QStringLiteral("stmatrix:x4")),
                 QStringLiteral("7 full-bank 128B …<br>stmatrix:x4"));
        // The history's headers are read whole: each column at least as wide as its header.
        panel.show();
        panel.resize(900, 400);
        QHeaderView* hh = panel.table()->horizontalHeader();
        for (int c = 0; c < RunHistoryModel::ColumnCount; ++c) {
            const QString t = h.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            QTRY_VERIFY2(hh->sectionSize(c) >= hh->fontMetrics().horizontalAdvance(t),
                         qPrintable(t));
        }
    }

    void compileOnlyAndProbeOutputInLog() {
        MainWindow w;
        w.setConfirmOnClose(false);
        RunController* c = runControllerOf(&w);
        RunPanel* p = runPanelOf(&w);
        QVERIFY(c && p);
        c->settings().probePath = QStringLiteral(TILESCOPE_PROBE);
        w.document()->addLayout({"row-major", "T.Layout([32, 64], lambda i, j: (i, j))", {}, {}});
        auto* history = static_cast<RunHistoryModel*>(p->table()->model());
        const int rows = history->rowCount();
        QSignalSpy done(c, &RunController::finished);
        p->compileButton()->click();
        QVERIFY(!p->compileButton()->isEnabled());
        QVERIFY(done.wait(120000));
        const RunRecord r = done.at(0).at(0).value<RunRecord>();
        QCOMPARE(history->rowCount(), rows + 1);
        const QString log = p->log()->toPlainText();
        QVERIFY2(log.contains(QStringLiteral("--compile-only")), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("\"compile\"")), qPrintable(log)); // the probe's JSON
        // Only a machine without NVRTC and nvcc cannot compile (the probe says "no CUDA
        // compiler"); any other failure of Compile Only is a failure of this test.
        if (!r.ok && r.verdict.contains(QStringLiteral("no CUDA compiler")))
            QSKIP(qPrintable(QStringLiteral("no CUDA compiler on this machine: ") + r.verdict));
        QVERIFY2(r.ok, qPrintable(r.verdict));
        QVERIFY(r.compileOnly);
        QCOMPARE(RunHistoryModel::statusOf(r), QStringLiteral("compiled"));
        QVERIFY2(r.verdict.contains(QStringLiteral("not run")), qPrintable(r.verdict));
        QVERIFY(r.predictedWf >= 4); // ldmatrix.x4: at least 4 wavefronts per instruction
        QVERIFY(p->statusText().startsWith(QStringLiteral("Compiled")));
        QVERIFY(p->compileButton()->isEnabled());
    }

    // The Ascend back end is chosen in the panel (shown for the Ascend target only) and is what
    // the run generates for.
    void ascendBackendIsChosenInThePanel() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RunController* c = runControllerOf(&w);
        RunPanel* p = runPanelOf(&w);
        QVERIFY(c && p);
        auto* target = p->findChild<QComboBox*>(QStringLiteral("runTarget"));
        QVERIFY(target);
        target->setCurrentIndex(target->findData(int(RunTarget::LocalGpu)));
        QVERIFY(p->ascendBackendBox()->isHidden());
        target->setCurrentIndex(target->findData(int(RunTarget::Ascend)));
        QVERIFY(!p->ascendBackendBox()->isHidden());
        QCOMPARE(p->ascendBackend(), QStringLiteral("ascendc_pto"));
        p->setAscendBackend(QStringLiteral("npuir"));
        QCOMPARE(p->ascendBackend(), QStringLiteral("npuir"));
        // npuir cannot store an int32 accumulator: the refusal names the other back end, so the
        // choice reached the run.
        w.document()->addLayout({"int8 tile", "T.Layout([32, 64], lambda i, j: (i, j))", {}, {}});
        p->setFitAccess(false);
        for (QComboBox* b : p->findChildren<QComboBox*>())
            if (b->findText(QStringLiteral("int8")) >= 0) b->setCurrentText(QStringLiteral("int8"));
        QSignalSpy failed(c, &RunController::failed);
        p->runButton()->click();
        QTRY_VERIFY(!failed.isEmpty());
        QVERIFY2(failed.last().at(0).toString().contains(QStringLiteral("ascendc_pto")),
                 qPrintable(failed.last().at(0).toString()));
    }

    // The footprint of the active layout's tile is shown before running, follows the layout,
    // dtype and chip, and a tile that does not fit is refused by Run with the same numbers.
    void ascendFootprintIsShownAndOversizeTilesAreRefused() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        RunController* c = runControllerOf(&w);
        RunPanel* p = runPanelOf(&w);
        QVERIFY(c && p);
        p->setFitAccess(false);
        auto* target = p->findChild<QComboBox*>(QStringLiteral("runTarget"));
        target->setCurrentIndex(target->findData(int(RunTarget::LocalGpu)));
        QVERIFY(p->ascendFootprintLabel()->isHidden());
        QVERIFY(p->ascendChipBox()->isHidden());
        w.document()->addLayout({"small", "T.Layout([100, 60], lambda i, j: (i, j))", {}, {}});
        target->setCurrentIndex(target->findData(int(RunTarget::Ascend)));
        QVERIFY(!p->ascendFootprintLabel()->isHidden());
        QVERIFY(!p->ascendChipBox()->isHidden());
        QString t = p->ascendFootprintLabel()->text();
        // 100 x 60 float16 -> M, K, N = 112, 64, 64: L0C 112*64*4 = 28 KB of 128 KB.
        QVERIFY2(t.contains(QStringLiteral("«small»")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("M, K, N = 112, 64, 64")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("L0C 28 KB of 128 KB")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("L0A 14 KB of 64 KB")), qPrintable(t));
        // float32: the same tile with 4-byte elements.
        for (QComboBox* b : p->findChildren<QComboBox*>())
            if (b->findText(QStringLiteral("float32")) >= 0)
                b->setCurrentText(QStringLiteral("float32"));
        t = p->ascendFootprintLabel()->text();
        QVERIFY2(t.contains(QStringLiteral("L0A 28 KB of 64 KB")), qPrintable(t));
        for (QComboBox* b : p->findChildren<QComboBox*>())
            if (b->findText(QStringLiteral("float16")) >= 0)
                b->setCurrentText(QStringLiteral("float16"));
        // A 256 x 160 tile: L0C 160 KB, over A2/A3's 128 KB, shown as refused.
        w.document()->addLayout({"big", "T.Layout([256, 160], lambda i, j: (i, j))", {}, {}});
        t = p->ascendFootprintLabel()->text();
        QVERIFY2(t.contains(QStringLiteral("«big»")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("L0C needs 160 KB, the chip has 128 KB")),
                 qPrintable(t));
        // On the 950 (L0C 256 KB) only L0A is over (80 KB of 64 KB).
        p->setAscendChip(QStringLiteral("950"));
        t = p->ascendFootprintLabel()->text();
        QVERIFY2(t.contains(QStringLiteral("L0C 160 KB of 256 KB")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("L0A needs 80 KB, the chip has 64 KB")), qPrintable(t));
        p->setAscendChip(QStringLiteral("a2a3"));
        // Run refuses it before looking for CANN, with the numbers.
        QSignalSpy failed(c, &RunController::failed);
        p->runButton()->click();
        QTRY_VERIFY(!failed.isEmpty());
        const QString msg = failed.last().at(0).toString();
        QVERIFY2(msg.contains(QStringLiteral("L0C needs 160 KB, the chip has 128 KB")),
                 qPrintable(msg));
        QVERIFY(!msg.contains(QStringLiteral("Cannot run on Ascend here")));
        // The panel as the user sees it after Run (docs/ascend.md).
        auto* dock = w.findChild<QDockWidget*>(QStringLiteral("runDock"));
        QVERIFY(dock && dock->isVisible());
        w.resize(1100, 760);
        QTest::qWait(100);
        QVERIFY(dock->grab().save(shotDir() + QStringLiteral("/run-ascend-footprint.png")));
    }
};

QTEST_MAIN(TestTraceRunControls)
#include "test_trace_run_controls.moc"
