// SPDX-License-Identifier: Apache-2.0
// Pasting CuTe or Triton text into the editor: the grid shows it, the editor names the
// notation, and the Edit menu copies the layout back as CuTe or as a Triton linear layout.
#include "test_gui_common.h"

#include "banks/bank_panel.h"
#include "document/documentmodel.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "trace/trace_viewer.h"
#include "window/compare_dialog.h"
#include "window/mainwindow.h"

#include "tilescope/layout/table_json.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QStatusBar>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace tsw;

namespace {

QAction* actionNamed(MainWindow& w, const QString& text) {
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == text) return a;
    return nullptr;
}

void paste(MainWindow& w, const QString& text) {
    CodeEdit* code = w.editor()->codeEdit();
    code->setFocus();
    code->selectAll();
    QApplication::clipboard()->setText(text);
    code->paste();
}

} // namespace

class TestGuiInterop : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    // Edit > Compare Layouts: the SM80 accumulator as TileLang's T.gemm fragment and as CuTe's
    // MMA_Atom TV layout, cell by cell; the comparison follows edits and removals of its sides.
    void compareLayoutsAcrossNotations() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(TILESCOPE_SOURCE_DIR
                                          "/samples/interop_sm80_accumulator.tilescope.json")));
        QVERIFY(w.document()->count() >= 2);
        w.document()->setActive(0);
        QAction* compare = actionNamed(w, QStringLiteral("Co&mpare Layouts…"));
        QVERIFY(compare);
        compare->trigger();
        CompareDialog* d = w.compareDialog();
        QVERIFY(d && d->isVisible());
        QCOMPARE(d->side(0), 0);
        QCOMPARE(d->side(1), 1);
        QVERIFY(d->view()->diff());
        QCOMPARE(d->view()->diff()->counts.differing(), 0);
        QCOMPARE(d->view()->diff()->counts.cells, 128);
        // Open in Editor on the right: that layout becomes the active one.
        emit d->view()->openInEditor(1);
        QCOMPARE(w.document()->active(), 1);
        // An edit of one side: compared again at once, now with differences.
        w.document()->setText(1, "Shape_MNK: (16,8,16)\nLayoutC_TV: ((4,8),(2,2)):((32,1),(8,16))");
        QVERIFY(d->view()->diff());
        QVERIFY(d->view()->diff()->counts.differing() > 0);
        // A side with an error: no numbers, the error named.
        w.document()->setText(1, "((4,8),(2,2)):((32,1),(8,16)");
        QVERIFY(!d->view()->diff());
        QVERIFY2(d->messageText().contains(QStringLiteral("column")), qPrintable(d->messageText()));
    }

    // Compare Layouts opens on a pair it can compare: the active fragment and the nearest other
    // fragment, past a T.Layout between them (it opened on the fragment and the T.Layout, "cannot
    // compare a Fragment with a Layout cell by cell"). With no partner it says why, and takes
    // one as soon as one is added.
    void compareOpensOnAComparablePair() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ts::Document d;
        d.layouts.push_back({"frag A",
                             "T.Fragment([16, 16], forward_thread_fn=lambda i, j: i * 4 + j // 4, "
                             "forward_index_fn=lambda i, j: (i % 2) * 4 + j % 4)",
                             {},
                             {}});
        d.layouts.push_back({"smem", "T.Layout([16, 16], lambda i, j: i * 16 + j)", {}, {}});
        d.layouts.push_back({"frag B", "make_gemm_c_fragment((16, 16), 32)", {}, {}});
        w.document()->replaceDocument(d, {}, false);
        w.document()->setActive(0);
        actionNamed(w, QStringLiteral("Co&mpare Layouts…"))->trigger();
        CompareDialog* c = w.compareDialog();
        QVERIFY(c && c->isVisible());
        QCOMPARE(c->side(0), 0);
        QCOMPARE(c->side(1), 2);
        QVERIFY2(c->view()->diff(), qPrintable(c->messageText()));
        QVERIFY(c->messageText().isEmpty());
        // The T.Layout is the only one of its kind.
        c->hide();
        w.document()->setActive(1);
        actionNamed(w, QStringLiteral("Co&mpare Layouts…"))->trigger();
        QCOMPARE(c->side(0), 1);
        QCOMPARE(c->side(1), -1);
        QVERIFY(!c->view()->diff());
        QVERIFY2(c->messageText().contains(QStringLiteral("«smem» is the only T.Layout")),
                 qPrintable(c->messageText()));
        // A second T.Layout added: taken at once, the reason gone.
        ts::DocLayout more{
            "swizzled", "make_full_bank_swizzled_layout((16, 64), \"float16\")", {}, {}};
        w.document()->addLayout(more);
        QCOMPARE(c->side(1), 3);
        QVERIFY(c->view()->diff());
        QVERIFY(c->messageText().isEmpty());
    }

    // CuTe's axes are its top-level modes, split colexicographically: the grid says so.
    void cuteAxesAreNamedOnTheGrid() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        paste(w, QStringLiteral("((2,4),8):((1,16),2)"));
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::LayoutInput);
        QTRY_VERIFY2(
            w.gridView()->model().subtitle().contains(QStringLiteral("colexicographically")),
            qPrintable(w.gridView()->model().subtitle()));
        paste(w, QStringLiteral("make_gemm_fragment_8x8()"));
        QTRY_VERIFY(!w.gridView()->model().subtitle().contains(QStringLiteral("CuTe")));
    }

    // The bank panel on CuTe and Triton text: a CuTe-swizzled shared tile read by a CuTe TV
    // access, and a Triton NVMMA shared layout read by a Triton dot operand, give exactly what
    // the same layouts give written in TileLang.
    void bankPanelAnalysesCuTeAndTritonLayouts() {
        struct Pair {
            QString layout, access, sameLayout, sameAccess;
        } pairs[] = {
            {QStringLiteral("Sw<3,3,3> o 0 o (16,64):(64,1)"),
             QStringLiteral("fragment:Shape_MNK: (16,8,16)\nLayoutA_TV: "
                            "((4,8),(2,2,2)):((32,1),(16,8,128))"),
             QStringLiteral("make_full_bank_swizzled_layout((16, 64), \"float16\")"),
             QStringLiteral("fragment:make_mma_load_base_layout(dtype=\"float16\", matrix=\"A\")")},
            {QStringLiteral("SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, "
                            "16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0]], block_bases=[])"),
             QStringLiteral("fragment:DistributedLinearLayout(reg_bases=[[0, 1], [8, 0], [0, 8]], "
                            "lane_bases=[[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp_bases=[], "
                            "block_bases=[], shape=[16, 16])"),
             QStringLiteral("Sw<3,3,3> o 0 o (16,64):(64,1)"),
             QStringLiteral("fragment:make_mma_load_base_layout(dtype=\"float16\", matrix=\"A\")")},
        };
        for (const Pair& p : pairs) {
            QString results[2];
            for (int k = 0; k < 2; ++k) {
                BankPanel panel;
                panel.resize(1100, 600);
                panel.setLayoutText(k ? p.sameLayout : p.layout);
                panel.setAccessText(k ? p.sameAccess : p.access);
                QVERIFY2(panel.analyze(), qPrintable(panel.errorText()));
                results[k] = panel.totalsText();
                QVERIFY2(results[k].contains(QStringLiteral("wavefront")), qPrintable(results[k]));
                QCOMPARE(panel.grid()->model().rows(), 16);
            }
            QCOMPARE(results[0], results[1]);
        }
    }

    void pastedCuTeTVShowsTheFragmentAndNamesTheNotation() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        QCOMPARE(w.editor()->notationText(), QStringLiteral("read as TileLang"));
        paste(w, QStringLiteral("MMA_Atom\n  ThrID:      _32:_1\n  Shape_MNK:  (_16,_8,_16)\n"
                                "  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))\n"));
        QTRY_COMPARE(w.gridView()->model().rows(), 16);
        QCOMPARE(w.gridView()->model().cols(), 8);
        QCOMPARE(w.editor()->notationText(), QStringLiteral("read as CuTe TV layout"));
        QVERIFY(w.editor()->errorText().isEmpty());
        // Row 8, column 1: thread 0 holds it in register 3 (the m16n8 accumulator).
        QCOMPARE(w.gridView()->model().label(0, 1, 0), QStringLiteral("T0"));
        QCOMPARE(w.gridView()->model().label(8, 1, 0), QStringLiteral("T0"));
        QCOMPARE(w.gridView()->model().label(8, 1, 1), QStringLiteral("L3"));
        QCOMPARE(w.gridView()->model().label(1, 0, 0), QStringLiteral("T4"));

        // Copy as Triton LinearLayout: the clipboard text reads back to the same cells.
        QAction* triton = actionNamed(w, QStringLiteral("Copy as T&riton LinearLayout"));
        QVERIFY(triton);
        triton->trigger();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY2(copied.startsWith(QStringLiteral("DistributedLinearLayout(")), qPrintable(copied));
        QCOMPARE(ts::tableJson(ts::parseMapping(copied.toStdString())),
                 ts::tableJson(*w.currentMapping()));
    }

    void pastedCuTeSwizzleAndTritonShared() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        paste(w, QStringLiteral("Sw<3,3,3> o 0 o (8,64):(64,1)"));
        QTRY_COMPARE(w.gridView()->model().cols(), 64);
        QCOMPARE(w.editor()->notationText(), QStringLiteral("read as CuTe layout"));
        QAction* cute = actionNamed(w, QStringLiteral("Copy as C&uTe"));
        QVERIFY(cute);
        cute->trigger();
        QCOMPARE(QApplication::clipboard()->text(),
                 QStringLiteral("Sw<3,3,3> o 0 o (8,64):(64,1)"));

        // Malformed Triton text: the error names its column, the last grid stays.
        paste(w, QStringLiteral("SharedLinearLayout(offset_bases=[[0, 1], [0, 2, 1]])"));
        QTRY_VERIFY(!w.editor()->errorText().isEmpty());
        QCOMPARE(w.editor()->notationText(), QStringLiteral("read as Triton linear layout"));
        QVERIFY2(w.editor()->errorText().contains(QStringLiteral("column 42")),
                 qPrintable(w.editor()->errorText()));
        QCOMPARE(w.gridView()->model().cols(), 64);

        // A layout with no exact CuTe form: the reason is shown and the clipboard is untouched.
        paste(w, QStringLiteral("T.Layout([8, 8], lambda i, j: (i * 8 + j) * (i * 8 + j) % 64)"));
        QTRY_VERIFY(w.editor()->errorText().isEmpty());
        QTRY_COMPARE(w.gridView()->model().cols(), 8);
        QApplication::clipboard()->setText(QStringLiteral("untouched"));
        cute->trigger();
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("untouched"));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("no exact CuTe form")),
                 qPrintable(w.statusBar()->currentMessage()));
    }

    void pastedGluonConstructorShowsTritonsLayout() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Gluon's MMA v2 accumulator for one warp, as written in a kernel: the m16n8 atom.
        paste(w, QStringLiteral("ttgl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 1], "
                                "instr_shape=[16, 8]), [16, 8]"));
        QTRY_COMPARE(w.gridView()->model().rows(), 16);
        QCOMPARE(w.gridView()->model().cols(), 8);
        QCOMPARE(w.editor()->notationText(), QStringLiteral("read as Triton linear layout"));
        QVERIFY(w.editor()->errorText().isEmpty());
        QCOMPARE(w.gridView()->model().label(8, 1, 0), QStringLiteral("T0"));
        QCOMPARE(w.gridView()->model().label(8, 1, 1), QStringLiteral("L3"));
        QCOMPARE(w.gridView()->model().label(1, 0, 0), QStringLiteral("T4"));

        // A bad argument: the error names its column, the last grid stays.
        paste(w, QStringLiteral("ttgl.BlockedLayout([1, 3], [4, 8], [4, 1], [1, 0]), [32, 32]"));
        QTRY_VERIFY(!w.editor()->errorText().isEmpty());
        QCOMPARE(w.editor()->notationText(), QStringLiteral("read as Triton linear layout"));
        QVERIFY2(w.editor()->errorText().contains(QStringLiteral("column 24")),
                 qPrintable(w.editor()->errorText()));
        QCOMPARE(w.gridView()->model().rows(), 16);
    }
};

QTEST_MAIN(TestGuiInterop)
#include "test_gui_interop.moc"
