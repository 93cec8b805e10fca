// SPDX-License-Identifier: Apache-2.0
// BankPanel's pictures for Export Picture: the heat map with its legend and caption, and the
// per-bank histogram. Only numbers that belong to the current input are exported: while they are
// being recomputed, or are for an earlier text of their layout, the export is refused with the
// reason the panel shows.
#include "banks/bank_panel.h"

#include "common/result_state.h"
#include "grid/gridview.h"

#include <QChartView>
#include <QLabel>
#include <QLineEdit>

namespace tsw {

std::optional<PanelPicture> BankPanel::pictureHeader(const QString& what, QString* whyNot) const {
    auto refuse = [&](const QString& m) -> std::optional<PanelPicture> {
        if (whyNot) *whyNot = m;
        return std::nullopt;
    };
    if (!cost_ || grid_->model().isEmpty())
        return refuse(QStringLiteral("The Bank conflicts panel has no analysis to export: choose a "
                                     "T.Layout of the project or type one."));
    if (state_->state() != ResultState::State::Current || analysedTextOutdated()) {
        const QString marker = state_->markerText();
        return refuse(QStringLiteral("The bank numbers on screen are not the current input's (%1). "
                                     "Export once they are current.")
                          .arg(marker.isEmpty() ? QStringLiteral("being recomputed") : marker));
    }
    PanelPicture pic;
    pic.what = what;
    pic.layoutName =
        analysedId_ == 0 ? QStringLiteral("layout typed in the panel") : nameOf(analysedId_);
    pic.layoutText = analysedText_.isEmpty() ? layoutEdit_->text() : analysedText_;
    pic.caption << plainTextOf(source_->text()) << plainTextOf(totals_->text())
                << plainTextOf(stepLabel_->text());
    if (measured_ && !measured_->text().isEmpty()) pic.caption << plainTextOf(measured_->text());
    return pic;
}

std::optional<PanelPicture> BankPanel::heatMapPicture(QString* whyNot) const {
    auto pic = pictureHeader(QStringLiteral("Bank conflicts: heat map"), whyNot);
    if (!pic) return pic;
    pic->parts.push_back(gridPart(grid_, {}));
    return pic;
}

std::optional<PanelPicture> BankPanel::histogramPicture(QString* whyNot) const {
    auto pic = pictureHeader(QStringLiteral("Bank conflicts: histogram"), whyNot);
    if (!pic) return pic;
    if (!chartView_ || !chartView_->isVisible()) {
        if (whyNot)
            *whyNot = QStringLiteral("The histogram is folded away (presenter mode): show it to "
                                     "export it.");
        return std::nullopt;
    }
    pic->parts.push_back(widgetPart(chartView_, {}));
    return pic;
}

} // namespace tsw
