// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen) for the Kernel panel (widgets/kernel): real corpus kernels (data/kernels)
// opened as a user does, the tables checked against the core's own X-ray, an access selected and
// its heat on the buffer's tile checked against the core's instance, a measured.json imported
// and its per-line statuses checked against the core's comparison, a second kernel leaving
// nothing of the first, broken files, the layouts opened into the window's project, File > New,
// and (where a .venv imports TileLang) a .py lowered and a lowering cancelled.
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "grid/gridview.h"
#include "kernel/kernel_heat.h"
#include "kernel/kernel_load.h"
#include "kernel/kernel_models.h"
#include "kernel/kernel_panel.h"
#include "kernel/source_view.h"
#include "window/mainwindow.h"

#include "tilescope/banks/bank_model.h"
#include "tilescope/kernel/kernel_view.h"
#include "tilescope/kernel/kernel_xray.h"
#include "tilescope/kernel/lowering.h"
#include "tilescope/kernel/measured.h"
#include "tilescope/notation/mapping.h"

#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace tsw;

namespace {

QString corpus(const QString& kernel, const QString& file) {
    return QStringLiteral(TILESCOPE_SOURCE_DIR "/data/kernels/") + kernel + QLatin1Char('/') + file;
}

std::string readAll(const QString& path) {
    std::ifstream f(path.toStdString(), std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// The core's X-ray of a corpus .cu with its meta.json, as the CLI computes it: what the panel's
// tables must show.
struct CoreKernel {
    std::vector<ts::kernel::KernelLaunch> launches;
    ts::kernel::KernelXray x;
};
CoreKernel coreXray(const QString& kernel) {
    const nlohmann::json meta = nlohmann::json::parse(readAll(corpus(kernel, "meta.json")));
    CoreKernel c;
    c.launches = ts::kernel::launchesFromMeta(meta);
    auto xs = ts::kernel::xrayKernels(readAll(corpus(kernel, "kernel.cu")),
                                      ts::kernel::optionsFor(c.launches.at(0)));
    c.x = std::move(xs.at(0));
    ts::kernel::attachLayouts(c.x, meta["layouts"]);
    return c;
}

bool openAndWait(KernelPanel& p, const QString& path, bool expectOk = true, int ms = 30000) {
    QSignalSpy spy(&p, &KernelPanel::kernelLoaded);
    p.openKernel(path);
    if (!spy.wait(ms)) return false;
    return spy.at(0).at(0).toBool() == expectOk;
}

// The heat of the selected instance, once it is on screen.
bool waitHeat(KernelPanel& p, int ms = 10000) {
    if (!p.busy() && p.heat()) return true;
    QSignalSpy spy(&p, &KernelPanel::heatShown);
    return spy.wait(ms) || (!p.busy() && p.heat());
}

QString cell(QAbstractItemModel* m, int row, int col) {
    return m->data(m->index(row, col), Qt::DisplayRole).toString();
}

// The source row of an access in the panel's (sorted) table.
int proxyRowOfSite(KernelPanel& p, int site) {
    auto* m = p.accessProxy();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->data(m->index(r, 0), kIndexRole).toInt() == site) return r;
    return -1;
}

int bufferIndex(const ts::kernel::KernelXray& k, const std::string& name) {
    for (std::size_t i = 0; i < k.buffers.size(); ++i)
        if (k.buffers[i].name == name) return int(i);
    return -1;
}

int siteAtLine(const ts::kernel::KernelXray& k, int line) {
    for (std::size_t i = 0; i < k.sites.size(); ++i)
        if (k.sites[i].line == line) return int(i);
    return -1;
}

// Cells of the heat grid the instance colours (not the untouched grey).
int hotCells(KernelPanel& p) {
    const GridView* g = p.heatGrid();
    int n = 0;
    for (int r = 0; r < g->model().rows(); ++r)
        for (int c = 0; c < g->model().cols(); ++c)
            if (g->renderer().effectiveColor(r, c) != InstanceHeatOverlay::kUntouched) ++n;
    return n;
}

QString outDir() {
    QString d = qEnvironmentVariable("TILESCOPE_TEST_OUT");
    if (d.isEmpty()) d = QDir::tempPath() + QStringLiteral("/tilescope-test-out");
    QDir().mkpath(d);
    return d;
}

QString tileLangPython() {
    const QString py = QStringLiteral(TILESCOPE_SOURCE_DIR "/.venv/bin/python");
    if (!QFileInfo(py).isExecutable()) return {};
    QProcess p;
    p.start(py, {QStringLiteral("-c"), QStringLiteral("import tilelang")});
    if (!p.waitForFinished(120000) || p.exitCode() != 0) return {};
    return py;
}

} // namespace

class TestKernelPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void tablesShowTheCoresNumbers() {
        const CoreKernel core = coreXray(QStringLiteral("gemm_fp16_128x128x32_s3"));
        const ts::kernel::KernelXray& k = core.x;
        KernelPanel p;
        p.resize(1500, 800);
        p.show();
        QVERIFY(openAndWait(p, corpus("gemm_fp16_128x128x32_s3", "kernel.cu")));
        QVERIFY(p.errorText().isEmpty());
        QVERIFY(p.headerLabel()->text().contains(QString::fromStdString(k.name)));

        // Buffers: every one, in declaration order, with the core's bytes, address and the
        // TileLang type and inferred layout from meta.json.
        auto* bm = p.bufferModel();
        int listed = 0;
        for (const auto& b : k.buffers)
            listed += b.scope != "global" && b.scope != "param";
        QCOMPARE(bm->rowCount(), listed);
        QCOMPARE(listed, 11); // the kernel's parameters A, B, C are not buffers of the block
        for (int r = 0; r < bm->rowCount(); ++r) {
            const auto& b = k.buffers[std::size_t(bm->bufferAt(r))];
            QCOMPARE(cell(bm, r, BufferModel::Name), QString::fromStdString(b.name));
            QCOMPARE(cell(bm, r, BufferModel::Scope), QString::fromStdString(b.scope));
            QCOMPARE(cell(bm, r, BufferModel::Bytes), QString::number(b.bytes));
            if (b.scope.rfind("shared", 0) == 0)
                QCOMPARE(cell(bm, r, BufferModel::Address), QString::number(b.address));
            else
                QCOMPARE(cell(bm, r, BufferModel::Address), QStringLiteral("—"));
        }
        const int aShared = bm->rowOf(bufferIndex(k, "A_shared"));
        QCOMPARE(cell(bm, aShared, BufferModel::Name), QStringLiteral("A_shared"));
        QCOMPARE(cell(bm, aShared, BufferModel::TileLang), QStringLiteral("float16 [3, 128, 32]"));
        QVERIFY(cell(bm, aShared, BufferModel::Layout).startsWith("Layout((3, 128, 32)"));
        QCOMPARE(cell(bm, bm->rowOf(bufferIndex(k, "B_shared")), BufferModel::Address),
                 QStringLiteral("24576"));
        QCOMPARE(cell(bm, bm->rowOf(bufferIndex(k, "C_local")), BufferModel::TileLang),
                 QStringLiteral("float32 [128, 128]"));

        // Accesses: one row per site, the core's numbers in each column.
        auto* am = p.accessModel();
        QCOMPARE(am->rowCount(), int(k.sites.size()));
        QCOMPARE(am->rowCount(), 12);
        for (std::size_t i = 0; i < k.sites.size(); ++i) {
            const auto& s = k.sites[i];
            const auto& c = k.costs[i];
            const int r = int(i);
            QCOMPARE(cell(am, r, AccessModel::Line), QString::number(s.line));
            QCOMPARE(cell(am, r, AccessModel::Op), QString::fromStdString(s.opName()));
            QCOMPARE(cell(am, r, AccessModel::Buffer),
                     QString::fromStdString(k.buffers[std::size_t(s.buffer)].name));
            QCOMPARE(cell(am, r, AccessModel::Instructions), QString::number(c.instructions));
            QCOMPARE(cell(am, r, AccessModel::Wavefronts), QString::number(c.wavefronts));
            QCOMPARE(cell(am, r, AccessModel::Excess), QString::number(c.excess));
            QCOMPARE(cell(am, r, AccessModel::PerInstruction), perInstructionRange(c));
        }
        // The A_shared cp.async of line 32 costs 8 wavefronts per instruction, 64 excess, all of
        // it from the two global lines each phase reads: its banks are conflict-free, and the
        // status must not call it a bank conflict.
        const int l32 = siteAtLine(k, 32);
        QCOMPARE(cell(am, l32, AccessModel::PerInstruction), QStringLiteral("8"));
        QCOMPARE(cell(am, l32, AccessModel::Excess), QStringLiteral("64"));
        QCOMPARE(cell(am, l32, AccessModel::Status),
                 QStringLiteral("global lines (no bank conflict)"));
        QCOMPARE(cell(am, siteAtLine(k, 67), AccessModel::Status), QStringLiteral("no conflict"));

        // Sorting by wavefronts, highest first, puts the 3840-wavefront lines on top (numbers,
        // not text: "960" would sort above "3840" as text).
        p.accessesView()->sortByColumn(AccessModel::Wavefronts, Qt::DescendingOrder);
        QCOMPARE(cell(p.accessProxy(), 0, AccessModel::Wavefronts), QStringLiteral("3840"));
        QCOMPARE(cell(p.accessProxy(), p.accessProxy()->rowCount() - 1, AccessModel::Wavefronts),
                 QStringLiteral("64"));
        p.accessesView()->sortByColumn(AccessModel::Line, Qt::AscendingOrder);
        QCOMPARE(cell(p.accessProxy(), 0, AccessModel::Line), QStringLiteral("32"));

        // Footprint and occupancy, as the core computed them.
        const QString fp = p.footprintLabel()->text();
        QVERIFY2(fp.contains(QStringLiteral("0 B static + 49152 B dynamic (launch) = <b>49152 B")),
                 qPrintable(fp));
        QVERIFY2(fp.contains(QStringLiteral("at least %1").arg(k.registers_lower_bound)),
                 qPrintable(fp));
        const QString occ = p.occupancyLabel()->text();
        for (const auto& o : k.occupancy) {
            QVERIFY2(occ.contains(QStringLiteral("%1: <b>%2 blocks</b> per SM")
                                      .arg(QString::fromStdString(o.arch))
                                      .arg(o.blocks_per_sm)),
                     qPrintable(occ));
            QVERIFY(
                occ.contains(QStringLiteral("limited by ") + QString::fromStdString(o.limiter)));
        }
        QVERIFY(occ.contains(QStringLiteral("sm_80")) && occ.contains(QStringLiteral("sm_90")));
        // The source, read-only, every line of it.
        QVERIFY(p.sourceView()->isReadOnly());
        QCOMPARE(p.sourceView()->toPlainText().toStdString(),
                 readAll(corpus("gemm_fp16_128x128x32_s3", "kernel.cu")));
        QVERIFY(p.statusText().contains(QStringLiteral("meta.json")));
        QVERIFY(p.totalsLabel()->text().startsWith(
            QStringLiteral("Total: %1 instructions, %2 wavefronts (ideal %3, excess %4)")
                .arg(k.instructions)
                .arg(k.wavefronts)
                .arg(k.ideal)
                .arg(k.excess)));
        QVERIFY(waitHeat(p));
        QImage shot = p.grab().toImage();
        QVERIFY(shot.save(outDir() + QStringLiteral("/kernel-panel.png")));
    }

    void selectedAccessShowsItsHeat() {
        const CoreKernel core = coreXray(QStringLiteral("gemm_fp16_128x128x32_s3"));
        const ts::kernel::KernelXray& k = core.x;
        KernelPanel p;
        p.resize(1500, 800);
        p.show();
        QVERIFY(openAndWait(p, corpus("gemm_fp16_128x128x32_s3", "kernel.cu")));
        // The first analysed access is shown at once: line 32, A_shared, cp.async.
        QVERIFY(waitHeat(p));
        const int l32 = siteAtLine(k, 32);
        QCOMPARE(p.selectedSite(), l32);
        QCOMPARE(p.sourceView()->markedLine(), 32);
        QCOMPARE(p.heatGrid()->model().rows(), 3 * 128);
        QCOMPARE(p.heatGrid()->model().cols(), 32);
        QString caption = p.captionLabel()->text();
        QVERIFY2(caption.startsWith(QStringLiteral("A_shared float16 [3 x 128 x 32]: the layout "
                                                   "TileLang inferred for A_shared")),
                 qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("warp 0, iteration 0")), qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("8 wavefronts (ideal 4)")), qPrintable(caption));
        // Every lane moves 16 bytes = 8 float16 cells: 256 hot cells, as the core's instance.
        QCOMPARE(hotCells(p), 256);
        QCOMPARE(p.heat()->cells, 256);
        QCOMPARE(p.warpSpin()->maximum(), k.warps - 1);
        QCOMPARE(qint64(p.iterationSpin()->maximum()) + 1, ts::kernel::siteIterations(k, l32));

        // The core's own instance for warp 0: the same cells hot.
        {
            const auto tile = ts::kernel::bufferTile(k, k.sites[std::size_t(l32)].buffer);
            const ts::Mapping m = ts::parseMapping(tile.spec);
            const ts::SharedTile st(std::get<ts::Layout>(m), tile.dtype);
            const auto ins = ts::kernel::siteInstruction(k, l32, 0, 0);
            const auto a = ts::kernel::instanceAccess(
                st, k.buffers[std::size_t(k.sites[std::size_t(l32)].buffer)].address, ins, 0);
            const auto cost = ts::analyzePlan(a.plan);
            const auto heat = ts::instructionHeat(st, a, cost, 0);
            int n = 0;
            for (std::size_t i = 0; i < heat.instruction.size(); ++i) {
                const int r = int(i) / 32, c = int(i) % 32;
                const bool hot = p.heatGrid()->renderer().effectiveColor(r, c) !=
                                 InstanceHeatOverlay::kUntouched;
                QCOMPARE(hot, heat.instruction[i] >= 0);
                n += heat.instruction[i] >= 0;
            }
            QCOMPARE(n, 256);
        }

        // Another warp: other cells, the caption says which.
        std::vector<QRgb> warp0;
        for (int r = 0; r < 64; ++r)
            warp0.push_back(p.heatGrid()->renderer().effectiveColor(r, 0));
        p.setWarp(2);
        QVERIFY(waitHeat(p));
        QVERIFY(p.captionLabel()->text().contains(QStringLiteral("warp 2, iteration 0")));
        std::vector<QRgb> warp2;
        for (int r = 0; r < 64; ++r)
            warp2.push_back(p.heatGrid()->renderer().effectiveColor(r, 0));
        QVERIFY(warp0 != warp2);
        QCOMPARE(hotCells(p), 256);

        // Another access: the ldmatrix of B_shared (line 71), conflict-free, another tile.
        const int l71 = siteAtLine(k, 71);
        p.selectSite(l71);
        QVERIFY(waitHeat(p));
        QCOMPARE(p.selectedSite(), l71);
        QCOMPARE(p.sourceView()->markedLine(), 71);
        caption = p.captionLabel()->text();
        QVERIFY2(caption.startsWith(QStringLiteral("B_shared float16 [3 x 32 x 128]")),
                 qPrintable(caption));
        QVERIFY2(caption.contains(QStringLiteral("4 wavefronts (ideal 4)")), qPrintable(caption));
        QCOMPARE(p.heatGrid()->model().cols(), 128);
        // ldmatrix.x4: 32 lanes x 16 bytes = 256 cells.
        QCOMPARE(hotCells(p), 256);
        // The iteration range follows the access: its loops' iterations.
        QCOMPARE(qint64(p.iterationSpin()->maximum()) + 1, ts::kernel::siteIterations(k, l71));
        if (p.iterationSpin()->maximum() > 0) {
            p.setIteration(1);
            QVERIFY(waitHeat(p));
            QVERIFY(p.captionLabel()->text().contains(QStringLiteral("iteration 1 ")));
        }
        // The tooltip of a hot cell names the buffer, its bank and the cost.
        const auto& v = p.heat()->values;
        int hot = -1;
        for (std::size_t i = 0; i < v.size() && hot < 0; ++i)
            if (!std::isnan(v[i])) hot = int(i);
        QVERIFY(hot >= 0);
        const QString tip = p.cellToolTip(hot / 128, hot % 128);
        QVERIFY2(tip.contains(QStringLiteral("of B_shared")) &&
                     tip.contains(QStringLiteral("bank")) &&
                     tip.contains(QStringLiteral("4 wavefronts")),
                 qPrintable(tip));
    }

    void importedMeasurementFillsMatchColumns() {
        const CoreKernel core = coreXray(QStringLiteral("gemm_fp16_transB"));
        KernelPanel p;
        p.resize(1500, 800);
        QVERIFY(openAndWait(p, corpus("gemm_fp16_transB", "kernel.cu")));
        QVERIFY(p.accessesView()->isColumnHidden(AccessModel::Match));
        QVERIFY(p.importButton()->isEnabled());

        QSignalSpy spy(&p, &KernelPanel::measuredImported);
        p.importMeasured(corpus("gemm_fp16_transB", "measured.json"));
        QVERIFY(spy.wait(10000));
        QCOMPARE(spy.at(0).at(0).toBool(), true);
        QVERIFY(!p.accessesView()->isColumnHidden(AccessModel::Match));
        QVERIFY(!p.accessesView()->isColumnHidden(AccessModel::MeasuredWavefronts));

        // The core's comparison, line by line, is what the Match column says.
        const auto m = ts::kernel::readMeasured(
            readAll(corpus("gemm_fp16_transB", "measured.json")), "measured.json");
        const auto cmp =
            ts::kernel::compare(core.x, m, ts::kernel::blocksOf(core.x.name, core.launches, m));
        auto* am = p.accessModel();
        int groups = 0;
        for (int r = 0; r < am->rowCount(); ++r) {
            const int line = cell(am, r, AccessModel::Line).toInt();
            const ts::kernel::LineComparison* lc = nullptr;
            for (const auto& l : cmp.lines)
                if (l.line == line) lc = &l;
            QVERIFY(lc);
            QCOMPARE(cell(am, r, AccessModel::Match), QString::fromStdString(lc->status));
            QVERIFY(cell(am, r, AccessModel::Match).startsWith(QStringLiteral("match")));
            groups += lc->status == "match (line group)";
            // Per block: the launch's count divided by its blocks.
            if (lc->measured_instructions % cmp.blocks == 0)
                QCOMPARE(cell(am, r, AccessModel::MeasuredInstructions),
                         QString::number(lc->measured_instructions / cmp.blocks));
        }
        QCOMPARE(groups, 8); // transposed B: ptxas moved instructions between identical lines
        QVERIFY2(p.measuredLabel()->text().contains(QStringLiteral("12 lines match")),
                 qPrintable(p.measuredLabel()->text()));
        QVERIFY(p.measuredLabel()->isVisibleTo(&p));

        // A broken measurement says so and keeps the one shown.
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("measured.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"kernels\": [{\"name\": 3");
        f.close();
        spy.clear();
        p.importMeasured(bad);
        QVERIFY(spy.wait(10000));
        QCOMPARE(spy.at(0).at(0).toBool(), false);
        QVERIFY(p.measuredLabel()->text().contains(QStringLiteral("measured.json")));
        QVERIFY(p.measuredLabel()->text().contains(QStringLiteral("Still shown")));
        QVERIFY(cell(am, 0, AccessModel::Match).startsWith(QStringLiteral("match")));

        // A measurement of another kernel is refused by name.
        spy.clear();
        p.importMeasured(corpus("transpose_padded", "measured.json"));
        QVERIFY(spy.wait(10000));
        QCOMPARE(spy.at(0).at(0).toBool(), false);
        QVERIFY2(p.measuredLabel()->text().contains(
                     QStringLiteral("measured transpose_padded_kernel, not a kernel of this file")),
                 qPrintable(p.measuredLabel()->text()));
    }

    void secondKernelLeavesNothingOfTheFirst() {
        KernelPanel p;
        p.resize(1500, 800);
        QVERIFY(openAndWait(p, corpus("gemm_fp16_128x128x32_s3", "kernel.cu")));
        QVERIFY(waitHeat(p));
        QSignalSpy ms(&p, &KernelPanel::measuredImported);
        p.importMeasured(corpus("gemm_fp16_128x128x32_s3", "measured.json"));
        QVERIFY(ms.wait(10000));
        QVERIFY(!p.captionLabel()->text().isEmpty());

        // Opening another kernel empties every view at once, before its result comes.
        QSignalSpy spy(&p, &KernelPanel::kernelLoaded);
        p.openKernel(corpus("transpose_padded", "kernel.cu"));
        QCOMPARE(p.bufferModel()->rowCount(), 0);
        QCOMPARE(p.accessModel()->rowCount(), 0);
        QVERIFY(p.captionLabel()->text().isEmpty());
        QVERIFY(p.footprintLabel()->text().isEmpty());
        QVERIFY(p.occupancyLabel()->text().isEmpty());
        QVERIFY(p.sourceView()->toPlainText().isEmpty());
        QVERIFY(p.heatGrid()->model().isEmpty());
        QVERIFY(!p.heat());
        QVERIFY(p.measuredLabel()->isHidden());
        QVERIFY(p.headerLabel()->text().contains(QStringLiteral("opening")));
        QVERIFY(!p.headerLabel()->text().contains(QStringLiteral("gemm")));
        QVERIFY(spy.wait(30000));
        QVERIFY(waitHeat(p));

        // Nothing of the gemm: its buffers, its lines, its measurement, its numbers.
        for (int r = 0; r < p.bufferModel()->rowCount(); ++r)
            QVERIFY(!cell(p.bufferModel(), r, BufferModel::Name).startsWith(QStringLiteral("A_")));
        QVERIFY(p.accessesView()->isColumnHidden(AccessModel::Match));
        QVERIFY(p.measuredLabel()->isHidden());
        QVERIFY(!p.footprintLabel()->text().contains(QStringLiteral("49152")));
        QVERIFY(!p.captionLabel()->text().contains(QStringLiteral("A_shared")));
        QVERIFY(!p.sourceView()->toPlainText().contains(QStringLiteral("gemm")));
        QVERIFY(p.headerLabel()->text().contains(QStringLiteral("transpose")));
        QCOMPARE(p.accessModel()->rowCount(), 2);
        QVERIFY(!p.statusText().contains(QStringLiteral("gemm")));
    }

    void brokenFilesSaySoAndChangeNothingElse() {
        QTemporaryDir dir;
        // A truncated generated kernel: the parser's line and column, and the file's name.
        const std::string src = readAll(corpus("gemm_fp16_128x128x32_s3", "kernel.cu"));
        const QString truncated = dir.filePath(QStringLiteral("truncated.cu"));
        {
            std::ofstream f(truncated.toStdString(), std::ios::binary);
            f << src.substr(0, 3000);
        }
        KernelPanel p;
        p.resize(1500, 800);
        QVERIFY(openAndWait(p, corpus("transpose_padded", "kernel.cu")));
        QVERIFY(openAndWait(p, truncated, false));
        QVERIFY2(p.errorText().startsWith(QStringLiteral("truncated.cu: line 44, column 37")),
                 qPrintable(p.errorText()));
        QVERIFY(p.errorText().contains(QStringLiteral("unterminated block")));
        QVERIFY(p.findChild<QLabel*>(QStringLiteral("kernelError"))->isVisibleTo(&p));
        QVERIFY(p.findChild<QLabel*>(QStringLiteral("kernelError"))
                    ->text()
                    .contains(QStringLiteral("unterminated block")));
        QVERIFY(!p.kernel());
        QCOMPARE(p.bufferModel()->rowCount(), 0);
        QCOMPARE(p.accessModel()->rowCount(), 0);
        QVERIFY(p.captionLabel()->text().isEmpty());
        QVERIFY(!p.importButton()->isEnabled());
        QVERIFY(p.headerLabel()->text().contains(QStringLiteral("not opened")));

        // Not CUDA at all, a file that is not there: one message each, naming the file.
        const QString notCuda = dir.filePath(QStringLiteral("notes.cu"));
        {
            std::ofstream f(notCuda.toStdString());
            f << "just some text\n";
        }
        QVERIFY(openAndWait(p, notCuda, false));
        QVERIFY2(p.errorText().startsWith(QStringLiteral("notes.cu: no __global__ kernel")),
                 qPrintable(p.errorText()));
        QVERIFY(openAndWait(p, dir.filePath(QStringLiteral("gone.cu")), false));
        QVERIFY2(p.errorText().contains(QStringLiteral("gone.cu: no such file")),
                 qPrintable(p.errorText()));

        // A good file afterwards opens as if nothing had happened.
        QVERIFY(openAndWait(p, corpus("transpose_padded", "kernel.cu")));
        QVERIFY(p.errorText().isEmpty());
        QVERIFY(p.findChild<QLabel*>(QStringLiteral("kernelError"))->isHidden());
        QCOMPARE(p.accessModel()->rowCount(), 2);

        // A .cu without a meta.json next to it: read with __launch_bounds__, and said so.
        const QString alone = dir.filePath(QStringLiteral("alone.cu"));
        QVERIFY(QFile::copy(corpus("gemm_fp16_128x128x32_s3", "kernel.cu"), alone));
        QVERIFY(openAndWait(p, alone));
        QVERIFY2(p.statusText().contains(QStringLiteral("no meta.json")),
                 qPrintable(p.statusText()));
        QCOMPARE(p.accessModel()->rowCount(), 12);
        // ... and without the lowering, no inferred layout to open.
        QVERIFY(!p.openBufferLayout(bufferIndex(*p.kernel(), "A_shared")));
    }

    void accessWithoutNumbersSaysWhy() {
        KernelPanel p;
        p.resize(1500, 800);
        QVERIFY(openAndWait(p, corpus("gemm_fp16_sm90", "kernel.cu")));
        const auto* k = p.kernel();
        QVERIFY(k);
        // Every access of this sm_90 kernel is TMA or wgmma: the first is shown at once, without
        // numbers; then a wgmma operand read is selected.
        QVERIFY(k->sites[std::size_t(p.selectedSite())].not_analysed.size() > 0);
        QVERIFY(p.captionLabel()->text().contains(QStringLiteral("not analysed")));
        int tma = -1;
        for (std::size_t i = 0; i < k->sites.size() && tma < 0; ++i)
            if (k->sites[i].kind == ts::kernel::AccessKind::Mma) tma = int(i);
        QVERIFY(tma >= 0 && tma != p.selectedSite());
        QSignalSpy shown(&p, &KernelPanel::heatShown);
        p.selectSite(tma);
        QVERIFY(!shown.isEmpty() || shown.wait(10000));
        QCOMPARE(p.selectedSite(), tma);
        QVERIFY2(p.captionLabel()->text().contains(QStringLiteral("not analysed")),
                 qPrintable(p.captionLabel()->text()));
        QVERIFY(!p.warpSpin()->isEnabled());
        QVERIFY(p.heatGrid()->model().isEmpty());
        QCOMPARE(p.sourceView()->markedLine(), k->sites[std::size_t(tma)].line);
        QCOMPARE(cell(p.accessModel(), tma, AccessModel::Wavefronts), QStringLiteral("—"));
    }

    void severalKernelsInOneFile() {
        // Two generated kernels in one file, no meta.json: each __global__ is X-rayed with its
        // __launch_bounds__, and a box picks the one shown.
        QTemporaryDir dir;
        const QString two = dir.filePath(QStringLiteral("two.cu"));
        {
            std::ofstream f(two.toStdString(), std::ios::binary);
            f << readAll(corpus("transpose_padded", "kernel.cu"))
              << readAll(corpus("copy_swizzled", "kernel.cu"));
        }
        KernelPanel p;
        p.resize(1500, 800);
        p.show();
        QVERIFY(openAndWait(p, two));
        QCOMPARE(p.kernelBox()->count(), 2);
        QVERIFY(p.kernelBox()->isVisibleTo(&p));
        QCOMPARE(p.kernel()->name, std::string("transpose_padded_kernel"));
        QVERIFY(waitHeat(p));
        const QString firstCaption = p.captionLabel()->text();

        // A measurement of the second kernel only: nothing to show on the first, and it says so.
        QSignalSpy ms(&p, &KernelPanel::measuredImported);
        p.importMeasured(corpus("copy_swizzled", "measured.json"));
        QVERIFY(ms.wait(10000));
        QCOMPARE(ms.at(0).at(0).toBool(), true);
        QVERIFY(p.accessesView()->isColumnHidden(AccessModel::Match));
        QVERIFY2(p.measuredLabel()->text().contains(QStringLiteral("has no counts for "
                                                                   "transpose_padded_kernel")),
                 qPrintable(p.measuredLabel()->text()));

        QSignalSpy shown(&p, &KernelPanel::heatShown);
        p.kernelBox()->setCurrentIndex(1);
        QCOMPARE(p.kernel()->name, std::string("copy_swizzled_kernel"));
        QVERIFY(p.headerLabel()->text().contains(QStringLiteral("copy_swizzled_kernel")));
        QVERIFY(!shown.isEmpty() || shown.wait(10000));
        QVERIFY(waitHeat(p));
        QVERIFY(p.captionLabel()->text() != firstCaption);
        QVERIFY(!p.accessesView()->isColumnHidden(AccessModel::Match));
        // The measurement's lines are those of copy_swizzled's own file, which this one moves
        // down: the core's comparison says "not measured" and "measured only", and so does the
        // panel, line by line.
        const auto xs = ts::kernel::xrayKernels(readAll(two));
        const auto m = ts::kernel::readMeasured(readAll(corpus("copy_swizzled", "measured.json")),
                                                "measured.json");
        const auto cmp = ts::kernel::compare(xs.at(1), m, ts::kernel::blocksOf(xs[1].name, {}, m));
        QVERIFY(cmp.measured_only > 0);
        QCOMPARE(p.accessModel()->rowCount(), int(xs[1].sites.size()));
        for (int r = 0; r < p.accessModel()->rowCount(); ++r) {
            const int line = cell(p.accessModel(), r, AccessModel::Line).toInt();
            for (const auto& l : cmp.lines)
                if (l.line == line)
                    QCOMPARE(cell(p.accessModel(), r, AccessModel::Match),
                             QString::fromStdString(l.status));
        }
        QVERIFY2(p.measuredLabel()->text().contains(
                     QStringLiteral("%1 measured only").arg(cmp.measured_only)),
                 qPrintable(p.measuredLabel()->text()));
    }

    void accessOfAnotherWarpgroupShowsAnIssuedInstance() {
        // The sm_90 epilogue's stmatrix runs in some warps only: the panel shows an instance
        // that is issued, not warp 0's empty one.
        KernelPanel p;
        p.resize(1500, 800);
        QVERIFY(openAndWait(p, corpus("gemm_fp16_sm90_smem_epilogue", "kernel.cu")));
        QVERIFY(waitHeat(p));
        const auto* k = p.kernel();
        QCOMPARE(k->sites[std::size_t(p.selectedSite())].kind, ts::kernel::AccessKind::StMatrix);
        QVERIFY(p.heat());
        QVERIFY2(p.heat()->issued, qPrintable(p.captionLabel()->text()));
        QVERIFY(hotCells(p) > 0);
        // Warp 0 itself says it is not issued.
        const int shownWarp = p.warpSpin()->value();
        if (shownWarp != 0) {
            p.setWarp(0);
            QVERIFY(waitHeat(p));
            QVERIFY(p.captionLabel()->text().contains(QStringLiteral("not issued")));
            QCOMPARE(hotCells(p), 0);
        }
    }

    void windowOpensLayoutsAndNewClears() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        KernelPanel* p = w.kernelPanel();
        QVERIFY(p);
        auto* dock = qobject_cast<QDockWidget*>(p->parentWidget());
        QVERIFY(dock);
        QVERIFY(!dock->isVisible());
        QSignalSpy spy(p, &KernelPanel::kernelLoaded);
        w.openKernel(corpus("gemm_fp16_128x128x32_s3", "kernel.cu"));
        QVERIFY(dock->isVisible());
        QVERIFY(spy.wait(30000));
        QVERIFY(waitHeat(*p));

        // Open layout: the buffer's inferred T.Layout becomes the project's active layout.
        const int before = w.document()->count();
        const ts::kernel::KernelXray& k = *p->kernel();
        QVERIFY2(p->openBufferLayout(bufferIndex(k, "A_shared")), qPrintable(p->statusText()));
        QCOMPARE(w.document()->count(), before + 1);
        const ts::DocLayout* l = w.document()->activeLayout();
        QVERIFY(l);
        QCOMPARE(QString::fromStdString(l->name), QStringLiteral("A_shared"));
        const ts::Mapping m = ts::parseMapping(l->text);
        QVERIFY(std::holds_alternative<ts::Layout>(m));
        // The fragment of C_local opens the same way (a double-click does this too).
        QVERIFY(p->openBufferLayout(bufferIndex(k, "C_local")));
        QCOMPARE(QString::fromStdString(w.document()->activeLayout()->name),
                 QStringLiteral("C_local"));
        QVERIFY(std::holds_alternative<ts::Fragment>(
            ts::parseMapping(w.document()->activeLayout()->text)));
        // The button follows the selected buffer: on for A_shared, off for the raw dynamic
        // buffer, which has no inferred layout.
        // (Declaration order: the dynamic buffer, then its parts A_shared and B_shared.)
        QCOMPARE(cell(p->buffersView()->model(), 0, BufferModel::Name),
                 QStringLiteral("buf_dyn_shmem"));
        p->buffersView()->setCurrentIndex(p->buffersView()->model()->index(1, 0));
        QVERIFY(p->openLayoutButton()->isEnabled());
        p->buffersView()->setCurrentIndex(p->buffersView()->model()->index(0, 0));
        QVERIFY(!p->openLayoutButton()->isEnabled());
        // Clicking the button opens the selected buffer's layout.
        p->buffersView()->setCurrentIndex(p->buffersView()->model()->index(2, 0));
        QTest::mouseClick(p->openLayoutButton(), Qt::LeftButton);
        QCOMPARE(QString::fromStdString(w.document()->activeLayout()->name),
                 QStringLiteral("B_shared"));

        // File > New: no kernel of the last session stays on screen.
        w.newDocument();
        QVERIFY(!p->kernel());
        QCOMPARE(p->bufferModel()->rowCount(), 0);
        QCOMPARE(p->accessModel()->rowCount(), 0);
        QVERIFY(p->captionLabel()->text().isEmpty());
        QVERIFY(p->footprintLabel()->text().isEmpty());
        QVERIFY(p->path().isEmpty());
    }

    void pythonIsLoweredAndCancelStopsIt() {
        const QString py = tileLangPython();
        if (py.isEmpty()) QSKIP("no .venv with TileLang: the .py path is not exercised here");
        qputenv("TILESCOPE_PYTHON", py.toLocal8Bit());
        // Lowered by TileLang, the .py gives the same accesses as its committed .cu.
        const CoreKernel core = coreXray(QStringLiteral("transpose_padded"));
        KernelPanel p;
        p.resize(1500, 800);
        p.show();
        QSignalSpy spy(&p, &KernelPanel::kernelLoaded);
        p.openKernel(corpus("transpose_padded", "kernel.py"));
        QTRY_VERIFY_WITH_TIMEOUT(p.progressRow()->isVisible() || !spy.isEmpty(), 5000);
        QVERIFY(spy.wait(180000) || !spy.isEmpty());
        QCOMPARE(spy.at(0).at(0).toBool(), true);
        QVERIFY(p.load()->lowered);
        QCOMPARE(p.accessModel()->rowCount(), int(core.x.sites.size()));
        for (std::size_t i = 0; i < core.x.sites.size(); ++i)
            QCOMPARE(cell(p.accessModel(), int(i), AccessModel::Wavefronts),
                     QString::number(core.x.costs[i].wavefronts));
        QVERIFY(p.statusText().contains(QStringLiteral("lowered by TileLang")));
        QVERIFY(p.progressRow()->isHidden());

        // Cancel: the child is stopped, the panel is idle and empty at once, and no result
        // arrives later.
        spy.clear();
        p.openKernel(corpus("flash_attn_fwd", "kernel.py"));
        QTRY_VERIFY_WITH_TIMEOUT(p.progressRow()->isVisible(), 5000);
        QTest::qWait(300);
        QElapsedTimer t;
        t.start();
        QTest::mouseClick(p.cancelButton(), Qt::LeftButton);
        QVERIFY(p.progressRow()->isHidden());
        QVERIFY(!p.kernel());
        QVERIFY(p.statusText().contains(QStringLiteral("cancelled")));
        // The worker ends as soon as its child is gone, not when TileLang would have finished.
        QTRY_VERIFY_WITH_TIMEOUT(!p.busy(), 10000);
        QVERIFY2(t.elapsed() < 10000, qPrintable(QString::number(t.elapsed())));
        QTest::qWait(200);
        QCOMPARE(spy.count(), 0);

        // A .py that does not lower: TileLang's message, naming the file.
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken.py"));
        {
            std::ofstream f(bad.toStdString());
            f << "import tilelang\nthis is not python\n";
        }
        QVERIFY(openAndWait(p, bad, false, 180000));
        QVERIFY2(p.errorText().contains(QStringLiteral("broken.py")), qPrintable(p.errorText()));
        qunsetenv("TILESCOPE_PYTHON");
    }
};

QTEST_MAIN(TestKernelPanel)
#include "test_kernel_panel.moc"
