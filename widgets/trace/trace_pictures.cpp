// SPDX-License-Identifier: Apache-2.0
// TraceViewer's picture for Export Picture: a conflict's two grids with their labels, the counts
// and the summary, or the one layout an event shows. The layouts are the log's, so the picture
// names the event (its buffer, kind and line) and the revision of the layouts' texts.
#include "trace/trace_viewer.h"

#include <QLabel>
#include <QStackedWidget>

namespace tsw {

std::optional<PanelPicture> TraceViewer::picture(QString* whyNot) const {
    const int page = pages_->currentIndex();
    if ((page != 1 && page != 2) || shownText_[0].isEmpty()) {
        if (whyNot)
            *whyNot = QStringLiteral("The Inference Trace panel shows no layout to export: select "
                                     "an event that has one.");
        return std::nullopt;
    }
    PanelPicture pic;
    pic.caption << plainTextOf(context_->text());
    if (page == 2) {
        pic.what = QStringLiteral("Inference trace: comparison");
        pic.layoutName = shownName_[0] + QStringLiteral(" vs ") + shownName_[1];
        pic.layoutText = shownText_[0] + QLatin1Char('\n') + shownText_[1];
        pic.caption << plainTextOf(comparison_->countsText()) << comparison_->summaryText();
        for (int k = 0; k < 2; ++k)
            pic.parts.push_back(gridPart(k ? comparison_->right() : comparison_->left(),
                                         comparison_->sideTitle(k)));
    } else {
        pic.what = QStringLiteral("Inference trace: layout");
        pic.layoutName = shownName_[0];
        pic.layoutText = shownText_[0];
        pic.caption << plainTextOf(single_->banner());
        pic.parts.push_back(gridPart(single_, plainTextOf(singleTitle_->text())));
    }
    return pic;
}

} // namespace tsw
