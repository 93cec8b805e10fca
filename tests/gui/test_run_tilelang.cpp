// SPDX-License-Identifier: Apache-2.0
// The TileLang path of Run, offscreen through the main window: the generated script
// is lowered by the real TileLang 0.1.15 (.venv) with the layout-visualization pass on, its
// inferred layouts are streamed into the trace viewer, and the run lands in the history.
// Skips with the reason when the venv is absent (CI has none).
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "run/run_controller.h"
#include "run/run_panel.h"
#include "trace/trace_viewer.h"
#include "window/mainwindow.h"

#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace tsw;

class TestRunTileLang : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void lowersAndStreamsInferredLayoutsToTheTraceViewer() {
        const QString py = QStringLiteral(TILESCOPE_SOURCE_DIR "/.venv/bin/python");
        QVERIFY2(QFileInfo(py).isExecutable(), "built only when CMake found the TileLang venv");
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(MainWindow::samplesDirectory() +
                           QStringLiteral("/swizzles.tilescope.json")));
        int idx = -1;
        for (int i = 0; i < w.document()->count(); ++i)
            if (w.document()->layout(i).name == "full-bank 128B, 32x64 fp16") idx = i;
        QVERIFY(idx >= 0);
        w.document()->setActive(idx);
        RunController* c = runControllerOf(&w);
        RunPanel* p = runPanelOf(&w);
        QVERIFY(c && p);
        c->settings().python = py;
        p->setTarget(RunTarget::TileLang);
        QSignalSpy finished(c, &RunController::finished);
        QSignalSpy failed(c, &RunController::failed);
        p->runButton()->click();
        QVERIFY(c->isRunning());
        QCOMPARE(c->arguments().size(), 2); // -u <script in the private dir>
        QVERIFY(c->arguments().at(1).contains(QStringLiteral("tilescope-run-")));
        QVERIFY(finished.wait(400000));
        QVERIFY2(failed.isEmpty(), failed.isEmpty()
                                       ? ""
                                       : qPrintable(failed.first().at(0).toString() + "\n" +
                                                    failed.first().at(1).toString()));
        const RunRecord r = finished.first().at(0).value<RunRecord>();
        QVERIFY(r.ok);
        QVERIFY2(r.verdict.startsWith(QStringLiteral("lowered")), qPrintable(r.verdict));
        // The trace viewer received TileLang's own log: the inferred fragment of A_frag.
        TraceViewer* tv = w.findChild<TraceViewer*>();
        QVERIFY(tv);
        QTRY_VERIFY_WITH_TIMEOUT(!tv->busy(), 20000);
        bool found = false;
        for (const auto& e : tv->model()->all())
            if (e.kind == ts::dump::EventKind::Inferred && e.buffer == "A_frag" && e.ok())
                found = true;
        QVERIFY2(found, qPrintable(c->lastLog()));
        QVERIFY(c->lastLog().contains(QStringLiteral("Thread: _i % 16 * 8 + _j // 8")));
    }
};

QTEST_MAIN(TestRunTileLang)
#include "test_run_tilelang.moc"
