// SPDX-License-Identifier: Apache-2.0
// Export Picture for the fractal and swizzle previews and the Ascend UB panel. These panels draw
// a tile described by their own inputs, not a layout of the project: the picture names that
// description as its layout and the revision of its text. Pictures of numbers that are not
// current (being recomputed, or an error) are refused with the panel's own marker text.
#include "banks/bank_ub_panel.h"
#include "banks/fractal_panel.h"
#include "banks/swizzle_panel.h"

#include "common/result_state.h"
#include "grid/gridview.h"

#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTableWidget>

namespace tsw {

namespace {

// nullopt and *whyNot unless `state` shows the current input's result.
bool currentOrSay(const ResultState* state, const QString& panel, QString* whyNot) {
    if (state->state() == ResultState::State::Current) return true;
    if (whyNot) {
        const QString marker = state->markerText();
        *whyNot =
            state->state() == ResultState::State::Empty
                ? QStringLiteral("The %1 panel shows nothing to export.").arg(panel)
                : QStringLiteral("The %1 panel's picture is not the current input's (%2). "
                                 "Export once it is current.")
                      .arg(panel, marker.isEmpty() ? QStringLiteral("being recomputed") : marker);
    }
    return false;
}

} // namespace

std::optional<PanelPicture> FractalPanel::picture(QString* whyNot) const {
    if (!currentOrSay(state_, QStringLiteral("Ascend fractals"), whyNot)) return std::nullopt;
    PanelPicture pic;
    pic.what = QStringLiteral("Ascend fractal storage: preview");
    pic.layoutName = QStringLiteral("%1 %2 x %3 %4")
                         .arg(kind_->currentText())
                         .arg(rows_->value())
                         .arg(cols_->value())
                         .arg(dtype_->currentText());
    pic.layoutText = pic.layoutName;
    pic.caption << plainTextOf(info_->text());
    pic.parts.push_back(gridPart(logical_, QStringLiteral("logical tile (label: storage offset)")));
    pic.parts.push_back(gridPart(
        physical_, QStringLiteral("physical storage (label: logical cell; grey: padding)")));
    return pic;
}

std::optional<PanelPicture> SwizzlePanel::picture(QString* whyNot) const {
    if (!currentOrSay(preview_, QStringLiteral("Swizzle"), whyNot)) return std::nullopt;
    PanelPicture pic;
    pic.what = QStringLiteral("Swizzle: preview");
    pic.layoutName = QStringLiteral("%1 x %2 %3, %4 swizzle")
                         .arg(rows_->value())
                         .arg(cols_->value())
                         .arg(dtype_->currentText(), width_->currentText());
    pic.layoutText = pic.layoutName;
    pic.caption << plainTextOf(verdict_->text());
    const std::pair<const char*, GridView*> views[] = {
        {"before: row-major", before_}, {"after: swizzled", after_}, {"padded by 16 B", padded_}};
    for (const auto& [title, view] : views)
        if (!view->model().isEmpty())
            pic.parts.push_back(gridPart(view, QString::fromLatin1(title)));
    return pic;
}

std::optional<PanelPicture> UbPanel::picture(QString* whyNot) const {
    if (!currentOrSay(state_, QStringLiteral("Ascend UB banks"), whyNot)) return std::nullopt;
    PanelPicture pic;
    pic.what = QStringLiteral("Ascend UB banks: vector step");
    pic.layoutName = QStringLiteral("UB step on %1").arg(arch_->currentText());
    pic.layoutText = input_->toPlainText();
    pic.caption << QStringLiteral("blocks: ") + input_->toPlainText().simplified()
                << plainTextOf(result_->text());
    if (!measured_->text().isEmpty()) pic.caption << plainTextOf(measured_->text());
    pic.parts.push_back(widgetPart(banks_, QStringLiteral("rows read / written per bank (r/w)")));
    return pic;
}

} // namespace tsw
