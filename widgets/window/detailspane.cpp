// SPDX-License-Identifier: Apache-2.0
#include "window/detailspane.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace tsw {

DetailsPane::DetailsPane(QWidget* parent) : QWidget(parent) {
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    view_ = new QTextBrowser(this);
    view_->setFrameShape(QFrame::NoFrame);
    view_->setOpenLinks(false);
    l->addWidget(view_);
    refresh();
}

void DetailsPane::setCell(const CellInfo& info) {
    cell_ = info;
    refresh();
}
void DetailsPane::setHighlight(const QString& text) {
    highlight_ = text;
    refresh();
}
void DetailsPane::setLayoutSummary(const QString& title, const QString& repr) {
    title_ = title;
    repr_ = repr;
    refresh();
}

void DetailsPane::setLayoutStale(const QString& note) {
    if (note == staleNote_) return;
    staleNote_ = note;
    refresh();
}

QString DetailsPane::html() const {
    return view_->toHtml();
}

QString DetailsPane::plainText() const {
    return view_->toPlainText();
}

void DetailsPane::refresh() {
    const QString row = QStringLiteral(
        "<tr><td style='color:#6b7280;padding-right:10px'>%1</td><td><b>%2</b></td></tr>");
    QString h = QStringLiteral("<div style='font-size:small'>");
    h += QStringLiteral("<p style='color:#6b7280;margin:0'>CELL UNDER THE MOUSE</p>");
    if (cell_.valid) {
        h += QStringLiteral("<table cellspacing=0 cellpadding=1>");
        h += row.arg(QStringLiteral("grid"),
                     QStringLiteral("row %1, col %2").arg(cell_.row).arg(cell_.col));
        h += row.arg(QStringLiteral("logical"), cell_.logical.toHtmlEscaped());
        if (!cell_.threads.isEmpty())
            h += row.arg(cell_.threads.contains(QLatin1Char(',')) ? QStringLiteral("threads")
                                                                  : QStringLiteral("thread"),
                         cell_.threads);
        if (!cell_.slot.isEmpty()) h += row.arg(QStringLiteral("slot"), cell_.slot);
        if (!cell_.physical.isEmpty())
            h += row.arg(QStringLiteral("physical"), cell_.physical.toHtmlEscaped());
        h += row.arg(QStringLiteral("label"), cell_.label.toHtmlEscaped());
        h += QStringLiteral("</table>");
    } else {
        h += QStringLiteral("<p style='color:#9ca3af'>hover over the grid</p>");
    }
    h += QStringLiteral("<p style='color:#6b7280;margin:10px 0 0 0'>HIGHLIGHT</p><p>%1</p>")
             .arg(highlight_.isEmpty() ? QStringLiteral("<span style='color:#9ca3af'>click a cell: "
                                                        "its thread · shift-click: its slot</span>")
                                       : highlight_.toHtmlEscaped());
    if (!title_.isEmpty()) {
        const bool stale = !staleNote_.isEmpty();
        h += QStringLiteral("<p style='color:#6b7280;margin:10px 0 0 0'>LAYOUT</p>");
        if (stale)
            h += QStringLiteral("<p style='color:#92400e;margin:2px 0'><i>%1</i></p>")
                     .arg(staleNote_.toHtmlEscaped());
        const QString ink = stale ? QStringLiteral("#9ca3af") : QStringLiteral("#111827");
        h += QStringLiteral("<p style='color:%1'><b>%2</b></p>").arg(ink, title_.toHtmlEscaped());
        h += QStringLiteral("<pre style='white-space:pre-wrap;color:%1'>%2</pre>")
                 .arg(ink, repr_.toHtmlEscaped());
    }
    h += QStringLiteral("</div>");
    view_->setHtml(h);
}

} // namespace tsw
