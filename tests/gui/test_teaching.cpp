// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen) for teaching in class: presenter mode (full screen, panels hidden and
// restored), stepping through a warp's instructions with keys and buttons, the bank-conflict
// lesson sample (every step's caption states what the model computes), and the bank heat grid's
// tooltips and legend.
#include "test_gui_common.h"
#include "window_fixture.h"

#include "banks/bank_docks.h"
#include "banks/bank_overlays.h"
#include "banks/bank_panel.h"
#include "banks/fractal_panel.h"
#include "banks/raster_panel.h"
#include "banks/swizzle_panel.h"
#include "document/documentmodel.h"
#include "grid/grid_layout.h"
#include "grid/gridview.h"
#include "window/mainwindow.h"
#include "window/presenter.h"
#include "window/presenter_bar.h"

#include "tilescope/banks/fractal.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

using namespace tsw;

namespace {

const char* kLesson = TILESCOPE_SOURCE_DIR "/samples/lesson_bank_conflicts.tilescope.json";
const char* kEightInstructions = "fragment:T.Fragment([32, 64], forward_thread_fn=lambda i, j: i, "
                                 "forward_index_fn=lambda i, j: j)";

BankDocks* docksOf(MainWindow& w) {
    return w.findChild<BankDocks*>(QStringLiteral("bankDocks"));
}

QStringList visibleDocks(MainWindow& w) {
    QStringList v;
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        if (d->isVisible()) v << d->objectName();
    v.sort();
    return v;
}

// The number before `unit` in a caption ("... 32 wavefronts (a 32-way conflict)").
int numberBefore(const QString& caption, const QString& unit) {
    const QRegularExpression re(QStringLiteral("(\\d+) %1").arg(unit));
    const auto m = re.match(caption);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TestTeaching : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void presenterModeHidesAndRestores() {
        MainWindow w;
        QVERIFY(showWithFile(w,
                             QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                             QSize(1300, 850)));
        BankDocks* docks = docksOf(w);
        docks->bankDock()->show();
        // The analysis panels are about a shared T.Layout: present one.
        for (int i = 0; i < w.document()->count(); ++i)
            if (w.document()->layout(i).text.rfind("T.Layout", 0) == 0) w.document()->setActive(i);
        QTRY_VERIFY(w.gridView()->model().kind() == GridModel::Kind::LayoutInput ||
                    w.gridView()->model().kind() == GridModel::Kind::LayoutOutput);
        QCoreApplication::processEvents();
        const QStringList before = visibleDocks(w);
        QVERIFY(before.contains(QStringLiteral("bankDock")));
        QVERIFY(before.size() >= 3); // layouts, mapping, details, bank
        const QFont font = w.font();
        Presenter* p = w.presenter();
        QVERIFY(p);
        // F11 is the presenter action's key, on the window (works without the menu bar).
        QCOMPARE(p->presenterAction()->shortcut(), QKeySequence(Qt::Key_F11));
        QVERIFY(w.actions().contains(p->presenterAction()));
        p->presenterAction()->trigger();
        QCoreApplication::processEvents();
        QVERIFY(p->isActive());
        QVERIFY(w.windowState() & Qt::WindowFullScreen);
        QVERIFY(!w.menuBar()->isVisible());
        QVERIFY(!w.statusBar()->isVisible());
        // The toolbars give way to the presenter's own bar.
        for (QToolBar* t : w.findChildren<QToolBar*>())
            QVERIFY(t->isVisible() == (t == p->bar()));
        // The grid and one analysis: the bank panel the user had open.
        QCOMPARE(visibleDocks(w), QStringList{QStringLiteral("bankDock")});
        QCOMPARE(p->analysisDock(), docks->bankDock());
        QCOMPARE(w.dockWidgetArea(docks->bankDock()), Qt::RightDockWidgetArea);
        QVERIFY(w.font().pointSizeF() > font.pointSizeF() * 1.3);
        QVERIFY(w.gridView()->fontScale() > 1.3);
        QVERIFY(w.gridView()->highContrast());
        // Esc leaves and restores everything.
        QTest::keyClick(w.gridView(), Qt::Key_Escape);
        QVERIFY(!p->isActive());
        QCoreApplication::processEvents();
        QVERIFY(!(w.windowState() & Qt::WindowFullScreen));
        QVERIFY(w.menuBar()->isVisible());
        QVERIFY(w.statusBar()->isVisible());
        QCOMPARE(visibleDocks(w), before);
        QCOMPARE(w.dockWidgetArea(docks->bankDock()), Qt::BottomDockWidgetArea);
        QCOMPARE(w.font(), font);
        QCOMPARE(w.gridView()->fontScale(), 1.0);
        QVERIFY(!w.gridView()->highContrast());
        QVERIFY(!p->presenterAction()->isChecked());
        // A fragment is presented alone: an analysis panel left open is about another tile.
        w.document()->setActive(0);
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::Fragment);
        p->presenterAction()->trigger();
        QCoreApplication::processEvents();
        QVERIFY(p->isActive());
        QVERIFY2(visibleDocks(w).isEmpty(), qPrintable(visibleDocks(w).join(',')));
        QCOMPARE(p->analysisDock(), nullptr);
        QTest::keyClick(w.gridView(), Qt::Key_Escape);
        QVERIFY(!p->isActive());
    }

    // Forward and back through a warp's instructions: the Step buttons, Alt+Right / Alt+Left
    // anywhere, Right / Left (and Space / Backspace) in presenter mode. "All" sits before the
    // first instruction.
    void stepKeysAndButtonsMoveBothWays() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.resize(1300, 850);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        BankPanel* bank = docksOf(w)->bankPanel();
        docksOf(w)->bankDock()->show();
        QVERIFY(bank->applyView(QStringLiteral("make_linear_layout((32, 64), \"float16\")"),
                                QString::fromLatin1(kEightInstructions), QStringLiteral("float16"),
                                0, false, -1));
        QCOMPARE(bank->instructionCount(), 8);
        QCOMPARE(bank->currentStep(), -1);
        QVERIFY(!bank->stepBackButton()->isEnabled());
        bank->stepForwardButton()->click();
        QCOMPARE(bank->currentStep(), 0);
        bank->stepForwardButton()->click();
        QCOMPARE(bank->currentStep(), 1);
        QVERIFY(bank->stepBackButton()->isEnabled());
        bank->stepBackButton()->click();
        QCOMPARE(bank->currentStep(), 0);
        Presenter* p = w.presenter();
        p->nextInstructionAction()->trigger();
        QCOMPARE(bank->currentStep(), 1);
        QCOMPARE(p->nextInstructionAction()->shortcut(), QKeySequence(QStringLiteral("Alt+Right")));
        p->previousInstructionAction()->trigger();
        QCOMPARE(bank->currentStep(), 0);
        p->setActive(true);
        QCoreApplication::processEvents();
        w.activateWindow();
        w.gridView()->setFocus();
        QTest::keyClick(w.gridView(), Qt::Key_Right);
        QCOMPARE(bank->currentStep(), 1);
        QTest::keyClick(w.gridView(), Qt::Key_Space);
        QCOMPARE(bank->currentStep(), 2);
        QTest::keyClick(w.gridView(), Qt::Key_Left);
        QCOMPARE(bank->currentStep(), 1);
        QTest::keyClick(w.gridView(), Qt::Key_Backspace);
        QCOMPARE(bank->currentStep(), 0);
        QTest::keyClick(w.gridView(), Qt::Key_Left);
        QCOMPARE(bank->currentStep(), -1); // all instructions
        for (int k = 0; k < 12; ++k)
            QTest::keyClick(w.gridView(), Qt::Key_Right);
        QCOMPARE(bank->currentStep(), 7); // stops at the last
        QVERIFY(!bank->stepForwardButton()->isEnabled());
        p->setActive(false);
    }

    // The lesson: each step is a saved view (layout, analysis, step) with a caption whose
    // figure is what the model computes for what is on screen.
    void lessonStepsMatchTheModel() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1300, 850)));
        DocumentModel* doc = w.document();
        QCOMPARE(doc->count(), 6);
        BankDocks* docks = docksOf(w);
        Presenter* p = w.presenter();
        p->setActive(true);
        QCoreApplication::processEvents();
        const int expected[] = {32, 1, 1, 32, 4, -1};
        for (int i = 0; i < doc->count(); ++i) {
            QCOMPARE(doc->active(), i);
            const ts::DocLayout& l = doc->layout(i);
            const QString caption = w.gridView()->caption();
            QVERIFY2(caption.startsWith(QStringLiteral("Step %1 of 6 · ").arg(i + 1)),
                     qPrintable(caption));
            QVERIFY(caption.endsWith(QString::fromStdString(l.caption)));
            // The layout evaluates (the grid shows it, no error).
            QTRY_VERIFY(!w.gridView()->model().isEmpty());
            QVERIFY(w.gridView()->message().isEmpty());
            if (l.analysis.panel == "banks") {
                BankPanel* bank = docks->bankPanel();
                QCOMPARE(p->analysisDock(), docks->bankDock());
                QVERIFY(docks->bankDock()->isVisible());
                QVERIFY2(bank->errorText().isEmpty(), qPrintable(bank->errorText()));
                QCOMPARE(bank->layoutText(), QString::fromStdString(l.text));
                QCOMPARE(bank->accessText(), QString::fromStdString(l.analysis.access));
                QCOMPARE(bank->currentStep(), l.analysis.step);
                const int shown =
                    bank->cost()->instructions[std::size_t(l.analysis.step)].wavefronts;
                QCOMPARE(shown, expected[i]);
                const int said = numberBefore(caption, QStringLiteral("wavefronts?"));
                QCOMPARE(said, shown);
                QVERIFY(bank->stepText().contains(QStringLiteral(": %1 wavefront").arg(shown)));
                // One instruction has one state ("1/1"): nothing before it to step back to.
                if (bank->instructionCount() == 1) {
                    QVERIFY(!bank->stepBackButton()->isEnabled());
                    QTest::keyClick(w.gridView(), Qt::Key_Left);
                    QCOMPARE(bank->currentStep(), 0);
                    QVERIFY(bank->stepText().startsWith(QStringLiteral("1/1")));
                }
                // The panel shows the step's own access: no note under the caption.
                QVERIFY2(!caption.contains(QStringLiteral("⚠")), qPrintable(caption));
            } else {
                QCOMPARE(QString::fromStdString(l.analysis.panel), QStringLiteral("fractal"));
                QCOMPARE(p->analysisDock(), docks->fractalDock());
                QVERIFY(docks->fractalDock()->isVisible());
                const ts::FractalView f = ts::fractalView(ts::FractalKind::zN, 40, 40, "float16");
                QCOMPARE(numberBefore(caption, QStringLiteral("elements of storage")),
                         int(f.footprint_elements));
                QCOMPARE(numberBefore(caption, QStringLiteral("of them padding")),
                         int(f.padding_elements()));
                QVERIFY(caption.contains(QStringLiteral("C0 = 32 B / 2 B = %1").arg(f.c0)));
                QVERIFY(docks->fractalPanel()->footprintText().contains(
                    QStringLiteral("%1 elements").arg(f.footprint_elements)));
                // The grid's title counts the highest offset used plus one: the caption names
                // that number too, and says why it is not the storage.
                const QRegularExpression titleRe(
                    QStringLiteral("^Layout \\[40×40\\] → \\[(\\d+)\\]"));
                QTRY_VERIFY2(titleRe.match(w.gridView()->model().title()).hasMatch(),
                             qPrintable(w.gridView()->model().title()));
                const auto title = titleRe.match(w.gridView()->model().title());
                const int used = title.captured(1).toInt();
                QVERIFY(used < int(f.footprint_elements));
                QVERIFY2(caption.contains(QStringLiteral("says [%1]").arg(used)),
                         qPrintable(caption));
                QVERIFY(caption.contains(QStringLiteral("after offset %1").arg(used - 1)));
            }
            // PgDown: the next step.
            QTest::keyClick(w.gridView(), Qt::Key_PageDown);
            QCoreApplication::processEvents();
        }
        QCOMPARE(doc->active(), 5); // stays on the last
        QTest::keyClick(w.gridView(), Qt::Key_PageUp);
        QCOMPARE(doc->active(), 4);
        p->previousStepAction()->trigger();
        QCOMPARE(doc->active(), 3);
        p->setActive(false);
        // Steps are views: browsing them changes nothing in the project.
        QVERIFY(!doc->isDirty());
    }

    // Leaving presenter mode after the lesson moved from a bank step to the fractal step (a
    // second analysis dock moved beside the grid) restores the window exactly: its toolbars and
    // panels come back.
    void leavingAfterAnotherAnalysisRestoresTheWindow() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1300, 850)));
        QCoreApplication::processEvents();
        const QStringList before = visibleDocks(w);
        QStringList toolbars;
        for (QToolBar* t : w.findChildren<QToolBar*>())
            if (t->isVisible()) toolbars << t->objectName();
        QVERIFY(!toolbars.isEmpty());
        Presenter* p = w.presenter();
        p->setActive(true);
        QCoreApplication::processEvents();
        for (int i = 0; i < 5; ++i)
            p->nextStep();
        QCoreApplication::processEvents();
        QCOMPARE(p->analysisDock(), docksOf(w)->fractalDock());
        QCOMPARE(visibleDocks(w), QStringList{QStringLiteral("fractalDock")});
        QVERIFY(p->bar()->isVisible());
        p->setActive(false);
        QCoreApplication::processEvents();
        QCOMPARE(visibleDocks(w), before);
        QStringList after;
        for (QToolBar* t : w.findChildren<QToolBar*>())
            if (t->isVisible()) after << t->objectName();
        QCOMPARE(after, toolbars);
    }

    // Presenter mode is a whole teaching surface: the colourings' Ctrl+1..4 and zoom work with
    // the menus hidden, a bar under the grid (not over it) offers the same as buttons, and its
    // hint names only the keys that apply (no steps for a one-layout project).
    void presenterBarAndShortcutsWork() {
        MainWindow w;
        QVERIFY(showWithFile(w,
                             QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                             QSize(1300, 850)));
        DocumentModel* doc = w.document();
        QVERIFY(doc->count() > 1);
        w.document()->setActive(0);
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::Fragment);
        Presenter* p = w.presenter();
        PresenterBar* bar = p->bar();
        QVERIFY(bar);
        QVERIFY(!bar->isVisible());
        p->setActive(true);
        QCoreApplication::processEvents();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.gridView()->setFocus();
        QVERIFY(bar->isVisible());
        // Under the grid, not over it; the grid shows no hint of its own.
        const QRect gridRect(w.gridView()->mapTo(&w, QPoint(0, 0)), w.gridView()->size());
        const QRect barRect(bar->mapTo(&w, QPoint(0, 0)), bar->size());
        QVERIFY2(!gridRect.intersects(barRect), qPrintable(QStringLiteral("grid %1,%2 %3x%4")
                                                               .arg(gridRect.x())
                                                               .arg(gridRect.y())
                                                               .arg(gridRect.width())
                                                               .arg(gridRect.height())));
        QVERIFY(w.gridView()->hint().isEmpty());
        QVERIFY2(bar->hintText().contains(QStringLiteral("PgDn / PgUp: step")),
                 qPrintable(bar->hintText()));
        QVERIFY(bar->hintText().contains(QStringLiteral("Ctrl+1–4: colour")));
        QVERIFY(!bar->hintText().contains(QStringLiteral("instruction"))); // no bank panel shown
        QCOMPARE(bar->stepText(), QStringLiteral("step 1 of %1").arg(doc->count()));
        // Ctrl+2: warp, as outside presenter mode.
        QCOMPARE(doc->activeLayout()->view.color, std::string("thread"));
        QTest::keyClick(w.gridView(), Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(doc->activeLayout()->view.color, std::string("warp"));
        // The bar's button: slot.
        QVERIFY(bar->colourAction(2));
        bar->colourAction(2)->trigger();
        QCOMPARE(doc->activeLayout()->view.color, std::string("slot"));
        QVERIFY(bar->colourAction(2)->isChecked());
        // Zoom from the keyboard.
        const double before = w.gridView()->scale();
        QTest::keyClick(w.gridView(), Qt::Key_Plus, Qt::ControlModifier); // ZoomIn (Ctrl++)
        QTRY_VERIFY(w.gridView()->scale() > before);
        // PgDn moves the step and the bar says so.
        QTest::keyClick(w.gridView(), Qt::Key_PageDown);
        QCOMPARE(doc->active(), 1);
        QCOMPARE(bar->stepText(), QStringLiteral("step 2 of %1").arg(doc->count()));
        QTest::keyClick(w.gridView(), Qt::Key_Escape);
        QVERIFY(!p->isActive());
        QVERIFY(!bar->isVisible());
        // Ctrl+2 belongs to the menu again, not to the window twice.
        QVERIFY(!w.actions().contains(bar->colourAction(1)));
        // One layout: no step keys named, no step buttons.
        w.newDocument();
        QCOMPARE(doc->count(), 1);
        p->setActive(true);
        QCoreApplication::processEvents();
        QVERIFY2(!bar->hintText().contains(QStringLiteral("step")), qPrintable(bar->hintText()));
        QVERIFY(!p->previousStepAction()->isVisible());
        p->setActive(false);
    }

    // The access a user types in the Bank conflicts panel is the layout's: undoable, marks the
    // project modified, saved in the file and applied again after reopening.
    void typedAccessIsKeptWithTheLayout() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("access.tilescope.json"));
        const QString access = QStringLiteral("lanes:lambda t: (t, 0)");
        int wavefronts = -1; // what the panel showed for the typed access
        {
            MainWindow w;
            w.setConfirmOnClose(false);
            w.resize(1300, 850);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.newDocument();
            DocumentModel* doc = w.document();
            doc->setText(0, QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"));
            BankDocks* docks = docksOf(w);
            docks->bankDock()->show();
            BankPanel* bank = docks->bankPanel();
            QTRY_COMPARE(bank->sourceName(), QString::fromStdString(doc->layout(0).name));
            QTRY_VERIFY(bank->autoAccess());
            auto* edit = bank->findChild<QLineEdit*>(QStringLiteral("bankAccess"));
            QVERIFY(edit);
            edit->selectAll();
            QTest::keyClicks(edit, access); // typed as a user types
            QVERIFY(!bank->autoAccess());
            QCOMPARE(QString::fromStdString(doc->layout(0).analysis.access), access);
            QCOMPARE(doc->layout(0).analysis.panel, std::string("banks"));
            QVERIFY(doc->isDirty());
            // The whole typing is one undo step, and undo gives the fitted access back.
            const int undoCount = doc->undoStack()->count();
            doc->undoStack()->undo();
            QVERIFY(doc->layout(0).analysis.empty());
            QVERIFY(bank->autoAccess());
            doc->undoStack()->redo();
            QCOMPARE(QString::fromStdString(doc->layout(0).analysis.access), access);
            QCOMPARE(doc->undoStack()->count(), undoCount);
            QTRY_COMPARE(bank->accessText(), access);
            QTRY_VERIFY(!bank->analysisPending());
            wavefronts = bank->cost()->wavefronts;
            QString error;
            QVERIFY2(doc->save(path, &error), qPrintable(error));
        }
        // Reopened in a fresh window (after another project): the access is back.
        MainWindow w;
        QVERIFY(showWithFile(w,
                             QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                             QSize(1300, 850)));
        QVERIFY(w.openFile(path));
        BankPanel* bank = docksOf(w)->bankPanel();
        QVERIFY(docksOf(w)->bankDock()->isVisible());
        QTRY_COMPARE(bank->accessText(), access);
        QVERIFY(!bank->autoAccess());
        QTRY_VERIFY(bank->cost());
        QTRY_VERIFY(!bank->analysisPending());
        // float16 (the panel's dtype, kept too): two elements a word, lanes in banks 0 and 16.
        QCOMPARE(bank->dtype(), QStringLiteral("float16"));
        QCOMPARE(bank->cost()->wavefronts, wavefronts);
        QCOMPARE(wavefronts, 16);
        QVERIFY(!w.document()->isDirty());
    }

    // In a lesson, an access the user types is not thrown away by moving between steps, the
    // step as authored is not changed, and the caption says the panel shows another access.
    void lessonKeepsTypedAccessAndSaysSo() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1300, 850)));
        DocumentModel* doc = w.document();
        BankPanel* bank = docksOf(w)->bankPanel();
        QTRY_COMPARE(bank->sourceName(), QString::fromStdString(doc->layout(0).name));
        const QString typed = QStringLiteral("lanes:lambda t, k: (t, k)");
        auto* edit = bank->findChild<QLineEdit*>(QStringLiteral("bankAccess"));
        edit->selectAll();
        QTest::keyClicks(edit, typed);
        QTRY_VERIFY(!bank->analysisPending());
        QCOMPARE(bank->cost()->wavefronts, 1024);
        QString caption = w.gridView()->caption();
        QVERIFY2(caption.contains(QStringLiteral("⚠")) && caption.contains(typed),
                 qPrintable(caption));
        QVERIFY(caption.contains(QStringLiteral("not this step's (lanes:lambda t: (t, 0))")));
        w.presenter()->nextStep();
        QTRY_COMPARE(bank->sourceName(), QString::fromStdString(doc->layout(1).name));
        QCOMPARE(bank->accessText(), QString::fromStdString(doc->layout(1).analysis.access));
        QVERIFY(!w.gridView()->caption().contains(QStringLiteral("⚠")));
        w.presenter()->previousStep();
        QTRY_COMPARE(bank->sourceName(), QString::fromStdString(doc->layout(0).name));
        QCOMPARE(bank->accessText(), typed);
        QTRY_VERIFY(!bank->analysisPending());
        QCOMPARE(bank->cost()->wavefronts, 1024);
        caption = w.gridView()->caption();
        QVERIFY2(caption.contains(typed), qPrintable(caption));
        // The lesson as authored is unchanged.
        QCOMPARE(doc->layout(0).analysis.access, std::string("lanes:lambda t: (t, 0)"));
        QVERIFY(!doc->isDirty());
        // Typing the step's access back: the note goes.
        edit->selectAll();
        QTest::keyClicks(edit, QStringLiteral("lanes:lambda t: (t, 0)"));
        QTRY_VERIFY(!bank->analysisPending());
        QTRY_VERIFY(!w.gridView()->caption().contains(QStringLiteral("⚠")));
    }

    // Projected, no cell label is under 14 px (it is left out instead), on the grid and the bank
    // heat map alike; a lane tag and its cell's bank number sit in separate halves of the cell.
    void presenterLabelsAreLegibleAndApart() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson), QSize(1300, 850)));
        BankPanel* bank = docksOf(w)->bankPanel();
        const double normal = w.gridView()->renderer().style().minLabelPx;
        QVERIFY(normal < 14);
        w.presenter()->setActive(true);
        QCoreApplication::processEvents();
        QCOMPARE(w.gridView()->renderer().style().minLabelPx, 14.0);
        QCOMPARE(bank->grid()->renderer().style().minLabelPx, 14.0);
        // The legend says nothing about labels that are not drawn.
        double f[2];
        bool compact = false;
        layout::labelFonts(w.gridView()->model(), w.gridView()->renderer().style().cell,
                           w.gridView()->scale(), f, &compact);
        bool labelLine = false;
        for (const LegendEntry& e : w.gridView()->renderer().legendEntries())
            labelLine = labelLine || e.aboutLabels;
        if (f[0] < 14) QVERIFY(!labelLine);
        w.presenter()->setActive(false);
        QCOMPARE(w.gridView()->renderer().style().minLabelPx, normal);
        QCOMPARE(bank->grid()->renderer().style().minLabelPx, normal);
        // Tagged cells from 14 to 120 px: label and tag apart, inside the cell, fonts that fit.
        for (double px = 14; px <= 120; px += 1.5) {
            const QRectF cell(10, 20, px, px);
            for (int chars : {1, 2}) {
                const auto m = CellMarksOverlay::layoutMarkedCell(cell, chars, 2);
                QVERIFY(!m.label.intersects(m.tag));
                QVERIFY(cell.contains(m.label) && cell.contains(m.tag));
                QVERIFY(m.labelPx <= m.label.height() && m.tagPx <= m.tag.height());
                QVERIFY(m.labelPx * 0.62 * chars <= m.label.width());
            }
        }
    }

    // The fractal panel docked beside the grid in presenter mode (42% of a 1920-pixel screen,
    // the presenter's 1.45x font) fits its width: nothing cut, no horizontal scroll bar.
    void fractalPanelFitsBesideTheGrid() {
        FractalPanel f;
        QFont font = f.font();
        font.setPointSizeF(font.pointSizeF() * 1.45);
        f.setFont(font);
        f.setTile(40, 40, QStringLiteral("float16"), QStringLiteral("zN"));
        // The dock's frame and the scroll area's bar take some of the 42%.
        const int docked = int(1920 * 0.42) - 40;
        f.resize(docked, 1000); // docked tall: the two grids one above the other
        f.show();
        QCoreApplication::processEvents();
        QVERIFY2(f.minimumSizeHint().width() <= docked,
                 qPrintable(QStringLiteral("%1 px needed, %2 px docked")
                                .arg(f.minimumSizeHint().width())
                                .arg(docked)));
    }

    // Heat cells: tooltips with bank, word and lanes; labelled by bank; a legend entry for every
    // colour drawn, the current instruction's frame included.
    void heatCellsExplainThemselves() {
        BankPanel p;
        p.resize(1100, 520);
        p.show();
        QVERIFY(p.applyView(QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"),
                            QStringLiteral("lanes:lambda t: (t, 0)"), QStringLiteral("float32"), 0,
                            false, 0));
        const QString tip = p.grid()->toolTipFor(5, 0);
        QVERIFY2(tip.contains(QStringLiteral("<b>bank</b> 0")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("<b>word</b> 160"))); // 5 * 32 floats
        QVERIFY(tip.contains(QStringLiteral("lane 5")));
        QVERIFY(tip.contains(QStringLiteral("32 wavefronts")));
        QVERIFY(!tip.contains(QStringLiteral("click")));
        const QString cold = p.grid()->toolTipFor(5, 3);
        QVERIFY(cold.contains(QStringLiteral("<b>bank</b> 3")));
        QVERIFY(cold.contains(QStringLiteral("not accessed by instruction 1")));
        // Labels: the bank of each cell.
        QCOMPARE(p.grid()->model().label(5, 3, 0), QStringLiteral("3"));
        QCOMPARE(p.grid()->model().label(7, 31, 0), QStringLiteral("31"));
        // Legend: the heat colours drawn, untouched cells, and the frame.
        QStringList texts;
        for (const LegendEntry& e : p.grid()->renderer().legendEntries())
            texts << e.text;
        QVERIFY2(texts.contains(QStringLiteral("32 wavefronts")), qPrintable(texts.join('|')));
        QVERIFY(texts.contains(QStringLiteral("not in instruction 1")));
        QVERIFY(texts.contains(QStringLiteral("frame: instruction 1's cells, tag = lane")));
        QVERIFY(texts.contains(QStringLiteral("label: bank")));
        // Where the cells are too small for their labels, the legend does not name them.
        QStringList small;
        for (const LegendEntry& e : p.grid()->renderer().legendEntries(0.05))
            small << e.text;
        QVERIFY2(!small.contains(QStringLiteral("label: bank")), qPrintable(small.join('|')));
        // Two bytes per element: an 8-byte element spans two banks and says so.
        QVERIFY(p.applyView(QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"),
                            QStringLiteral("lanes:lambda t: (t, 0)"), QStringLiteral("float64"), 0,
                            false, 0));
        QVERIFY(p.grid()->toolTipFor(1, 0).contains(QStringLiteral("<b>banks</b> 0–1")));
        // The heat grid is the panel's largest part: at the panel's default size its cells are
        // several pixels, not the 4 they were under a stacked chart.
        QCoreApplication::processEvents();
        QVERIFY(p.grid()->scale() * p.grid()->renderer().style().cell >= 8.0);
    }

    // Where users meet it: the bank dock opened from the main window at its default size (and
    // in presenter mode), on the lesson's 32x32 tile, has heat cells large enough to read.
    void heatCellsAreReadableDockedInTheWindow() {
        MainWindow w;
        QVERIFY(showWithFile(w, QString::fromLatin1(kLesson)));
        BankDocks* docks = docksOf(w);
        w.document()->setActive(0); // 1. column access, 32x32 fp32
        docks->bankDock()->show();
        BankPanel* bank = docks->bankPanel();
        QTRY_VERIFY(bank->sourceText().contains(QStringLiteral("32 x 32")));
        QTRY_COMPARE(bank->grid()->model().rows(), 32);
        QCoreApplication::processEvents();
        const double px = bank->grid()->scale() * bank->grid()->renderer().style().cell;
        QVERIFY2(px >= 8.0, qPrintable(QStringLiteral("%1 px per heat cell at %2x%3")
                                           .arg(px)
                                           .arg(w.width())
                                           .arg(w.height())));
        w.presenter()->presenterAction()->trigger();
        QCoreApplication::processEvents();
        // Full screen (800x800 here), docked tall beside the grid: still readable.
        QTRY_VERIFY2(
            bank->grid()->scale() * bank->grid()->renderer().style().cell >= 8.0,
            qPrintable(QStringLiteral("%1 px in presenter mode, %2 docked")
                           .arg(bank->grid()->scale() * bank->grid()->renderer().style().cell)
                           .arg(px)));
        QTest::keyClick(w.gridView(), Qt::Key_Escape);
    }

    // The other analysis panels say what their colours mean: the swizzle tiles have numbered
    // edges, a bank colour key and tooltips; the rasterization legend says colour = wave.
    void analysisPanelsExplainTheirColours() {
        SwizzlePanel sw;
        sw.resize(1200, 700);
        sw.show();
        QVERIFY(sw.refresh());
        for (GridView* g : {sw.beforeView(), sw.afterView(), sw.paddedView()}) {
            QVERIFY(g->headersVisible());
            QCoreApplication::processEvents();
            QVERIFY(!g->columnHeaderRect().isEmpty());
        }
        QVERIFY(sw.findChild<QWidget*>(QStringLiteral("bankLegend")));
        // Row 1 of the row-major 32x64 fp16 tile starts at byte 128: bank 0 again.
        const QString tip = sw.beforeView()->toolTipFor(1, 0);
        QVERIFY2(tip.contains(QStringLiteral("byte address 128")), qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("<b>bank</b> 0")));
        QVERIFY(sw.afterView()->toolTipFor(1, 0).contains(QStringLiteral("<b>bank</b> 4")));
        RasterPanel r;
        QVERIFY(r.refresh());
        const auto entries = r.plainView()->renderer().legendEntries();
        QVERIFY(!entries.empty());
        QVERIFY(entries.front().text.contains(QStringLiteral("colour = wave")));
        bool wave0 = false;
        for (const LegendEntry& e : entries)
            wave0 = wave0 || (e.text == QStringLiteral("wave 0") && e.color == categoricalColor(0));
        QVERIFY(wave0);
    }
};

QTEST_MAIN(TestTeaching)
#include "test_teaching.moc"
