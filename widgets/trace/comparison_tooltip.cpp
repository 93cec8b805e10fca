// SPDX-License-Identifier: Apache-2.0
// ComparisonView's hover tooltip: one cell of both layouts at once, so comparing a cell needs no
// second hover ("current T9 L6 / previous T40 L2", then how they differ).
#include "trace/trace_viewer.h"

namespace tsw {

namespace {

// "T9 L6" for a fragment's cell (threads of every replica, its slot), "offset 17" for a
// layout's; empty outside the grid.
QString cellWords(const GridModel& m, int row, int col) {
    if (m.isEmpty() || row >= m.rows() || col >= m.cols()) return {};
    const CellInfo info = m.info(row, col);
    if (!info.valid) return {};
    if (!info.threads.isEmpty()) {
        QString t = info.threads;
        t.remove(QLatin1Char(' '));
        return QStringLiteral("T%1 L%2").arg(t, info.slot);
    }
    return QStringLiteral("offset %1").arg(info.physical);
}

} // namespace

QString ComparisonView::pairToolTip(int row, int col) const {
    QString sides[2];
    for (int k = 0; k < 2; ++k) {
        const QString w = cellWords(views_[k]->model(), row, col);
        sides[k] =
            QStringLiteral("<b>%1</b> %2")
                .arg(sideNames_[k].toHtmlEscaped(),
                     w.isEmpty() ? QStringLiteral("(outside its shape)") : w.toHtmlEscaped());
    }
    QString tip =
        QStringLiteral("cell (%1, %2)<br>%3 / %4").arg(row).arg(col).arg(sides[0], sides[1]);
    if (diff_) {
        const std::uint8_t bits = diff_->at(row, col);
        tip += bits ? QStringLiteral("<br><span style='color:#b91c1c'>differ: %1</span>")
                          .arg(QString::fromStdString(ts::diffBitsName(bits)))
                    : QStringLiteral("<br><span style='color:#667'>same in both</span>");
    }
    return tip;
}

} // namespace tsw
