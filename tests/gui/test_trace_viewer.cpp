// SPDX-License-Identifier: Apache-2.0
// QtTest for the inference-trace viewer (offscreen): real TileLang logs, the conflict diff with
// synchronised views, open-in-editor, live follow of a growing file, a child process with cancel.
#include "trace/trace_viewer.h"

#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "editor/mappingeditor.h"
#include "window/mainwindow.h"

#include "tilescope/notation/mapping.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QListView>
#include <QMainWindow>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QtTest>

using namespace tsw;
using ts::dump::EventKind;

namespace {
QString logPath(const char* name) {
    return QStringLiteral(TILESCOPE_SOURCE_DIR "/tests/data/logs/") + QLatin1String(name);
}
QString outDir() {
    QString d = qEnvironmentVariable("TILESCOPE_TEST_OUT");
    if (d.isEmpty()) d = QDir::tempPath() + QStringLiteral("/tilescope-test-out");
    QDir().mkpath(d);
    return d;
}
bool waitFinished(TraceViewer& v, int ms = 20000) {
    QSignalSpy spy(&v, &TraceViewer::importFinished);
    if (!v.busy()) return true;
    return spy.wait(ms);
}
} // namespace

class TestTraceViewer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }
    void listsEventsOfARealLog();
    void conflictShowsAlignedDiff();
    void parallelConflictCounts();
    void conflictTogglesLayoutsAndDifferences();
    void openInEditorGivesMappingText();
    void followsAGrowingFile();
    void runsAChildProcessAndCancels();
    void bigLogDoesNotBlockTheUi();
    void screenshotOfConflict();
    void logWithoutEventsSaysSo();
    void selectionShowsTheSelectedEvent();
    void diffLegendCountsWhatIsDrawn();
    void equalLayoutsConflictSaysWhy();
    void hoverShowsBothSides();
    void gridsGrowWithThePanel();
    void zoomKeysZoomThePanelsGrids();
    void openInEditorSaysWhatItDid();
};

// The held-out kind of conflict: TileLang prints the loop and the fragment layout identically.
// The sides are labelled by whose layout each is (the fragment is C's, the loop's came from y),
// and the summary says why TileLang raised it anyway.
void TestTraceViewer::equalLayoutsConflictSaysWhy() {
    TraceViewer v;
    v.resize(1400, 800);
    v.show();
    v.openLog(logPath("conflict_parallel_transposed.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::ParallelConflict))));
    ComparisonView* c = v.comparison();
    QCOMPARE(c->diff()->counts.differing(), 0);
    QVERIFY2(c->sideTitle(0).startsWith(QStringLiteral("loop · T.Parallel (from y)")),
             qPrintable(c->sideTitle(0)));
    QVERIFY2(c->sideTitle(1).startsWith(QStringLiteral("fragment · C")),
             qPrintable(c->sideTitle(1)));
    const QString s = c->summaryText();
    QVERIFY2(s.contains(QStringLiteral("No differences")), qPrintable(s));
    QVERIFY2(s.contains(QStringLiteral("yet TileLang raised the conflict")) &&
                 s.contains(QStringLiteral("element of C the loop body accesses")),
             qPrintable(s));
    // A conflict whose layouts differ keeps its plain summary.
    v.openLog(logPath("conflict_parallel_cast.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::ParallelConflict))));
    QVERIFY(!v.comparison()->summaryText().contains(QStringLiteral("yet TileLang raised")));
}

void TestTraceViewer::hoverShowsBothSides() {
    TraceViewer v;
    v.openLog(logPath("conflict_gemm_transpose_A.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::Conflict))));
    ComparisonView* c = v.comparison();
    const auto& d = *c->diff();
    // A cell that differs: both sides' thread and slot, from each side's own model.
    int row = -1, col = -1;
    for (int r = 0; r < int(d.rows) && row < 0; ++r)
        for (int k = 0; k < int(d.cols); ++k)
            if (d.at(r, k) & ts::kDiffThread) {
                row = r;
                col = k;
                break;
            }
    QVERIFY(row >= 0);
    CellInfo a = c->left()->model().info(row, col), b = c->right()->model().info(row, col);
    const QString tip = c->left()->toolTipFor(row, col);
    QCOMPARE(c->right()->toolTipFor(row, col), tip);
    const QString want = QStringLiteral("<b>current</b> T%1 L%2 / <b>previous</b> T%3 L%4")
                             .arg(a.threads.remove(' '), a.slot, b.threads.remove(' '), b.slot);
    QVERIFY2(tip.contains(want), qPrintable(tip + QStringLiteral(" | ") + want));
    QVERIFY2(tip.contains(QStringLiteral("differ: thread")), qPrintable(tip));
}

// Two grids of one shape stay fitted: a larger (floating) panel gives larger grids.
void TestTraceViewer::gridsGrowWithThePanel() {
    TraceViewer v;
    v.resize(1000, 500);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.openLog(logPath("conflict_parallel_transposed.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::ParallelConflict))));
    GridView* l = v.comparison()->left();
    GridView* r = v.comparison()->right();
    QTRY_VERIFY(l->isFitted() && r->isFitted());
    const double small = l->scale();
    // The whole grid is in view at the start (no rows cut off).
    QVERIFY(l->cellArea().contains(l->gridRectOnScreen().adjusted(1, 1, -1, -1)));
    v.resize(1600, 1000);
    QTRY_VERIFY(l->scale() > small * 1.5);
    QTRY_COMPARE(r->scale(), l->scale());
    QVERIFY(l->isFitted() && r->isFitted());
    // A zoom by the user is kept in step and stays.
    l->zoomIn();
    QCOMPARE(r->scale(), l->scale());
    QVERIFY(!r->isFitted());
}

// Ctrl+0 / Ctrl++ / Ctrl+- reach this panel's grids even where a window shortcut has them.
void TestTraceViewer::zoomKeysZoomThePanelsGrids() {
    QMainWindow w;
    auto* zoomMain = new QAction(&w);
    zoomMain->setShortcut(QKeySequence::ZoomIn);
    w.addAction(zoomMain);
    QSignalSpy mainZoomed(zoomMain, &QAction::triggered);
    auto* v = new TraceViewer(&w);
    w.setCentralWidget(v);
    w.resize(1200, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    v->openLog(logPath("conflict_parallel_transposed.log"));
    QVERIFY(waitFinished(*v));
    QVERIFY(v->selectEvent(std::size_t(v->findEvent(EventKind::ParallelConflict))));
    QTRY_VERIFY(v->comparison()->left()->isFitted());
    const double fit = v->comparison()->left()->scale();
    v->list()->setFocus();
    QTest::keyClick(v->list(), Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(mainZoomed.count(), 0);
    QVERIFY(v->comparison()->left()->scale() > fit);
    QCOMPARE(v->comparison()->right()->scale(), v->comparison()->left()->scale());
    QTest::keyClick(v->list(), Qt::Key_0, Qt::ControlModifier);
    QTRY_COMPARE(v->comparison()->left()->scale(), fit);
    QVERIFY(v->comparison()->left()->isFitted());
    QTest::keyClick(v->list(), Qt::Key_Minus, Qt::ControlModifier);
    QVERIFY(v->comparison()->left()->scale() < fit);
}

// Open in Editor in a window: the layout is added and active, the editor shows its text (not a
// builtin's form), and the panel says what happened.
void TestTraceViewer::openInEditorSaysWhatItDid() {
    MainWindow w;
    w.setConfirmOnClose(false);
    w.show();
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("traceDock"));
    QVERIFY(dock);
    dock->toggleViewAction()->trigger();
    auto* v = qobject_cast<TraceViewer*>(dock->widget());
    QVERIFY(v);
    auto* editor = w.findChild<MappingEditor*>();
    QVERIFY(editor);
    editor->tabs()->setCurrentIndex(2); // the Builtin page, as the newcomer had it
    v->openLog(logPath("conflict_gemm_transpose_A.log"));
    QVERIFY(waitFinished(*v));
    QVERIFY(v->selectEvent(std::size_t(v->findEvent(EventKind::Conflict))));
    const int before = w.document()->count();
    QPushButton* open = nullptr;
    for (auto* b : v->comparison()->findChildren<QPushButton*>())
        if (b->text().contains(QStringLiteral("Editor")) && !open) open = b;
    QVERIFY(open);
    open->click();
    QCOMPARE(w.document()->count(), before + 1);
    QCOMPARE(w.document()->active(), before);
    const QString name = QString::fromStdString(w.document()->layout(before).name);
    QCOMPARE(editor->tabs()->currentIndex(), 0);
    QCOMPARE(editor->text(), v->currentMappingText(0));
    QVERIFY2(v->noticeText().contains(QStringLiteral("Added «%1»").arg(name)),
             qPrintable(v->noticeText()));
    // The notice follows the layout it names: renamed, it says the new name; undone, it is gone;
    // and after File > New it does not tell of a layout the new project lacks.
    w.document()->rename(before, QStringLiteral("acc from the trace"));
    QVERIFY2(v->noticeText().contains(QStringLiteral("Added «acc from the trace»")),
             qPrintable(v->noticeText()));
    w.document()->undoStack()->undo(); // the rename
    QVERIFY2(v->noticeText().contains(QStringLiteral("Added «%1»").arg(name)),
             qPrintable(v->noticeText()));
    w.document()->undoStack()->undo(); // the add
    QCOMPARE(w.document()->count(), before);
    QVERIFY2(v->noticeText().isEmpty(), qPrintable(v->noticeText()));
    open->click();
    QVERIFY(!v->noticeText().isEmpty());
    w.document()->newDocument();
    QVERIFY2(v->noticeText().isEmpty(), qPrintable(v->noticeText()));
    open->click();
    QVERIFY(!v->noticeText().isEmpty());
    // Another event: the notice was about the previous one.
    QVERIFY(v->selectEvent(std::size_t(v->findEvent(EventKind::Error))));
    QVERIFY(v->noticeText().isEmpty());
}

void TestTraceViewer::listsEventsOfARealLog() {
    TraceViewer v;
    v.resize(1200, 700);
    v.openLog(logPath("flash_attn_fwd.log"));
    QVERIFY(waitFinished(v));
    QCOMPARE(v.model()->eventCount(), 8);
    QCOMPARE(v.model()->rowCount(), 8);
    // The first event is selected and shown as a grid.
    QCOMPARE(v.pages()->currentIndex(), 1);
    QCOMPARE(v.singleView()->model().rows(), 64);
    QVERIFY(v.currentMappingText().startsWith(QStringLiteral("T.Fragment([64, 64]")));
    QVERIFY(
        v.model()->data(v.model()->index(3), Qt::DisplayRole).toString().contains("scores_max"));
    QVERIFY(v.statusText().contains(QStringLiteral("8 events")));
}

void TestTraceViewer::conflictShowsAlignedDiff() {
    TraceViewer v;
    v.resize(1400, 800);
    v.show();
    v.openLog(logPath("conflict_gemm_transpose_A.log"));
    QVERIFY(waitFinished(v));
    // Repeats hidden: one conflict + one error.
    QCOMPARE(v.model()->rowCount(), 2);
    QCOMPARE(v.model()->eventCount(), 3);
    QCOMPARE(v.pages()->currentIndex(), 2); // the conflict was auto-selected
    ComparisonView* c = v.comparison();
    QVERIFY(c->diff().has_value());
    QCOMPARE(c->diff()->counts.cells, 4096);
    QVERIFY(c->countsText().contains(QStringLiteral("thread")));
    QVERIFY(c->summaryText().contains(QStringLiteral("transposed")));
    QCOMPARE(v.currentLayoutName(0), QStringLiteral("A_frag current · conflict, line 2"));
    QCOMPARE(v.currentLayoutName(1), QStringLiteral("A_frag previous · conflict, line 3"));
    QCoreApplication::processEvents();
    // Synchronised zoom/pan.
    c->left()->zoomBy(2.0, QPointF(100, 100));
    QCOMPARE(c->right()->scale(), c->left()->scale());
    QCOMPARE(c->right()->pan(), c->left()->pan());
    c->right()->zoomBy(0.5, QPointF(50, 50));
    QCOMPARE(c->left()->scale(), c->right()->scale());
    // Synchronised hover.
    QSignalSpy hov(c->left(), &GridView::cellHovered);
    emit c->left()->cellHovered(3, 5);
    QCOMPARE(c->right()->hoveredCell(), std::optional<QPoint>(QPoint(5, 3)));
    // Showing repeats lists the second occurrence too.
    v.model()->setHideRepeats(false);
    QCOMPARE(v.model()->rowCount(), 3);
}

void TestTraceViewer::parallelConflictCounts() {
    TraceViewer v;
    v.openLog(logPath("conflict_parallel_cast.log"));
    QVERIFY(waitFinished(v));
    int idx = v.findEvent(EventKind::ParallelConflict);
    QVERIFY(idx >= 0);
    QVERIFY(v.selectEvent(std::size_t(idx)));
    QCOMPARE(v.pages()->currentIndex(), 2);
    const auto& d = *v.comparison()->diff();
    QCOMPARE(d.counts.replica, 512);
    QVERIFY(v.comparison()->summaryText().contains(QStringLiteral("replicated vs not")));
    // The conflict names the exception that raised it; the exception is shown as itself, with
    // the grids of the conflict it reports.
    QVERIFY2(v.contextLine().contains(QStringLiteral("raised as")), qPrintable(v.contextLine()));
    int err = v.findEvent(EventKind::Error);
    QVERIFY(v.selectEvent(std::size_t(err)));
    QCOMPARE(v.pages()->currentIndex(), 2);
    QVERIFY2(v.contextLine().startsWith(QStringLiteral("<b>error</b>")) &&
                 v.contextLine().contains(QStringLiteral("reports the T.Parallel conflict")),
             qPrintable(v.contextLine()));
}

// When most cells differ the differences would paint both grids one colour: the pair opens on
// "layouts" (each in its own thread colours), with the count in view; "differences" colours the
// differing cells by kind and fades the agreeing ones; a kind that does not occur is a grey chip.
void TestTraceViewer::conflictTogglesLayoutsAndDifferences() {
    TraceViewer v;
    v.resize(1400, 800);
    v.show();
    v.openLog(logPath("conflict_gemm_transpose_A.log"));
    QVERIFY(waitFinished(v));
    ComparisonView* c = v.comparison();
    QCOMPARE(c->diff()->counts.differing(), 4032);
    QCOMPARE(c->mode(), ComparisonView::Mode::Layouts);
    QVERIFY(c->countsText().contains(QStringLiteral("4032 of 4096 cells differ")));
    QVERIFY(c->countsText().contains(QStringLiteral("showing the layouts")));
    QVERIFY(c->layoutsButton()->isChecked() && !c->differencesButton()->isChecked());
    // Layouts: the model's own colours, on both sides.
    for (GridView* g : {c->left(), c->right()})
        for (int r : {0, 5, 33})
            QCOMPARE(g->renderer().effectiveColor(r, 7), g->model().color(r, 7));
    // Differences: a differing cell takes its kind's colour; an agreeing one (the diagonal of a
    // transpose) keeps a faded version of its own.
    c->differencesButton()->click();
    QCOMPARE(c->mode(), ComparisonView::Mode::Differences);
    QVERIFY(c->countsText().contains(QStringLiteral("showing the differences")));
    const std::uint8_t bits = c->diff()->at(0, 7);
    QVERIFY(bits & ts::kDiffThread);
    QCOMPARE(c->left()->renderer().effectiveColor(0, 7),
             DiffColorOverlay::kindColor(bits).lighter(125).rgb());
    QCOMPARE(c->diff()->at(9, 9), std::uint8_t(0));
    const QRgb own = c->left()->model().color(9, 9);
    const QRgb shown = c->left()->renderer().effectiveColor(9, 9);
    QVERIFY(shown != own);
    QVERIFY(qGray(shown) > qGray(own)); // faded towards white
    // The legend names the kinds present with their counts.
    bool named = false;
    for (const LegendEntry& e : c->left()->renderer().legendEntries())
        named = named || e.text == QStringLiteral("thread differs (3840)");
    QVERIFY(named);
    c->layoutsButton()->click();
    QCOMPARE(c->left()->renderer().effectiveColor(0, 7), c->left()->model().color(0, 7));
    // Counts: thread 3840 is a red chip, replica count 0 a grey one.
    const QString counts = c->countsText();
    QVERIFY(counts.contains(DiffColorOverlay::kindColor(ts::kDiffThread).name() +
                            QStringLiteral(";color:white'>&nbsp;thread")));
    QVERIFY(counts.contains(QStringLiteral("#c4c8ce;color:white'>&nbsp;replica count")));
    // No thread differences: a grey "thread 0" chip, not an alarm.
    v.openLog(logPath("conflict_parallel_cast.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::ParallelConflict))));
    QCOMPARE(c->diff()->counts.thread, 0);
    QVERIFY(c->countsText().contains(QStringLiteral("#c4c8ce;color:white'>&nbsp;thread")));
    // Few differences (the last row's threads shifted): the pair opens on "differences".
    const ts::Mapping a =
        ts::parseMapping("T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, "
                         "forward_index_fn=lambda i, j: j % 2)");
    const ts::Mapping b = ts::parseMapping(
        "T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2 + i // 7, "
        "forward_index_fn=lambda i, j: j % 2)");
    c->setLayouts(a, QStringLiteral("a"), {}, b, QStringLiteral("b"), {});
    QCOMPARE(c->diff()->counts.differing(), 8);
    QCOMPARE(c->mode(), ComparisonView::Mode::Differences);
    QVERIFY(c->differencesButton()->isChecked());
}

void TestTraceViewer::openInEditorGivesMappingText() {
    TraceViewer v;
    v.openLog(logPath("conflict_parallel_cast.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::ParallelConflict))));
    QSignalSpy spy(&v, &TraceViewer::openInEditor);
    for (auto* b : v.comparison()->findChildren<QPushButton*>())
        if (b->text().contains(QStringLiteral("Editor"))) b->click();
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(0).at(0).toString(),
             QStringLiteral("T.Parallel loop from acc_s_cast · T.Parallel conflict, line 41"));
    QVERIFY(spy.at(1).at(1).toString().startsWith(QStringLiteral("T.Fragment([16, 32]")));
}

void TestTraceViewer::followsAGrowingFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("grow.log"));
    QFile src(logPath("softmax_rows.log"));
    QVERIFY(src.open(QIODevice::ReadOnly));
    const QByteArray all = src.readAll();
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(all.left(all.indexOf("row_sum")));
    f.flush();
    TraceViewer v;
    v.openLog(path, true);
    QTRY_COMPARE_WITH_TIMEOUT(v.model()->eventCount(), 1, 5000);
    QVERIFY(v.busy());
    f.write(all.mid(all.indexOf("row_sum")));
    f.flush();
    QTRY_COMPARE_WITH_TIMEOUT(v.model()->eventCount(), 3, 5000);
    QVERIFY(v.statusText().contains(QStringLiteral("following")));
    v.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!v.busy(), 5000);
}

void TestTraceViewer::runsAChildProcessAndCancels() {
    TraceViewer v;
    // A child that prints a real log (argument list, no shell).
    v.importer()->runProcess(QStringLiteral("/bin/cat"), {logPath("elementwise_add.log")});
    QVERIFY(waitFinished(v));
    QCOMPARE(v.model()->eventCount(), 3);
    // A child that never ends: cancel kills it.
    QSignalSpy fin(&v, &TraceViewer::importFinished);
    v.importer()->runProcess(QStringLiteral("/bin/sleep"), {QStringLiteral("60")});
    QTest::qWait(200);
    QVERIFY(v.busy());
    QElapsedTimer t;
    t.start();
    v.cancel();
    QVERIFY(fin.wait(5000));
    QCOMPARE(fin.at(0).at(0).toBool(), true);
    QVERIFY(t.elapsed() < 5000);
    // A child that hangs past the timeout is killed and reported as timed out.
    QSignalSpy fin3(&v, &TraceViewer::importFinished);
    v.importer()->setProcessTimeout(1);
    t.restart();
    v.importer()->runProcess(QStringLiteral("/bin/sleep"), {QStringLiteral("60")});
    QVERIFY(fin3.wait(10000));
    QCOMPARE(fin3.at(0).at(0).toBool(), false);
    QVERIFY2(fin3.at(0).at(1).toString().contains(QStringLiteral("did not finish within 1 s")),
             qPrintable(fin3.at(0).at(1).toString()));
    QVERIFY(t.elapsed() < 10000);
    // A program that does not exist is an error, not a crash.
    QSignalSpy fin2(&v, &TraceViewer::importFinished);
    v.importer()->runProcess(QStringLiteral("/nonexistent/python"), {});
    QVERIFY(fin2.wait(5000));
    QVERIFY(fin2.at(0).at(1).toString().contains(QStringLiteral("cannot start")));
}

void TestTraceViewer::bigLogDoesNotBlockTheUi() {
    // ~20 MB made of real log text; the UI thread keeps handling timers while it imports.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.log"));
    QFile src(logPath("flash_attn_fwd.log"));
    QVERIFY(src.open(QIODevice::ReadOnly));
    const QByteArray one = src.readAll();
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (qint64 n = 0; n < (20 << 20); n += one.size())
        f.write(one);
    f.close();
    TraceViewer v;
    int ticks = 0;
    qint64 worstGap = 0;
    QElapsedTimer gap;
    QTimer timer;
    timer.setInterval(10);
    QObject::connect(&timer, &QTimer::timeout, [&] {
        if (gap.isValid()) worstGap = std::max(worstGap, gap.elapsed());
        gap.restart();
        ++ticks;
    });
    timer.start();
    QElapsedTimer total;
    total.start();
    v.openLog(path);
    QVERIFY(waitFinished(v, 120000));
    qInfo("20 MB log: %lld ms, %d events, worst UI gap %lld ms", total.elapsed(),
          v.model()->eventCount(), worstGap);
    QVERIFY(v.model()->eventCount() > 100000);
    QVERIFY(ticks > 3);
    QVERIFY(worstGap < 1000);
}

void TestTraceViewer::screenshotOfConflict() {
    TraceViewer v;
    v.resize(1800, 900);
    v.show();
    v.openLog(logPath("conflict_parallel_cast.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::ParallelConflict))));
    QTest::qWait(100);
    // Zoom (both views follow) to where the T/L labels are legible, grid corner at the top left.
    GridView* left = v.comparison()->left();
    left->zoomBy(1.3 / left->scale(), QPointF(0, 0));
    QCOMPARE(v.comparison()->right()->scale(), left->scale());
    const double s = left->scale();
    const QPointF origin = left->cellArea().topLeft(); // the grid's first cell at the top left
    for (GridView* g : {left, v.comparison()->right()})
        g->setViewTransform(s, origin);
    QTest::qWait(100);
    QImage img = v.grab().toImage();
    QVERIFY(!img.isNull());
    QVERIFY(img.save(outDir() + QStringLiteral("/trace-conflict.png")));
    const QString shot = qEnvironmentVariable("TILESCOPE_SCREENSHOT_DIR");
    if (!shot.isEmpty()) QVERIFY(img.save(shot + QStringLiteral("/trace-conflict.png")));
}

// Everything in the viewer belongs to the open log: a log without layout events replaces the
// previous log's header, grids and texts with a line saying there are none in it.
void TestTraceViewer::logWithoutEventsSaysSo() {
    TraceViewer v;
    v.resize(1200, 700);
    v.show();
    QVERIFY(v.emptyText().startsWith(QStringLiteral("Open a TileLang log")));
    QCOMPARE(qobject_cast<QLabel*>(v.pages()->currentWidget())->text(), v.emptyText());
    v.openLog(logPath("flash_attn_fwd.log"));
    QVERIFY(waitFinished(v));
    QCOMPARE(v.pages()->currentIndex(), 1);
    QVERIFY(!v.contextLine().isEmpty());
    QVERIFY(!v.singleView()->model().isEmpty());
    QTemporaryDir dir;
    const QString plain = dir.filePath(QStringLiteral("plain.txt"));
    {
        QFile f(plain);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("hello\nworld\n");
    }
    v.openLog(plain);
    QVERIFY(waitFinished(v));
    QCOMPARE(v.model()->eventCount(), 0);
    QCOMPARE(v.pages()->currentIndex(), 0);
    QVERIFY2(v.contextLine().isEmpty(), qPrintable(v.contextLine()));
    QVERIFY(v.currentMappingText().isEmpty());
    QVERIFY(v.singleView()->model().isEmpty());
    QVERIFY(!v.comparison()->diff().has_value());
    QCOMPARE(v.emptyText(), QStringLiteral("No layout events in 2 lines of plain.txt."));
    const auto* label = qobject_cast<QLabel*>(v.pages()->currentWidget());
    QVERIFY(label);
    QCOMPARE(label->text(), v.emptyText());
    QVERIFY(v.statusText().contains(QStringLiteral("0 events")));
}

// Selecting an event always shows that event: the exception at line 51 of the transposed-gemm
// log is shown as that exception (with the grids of the conflict its message reports, at its
// own lines), not as the first report of the conflict at lines 1–4; showing repeats keeps the
// selected event shown.
void TestTraceViewer::selectionShowsTheSelectedEvent() {
    TraceViewer v;
    v.resize(1400, 800);
    v.show();
    v.openLog(logPath("conflict_gemm_transpose_A.log"));
    QVERIFY(waitFinished(v));
    QVERIFY2(v.contextLine().startsWith(QStringLiteral("<b>conflict</b>")),
             qPrintable(v.contextLine()));
    v.model()->setHideRepeats(false);
    QCOMPARE(v.model()->rowCount(), 3);
    // The conflict stays selected and shown across the rebuilt list.
    QVERIFY(v.list()->currentIndex().isValid());
    QCOMPARE(v.model()->event(v.list()->currentIndex().row()).kind, EventKind::Conflict);
    QVERIFY(v.contextLine().contains(QStringLiteral("lines 1–4")));
    const int err = v.findEvent(EventKind::Error);
    QVERIFY(v.selectEvent(std::size_t(err)));
    const auto& e = v.model()->event(v.list()->currentIndex().row());
    QCOMPARE(e.kind, EventKind::Error);
    QVERIFY2(v.contextLine().startsWith(QStringLiteral("<b>error</b>")),
             qPrintable(v.contextLine()));
    QVERIFY2(v.contextLine().contains(QStringLiteral("line %1").arg(e.line)),
             qPrintable(v.contextLine()));
    QVERIFY2(!v.contextLine().contains(QStringLiteral("lines 1–4")), qPrintable(v.contextLine()));
    QVERIFY2(v.contextLine().contains(QStringLiteral("first reported at line 1")),
             qPrintable(v.contextLine()));
    QCOMPARE(v.pages()->currentIndex(), 2);
    QCOMPARE(v.currentLayoutName(0),
             QStringLiteral("A_frag current · conflict, line %1").arg(e.line + 1));
    // Hiding repeats again: the error is still listed and stays shown.
    v.model()->setHideRepeats(true);
    QVERIFY(v.list()->currentIndex().isValid());
    QCOMPARE(v.model()->event(v.list()->currentIndex().row()).kind, EventKind::Error);
    QVERIFY(v.contextLine().startsWith(QStringLiteral("<b>error</b>")));
    // Moving to the conflict shows the conflict.
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::Conflict))));
    QVERIFY(v.contextLine().startsWith(QStringLiteral("<b>conflict</b>")));
    QCOMPARE(v.currentLayoutName(0), QStringLiteral("A_frag current · conflict, line 2"));
}

// Each swatch of the differences legend counts the cells drawn in its colour: in the reduce
// conflict most replica-count cells also differ in thread and are drawn red, so "replica count
// differs" must not claim all of them.
void TestTraceViewer::diffLegendCountsWhatIsDrawn() {
    TraceViewer v;
    v.resize(1400, 800);
    v.show();
    v.openLog(logPath("conflict_reduce.log"));
    QVERIFY(waitFinished(v));
    QVERIFY(v.selectEvent(std::size_t(v.findEvent(EventKind::ReduceConflict))));
    ComparisonView* c = v.comparison();
    QVERIFY(c->diff().has_value());
    c->setMode(ComparisonView::Mode::Differences);
    const ts::LayoutDiff& d = *c->diff();
    DiffColorOverlay overlay(d, c->left()->model());
    QHash<QRgb, qint64> drawn;
    for (qint64 r = 0; r < d.rows; ++r)
        for (qint64 k = 0; k < d.cols; ++k)
            if (d.at(r, k)) ++drawn[*overlay.cellColor(int(r), int(k))];
    int checked = 0;
    for (const LegendEntry& e : overlay.legend()) {
        if (e.text.startsWith(QStringLiteral("same"))) continue;
        const QString n = e.text.section(QLatin1Char('('), 1)
                              .section(QRegularExpression(QStringLiteral("[ )]")), 0, 0);
        QCOMPARE(n.toLongLong(), drawn.value((e.color | 0xff000000u)));
        ++checked;
    }
    QVERIFY(checked >= 2);
}

QTEST_MAIN(TestTraceViewer)
#include "test_trace_viewer.moc"
