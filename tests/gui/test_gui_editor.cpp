// SPDX-License-Identifier: Apache-2.0
// Live editing: typing updates the grid, errors keep the last valid grid, undo/redo restores
// every edit; the models pass QAbstractItemModelTester; grid model labels follow plot_layout.
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "document/layoutlistmodel.h"
#include "editor/mappingeditor.h"
#include "grid/gridview.h"
#include "window/mainwindow.h"

#include "tilescope/notation/mapping.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QtTest>

using namespace tsw;

class TestGuiEditor : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void typingUpdatesGrid() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.gridView()->model().rows(), 8); // default: the 8x8 fragment
        CodeEdit* code = w.editor()->codeEdit();
        code->setFocus();
        code->selectAll();
        QTest::keyClicks(code, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        QCOMPARE(w.gridView()->model().cols(), 32);
        QCOMPARE(w.gridView()->model().label(0, 0, 0), QStringLiteral("T0"));
        QVERIFY(w.editor()->errorText().isEmpty());
        QCOMPARE(QString::fromStdString(w.document()->layout(0).text),
                 QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QVERIFY(w.document()->isDirty());
        QVERIFY(w.isWindowModified());
        // The fields page followed the text.
        QCOMPARE(w.editor()->builtinPicker()->currentText(),
                 QStringLiteral("make_gemm_c_fragment"));
    }

    void invalidKeepsOldGrid() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        CodeEdit* code = w.editor()->codeEdit();
        code->setFocus();
        code->moveCursor(QTextCursor::End);
        QTest::keyClicks(code, QStringLiteral(" +"));
        QTRY_VERIFY(!w.editor()->errorText().isEmpty());
        QVERIFY(w.editor()->errorColumn() > 0);
        QVERIFY2(w.editor()->errorText().contains(QStringLiteral("column")),
                 qPrintable(w.editor()->errorText()));
        QCOMPARE(w.gridView()->model().rows(), 32); // last valid grid stays
        QVERIFY(!w.gridView()->banner().isEmpty());
        QVERIFY(!code->extraSelections().isEmpty()); // underlined at the column
        // Fix it again.
        QTest::keyClick(code, Qt::Key_Backspace);
        QTest::keyClick(code, Qt::Key_Backspace);
        QTRY_VERIFY(w.editor()->errorText().isEmpty());
        QVERIFY(w.gridView()->banner().isEmpty());
        // Unknown name: error with a column, old grid kept.
        w.document()->setText(
            0, QStringLiteral("T.Fragment([4, 4], forward_thread_fn=lambda i, j: i + q)"));
        QTRY_VERIFY(!w.editor()->errorText().isEmpty());
        QCOMPARE(w.gridView()->model().rows(), 32);
    }

    // The grid draws whatever the core evaluates (up to 2^24 cells); past that the editor names
    // the limit and no stale grid stays on screen as if it were the new one.
    void largeDrawsAndTooLargeSaysTheLimit() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        w.document()->setText(0, QStringLiteral("make_linear_layout((4096, 2048), \"float16\")"));
        QTRY_COMPARE_WITH_TIMEOUT(w.gridView()->model().rows(), 4096, 30000);
        QCOMPARE(w.gridView()->model().cols(), 2048);
        QVERIFY(w.gridView()->message().isEmpty());
        w.document()->setText(0, QStringLiteral("make_linear_layout((8192, 4096), \"float16\")"));
        QTRY_VERIFY_WITH_TIMEOUT(!w.editor()->errorText().isEmpty(), 30000);
        QVERIFY2(w.editor()->errorText().contains(QStringLiteral("16777216")),
                 qPrintable(w.editor()->errorText()));
        QVERIFY(!w.gridView()->banner().isEmpty()); // "showing the last valid layout"
    }

    // The Fields and Builtin pages do not show the code, so an error's column is said to be on
    // the Code page there.
    void errorColumnNamesTheCodePageElsewhere() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128) +"));
        QTRY_VERIFY(w.editor()->errorColumn() > 0);
        const QString col = QStringLiteral("column %1").arg(w.editor()->errorColumn());
        QVERIFY(w.editor()->errorText().startsWith(QStringLiteral("⚠ ") + col));
        w.editor()->tabs()->setCurrentIndex(2);
        QVERIFY2(
            w.editor()->errorText().contains(col + QStringLiteral(" of the text on the Code page")),
            qPrintable(w.editor()->errorText()));
        w.editor()->tabs()->setCurrentIndex(0);
        QVERIFY(w.editor()->errorText().startsWith(QStringLiteral("⚠ ") + col));
    }

    void fieldsAndBuiltinWriteText() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        MappingEditor* e = w.editor();
        e->tabs()->setCurrentIndex(1);
        e->shapeField()->setText(QStringLiteral("[16, 8]"));
        QTest::keyClicks(e->threadField(), QStringLiteral(" "));
        e->threadField()->setText(QStringLiteral("i % 8 * 4 + j // 2"));
        QTest::keyClicks(e->indexField(), QStringLiteral(""));
        e->indexField()->setText(QStringLiteral("i // 8 * 2 + j % 2"));
        QTest::keyClicks(e->indexField(), QStringLiteral(" "));
        QTRY_COMPARE(w.gridView()->model().rows(), 16);
        QCOMPARE(w.gridView()->model().cols(), 8);
        QVERIFY(e->text().startsWith(QStringLiteral("T.Fragment([16, 8]")));
        // Builtin picker.
        e->tabs()->setCurrentIndex(2);
        QComboBox* b = e->builtinPicker();
        const int ix = b->findText(QStringLiteral("make_full_bank_swizzled_layout"));
        QVERIFY(ix > 0);
        b->setCurrentIndex(ix);
        emit b->activated(ix);
        QVERIFY(e->text().startsWith(QStringLiteral("make_full_bank_swizzled_layout(")));
        auto* shape = qobject_cast<QLineEdit*>(e->builtinParamWidget(QStringLiteral("shape")));
        QVERIFY(shape);
        shape->clear();
        QTest::keyClicks(shape, QStringLiteral("(8, 64)"));
        QTRY_COMPARE(w.gridView()->model().kind(), GridModel::Kind::LayoutInput);
        QCOMPARE(w.gridView()->model().cols(), 64);
    }

    void builtinPickerOffersOptionalParameters() {
        // dtype=None (make_gemm_c_fragment) and continuity=None (make_wgmma_swizzled_layout):
        // left at None they are not written; set, they are, and the text they sync back from
        // shows None again.
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        MappingEditor* e = w.editor();
        e->tabs()->setCurrentIndex(2);
        QComboBox* b = e->builtinPicker();
        int ix = b->findText(QStringLiteral("make_gemm_c_fragment"));
        QVERIFY(ix > 0);
        b->setCurrentIndex(ix);
        emit b->activated(ix);
        QCOMPARE(e->text(), QStringLiteral("make_gemm_c_fragment((32, 32))"));
        auto* dtype = qobject_cast<QComboBox*>(e->builtinParamWidget(QStringLiteral("dtype")));
        auto* acc = qobject_cast<QComboBox*>(e->builtinParamWidget(QStringLiteral("accum_dtype")));
        QVERIFY(dtype && acc);
        QCOMPARE(dtype->currentText(), QStringLiteral("None"));
        acc->setCurrentText(QStringLiteral("float64"));
        QTRY_COMPARE(e->text(),
                     QStringLiteral("make_gemm_c_fragment((32, 32), accum_dtype=\"float64\")"));
        dtype->setCurrentText(QStringLiteral("float64"));
        QTRY_COMPARE(e->text(), QStringLiteral("make_gemm_c_fragment((32, 32), "
                                               "accum_dtype=\"float64\", dtype=\"float64\")"));
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        QVERIFY(e->errorText().isEmpty());

        ix = b->findText(QStringLiteral("make_wgmma_swizzled_layout"));
        QVERIFY(ix > 0);
        b->setCurrentIndex(ix);
        emit b->activated(ix);
        auto* cont = qobject_cast<QSpinBox*>(e->builtinParamWidget(QStringLiteral("continuity")));
        QVERIFY(cont);
        QCOMPARE(cont->text(), QStringLiteral("None"));
        QVERIFY(!e->text().contains(QStringLiteral("continuity")));
        cont->setValue(16);
        QTRY_VERIFY(e->text().contains(QStringLiteral("continuity=16")));
        w.document()->setText(
            0, QStringLiteral("make_wgmma_swizzled_layout((16, 8), \"float64\", continuity=None)"));
        QTRY_COMPARE(w.gridView()->model().rows(), 16);
        cont = qobject_cast<QSpinBox*>(e->builtinParamWidget(QStringLiteral("continuity")));
        QVERIFY(cont);
        QCOMPARE(cont->text(), QStringLiteral("None"));
    }

    void undoRedoRestoresEachEdit() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        DocumentModel* d = w.document();
        const QString a = QStringLiteral("T.Layout([4, 4], lambda i, j: (j, i))");
        const QString b = QStringLiteral("make_gemm_c_fragment((32, 32), 128)");
        const QString orig = QString::fromStdString(d->layout(0).text);
        d->setText(0, a);
        QTRY_COMPARE(w.gridView()->model().rows(), 4);
        d->setText(0, b);
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        w.setColorMode(ColorMode::Warp); // a view change: not an undo step
        QTRY_COMPARE(w.gridView()->model().colorMode(), ColorMode::Warp);
        d->rename(0, QStringLiteral("renamed"));
        const int added = d->addLayout({"second", "make_gemm_fragment_8x8()", {}, {}});
        QCOMPARE(d->count(), 2);
        QCOMPARE(d->active(), added);
        QUndoStack* u = d->undoStack();
        QCOMPARE(u->count(), 4);

        u->undo(); // add
        QCOMPARE(d->count(), 1);
        u->undo(); // rename
        QCOMPARE(QString::fromStdString(d->layout(0).name), QStringLiteral("gemm 8x8 fragment"));
        u->undo(); // text b
        QCOMPARE(w.editor()->text(), a);
        QTRY_COMPARE(w.gridView()->model().rows(), 4);
        u->undo(); // text a
        QCOMPARE(w.editor()->text(), orig);
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        QCOMPARE(w.gridView()->model().colorMode(), ColorMode::Warp); // the view stays
        QVERIFY(!d->isDirty());

        u->redo();
        QCOMPARE(w.editor()->text(), a);
        u->redo();
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        u->redo();
        QCOMPARE(QString::fromStdString(d->layout(0).name), QStringLiteral("renamed"));
        u->redo();
        QCOMPARE(d->count(), 2);
        QVERIFY(d->isDirty());
    }

    void typingMergesIntoOneStep() {
        DocumentModel d;
        d.setText(0, QStringLiteral("a"), true);
        d.setText(0, QStringLiteral("ab"), true);
        d.setText(0, QStringLiteral("abc"), true);
        QCOMPARE(d.undoStack()->count(), 1);
        d.undoStack()->undo();
        QVERIFY(QString::fromStdString(d.layout(0).text).startsWith(QStringLiteral("T.Fragment")));
    }

    void layoutListModelTester() {
        DocumentModel d;
        LayoutListModel m(&d);
        QAbstractItemModelTester t(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 1);
        d.addLayout({"x", "make_gemm_fragment_8x8()", {}, {}});
        d.addLayout({"x", "make_gemm_fragment_8x8()", {}, {}}, 0);
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.data(m.index(0)).toString(), QStringLiteral("x 2")); // unique names
        QVERIFY(m.setData(m.index(1), QStringLiteral("renamed")));
        QCOMPARE(m.data(m.index(1)).toString(), QStringLiteral("renamed"));
        QCOMPARE(m.data(m.index(1), LayoutListModel::TextRole).toString(),
                 QString::fromStdString(d.layout(1).text));
        d.removeLayout(0);
        QCOMPARE(m.rowCount(), 2);
        d.undoStack()->undo();
        QCOMPARE(m.rowCount(), 3);
        d.newDocument();
        QCOMPARE(m.rowCount(), 1);
        d.duplicateLayout(0);
        QCOMPARE(m.rowCount(), 2);
    }

    void gridModelLabelsFollowPlotLayout() {
        const ts::Mapping f =
            ts::parseMapping("T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, "
                             "forward_index_fn=lambda i, j: j % 2)");
        const GridModel g = GridModel::fromMapping(f, ViewMode::Input, ColorMode::Thread);
        QCOMPARE(g.rows(), 8);
        QCOMPARE(g.label(0, 2, 0), QStringLiteral("T1"));
        QCOMPARE(g.label(0, 3, 1), QStringLiteral("L1"));
        QCOMPARE(g.label(7, 7, 0), QStringLiteral("T31"));
        const Highlight h = g.highlightFor(0, 0, false);
        int n = 0;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c)
                n += g.matches(r, c, h);
        QCOMPARE(n, 2);
        // Lanes of one warp get distinct hues.
        QVERIFY(g.color(0, 0) != g.color(0, 2));
        // Replicas are all listed.
        const ts::Mapping rep = ts::parseMapping(
            "T.Fragment([4], forward_thread_fn=lambda i, rep: i + 4 * rep, replicate=2)");
        const GridModel gr = GridModel::fromMapping(rep, ViewMode::Input, ColorMode::Replica);
        QCOMPARE(gr.rows(), 1);
        QCOMPARE(gr.label(0, 1, 0), QStringLiteral("T1/5"));
        // Layout views: input labels = flattened output index, output labels = source coords.
        const ts::Mapping t = ts::parseMapping("T.Layout([4, 4], lambda i, j: (j, i))");
        const GridModel in = GridModel::fromMapping(t, ViewMode::Input, ColorMode::Thread);
        QCOMPARE(in.label(1, 0, 0), QStringLiteral("1"));
        QCOMPARE(in.label(0, 1, 0), QStringLiteral("4"));
        const GridModel out = GridModel::fromMapping(t, ViewMode::Output, ColorMode::Thread);
        QCOMPARE(out.label(0, 1, 0), QStringLiteral("[1,0]"));
        QVERIFY(out.info(0, 1).physical.contains(QStringLiteral("offset 1")));
        // Higher ranks flatten as plot_layout: (prod(shape[:-1]), shape[-1]).
        const ts::Mapping r3 =
            ts::parseMapping("T.Layout([2, 4, 8], lambda i, j, k: (k, i * 4 + j))");
        const GridModel g3 = GridModel::fromMapping(r3, ViewMode::Input, ColorMode::Thread);
        QCOMPARE(g3.rows(), 8);
        QCOMPARE(g3.cols(), 8);
    }

    void rendererGeometryAndSync() {
        const ts::Mapping f = ts::parseMapping("make_gemm_c_fragment((32, 32), 128)");
        GridRenderer r(GridModel::fromMapping(f, ViewMode::Input, ColorMode::Thread));
        for (int row : {0, 5, 31})
            for (int col : {0, 17, 31}) {
                const auto c = r.cellAt(r.cellRect(row, col).center());
                QVERIFY(c);
                QCOMPARE(c->y(), row);
                QCOMPARE(c->x(), col);
            }
        QVERIFY(!r.cellAt(QPointF(-5, -5)));
        // Two views kept in step.
        GridView a, b;
        a.resize(600, 400);
        b.resize(600, 400);
        a.setModel(r.model());
        b.setModel(r.model());
        connect(&a, &GridView::viewTransformChanged, &b, &GridView::setViewTransform);
        a.zoomBy(2.0, QPointF(100, 100));
        QCOMPARE(b.scale(), a.scale());
        QCOMPARE(b.pan(), a.pan());
        // Click highlights the thread of the cell.
        a.show();
        QVERIFY(QTest::qWaitForWindowExposed(&a));
        a.zoomToFit();
        const QPointF p = a.sceneToWidget(a.renderer().cellRect(0, 0).center());
        QTest::mouseClick(&a, Qt::LeftButton, {}, p.toPoint());
        QCOMPARE(a.highlight().kind, Highlight::Thread);
        QCOMPARE(a.highlight().value, 0);
        QTest::mouseClick(&a, Qt::LeftButton, Qt::ShiftModifier, p.toPoint());
        QCOMPARE(a.highlight().kind, Highlight::Slot);
    }
};

QTEST_MAIN(TestGuiEditor)
#include "test_gui_editor.moc"
