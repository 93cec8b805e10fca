// SPDX-License-Identifier: Apache-2.0
// FractalPanel (see fractal_panel.h).
#include "banks/fractal_panel.h"

#include "banks/bank_overlays.h"
#include "banks/nz_splice_view.h"
#include "common/result_state.h"
#include "common/wording.h"
#include "grid/gridview.h"
#include "grid/panel_export.h"

#include "tilescope/banks/fractal.h"
#include "tilescope/layout/builtins.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace tsw {

FractalPanel::FractalPanel(QWidget* parent) : QWidget(parent) {
    auto* pictures = new PanelExporter(this, QStringLiteral("Ascend fractals"));
    pictures->addPicture(QStringLiteral("Fractal Preview"),
                         [this](QString* why) { return picture(why); });
    setObjectName(QStringLiteral("fractalPanel"));
    rows_ = new QSpinBox(this);
    rows_->setRange(1, 512);
    rows_->setValue(20);
    cols_ = new QSpinBox(this);
    cols_->setRange(1, 512);
    cols_->setValue(40);
    dtype_ = new QComboBox(this);
    dtype_->addItems({QStringLiteral("float16"), QStringLiteral("bfloat16"),
                      QStringLiteral("float32"), QStringLiteral("int8"), QStringLiteral("int4"),
                      QStringLiteral("int32")});
    kind_ = new QComboBox(this);
    for (ts::FractalKind k :
         {ts::FractalKind::zN, ts::FractalKind::nZ, ts::FractalKind::zZ, ts::FractalKind::L0C})
        kind_->addItem(QString::fromStdString(ts::fractalKindLabel(k)));
    kind_->setToolTip(QStringLiteral("CATLASS name, then in brackets the tilelang-ascend name "
                                     "(uppercase, the fractal-grid order first: NZ = zN)"));
    // Two rows: in one, the controls need more width than the panel has docked beside the grid
    // in presenter mode (its large font cut "float16" and the copy button, with a scroll bar).
    auto* top = new QHBoxLayout;
    auto* second = new QHBoxLayout;
    for (auto [label, w] : std::initializer_list<std::pair<const char*, QWidget*>>{
             {"rows", rows_}, {"cols", cols_}, {"dtype", dtype_}, {"arrangement", kind_}}) {
        QHBoxLayout* row = w == kind_ ? second : top;
        row->addWidget(new QLabel(QString::fromLatin1(label), this));
        row->addWidget(w);
    }
    auto* copy = new QPushButton(QStringLiteral("Copy as tilelang-ascend"), this);
    copy->setObjectName(QStringLiteral("fractalCopyAscend"));
    connect(copy, &QPushButton::clicked, this, [this] {
        const QString code = ascendCode();
        if (!code.isEmpty()) QApplication::clipboard()->setText(code);
    });
    top->addStretch(1);
    second->addWidget(copy);
    second->addStretch(1);
    info_ = new QLabel(this);
    info_->setObjectName(QStringLiteral("fractalInfo"));
    info_->setWordWrap(true);
    logical_ = new GridView(this);
    physical_ = new GridView(this);
    auto* gridBox = new QWidget(this);
    grids_ = new QBoxLayout(QBoxLayout::LeftToRight, gridBox);
    grids_->setContentsMargins(0, 0, 0, 0);
    auto* grids = grids_;
    for (auto [title, v] : std::initializer_list<std::pair<const char*, GridView*>>{
             {"logical tile (label: storage offset)", logical_},
             {"physical storage (label: logical cell; grey: padding)", physical_}}) {
        v->setTitleVisible(false);
        v->setMinimumSize(260, 240);
        auto* box = new QGroupBox(QString::fromLatin1(title), this);
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(2, 2, 2, 2);
        bl->addWidget(v);
        grids->addWidget(box, 1);
    }
    auto* v = new QVBoxLayout(this);
    auto* marker = new QLabel(this);
    marker->setObjectName(QStringLiteral("fractalMarker"));
    marker->setWordWrap(true);
    v->addLayout(top);
    v->addLayout(second);
    v->addWidget(marker);
    v->addWidget(info_);
    v->addWidget(gridBox, 1000);
    splice_ = new NzSpliceView(this);
    auto* spliceBox =
        new QGroupBox(QStringLiteral("Several DMAs into one tile (GM -> L1, zN)"), this);
    auto* sl = new QVBoxLayout(spliceBox);
    sl->setContentsMargins(4, 4, 4, 4);
    sl->addWidget(splice_);
    v->addWidget(spliceBox, 600);
    v->addStretch(1); // holds the rest at the top while the grids are hidden under an error
    // The footprint and both grids are one result: hidden under an error.
    state_ = new ResultState(this);
    state_->setMarker(marker);
    state_->addView(info_);
    state_->addView(gridBox);
    auto update = [this] { refresh(); };
    connect(rows_, &QSpinBox::valueChanged, this, update);
    connect(cols_, &QSpinBox::valueChanged, this, update);
    connect(dtype_, &QComboBox::currentTextChanged, this, update);
    connect(kind_, &QComboBox::currentTextChanged, this, update);
    refresh();
}

void FractalPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    // Side by side in a wide panel, one above the other in a tall one (presenter mode).
    const auto d = width() >= height() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (grids_->direction() != d) grids_->setDirection(d);
}

void FractalPanel::setTile(int r, int c, const QString& dtype, const QString& kind) {
    for (QWidget* w : std::initializer_list<QWidget*>{rows_, cols_, dtype_, kind_})
        w->blockSignals(true);
    rows_->setValue(r);
    cols_->setValue(c);
    dtype_->setCurrentText(dtype);
    try {
        kind_->setCurrentIndex(int(ts::parseFractalKind(kind.toStdString())));
    } catch (const std::exception& e) {
        for (QWidget* w : std::initializer_list<QWidget*>{rows_, cols_, dtype_, kind_})
            w->blockSignals(false);
        error_ = QString::fromUtf8(e.what());
        info_->clear();
        logical_->setModel(GridModel());
        physical_->setModel(GridModel());
        state_->fail(state_->invalidate(), error_);
        return;
    }
    for (QWidget* w : std::initializer_list<QWidget*>{rows_, cols_, dtype_, kind_})
        w->blockSignals(false);
    refresh();
}

QString FractalPanel::ascendCode() const {
    try {
        return QString::fromStdString(ts::ascendFractalCode(
            ts::parseFractalKind(kind_->currentText().toStdString()), rows_->value(),
            cols_->value(), dtype_->currentText().toStdString()));
    } catch (const std::exception&) {
        return {};
    }
}

QString FractalPanel::footprintText() const {
    return info_->text();
}

bool FractalPanel::refresh() {
    const quint64 gen = state_->invalidate();
    ts::FractalView f;
    try {
        f = ts::fractalView(ts::parseFractalKind(kind_->currentText().toStdString()),
                            rows_->value(), cols_->value(), dtype_->currentText().toStdString());
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what());
        info_->clear();
        logical_->setModel(GridModel());
        physical_->setModel(GridModel());
        splice_->setTile(0, 0, dtype_->currentText(), false);
        state_->fail(gen, error_);
        return false;
    }
    error_.clear();
    splice_->setTile(f.rows, f.cols, dtype_->currentText(), f.kind == ts::FractalKind::zN);
    const int R = int(f.rows), C = int(f.cols);
    // Logical view: label = storage offset, colour = fractal block, blocks outlined.
    logical_->setModel(
        tableGrid({f.rows, f.cols}, 1, f.offset, {f.footprint_elements}, ViewMode::Input));
    std::vector<std::int64_t> blocks(std::size_t(R) * std::size_t(C));
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            blocks[std::size_t(r * C + c)] = f.logicalBlock(r, c);
    logical_->renderer().setCellColorOverlay(std::make_shared<CategoryOverlay>(C, blocks));
    logical_->renderer().clearOverlays();
    logical_->renderer().addOverlay(std::make_shared<BlockOutlineOverlay>(R, C, blocks));
    // Physical view: output view of logical -> (physical row, physical col).
    std::vector<std::int64_t> pos;
    pos.reserve(std::size_t(R) * std::size_t(C) * 2);
    for (std::int64_t off : f.offset) {
        auto [pr, pc] = f.physPos(off);
        pos.push_back(pr);
        pos.push_back(pc);
    }
    physical_->setModel(tableGrid({f.rows, f.cols}, 2, std::move(pos), {f.phys_rows, f.phys_cols},
                                  ViewMode::Output));
    const int PR = int(f.phys_rows), PC = int(f.phys_cols);
    std::vector<std::int64_t> pcats(std::size_t(PR) * std::size_t(PC), -1), pblocks(pcats.size());
    for (int r = 0; r < PR; ++r)
        for (int c = 0; c < PC; ++c) {
            const std::int64_t cell = f.phys_cell[std::size_t(r * PC + c)];
            pcats[std::size_t(r * PC + c)] = cell < 0 ? -1 : f.logicalBlock(cell / C, cell % C);
            pblocks[std::size_t(r * PC + c)] = (r / f.frac_rows) * 100000 + c / f.frac_cols;
        }
    physical_->renderer().setCellColorOverlay(std::make_shared<CategoryOverlay>(
        PC, std::move(pcats), 0xffd0d0d0, std::function<QColor(std::int64_t)>{},
        std::vector<LegendEntry>{
            {QColor(0xd0, 0xd0, 0xd0), QStringLiteral("padding (no element)")}}));
    physical_->renderer().clearOverlays();
    physical_->renderer().addOverlay(
        std::make_shared<BlockOutlineOverlay>(PR, PC, std::move(pblocks)));
    logical_->setLegendVisible(false);
    logical_->zoomToFit();
    physical_->zoomToFit();
    const QString kind = QString::fromStdString(
        f.kind == ts::FractalKind::L0C ? std::string("L0C")
                                       : ts::fractalKindName(f.kind) + "</b> (tilelang-ascend \"" +
                                             ts::fractalKindAscendName(f.kind) + "\")<b>");
    info_->setText(
        QStringLiteral("<b>%1</b>: C0 = 32 B / %2 B = <b>%3</b> elements; fractal %4 x %5 "
                       "(%6 B); %7 in %8 of %9. Footprint <b>%10 elements = %11 "
                       "B</b> for %12 logical elements (%13 padding, %14%).")
            .arg(kind)
            .arg(f.element_bits / 8.0)
            .arg(256 / f.element_bits)
            .arg(f.frac_rows)
            .arg(f.frac_cols)
            .arg(f.frac_rows * f.frac_cols * f.element_bits / 8)
            .arg(countNoun(f.fractals, QStringLiteral("fractal")))
            .arg(countNoun(f.bands, QStringLiteral("band")))
            .arg(f.per_band)
            .arg(f.footprint_elements)
            .arg(f.footprint_bytes())
            .arg(f.rows * f.cols)
            .arg(f.padding_elements())
            .arg(100.0 * double(f.padding_elements()) / double(f.footprint_elements), 0, 'f', 1));
    state_->publish(gen);
    return true;
}

} // namespace tsw
