// SPDX-License-Identifier: Apache-2.0
// The heat of one access instance on its buffer's tile: cells coloured by the instance's
// wavefronts on the bank panel's ramp (pale yellow = the ideal, deep red = the access's dearest
// instance), untouched cells grey, and each active lane's first cell tagged with its lane number.
// Painting only; the numbers come from kernel_load.h (core's instanceAccess and
// instructionHeat).
#pragma once

#include "grid/gridrenderer.h"
#include "kernel/kernel_load.h"

#include <QColor>
#include <QString>
#include <vector>

namespace tsw {

class InstanceHeatOverlay : public CellColorOverlay {
public:
    InstanceHeatOverlay(int cols, std::vector<double> values, double lo, double hi);
    std::optional<QRgb> cellColor(int row, int col) const override;
    // The colours present (at most a few: an instance has one cost), the untouched grey, and what
    // the labels and tags are.
    std::vector<LegendEntry> legend() const override;
    quint64 revision() const override { return revision_; }
    double value(int row, int col) const;
    // The bank panel's ramp (its HeatOverlay, which this feature does not link): white-ish yellow
    // -> orange -> deep red over t in 0..1, so a cost reads the same colour in both panels.
    static QColor heatColor(double t);
    static constexpr QRgb kUntouched = 0xffececec;

private:
    int cols_;
    std::vector<double> values_;
    double lo_, hi_;
    quint64 revision_;
};

// Lane numbers in a small tag at the top left of each lane's first cell, and a thin frame round
// every touched cell so the instance stands out where its colour is pale.
class LaneTagOverlay : public GridOverlay {
public:
    LaneTagOverlay(std::vector<LaneTag> tags, std::vector<double> values, int cols);
    void paint(QPainter& p, const GridRenderer& r, const QRect& cells) const override;
    static inline const QColor kTag = QColor(0, 90, 200);

private:
    std::vector<LaneTag> tags_;
    std::vector<double> values_;
    int cols_;
};

} // namespace tsw
