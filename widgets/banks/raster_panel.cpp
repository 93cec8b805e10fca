// SPDX-License-Identifier: Apache-2.0
// RasterPanel (see raster_panel.h).
#include "banks/raster_panel.h"

#include "banks/bank_overlays.h"
#include "common/result_state.h"
#include "common/wording.h"
#include "grid/gridview.h"

#include "tilescope/banks/raster.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace tsw {

namespace {

QString tileList(const std::vector<std::int64_t>& v) {
    QStringList s;
    for (std::size_t i = 0; i < v.size() && i < 24; ++i)
        s << QString::number(v[i]);
    if (v.size() > 24) s << QStringLiteral("…");
    return s.join(QLatin1Char(' '));
}

// Shows a launch order: label = launch index, colour = wave.
void showOrder(GridView* view, const std::vector<ts::BlockCoord>& order, std::int64_t gx,
               std::int64_t gy, std::int64_t resident) {
    std::vector<std::int64_t> idx = ts::launchIndexGrid(order, gx, gy);
    view->setModel(tableGrid({gy, gx}, 1, idx, {gx * gy}, ViewMode::Input));
    std::vector<std::int64_t> wave(idx.size());
    for (std::size_t i = 0; i < idx.size(); ++i)
        wave[i] = idx[i] < 0 ? -1 : idx[i] / resident;
    std::vector<LegendEntry> legend;
    legend.push_back(
        {kTransparent, QStringLiteral("colour = wave (%1 resident at once), label = launch "
                                      "order:")
                           .arg(countNoun(resident, QStringLiteral("block")))});
    const std::int64_t waves = (gx * gy + resident - 1) / resident;
    for (std::int64_t w = 0; w < std::min<std::int64_t>(waves, 12); ++w)
        legend.push_back({categoricalColor(w), QStringLiteral("wave %1").arg(w)});
    if (waves > 12)
        legend.push_back({kTransparent, QStringLiteral("… %1 waves (colours repeat)").arg(waves)});
    view->renderer().setCellColorOverlay(std::make_shared<CategoryOverlay>(
        int(gx), std::move(wave), 0xffe8e8e8, std::function<QColor(std::int64_t)>{},
        std::move(legend)));
    view->zoomToFit();
}

} // namespace

RasterPanel::RasterPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("rasterPanel"));
    auto spin = [this](int lo, int hi, int v) {
        auto* s = new QSpinBox(this);
        s->setRange(lo, hi);
        s->setValue(v);
        return s;
    };
    gx_ = spin(1, 2048, 12);
    gy_ = spin(1, 2048, 12);
    panel_ = spin(1, 256, 4);
    sms_ = spin(1, 1024, 16);
    perSm_ = spin(1, 32, 1);
    order_ = new QComboBox(this);
    order_->addItems({QStringLiteral("row"), QStringLiteral("column"), QStringLiteral("mlx")});
    auto* top = new QHBoxLayout;
    for (auto [label, w] :
         std::initializer_list<std::pair<const char*, QWidget*>>{{"grid x (N tiles)", gx_},
                                                                 {"grid y (M tiles)", gy_},
                                                                 {"panel_size", panel_},
                                                                 {"order", order_},
                                                                 {"SMs", sms_},
                                                                 {"blocks/SM", perSm_}}) {
        top->addWidget(new QLabel(QString::fromLatin1(label), this));
        top->addWidget(w);
    }
    top->addStretch(1);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    plain_ = new GridView(this);
    swizzled_ = new GridView(this);
    auto* gridBox = new QWidget(this);
    auto* grids = new QHBoxLayout(gridBox);
    grids->setContentsMargins(0, 0, 0, 0);
    for (auto [title, v] : std::initializer_list<std::pair<const char*, GridView*>>{
             {"plain order (no T.use_swizzle)", plain_}, {"T.use_swizzle", swizzled_}}) {
        v->setTitleVisible(false);
        v->setMinimumSize(260, 240);
        auto* box = new QGroupBox(QString::fromLatin1(title), this);
        box->setObjectName(QString::fromLatin1(title));
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(2, 2, 2, 2);
        bl->addWidget(v);
        grids->addWidget(box, 1);
    }
    waves_ = new QPlainTextEdit(this);
    waves_->setReadOnly(true);
    waves_->setObjectName(QStringLiteral("rasterWaves"));
    waves_->setMaximumHeight(150);
    auto* v = new QVBoxLayout(this);
    auto* marker = new QLabel(this);
    marker->setObjectName(QStringLiteral("rasterMarker"));
    marker->setWordWrap(true);
    v->addLayout(top);
    v->addWidget(marker);
    v->addWidget(summary_);
    v->addWidget(gridBox, 1000);
    v->addWidget(waves_);
    v->addStretch(1); // holds the rest at the top while the results are hidden under an error
    // Summary, both orders and the waves are one result: hidden under an error.
    state_ = new ResultState(this);
    state_->setMarker(marker);
    state_->addView(summary_);
    state_->addView(gridBox);
    state_->addView(waves_);
    for (QSpinBox* s : {gx_, gy_, panel_, sms_, perSm_})
        connect(s, &QSpinBox::valueChanged, this, [this] { refresh(); });
    connect(order_, &QComboBox::currentTextChanged, this, [this] { refresh(); });
    refresh();
}

void RasterPanel::setGrid(int gx, int gy, int panel, const QString& order, int sms, int perSm) {
    for (QWidget* w : std::initializer_list<QWidget*>{gx_, gy_, panel_, sms_, perSm_, order_})
        w->blockSignals(true);
    gx_->setValue(gx);
    gy_->setValue(gy);
    panel_->setValue(panel);
    order_->setCurrentText(order);
    sms_->setValue(sms);
    perSm_->setValue(perSm);
    for (QWidget* w : std::initializer_list<QWidget*>{gx_, gy_, panel_, sms_, perSm_, order_})
        w->blockSignals(false);
    refresh();
}

QString RasterPanel::wavesText() const {
    return waves_->toPlainText();
}

bool RasterPanel::refresh() {
    const quint64 gen = state_->invalidate();
    const std::int64_t gx = gx_->value(), gy = gy_->value(), P = panel_->value();
    const std::int64_t resident = std::int64_t(sms_->value()) * perSm_->value();
    try {
        const ts::RasterOrder ord = ts::parseRasterOrder(order_->currentText().toStdString());
        std::vector<ts::BlockCoord> plain = ts::rasterize(gx, gy, P, ts::RasterOrder::Plain);
        std::vector<ts::BlockCoord> sw = ts::rasterize(gx, gy, P, ord);
        showOrder(plain_, plain, gx, gy, resident);
        showOrder(swizzled_, sw, gx, gy, resident);
        std::vector<ts::RasterWave> wp = ts::rasterWaves(plain, resident);
        std::vector<ts::RasterWave> ws = ts::rasterWaves(sw, resident);
        QString text;
        double sumP = 0, sumS = 0;
        for (const auto& w : wp)
            sumP += double(w.a_tiles.size() + w.b_tiles.size());
        for (const auto& w : ws)
            sumS += double(w.a_tiles.size() + w.b_tiles.size());
        for (std::size_t i = 0; i < ws.size() && i < 12; ++i) {
            const auto& w = ws[i];
            const auto& p = wp[std::min(i, wp.size() - 1)];
            text += QStringLiteral("wave %1: %2 | %3: A panels {%4}, B panels {%5} | plain: "
                                   "%6 A + %7 B\n")
                        .arg(w.wave)
                        .arg(countNoun(w.count, QStringLiteral("block")))
                        .arg(order_->currentText())
                        .arg(tileList(w.a_tiles), tileList(w.b_tiles))
                        .arg(p.a_tiles.size())
                        .arg(p.b_tiles.size());
        }
        waves_->setPlainText(text);
        summary_->setText(
            QStringLiteral("Block (bx, by) computes C tile (by, bx): reads A row panel by and B "
                           "column panel bx. %1 resident blocks per wave. Distinct A+B panels per "
                           "wave, averaged: <b>plain %2</b>, <b>%3 %4</b>. This is threadblock "
                           "rasterization for L2 reuse, not the shared-memory swizzle.")
                .arg(resident)
                .arg(sumP / double(std::max<std::size_t>(wp.size(), 1)), 0, 'f', 1)
                .arg(order_->currentText())
                .arg(sumS / double(std::max<std::size_t>(ws.size(), 1)), 0, 'f', 1));
        error_.clear();
        state_->publish(gen);
        return true;
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what());
        summary_->clear();
        waves_->clear();
        plain_->setModel(GridModel());
        swizzled_->setModel(GridModel());
        state_->fail(gen, error_);
        return false;
    }
}

} // namespace tsw
