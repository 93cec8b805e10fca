// SPDX-License-Identifier: Apache-2.0
// The bank heat map and its numbers as words, from an analysis alone (no widget): the Bank
// conflicts panel draws them on screen and the lesson handout (lesson_handout.h) on its pages, so
// a page shows what the panel shows for the same layout and access.
#pragma once

#include "grid/gridrenderer.h"

#include "tilescope/banks/access.h"
#include "tilescope/banks/bank_model.h"

#include <QString>
#include <QStringList>

namespace tsw {

// Colours the cells of `r` (a bank grid: analyzeBanks' BankAnalysis::grid) by wavefronts at
// instruction `step` (-1: all) on a scale fixed over all instructions, with the legend; at one
// instruction its cells are framed and tagged with their lanes.
void applyBankHeat(GridRenderer& r, const ts::SharedTile& tile, const ts::SharedAccess& access,
                   const ts::PlanCost& cost, int step);

// "8 instructions: 32 wavefronts, ideal 32, excess 0 (ncu "bank conflicts"), efficiency 100.0%"
QString bankTotalsText(const ts::PlanCost& cost);
// "1/8  ld (4 B/lane): 32 wavefronts, ideal 1, excess 31"; "" for step < 0.
QString bankStepText(const ts::SharedAccess& access, const ts::PlanCost& cost, int step);
// One line per instruction (at most `max`, then "… and N more"):
// "instruction 2 (ld, 4 B/lane): 32 wavefronts, ideal 1, excess 31".
QStringList bankInstructionLines(const ts::SharedAccess& access, const ts::PlanCost& cost,
                                 int max = 16);

} // namespace tsw
