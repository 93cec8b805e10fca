// SPDX-License-Identifier: Apache-2.0
#include "grid/export_dialog.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>

namespace tsw {

QString exportSizeText(QSizeF nativeSize, int percent) {
    const double s = percent / 100.0;
    return QStringLiteral("%1 × %2 px (PNG; SVG and PDF scale alike)")
        .arg(std::ceil(nativeSize.width() * s))
        .arg(std::ceil(nativeSize.height() * s));
}

std::optional<ExportChoice> askExportFile(QWidget* parent, const QString& startPath,
                                          QSizeF nativeSize, const QString& title, bool textTable) {
    // Qt's own dialog, so that the Size row can sit under the file fields.
    QFileDialog dlg(parent, title.isEmpty() ? QStringLiteral("Export view") : title);
    dlg.setObjectName(QStringLiteral("exportDialog"));
    dlg.setOption(QFileDialog::DontUseNativeDialog, true);
    dlg.setAcceptMode(QFileDialog::AcceptSave);
    dlg.setFileMode(QFileDialog::AnyFile);
    QStringList filters{QStringLiteral("PNG image (*.png)"),
                        QStringLiteral("SVG vector image (*.svg)"),
                        QStringLiteral("PDF document (*.pdf)")};
    if (textTable) filters << QStringLiteral("Text table (*.txt)");
    dlg.setNameFilters(filters);
    dlg.setDirectory(QFileInfo(startPath).absolutePath());
    dlg.selectFile(QFileInfo(startPath).fileName());
    // The suffix follows the chosen type when the user types a bare name.
    QObject::connect(&dlg, &QFileDialog::filterSelected, &dlg, [&dlg](const QString& f) {
        const QString ext = f.section(QStringLiteral("(*."), 1).section(QLatin1Char(')'), 0, 0);
        dlg.setDefaultSuffix(ext);
    });
    dlg.setDefaultSuffix(QStringLiteral("png"));

    auto* size = new QSpinBox(&dlg);
    size->setObjectName(QStringLiteral("exportScale"));
    size->setRange(5, 400);
    size->setSingleStep(25);
    size->setSuffix(QStringLiteral(" %"));
    // Very large grids start at a size an image viewer opens (about 4096 px wide).
    const int fit = nativeSize.width() > 8192
                        ? std::max(5, int(std::floor(4096.0 * 100 / nativeSize.width())))
                        : 100;
    size->setValue(fit);
    auto* pixels = new QLabel(&dlg);
    pixels->setObjectName(QStringLiteral("exportPixels"));
    auto update = [=] { pixels->setText(exportSizeText(nativeSize, size->value())); };
    QObject::connect(size, &QSpinBox::valueChanged, pixels, update);
    update();
    auto* label = new QLabel(QStringLiteral("Si&ze:"), &dlg);
    label->setBuddy(size);
    if (auto* grid = qobject_cast<QGridLayout*>(dlg.layout())) {
        const int row = grid->rowCount();
        auto* box = new QHBoxLayout;
        box->addWidget(size);
        box->addWidget(pixels, 1);
        grid->addWidget(label, row, 0);
        grid->addLayout(box, row, 1, 1, grid->columnCount() - 1);
    }
    if (dlg.exec() != QDialog::Accepted || dlg.selectedFiles().isEmpty()) return std::nullopt;
    return ExportChoice{dlg.selectedFiles().first(), size->value() / 100.0};
}

} // namespace tsw
