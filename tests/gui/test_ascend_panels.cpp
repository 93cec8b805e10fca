// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen) for the Ascend additions to the analysis panels: several DMAs into one zN
// tile under the fractal preview, the UB panel's stated / inferred split, the Ascend 950 UB, and
// msprof op measurements next to the UB model (loaded from a directory, and from a run).
#include "test_gui_common.h"

#include "banks/bank_ub_panel.h"
#include "banks/fractal_panel.h"
#include "banks/nz_splice_view.h"
#include "grid/gridmodel.h"
#include "grid/gridview.h"
#include "run/run_controller.h"
#include "window/mainwindow.h"

#include "tilescope/device/msprof_op.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include "test_screenshots.h"

#include <fstream>

using namespace tsw;

namespace {
// msprof op's two CSVs, in the documented column layout, with made-up values.
void writeMsprof(const QString& dir) {
    QDir().mkpath(dir + QStringLiteral("/OPPROF_20261201070000_ABCD"));
    const std::string base = (dir + QStringLiteral("/OPPROF_20261201070000_ABCD/")).toStdString();
    std::ofstream(base + "OpBasicInfo.csv")
        << "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,"
           "Current Freq,Rated Freq\nnd2nz_roundtrip_kernel,mix,21.5,1,N/A,0,1,1800,1800\n";
    std::ofstream(base + "ResourceConflictRatio.csv")
        << "block_id,sub_block_id,aiv_vec_total_cflt_ratio,aiv_vec_bankgroup_cflt_ratio,"
           "aiv_vec_bank_cflt_ratio\n0,vector0,0.3,0.25,0.15\n0,vector1,0.2,0.15,0.05\n";
}
} // namespace

class TestAscendPanels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void spliceUnderTheFractalPreview() {
        FractalPanel p;
        p.setTile(32, 32, QStringLiteral("float16"), QStringLiteral("NZ"));
        NzSpliceView* s = p.spliceView();
        QVERIFY(s);
        QVERIFY(s->summaryText().contains(QStringLiteral("type the row ranges")));
        s->setCopies(QStringLiteral("0:16, 16:32"));
        QVERIFY(s->summaryText().contains(QStringLiteral("Same as one full copy")));
        QVERIFY(s->summaryText().contains(QStringLiteral("copy 2 at offset 256")));
        QCOMPARE(s->spliceView()->model().rows(), 32); // 2 bands of 16 rows, nothing lost
        // The interleaving over the copy's rows: copy 1's column block 1 lands where copy 2
        // writes, and is lost below the tile.
        s->setBehaviour(QStringLiteral("copy"), QStringLiteral("offset0"));
        QVERIFY(s->summaryText().contains(QStringLiteral("Not what one full copy gives")));
        QVERIFY(s->spliceView()->model().rows() > 32);
        shoot(&p, QStringLiteral("fractal-splice.png"), QSize(1300, 900));
        // Clearing on every partial copy (before the fix): zeros past the tile.
        s->setBehaviour(QStringLiteral("tile"), QStringLiteral("every"));
        QVERIFY(s->summaryText().contains(QStringLiteral("zeroed past the tile")));
        // A bad range: the message names the copy, no grids.
        s->setCopies(QStringLiteral("0:16, 16:33"));
        QVERIFY(!s->refresh());
        QVERIFY(s->errorText().contains(QStringLiteral("copy 2 rows '16:33'")));
        // Another arrangement: the DMA writes zN, so the preview says so.
        s->setCopies(QStringLiteral("0:16, 16:32"));
        p.setTile(32, 32, QStringLiteral("float16"), QStringLiteral("ZN"));
        QVERIFY(s->summaryText().contains(QStringLiteral("choose zN (NZ)")));
    }

    void ubStatedInferredAnd950() {
        UbPanel p;
        QVERIFY(p.statedText().contains(QStringLiteral("192 KB in 48 banks")));
        QVERIFY(!p.statedText().contains(QStringLiteral("formula")));
        QVERIFY(p.inferredText().contains(QStringLiteral("16 * (addr / 64 KB)")));
        p.setBlocksText(QStringLiteral("0x0\n0x10000 w"));
        QVERIFY(p.analyze());
        QVERIFY(p.resultText().contains(QStringLiteral("read/write conflicts: 0")));
        p.setArch(QStringLiteral("950"));
        QVERIFY(p.statedText().contains(QStringLiteral("256 KB in 8 bank groups")));
        QVERIFY(p.statedText().contains(QStringLiteral("248 KB")));
        QVERIFY(p.analyze());
        QVERIFY(p.resultText().contains(QStringLiteral("read/write conflicts: 1")));
        p.setBlocksText(QStringLiteral("0x3E000"));
        QVERIFY(!p.analyze());
        QVERIFY(p.errorText().contains(QStringLiteral("253952-byte Ascend 950")));
        p.setArch(QStringLiteral("a2a3"));
        p.setBlocksText(QStringLiteral("0x0\n0x20\n0x200\n0x10000 w\n0x10200 w"));
        QVERIFY(p.analyze());
    }

    void measuredNextToPredicted() {
        UbPanel p;
        QVERIFY(p.measuredText().contains(QStringLiteral("No measurement loaded")));
        QTemporaryDir dir;
        QVERIFY(!p.loadMeasurement(dir.path()));
        QVERIFY(p.measuredText().contains(QStringLiteral("no OpBasicInfo.csv")));
        writeMsprof(dir.path());
        p.setBlocksText(QStringLiteral("0x10020\n0x10E20 w"));
        QVERIFY(p.loadMeasurement(dir.path()));
        const QString t = p.measuredText();
        QVERIFY2(t.contains(QStringLiteral("max 15.0%, mean 10.0%")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("model, this step: 50.0%")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("max 25.0%, mean 20.0%")), qPrintable(t));
        QVERIFY2(t.contains(QStringLiteral("task duration 21.500 us")), qPrintable(t));
        shoot(&p, QStringLiteral("ub-panel-measured.png"), QSize(900, 900));
        // The prediction follows the step; the measurement stays.
        p.setBlocksText(QStringLiteral("0x0"));
        QVERIFY(p.measuredText().contains(QStringLiteral("model, this step: 0.0%")));
        QVERIFY(p.measuredText().contains(QStringLiteral("max 15.0%")));
        p.clearMeasurement();
        QVERIFY(p.measuredText().contains(QStringLiteral("No measurement loaded")));
    }

    void runMeasurementReachesTheUbPanel() {
        MainWindow w;
        w.setConfirmOnClose(false);
        auto* ub = w.findChild<UbPanel*>();
        auto* ctl = w.findChild<RunController*>();
        QVERIFY(ub);
        QVERIFY(ctl);
        QTemporaryDir dir;
        writeMsprof(dir.path());
        auto m =
            std::make_shared<ts::MsprofOpResult>(ts::readMsprofOpDir(dir.path().toStdString()));
        emit ctl->ascendMeasured(m);
        QVERIFY(ub->measuredText().contains(QStringLiteral("max 15.0%")));
    }
};

QTEST_MAIN(TestAscendPanels)
#include "test_ascend_panels.moc"
