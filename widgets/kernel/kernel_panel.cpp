// SPDX-License-Identifier: Apache-2.0
// The Kernel panel (see kernel_panel.h).
#include "kernel/kernel_panel.h"

#include "common/result_state.h"
#include "common/wording.h"
#include "grid/gridrenderer.h"
#include "grid/gridview.h"
#include "kernel/kernel_heat.h"
#include "kernel/kernel_models.h"
#include "kernel/source_view.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <climits>
#include <cmath>

namespace tsw {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString dims3(const std::array<int, 3>& d) {
    return QStringLiteral("%1×%2×%3").arg(d[0]).arg(d[1]).arg(d[2]);
}

QLabel* makeLabel(const QString& objectName, QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QTableView* makeTable(const QString& objectName, QWidget* parent) {
    auto* t = new QTableView(parent);
    t->setObjectName(objectName);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSortingEnabled(true);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->verticalHeader()->hide();
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setHighlightSections(false);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

// The widest a column whose cells can be long (a not-analysed reason, a layout repr) is made
// by fitting its contents; the tooltip has all of it.
constexpr int kLongColumnWidth = 300;

const char* kErrorStyle =
    "QLabel { background: #fde7e9; color: #8a1020; border: 1px solid #f3b6bd; padding: 6px; }";

} // namespace

KernelPanel::KernelPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("kernelPanel"));
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 6);
    v->setSpacing(4);

    // Top row: what is open, and the panel's own commands.
    auto* top = new QHBoxLayout;
    header_ = makeLabel(QStringLiteral("kernelHeader"), this);
    header_->setTextFormat(Qt::RichText);
    top->addWidget(header_, 1);
    kernelBox_ = new QComboBox(this);
    kernelBox_->setObjectName(QStringLiteral("kernelBox"));
    kernelBox_->setToolTip(QStringLiteral("The __global__ kernel shown (the file has several)"));
    kernelBox_->hide();
    top->addWidget(kernelBox_);
    archLabel_ = new QLabel(QStringLiteral("Lower for"), this);
    auto* archLabel = archLabel_;
    archBox_ = new QComboBox(this);
    archBox_->setObjectName(QStringLiteral("archBox"));
    archBox_->addItems({QStringLiteral("sm_80"), QStringLiteral("sm_86"), QStringLiteral("sm_89"),
                        QStringLiteral("sm_90")});
    archBox_->setToolTip(QStringLiteral(
        "The target a TileLang .py is lowered for (changing it lowers the open .py again); a .cu "
        "was generated for its target already"));
    // Shown while a .py is open: a .cu was generated for one target already.
    archBox_->hide();
    archLabel->hide();
    archLabel->setBuddy(archBox_);
    top->addWidget(archLabel);
    top->addWidget(archBox_);
    openButton_ = new QPushButton(QStringLiteral("Open Kernel…"), this);
    openButton_->setObjectName(QStringLiteral("openKernelButton"));
    importButton_ = new QPushButton(QStringLiteral("Import measured…"), this);
    importButton_->setObjectName(QStringLiteral("importMeasuredButton"));
    importButton_->setToolTip(QStringLiteral(
        "Per-line counters measured on a GPU (measured.json from tools/h200_kernels.sh): the "
        "accesses table shows them next to the prediction"));
    importButton_->setEnabled(false);
    top->addWidget(openButton_);
    top->addWidget(importButton_);
    v->addLayout(top);

    // Progress of a load over ~100 ms, with Cancel.
    progressRow_ = new QWidget(this);
    progressRow_->setObjectName(QStringLiteral("kernelProgress"));
    auto* pr = new QHBoxLayout(progressRow_);
    pr->setContentsMargins(0, 0, 0, 0);
    progressBar_ = new QProgressBar(progressRow_);
    progressBar_->setRange(0, 0);
    progressBar_->setMaximumWidth(160);
    progressBar_->setTextVisible(false);
    progressLabel_ = new QLabel(progressRow_);
    progressLabel_->setObjectName(QStringLiteral("kernelProgressText"));
    cancel_ = new QPushButton(QStringLiteral("Cancel"), progressRow_);
    cancel_->setObjectName(QStringLiteral("kernelCancel"));
    pr->addWidget(progressBar_);
    pr->addWidget(progressLabel_, 1);
    pr->addWidget(cancel_);
    progressRow_->hide();
    v->addWidget(progressRow_);

    error_label_ = makeLabel(QStringLiteral("kernelError"), this);
    error_label_->setTextFormat(Qt::RichText);
    error_label_->setStyleSheet(QLatin1String(kErrorStyle));
    error_label_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    error_label_->hide();
    v->addWidget(error_label_);

    empty_ = makeLabel(QStringLiteral("kernelEmpty"), this);
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setStyleSheet(QStringLiteral("color: #6b7280; padding: 24px;"));
    empty_->setText(QStringLiteral(
        "No kernel open. File ▸ Open Kernel… reads a TileLang kernel: its generated CUDA (.cu; "
        "the meta.json of its lowering next to it gives the launch configuration and the "
        "inferred layouts) or its Python (.py, lowered by TileLang)."));
    v->addWidget(empty_, 1);

    // The kernel: tables | source | footprint and the selected access's heat.
    content_ = new QWidget(this);
    auto* cv = new QVBoxLayout(content_);
    cv->setContentsMargins(0, 0, 0, 0);
    split_ = new QSplitter(Qt::Horizontal, content_);
    split_->setChildrenCollapsible(false);
    cv->addWidget(split_, 1);

    auto* tables = new QSplitter(Qt::Vertical, split_);
    tables->setChildrenCollapsible(false);
    auto* bufBox = new QGroupBox(QStringLiteral("Buffers"), tables);
    bufBox->setObjectName(QStringLiteral("buffersBox"));
    auto* bv = new QVBoxLayout(bufBox);
    bv->setContentsMargins(4, 4, 4, 4);
    buffersView_ = makeTable(QStringLiteral("buffersTable"), bufBox);
    buffers_ = new BufferModel(this);
    bufferProxy_ = new QSortFilterProxyModel(this);
    bufferProxy_->setSourceModel(buffers_);
    bufferProxy_->setSortRole(kSortRole);
    buffersView_->setModel(bufferProxy_);
    buffersView_->sortByColumn(-1, Qt::AscendingOrder); // declaration order until a click
    bv->addWidget(buffersView_, 1);
    auto* bufRow = new QHBoxLayout;
    openLayout_ = new QPushButton(QStringLiteral("Open layout"), bufBox);
    openLayout_->setObjectName(QStringLiteral("openLayoutButton"));
    openLayout_->setEnabled(false);
    bufRow->addWidget(openLayout_);
    auto* bufHint = new QLabel(
        QStringLiteral("the selected buffer's inferred layout in the editor, as a new layout"),
        bufBox);
    bufHint->setStyleSheet(QStringLiteral("color: #6b7280;"));
    bufRow->addWidget(bufHint, 1);
    bv->addLayout(bufRow);

    auto* accBox =
        new QGroupBox(QStringLiteral("Shared-memory accesses (per thread block)"), tables);
    accBox->setObjectName(QStringLiteral("accessesBox"));
    auto* av = new QVBoxLayout(accBox);
    av->setContentsMargins(4, 4, 4, 4);
    accessesView_ = makeTable(QStringLiteral("accessesTable"), accBox);
    accesses_ = new AccessModel(this);
    accessProxy_ = new QSortFilterProxyModel(this);
    accessProxy_->setSourceModel(accesses_);
    accessProxy_->setSortRole(kSortRole);
    accessesView_->setModel(accessProxy_);
    accessesView_->sortByColumn(AccessModel::Line, Qt::AscendingOrder);
    for (int c :
         {AccessModel::MeasuredInstructions, AccessModel::MeasuredWavefronts, AccessModel::Match})
        accessesView_->setColumnHidden(c, true);
    av->addWidget(accessesView_, 1);
    totals_ = makeLabel(QStringLiteral("accessTotals"), accBox);
    av->addWidget(totals_);
    measured_ = makeLabel(QStringLiteral("measuredSummary"), accBox);
    measured_->hide();
    av->addWidget(measured_);
    // The kernel's summary under its tables: two short columns of facts read at a glance, and
    // the column of the source and the grid keeps the panel's whole height.
    auto* fpBox = new QGroupBox(QStringLiteral("Footprint and occupancy"), tables);
    fpBox->setObjectName(QStringLiteral("footprintBox"));
    // A splitter gives its parts their size hints' heights, not their height for a width: the
    // wrapped lines get their room from the box's minimum height, kept in step with its width.
    fpBox->installEventFilter(this);
    fpBox_ = fpBox;
    auto* fv = new QHBoxLayout(fpBox);
    fv->setContentsMargins(6, 2, 6, 4);
    footprint_ = makeLabel(QStringLiteral("footprint"), fpBox);
    occupancy_ = makeLabel(QStringLiteral("occupancy"), fpBox);
    fv->addWidget(footprint_, 1);
    fv->addSpacing(12);
    fv->addWidget(occupancy_, 1);
    tables->addWidget(bufBox);
    tables->addWidget(accBox);
    tables->addWidget(fpBox);
    tables->setStretchFactor(0, 2);
    tables->setStretchFactor(1, 3);
    tables->setStretchFactor(2, 0);

    // Right of the tables: the source above the heat grid, both about the selected access.
    rightSplit_ = new QSplitter(Qt::Vertical, split_);
    rightSplit_->setChildrenCollapsible(false);
    srcBox_ = new QGroupBox(QStringLiteral("Source"), rightSplit_);
    auto* srcBox = srcBox_;
    srcBox->setObjectName(QStringLiteral("sourceBox"));
    auto* sv = new QVBoxLayout(srcBox);
    sv->setContentsMargins(4, 4, 4, 4);
    source_ = new SourceView(srcBox);
    source_->setObjectName(QStringLiteral("kernelSource"));
    sv->addWidget(source_);

    auto* right = new QWidget(rightSplit_);
    auto* rv = new QVBoxLayout(right);
    rv->setContentsMargins(0, 0, 0, 0);

    auto* heatBox = new QGroupBox(QStringLiteral("Selected access on its buffer"), right);
    heatBox->setObjectName(QStringLiteral("heatBox"));
    auto* hv = new QVBoxLayout(heatBox);
    hv->setContentsMargins(6, 4, 6, 4);
    auto* spins = new QHBoxLayout;
    warpSpin_ = new QSpinBox(heatBox);
    warpSpin_->setObjectName(QStringLiteral("warpSpin"));
    warpSpin_->setRange(0, 0);
    warpSpin_->setEnabled(false);
    warpSpin_->setToolTip(QStringLiteral("The warp of the thread block whose instruction is "
                                         "shown"));
    iterSpin_ = new QSpinBox(heatBox);
    iterSpin_->setObjectName(QStringLiteral("iterationSpin"));
    iterSpin_->setRange(0, 0);
    iterSpin_->setEnabled(false);
    iterLabel_ = new QLabel(heatBox);
    iterLabel_->setObjectName(QStringLiteral("iterationLoops"));
    iterLabel_->setStyleSheet(QStringLiteral("color: #6b7280;"));
    auto* warpLabel = new QLabel(QStringLiteral("Warp"), heatBox);
    warpLabel->setBuddy(warpSpin_);
    auto* iterText = new QLabel(QStringLiteral("Iteration"), heatBox);
    iterText->setBuddy(iterSpin_);
    spins->addWidget(warpLabel);
    spins->addWidget(warpSpin_);
    spins->addSpacing(12);
    spins->addWidget(iterText);
    spins->addWidget(iterSpin_);
    spins->addWidget(iterLabel_, 1);
    hv->addLayout(spins);
    caption_ = makeLabel(QStringLiteral("heatCaption"), heatBox);
    hv->addWidget(caption_);
    auto* marker = new QLabel(heatBox);
    marker->setObjectName(QStringLiteral("heatMarker"));
    marker->hide();
    hv->addWidget(marker);
    grid_ = new GridView(heatBox);
    grid_->setObjectName(QStringLiteral("kernelHeatGrid"));
    grid_->setMinimumSize(220, 180);
    // The caption above says which tile this is; the model's own title would call the bank
    // labels an output shape.
    grid_->setTitleVisible(false);
    grid_->setCellToolTip([this](int r, int c) { return cellToolTip(r, c); });
    hv->addWidget(grid_, 1);
    rv->addWidget(heatBox, 1);

    rightSplit_->addWidget(srcBox);
    rightSplit_->addWidget(right);
    rightSplit_->setStretchFactor(0, 2);
    rightSplit_->setStretchFactor(1, 3);
    split_->addWidget(tables);
    split_->addWidget(rightSplit_);
    split_->setStretchFactor(0, 11);
    split_->setStretchFactor(1, 9);
    content_->hide();
    v->addWidget(content_, 1);

    // With nothing else shown (an error), the space below stays empty rather than stretching
    // the message; the content's stretch takes precedence over this one's when it is shown.
    v->addStretch(0);

    notes_ = makeLabel(QStringLiteral("kernelNotes"), this);
    notes_->setStyleSheet(QStringLiteral("color: #4b5563;"));
    v->addWidget(notes_);

    heatState_ = new ResultState(this);
    heatState_->setOnError(ResultState::OnError::KeepDimmed);
    heatState_->addView(grid_, [this](bool on) { grid_->setDimmed(on); });
    heatState_->setMarker(marker);

    progressDelay_ = new QTimer(this);
    progressDelay_->setSingleShot(true);
    progressDelay_->setInterval(100);
    connect(progressDelay_, &QTimer::timeout, this, [this] {
        if (loadJob_.busy()) progressRow_->show();
    });
    progressTick_ = new QTimer(this);
    progressTick_->setInterval(500);
    connect(progressTick_, &QTimer::timeout, this, [this] {
        const qint64 s = (QDateTime::currentMSecsSinceEpoch() - progressStarted_) / 1000;
        progressLabel_->setText(s >= 1 ? QStringLiteral("%1 %2 s").arg(progressText_).arg(s)
                                       : progressText_);
    });

    connect(openButton_, &QPushButton::clicked, this, &KernelPanel::openKernelDialog);
    connect(importButton_, &QPushButton::clicked, this, &KernelPanel::importMeasuredDialog);
    connect(cancel_, &QPushButton::clicked, this, &KernelPanel::cancel);
    connect(openLayout_, &QPushButton::clicked, this, &KernelPanel::openSelectedLayout);
    connect(buffersView_, &QTableView::doubleClicked, this, [this](const QModelIndex& ix) {
        openBufferLayout(bufferProxy_->data(ix, kIndexRole).toInt());
    });
    connect(buffersView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        const QModelIndex ix = buffersView_->currentIndex();
        const auto* k = kernel();
        QString why;
        bool can = false;
        if (k && ix.isValid()) {
            const int b = bufferProxy_->data(ix, kIndexRole).toInt();
            can = !BufferModel::layoutText(k->buffers[std::size_t(b)], &why).isEmpty();
        }
        openLayout_->setEnabled(can);
        openLayout_->setToolTip(can ? QStringLiteral("Open the inferred layout in the "
                                                     "editor as a new layout")
                                    : why);
    });
    connect(accessesView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &KernelPanel::onAccessSelected);
    connect(kernelBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (load_ && i >= 0 && i != kernel_) showKernel(i);
    });
    connect(archBox_, &QComboBox::currentTextChanged, this, [this](const QString& a) {
        if (!path_.isEmpty() && path_.endsWith(QStringLiteral(".py"), Qt::CaseInsensitive))
            startLoad(path_, a);
    });
    connect(warpSpin_, &QSpinBox::valueChanged, this, [this] { requestHeat(); });
    connect(iterSpin_, &QSpinBox::valueChanged, this, [this] { requestHeat(); });
    updateHeader();
}

KernelPanel::~KernelPanel() {
    // A lowering still running would keep the thread pool (and so the application's exit)
    // waiting for the child until its timeout.
    if (stopper_) stopper_->stop();
}

bool KernelPanel::eventFilter(QObject* o, QEvent* e) {
    if (o == fpBox_ && e->type() == QEvent::Resize && fpBox_->layout()) {
        const int h = fpBox_->layout()->totalHeightForWidth(fpBox_->width());
        if (h > 0 && h != fpBox_->minimumHeight()) fpBox_->setMinimumHeight(h);
    }
    return QWidget::eventFilter(o, e);
}

void KernelPanel::applyInitialSizes() {
    // The columns start in proportion to what they hold: the accesses table needs about eleven
    // columns, the source and the grid share the rest (size hints alone gave the source a
    // sliver). Once, when the first kernel is on screen at the panel's real size; the user's
    // own arrangement is kept after that.
    const int w = split_->width(), h = rightSplit_->height();
    if (sized_ || w < 600 || h < 200) return;
    sized_ = true;
    split_->setSizes({w * 60 / 100, w * 40 / 100});
    rightSplit_->setSizes({h * 34 / 100, h * 66 / 100});
}

// ---------------------------------------------------------------- state

const ts::kernel::KernelXray* KernelPanel::kernel() const {
    return load_ && kernel_ >= 0 && std::size_t(kernel_) < load_->kernels.size()
               ? &load_->kernels[std::size_t(kernel_)]
               : nullptr;
}

QString KernelPanel::errorText() const {
    return error_;
}

QString KernelPanel::statusText() const {
    return notes_->text();
}

bool KernelPanel::busy() const {
    return loadJob_.busy() || measuredJob_.busy() || heatJob_.busy();
}

QString KernelPanel::arch() const {
    return archBox_->currentText();
}

void KernelPanel::setArch(const QString& arch) {
    if (archBox_->findText(arch) < 0) archBox_->addItem(arch);
    archBox_->setCurrentText(arch);
}

// ---------------------------------------------------------------- opening

void KernelPanel::openKernelDialog() {
    const QString start = !lastDir_.isEmpty() ? lastDir_
                          : !path_.isEmpty()  ? QFileInfo(path_).absolutePath()
                                              : QDir::currentPath();
    const QString p = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open kernel"), start,
        QStringLiteral("TileLang kernels (*.cu *.py);;Generated CUDA (*.cu);;TileLang Python "
                       "(*.py);;All files (*)"));
    if (!p.isEmpty()) openKernel(p);
}

void KernelPanel::openKernel(const QString& path) {
    lastDir_ = QFileInfo(path).absolutePath();
    startLoad(path, QString());
}

void KernelPanel::startLoad(const QString& path, const QString& arch) {
    // The previous request's lowering, if one runs, is of no use now: stop its child so the
    // next job does not wait for it.
    if (stopper_) stopper_->stop();
    stopper_ = std::make_shared<LoweringStopper>();
    const quint64 gen = ++loadGen_;
    ++measuredGen_;
    measuredJob_.cancel();
    path_ = path;
    load_.reset();
    measuredLoad_.reset();
    error_.clear();
    error_label_->hide();
    clearKernelViews();
    notes_->clear();
    empty_->hide();
    updateHeader();

    KernelRequest req;
    req.path = path;
    req.arch = arch;
    req.python = python_;
    const bool isPy = path.endsWith(QStringLiteral(".py"), Qt::CaseInsensitive);
    const QString name = QFileInfo(path).fileName();
    progressText_ =
        isPy ? QStringLiteral("Lowering %1 with TileLang%2…")
                   .arg(name, arch.isEmpty() ? QString() : QStringLiteral(" for ") + arch)
             : QStringLiteral("Reading and analysing %1…").arg(name);
    showProgress(progressText_);
    auto stopper = stopper_;
    loadJob_.submit(
        gen,
        [req, stopper](const CancelToken& token) {
            return std::shared_ptr<const KernelLoad>(
                std::make_shared<KernelLoad>(loadKernel(req, token, stopper.get())));
        },
        [this](quint64 g, std::shared_ptr<const KernelLoad> r) { onLoaded(g, std::move(r)); });
}

void KernelPanel::cancel() {
    if (!loadJob_.busy()) return;
    if (stopper_) stopper_->stop();
    loadJob_.cancel();
    ++loadGen_;
    hideProgress();
    const QString name = QFileInfo(path_).fileName();
    path_.clear();
    clearKernelViews();
    empty_->show();
    updateHeader();
    notes_->setText(QStringLiteral("Opening %1 was cancelled; nothing is open.").arg(name));
}

void KernelPanel::clear() {
    if (stopper_) stopper_->stop();
    loadJob_.cancel();
    measuredJob_.cancel();
    ++loadGen_;
    ++measuredGen_;
    hideProgress();
    path_.clear();
    load_.reset();
    measuredLoad_.reset();
    error_.clear();
    error_label_->hide();
    clearKernelViews();
    notes_->clear();
    empty_->show();
    archBox_->hide();
    archLabel_->hide();
    updateHeader();
}

void KernelPanel::clearKernelViews() {
    heatJob_.cancel();
    kernel_ = -1;
    site_ = -1;
    tile_.reset();
    heat_.reset();
    {
        const QSignalBlocker b(kernelBox_);
        kernelBox_->clear();
    }
    kernelBox_->hide();
    buffers_->setKernel(nullptr, -1);
    accesses_->setKernel(nullptr, -1);
    for (int c :
         {AccessModel::MeasuredInstructions, AccessModel::MeasuredWavefronts, AccessModel::Match})
        accessesView_->setColumnHidden(c, true);
    measured_->clear();
    measured_->hide();
    source_->setSource(QString());
    footprint_->clear();
    occupancy_->clear();
    totals_->clear();
    openLayout_->setEnabled(false);
    importButton_->setEnabled(false);
    clearHeat(QString());
    content_->hide();
}

void KernelPanel::onLoaded(quint64 gen, std::shared_ptr<const KernelLoad> r) {
    if (gen != loadGen_ || !r) return;
    hideProgress();
    if (!r->ok) {
        if (r->error.isEmpty()) return; // cancelled on its way
        showError(r->error, r->errorContext);
        notes_->setText(r->notes.join(QStringLiteral("\n")));
        emit kernelLoaded(false);
        return;
    }
    load_ = std::move(r);
    if (load_->lowered && !load_->python.isEmpty()) python_ = load_->python;
    {
        const QSignalBlocker b(kernelBox_);
        kernelBox_->clear();
        for (const auto& k : load_->kernels)
            kernelBox_->addItem(q(k.name));
    }
    kernelBox_->setVisible(load_->kernels.size() > 1);
    {
        const QSignalBlocker b(archBox_);
        if (!load_->arch.isEmpty()) {
            if (archBox_->findText(load_->arch) < 0) archBox_->addItem(load_->arch);
            archBox_->setCurrentText(load_->arch);
        }
    }
    archBox_->setVisible(load_->lowered);
    archLabel_->setVisible(load_->lowered);
    source_->setSource(q(load_->source));
    srcBox_->setTitle(load_->lowered ? QStringLiteral("Source: the CUDA TileLang generated from %1")
                                           .arg(QFileInfo(load_->path).fileName())
                                     : QStringLiteral("Source"));
    content_->show();
    empty_->hide();
    importButton_->setEnabled(true);
    QTimer::singleShot(0, this, &KernelPanel::applyInitialSizes);
    showKernel(0);
    updateStatus();
    emit kernelLoaded(true);
}

void KernelPanel::showError(const QString& message, const QString& context) {
    error_ = message;
    error_label_->setText(
        QStringLiteral("⚠ Cannot open this kernel: %1%2Nothing else changed; open another kernel, "
                       "or fix the file and open it again.")
            .arg(message.toHtmlEscaped(),
                 context.isEmpty() ? QStringLiteral("<br>")
                                   : QStringLiteral("<pre style='margin: 6px 0'>%1</pre>")
                                         .arg(context.toHtmlEscaped())));
    error_label_->show();
    content_->hide();
    empty_->hide();
    updateHeader();
}

void KernelPanel::showProgress(const QString& text) {
    progressText_ = text;
    progressLabel_->setText(text);
    progressStarted_ = QDateTime::currentMSecsSinceEpoch();
    progressDelay_->start();
    progressTick_->start();
}

void KernelPanel::hideProgress() {
    progressDelay_->stop();
    progressTick_->stop();
    progressRow_->hide();
}

// ---------------------------------------------------------------- one kernel

void KernelPanel::showKernel(int index) {
    heatJob_.cancel();
    kernel_ = index;
    site_ = -1;
    tile_.reset();
    heat_.reset();
    clearHeat(QString());
    if (kernelBox_->currentIndex() != index) {
        const QSignalBlocker b(kernelBox_);
        kernelBox_->setCurrentIndex(index);
    }
    buffers_->setKernel(load_, index);
    accesses_->setKernel(load_, index);
    updateMeasuredColumns();
    buffersView_->resizeColumnsToContents();
    accessesView_->resizeColumnsToContents();
    for (auto [view, col] : {std::pair{buffersView_, int(BufferModel::Layout)},
                             std::pair{accessesView_, int(AccessModel::Status)}})
        if (view->columnWidth(col) > kLongColumnWidth) view->setColumnWidth(col, kLongColumnWidth);
    updateSummary();
    updateHeader();
    // The first access with numbers is shown at once: a panel that opens on an empty heat
    // view reads as "nothing to see".
    const auto* k = kernel();
    int first = -1;
    for (std::size_t i = 0; k && i < k->sites.size() && first < 0; ++i)
        if (k->sites[i].not_analysed.empty()) first = int(i);
    if (first < 0 && k && !k->sites.empty()) first = 0;
    if (first >= 0) selectSite(first);
}

void KernelPanel::updateHeader() {
    const auto* k = kernel();
    if (!k) {
        if (path_.isEmpty())
            header_->setText(QStringLiteral("<b>Kernel X-ray</b>"));
        else if (!error_.isEmpty())
            header_->setText(QStringLiteral("<b>%1</b>: not opened")
                                 .arg(QFileInfo(path_).fileName().toHtmlEscaped()));
        else
            header_->setText(QStringLiteral("<b>%1</b>: opening…")
                                 .arg(QFileInfo(path_).fileName().toHtmlEscaped()));
        header_->setToolTip(QDir::toNativeSeparators(path_));
        return;
    }
    QString grid;
    for (const auto& l : load_->launches)
        if (l.name == k->name) grid = QStringLiteral(" · grid ") + dims3(l.grid);
    const QString file = QFileInfo(path_).fileName().toHtmlEscaped();
    // The lines are the generated CUDA's, also for a .py (its lowering is what is shown).
    const QString where = load_->lowered ? QStringLiteral("the CUDA generated from ") + file : file;
    // "given" is the core's word for a block it was handed: say by whom.
    QString blockFrom = q(k->block_source).toHtmlEscaped();
    if (k->block_source == "given")
        blockFrom = load_->lowered ? QStringLiteral("from the lowering")
                                   : QStringLiteral("from %1").arg(
                                         QFileInfo(load_->metaPath).fileName().toHtmlEscaped());
    header_->setText(QStringLiteral("<b>%1</b> (line %2 of %3) · block %4 (%5) · %6%7")
                         .arg(q(k->name).toHtmlEscaped())
                         .arg(k->line)
                         .arg(where, dims3(k->block), blockFrom,
                              countNoun(k->warps, QStringLiteral("warp")), grid));
    header_->setToolTip(QDir::toNativeSeparators(path_));
}

void KernelPanel::updateSummary() {
    const auto* k = kernel();
    if (!k) {
        footprint_->clear();
        occupancy_->clear();
        totals_->clear();
        return;
    }
    const std::int64_t total = k->static_smem + std::max<std::int64_t>(0, k->dynamic_smem);
    footprint_->setText(
        QStringLiteral("Shared memory: %1 B static + %2 B dynamic (%3) = <b>%4 B</b> per block"
                       "<br>Registers: <b>at least %5</b> per thread (the fragments alone; the "
                       "compiler adds more)")
            .arg(k->static_smem)
            .arg(k->dynamic_smem)
            .arg(q(k->dynamic_smem_source).toHtmlEscaped())
            .arg(total)
            .arg(k->registers_lower_bound));
    QStringList occ;
    for (const auto& o : k->occupancy)
        occ << QStringLiteral("%1: <b>%2</b> per SM, %3% occupancy, limited by %4 "
                              "<span style='color:#6b7280'>(threads %5, registers %6, shared "
                              "%7)</span>")
                   .arg(q(o.arch), countNoun(o.blocks_per_sm, QStringLiteral("block")))
                   .arg(std::lround(o.occupancy * 100))
                   .arg(q(o.limiter).toHtmlEscaped())
                   .arg(o.by_threads)
                   .arg(o.by_registers)
                   .arg(o.by_shared);
    occupancy_->setText(occ.join(QStringLiteral("<br>")));
    QEvent resize(QEvent::Resize);
    eventFilter(fpBox_, &resize); // the new text may need another height
    totals_->setText(
        QStringLiteral("Total: %1, %2 (ideal %3, excess %4)%5")
            .arg(countNoun(k->instructions, QStringLiteral("instruction")),
                 countNoun(k->wavefronts, QStringLiteral("wavefront")))
            .arg(k->ideal)
            .arg(k->excess)
            .arg(k->sites_not_analysed > 0
                     ? QStringLiteral("; %1 without numbers")
                           .arg(countNoun(k->sites_not_analysed, QStringLiteral("access"),
                                          QStringLiteral("accesses")))
                     : QString()));
}

void KernelPanel::updateStatus() {
    QStringList lines;
    if (load_) lines << load_->notes;
    if (const auto* k = kernel())
        for (const auto& n : k->notes)
            lines << q(n);
    notes_->setText(lines.join(QStringLiteral("\n")));
}

// ---------------------------------------------------------------- accesses and heat

void KernelPanel::selectSite(int site) {
    for (int r = 0; r < accessProxy_->rowCount(); ++r)
        if (accessProxy_->data(accessProxy_->index(r, 0), kIndexRole).toInt() == site) {
            accessesView_->setCurrentIndex(accessProxy_->index(r, 0));
            accessesView_->scrollTo(accessProxy_->index(r, 0));
            return;
        }
}

void KernelPanel::onAccessSelected() {
    const QModelIndex ix = accessesView_->currentIndex();
    const auto* k = kernel();
    if (!k || !ix.isValid()) {
        site_ = -1;
        clearHeat(QString());
        return;
    }
    const int site = accessProxy_->data(ix, kIndexRole).toInt();
    if (site == site_) return;
    site_ = site;
    const ts::kernel::Site& s = k->sites[std::size_t(site)];
    source_->markLine(s.line);
    const bool analysed = s.not_analysed.empty();
    const QSignalBlocker b1(warpSpin_), b2(iterSpin_);
    warpSpin_->setRange(0, std::max(0, k->warps - 1));
    warpSpin_->setEnabled(analysed && k->warps > 1);
    const std::int64_t its = analysed ? ts::kernel::siteIterations(*k, site) : 0;
    // Iterations run over the loops whose variables the address uses (outermost first).
    iterSpin_->setRange(0, int(std::clamp<std::int64_t>(its - 1, 0, INT_MAX)));
    iterSpin_->setValue(0);
    iterSpin_->setEnabled(analysed && its > 1);
    // The warp shown is kept from access to access, unless it does not issue this one (a
    // producer or consumer warpgroup's code): then the first instance that is issued.
    if (analysed) {
        const ts::kernel::SiteCost& c = k->costs[std::size_t(site)];
        const std::size_t warps = std::size_t(std::max(1, c.warps));
        auto issued = [&](std::size_t at) {
            return at < c.per_instance.size() && c.per_instance[at] >= 0;
        };
        if (!issued(std::size_t(warpSpin_->value())))
            for (std::size_t at = 0; at < c.per_instance.size(); ++at)
                if (issued(at)) {
                    warpSpin_->setValue(int(at % warps));
                    iterSpin_->setValue(int(at / warps));
                    break;
                }
    }
    QStringList loops;
    if (analysed)
        for (int l : k->costs[std::size_t(site)].used_loops)
            loops << q(s.loops[std::size_t(l)].name);
    iterLabel_->setText(!analysed ? QString()
                        : loops.isEmpty()
                            ? QStringLiteral("(the address uses no loop)")
                            : QStringLiteral("of %1 over %2").arg(its).arg(loops.join(" × ")));
    requestHeat();
}

void KernelPanel::setWarp(int warp) {
    warpSpin_->setValue(warp);
}

void KernelPanel::setIteration(qint64 iteration) {
    iterSpin_->setValue(int(iteration));
}

void KernelPanel::requestHeat() {
    const auto* k = kernel();
    if (!k || site_ < 0) return;
    const ts::kernel::Site& s = k->sites[std::size_t(site_)];
    if (!s.not_analysed.empty()) {
        heatJob_.cancel();
        heat_.reset();
        clearHeat(QStringLiteral("line %1: %2")
                      .arg(s.line)
                      .arg(AccessModel::statusText(s, k->costs[std::size_t(site_)])));
        emit heatShown();
        return;
    }
    const quint64 gen = heatState_->invalidate();
    HeatRequest req;
    req.load = load_;
    req.kernel = kernel_;
    req.site = site_;
    req.warp = warpSpin_->value();
    req.iteration = iterSpin_->value();
    req.tile = tile_;
    heatJob_.submit(
        gen, [req](const CancelToken& t) { return computeHeat(req, t); },
        [this](quint64 g, HeatResult r) { onHeat(g, std::move(r)); });
}

void KernelPanel::onHeat(quint64 gen, HeatResult r) {
    if (!heatState_->isCurrent(gen) || r.cancelled) return;
    if (!r.ok) {
        heat_.reset();
        clearHeat(r.error);
        heatState_->publish(gen);
        emit heatShown();
        return;
    }
    const bool sameTile = tile_ && r.tile == tile_ && !grid_->model().isEmpty();
    tile_ = r.tile;
    if (!sameTile) grid_->setModel(tile_->grid);
    grid_->setMessage(QString());
    const int cols = grid_->model().cols();
    grid_->renderer().setCellColorOverlay(
        std::make_shared<InstanceHeatOverlay>(cols, r.values, r.lo, r.hi));
    grid_->renderer().clearOverlays();
    grid_->renderer().addOverlay(std::make_shared<LaneTagOverlay>(r.tags, r.values, cols));
    grid_->update();
    caption_->setText(r.caption);
    caption_->setToolTip(r.caption);
    // A new tile or another access is framed afresh; stepping warps and iterations of one
    // access keeps the user's zoom.
    const bool reframe = !sameTile || heat_site_ != r.site;
    heat_site_ = r.site;
    heat_ = std::move(r);
    focusInstance(reframe);
    heatState_->publish(gen);
    emit heatShown();
}

void KernelPanel::focusInstance(bool reframe) {
    if (!heat_ || grid_->model().isEmpty()) return;
    const int cols = std::max(1, grid_->model().cols());
    int r0 = INT_MAX, r1 = -1;
    for (std::size_t i = 0; i < heat_->values.size(); ++i)
        if (!std::isnan(heat_->values[i])) {
            r0 = std::min(r0, int(i) / cols);
            r1 = std::max(r1, int(i) / cols);
        }
    if (r1 < 0) return;
    const GridRenderer& gr = grid_->renderer();
    const QRectF top = gr.cellRect(r0, 0), bottom = gr.cellRect(r1, 0);
    double scale = grid_->scale();
    if (reframe) {
        // A staged buffer fitted whole is hundreds of rows of one-pixel cells, the instance a
        // strip among them: its rows (and one more either side) fitted instead, the columns
        // across the view at most, cells up to ~28 px, never smaller than the whole tile fitted.
        const double sceneW = std::max(1.0, gr.sceneSize().width());
        const double cell = std::max(1.0, top.width());
        const QRectF vp = grid_->cellArea();
        const double rows = r1 - r0 + 3;
        scale = std::max(
            grid_->fitScale(),
            std::min({(vp.width() - 2) / sceneW, (vp.height() - 2) / (rows * cell), 28.0 / cell}));
    } else {
        const QRectF vp = grid_->cellArea();
        const double y0 = grid_->sceneToWidget(top.topLeft()).y();
        const double y1 = grid_->sceneToWidget(bottom.bottomLeft()).y();
        if (y0 >= vp.top() && y1 <= vp.bottom()) return; // in view: the view stays
    }
    grid_->setViewTransform(scale, QPointF(grid_->pan().x(), 0));
    const QRectF vp = grid_->cellArea();
    const double y = std::max(0.0, top.top() - top.height()); // a row of context above
    const double x = reframe ? vp.left() - gr.cellRect(0, 0).left() * scale : grid_->pan().x();
    grid_->setViewTransform(scale, QPointF(x, vp.top() - y * scale));
}

void KernelPanel::clearHeat(const QString& message) {
    heatState_->clear();
    grid_->renderer().setCellColorOverlay(nullptr);
    grid_->renderer().clearOverlays();
    grid_->setModel(GridModel());
    tile_.reset();
    grid_->setMessage(message);
    caption_->setText(message);
    caption_->setToolTip(message);
    if (message.isEmpty()) {
        iterLabel_->clear();
        const QSignalBlocker b1(warpSpin_), b2(iterSpin_);
        warpSpin_->setRange(0, 0);
        iterSpin_->setRange(0, 0);
        warpSpin_->setEnabled(false);
        iterSpin_->setEnabled(false);
    }
    grid_->update();
}

QString KernelPanel::cellToolTip(int row, int col) const {
    if (!tile_ || !heat_) return {};
    const std::int64_t cell = std::int64_t(row) * grid_->model().cols() + col;
    if (cell < 0 || cell >= tile_->shared->cells()) return {};
    QStringList coord;
    for (std::int64_t c : tile_->shared->coordOf(cell))
        coord << QString::number(c);
    const std::int64_t addr = tile_->base + tile_->shared->addressOfCell(cell);
    QString t = QStringLiteral("(%1) of %2: shared byte %3, bank %4")
                    .arg(coord.join(QStringLiteral(", ")))
                    .arg(q(kernel()->buffers[std::size_t(tile_->buffer)].name))
                    .arg(addr)
                    .arg(addr / 4 % 32);
    const double v =
        std::size_t(cell) < heat_->values.size() ? heat_->values[std::size_t(cell)] : std::nan("");
    if (!std::isnan(v))
        t += QStringLiteral("\ntouched by this instruction (%1)")
                 .arg(countNoun(qint64(v), QStringLiteral("wavefront")));
    return t;
}

// ---------------------------------------------------------------- layouts

bool KernelPanel::openBufferLayout(int buffer) {
    const auto* k = kernel();
    if (!k || buffer < 0 || std::size_t(buffer) >= k->buffers.size()) return false;
    for (int r = 0; r < bufferProxy_->rowCount(); ++r)
        if (bufferProxy_->data(bufferProxy_->index(r, 0), kIndexRole).toInt() == buffer)
            buffersView_->setCurrentIndex(bufferProxy_->index(r, 0));
    const ts::kernel::Buffer& b = k->buffers[std::size_t(buffer)];
    QString why;
    const QString text = BufferModel::layoutText(b, &why);
    if (text.isEmpty()) {
        notes_->setText(why);
        return false;
    }
    emit openLayoutRequested(q(b.name), text);
    return true;
}

void KernelPanel::openSelectedLayout() {
    const QModelIndex ix = buffersView_->currentIndex();
    if (ix.isValid()) openBufferLayout(bufferProxy_->data(ix, kIndexRole).toInt());
}

// ---------------------------------------------------------------- measured

void KernelPanel::importMeasuredDialog() {
    if (!load_) return;
    const QString start = QFileInfo(path_).absolutePath();
    const QString p =
        QFileDialog::getOpenFileName(this, QStringLiteral("Import measured counters"), start,
                                     QStringLiteral("Measured counters (*.json);;All files (*)"));
    if (!p.isEmpty()) importMeasured(p);
}

void KernelPanel::importMeasured(const QString& path) {
    if (!load_) {
        measured_->setText(QStringLiteral("Open a kernel before importing its measurement."));
        measured_->show();
        emit measuredImported(false);
        return;
    }
    const quint64 gen = ++measuredGen_;
    auto load = load_;
    measuredJob_.submit(
        gen,
        [path, load](const CancelToken&) {
            return std::shared_ptr<const MeasuredLoad>(
                std::make_shared<MeasuredLoad>(loadMeasured(path, *load)));
        },
        [this, load](quint64 g, std::shared_ptr<const MeasuredLoad> r) {
            // A measurement of a kernel that is no longer open is not shown.
            if (g != measuredGen_ || load != load_ || !r) return;
            if (!r->ok) {
                // The previous measurement, if any, stays: a bad file loses nothing.
                measured_->setText(
                    QStringLiteral("<span style='color:#8a1020'>⚠ %1</span>%2")
                        .arg(
                            r->error.toHtmlEscaped(),
                            measuredLoad_
                                ? QStringLiteral("<br>Still shown: %1")
                                      .arg(
                                          QFileInfo(measuredLoad_->path).fileName().toHtmlEscaped())
                                : QString()));
                measured_->show();
                emit measuredImported(false);
                return;
            }
            measuredLoad_ = *r;
            const int keep = site_;
            updateMeasuredColumns();
            site_ = -1; // the table was reset: select the same access again
            if (keep >= 0) selectSite(keep);
            emit measuredImported(true);
        });
}

void KernelPanel::updateMeasuredColumns() {
    const bool have = measuredLoad_ && kernel_ >= 0 &&
                      std::size_t(kernel_) < measuredLoad_->comparisons.size() &&
                      measuredLoad_->comparisons[std::size_t(kernel_)];
    if (!have) {
        accesses_->setComparison(std::nullopt);
        for (int c : {AccessModel::MeasuredInstructions, AccessModel::MeasuredWavefronts,
                      AccessModel::Match})
            accessesView_->setColumnHidden(c, true);
        measured_->hide();
        if (measuredLoad_ && kernel()) {
            // Imported for another kernel of the file: say so here rather than show nothing.
            QStringList names;
            for (const auto& m : measuredLoad_->measured.kernels)
                names << q(m.name).toHtmlEscaped();
            measured_->setText(QStringLiteral("%1 has no counts for %2 (it measured %3).")
                                   .arg(QFileInfo(measuredLoad_->path).fileName().toHtmlEscaped(),
                                        q(kernel()->name).toHtmlEscaped(),
                                        names.join(QStringLiteral(", "))));
            measured_->show();
        }
        return;
    }
    const ts::kernel::Comparison& c = *measuredLoad_->comparisons[std::size_t(kernel_)];
    accesses_->setComparison(c);
    for (int col :
         {AccessModel::MeasuredInstructions, AccessModel::MeasuredWavefronts, AccessModel::Match}) {
        accessesView_->setColumnHidden(col, false);
        accessesView_->resizeColumnToContents(col);
    }
    const auto& m = measuredLoad_->measured;
    QStringList extra;
    for (const auto& l : c.lines)
        if (l.status == "measured only") extra << QString::number(l.line);
    measured_->setText(
        QStringLiteral("<b>Measured</b> (%1%2, %3): %4 (%5); counts divided by them to compare per "
                       "block. <b>%6 match</b> (%7 as a line group), %8 differ, %9 not analysed, "
                       "%10 measured only%11, %12 not measured.")
            .arg(QFileInfo(measuredLoad_->path).fileName().toHtmlEscaped(),
                 m.gpu.empty() ? QString() : QStringLiteral(" on ") + q(m.gpu).toHtmlEscaped(),
                 q(m.tool).toHtmlEscaped(), countNoun(c.blocks, QStringLiteral("block")),
                 q(c.blocks_source).toHtmlEscaped())
            .arg(countNoun(c.matched, QStringLiteral("line")))
            .arg(c.matched_in_group)
            .arg(c.differing)
            .arg(c.not_analysed)
            .arg(c.measured_only)
            .arg(extra.isEmpty() ? QString() : QStringLiteral(" (lines %1)").arg(extra.join(", ")))
            .arg(c.not_measured));
    measured_->show();
}

} // namespace tsw
