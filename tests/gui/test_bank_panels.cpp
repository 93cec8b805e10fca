// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen) for the analysis panels: the bank heat overlay and step-through, the UB
// assumptions, the swizzle preview and search, the fractal preview, the rasterization preview,
// and their docking into the main window. Screenshots go to docs/screenshots/ when
// TILESCOPE_SCREENSHOTS=1 (and to the test output directory otherwise).
#include "test_gui_common.h"

#include "banks/bank_docks.h"
#include "banks/bank_overlays.h"
#include "banks/bank_panel.h"
#include "banks/bank_ub_panel.h"
#include "banks/fractal_panel.h"
#include "banks/raster_panel.h"
#include "banks/swizzle_panel.h"
#include "grid/gridview.h"
#include "run/run_controller.h"
#include "run/run_history.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QChartView>
#include <QDir>
#include <QDockWidget>
#include <QMenuBar>
#include <QSlider>
#include <QTableWidget>
#include <QtTest>

#include "test_screenshots.h"

using namespace tsw;

class TestBankPanels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void heatOverlayAndTotals() {
        BankPanel p;
        p.setLayoutText(QStringLiteral("make_linear_layout((16, 64), \"float16\")"));
        p.setAccessText(QStringLiteral("ldmatrix:x4"));
        QVERIFY(p.analyze());
        QCOMPARE(p.instructionCount(), 1);
        QVERIFY(p.cost());
        QCOMPARE(p.cost()->wavefronts, 32);
        QVERIFY(p.totalsText().contains(QStringLiteral("32 wavefronts")));
        QVERIFY(p.totalsText().contains(QStringLiteral("efficiency 12.5%")));
        // The heat overlay colours the 16x16 sub-tile, leaves the rest grey.
        const QRgb hot = p.grid()->renderer().effectiveColor(0, 0);
        const QRgb cold = p.grid()->renderer().effectiveColor(0, 40);
        QVERIFY(hot != cold);
        QCOMPARE(cold, qRgb(236, 236, 236));
        const std::vector<double> h = p.histogram();
        QCOMPARE(int(h.size()), 32);
        QCOMPARE(h[0], 16.0);
        QCOMPARE(h[8], 0.0);
        QVERIFY(p.chart()->chart()->series().size() == 1);
        // Swizzled: conflict-free, a cooler colour.
        p.setLayoutText(QStringLiteral("make_full_bank_swizzled_layout((16, 64), \"float16\")"));
        QVERIFY(p.analyze());
        QCOMPARE(p.cost()->wavefronts, 4);
        QVERIFY(p.totalsText().contains(QStringLiteral("efficiency 100.0%")));
    }

    void stepThroughAndPlay() {
        BankPanel p;
        p.setLayoutText(QStringLiteral("make_linear_layout((32, 64), \"float16\")"));
        p.setAccessText(QStringLiteral("fragment:T.Fragment([32, 64], forward_thread_fn=lambda i, "
                                       "j: i, forward_index_fn=lambda i, j: j)"));
        QVERIFY(p.analyze());
        QCOMPARE(p.instructionCount(), 8);
        QCOMPARE(p.currentStep(), -1);
        QSignalSpy spy(&p, &BankPanel::stepChanged);
        p.slider()->setValue(2);
        QCOMPARE(p.currentStep(), 2);
        QCOMPARE(spy.count(), 1);
        QVERIFY(p.stepText().startsWith(QStringLiteral("3/8")));
        // Instruction 2 reads columns 16..23: those cells are hot, column 0 is grey now.
        QVERIFY(p.grid()->renderer().effectiveColor(5, 16) != qRgb(236, 236, 236));
        QCOMPARE(p.grid()->renderer().effectiveColor(5, 0), qRgb(236, 236, 236));
        QCOMPARE(p.histogram()[8], 32.0); // chunk 2 = banks 8..11, 32 rows
        p.setPlayIntervalMs(10);
        p.play();
        QVERIFY(p.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(p.currentStep() == 0, 2000); // wraps around
        p.pause();
        QVERIFY(!p.isPlaying());
        p.setCurrentStep(-1);
        QVERIFY(p.stepText().startsWith(QStringLiteral("all 8")));
        p.setCurrentStep(3);
        shoot(&p, QStringLiteral("bank-panel.png"), QSize(980, 860));
    }

    void badInputNamesLaneAndCoordinate() {
        BankPanel p;
        p.setLayoutText(QStringLiteral("make_linear_layout((16, 64), \"float16\")"));
        p.setAccessText(QStringLiteral("lanes:lambda t: (t, 0)"));
        QVERIFY(!p.analyze());
        QVERIFY(p.errorText().contains(QStringLiteral("lane 16")));
        QVERIFY(p.errorText().contains(QStringLiteral("(16, 0)")));
    }

    void ubAssumptionsShown() {
        UbPanel p;
        QVERIFY(p.assumptionsText().contains(QStringLiteral("bank")));
        p.setBlocksText(QStringLiteral("0x0\n0x200\n"));
        QVERIFY(p.analyze());
        QVERIFY(p.resultText().contains(QStringLiteral("cycle")));
        p.setBlocksText(QStringLiteral("zzz"));
        QVERIFY(!p.analyze());
        p.setBlocksText(QStringLiteral("0x0\n0x20\n0x200\n0x10000 w\n0x10200 w"));
        shoot(&p, QStringLiteral("ub-panel.png"), QSize(820, 600));
    }

    void swizzlePreviewAndSearch() {
        SwizzlePanel p;
        p.setTile(32, 64, QStringLiteral("float16"));
        p.setSwizzleBytes(128);
        QCOMPARE(p.xorTable()->columnCount(), 8);
        QCOMPARE(p.xorTable()->item(3, 5)->text(), QStringLiteral("6"));
        QVERIFY(p.verdictText().contains(QStringLiteral("bijective")));
        QVERIFY(p.runSearch());
        QVERIFY(p.searchText().contains(QStringLiteral("Proposal: 32B swizzle")));
        QVERIFY(p.searchText().contains(QStringLiteral("36 wavefronts")));
        // Before and after differ in the banks of row 1.
        QVERIFY(p.beforeView()->renderer().effectiveColor(1, 0) !=
                p.afterView()->renderer().effectiveColor(1, 0));
        p.setSwizzleBytes(64);
        QCOMPARE(p.xorTable()->columnCount(), 4);
        p.setTile(8, 16, QStringLiteral("float16"));
        QVERIFY(p.verdictText().contains(QStringLiteral("illegal")));
        p.setTile(32, 64, QStringLiteral("float16"));
        p.setSwizzleBytes(128);
        p.runSearch();
        shoot(&p, QStringLiteral("swizzle-panel.png"), QSize(1100, 900));
    }

    void fractalPreview() {
        FractalPanel p;
        p.setTile(20, 20, QStringLiteral("float16"), QStringLiteral("zN"));
        QVERIFY(p.footprintText().contains(QStringLiteral("1024 elements = 2048")));
        QCOMPARE(p.physicalView()->model().rows(), 32);
        QCOMPARE(p.physicalView()->model().cols(), 32);
        // Physical (0, 20) holds no logical element: zN pads rows 20..31 of column block 0.
        QVERIFY(!p.physicalView()->model().filled(4, 20));
        QVERIFY(p.physicalView()->model().filled(1, 25));
        p.setTile(20, 40, QStringLiteral("float16"), QStringLiteral("nZ"));
        QVERIFY(p.errorText().isEmpty());
        QVERIFY(p.footprintText().contains(QStringLiteral("tilelang-ascend \"ZN\"")));
        QVERIFY(p.ascendCode().contains(QStringLiteral("make_nz_layout(buf)")));
        // tilelang-ascend's "NZ" is CATLASS zN, never nZ.
        p.setTile(20, 40, QStringLiteral("float16"), QStringLiteral("NZ"));
        QVERIFY(p.footprintText().contains(QStringLiteral("<b>zN</b>")));
        QVERIFY(p.ascendCode().contains(QStringLiteral("make_zn_layout(buf)")));
        p.setTile(20, 40, QStringLiteral("float16"), QStringLiteral("nz"));
        QVERIFY(p.errorText().contains(QStringLiteral("ambiguous")));
        p.setTile(20, 40, QStringLiteral("float16"), QStringLiteral("zN"));
        shoot(&p, QStringLiteral("fractal-panel.png"), QSize(1150, 620));
    }

    void rasterPreview() {
        RasterPanel p;
        p.setGrid(8, 8, 2, QStringLiteral("row"), 8, 1);
        QVERIFY(p.errorText().isEmpty());
        QVERIFY(p.wavesText().contains(QStringLiteral("wave 0: 8 blocks")));
        // Launch index 1 goes to (bx 0, by 1) under row rasterization, (bx 1, by 0) plain.
        QCOMPARE(p.swizzledView()->model().label(1, 0, 0), QStringLiteral("1"));
        QCOMPARE(p.plainView()->model().label(0, 1, 0), QStringLiteral("1"));
        p.setGrid(8, 8, 3, QStringLiteral("mlx"), 8, 1);
        QVERIFY(!p.errorText().isEmpty()); // mlx needs a power of two
        p.setGrid(12, 12, 4, QStringLiteral("row"), 16, 1);
        shoot(&p, QStringLiteral("raster-panel.png"), QSize(1100, 720));
    }

    void dockedInMainWindow() {
        MainWindow w;
        w.setConfirmOnClose(false);
        auto* docks = w.findChild<BankDocks*>();
        QVERIFY(docks);
        QVERIFY(docks->bankDock());
        bool found = false;
        for (QAction* a : w.menuBar()->actions())
            found |= a->text().contains(QStringLiteral("Analysis"));
        QVERIFY(found);
    }

    // A finished device run puts measured next to predicted on the heat map panel.
    void measurementShownOnTheHeatMap() {
        MainWindow w;
        w.setConfirmOnClose(false);
        auto* bank = w.findChild<BankPanel*>();
        auto* ctl = w.findChild<RunController*>();
        QVERIFY(bank);
        QVERIFY(ctl);
        QVERIFY(bank->measurementText().isEmpty());
        RunRecord r;
        r.ok = true;
        r.predictedWf = 32;
        r.measuredWf = 32.0;
        r.nsPerWavefront = 0.506;
        r.device = QStringLiteral("NVIDIA H200");
        r.pattern = QStringLiteral("ldmatrix:x4");
        emit ctl->finished(r);
        QVERIFY(bank->measurementText().contains(
            QStringLiteral("32.000 wavefronts/instr (ncu) vs 32 predicted: agree")));
        QVERIFY(bank->measurementText().contains(QStringLiteral("NVIDIA H200")));
        QVERIFY(bank->measurementText().contains(QStringLiteral("0.506 ns per wavefront")));
        r.measuredWf = 4.0;
        emit ctl->finished(r);
        QVERIFY(bank->measurementText().contains(QStringLiteral("DIFFER")));
        r.measuredWf = -1;
        emit ctl->finished(r);
        QVERIFY(bank->measurementText().contains(QStringLiteral("no wavefront counter")));
    }
};

QTEST_MAIN(TestBankPanels)
#include "test_bank_panels.moc"
