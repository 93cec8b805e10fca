// SPDX-License-Identifier: Apache-2.0
// BankPanel (see bank_panel.h).
#include "banks/bank_panel.h"

#include "banks/bank_heat.h"
#include "banks/bank_overlays.h"
#include "common/result_state.h"
#include "common/wording.h"
#include "grid/gridview.h"
#include "grid/panel_export.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
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
    source_ = new QLabel(this);
    source_->setObjectName(QStringLiteral("bankSource"));
    source_->setWordWrap(true);
    source_->setTextFormat(Qt::RichText);
    layoutEdit_ = new QLineEdit(QStringLiteral("make_linear_layout((16, 64), \"float16\")"), this);
    layoutEdit_->setObjectName(QStringLiteral("bankLayout"));
    accessEdit_ = new QLineEdit(QStringLiteral("ldmatrix:x4"), this);
    accessEdit_->setObjectName(QStringLiteral("bankAccess"));
    autoBox_ = new QCheckBox(QStringLiteral("fit the layout"), this);
    autoBox_->setObjectName(QStringLiteral("bankAutoAccess"));
    autoBox_->setChecked(true);
    autoBox_->setToolTip(QStringLiteral(
        "Choose an access that fits the analysed layout: ldmatrix.x4 on 16-bit tiles of at least "
        "16x16, ldmatrix.x1 on 8x8, else one element per lane. Typing an access turns it off."));
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
    auto* accessRow = new QHBoxLayout;
    accessRow->addWidget(accessEdit_, 1);
    accessRow->addWidget(autoBox_);
    form->addRow(QStringLiteral("Access"), accessRow);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(QStringLiteral("dtype"), this));
    row->addWidget(dtypeBox_);
    row->addWidget(new QLabel(QStringLiteral("vector"), this));
    row->addWidget(vectorSpin_);
    row->addWidget(storeBox_);
    row->addStretch(1);
    form->addRow(row);

    // The note about the active layout (being evaluated, or not analysable here) has its own
    // line, kept even when empty, so the controls below do not move when it comes and goes.
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("bankNote"));
    note_->setWordWrap(true);
    note_->setTextFormat(Qt::RichText);
    note_->setMinimumHeight(3 * note_->fontMetrics().lineSpacing());
    note_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    errorLabel_ = new QLabel(this);
    errorLabel_->setObjectName(QStringLiteral("bankMarker"));
    errorLabel_->setWordWrap(true);
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
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
    auto* stepBox = new QWidget(this);
    auto* stepRow = new QHBoxLayout(stepBox);
    stepRow->setContentsMargins(0, 0, 0, 0);
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

    sv->addWidget(source_);
    sv->addWidget(note_);
    inputs_ = new QWidget(this);
    inputs_->setObjectName(QStringLiteral("bankInputs"));
    form->setContentsMargins(0, 0, 0, 0);
    inputs_->setLayout(form);
    sv->addWidget(inputs_);
    sv->addWidget(errorLabel_);
    sv->addWidget(totals_);
    sv->addWidget(measured_);
    sv->addWidget(stepBox);
    sv->addWidget(stepLabel_);
    // While the results are hidden under an error the stretch keeps the rest at the top.
    sv->addWidget(chartView_, 1000);
    sv->addStretch(1);
    auto* v = new QVBoxLayout(this);
    v->addWidget(split_, 1);

    // Totals, step-through, heat grid and histogram are one result: dimmed while the input is
    // re-analysed, hidden under the error when it fails.
    state_ = new ResultState(this);
    state_->setMarker(errorLabel_);
    state_->setOnError(ResultState::OnError::Hide);
    state_->setStaleText(QStringLiteral("⟳ analysing the new input…"));
    state_->addView(totals_);
    state_->addView(stepBox);
    state_->addView(stepLabel_);
    state_->addView(chartView_);
    state_->addView(grid_);

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
    connect(debounce_, &QTimer::timeout, this, [this] {
        const quint64 gen = state_->generation();
        const BankInput in = input();
        job_.submit(
            gen, [in](const CancelToken& token) { return analyzeBanks(in, token); },
            [this](quint64 g, BankAnalysis r) {
                if (!r.cancelled) apply(g, std::move(r));
            });
    });
    for (QLineEdit* e : {layoutEdit_, accessEdit_})
        connect(e, &QLineEdit::textChanged, this, &BankPanel::analyzeLater);
    // Typing an access is a choice: stop choosing one automatically. Typing a layout means the
    // panel no longer shows a layout of the project.
    connect(accessEdit_, &QLineEdit::textEdited, this, [this] { autoBox_->setChecked(false); });
    connect(accessEdit_, &QLineEdit::textChanged, this, &BankPanel::updateControls);
    connect(layoutEdit_, &QLineEdit::textEdited, this, [this] {
        sourceId_ = 0;
        elsewhere_ = false;
        noProjectLayout_ = false;
        updateSource();
    });
    connect(autoBox_, &QCheckBox::toggled, this, &BankPanel::analyzeLater);
    connect(dtypeBox_, &QComboBox::currentTextChanged, this, &BankPanel::analyzeLater);
    connect(vectorSpin_, &QSpinBox::valueChanged, this, &BankPanel::analyzeLater);
    connect(storeBox_, &QCheckBox::toggled, this, &BankPanel::analyzeLater);
    // The user's own choices (not a lesson step's or a project switch's, which block these):
    // the project keeps them with the layout (bank_access_keeper.h).
    connect(accessEdit_, &QLineEdit::textEdited, this, &BankPanel::userEdited);
    connect(autoBox_, &QCheckBox::clicked, this, &BankPanel::userEdited);
    connect(dtypeBox_, &QComboBox::activated, this, &BankPanel::userEdited);
    connect(vectorSpin_, &QSpinBox::valueChanged, this, &BankPanel::userEdited);
    connect(storeBox_, &QCheckBox::clicked, this, &BankPanel::userEdited);
    connect(slider_, &QSlider::valueChanged, this, &BankPanel::setCurrentStep);
    connect(playButton_, &QPushButton::clicked, this, &BankPanel::togglePlay);
    connect(stepBack_, &QPushButton::clicked, this, &BankPanel::stepBack);
    connect(stepForward_, &QPushButton::clicked, this, &BankPanel::stepForward);
    auto* pictures = new PanelExporter(this, QStringLiteral("Bank conflicts"));
    pictures->addPicture(QStringLiteral("Heat Map"),
                         [this](QString* why) { return heatMapPicture(why); });
    pictures->addPicture(QStringLiteral("Histogram"),
                         [this](QString* why) { return histogramPicture(why); });
    analyze();
    updateControls();
}

BankPanel::~BankPanel() = default;

void BankPanel::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    // The chart's text follows the panel's font (presenter mode enlarges it), as the heat grid's
    // chrome does.
    if (e->type() == QEvent::FontChange && chartView_) {
        chartView_->setMinimumHeight(chartMinimumHeight());
        if (cost_)
            updateChart();
        else
            chartView_->chart()->setTitleFont(font());
    }
}

void BankPanel::setPresenting(bool on) {
    // Projected, the heat grid and the totals are the lesson; the inputs and the chart fold away
    // (its height would come out of the cells) and returns afterwards.
    presenting_ = on;
    // The inputs too: a lesson step sets them, and the analysed line above names them.
    inputs_->setVisible(!on);
    grid_->setPresentation(on ? 1.45 : 1.0, on); // the presenter's panel font scale
    chartView_->setMinimumHeight(chartMinimumHeight());
    chartView_->setProperty(kFoldedAway, on);
    chartView_->setVisible(!on && !state_->viewsHidden());
}

int BankPanel::chartMinimumHeight() const {
    if (presenting_) return 0;
    // Beside the grid the chart can be tall; stacked under it, every line it takes is a line the
    // heat cells lose.
    const int lines = split_ && split_->orientation() == Qt::Vertical ? 6 : 12;
    return std::max(split_ && split_->orientation() == Qt::Vertical ? 110 : 190,
                    fontMetrics().height() * lines);
}

void BankPanel::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    // Beside the controls in a wide panel (docked below the grid), above them in a tall one
    // (docked at the side, presenter mode): the heat grid always gets the long side.
    const Qt::Orientation o = width() >= height() * 1.3 ? Qt::Horizontal : Qt::Vertical;
    if (split_->orientation() != o) {
        split_->setOrientation(o);
        // Stacked, the controls and chart would take half the height and leave the cells a few
        // pixels (presenter mode docks the panel tall): the heat grid gets two thirds.
        chartView_->setMinimumHeight(chartMinimumHeight());
        if (o == Qt::Vertical) {
            const int h = std::max(1, split_->height());
            split_->setSizes({h * 2 / 3, h - h * 2 / 3});
        }
    }
}

void BankPanel::setLayoutText(const QString& t) {
    layoutEdit_->setText(t);
}
bool BankPanel::analysedTextOutdated() const {
    return analysedId_ != 0 && analysedId_ == sourceId_ &&
           (sourceRemoved_ || analysedText_ != sourceText_);
}
void BankPanel::setDocument(const DocumentModel* doc) {
    if (doc_) disconnect(doc_, nullptr, this, nullptr);
    doc_ = doc;
    if (!doc) return;
    // A rename changes no number, only the words that name the layout: redraw them.
    connect(doc, &DocumentModel::nameChanged, this, [this] {
        updateSource();
        if (staleness_ != Staleness::None) state_->setStaleText(staleWords());
    });
    // Before a layout goes, remember its name: the panel may still say whose numbers it shows.
    connect(doc, &DocumentModel::layoutAboutToBeRemoved, this, [this](int i) {
        lastNames_.insert(doc_->idAt(i), QString::fromStdString(doc_->layout(i).name));
    });
}
QString BankPanel::nameOf(LayoutId id) const {
    if (id == 0) return {};
    if (doc_ && doc_->indexOf(id) >= 0) return doc_->nameOf(id);
    return lastNames_.value(id);
}
QString BankPanel::staleWords() const {
    switch (staleness_) {
    case Staleness::Changing:
        return QStringLiteral("⟳ «%1» is being evaluated: these numbers are for the text named "
                              "above until it is analysed…")
            .arg(nameOf(changingId_));
    case Staleness::OlderText:
        return sourceRemoved_
                   ? QStringLiteral("⚠ These numbers are for «%1», which is no longer in the "
                                    "project.")
                         .arg(nameOf(analysedId_))
                   : QStringLiteral("⚠ These numbers are for an earlier text of «%1» (shown "
                                    "above), not for its current text.")
                         .arg(nameOf(analysedId_));
    case Staleness::None:
        break;
    }
    return {};
}
void BankPanel::projectLayoutRemoved(LayoutId id) {
    if (id != sourceId_) return;
    sourceRemoved_ = true;
    markIfOlderText();
    updateSource();
}
void BankPanel::setSourceLayout(LayoutId id, const QString& text) {
    sourceId_ = id;
    sourceText_ = text;
    sourceRemoved_ = false;
    elsewhere_ = false;
    changingId_ = 0;
    noProjectLayout_ = false;
    if (text != layoutEdit_->text()) {
        layoutEdit_->setText(text); // analyses (debounced, off the UI thread)
    } else {
        // Already analysed under another name (a lesson step applies its saved analysis when it
        // becomes active, before its evaluation names it here): the numbers are this layout's.
        if (!analysedText_.isEmpty() && analysedText_ == text) analysedId_ = id;
        reconfirm();
    }
    updateSource();
}
void BankPanel::setActiveElsewhere(LayoutId id, const QString& why) {
    elsewhere_ = true;
    elsewhereId_ = id;
    elsewhereWhy_ = why;
    changingId_ = 0;
    reconfirm();
    markIfOlderText();
    updateSource();
}
void BankPanel::projectLayoutTextChanged(LayoutId id, const QString& text, bool active) {
    if (id != sourceId_) return;
    sourceText_ = text;
    if (active || analysedId_ != id) return;
    if (analysedTextOutdated())
        markIfOlderText();
    else
        reconfirm();
    updateSource();
}
void BankPanel::activeLayoutChanging(LayoutId id) {
    changingId_ = id;
    staleness_ = Staleness::Changing;
    state_->setStaleText(staleWords());
    state_->invalidate();
    updateSource();
}
void BankPanel::resetForProject() {
    debounce_->stop();
    job_.cancel();
    clearResults();
    sourceId_ = 0;
    elsewhere_ = false;
    elsewhereId_ = 0;
    elsewhereWhy_.clear();
    changingId_ = 0;
    analysedId_ = 0;
    staleness_ = Staleness::None;
    lastNames_.clear();
    analysedText_.clear();
    sourceText_.clear();
    sourceRemoved_ = false;
    lastKey_.clear();
    lastMessage_.clear();
    lastOk_ = false;
    accessWhy_.clear();
    error_.clear();
    noProjectLayout_ = true;
    {
        // The access, dtype, store and vector a lesson step (or the user) chose belong to the
        // closed project: the next one starts from an access fitted to its layout, in the
        // panel's default dtype (a new project's step applies its own).
        const QSignalBlocker b1(layoutEdit_), b2(accessEdit_), b3(autoBox_), b4(storeBox_),
            b5(vectorSpin_), b6(dtypeBox_);
        layoutEdit_->clear();
        accessEdit_->clear();
        autoBox_->setChecked(true);
        storeBox_->setChecked(false);
        vectorSpin_->setValue(0);
        dtypeBox_->setCurrentText(QStringLiteral("float16"));
    }
    dtypeBox_->setEnabled(true);
    dtypeBox_->setToolTip({});
    measured_->clear();
    measured_->hide();
    state_->clear();
    updateControls();
    updateSource();
}
void BankPanel::reconfirm() {
    if (noProjectLayout_ && layoutEdit_->text().isEmpty()) {
        state_->clear();
        return;
    }
    if (!analysisPending() && !lastKey_.isEmpty() && lastKey_ == inputKey()) {
        const quint64 gen = state_->generation();
        lastOk_ ? state_->publish(gen) : state_->fail(gen, lastMessage_);
        return;
    }
    analyzeLater();
}
void BankPanel::markIfOlderText() {
    // Whichever layout is active now: the one analysed has another text than the numbers'.
    if (!tile_ || state_->state() != ResultState::State::Current || !analysedTextOutdated()) return;
    staleness_ = Staleness::OlderText;
    state_->setStaleText(staleWords());
    state_->invalidateNow();
}
QString BankPanel::sourceText() const {
    return source_->text();
}
QString BankPanel::noteText() const {
    return note_->text();
}
void BankPanel::setAutoAccess(bool on) {
    autoBox_->setChecked(on);
}
bool BankPanel::autoAccess() const {
    return autoBox_->isChecked();
}
QString BankPanel::dtype() const {
    return dtypeBox_->currentText();
}
QString BankPanel::layoutText() const {
    return layoutEdit_->text();
}
void BankPanel::setAccessText(const QString& t) {
    autoBox_->setChecked(false);
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
int BankPanel::vector() const {
    return vectorSpin_->value();
}
bool BankPanel::store() const {
    return storeBox_->isChecked();
}
QString BankPanel::sourceName() const {
    return nameOf(sourceId_);
}

int BankPanel::firstStep() const {
    // "All instructions" before the first is a second state only when there are two or more:
    // one instruction shows the same cells either way, so it has the one state "1/1".
    return instructionCount() == 1 ? 0 : -1;
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
        b5(storeBox_), b6(autoBox_);
    autoBox_->setChecked(false); // the step names its access
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
    setCurrentStep(std::max(step_ - 1, firstStep()));
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

BankInput BankPanel::input() const {
    BankInput in;
    in.layoutText = layoutEdit_->text();
    in.accessText = accessEdit_->text();
    in.autoAccess = autoBox_->isChecked();
    in.dtype = dtypeBox_->currentText();
    in.vector = vectorSpin_->value();
    in.store = storeBox_->isChecked();
    return in;
}

void BankPanel::inputChanged() {
    staleness_ = Staleness::None;
    state_->setStaleText(QStringLiteral("⟳ analysing the new input…"));
    state_->invalidate();
    // A device measurement belongs to the input it was made for.
    measured_->clear();
    measured_->hide();
}

void BankPanel::analyzeLater() {
    inputChanged();
    debounce_->start();
}

bool BankPanel::analysisPending() const {
    return debounce_->isActive() || job_.busy();
}

bool BankPanel::analyze() {
    debounce_->stop();
    inputChanged();
    const quint64 gen = state_->generation();
    job_.cancel();
    return apply(gen, analyzeBanks(input()));
}

bool BankPanel::apply(quint64 gen, BankAnalysis r) {
    if (!state_->isCurrent(gen)) return false;
    // Reflect what was analysed in the controls, without counting it as an edit.
    {
        const QSignalBlocker b1(accessEdit_), b2(dtypeBox_);
        if (autoBox_->isChecked() && !r.access.isEmpty()) accessEdit_->setText(r.access);
        if (r.dtypeFromText) dtypeBox_->setCurrentText(r.dtype);
    }
    dtypeBox_->setEnabled(!r.dtypeFromText);
    dtypeBox_->setToolTip(r.dtypeFromText ? QStringLiteral("The layout text names its dtype")
                                          : QString());
    accessWhy_ = r.accessWhy;
    lastKey_ = inputKey();
    lastOk_ = r.ok;
    if (!r.ok) {
        clearResults();
        analysedId_ = 0;
        analysedText_.clear();
        error_ = r.error;
        // The hint about "fit the layout" only helps when the access is what does not fit.
        lastMessage_ = autoBox_->isChecked() || r.access.isEmpty() || !r.accessMisfit
                           ? error_
                           : error_ + QStringLiteral(" (tick “fit the layout” for an access "
                                                     "that fits this tile)");
        state_->fail(gen, lastMessage_);
        updateControls();
        updateSource();
        emit analyzed(false);
        return false;
    }
    lastMessage_.clear();
    analysedId_ = sourceId_;
    analysedText_ = layoutEdit_->text();
    const QString key = inputKey();
    cost_ = std::move(r.cost);
    access_ = std::move(r.plan);
    tile_ = std::move(r.tile);
    grid_->setModel(std::move(r.grid), true);
    error_.clear();
    const int n = instructionCount();
    // The same inputs analysed again (a layout re-sent after an edit elsewhere) keep the step.
    const int keep = key == analyzedKey_ ? std::clamp(step_, firstStep(), n - 1) : firstStep();
    analyzedKey_ = key;
    if (keep < 0) pause();
    slider_->blockSignals(true);
    slider_->setRange(firstStep(), n - 1);
    slider_->setValue(keep);
    slider_->blockSignals(false);
    step_ = keep;
    refreshView();
    state_->publish(gen);
    markIfOlderText();
    updateControls();
    updateSource();
    emit analyzed(true);
    return true;
}

QString BankPanel::inputKey() const {
    return layoutEdit_->text() + QChar(1) + accessEdit_->text() + QChar(1) +
           dtypeBox_->currentText() + QChar(1) + QString::number(vectorSpin_->value()) + QChar(1) +
           QString::number(storeBox_->isChecked()) + QChar(1) +
           QString::number(autoBox_->isChecked());
}

void BankPanel::clearResults() {
    pause();
    step_ = -1;
    analyzedKey_.clear();
    tile_.reset();
    access_.reset();
    cost_.reset();
    grid_->setModel(GridModel());
    grid_->renderer().clearOverlays();
    totals_->clear();
    stepLabel_->clear();
    chartView_->chart()->removeAllSeries();
    for (QAbstractAxis* a : chartView_->chart()->axes()) {
        chartView_->chart()->removeAxis(a);
        delete a;
    }
    slider_->blockSignals(true);
    slider_->setRange(-1, -1);
    slider_->blockSignals(false);
}

namespace {
// A layout text short enough for the one line that says which text the numbers are for.
QString elided(const QString& text) {
    QString t = text.simplified();
    if (t.size() > 90) t = t.left(87) + QStringLiteral("…");
    return t;
}
} // namespace

QString BankPanel::effectiveAccess() const {
    // "store" makes an ldmatrix access its stmatrix twin (core buildAccess): say so.
    const QString a = accessEdit_->text().trimmed();
    if (storeBox_->isChecked() && a.startsWith(QLatin1String("ldmatrix")))
        return QStringLiteral("stmatrix") + a.mid(8) + QStringLiteral(" (store)");
    if (storeBox_->isChecked() && !a.startsWith(QLatin1String("stmatrix")))
        return a + QStringLiteral(" (store)");
    return a;
}

void BankPanel::updateSource() {
    QString t;
    if (!tile_ && noProjectLayout_ && layoutEdit_->text().isEmpty()) {
        t = QStringLiteral("<b>No T.Layout of this project is analysed yet</b> — select one in "
                           "the layout list, or type a layout below.");
    } else {
        QString who = sourceId_ == 0
                          ? QStringLiteral("the layout typed below (not a layout of the project)")
                          : QStringLiteral("«%1»").arg(nameOf(sourceId_).toHtmlEscaped());
        // The active layout's text was edited into something this panel cannot analyse: the
        // numbers are for the text named here, not its current one.
        if (tile_ && analysedTextOutdated())
            who += sourceRemoved_ ? QStringLiteral(" (removed from the project)")
                                  : QStringLiteral(" as its text was earlier: <code>%1</code>")
                                        .arg(elided(analysedText_).toHtmlEscaped());
        t = QStringLiteral("<b>Analysing</b> %1").arg(who);
        if (tile_) {
            QStringList dims;
            for (std::int64_t e : tile_->shape())
                dims << QString::number(e);
            t += QStringLiteral(" · %1 %2")
                     .arg(dims.join(QStringLiteral(" x ")), dtypeBox_->currentText());
            t += QStringLiteral(" · %1").arg(effectiveAccess().toHtmlEscaped());
            if (autoBox_->isChecked() && !accessWhy_.isEmpty())
                t += QStringLiteral(" <span style='color:#6b7280'>(chosen to fit: %1)</span>")
                         .arg(accessWhy_.toHtmlEscaped());
        }
    }
    source_->setText(t);
    QString note;
    if (changingId_ != 0)
        note = QStringLiteral("«%1» is being evaluated…").arg(nameOf(changingId_).toHtmlEscaped());
    else if (elsewhere_)
        note = QStringLiteral("The active layout «%1» is not analysed here: %2")
                   .arg(nameOf(elsewhereId_).toHtmlEscaped(), elsewhereWhy_.toHtmlEscaped());
    note_->setText(note.isEmpty()
                       ? QString()
                       : QStringLiteral("<span style='color:#92400e'>%1</span>").arg(note));
}

void BankPanel::updateControls() {
    // One instruction: nothing to play through.
    const int n = instructionCount();
    playButton_->setEnabled(n > 1);
    playButton_->setToolTip(n > 1 ? QStringLiteral("Step through the instructions in turn")
                                  : QStringLiteral("There is only one instruction: nothing to "
                                                   "play through."));
    stepBack_->setEnabled(n > 0 && step_ > firstStep());
    stepForward_->setEnabled(n > 0 && step_ < n - 1);
    // "store" changes the access only for ldmatrix (its stmatrix twin, same matrices, same
    // wavefronts) and for lanes (stores are not merged like loads); a fragment or stmatrix
    // access says itself whether it stores.
    const QString a = accessEdit_->text().trimmed();
    const bool storeMeans = a.isEmpty() || a.startsWith(QLatin1String("ldmatrix")) ||
                            a.startsWith(QLatin1String("lanes:")) ||
                            a.startsWith(QLatin1String("fragment:"));
    storeBox_->setEnabled(storeMeans || storeBox_->isChecked());
    storeBox_->setToolTip(
        a.startsWith(QLatin1String("ldmatrix"))
            ? QStringLiteral("Store: analyse the stmatrix twin of this ldmatrix access (the same "
                             "8x8 matrices, so the same wavefronts)")
        : storeMeans
            ? QStringLiteral("Store: the lanes write instead of read (an 8- or 16-byte load whose "
                             "lane pairs share addresses is served two lanes at a time on the "
                             "H200; a store never is)")
            : QStringLiteral("Not used with this access: stmatrix is always a store"));
}

QString BankPanel::totalsText() const {
    return cost_ ? bankTotalsText(*cost_) : QString();
}

QString BankPanel::stepText() const {
    if (!access_ || !cost_) return {};
    if (step_ < 0)
        return instructionCount() == 1
                   ? QStringLiteral("the only instruction")
                   : QStringLiteral("all %1 instructions").arg(instructionCount());
    return bankStepText(*access_, *cost_, step_);
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
    step = std::clamp(step, firstStep(), std::max(firstStep(), n - 1));
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
    if (instructionCount() < 2) return; // one instruction: nothing would move
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
    applyBankHeat(grid_->renderer(), *tile_, *access_, *cost_, step_);
    grid_->update();
    totals_->setText(QStringLiteral("<b>%1</b>").arg(totalsText().toHtmlEscaped()));
    stepLabel_->setText(stepText());
    updateControls();
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

int integerTickStep(double max, int maxTicks) {
    // 1, 2, 5, 10, 20, 50, ...: the smallest whose ticks over [0, max] number at most maxTicks.
    for (int base = 1;; base *= 10)
        for (int m : {1, 2, 5})
            if (std::ceil(max / (m * base)) <= maxTicks || base > 100000000) return m * base;
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
    // Word counts are whole numbers: ticks on integers only (a range 0..1 with the default five
    // ticks read "0, 0, 0, 0, 1" under "%d").
    auto* ay = new QValueAxis;
    const int yStep = integerTickStep(mx);
    ay->setRange(0, std::ceil(mx / yStep) * yStep);
    ay->setTickType(QValueAxis::TicksDynamic);
    ay->setTickAnchor(0);
    ay->setTickInterval(yStep);
    ay->setLabelFormat(QStringLiteral("%d"));
    const QFont f = font();
    QFont small = f;
    small.setPointSizeF(f.pointSizeF() * 0.9);
    chart->setTitleFont(f);
    for (QValueAxis* a : {ax, ay}) {
        a->setLabelsFont(small);
        a->setTitleFont(small);
    }
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
