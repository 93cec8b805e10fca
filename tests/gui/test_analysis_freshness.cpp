// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen, real main window and panels): the analysis panels show only numbers that
// belong to what is open and to the text as it is. Another project drops the bank and run
// panels' results and settings; an edit of the active layout marks the bank panel at once and
// its text line says exactly which text the numbers are for; controls that would do nothing are
// disabled; transient status messages about a layout go when its text changes; a
// non-injective T.Layout gets the same warning banner as colliding fragment registers.
#include "test_gui_common.h"

#include "banks/bank_docks.h"
#include "banks/bank_panel.h"
#include "banks/swizzle_panel.h"
#include "common/result_state.h"
#include "document/documentmodel.h"
#include "editor/evaluator.h"
#include "grid/gridmodel.h"
#include "grid/gridview.h"
#include "run/run_panel.h"
#include "window/mainwindow.h"

#include "tilescope/banks/access.h"
#include "tilescope/notation/mapping.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QValueAxis>
#include <QtTest>

using namespace tsw;

namespace {

QString sample(const char* name) {
    return QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/") + QLatin1String(name) +
           QStringLiteral(".tilescope.json");
}

int layoutIndex(const DocumentModel* d, const QString& name) {
    for (int i = 0; i < d->count(); ++i)
        if (QString::fromStdString(d->layout(i).name) == name) return i;
    return -1;
}

// The access core chooses for a T.Layout text (what "fit the layout" must show and use).
QString fittedAccess(const std::string& text) {
    const ts::Mapping m = ts::parseMapping(text);
    std::string dtype = ts::mappingDtype(text);
    if (dtype.empty()) dtype = "float16";
    return QString::fromStdString(
        ts::defaultAccess(ts::SharedTile(std::get<ts::Layout>(m), dtype)));
}

const QString kHuge = QStringLiteral("make_fully_replicated_fragment((1024, 1024), 32)");

} // namespace

class TestAnalysisFreshness : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    // Opening another project: the bank panel no longer shows a layout of the closed one (its
    // numbers, grid and chart go), says there is none yet, and fits the access again.
    void anotherProjectDropsTheBankAnalysis() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("default")));
        auto* bank = w.findChild<BankPanel*>();
        QVERIFY(bank);
        w.document()->setActive(layoutIndex(w.document(), QStringLiteral("transpose 4x4")));
        QTRY_VERIFY(bank->sourceText().contains(QStringLiteral("«transpose 4x4»")));
        QTRY_VERIFY(!bank->analysisPending());
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        QVERIFY(bank->cost());
        bank->setStore(true); // a choice of the closed project

        QVERIFY(w.openFile(sample("mfma_operand_a"))); // fragments only
        QTRY_VERIFY(!w.evaluator()->busy());
        QTRY_VERIFY(!bank->analysisPending());
        QVERIFY(!bank->cost());
        QVERIFY(bank->totalsText().isEmpty());
        QVERIFY(bank->histogram().empty());
        QVERIFY(bank->grid()->model().isEmpty());
        QVERIFY(bank->chart()->chart()->series().isEmpty());
        QVERIFY2(!bank->sourceText().contains(QStringLiteral("transpose")),
                 qPrintable(bank->sourceText()));
        QVERIFY2(bank->sourceText().contains(QStringLiteral("No T.Layout of this project")),
                 qPrintable(bank->sourceText()));
        QVERIFY(bank->layoutText().isEmpty());
        QVERIFY(bank->autoAccess());
        QVERIFY(!bank->storeBox()->isChecked());
        // The active fragment is named as not analysable, and nothing shows an error.
        QTRY_VERIFY(bank->noteText().contains(QStringLiteral("T.Fragment")));
        QVERIFY(bank->errorText().isEmpty());
        QVERIFY(bank->resultState()->errorText().isEmpty());

        // A T.Layout of the new project is analysed as usual.
        QVERIFY(w.openFile(sample("swizzles")));
        QTRY_VERIFY(bank->sourceText().contains(QStringLiteral("«quarter-bank 32B, 8x16 fp16»")));
        QTRY_VERIFY(!bank->analysisPending());
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        QVERIFY(bank->cost());
    }

    // A lesson's access (lanes, "fit the layout" off) belongs to the lesson: the next project
    // starts from an access fitted to its own layouts, without an error.
    void lessonSettingsStayWithTheLesson() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("lesson_bank_conflicts")));
        auto* bank = w.findChild<BankPanel*>();
        QVERIFY(bank);
        QTRY_COMPARE(bank->accessText(), QStringLiteral("lanes:lambda t: (t, 0)"));
        QVERIFY(!bank->autoAccess());
        QVERIFY(w.openFile(sample("swizzles")));
        QTRY_VERIFY(!w.evaluator()->busy());
        QTRY_VERIFY(bank->cost());
        QTRY_VERIFY(!bank->analysisPending());
        QVERIFY(bank->autoAccess());
        const std::string text = w.document()->activeLayout()->text;
        QCOMPARE(bank->accessText(), fittedAccess(text));
        QVERIFY2(bank->errorText().isEmpty(), qPrintable(bank->errorText()));
        QCOMPARE(bank->resultState()->state(), ResultState::State::Current);
    }

    // The run panel: the closed project's run status and access go with it.
    void anotherProjectDropsTheRunStatus() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("default")));
        RunPanel* panel = runPanelOf(&w);
        RunController* ctl = runControllerOf(&w);
        QVERIFY(panel && ctl);
        panel->setAccess(QStringLiteral("lanes:lambda t: (t, 0)"));
        panel->setRunInput(w.document()->activeId(),
                           QStringLiteral("with lanes:lambda t: (t, 0) (float16)"));
        emit ctl->failed(QStringLiteral("No CUDA driver or GPU on this machine"), {});
        QVERIFY(!panel->statusText().isEmpty());
        QVERIFY(w.openFile(sample("swizzles")));
        QVERIFY(panel->statusText().isEmpty());
        QVERIFY(!panel->resultState()->markerText().contains(QStringLiteral("lanes:lambda")));
        QCOMPARE(panel->resultState()->state(), ResultState::State::Empty);
        QVERIFY(panel->fitAccess());
        // The access shown is the one a run of the active layout uses.
        const std::string text = w.document()->activeLayout()->text;
        QTRY_COMPARE(panel->access(), fittedAccess(text));
    }

    // What the run panel shows as access is what Run and Compile Only use: it follows the
    // active layout while "fit the layout" is ticked.
    void runAccessShownIsTheAccessUsed() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("swizzles")));
        RunPanel* panel = runPanelOf(&w);
        QVERIFY(panel);
        const int a = 0, b = layoutIndex(w.document(), QStringLiteral("full-bank 128B, 8x64 fp16"));
        QVERIFY(b > 0);
        w.document()->setText(a, QStringLiteral("T.Layout([8, 8], lambda i, j: j * 8 + i)"));
        QTRY_COMPARE(panel->access(), fittedAccess("T.Layout([8, 8], lambda i, j: j * 8 + i)"));
        w.document()->setActive(b);
        const std::string tb = w.document()->layout(b).text;
        QTRY_COMPARE(panel->access(), fittedAccess(tb));
        QVERIFY(fittedAccess(tb) != fittedAccess("T.Layout([8, 8], lambda i, j: j * 8 + i)"));
    }

    // Editing the active layout: the bank panel is marked from the first keystroke until the
    // new text is analysed, and names the text its numbers are for when the new text cannot
    // be analysed; a valid text after an error is analysed, not reported as an error.
    void bankFollowsEveryEditOfTheActiveLayout() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("default")));
        auto* bank = w.findChild<BankPanel*>();
        QVERIFY(bank);
        const int t = layoutIndex(w.document(), QStringLiteral("transpose 4x4"));
        w.document()->setActive(t);
        const QString t4 = QString::fromStdString(w.document()->layout(t).text);
        QTRY_VERIFY(bank->sourceText().contains(QStringLiteral("«transpose 4x4»")));
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        QVERIFY(!bank->analysisPending());

        // A slow fragment: marked at once (pending), dimmed with a marker after the grace.
        w.document()->setText(t, kHuge);
        QVERIFY(bank->resultState()->state() != ResultState::State::Current);
        QVERIFY(bank->noteText().contains(QStringLiteral("«transpose 4x4» is being evaluated")));
        QTRY_COMPARE_WITH_TIMEOUT(bank->resultState()->state(), ResultState::State::Stale, 3000);
        QVERIFY(bank->resultState()->dimmed());
        QVERIFY(bank->resultState()->markerText().contains(QStringLiteral("«transpose 4x4»")));

        // Evaluated: a fragment. The numbers stay, marked, for the text they were computed on.
        QTRY_VERIFY_WITH_TIMEOUT(bank->noteText().contains(QStringLiteral("T.Fragment")), 60000);
        QVERIFY2(bank->sourceText().contains(QStringLiteral("as its text was earlier")),
                 qPrintable(bank->sourceText()));
        QVERIFY(bank->sourceText().contains(t4.simplified().left(40).toHtmlEscaped()));
        QCOMPARE(bank->resultState()->state(), ResultState::State::Stale);
        QVERIFY(bank->resultState()->markerText().contains(QStringLiteral("earlier text")));

        // An error, then a valid T.Layout: analysed, and no word of the error remains.
        w.document()->setText(t, QStringLiteral("T.Layout([8, 8], lambda i, j: i * 8 +"));
        QTRY_VERIFY(bank->noteText().contains(QStringLiteral("error")));
        w.document()->setText(t, QStringLiteral("T.Layout([8, 8], lambda i, j: j * 8 + i)"));
        QVERIFY(!bank->noteText().contains(QStringLiteral("error")));
        QTRY_VERIFY(bank->sourceText().contains(QStringLiteral("8 x 8")));
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        QVERIFY(bank->noteText().isEmpty());
        QVERIFY(!bank->sourceText().contains(QStringLiteral("earlier")));
        QCOMPARE(bank->layoutText(), QStringLiteral("T.Layout([8, 8], lambda i, j: j * 8 + i)"));

        // A change of view re-evaluates the same text: the result is current again without a
        // new analysis.
        w.setViewMode(ViewMode::Output);
        QTRY_VERIFY(!w.evaluator()->busy());
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
    }

    // Numbers for an earlier text stay marked as such whichever layout is active. They were
    // shown as current, under the layout's name, once another layout was selected (found by
    // the GUI monkey: seed 1, step 937, after an undo turned the analysed T.Layout back into a
    // fragment).
    void bankNumbersOfAnEarlierTextStayMarked() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("default")));
        auto* bank = w.findChild<BankPanel*>();
        QVERIFY(bank);
        DocumentModel* d = w.document();
        const int t = layoutIndex(d, QStringLiteral("transpose 4x4"));
        const int frag = layoutIndex(d, QStringLiteral("gemm 8x8 fragment"));
        QVERIFY(t >= 0 && frag >= 0);
        d->setActive(t);
        QTRY_VERIFY(bank->sourceText().contains(QStringLiteral("«transpose 4x4»")));
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        auto earlierText = [&] {
            QTRY_VERIFY(!w.evaluator()->busy());
            QTRY_VERIFY(!bank->analysisPending());
            QCoreApplication::processEvents();
            QVERIFY2(bank->resultState()->state() != ResultState::State::Current,
                     qPrintable(bank->sourceText()));
            QVERIFY2(bank->sourceText().contains(QStringLiteral("as its text was earlier")),
                     qPrintable(bank->sourceText()));
        };

        // Edited into a fragment, then another layout: still the earlier text's numbers.
        d->setText(t, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_VERIFY_WITH_TIMEOUT(bank->noteText().contains(QStringLiteral("T.Fragment")), 60000);
        earlierText();
        d->setActive(frag);
        QTRY_VERIFY(bank->noteText().contains(QStringLiteral("«gemm 8x8 fragment»")));
        earlierText();

        // Undone (which activates the layout): the numbers are its text's again.
        d->undoStack()->undo();
        QCOMPARE(d->active(), t);
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        QVERIFY(!bank->sourceText().contains(QStringLiteral("earlier")));

        // Redone, and the fragment selected again: marked again.
        d->undoStack()->redo();
        QTRY_VERIFY_WITH_TIMEOUT(bank->noteText().contains(QStringLiteral("T.Fragment")), 60000);
        d->setActive(frag);
        QTRY_VERIFY(bank->noteText().contains(QStringLiteral("«gemm 8x8 fragment»")));
        earlierText();
    }

    // Numbers for a layout that was removed from the project are marked as such (found by the
    // GUI monkey: seed 1, step 1264, Edit > Delete Layout, showed them as current under the
    // removed layout's name).
    void bankNumbersOfARemovedLayoutAreMarked() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("default")));
        auto* bank = w.findChild<BankPanel*>();
        QVERIFY(bank);
        DocumentModel* d = w.document();
        // A layout pasted over with a T.Layout (analysed), whose neighbour is a fragment.
        const int acc = layoutIndex(d, QStringLiteral("accumulator 32x32, 128 threads"));
        QCOMPARE(acc + 1, layoutIndex(d, QStringLiteral("mma A operand, warp, replicated")));
        d->setActive(acc);
        d->setText(acc, QStringLiteral("T.Layout([8, 8], lambda i, j: (j, i))"));
        QTRY_VERIFY(
            bank->sourceText().contains(QStringLiteral("«accumulator 32x32, 128 threads»")));
        QTRY_VERIFY(!w.evaluator()->busy());
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);

        // Removed: the fragment after it becomes active, the numbers stay, marked.
        d->removeLayout(acc);
        QTRY_VERIFY(bank->noteText().contains(QStringLiteral("«mma A operand, warp, replicated»")));
        QTRY_VERIFY(!w.evaluator()->busy());
        QCoreApplication::processEvents();
        QVERIFY(bank->resultState()->state() != ResultState::State::Current);
        QVERIFY2(bank->sourceText().contains(QStringLiteral("removed from the project")),
                 qPrintable(bank->sourceText()));

        // Undone: the layout is back and active, and the numbers are its own again.
        d->undoStack()->undo();
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        QVERIFY(!bank->sourceText().contains(QStringLiteral("removed")));
    }

    // The same through a lesson step, whose saved analysis sets the panel's access: a step's
    // text edited into a fragment keeps the numbers only as those of its earlier text.
    void lessonStepEditedIntoAFragmentIsNamedAsEarlierText() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("lesson_bank_conflicts")));
        auto* bank = w.findChild<BankPanel*>();
        QVERIFY(bank);
        int step = -1;
        for (int i = 0; i < w.document()->count(); ++i)
            if (QString::fromStdString(w.document()->layout(i).name)
                    .startsWith(QLatin1String("5.")))
                step = i;
        QVERIFY(step >= 0);
        w.document()->setActive(step);
        const QString name = QString::fromStdString(w.document()->layout(step).name);
        QTRY_VERIFY(bank->sourceText().contains(name.toHtmlEscaped()));
        QTRY_COMPARE(bank->resultState()->state(), ResultState::State::Current);
        w.document()->setText(step, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_VERIFY_WITH_TIMEOUT(bank->noteText().contains(QStringLiteral("T.Fragment")), 60000);
        QVERIFY2(bank->sourceText().contains(QStringLiteral("as its text was earlier")),
                 qPrintable(bank->sourceText()));
        QVERIFY(bank->resultState()->state() != ResultState::State::Current);
    }

    // A message about the layout as it was goes when its text changes.
    void copyMessageGoesWithTheText() {
        MainWindow w;
        w.setConfirmOnClose(false);
        QVERIFY(w.openFile(sample("default")));
        // A layout with no exact CuTe form (a modulo that is not a stride).
        w.document()->setText(
            0, QStringLiteral("T.Layout([6, 10], lambda i, j: (i * 7 + j * 3) % 60)"));
        QTRY_VERIFY(w.currentMapping());
        QTRY_VERIFY(!w.evaluator()->busy());
        w.copyAsCuTe();
        QVERIFY2(w.statusBar()->currentMessage().startsWith(QStringLiteral("Not copied")),
                 qPrintable(w.statusBar()->currentMessage()));
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QVERIFY(w.statusBar()->currentMessage().isEmpty());
    }

    // A non-injective T.Layout: the grid's banner names the first two cells sharing an offset
    // (computed with the evaluation), and clicking it highlights every such cell.
    void nonInjectiveLayoutIsWarned() {
        const QString text = QStringLiteral("T.Layout([6, 10], lambda i, j: (i * 7 + j * 3) % 60)");
        const GridModel m = GridModel::fromMapping(ts::parseMapping(text.toStdString()),
                                                   ViewMode::Input, ColorMode::Thread);
        QVERIFY2(m.collisionWarning().contains(QStringLiteral("(0, 7) and (3, 0) share offset 21")),
                 qPrintable(m.collisionWarning()));
        // Offsets i*7+j*3 mod 60 over 60 cells: count the cells whose offset is shared.
        std::map<int, int> per;
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 10; ++j)
                ++per[(i * 7 + j * 3) % 60];
        std::int64_t shared = 0;
        for (auto [o, n] : per)
            if (n > 1) shared += n;
        QVERIFY(shared > 0);
        QCOMPARE(m.aliasedCells(), shared);
        const Highlight all{Highlight::Collisions, 0};
        QVERIFY(m.matches(0, 7, all));
        QVERIFY(m.matches(3, 0, all));
        QVERIFY(!m.matches(0, 0, all) || per[0] > 1);
        // The output view marks the shared offsets.
        const GridModel out = GridModel::fromMapping(ts::parseMapping(text.toStdString()),
                                                     ViewMode::Output, ColorMode::Thread);
        QVERIFY(!out.collisionWarning().isEmpty());
        QVERIFY(out.matches(0, 21, all));
        // An injective layout has none.
        const GridModel ok =
            GridModel::fromMapping(ts::parseMapping("T.Layout([6, 10], lambda i, j: i * 10 + j)"),
                                   ViewMode::Input, ColorMode::Thread);
        QCOMPARE(ok.aliasedCells(), std::int64_t(0));
        QVERIFY(ok.collisionWarning().isEmpty());

        // In the window: the banner comes with the evaluation; a click highlights the cells.
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(sample("default")));
        w.document()->setText(0, text);
        QTRY_COMPARE(w.gridView()->model().aliasedCells(), shared);
        QVERIFY(w.gridView()->shownBanner().contains(QStringLiteral("(0, 7) and (3, 0)")));

        // Grids of other per-cell values (the bank panel's banks) repeat values by design.
        BankPanel p;
        QVERIFY(p.analyze());
        QVERIFY(p.grid()->shownBanner().isEmpty());
        QCOMPARE(p.grid()->model().aliasedCells(), std::int64_t(0));
    }

    // Controls that would do nothing are disabled and say why; "store" on an ldmatrix access
    // analyses its stmatrix twin, and the panel says so.
    void bankControlsThatDoNothingAreDisabled() {
        BankPanel p;
        p.setLayoutText(QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"));
        p.setDtype(QStringLiteral("float16"));
        p.setAccessText(QStringLiteral("ldmatrix:x4"));
        QVERIFY(p.analyze());
        QCOMPARE(p.instructionCount(), 1);
        QVERIFY(!p.playButton()->isEnabled());
        p.play();
        QVERIFY(!p.isPlaying());
        QVERIFY(p.storeBox()->isEnabled());
        p.setStore(true);
        QVERIFY(p.analyze());
        QVERIFY2(p.sourceText().contains(QStringLiteral("stmatrix:x4 (store)")),
                 qPrintable(p.sourceText()));
        QVERIFY(p.stepText().contains(QStringLiteral("stmatrix")) ||
                p.totalsText().contains(QStringLiteral("instruction")));
        p.setStore(false);
        p.setAccessText(QStringLiteral("stmatrix:x4"));
        QVERIFY(p.analyze());
        QVERIFY(!p.storeBox()->isEnabled());
        QVERIFY(!p.storeBox()->toolTip().isEmpty());
        // Several instructions: Play is there.
        p.setAccessText(QStringLiteral("lanes:lambda t, k: (t, k)"));
        QVERIFY(p.analyze());
        QVERIFY(p.instructionCount() > 1);
        QVERIFY(p.playButton()->isEnabled());
    }

    // A syntax error in the access is reported at its column in the access field, without the
    // advice to fit the access (which is about accesses that do not fit the tile).
    void accessSyntaxErrorSaysWhereInTheField() {
        BankPanel p;
        p.setLayoutText(QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"));
        const QString access = QStringLiteral("lanes:lambda t: (t, 0))");
        p.setAccessText(access);
        QVERIFY(!p.analyze());
        const QString err = p.resultState()->errorText();
        QVERIFY2(!err.contains(QStringLiteral("fit the layout")), qPrintable(err));
        const int paren = int(access.lastIndexOf(QLatin1Char(')'))) + 1; // 1-based
        QVERIFY2(err.contains(QStringLiteral("access, column %1").arg(paren)), qPrintable(err));
        // An access that does not fit the tile keeps the advice.
        p.setAccessText(QStringLiteral("lanes:lambda t: (t + 32, 0)"));
        QVERIFY(!p.analyze());
        QVERIFY2(p.resultState()->errorText().contains(QStringLiteral("fit the layout")),
                 qPrintable(p.resultState()->errorText()));
    }

    // Word counts are whole numbers: the histogram's value axis ticks on integers only.
    void histogramTicksOnIntegers() {
        QCOMPARE(integerTickStep(1), 1);
        QCOMPARE(integerTickStep(5), 1);
        QCOMPARE(integerTickStep(8), 2);
        QCOMPARE(integerTickStep(16), 5);
        QCOMPARE(integerTickStep(32), 10);
        BankPanel p;
        // One conflict-free ldmatrix.x1 on a full-bank swizzle: one word in every bank.
        p.setLayoutText(QStringLiteral("make_full_bank_swizzled_layout((8, 64), \"float16\")"));
        p.setAccessText(QStringLiteral("ldmatrix:x1"));
        QVERIFY(p.analyze());
        double mx = 0;
        for (double v : p.histogram())
            mx = std::max(mx, v);
        QCOMPARE(mx, 1.0);
        QValueAxis* ay = nullptr;
        for (QAbstractAxis* a : p.chart()->chart()->axes(Qt::Vertical))
            ay = qobject_cast<QValueAxis*>(a);
        QVERIFY(ay);
        QCOMPARE(ay->tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(ay->tickInterval(), 1.0);
        QCOMPARE(ay->max(), 1.0);
    }

    // Dimmed results are not painted through a graphics effect: inside a scroll area such a
    // widget was scrolled by copying its pixels and left garbled copies of itself.
    void dimmedResultsScrollCleanly() {
        SwizzlePanel s;
        QVERIFY(s.runSearch());
        s.setTile(16, 64, QStringLiteral("float16")); // the search result is stale now
        QCOMPARE(s.searchState()->state(), ResultState::State::Stale);
        QVERIFY(s.searchState()->dimmed());
        for (QWidget* v : s.findChildren<QWidget*>())
            QVERIFY2(!v->graphicsEffect(), qPrintable(v->objectName()));
        QScrollArea area;
        area.setWidget(&s);
        area.setWidgetResizable(true);
        area.resize(900, 380);
        area.show();
        QVERIFY(QTest::qWaitForWindowExposed(&area));
        QScrollBar* bar = area.verticalScrollBar();
        QVERIFY(bar->maximum() > 100);
        for (int v : {bar->maximum(), 0, bar->maximum() / 2, bar->maximum()}) {
            bar->setValue(v);
            QCoreApplication::processEvents();
        }
        QTest::qWait(50);
        const QImage scrolled = area.viewport()->grab().toImage();
        s.repaint();
        area.viewport()->repaint();
        const QImage fresh = area.viewport()->grab().toImage();
        QCOMPARE(scrolled, fresh);
        area.takeWidget();
    }
};

QTEST_MAIN(TestAnalysisFreshness)
#include "test_analysis_freshness.moc"
