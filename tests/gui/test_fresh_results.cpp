// SPDX-License-Identifier: Apache-2.0
// A number on screen is either current or absent, and the window never freezes:
//  - ResultState refuses results of older inputs, marks views stale, hides them under an error;
//  - the bank panel shows no wavefront count next to an error, analyses the active layout with an
//    access that fits it (every shipped T.Layout) and says which layout it analyses;
//  - the status bar and the details pane follow the evaluation (error, switch of layout or
//    project); the error never describes older text than the editor shows;
//  - evaluation runs off the UI thread: the editor takes keystrokes while a huge builtin
//    evaluates, superseded results are dropped, an edit in a comment is not evaluated again;
//  - export runs off the UI thread with a progress dialog and Cancel, and a cancelled export
//    leaves no file.
#include "test_gui_common.h"

#include "banks/bank_docks.h"
#include "banks/bank_panel.h"
#include "banks/bank_ub_panel.h"
#include "banks/fractal_panel.h"
#include "banks/raster_panel.h"
#include "banks/swizzle_panel.h"
#include "common/result_state.h"
#include "document/documentmodel.h"
#include "editor/evaluator.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "run/run_panel.h"
#include "window/detailspane.h"
#include "window/mainwindow.h"

#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"

#include <QAction>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QProgressDialog>
#include <QPushButton>
#include <QTableWidget>
#include <QtTest>

using namespace tsw;

namespace {

// Ticks of the UI thread's event loop: how often it ran and its longest gap.
class LoopProbe : public QObject {
public:
    explicit LoopProbe(int intervalMs = 10) {
        timer_.setInterval(intervalMs);
        connect(&timer_, &QTimer::timeout, this, [this] {
            const qint64 now = clock_.elapsed();
            maxGap_ = std::max(maxGap_, now - last_);
            last_ = now;
            ++ticks_;
        });
        clock_.start();
        timer_.start();
    }
    int ticks() const { return ticks_; }
    qint64 maxGapMs() const { return maxGap_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0, maxGap_ = 0;
    int ticks_ = 0;
};

QString out(const QString& name) {
    return guiTestDir().path() + QLatin1Char('/') + name;
}

int layoutIndex(const DocumentModel* d, const QString& name) {
    for (int i = 0; i < d->count(); ++i)
        if (QString::fromStdString(d->layout(i).name) == name) return i;
    return -1;
}

const QString kHuge = QStringLiteral("make_fully_replicated_fragment((1024, 1024), 32)");

// The project a user sees on launch (the app opens this sample).
bool openDefaultSample(MainWindow& w) {
    return w.openFile(QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"));
}

} // namespace

class TestFreshResults : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    // ---------------------------------------------------------------- the mechanism

    void resultStateBindsViewsToTheirInput() {
        QWidget host;
        auto* view = new QLabel(QStringLiteral("42 wavefronts"), &host);
        auto* marker = new QLabel(&host);
        ResultState st;
        st.setMarker(marker);
        st.addView(view);
        st.setStaleDelayMs(30);
        host.show();
        const quint64 g1 = st.invalidate();
        QCOMPARE(st.state(), ResultState::State::Pending);
        QVERIFY(!st.dimmed()); // within the grace: no flash
        const quint64 g2 = st.invalidate();
        QVERIFY(g2 > g1);
        QVERIFY(!st.publish(g1)); // a late result of older input is refused
        QCOMPARE(st.state(), ResultState::State::Pending);
        QTRY_COMPARE(st.state(), ResultState::State::Stale);
        QVERIFY(st.dimmed());
        QVERIFY(!marker->isHidden());
        QVERIFY(marker->text().contains(QStringLiteral("updating")));
        QVERIFY(st.fail(g2, QStringLiteral("lane 8 is outside")));
        QVERIFY(view->isHidden()); // no number under an error
        QVERIFY(marker->text().contains(QStringLiteral("lane 8 is outside")));
        const quint64 g3 = st.invalidate();
        QVERIFY(st.publish(g3));
        QCOMPARE(st.state(), ResultState::State::Current);
        QVERIFY(!view->isHidden());
        QVERIFY(!st.dimmed());
        QVERIFY(marker->isHidden());
    }

    // ---------------------------------------------------------------- bank panel

    void bankPanelShowsNoWavefrontsUnderAnError() {
        BankPanel p;
        p.show();
        p.setLayoutText(QStringLiteral("make_full_bank_swizzled_layout((8, 64), \"float16\")"));
        p.setAccessText(QStringLiteral("ldmatrix:x4")); // needs 16 rows: fails on 8
        QVERIFY(!p.analyze());
        QVERIFY(p.errorText().contains(QStringLiteral("outside the layout's domain")));
        QCOMPARE(p.resultState()->state(), ResultState::State::Error);
        QVERIFY(p.totalsText().isEmpty());
        QVERIFY(!p.cost());
        QCOMPARE(p.instructionCount(), 0);
        QVERIFY(p.grid()->model().isEmpty()); // the 16x64 heat grid of the default is gone
        auto* totals = p.findChild<QLabel*>(QStringLiteral("bankTotals"));
        QVERIFY(totals);
        QVERIFY(!totals->isVisible());
        QVERIFY(!p.grid()->isVisible());
        QVERIFY(p.resultState()->markerText().contains(QStringLiteral("outside")));
        // Back to an access that fits: numbers again, no error.
        p.setAutoAccess(true);
        QVERIFY(p.analyze());
        QCOMPARE(p.accessText(), QStringLiteral("ldmatrix:x1"));
        QVERIFY(totals->isVisible());
        QVERIFY(p.resultState()->markerText().isEmpty());
        QCOMPARE(p.cost()->wavefronts, p.cost()->ideal); // the swizzle is conflict-free
    }

    void bankDefaultAccessFitsEveryShippedLayout() {
        BankPanel p;
        int analysed = 0;
        const QDir dir(QStringLiteral(TILESCOPE_SOURCE_DIR "/samples"));
        DocumentModel doc;
        p.setDocument(&doc);
        for (const QString& f : dir.entryList({QStringLiteral("*.tilescope.json")})) {
            QString error;
            QVERIFY2(doc.load(dir.filePath(f), &error), qPrintable(error));
            for (int i = 0; i < doc.count(); ++i) {
                const ts::DocLayout& l = doc.layout(i);
                const QString text = QString::fromStdString(l.text);
                const QString name = QString::fromStdString(l.name);
                const ts::Mapping m = ts::parseMapping(l.text);
                if (!std::holds_alternative<ts::Layout>(m)) continue;
                p.setSourceLayout(doc.idAt(i), text);
                QVERIFY2(p.analyze(), qPrintable(name + QStringLiteral(": ") + p.errorText()));
                QVERIFY(p.autoAccess());
                QVERIFY(p.cost()->wavefronts > 0);
                QVERIFY2(p.sourceText().contains(QStringLiteral("«%1»").arg(name.toHtmlEscaped())),
                         qPrintable(p.sourceText()));
                QVERIFY(p.sourceText().contains(p.accessText().toHtmlEscaped()));
                ++analysed;
            }
        }
        QVERIFY(analysed >= 15);
    }

    void bankPanelTakesTheDtypeTheLayoutNames() {
        BankPanel p;
        p.setDtype(QStringLiteral("float32"));
        p.setLayoutText(QStringLiteral("make_full_bank_swizzled_layout((32, 64), \"float16\")"));
        QVERIFY(p.analyze());
        QCOMPARE(p.dtype(), QStringLiteral("float16"));
        QCOMPARE(p.accessText(), QStringLiteral("ldmatrix:x4"));
        QCOMPARE(p.cost()->wavefronts, 4);
    }

    void bankPanelFollowsTheActiveLayoutAndSaysWhich() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openDefaultSample(w));
        auto* bank = w.findChild<BankPanel*>();
        QVERIFY(bank);
        const int swz = layoutIndex(w.document(), QStringLiteral("full-bank swizzle 8x64 fp16"));
        QVERIFY(swz >= 0);
        w.document()->setActive(swz);
        QTRY_VERIFY(bank->sourceText().contains(QStringLiteral("«full-bank swizzle 8x64 fp16»")));
        QTRY_VERIFY(!bank->analysisPending());
        QVERIFY2(bank->errorText().isEmpty(), qPrintable(bank->errorText()));
        QVERIFY(bank->sourceText().contains(QStringLiteral("8 x 64")));
        QCOMPARE(bank->accessText(), QStringLiteral("ldmatrix:x1"));
        QVERIFY(bank->cost());
        // A fragment becomes active: the panel says it still shows the swizzle, and why.
        w.document()->setActive(0);
        QTRY_VERIFY(bank->noteText().contains(QStringLiteral("T.Fragment")));
        QVERIFY(bank->noteText().contains(QStringLiteral("gemm 8x8 fragment")));
        QVERIFY(bank->sourceText().contains(QStringLiteral("«full-bank swizzle 8x64 fp16»")));
    }

    void otherPanelsHideResultsUnderAnError() {
        RasterPanel r;
        r.setGrid(8, 8, 2, QStringLiteral("row"), 8, 1);
        QCOMPARE(r.resultState()->state(), ResultState::State::Current);
        r.setGrid(8, 8, 3, QStringLiteral("mlx"), 8, 1); // mlx needs a power of two
        QCOMPARE(r.resultState()->state(), ResultState::State::Error);
        QVERIFY(r.wavesText().isEmpty());
        QVERIFY(r.plainView()->model().isEmpty());

        UbPanel u;
        u.setBlocksText(QStringLiteral("0x0\n0x200\n"));
        QVERIFY(u.analyze());
        u.setBlocksText(QStringLiteral("zzz"));
        QVERIFY(!u.analyze());
        QVERIFY(u.resultText().isEmpty()); // no cycle count next to the error
        QCOMPARE(u.resultState()->state(), ResultState::State::Error);

        FractalPanel f;
        f.setTile(20, 20, QStringLiteral("float16"), QStringLiteral("zN"));
        QCOMPARE(f.resultState()->state(), ResultState::State::Current);
        QVERIFY(f.footprintText().contains(QStringLiteral("Footprint")));

        // The swizzle search describes the tile it ran for: a new tile marks it at once.
        SwizzlePanel s;
        QVERIFY(s.runSearch());
        QCOMPARE(s.searchState()->state(), ResultState::State::Current);
        s.setTile(16, 64, QStringLiteral("float16"));
        QCOMPARE(s.searchState()->state(), ResultState::State::Stale);
        QVERIFY(s.searchState()->markerText().contains(QStringLiteral("press Search")));
        QVERIFY(s.runSearch());
        QCOMPARE(s.searchState()->state(), ResultState::State::Current);
    }

    void runStatusIsMarkedWhenTheInputChanges() {
        MainWindow w;
        w.setConfirmOnClose(false);
        RunPanel* panel = runPanelOf(&w);
        RunController* ctl = runControllerOf(&w);
        QVERIFY(panel && ctl);
        panel->setRunInput(w.document()->idAt(0), QStringLiteral("with ldmatrix:x4 (float16)"));
        emit ctl->failed(QStringLiteral("No CUDA driver or GPU on this machine"), {});
        QCOMPARE(panel->resultState()->state(), ResultState::State::Current);
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QCOMPARE(panel->resultState()->state(), ResultState::State::Stale);
        QVERIFY(panel->resultState()->markerText().contains(QStringLiteral("gemm 8x8 fragment")));
        // The mark names the layout as it is called now.
        w.document()->rename(0, QStringLiteral("smem A tile"));
        QVERIFY2(panel->resultState()->markerText().contains(QStringLiteral("«smem A tile» with")),
                 qPrintable(panel->resultState()->markerText()));
        QVERIFY(!panel->resultState()->markerText().contains(QStringLiteral("gemm 8x8")));
    }

    // Run on a layout the default access does not fit (8 rows): the run fits it, as the bank
    // panel does, instead of failing on "lane 8 outside the domain".
    void runFitsTheAccessToTheLayout() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(openDefaultSample(w));
        RunPanel* panel = runPanelOf(&w);
        RunController* ctl = runControllerOf(&w);
        QVERIFY(panel && ctl);
        // A project just opened, its active layout a fragment: no access was fitted to any of
        // its layouts yet, and the field says when one will be.
        QCOMPARE(panel->access(), QString());
        QCOMPARE(panel->accessEdit()->placeholderText(),
                 QStringLiteral("fitted to the layout when it runs"));
        QVERIFY(panel->fitAccess());
        w.document()->setActive(
            layoutIndex(w.document(), QStringLiteral("full-bank swizzle 8x64 fp16")));
        auto* run = w.findChild<QAction*>(QStringLiteral("runAction"));
        QVERIFY(run);
        run->trigger();
        QCOMPARE(panel->access(), QStringLiteral("ldmatrix:x1"));
        QVERIFY(!panel->statusText().contains(QStringLiteral("outside")));
        ctl->cancel();
        QTRY_VERIFY_WITH_TIMEOUT(!ctl->isRunning(), 30000);
        QVERIFY2(!panel->statusText().contains(QStringLiteral("outside")),
                 qPrintable(panel->statusText()));
        // An access the user types is kept.
        panel->setAccess(QStringLiteral("ldmatrix:x4"));
        QVERIFY(!panel->fitAccess());
    }

    // ---------------------------------------------------------------- status bar and details

    void detailsDropTheHighlightOfAnotherLayout() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openDefaultSample(w));
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        w.gridView()->setHighlight(w.gridView()->model().highlightFor(0, 0, false));
        QVERIFY(!w.details()->highlightText().isEmpty());
        w.document()->setActive(1); // accumulator 32x32
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        QVERIFY(w.details()->highlightText().isEmpty());
        QVERIFY(!w.gridView()->highlight().active());
    }

    // A highlight kept across an edit of the same grid is recounted on the new cells.
    void detailsRecountTheHighlightAfterAnEdit() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openDefaultSample(w));
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        const int active = w.document()->active();
        w.document()->setText(active,
                              QStringLiteral("T.Fragment([8, 8], forward_thread_fn=lambda "
                                             "i, j: i, forward_index_fn=lambda i, j: j % 4)"));
        QTRY_COMPARE(w.gridView()->model().slotCollisions(), std::int64_t(64));
        w.gridView()->setHighlight(w.gridView()->model().highlightFor(0, 0, false));
        QVERIFY2(w.details()->highlightText().contains(QStringLiteral("8 cells")),
                 qPrintable(w.details()->highlightText()));
        w.document()->setText(active, QStringLiteral("make_gemm_fragment_8x8()"));
        QTRY_COMPARE(w.gridView()->model().slotCollisions(), std::int64_t(0));
        QVERIFY(w.gridView()->highlight().active());
        QTRY_VERIFY2(w.details()->highlightText().contains(QStringLiteral("2 cells")),
                     qPrintable(w.details()->highlightText()));
    }

    void statusAndDetailsFollowErrorsAndProjects() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY(w.statusSummary().contains(QStringLiteral("Fragment [8")));
        // An error in the same layout: the grid keeps the last valid layout, and says so.
        w.document()->setText(
            0, QStringLiteral("T.Fragment([8, 8], forward_thread_fn=lambda i, j: i +)"));
        QTRY_COMPARE(w.gridState()->state(), ResultState::State::Error);
        QVERIFY(w.statusSummary().contains(QStringLiteral("last valid")));
        QVERIFY(w.statusSummary().contains(QStringLiteral("error")));
        QVERIFY(w.details()->layoutNote().contains(QStringLiteral("last valid")));
        QVERIFY(w.gridView()->dimmed());
        QVERIFY(w.gridView()->banner().contains(QStringLiteral("last valid")));
        // The largest grid (2^24 cells, the core's limit) draws, and nothing of the previous
        // layout stays on screen.
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((4096, 4096), 128)"));
        QTRY_COMPARE_WITH_TIMEOUT(w.gridView()->model().rows(), 4096, 60000);
        QTRY_COMPARE(w.gridState()->state(), ResultState::State::Current);
        QVERIFY(w.statusSummary().contains(QStringLiteral("Fragment [4096")));
        QVERIFY(!w.gridView()->dimmed());
        // A valid layout again, then a project whose active layout has an error.
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_COMPARE(w.gridState()->state(), ResultState::State::Current);
        QVERIFY(w.statusSummary().contains(QStringLiteral("Fragment [32")));
        ts::Document d;
        d.layouts.push_back({"broken", "T.Layout([4, 4], lambda i, j: (j, i) +)", {}, {}});
        const QString path = out(QStringLiteral("broken.tilescope.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(ts::serializeDocument(d)));
        }
        QVERIFY(w.openFile(path));
        QTRY_COMPARE(w.gridState()->state(), ResultState::State::Error);
        QVERIFY(w.gridView()->model().isEmpty());
        QVERIFY(!w.statusSummary().contains(QStringLiteral("Fragment")));
        QVERIFY(w.details()->layoutTitle().isEmpty());
        QVERIFY(!w.editor()->errorText().isEmpty());
    }

    // The error shown is the current text's: while new text is evaluated the old error is
    // greyed, and it goes when the new text is valid.
    void errorNeverDescribesOlderText() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128) +"));
        QTRY_VERIFY(!w.editor()->errorText().isEmpty());
        QVERIFY(!w.editor()->errorStale());
        double evalMs = 0;
        connect(w.evaluator(), &LayoutEvaluator::finished, this,
                [&](const EvalResult& r) { evalMs = r.millis; });
        LoopProbe probe;
        w.document()->setText(0, kHuge);
        // Slow: after the progress threshold the error is marked as older text's.
        QTRY_COMPARE_WITH_TIMEOUT(w.gridState()->state(), ResultState::State::Stale, 5000);
        QVERIFY(w.editor()->errorStale());
        QVERIFY(w.editor()->isBusy());
        QVERIFY(w.statusSummary().contains(QStringLiteral("evaluating")));
        QTRY_COMPARE_WITH_TIMEOUT(w.gridState()->state(), ResultState::State::Current, 60000);
        // Nothing on the UI thread took a share of the evaluation's time: not the evaluation,
        // nor anything done with its result (the repr once evaluated the whole fragment again).
        QVERIFY(evalMs > 0);
        QVERIFY2(probe.maxGapMs() < evalMs / 2,
                 qPrintable(QStringLiteral("event loop blocked %1 ms; evaluation %2 ms")
                                .arg(probe.maxGapMs())
                                .arg(evalMs)));
        QVERIFY(w.editor()->errorText().isEmpty());
        QVERIFY(!w.editor()->isBusy());
        QCOMPARE(w.gridView()->model().rows(), 1024);
        QVERIFY(w.gridView()->banner().isEmpty());
    }

    // A view that cannot be drawn is not a text error: switching a huge replicated fragment to
    // the output view says, while it works, that only the view changes; then the grid says the
    // view cannot be drawn (whole message) and offers the input view; the editor stays clean.
    void undrawableViewIsNotATextError() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setText(0, kHuge);
        QTRY_COMPARE_WITH_TIMEOUT(w.gridView()->model().rows(), 1024, 60000);
        QTRY_COMPARE(w.gridState()->state(), ResultState::State::Current);
        QStringList banners, notes;
        connect(w.gridState(), &ResultState::stateChanged, this, [&](ResultState::State st) {
            if (st != ResultState::State::Stale) return;
            banners << w.gridView()->banner();
            notes << w.details()->layoutNote();
        });
        w.setViewMode(ViewMode::Output);
        QTRY_VERIFY_WITH_TIMEOUT(
            w.gridView()->message().contains(QStringLiteral("cannot be drawn")), 60000);
        QTRY_COMPARE(w.gridState()->state(), ResultState::State::Current);
        for (const QString& b : banners)
            QVERIFY2(!b.contains(QStringLiteral("previous text")), qPrintable(b));
        // Details says the same as the banner: the text did not change, only the view.
        QVERIFY(!notes.isEmpty());
        for (const QString& n : notes)
            QVERIFY2(n.contains(QStringLiteral("new view")) && !n.contains(QStringLiteral("text")),
                     qPrintable(n));
        QVERIFY(w.editor()->errorText().isEmpty());
        QVERIFY(w.gridView()->message().contains(QStringLiteral("too large to draw")));
        QVERIFY(w.gridView()->message().contains(QStringLiteral("tilescope-cli table")));
        QVERIFY(w.gridView()->message().contains(QStringLiteral("Input View")));
        QVERIFY(w.gridView()->model().isEmpty());
        QVERIFY2(w.statusSummary().contains(QStringLiteral("cannot be drawn")),
                 qPrintable(w.statusSummary()));
        // Back to the input view: drawn again, nothing left of the message.
        w.setViewMode(ViewMode::Input);
        QTRY_COMPARE_WITH_TIMEOUT(w.gridView()->model().rows(), 1024, 60000);
        QVERIFY(w.gridView()->message().isEmpty());
        QTRY_VERIFY(!w.statusSummary().contains(QStringLiteral("cannot be drawn")));
    }

    // ---------------------------------------------------------------- never freeze

    void editorTakesKeystrokesWhileAHugeBuiltinEvaluates() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        CodeEdit* code = w.editor()->codeEdit();
        code->setFocus();
        code->selectAll();
        LoopProbe probe;
        QElapsedTimer typing;
        typing.start();
        QTest::keyClicks(code, kHuge);
        // Typing the whole builtin (each keystroke a new request) returned to the event loop;
        // now wait for the evaluation to start and type more while it runs.
        QTRY_VERIFY_WITH_TIMEOUT(w.evaluator()->busy(), 2000);
        QTRY_COMPARE_WITH_TIMEOUT(w.gridState()->state(), ResultState::State::Stale, 5000);
        QVERIFY(w.evaluator()->busy());
        QTest::keyClicks(code, QStringLiteral(" #x"));
        QCOMPARE(code->toPlainText(), kHuge + QStringLiteral(" #x"));
        QVERIFY2(w.evaluator()->busy(), "the evaluation ended before the keystrokes were taken");
        const int ticksBefore = probe.ticks();
        QTRY_COMPARE_WITH_TIMEOUT(w.gridState()->state(), ResultState::State::Current, 60000);
        // The event loop kept running while the worker evaluated.
        QVERIFY2(probe.ticks() > ticksBefore + 3, qPrintable(QString::number(probe.ticks())));
        QCOMPARE(w.gridView()->model().rows(), 1024);
        QCOMPARE(QString::fromStdString(w.document()->layout(0).text),
                 kHuge + QStringLiteral(" #x"));
    }

    void supersededResultsAreDropped() {
        LayoutEvaluator e;
        e.setDebounceMs(0);
        QList<EvalResult> got;
        connect(&e, &LayoutEvaluator::finished, this, [&](const EvalResult& r) { got << r; });
        const QString small = QStringLiteral("T.Layout([4, 4], lambda i, j: (j, i))");
        e.evaluateNow(kHuge, ViewMode::Input, ColorMode::Thread);
        QTRY_VERIFY(e.busy());
        e.request(small, ViewMode::Input, ColorMode::Thread);
        QTRY_VERIFY_WITH_TIMEOUT(!e.busy(), 60000);
        QCOMPARE(got.size(), 1); // the huge text's result came late and was dropped
        QCOMPARE(got[0].text, small);
        QCOMPARE(got[0].grid.rows(), 4);
        // In the window: the grid ends showing the last text.
        MainWindow w;
        w.setConfirmOnClose(false);
        w.document()->setText(0, kHuge);
        QTRY_VERIFY(w.evaluator()->busy());
        w.document()->setText(0, small);
        QTRY_VERIFY_WITH_TIMEOUT(!w.evaluator()->busy(), 60000);
        QTRY_COMPARE(w.gridView()->model().rows(), 4);
        QCOMPARE(w.gridState()->state(), ResultState::State::Current);
    }

    // "unchanged (comments or spacing)" is said of an edit in a comment or in spacing only: not
    // of a sample opened again, nor of a new layout whose text another layout already had (the
    // evaluator reuses their result all the same). Those say how long the evaluation that drew
    // the grid took.
    void unchangedIsSaidOnlyOfAnEditInACommentOrSpacing() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto settled = [&] {
            return w.gridState()->state() == ResultState::State::Current &&
                   !w.evaluator()->busy() && !w.statusSummary().contains(QStringLiteral("…"));
        };
        const QString evaluated = QStringLiteral("evaluated in ");
        const QString unchanged = QStringLiteral("unchanged (comments or spacing)");
        for (int k = 0; k < 2; ++k) { // the second time, the evaluator has this text's result
            QVERIFY(openDefaultSample(w));
            QTRY_VERIFY(settled());
            QVERIFY2(w.statusSummary().contains(evaluated), qPrintable(w.statusSummary()));
        }
        const int first = w.document()->active();
        const QString text = QString::fromStdString(w.document()->layout(first).text);
        ts::DocLayout copy;
        copy.name = "same text";
        copy.text = text.toStdString();
        w.document()->setActive(w.document()->addLayout(copy));
        QTRY_VERIFY(w.document()->active() != first && settled());
        QTRY_VERIFY(w.gridView()->model().title().size() > 0);
        QVERIFY2(w.statusSummary().contains(evaluated), qPrintable(w.statusSummary()));
        // An edit in spacing and a comment: the one case it is said of.
        w.document()->setText(w.document()->active(), text + QStringLiteral("  # the same"));
        QTRY_VERIFY(w.statusSummary().contains(unchanged));
        // Back to a changed text: evaluated, and said so.
        w.document()->setText(w.document()->active(),
                              QStringLiteral("T.Layout([4, 4], lambda i, j: (j, i))"));
        QTRY_VERIFY(w.statusSummary().contains(evaluated) && settled());
        QVERIFY(!w.statusSummary().contains(unchanged));
    }

    // Details shows the layout's repr in the output view too (it lost the text there: the
    // repr was made only from an input view's table).
    void outputViewKeepsTheRepr() {
        const QString text = QStringLiteral("make_gemm_c_fragment((32, 32), 128)");
        const EvalResult in = LayoutEvaluator::compute(text, ViewMode::Input, ColorMode::Thread);
        const EvalResult out = LayoutEvaluator::compute(text, ViewMode::Output, ColorMode::Thread);
        QVERIFY(in.ok && out.ok);
        QCOMPARE(out.grid.kind(), GridModel::Kind::FragmentOutput);
        QVERIFY(in.repr.startsWith(QStringLiteral("Fragment(")));
        QCOMPARE(out.repr, in.repr);
    }

    void anEditInACommentIsNotEvaluatedAgain() {
        LayoutEvaluator e;
        e.setDebounceMs(0);
        QList<EvalResult> got;
        connect(&e, &LayoutEvaluator::finished, this, [&](const EvalResult& r) { got << r; });
        const QString t = QStringLiteral("make_gemm_c_fragment((64, 64), 128)");
        e.evaluateNow(t, ViewMode::Input, ColorMode::Thread);
        QTRY_COMPARE(got.size(), 1);
        QVERIFY(!got[0].reused);
        e.request(t + QStringLiteral("  # the accumulator"), ViewMode::Input, ColorMode::Thread);
        QTRY_COMPARE(got.size(), 2);
        QVERIFY(got[1].ok && got[1].reused);
        QCOMPARE(got[1].grid.colorData(), got[0].grid.colorData()); // the same shared model
        e.request(t, ViewMode::Input, ColorMode::Warp);             // another colouring: evaluated
        QTRY_COMPARE(got.size(), 3);
        QVERIFY(!got[2].reused);
    }

    void exportRunsOffThreadAndCancels() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((1024, 1024), 256)"));
        QTRY_COMPARE_WITH_TIMEOUT(w.gridView()->model().rows(), 1024, 30000);
        QSignalSpy done(&w, &MainWindow::exportFinished);
        const QString big = out(QStringLiteral("big.png"));
        LoopProbe probe;
        QVERIFY(w.startExport(big));
        QVERIFY(w.exportJob() && w.exportJob()->running()); // returned at once
        // The progress dialog comes up; its Cancel stops the export.
        QTRY_VERIFY_WITH_TIMEOUT(w.exportJob()->dialog() && w.exportJob()->dialog()->isVisible(),
                                 5000);
        QVERIFY(probe.ticks() > 3); // the event loop ran while drawing
        auto* cancel = w.exportJob()->dialog()->findChild<QPushButton*>();
        QVERIFY(cancel);
        cancel->click();
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 30000);
        QCOMPARE(done[0][0].toBool(), false);
        QCOMPARE(done[0][1].toBool(), true); // cancelled
        QVERIFY(!QFileInfo::exists(big));
        // A small one completes and is written.
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        const QString small = out(QStringLiteral("small.png"));
        QVERIFY(w.startExport(small));
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 2, 30000);
        QCOMPARE(done[1][0].toBool(), true);
        QVERIFY(!QImage(small).isNull());
    }
};

QTEST_MAIN(TestFreshResults)
#include "test_fresh_results.moc"
