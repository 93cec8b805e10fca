// BankPanel (see bank_panel.h).
#include "bank_panel.h"

#include "bank_overlays.h"
#include "gridview.h"

#include "tilescope/builtins.h"
#include "tilescope/errors.h"
#include "tilescope/mapping.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

namespace tsw {

BankPanel::BankPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("bankPanel"));
    layoutEdit_ = new QLineEdit(QStringLiteral("make_linear_layout((16, 64), \"float16\")"), this);
    layoutEdit_->setObjectName(QStringLiteral("bankLayout"));
    accessEdit_ = new QLineEdit(QStringLiteral("ldmatrix:x4"), this);
    accessEdit_->setObjectName(QStringLiteral("bankAccess"));
    accessEdit_->setToolTip(QStringLiteral(
        "fragment:<T.Fragment ...>  |  lanes:lambda t: (row, col)  |  lanes:lambda t, k: (row, col)"
        "  |  ldmatrix:x1|x2|x4[.trans][@row,col]  |  stmatrix:x4"));
    dtypeBox_ = new QComboBox(this);
    for (const std::string& d : ts::knownDtypes())
        if (ts::dtypeBits(d) % 8 == 0) dtypeBox_->addItem(QString::fromStdString(d));
    dtypeBox_->setCurrentText(QStringLiteral("float16"));
    vectorSpin_ = new QSpinBox(this);
    vectorSpin_->setRange(0, 16);
    vectorSpin_->setSpecialValueText(QStringLiteral("auto"));
    vectorSpin_->setSuffix(QStringLiteral(" elem"));
    storeBox_ = new QCheckBox(QStringLiteral("store"), this);

    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Shared layout"), layoutEdit_);
    form->addRow(QStringLiteral("Access"), accessEdit_);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(QStringLiteral("dtype"), this));
    row->addWidget(dtypeBox_);
    row->addWidget(new QLabel(QStringLiteral("vector"), this));
    row->addWidget(vectorSpin_);
    row->addWidget(storeBox_);
    row->addStretch(1);
    form->addRow(row);

    errorLabel_ = new QLabel(this);
    errorLabel_->setStyleSheet(QStringLiteral("color: #b00020;"));
    errorLabel_->setWordWrap(true);
    errorLabel_->hide();
    totals_ = new QLabel(this);
    totals_->setObjectName(QStringLiteral("bankTotals"));
    totals_->setTextFormat(Qt::RichText);

    measured_ = new QLabel(this);
    measured_->setObjectName(QStringLiteral("bankMeasured"));
    measured_->setWordWrap(true);
    measured_->setStyleSheet(
        QStringLiteral("background: #1b5e20; color: white; padding: 3px 6px; border-radius: 3px;"));
    measured_->hide();

    grid_ = new GridView(this);
    grid_->setTitleVisible(false);

    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setTitle(QStringLiteral("distinct words per bank"));
    chartView_ = new QChartView(chart, this);
    chartView_->setRenderHint(QPainter::Antialiasing);
    chartView_->setMinimumHeight(170);

    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("bankStepSlider"));
    slider_->setRange(-1, -1);
    playButton_ = new QPushButton(QStringLiteral("Play"), this);
    playButton_->setObjectName(QStringLiteral("bankPlay"));
    // Step buttons: a teacher walks through a warp's instructions at the class's pace.
    stepBack_ = new QPushButton(QStringLiteral("◀ Step"), this);
    stepBack_->setObjectName(QStringLiteral("bankStepBack"));
    stepBack_->setToolTip(
        QStringLiteral("Previous instruction (Alt+Left; Left in presenter mode). Before the "
                       "first: all instructions."));
    stepForward_ = new QPushButton(QStringLiteral("Step ▶"), this);
    stepForward_->setObjectName(QStringLiteral("bankStepForward"));
    stepForward_->setToolTip(
        QStringLiteral("Next instruction (Alt+Right; Right or Space in presenter mode)"));
    stepLabel_ = new QLabel(this);
    stepLabel_->setObjectName(QStringLiteral("bankStepLabel"));
    auto* stepRow = new QHBoxLayout;
    stepRow->addWidget(stepBack_);
    stepRow->addWidget(playButton_);
    stepRow->addWidget(stepForward_);
    stepRow->addWidget(slider_, 1);
    stepLabel_->setWordWrap(true);
    totals_->setWordWrap(true);

    // The heat grid takes the panel's whole height (cells large enough to read their numbers);
    // the inputs, totals, step controls and the per-bank chart stand beside it.
    grid_->setMinimumSize(320, 260);
    grid_->setCellToolTip([this](int r, int c) { return cellToolTip(r, c); });
    chartView_->setMinimumSize(300, 190);
    auto* side = new QWidget(this);
    auto* sv = new QVBoxLayout(side);
    sv->setContentsMargins(0, 0, 0, 0);
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->addWidget(grid_);
    split_->addWidget(side);
    split_->setStretchFactor(0, 1);
    split_->setStretchFactor(1, 1);

    sv->addLayout(form);
    sv->addWidget(errorLabel_);
    sv->addWidget(totals_);
    sv->addWidget(measured_);
    sv->addLayout(stepRow);
    sv->addWidget(stepLabel_);
    sv->addWidget(chartView_, 1);
    auto* v = new QVBoxLayout(this);
    v->addWidget(split_, 1);

    timer_ = new QTimer(this);
    timer_->setInterval(700);
    connect(timer_, &QTimer::timeout, this, [this] {
        const int n = instructionCount();
        if (n == 0) return pause();
        setCurrentStep(step_ + 1 >= n ? 0 : step_ + 1);
    });
    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(250);
    connect(debounce_, &QTimer::timeout, this, [this] { analyze(); });
    for (QLineEdit* e : {layoutEdit_, accessEdit_})
        connect(e, &QLineEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
    connect(dtypeBox_, &QComboBox::currentTextChanged, debounce_, qOverload<>(&QTimer::start));
    connect(vectorSpin_, &QSpinBox::valueChanged, debounce_, qOverload<>(&QTimer::start));
    connect(storeBox_, &QCheckBox::toggled, debounce_, qOverload<>(&QTimer::start));
    connect(slider_, &QSlider::valueChanged, this, &BankPanel::setCurrentStep);
    connect(playButton_, &QPushButton::clicked, this, &BankPanel::togglePlay);
    connect(stepBack_, &QPushButton::clicked, this, &BankPanel::stepBack);
    connect(stepForward_, &QPushButton::clicked, this, &BankPanel::stepForward);
    analyze();
}

BankPanel::~BankPanel() = default;

void BankPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    // Beside the controls in a wide panel (docked below the grid), above them in a tall one
    // (docked at the side, presenter mode): the heat grid always gets the long side.
    const Qt::Orientation o = width() >= height() * 1.3 ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() != o) split_->setOrientation(o);
}

void BankPanel::setLayoutText(const QString& t) {
    layoutEdit_->setText(t);
}
QString BankPanel::layoutText() const {
    return layoutEdit_->text();
}
void BankPanel::setAccessText(const QString& t) {
    accessEdit_->setText(t);
}
QString BankPanel::accessText() const {
    return accessEdit_->text();
}
void BankPanel::setDtype(const QString& d) {
    dtypeBox_->setCurrentText(d);
}
void BankPanel::setVector(int v) {
    vectorSpin_->setValue(v);
}
void BankPanel::setStore(bool s) {
    storeBox_->setChecked(s);
}

int BankPanel::instructionCount() const {
    return access_ ? int(access_->plan.instructions.size()) : 0;
}

bool BankPanel::isPlaying() const {
    return timer_->isActive();
}

bool BankPanel::applyView(const QString& layoutText, const QString& access, const QString& dtype,
                          int vector, bool store, int step) {
    const QSignalBlocker b1(layoutEdit_), b2(accessEdit_), b3(dtypeBox_), b4(vectorSpin_),
        b5(storeBox_);
    layoutEdit_->setText(layoutText);
    accessEdit_->setText(access);
    dtypeBox_->setCurrentText(dtype);
    vectorSpin_->setValue(vector);
    storeBox_->setChecked(store);
    if (!analyze()) return false;
    setCurrentStep(step);
    return true;
}

void BankPanel::stepForward() {
    pause();
    setCurrentStep(std::min(step_ + 1, instructionCount() - 1));
}

void BankPanel::stepBack() {
    pause();
    setCurrentStep(std::max(step_ - 1, -1));
}

QString BankPanel::cellToolTip(int row, int col) const {
    if (!tile_ || !access_ || !cost_) return {};
    const int cols = grid_->model().cols();
    const std::int64_t cell = std::int64_t(row) * cols + col;
    if (cell < 0 || cell >= tile_->cells()) return {};
    const int bw = access_->plan.bank_width, banks = access_->plan.bank_count;
    const std::int64_t addr = tile_->addressOfCell(cell);
    const std::int64_t w0 = addr / bw, w1 = (addr + tile_->elementBytes() - 1) / bw;
    QString t =
        QStringLiteral("<b>cell</b> (%1, %2) · byte address %3<br>").arg(row).arg(col).arg(addr);
    if (w0 == w1)
        t += QStringLiteral("<b>bank</b> %1 · <b>word</b> %2").arg(w0 % banks).arg(w0);
    else
        t += QStringLiteral("<b>banks</b> %1–%2 · <b>words</b> %3–%4")
                 .arg(w0 % banks)
                 .arg(w1 % banks)
                 .arg(w0)
                 .arg(w1);
    // The lanes touching it, per instruction (only the current one while stepping).
    QStringList rows;
    const int n = instructionCount();
    for (int i = 0; i < n && rows.size() < 8; ++i) {
        if (step_ >= 0 && i != step_) continue;
        QStringList lanes;
        for (const ts::LaneTouch& lt : access_->touches[std::size_t(i)])
            for (std::int32_t c : access_->cellsOf(lt))
                if (c == cell) {
                    lanes << QString::number(lt.lane);
                    break;
                }
        if (!lanes.isEmpty())
            rows << QStringLiteral("instruction %1 (%2 wavefront%3): %4 %5")
                        .arg(i + 1)
                        .arg(cost_->instructions[std::size_t(i)].wavefronts)
                        .arg(cost_->instructions[std::size_t(i)].wavefronts == 1 ? "" : "s")
                        .arg(lanes.size() == 1 ? QStringLiteral("lane") : QStringLiteral("lanes"))
                        .arg(lanes.join(QStringLiteral(", ")));
    }
    if (rows.isEmpty())
        t += step_ >= 0 ? QStringLiteral("<br>not accessed by instruction %1").arg(step_ + 1)
                        : QStringLiteral("<br>not accessed");
    else
        t += QStringLiteral("<br><b>lanes</b> ") + rows.join(QStringLiteral("<br>"));
    return t;
}

bool BankPanel::analyze() {
    debounce_->stop();
    const QString key = layoutEdit_->text() + QChar(1) + accessEdit_->text() + QChar(1) +
                        dtypeBox_->currentText() + QChar(1) +
                        QString::number(vectorSpin_->value()) + QChar(1) +
                        QString::number(storeBox_->isChecked());
    try {
        ts::Mapping m = ts::parseMapping(layoutEdit_->text().toStdString());
        const ts::Layout* l = std::get_if<ts::Layout>(&m);
        if (!l)
            throw ts::InputError("the shared layout must be a T.Layout (a fragment goes in "
                                 "the access as fragment:...)");
        auto tile = std::make_unique<ts::SharedTile>(*l, dtypeBox_->currentText().toStdString());
        ts::AccessOptions o;
        o.vector = vectorSpin_->value();
        o.store = storeBox_->isChecked();
        ts::SharedAccess a = ts::buildAccess(*tile, accessEdit_->text().toStdString(), o);
        cost_ = ts::analyzePlan(a.plan);
        access_ = std::move(a);
        tile_ = std::move(tile);
        // The heat grid's cells are labelled with their bank (two digits fit small cells; a
        // click highlights every cell of that bank).
        std::vector<std::int64_t> banks(std::size_t(tile_->cells()));
        const int bw = access_->plan.bank_width, nb = access_->plan.bank_count;
        for (std::int64_t c = 0; c < tile_->cells(); ++c)
            banks[std::size_t(c)] = tile_->addressOfCell(c) / bw % nb;
        grid_->setModel(tableGrid(tile_->shape(), 1, std::move(banks), {nb}, ViewMode::Input),
                        true);
        error_.clear();
        errorLabel_->hide();
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what()).split(QLatin1Char('\n')).first();
        errorLabel_->setText(error_);
        errorLabel_->show();
        emit analyzed(false);
        return false;
    }
    const int n = instructionCount();
    // The same inputs analysed again (a layout re-sent after an edit elsewhere) keep the step.
    const int keep = key == analyzedKey_ ? std::clamp(step_, -1, n - 1) : -1;
    analyzedKey_ = key;
    if (keep < 0) pause();
    slider_->blockSignals(true);
    slider_->setRange(-1, n - 1);
    slider_->setValue(keep);
    slider_->blockSignals(false);
    step_ = keep;
    refreshView();
    emit analyzed(true);
    return true;
}

QString BankPanel::totalsText() const {
    if (!cost_) return {};
    const ts::PlanCost& c = *cost_;
    return QStringLiteral("%1 instruction(s): %2 wavefronts, ideal %3, excess %4 "
                          "(ncu \"bank conflicts\"), efficiency %5%")
        .arg(c.instructions.size())
        .arg(c.wavefronts)
        .arg(c.ideal)
        .arg(c.excess)
        .arg(100.0 * c.efficiency(), 0, 'f', 1);
}

QString BankPanel::stepText() const {
    if (!access_ || !cost_) return {};
    if (step_ < 0) return QStringLiteral("all %1 instructions").arg(instructionCount());
    const ts::Instruction& ins = access_->plan.instructions[std::size_t(step_)];
    const ts::InstructionCost& c = cost_->instructions[std::size_t(step_)];
    return QStringLiteral("%1/%2  %3 (%4 B/lane): %5 wavefronts, ideal %6, excess %7")
        .arg(step_ + 1)
        .arg(instructionCount())
        .arg(QString::fromStdString(ins.label))
        .arg(ins.bytes_per_lane)
        .arg(c.wavefronts)
        .arg(c.ideal)
        .arg(c.excess);
}

std::vector<double> BankPanel::histogram() const {
    std::vector<double> h;
    if (!cost_) return h;
    const int banks = access_ ? access_->plan.bank_count : 32;
    h.assign(std::size_t(banks), 0.0);
    for (std::size_t i = 0; i < cost_->instructions.size(); ++i) {
        if (step_ >= 0 && int(i) != step_) continue;
        const auto& bw = cost_->instructions[i].bank_words;
        for (std::size_t b = 0; b < bw.size() && b < h.size(); ++b)
            h[b] += bw[b];
    }
    return h;
}

void BankPanel::setCurrentStep(int step) {
    const int n = instructionCount();
    step = std::clamp(step, -1, n - 1);
    if (slider_->value() != step) {
        slider_->blockSignals(true);
        slider_->setValue(step);
        slider_->blockSignals(false);
    }
    if (step == step_) return;
    step_ = step;
    refreshView();
    emit stepChanged(step_);
}

void BankPanel::play() {
    if (instructionCount() == 0) return;
    timer_->start();
    playButton_->setText(QStringLiteral("Pause"));
}

void BankPanel::pause() {
    timer_->stop();
    playButton_->setText(QStringLiteral("Play"));
}

void BankPanel::togglePlay() {
    isPlaying() ? pause() : play();
}

void BankPanel::setPlayIntervalMs(int ms) {
    timer_->setInterval(ms);
}

void BankPanel::refreshView() {
    if (!tile_ || !access_ || !cost_) return;
    const GridModel& gm = grid_->model();
    const int rows = gm.rows(), cols = gm.cols();
    ts::CellHeat h = ts::instructionHeat(*tile_, *access_, *cost_, step_);
    ts::CellHeat all = ts::cellHeat(*tile_, *access_, *cost_);
    std::vector<double> values(h.wavefronts.size(), std::nan(""));
    for (std::size_t i = 0; i < values.size(); ++i)
        if (h.instruction[i] >= 0) values[i] = h.wavefronts[i];
    // A fixed scale over all instructions, so stepping does not rescale the colours.
    double lo = 1e9, hi = 0;
    for (const auto& ic : cost_->instructions) {
        lo = std::min<double>(lo, ic.ideal);
        hi = std::max<double>(hi, ic.wavefronts);
    }
    if (lo > hi) lo = hi = 0;
    auto heat = std::make_shared<HeatOverlay>(cols, std::move(values), lo, std::max(hi, lo + 1),
                                              QStringLiteral("wavefront"));
    heat->addLegend({QColor(Qt::transparent), QStringLiteral("label: bank")});
    if (step_ >= 0) {
        heat->setNoneText(QStringLiteral("not in instruction %1").arg(step_ + 1));
        heat->addLegend(
            {CellMarksOverlay::kFrame,
             QStringLiteral("frame: instruction %1's cells, tag = lane").arg(step_ + 1)});
    }
    grid_->renderer().setCellColorOverlay(heat);
    grid_->renderer().clearOverlays();
    if (step_ >= 0) {
        std::vector<CellMarksOverlay::Mark> marks;
        std::vector<std::pair<int, int>> framed;
        for (const ts::LaneTouch& lt : access_->touches[std::size_t(step_)]) {
            const auto cells = access_->cellsOf(lt);
            for (std::size_t k = 0; k < cells.size(); ++k) {
                const int r = int(cells[k] / std::max(cols, 1)),
                          c = int(cells[k] % std::max(cols, 1));
                framed.push_back({r, c});
                if (k == 0) marks.push_back({r, c, QString::number(lt.lane)});
            }
        }
        grid_->renderer().addOverlay(
            std::make_shared<CellMarksOverlay>(std::move(marks), std::move(framed)));
    }
    (void)rows;
    (void)all;
    grid_->update();
    totals_->setText(QStringLiteral("<b>%1</b>").arg(totalsText().toHtmlEscaped()));
    stepLabel_->setText(stepText());
    stepBack_->setEnabled(step_ > -1);
    stepForward_->setEnabled(step_ < instructionCount() - 1);
    updateChart();
}

void BankPanel::setMeasurement(double measuredWf, double predictedWf, double nsPerWavefront,
                               const QString& device, const QString& pattern) {
    QString text;
    if (measuredWf < 0) {
        text = QStringLiteral(
                   "Run on %1 (%2): no wavefront counter (ncu not on the PATH); predicted %3 "
                   "wavefronts/instr")
                   .arg(device, pattern)
                   .arg(predictedWf, 0, 'g', 4);
    } else {
        const bool agree = std::abs(measuredWf - predictedWf) < 0.01 * std::max(1.0, predictedWf);
        text = QStringLiteral("Measured on %1 (%2): %3 wavefronts/instr (ncu) vs %4 predicted: %5")
                   .arg(device, pattern)
                   .arg(measuredWf, 0, 'f', 3)
                   .arg(predictedWf, 0, 'g', 4)
                   .arg(agree ? QStringLiteral("agree") : QStringLiteral("DIFFER"));
    }
    if (nsPerWavefront > 0)
        text += QStringLiteral(" · %1 ns per wavefront").arg(nsPerWavefront, 0, 'f', 3);
    measured_->setText(text);
    measured_->show();
}

QString BankPanel::measurementText() const {
    return measured_->isHidden() ? QString() : measured_->text();
}

void BankPanel::updateChart() {
    QChart* chart = chartView_->chart();
    chart->removeAllSeries(); // deletes them
    for (QAbstractAxis* a : chart->axes()) {
        chart->removeAxis(a); // gives ownership back: every step leaked two axes (LeakSanitizer)
        delete a;
    }
    const std::vector<double> h = histogram();
    auto* set = new QBarSet(QStringLiteral("words"));
    double mx = 1;
    for (double v : h) {
        *set << v;
        mx = std::max(mx, v);
    }
    const bool conflict =
        step_ >= 0 ? cost_->instructions[std::size_t(step_)].excess > 0 : cost_->excess > 0;
    set->setColor(conflict ? QColor(215, 48, 31) : QColor(49, 130, 189));
    bars_ = set;
    auto* series = new QBarSeries;
    series->append(set);
    series->setBarWidth(0.9);
    chart->addSeries(series);
    // Banks on a value axis labelled every 4th bank: 32 category labels do not fit a narrow
    // chart and were elided to dots.
    auto* ax = new QValueAxis;
    ax->setRange(-0.5, double(h.size()) - 0.5);
    ax->setTickType(QValueAxis::TicksDynamic);
    ax->setTickAnchor(0);
    ax->setTickInterval(h.size() > 16 ? 4 : 1);
    ax->setLabelFormat(QStringLiteral("%d"));
    ax->setGridLineVisible(false);
    ax->setTitleText(QStringLiteral("bank"));
    auto* ay = new QValueAxis;
    ay->setRange(0, std::ceil(mx));
    ay->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    series->attachAxis(ax);
    series->attachAxis(ay);
    chart->setTitle(step_ >= 0 ? QStringLiteral("distinct words per bank, instruction %1 (summed "
                                                "over phases)")
                                     .arg(step_ + 1)
                               : QStringLiteral("distinct words per bank, all instructions"));
}

} // namespace tsw
