// SPDX-License-Identifier: Apache-2.0
// A fragment with two elements in one register is never shown without a warning: the grid's
// banner names the first two cells and a click highlights every cell involved; exports say it too.
#include "editor/mappingeditor.h"
#include "grid/gridmodel.h"
#include "grid/gridview.h"
#include "test_gui_common.h"
#include "window/mainwindow.h"

#include "tilescope/notation/mapping.h"

#include <QTest>

using namespace tsw;

namespace {
const char* kColliding = "T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, "
                         "forward_index_fn=lambda i, j: j % 4)";
}

class TestGuiCollisions : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void modelNamesTheFirstTwoCells() {
        GridModel m = GridModel::fromMapping(ts::parseMapping(kColliding), ViewMode::Input,
                                             ColorMode::Thread);
        // All 64 elements share a register (32 registers hold two each).
        QCOMPARE(m.slotCollisions(), std::int64_t(64));
        QVERIFY2(m.collisionWarning().contains(QStringLiteral("(0, 0) and (0, 4)")),
                 qPrintable(m.collisionWarning()));
        QVERIFY2(m.subtitle().contains(QStringLiteral("64 elements share a register")),
                 qPrintable(m.subtitle()));
        GridModel ok =
            GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((16, 16), 32)"),
                                   ViewMode::Input, ColorMode::Thread);
        QCOMPARE(ok.slotCollisions(), std::int64_t(0));
        QVERIFY(ok.collisionWarning().isEmpty());
        QVERIFY(!ok.subtitle().contains(QStringLiteral("share a register")));
    }

    void bannerClickHighlightsEveryCollidingCell() {
        GridView v;
        v.resize(800, 600);
        v.setModel(GridModel::fromMapping(ts::parseMapping(kColliding), ViewMode::Input,
                                          ColorMode::Thread));
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        QVERIFY(v.shownBanner().contains(QStringLiteral("share a register")));
        QVERIFY(v.shownBanner().contains(QStringLiteral("click to highlight")));
        // Find the banner by scanning for its red fill along the top of the view.
        const QImage img = v.grab().toImage();
        QPoint hit(-1, -1);
        for (int y = 0; y < img.height() / 2 && hit.x() < 0; ++y)
            for (int x = 0; x < img.width(); ++x)
                if (img.pixel(x, y) == QColor(0xfe, 0xe2, 0xe2).rgb()) {
                    hit = QPoint(x + 4, y + 4);
                    break;
                }
        QVERIFY2(hit.x() >= 0, "no collision banner drawn");
        QTest::mouseClick(&v, Qt::LeftButton, {}, hit);
        QCOMPARE(v.highlight().kind, Highlight::Collisions);
        int matched = 0;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c)
                matched += v.model().matches(r, c, v.highlight());
        QCOMPARE(matched, 64);
        QTest::mouseClick(&v, Qt::LeftButton, {}, hit);
        QCOMPARE(v.highlight().kind, Highlight::None);
    }

    void typedCollidingFragmentShowsTheWarning() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_COMPARE(w.gridView()->model().rows(), 8);
        QVERIFY(w.gridView()->shownBanner().isEmpty());
        CodeEdit* code = w.editor()->codeEdit();
        code->setFocus();
        code->selectAll();
        QTest::keyClicks(code, QString::fromLatin1(kColliding));
        QTRY_COMPARE(w.gridView()->model().slotCollisions(), std::int64_t(64));
        QVERIFY(w.gridView()->shownBanner().contains(QStringLiteral("(0, 0) and (0, 4)")));
        // A text error keeps the colliding grid on screen: both banners stay, one line each.
        QTest::keyClicks(code, QStringLiteral(" +"));
        QTRY_VERIFY(!w.gridView()->banner().isEmpty());
        QVERIFY2(w.gridView()->shownBanner().contains(QStringLiteral("(0, 0) and (0, 4)")),
                 qPrintable(w.gridView()->shownBanner()));
        QVERIFY(w.gridView()->shownBanner().contains(w.gridView()->banner()));
        code->selectAll();
        QTest::keyClicks(code, QStringLiteral("make_gemm_c_fragment((16, 16), 32)"));
        QTRY_COMPARE(w.gridView()->model().rows(), 16);
        QVERIFY(w.gridView()->shownBanner().isEmpty());
    }
};

QTEST_MAIN(TestGuiCollisions)
#include "test_gui_collisions.moc"
