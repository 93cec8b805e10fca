// SPDX-License-Identifier: Apache-2.0
#include "grid/grid_layout.h"

#include <algorithm>
#include <cmath>

namespace tsw {

int headerStep(double labelPx, double cellPx) {
    const double raw = cellPx > 0 ? labelPx / cellPx : 1e9;
    static const int kSteps[] = {1, 2, 5};
    for (int mag = 1; mag < 1000000000; mag *= 10)
        for (int k : kSteps)
            if (k * mag >= raw) return k * mag;
    return 1000000000;
}

} // namespace tsw

namespace tsw::layout {

double headerWidth(int rows) {
    int d = 1;
    for (int v = std::max(rows - 1, 0); v >= 10; v /= 10)
        ++d;
    return std::max(26.0, d * 7.5 + 12);
}

void labelFonts(const GridModel& m, double cell, double scale, double* f, bool* compact) {
    const int lines = m.labelLines();
    f[0] = f[1] = 0;
    for (int l = 0; l < lines; ++l) {
        const double byWidth = cell * 0.94 / (std::max(1, m.maxLabelChars(l)) * 0.60);
        f[l] = std::min(cell * (lines == 2 ? 0.30 : 0.45), byWidth) * scale;
    }
    // Too small for a comfortable full thread list of a replicated cell: its compact form (a
    // list in a 6-pixel font is there but unreadable).
    *compact = false;
    if (lines == 2 && f[0] < 9.0 && m.maxCompactChars() > 0) {
        const double byWidth = cell * 0.94 / (m.maxCompactChars() * 0.60);
        const double fc = std::min(cell * 0.30, byWidth) * scale;
        if (fc > f[0]) {
            f[0] = fc;
            *compact = true;
        }
    }
    if (lines == 2) f[1] = std::min(f[1], f[0] * 1.05);
}

double labelCellPx(const GridModel& m, double cell, double minLabelPx) {
    // Label fonts grow linearly with the cell: solve for the size where the first line reaches
    // the smallest legible font.
    if (m.isEmpty() || cell <= 0) return 0;
    double f[2];
    bool compact = false;
    labelFonts(m, cell, 1.0, f, &compact);
    return f[0] > 0 ? std::ceil(cell * minLabelPx / f[0]) : 0;
}

QString labelsOmitted(double cellPx, double neededPx) {
    return QStringLiteral("labels omitted: cells of %1 px are too small for them (they need %2 px)")
        .arg(cellPx, 0, 'g', 3)
        .arg(neededPx, 0, 'g', 3);
}

} // namespace tsw::layout
