// SPDX-License-Identifier: Apache-2.0
// Controls do what they show: a drop is a copy, the language reference fits the screen and
// filters, view actions that do not apply are disabled and views never mark the project
// modified, the replica legend matches the grid, menus, shortcuts, dialogs and wording.
#include "test_gui_common.h"

#include "banks/bank_panel.h"
#include "document/documentmodel.h"
#include "document/layoutlistmodel.h"
#include "document/recent_files.h"
#include "editor/language_reference.h"
#include "editor/mappingeditor.h"
#include "grid/gridrenderer.h"
#include "grid/gridview.h"
#include "trace/trace_viewer.h"
#include "window/mainwindow.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"

#include <QAbstractButton>
#include <QDockWidget>
#include <QFileDialog>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QSpinBox>
#include <QTextBrowser>
#include <QToolBar>
#include <QtTest>

#include <set>

using namespace tsw;

namespace {

QAction* menuAction(QMainWindow& w, const QString& menu, const QString& text) {
    for (QAction* m : w.menuBar()->actions())
        if (m->menu() && m->text().remove('&') == menu)
            for (QAction* a : m->menu()->actions())
                if (a->text().remove('&') == text) return a;
    return nullptr;
}

QStringList menuTitles(QMainWindow& w) {
    QStringList t;
    for (QAction* m : w.menuBar()->actions())
        if (m->menu()) t << m->text().remove('&');
    return t;
}

QString samplePath(const QString& name) {
    return MainWindow::samplesDirectory() + QLatin1Char('/') + name;
}

// Runs `f` on the first modal dialog that appears while the caller blocks (exec()).
void onNextModal(std::function<void(QWidget*)> f) {
    auto* t = new QTimer;
    t->setInterval(20);
    QObject::connect(t, &QTimer::timeout, [t, f] {
        if (QWidget* m = QApplication::activeModalWidget()) {
            t->stop();
            t->deleteLater();
            f(m);
        }
    });
    t->start();
}

int swatchCount(const GridModel& m) {
    int n = 0;
    for (const auto& e : m.legend())
        n += qAlpha(e.color) > 0;
    return n;
}

int distinctColours(const GridModel& m) {
    std::set<QRgb> s(m.colorData(), m.colorData() + m.cellCount());
    return int(s.size());
}

} // namespace

class TestGuiControls : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void droppedTextIsCopiedNotMoved() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        const QString orig = w.editor()->text();
        const int steps = w.document()->undoStack()->count();
        // The editor's own text dragged onto the grid: QTextEdit offers copy or move, proposes a
        // move, and deletes its selection when the target accepts one. The window (the nearest
        // widget over the grid that accepts drops) must take a copy.
        QMimeData same;
        same.setText(orig);
        const QPoint at = w.gridView()->mapTo(&w, w.gridView()->rect().center());
        QDragEnterEvent enter(at, Qt::CopyAction | Qt::MoveAction, &same, Qt::LeftButton,
                              Qt::NoModifier);
        enter.setDropAction(Qt::MoveAction);
        enter.ignore();
        QApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QCOMPARE(enter.dropAction(), Qt::CopyAction);
        QDragMoveEvent move(at, Qt::CopyAction | Qt::MoveAction, &same, Qt::LeftButton,
                            Qt::NoModifier);
        move.setDropAction(Qt::MoveAction);
        move.ignore();
        QApplication::sendEvent(&w, &move);
        QVERIFY(move.isAccepted());
        QCOMPARE(move.dropAction(), Qt::CopyAction);
        QDropEvent drop(at, Qt::CopyAction | Qt::MoveAction, &same, Qt::LeftButton, Qt::NoModifier);
        drop.setDropAction(Qt::MoveAction);
        drop.ignore();
        QApplication::sendEvent(&w, &drop);
        QVERIFY(drop.isAccepted());
        QCOMPARE(drop.dropAction(), Qt::CopyAction);
        QCOMPARE(w.editor()->text(), orig);
        QCOMPARE(w.document()->undoStack()->count(), steps); // the same text: no edit
        // Other text dropped becomes the mapping, still as a copy.
        QMimeData other;
        other.setText(QStringLiteral("make_gemm_c_fragment((32, 32), 128)\n"));
        QDragEnterEvent enter2(at, Qt::CopyAction | Qt::MoveAction, &other, Qt::LeftButton,
                               Qt::NoModifier);
        QApplication::sendEvent(&w, &enter2);
        QDropEvent drop2(at, Qt::CopyAction | Qt::MoveAction, &other, Qt::LeftButton,
                         Qt::NoModifier);
        drop2.setDropAction(Qt::MoveAction);
        drop2.ignore();
        QApplication::sendEvent(&w, &drop2);
        QVERIFY(drop2.isAccepted());
        QCOMPARE(drop2.dropAction(), Qt::CopyAction);
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        QCOMPARE(w.editor()->text(), QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QCOMPARE(w.document()->undoStack()->count(), steps + 1); // one undoable edit
        // A drag that allows only a move is refused rather than emptying its source.
        QDragEnterEvent moveOnly(at, Qt::MoveAction, &other, Qt::LeftButton, Qt::NoModifier);
        moveOnly.ignore();
        QApplication::sendEvent(&w, &moveOnly);
        QVERIFY(!moveOnly.isAccepted());
    }

    void languageReferenceFitsAndFilters() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* help = menuAction(w, QStringLiteral("Help"), QStringLiteral("Mapping Language"));
        QVERIFY(help);
        QCOMPARE(help->shortcut(), QKeySequence(QKeySequence::HelpContents));
        help->trigger();
        auto* ref = w.findChild<LanguageReference*>(QStringLiteral("languageReference"));
        QVERIFY(ref);
        QVERIFY(QTest::qWaitForWindowExposed(ref));
        QVERIFY(!ref->isModal()); // the editor stays usable while it is open
        const QRect avail = ref->screen()->availableGeometry();
        QVERIFY2(avail.contains(ref->frameGeometry()),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(ref->frameGeometry().width())
                                .arg(ref->frameGeometry().height())
                                .arg(avail.width())
                                .arg(avail.height())));
        // On a 1024x700 laptop screen it fits too, and can be made smaller.
        const QRect small(0, 0, 1024, 700);
        const QRect g = LanguageReference::fittedGeometry(small);
        QVERIFY(small.contains(g.adjusted(0, -30, 0, 0))); // room for a title bar
        QVERIFY(ref->minimumSize().width() <= g.width());
        QVERIFY(ref->minimumSize().height() <= g.height());
        // Everything the parser knows is listed; the text scrolls.
        QCOMPARE(ref->shownBuiltins().size(), int(ts::builtins().size()));
        const QString all = ref->browser()->toPlainText();
        for (const ts::Builtin& b : ts::builtins())
            QVERIFY2(all.contains(QString::fromStdString(b.name)), b.name.c_str());
        for (const std::string& f : ts::expressionFunctions())
            QVERIFY2(all.contains(QString::fromStdString(f)), f.c_str());
        QVERIFY(ref->browser()->verticalScrollBar()->maximum() > 0);
        // Typing filters.
        QTest::keyClicks(ref->filterEdit(), QStringLiteral("swizzle"));
        const QStringList shown = ref->shownBuiltins();
        QVERIFY(!shown.isEmpty());
        QVERIFY(shown.size() < int(ts::builtins().size()));
        for (const QString& n : shown) {
            const ts::Builtin* b = ts::findBuiltin(n.toStdString());
            QVERIFY(b);
            QString hay = QString::fromStdString(b->name + " " + b->summary);
            for (const auto& p : b->params)
                hay += QString::fromStdString(" " + p.name + " " + p.help);
            QVERIFY2(hay.contains(QStringLiteral("swizzle"), Qt::CaseInsensitive), qPrintable(n));
        }
        QVERIFY(ref->shownBuiltins().contains(QStringLiteral("make_full_bank_swizzled_layout")));
        QVERIFY(!ref->browser()->toPlainText().contains(QStringLiteral("make_gemm_c_fragment")));
        ref->setFilter(QStringLiteral("floordiv"));
        QVERIFY(ref->browser()->toPlainText().contains(QStringLiteral("T.floordiv")));
        ref->setFilter(QStringLiteral("no such thing at all"));
        QCOMPARE(ref->shownEntries(), 0);
        QVERIFY(ref->browser()->toPlainText().contains(QStringLiteral("Nothing matches")));
        // A second Help > Mapping Language reuses the window.
        help->trigger();
        QCOMPARE(w.findChildren<LanguageReference*>().size(), 1);
    }

    void viewChangesAreNotEditsAndInapplicableOnesAreDisabled() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(samplePath(QStringLiteral("default.tilescope.json"))));
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::Fragment);
        QVERIFY(!w.document()->isDirty());
        QAction* output = menuAction(w, QStringLiteral("View"), QStringLiteral("Output View"));
        QAction* input = menuAction(w, QStringLiteral("View"), QStringLiteral("Input View"));
        QVERIFY(output && input);
        QAction* colourBy = menuAction(w, QStringLiteral("View"), QStringLiteral("Colour By"));
        QVERIFY(colourBy && colourBy->menu());
        const QList<QAction*> colours = colourBy->menu()->actions();
        QCOMPARE(colours.size(), 4);
        QCOMPARE(colours[1]->text(), QStringLiteral("Warp"));
        for (QAction* a : colours)
            QVERIFY(a->isEnabled()); // a fragment's input view
        // The fragment's output view is its register file: thread x slot.
        QVERIFY(output->isEnabled());
        output->trigger();
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::FragmentOutput);
        const GridModel& m = w.gridView()->model();
        QCOMPARE(m.rows(), 32); // threads 4 * i + j // 2
        QCOMPARE(m.cols(), 2);  // slots j % 2
        QCOMPARE(m.label(0, 0, 0), QStringLiteral("[0,0]"));
        QCOMPARE(m.label(0, 1, 0), QStringLiteral("[0,1]"));
        QCOMPARE(m.label(5, 1, 0), QStringLiteral("[1,3]")); // T5 = 4*1 + 3//2, slot 3 % 2
        QVERIFY(m.title().contains(QStringLiteral("output view")));
        for (QAction* a : colours)
            QVERIFY(!a->isEnabled()); // coloured by element there
        input->trigger();
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::Fragment);
        colours[1]->trigger(); // warp
        QTRY_COMPARE(w.gridView()->model().colorMode(), ColorMode::Warp);
        // Pure view changes: no undo step, not modified, no "Save changes?" on quit.
        QCOMPARE(w.document()->undoStack()->count(), 0);
        QVERIFY(!w.document()->isDirty());
        QVERIFY(!w.isWindowModified());
        // A T.Layout: the colourings do not apply and are disabled; Ctrl+2 does nothing.
        const int layoutRow = [&] {
            for (int i = 0; i < w.document()->count(); ++i)
                if (w.document()->layout(i).name == "transpose 4x4") return i;
            return -1;
        }();
        QVERIFY(layoutRow >= 0);
        w.document()->setActive(layoutRow);
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::LayoutInput);
        for (QAction* a : colours)
            QVERIFY(!a->isEnabled());
        QVERIFY(!colours[1]->statusTip().isEmpty());
        const std::string before = w.document()->layout(layoutRow).view.color;
        w.gridView()->setFocus();
        QTest::keyClick(&w, Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(w.document()->layout(layoutRow).view.color, before);
        QVERIFY(!w.document()->isDirty());
        // Input and output views both apply to a layout.
        QVERIFY(output->isEnabled());
        output->trigger();
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::LayoutOutput);
        QVERIFY(!w.document()->isDirty());
        // Saving writes the view state on purpose.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("views.tilescope.json"));
        QVERIFY(w.saveFile(path));
        DocumentModel again;
        QString err;
        QVERIFY(again.load(path, &err));
        QCOMPARE(again.layout(layoutRow).view.view, std::string("output"));
    }

    void replicaLegendMatchesGrid() {
        const char* texts[] = {
            "make_gemm_c_fragment((32, 32), 128)", // replicate 1
            "make_mma_load_base_layout(dtype=\"float16\", matrix=\"A\").repeat([2, 1], "
            "repeat_on_thread=True).replicate(2)",
            "T.Fragment([64], forward_thread_fn=lambda i, rep: i % 4 * 32 + rep, replicate=32)",
            "make_fully_replicated_fragment((8, 8), 32)"};
        for (const char* t : texts) {
            const GridModel m =
                GridModel::fromMapping(ts::parseMapping(t), ViewMode::Input, ColorMode::Replica);
            const int colours = distinctColours(m);
            if (colours <= 12) {
                QCOMPARE(swatchCount(m), colours); // one swatch per colour on the grid
            } else {
                // The first 12 thread sets get swatches; the legend says how many are left out.
                QCOMPARE(swatchCount(m), 12);
                QVERIFY2(m.legend().back().text.contains(QStringLiteral("more thread set")), t);
            }
        }
        // Replicate 1: one colour, said so.
        const GridModel one =
            GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((32, 32), 128)"),
                                   ViewMode::Input, ColorMode::Replica);
        QCOMPARE(distinctColours(one), 1);
        QVERIFY(one.legend().front().text.contains(QStringLiteral("replicate = 1")));
        // Replicated: each swatch names its threads.
        const GridModel rep =
            GridModel::fromMapping(ts::parseMapping(texts[2]), ViewMode::Input, ColorMode::Replica);
        QVERIFY(rep.legend().front().text.startsWith(QStringLiteral("T0/T1/…/T31")));
        // More thread sets than swatches: the legend says how many are left out.
        const GridModel many = GridModel::fromMapping(
            ts::parseMapping("T.Fragment([64], forward_thread_fn=lambda i, rep: i * 2 + rep, "
                             "replicate=2)"),
            ViewMode::Input, ColorMode::Replica);
        QCOMPARE(swatchCount(many), 12);
        QVERIFY(many.legend().back().text.contains(QStringLiteral("52 more thread sets")));
    }

    void menusAndPanelsInOnePlace() {
        MainWindow w;
        w.setConfirmOnClose(false);
        const QStringList titles = menuTitles(w);
        QCOMPARE(titles.last(), QStringLiteral("Help"));
        QCOMPARE(titles.first(), QStringLiteral("File"));
        QVERIFY(titles.indexOf(QStringLiteral("Edit")) == 1);
        QVERIFY(titles.indexOf(QStringLiteral("View")) == 2);
        QVERIFY(titles.contains(QStringLiteral("Run")) &&
                titles.contains(QStringLiteral("Analysis")));
        // View > Panels lists every panel of the window.
        QAction* panelsAct = menuAction(w, QStringLiteral("View"), QStringLiteral("Panels"));
        QVERIFY(panelsAct && panelsAct->menu());
        QMenu* panels = panelsAct->menu();
        emit panels->aboutToShow();
        const auto docks = w.findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(docks.size() >= 10);
        for (QDockWidget* d : docks)
            QVERIFY2(panels->actions().contains(d->toggleViewAction()),
                     qPrintable(d->windowTitle()));
        // No widget's mnemonic steals a menu's Alt+letter (a "&vec" label once took Alt+V).
        QSet<QChar> menuKeys;
        for (QAction* m : w.menuBar()->actions())
            if (m->menu())
                menuKeys.insert(QKeySequence::mnemonic(m->text()).toString().back().toLower());
        QCOMPARE(menuKeys.size(), titles.size());
        auto mnemonicOf = [](const QString& text) {
            const QKeySequence k = QKeySequence::mnemonic(text);
            return k.isEmpty() ? QChar() : k.toString().back().toLower();
        };
        for (QLabel* l : w.findChildren<QLabel*>())
            if (l->buddy())
                QVERIFY2(!menuKeys.contains(mnemonicOf(l->text())), qPrintable(l->text()));
        for (QAbstractButton* b : w.findChildren<QAbstractButton*>())
            QVERIFY2(!menuKeys.contains(mnemonicOf(b->text())), qPrintable(b->text()));
        // The Run menu runs; showing the panel is View > Panels' job.
        QVERIFY(
            !menuAction(w, QStringLiteral("Run"), QStringLiteral("Run on device")) ||
            !menuAction(w, QStringLiteral("Run"), QStringLiteral("Run on device"))->isCheckable());
        QVERIFY(menuAction(w, QStringLiteral("Run"), QStringLiteral("Compile Only")));
    }

    void shortcutsForSaveAsAndDelete() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QAction* saveAs = menuAction(w, QStringLiteral("File"), QStringLiteral("Save As…"));
        QVERIFY(saveAs);
        QCOMPARE(saveAs->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+S")));
        auto* del = w.findChild<QAction*>(QStringLiteral("deleteLayoutAction"));
        QVERIFY(del);
        QCOMPARE(del->shortcut(), QKeySequence(QKeySequence::Delete));
        w.document()->addLayout({"second", "make_gemm_fragment_8x8()", {}, {}});
        QCOMPARE(w.document()->count(), 2);
        // Del in the mapping editor edits text, never deletes a layout.
        w.editor()->codeEdit()->setFocus();
        QTRY_VERIFY(w.editor()->codeEdit()->hasFocus());
        QTest::keyClick(w.editor()->codeEdit(), Qt::Key_Delete);
        QCOMPARE(w.document()->count(), 2);
        // Del in the Layouts list deletes the active layout (undoable).
        w.layoutListView()->setFocus();
        QTRY_VERIFY(w.layoutListView()->hasFocus());
        QTest::keyClick(w.layoutListView(), Qt::Key_Delete);
        QCOMPARE(w.document()->count(), 1);
        QVERIFY(w.document()->undoStack()->undoText().startsWith(QStringLiteral("Delete layout")));
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->count(), 2);
    }

    // A 1024 x 700 window with the Run panel open below the grid: every toolbar action is on
    // screen (the actions take a second row rather than the » overflow, which hid Copy as
    // TileLang Code, Export View and Run on Device) and the grid keeps a usable height (it was
    // about 200 pixels). A wide window keeps one row.
    void smallWindowKeepsActionsAndGrid() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.resize(1024, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* run = w.findChild<QDockWidget*>(QStringLiteral("runDock"));
        QVERIFY(run);
        run->show();
        run->raise();
        auto* main = w.findChild<QToolBar*>(QStringLiteral("mainToolbar"));
        auto* acts = w.findChild<QToolBar*>(QStringLiteral("actionsToolbar"));
        QVERIFY(main && acts);
        auto allShown = [&] {
            for (QToolBar* tb : {main, acts})
                for (QAction* a : tb->actions()) {
                    if (a->isSeparator() || !a->isVisible()) continue;
                    QWidget* b = tb->widgetForAction(a);
                    if (!b || !b->isVisible() || !tb->rect().contains(b->geometry())) return false;
                }
            return true;
        };
        QTRY_VERIFY(allShown());
        QVERIFY(w.toolBarBreak(acts));
        QStringList texts;
        for (QAction* a : acts->actions())
            texts << a->text();
        for (const char* t : {"Export View", "Copy as TileLang", "Run on Device"})
            QVERIFY2(
                texts.join(QLatin1Char('|')).remove(QLatin1Char('&')).contains(QLatin1String(t)),
                qPrintable(texts.join(QLatin1Char('|'))));
        QTRY_VERIFY(run->isVisible() && run->height() > 100);
        QVERIFY2(w.gridView()->height() >= 250,
                 qPrintable(QString::number(w.gridView()->height())));
        w.resize(1800, 900);
        QTRY_VERIFY(!w.toolBarBreak(acts));
        QTRY_VERIFY(allShown());
    }

    void undoButtonsKeepShortLabels() {
        MainWindow w;
        w.setConfirmOnClose(false);
        auto* tb = w.findChild<QToolBar*>(QStringLiteral("mainToolbar"));
        QVERIFY(tb);
        auto* undo = w.findChild<QAction*>(QStringLiteral("undoToolbarAction"));
        auto* redo = w.findChild<QAction*>(QStringLiteral("redoToolbarAction"));
        QVERIFY(undo && redo);
        QVERIFY(tb->actions().contains(undo) && tb->actions().contains(redo));
        QVERIFY(!undo->isEnabled());
        w.document()->setText(0, QStringLiteral("make_gemm_fragment_8x8()"));
        QVERIFY(undo->isEnabled());
        QCOMPARE(undo->text(), QStringLiteral("Undo"));
        QVERIFY2(undo->toolTip().contains(QStringLiteral("Edit mapping of")),
                 qPrintable(undo->toolTip()));
        undo->trigger();
        QCOMPARE(redo->text(), QStringLiteral("Redo"));
        QVERIFY(redo->isEnabled());
        QVERIFY(redo->toolTip().contains(QStringLiteral("Edit mapping of")));
        // Duplicate names its undo step as a duplicate.
        w.document()->duplicateLayout(0);
        QVERIFY2(
            w.document()->undoStack()->undoText().startsWith(QStringLiteral("Duplicate layout")),
            qPrintable(w.document()->undoStack()->undoText()));
        QVERIFY(undo->toolTip().contains(QStringLiteral("Duplicate layout")));
    }

    void unsavedChangesDialogHasMnemonics() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setText(0, QStringLiteral("make_gemm_fragment_8x8()"));
        QVERIFY(w.document()->isDirty());
        QStringList buttons;
        onNextModal([&](QWidget* m) {
            for (auto* b : m->findChildren<QPushButton*>())
                buttons << b->text();
            // Mnemonics are shortcuts of the active window.
            QTest::qWaitForWindowActive(m, 2000);
            QTest::keyClick(m, Qt::Key_D, Qt::AltModifier); // Discard
            // Never hang: if Alt+D did nothing, cancel (and the test fails below).
            if (!QTest::qWaitFor([m] { return !m->isVisible(); }, 1000))
                for (auto* b : m->findChildren<QPushButton*>())
                    if (b->text() == QStringLiteral("Cancel")) b->click();
        });
        QVERIFY(w.close()); // discarded: the window closes
        QVERIFY2(buttons.contains(QStringLiteral("&Save")), qPrintable(buttons.join('|')));
        QVERIFY(buttons.contains(QStringLiteral("&Discard")));
        QVERIFY(buttons.contains(QStringLiteral("Cancel")));
    }

    void openRecentHasNoDuplicatesAndShowsFolders() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("a")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("b")));
        QVERIFY(
            QFile::link(dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("link"))));
        const QString src = samplePath(QStringLiteral("transpose.tilescope.json"));
        const QString a = dir.filePath(QStringLiteral("a/default.tilescope.json"));
        const QString b = dir.filePath(QStringLiteral("b/default.tilescope.json"));
        QVERIFY(QFile::copy(src, a));
        QVERIFY(QFile::copy(src, b));
        MainWindow w;
        w.setConfirmOnClose(false);
        QSettings().remove(QStringLiteral("recentFiles"));
        QVERIFY(w.openFile(a));
        QVERIFY(w.openFile(dir.filePath(QStringLiteral("link/default.tilescope.json"))));
        QVERIFY(w.openFile(dir.filePath(QStringLiteral("a/../a/default.tilescope.json"))));
        QCOMPARE(w.recentFiles().size(), 1);
        QVERIFY(w.openFile(b));
        QCOMPARE(w.recentFiles().size(), 2);
        const QStringList labels = recentLabels(w.recentFiles());
        QCOMPARE(labels.size(), 2);
        QVERIFY(labels[0] != labels[1]);
        QCOMPARE(labels[0], QStringLiteral("default.tilescope.json — b"));
        QCOMPARE(labels[1], QStringLiteral("default.tilescope.json — a"));
        // Lists written by older versions, with two spellings of one file, are shown once.
        QCOMPARE(dedupeRecentPaths({a, dir.filePath(QStringLiteral("link/default.tilescope.json"))})
                     .size(),
                 1);
    }

    void exportStartsInTheProjectFolderWithASize() {
        QTemporaryDir dir;
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("proj")));
        const QString proj = dir.filePath(QStringLiteral("proj"));
        QVERIFY(w.saveFile(proj + QStringLiteral("/mine.tilescope.json")));
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        QString startDir, sizeText, selected;
        const QString out = proj + QStringLiteral("/half.png");
        onNextModal([&](QWidget* m) {
            auto* fd = qobject_cast<QFileDialog*>(m);
            if (!fd) {
                m->close();
                return;
            }
            startDir = fd->directory().absolutePath();
            auto* scale = fd->findChild<QSpinBox*>(QStringLiteral("exportScale"));
            if (scale) scale->setValue(50);
            if (auto* px = fd->findChild<QLabel*>(QStringLiteral("exportPixels")))
                sizeText = px->text();
            // The dialog applies its initial selection once the folder is listed: type the name
            // after that, then accept as the Save button does.
            QTest::qWait(300);
            for (QLineEdit* e : fd->findChildren<QLineEdit*>())
                if (e->text().endsWith(QStringLiteral(".png"))) {
                    e->setText(QFileInfo(out).fileName());
                    emit e->textEdited(e->text());
                }
            selected = fd->selectedFiles().value(0);
            QMetaObject::invokeMethod(fd, "done", Qt::DirectConnection,
                                      Q_ARG(int, QDialog::Accepted));
        });
        menuAction(w, QStringLiteral("File"), QStringLiteral("Export View…"))->trigger();
        QCOMPARE(startDir, QFileInfo(proj).absoluteFilePath());
        QCOMPARE(selected, out);
        QTRY_VERIFY(QFileInfo::exists(out));
        GridRenderer::Style style;
        style.legendInScene = true;
        const QSizeF native = GridRenderer(w.gridView()->model(), style).sceneSize();
        const QSize got = QImageReader(out).size();
        QCOMPARE(got.width(), int(std::ceil(native.width() * 0.5)));
        QVERIFY2(sizeText.startsWith(QStringLiteral("%1 × ").arg(got.width())),
                 qPrintable(sizeText));
    }

    void aboutShowsTheVersion() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString text;
        onNextModal([&](QWidget* m) {
            if (auto* box = qobject_cast<QMessageBox*>(m)) text = box->text();
            m->close();
        });
        menuAction(w, QStringLiteral("Help"), QStringLiteral("About Tilescope"))->trigger();
        QVERIFY2(text.contains(QRegularExpression(QStringLiteral("Tilescope \\d+\\.\\d+\\.\\d+"))),
                 qPrintable(text));
    }

    void namesAndWording() {
        // Sample titles are proper titles, not file names.
        QCOMPARE(
            MainWindow::sampleTitle(samplePath(QStringLiteral("mma_operand_a.tilescope.json"))),
            QStringLiteral("NVIDIA MMA operand A"));
        QCOMPARE(
            MainWindow::sampleTitle(samplePath(QStringLiteral("gemm_fragments.tilescope.json"))),
            QStringLiteral("GEMM fragments"));
        for (const QString& f :
             QDir(MainWindow::samplesDirectory()).entryList({QStringLiteral("*.tilescope.json")})) {
            const QString t = MainWindow::sampleTitle(samplePath(f));
            QVERIFY2(t.at(0).isUpper(), qPrintable(t));
            QVERIFY2(!t.contains('_'), qPrintable(t));
        }
        MainWindow w;
        w.setConfirmOnClose(false);
        QMenu* samples = nullptr;
        for (QAction* a : w.menuBar()->actions().first()->menu()->actions())
            if (a->menu() && a->text().remove('&') == QStringLiteral("Samples"))
                samples = a->menu();
        QVERIFY(samples);
        QStringList shown;
        for (QAction* a : samples->actions())
            shown << a->text();
        QVERIFY2(shown.contains(QStringLiteral("NVIDIA MMA operand A")),
                 qPrintable(shown.join('|')));
        // A new layout has a unique name that no edit of its text can make wrong.
        w.addLayout();
        QCOMPARE(QString::fromStdString(w.document()->activeLayout()->name),
                 QStringLiteral("new layout"));
        w.addLayout();
        QCOMPARE(QString::fromStdString(w.document()->activeLayout()->name),
                 QStringLiteral("new layout 2"));
        // "1 wavefront", "1 instruction", never "(s)".
        BankPanel p;
        p.setLayoutText(QStringLiteral("T.Layout([32, 64], lambda i, j: (i, j))"));
        p.setAccessText(QStringLiteral("lanes:lambda t: (0, t)")); // 32 x 2 B in one row
        QVERIFY2(p.analyze(), qPrintable(p.errorText()));
        QVERIFY2(p.totalsText().startsWith(QStringLiteral("1 instruction: 1 wavefront,")),
                 qPrintable(p.totalsText()));
        QVERIFY(!p.totalsText().contains(QStringLiteral("(s)")));
        TraceViewer v;
        v.importer()->feedText("tvm.error.InternalError: Check failed: x\n");
        v.importer()->finishText();
        QTRY_COMPARE(v.model()->eventCount(), 1);
        QTRY_VERIFY2(v.statusText().startsWith(QStringLiteral("1 event, 0 conflicts, 0 problems · "
                                                              "1 line")),
                     qPrintable(v.statusText()));
    }
};

QTEST_MAIN(TestGuiControls)
#include "test_gui_controls.moc"
