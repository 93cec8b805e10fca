// SPDX-License-Identifier: Apache-2.0
// The bank heat map and its numbers (see bank_heat.h).
#include "banks/bank_heat.h"

#include "banks/bank_overlays.h"
#include "common/wording.h"

#include <algorithm>
#include <cmath>

namespace tsw {

void applyBankHeat(GridRenderer& r, const ts::SharedTile& tile, const ts::SharedAccess& access,
                   const ts::PlanCost& cost, int step) {
    const int cols = r.model().cols();
    ts::CellHeat h = ts::instructionHeat(tile, access, cost, step);
    std::vector<double> values(h.wavefronts.size(), std::nan(""));
    for (std::size_t i = 0; i < values.size(); ++i)
        if (h.instruction[i] >= 0) values[i] = h.wavefronts[i];
    // A fixed scale over all instructions, so stepping does not rescale the colours.
    double lo = 1e9, hi = 0;
    for (const auto& ic : cost.instructions) {
        lo = std::min<double>(lo, ic.ideal);
        hi = std::max<double>(hi, ic.wavefronts);
    }
    if (lo > hi) lo = hi = 0;
    auto heat = std::make_shared<HeatOverlay>(cols, std::move(values), lo, std::max(hi, lo + 1),
                                              QStringLiteral("wavefront"));
    heat->addLegend({kTransparent, QStringLiteral("label: bank"), true});
    if (step >= 0) {
        heat->setNoneText(QStringLiteral("not in instruction %1").arg(step + 1));
        heat->addLegend(
            {CellMarksOverlay::kFrame,
             QStringLiteral("frame: instruction %1's cells, tag = lane").arg(step + 1)});
    }
    r.setCellColorOverlay(heat);
    r.clearOverlays();
    if (step < 0 || std::size_t(step) >= access.touches.size()) return;
    std::vector<CellMarksOverlay::Mark> marks;
    std::vector<std::pair<int, int>> framed;
    for (const ts::LaneTouch& lt : access.touches[std::size_t(step)]) {
        const auto cells = access.cellsOf(lt);
        for (std::size_t k = 0; k < cells.size(); ++k) {
            const int row = int(cells[k] / std::max(cols, 1)),
                      col = int(cells[k] % std::max(cols, 1));
            framed.push_back({row, col});
            if (k == 0) marks.push_back({row, col, QString::number(lt.lane)});
        }
    }
    r.addOverlay(std::make_shared<CellMarksOverlay>(std::move(marks), std::move(framed)));
}

QString bankTotalsText(const ts::PlanCost& c) {
    return QStringLiteral("%1: %2, ideal %3, excess %4 "
                          "(ncu \"bank conflicts\"), efficiency %5%")
        .arg(countNoun(qint64(c.instructions.size()), QStringLiteral("instruction")))
        .arg(countNoun(c.wavefronts, QStringLiteral("wavefront")))
        .arg(c.ideal)
        .arg(c.excess)
        .arg(100.0 * c.efficiency(), 0, 'f', 1);
}

QString bankStepText(const ts::SharedAccess& access, const ts::PlanCost& cost, int step) {
    const int n = int(cost.instructions.size());
    if (step < 0 || step >= n || step >= int(access.plan.instructions.size())) return {};
    const ts::Instruction& ins = access.plan.instructions[std::size_t(step)];
    const ts::InstructionCost& c = cost.instructions[std::size_t(step)];
    return QStringLiteral("%1/%2  %3 (%4 B/lane): %5, ideal %6, excess %7")
        .arg(step + 1)
        .arg(n)
        .arg(QString::fromStdString(ins.label))
        .arg(ins.bytes_per_lane)
        .arg(countNoun(c.wavefronts, QStringLiteral("wavefront")))
        .arg(c.ideal)
        .arg(c.excess);
}

QStringList bankInstructionLines(const ts::SharedAccess& access, const ts::PlanCost& cost,
                                 int max) {
    QStringList lines;
    const int n = int(std::min(cost.instructions.size(), access.plan.instructions.size()));
    for (int i = 0; i < n && i < max; ++i) {
        const ts::Instruction& ins = access.plan.instructions[std::size_t(i)];
        const ts::InstructionCost& c = cost.instructions[std::size_t(i)];
        lines << QStringLiteral("instruction %1 (%2, %3 B/lane): %4, ideal %5, excess %6")
                     .arg(i + 1)
                     .arg(QString::fromStdString(ins.label))
                     .arg(ins.bytes_per_lane)
                     .arg(countNoun(c.wavefronts, QStringLiteral("wavefront")))
                     .arg(c.ideal)
                     .arg(c.excess);
    }
    if (n > max) lines << QStringLiteral("… and %1 more instructions").arg(n - max);
    return lines;
}

} // namespace tsw
