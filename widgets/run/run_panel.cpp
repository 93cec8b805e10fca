// SPDX-License-Identifier: Apache-2.0
#include "run/run_panel.h"
#include "run/measurement_import.h"
#include "run/probe_request_export.h"

#include "common/feature_bus.h"
#include "common/feature_host.h"
#include "common/result_state.h"
#include "document/documentmodel.h"
#include "editor/evaluator.h"

#include "tilescope/banks/access.h"
#include "tilescope/device/ascend_kernel.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <QAction>
#include <QActionGroup>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMainWindow>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>
#include <QValueAxis>

#include <optional>

namespace tsw {

RunPanel::RunPanel(RunController* controller, RunHistoryModel* history, QWidget* parent)
    : QWidget(parent), ctl_(controller), history_(history) {
    setObjectName(QStringLiteral("runPanel"));
    target_ = new QComboBox;
    target_->setObjectName(QStringLiteral("runTarget"));
    for (RunTarget t :
         {RunTarget::LocalGpu, RunTarget::Ssh, RunTarget::TileLang, RunTarget::Ascend})
        target_->addItem(runTargetName(t), int(t));
    backend_ = new QComboBox;
    backend_->setObjectName(QStringLiteral("runAscendBackend"));
    backend_->addItem(QStringLiteral("tilelang-ascend (released)"), QStringLiteral("ascendc_pto"));
    backend_->addItem(QStringLiteral("tilelang-ascend npuir branch"), QStringLiteral("npuir"));
    backend_->setToolTip(QStringLiteral(
        "Which tilelang-ascend the kernel is generated for: the released branch (ascendc_pto, as "
        "on PyPI) or the npuir branch (HIVM IR through bishengir-compile)"));
    chip_ = new QComboBox;
    chip_->setObjectName(QStringLiteral("runAscendChip"));
    chip_->addItem(QStringLiteral("Atlas A2/A3"), QStringLiteral("a2a3"));
    chip_->addItem(QStringLiteral("Ascend 950"), QStringLiteral("950"));
    chip_->setToolTip(QStringLiteral(
        "The chip the tile's on-chip buffers are checked against (tilelang-ascend picks its "
        "platform from the device at run time)"));
    footprint_ = new QLabel;
    footprint_->setObjectName(QStringLiteral("runAscendFootprint"));
    // A table in a fixed font, one line per buffer: not wrapped (so its height is exact), and
    // never widening the dock (a narrow panel clips the long lines' ends; the tooltip has all).
    footprint_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    footprint_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    footprint_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    dtype_ = new QComboBox;
    dtype_->addItems({QStringLiteral("float16"), QStringLiteral("bfloat16"),
                      QStringLiteral("float32"), QStringLiteral("int8"),
                      QStringLiteral("float64")});
    access_ = new QLineEdit(QStringLiteral("ldmatrix:x4"));
    access_->setObjectName(QStringLiteral("runAccess"));
    access_->setToolTip(QStringLiteral("fragment:<T.Fragment text> | lanes:lambda t: (r, c) | "
                                       "ldmatrix:x1|x2|x4[.trans][@row,col] | stmatrix:..."));
    fit_ = new QCheckBox(QStringLiteral("fit the layout"));
    fit_->setObjectName(QStringLiteral("runFitAccess"));
    fit_->setChecked(true);
    fit_->setToolTip(QStringLiteral("Choose the access (and the dtype the layout names) to fit the "
                                    "shared layout at each run; typing an access turns it off."));
    // Never squeezed to a few characters, whatever shares the dock area.
    access_->setMinimumWidth(
        access_->fontMetrics().horizontalAdvance(QStringLiteral("ldmatrix:x4.trans@00")) + 16);
    access_->setPlaceholderText(QStringLiteral("access pattern"));
    vector_ = new QSpinBox;
    vector_->setRange(0, 16);
    vector_->setSpecialValueText(QStringLiteral("auto"));
    vector_->setToolTip(QStringLiteral("elements per lane access (auto: widest contiguous)"));
    run_ = new QPushButton(QStringLiteral("Run"));
    run_->setObjectName(QStringLiteral("runButton"));
    compile_ = new QPushButton(QStringLiteral("Compile Only"));
    compile_->setObjectName(QStringLiteral("compileButton"));
    compile_->setToolTip(QStringLiteral("Generate and compile the kernel without running it (no "
                                        "GPU needed); TileLang: lower only"));
    cancel_ = new QPushButton(QStringLiteral("Cancel"));
    cancel_->setObjectName(QStringLiteral("cancelButton"));
    cancel_->setEnabled(false);
    settings_ = new QPushButton(QStringLiteral("Settings…"));
    // No GPU here (or a headless GPU box): the request goes to the GPU machine as a file and
    // its result comes back through File > Import Measurements.
    exportRequest_ = new QPushButton(QStringLiteral("Export Probe Request…"));
    exportRequest_->setObjectName(QStringLiteral("exportProbeRequest"));
    exportRequest_->setToolTip(QStringLiteral(
        "No GPU here? Write the request this Run would send to a file, run tilescope-probe with "
        "it on the GPU machine, and bring its result back with File ▸ Import Measurements…"));
    progress_ = new QProgressBar;
    progress_->setRange(0, 0);
    progress_->setVisible(false);
    progress_->setMaximumWidth(120);
    status_ = new QLabel(QStringLiteral("Ready. Nothing runs until you press Run."));
    status_->setObjectName(QStringLiteral("runStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Two rows, so that the panel fits beside or under others at 1024 px without squeezing the
    // access field.
    auto* row = new QHBoxLayout;
    row->addWidget(target_);
    row->addWidget(backend_);
    row->addWidget(chip_);
    row->addWidget(dtype_);
    row->addWidget(access_, 1);
    row->addWidget(fit_);
    row->addWidget(new QLabel(QStringLiteral("vec")));
    row->addWidget(vector_);
    auto* row2 = new QHBoxLayout;
    row2->addWidget(run_);
    row2->addWidget(compile_);
    row2->addWidget(cancel_);
    row2->addWidget(settings_);
    row2->addWidget(exportRequest_);
    row2->addWidget(progress_);
    row2->addStretch(1);
    // The status (often a long, wrapped message) gets the panel's whole width on its own row.
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* marker = new QLabel;
    marker->setObjectName(QStringLiteral("runMarker"));
    marker->setWordWrap(true);
    state_ = new ResultState(this);
    state_->setOnError(ResultState::OnError::KeepDimmed);
    state_->setMarker(marker);
    state_->addView(status_);

    chart_ = new QChart;
    chart_->setTitle(QStringLiteral("Wavefronts per instruction: predicted vs measured; time"));
    chartView_ = new QChartView(chart_);
    chartView_->setRenderHint(QPainter::Antialiasing);
    chartView_->setMinimumHeight(90);
    table_ = new QTableView;
    table_->setObjectName(QStringLiteral("runHistory"));
    table_->setModel(history_);
    table_->horizontalHeader()->setStretchLastSection(true);
    // Every column as wide as its header and its values (the verdict takes the rest), so that
    // "Predicted wf/instr" and a lanes lambda are read whole.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(RunHistoryModel::Verdict,
                                                     QHeaderView::Stretch);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    log_ = new QPlainTextEdit;
    log_->setObjectName(QStringLiteral("runLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(20000);
    tabs_ = new QTabWidget;
    tabs_->addTab(chartView_, QStringLiteral("Chart"));
    tabs_->addTab(table_, QStringLiteral("History"));
    tabs_->addTab(log_, QStringLiteral("Log"));

    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    v->addLayout(row);
    v->addLayout(row2);
    v->addWidget(footprint_);
    v->addWidget(status_);
    v->addWidget(marker);
    v->addWidget(tabs_, 1);

    connect(run_, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(compile_, &QPushButton::clicked, this, &RunPanel::compileRequested);
    connect(exportRequest_, &QPushButton::clicked, this, &RunPanel::exportRequestRequested);
    connect(cancel_, &QPushButton::clicked, ctl_, &RunController::cancel);
    connect(settings_, &QPushButton::clicked, this, &RunPanel::openSettings);
    connect(ctl_, &RunController::started, this, [this](const QString& d) {
        state_->publish(runGen_);
        setBusy(true);
        status_->setText(QStringLiteral("Running: %1…").arg(d));
        log_->appendPlainText(
            QStringLiteral("$ %1 %2").arg(ctl_->program(), ctl_->arguments().join(' ')));
    });
    connect(ctl_, &RunController::progress, this, [this](const QString& stage, double s) {
        if (ctl_->isRunning())
            status_->setText(
                QStringLiteral("%1 (%2 s) — Cancel stops it.").arg(stage).arg(s, 0, 'f', 1));
    });
    connect(ctl_, &RunController::output, this,
            [this](const QString& t) { log_->appendPlainText(t.trimmed()); });
    connect(ctl_, &RunController::failed, this, [this](const QString& m, const QString& log) {
        setBusy(false);
        status_->setText(m);
        state_->publish(runGen_); // refused when the input changed during the run
        log_->appendPlainText(QStringLiteral("✗ ") + m);
        if (!log.isEmpty()) {
            log_->appendPlainText(QStringLiteral("---- log ----\n") + log);
            tabs_->setCurrentWidget(log_);
        }
    });
    connect(ctl_, &RunController::finished, this, [this](const RunRecord& r) {
        setBusy(false);
        state_->publish(runGen_);
        history_->add(r);
        QSettings s;
        history_->save(s);
        if (r.ok) {
            status_->setText(ctl_->lastMessage());
            log_->appendPlainText(QStringLiteral("✓ ") + ctl_->lastMessage());
            tabs_->setCurrentWidget(chartView_);
        }
    });
    connect(target_, &QComboBox::currentIndexChanged, this, &RunPanel::inputChanged);
    connect(backend_, &QComboBox::currentIndexChanged, this, &RunPanel::inputChanged);
    // The back end means something for the Ascend target only.
    auto showBackend = [this] {
        const bool ascend = ascendTargetChosen();
        backend_->setVisible(ascend);
        chip_->setVisible(ascend);
        footprint_->setVisible(ascend);
    };
    connect(target_, &QComboBox::currentIndexChanged, this, showBackend);
    showBackend();
    connect(chip_, &QComboBox::currentIndexChanged, this, &RunPanel::inputChanged);
    for (QComboBox* b : {target_, backend_, chip_, dtype_})
        connect(b, &QComboBox::currentIndexChanged, this, &RunPanel::ascendFootprintStale);
    connect(dtype_, &QComboBox::currentTextChanged, this, &RunPanel::inputChanged);
    connect(access_, &QLineEdit::textChanged, this, &RunPanel::inputChanged);
    connect(access_, &QLineEdit::textEdited, this, [this] { fit_->setChecked(false); });
    connect(vector_, &QSpinBox::valueChanged, this, &RunPanel::inputChanged);
    connect(history_, &QAbstractItemModel::rowsInserted, this, &RunPanel::rebuildChart);
    connect(history_, &QAbstractItemModel::modelReset, this, &RunPanel::rebuildChart);
    rebuildChart();
}

RunTarget RunPanel::currentTarget() const {
    return RunTarget(target_->currentData().toInt());
}
void RunPanel::setTarget(RunTarget t) {
    target_->setCurrentIndex(target_->findData(int(t)));
}
QString RunPanel::access() const {
    return access_->text().trimmed();
}
void RunPanel::setAccess(const QString& a) {
    fit_->setChecked(false);
    access_->setText(a);
}
bool RunPanel::fitAccess() const {
    return fit_->isChecked();
}
void RunPanel::setFitAccess(bool on) {
    fit_->setChecked(on);
}
void RunPanel::showFitted(const QString& access, const QString& dtype) {
    const QSignalBlocker b1(access_), b2(dtype_);
    access_->setText(access);
    access_->setPlaceholderText(access.isEmpty()
                                    ? QStringLiteral("fitted to the layout when it runs")
                                    : QStringLiteral("access pattern"));
    if (!dtype.isEmpty()) dtype_->setCurrentText(dtype);
    emit ascendFootprintStale(); // the dtype may have changed with the signals blocked
}
QString RunPanel::dtype() const {
    return dtype_->currentText();
}
QString RunPanel::ascendBackend() const {
    return backend_->currentData().toString();
}
void RunPanel::setAscendBackend(const QString& name) {
    const int i = backend_->findData(name);
    if (i >= 0) backend_->setCurrentIndex(i);
}
QString RunPanel::ascendChip() const {
    return chip_->currentData().toString();
}
void RunPanel::setAscendChip(const QString& id) {
    const int i = chip_->findData(id);
    if (i >= 0) chip_->setCurrentIndex(i);
}
bool RunPanel::ascendTargetChosen() const {
    return RunTarget(target_->currentData().toInt()) == RunTarget::Ascend;
}
void RunPanel::showAscendFootprint(const QString& text, bool refused) {
    footprint_->setText(text);
    footprint_->setToolTip(text);
    footprint_->setFixedHeight(footprint_->sizeHint().height());
    footprint_->setStyleSheet(refused ? QStringLiteral("color: #b91c1c;") : QString());
}
int RunPanel::vector() const {
    return vector_->value();
}
QString RunPanel::statusText() const {
    return status_->text();
}

void RunPanel::setRunInput(quint64 layout, const QString& what) {
    runLayout_ = layout;
    runWhat_ = what;
    runLayoutName_.clear();
    runGen_ = state_->generation(); // what this attempt reports belongs to the input as it is
}

void RunPanel::setDocument(const DocumentModel* doc) {
    doc_ = doc;
    connect(doc, &DocumentModel::nameChanged, this, [this] {
        if (state_->state() == ResultState::State::Stale) state_->setStaleText(staleWords());
    });
    connect(doc, &DocumentModel::layoutAboutToBeRemoved, this, [this](int i) {
        if (doc_->idAt(i) == runLayout_)
            runLayoutName_ = QString::fromStdString(doc_->layout(i).name);
    });
}

QString RunPanel::staleWords() const {
    QString what = QStringLiteral("an earlier input");
    if (runLayout_ != 0 && doc_) {
        const int i = doc_->indexOf(runLayout_);
        what = i >= 0 ? QStringLiteral("«%1» %2").arg(doc_->nameOf(runLayout_), runWhat_)
                      : QStringLiteral("“%1” (removed from the project) %2")
                            .arg(runLayoutName_, runWhat_);
    }
    return QStringLiteral("⟲ This was the run of %1; the layout or the access has changed since: "
                          "press Run to measure what is shown now.")
        .arg(what);
}

void RunPanel::resetForProject() {
    runLayout_ = 0;
    runWhat_.clear();
    status_->clear();
    log_->clear();
    // The access (typed, imported with measurements, or fitted) and the vector width were the
    // closed project's: the new project's layout is fitted when it is evaluated or run. The
    // target and the SSH settings are this machine's, not a project's: they stay.
    fit_->setChecked(true);
    showFitted(QString(), {});
    {
        const QSignalBlocker b(vector_);
        vector_->setValue(0);
    }
    state_->clear();
}

void RunPanel::inputChanged() {
    if (state_->state() == ResultState::State::Empty) return; // nothing ran yet
    state_->setStaleText(staleWords());
    state_->invalidateNow();
}

void RunPanel::showRequestExport(const QString& path, const QString& error) {
    // The run's status is not replaced by a file written (it keeps its own input): the log says
    // what was written and what to do next, and the status line points at it.
    const QString text = error.isEmpty() ? probeRequestNextSteps(path) : error;
    log_->appendPlainText(text);
    tabs_->setCurrentWidget(log_);
    status_->setText(error.isEmpty() ? text.section(QLatin1Char('\n'), 0, 0) +
                                           QStringLiteral(" Next steps in the Log tab.")
                                     : error);
    lastRequestMessage_ = text;
}

void RunPanel::setBusy(bool busy) {
    progress_->setVisible(busy);
    run_->setEnabled(!busy);
    compile_->setEnabled(!busy);
    cancel_->setEnabled(busy);
}

void RunPanel::rebuildChart() {
    chart_->removeAllSeries(); // deletes them
    for (auto* a : chart_->axes()) {
        chart_->removeAxis(a); // gives ownership back: each rebuild leaked its axes
        delete a;
    }
    // The last successful runs that produced a prediction or a time, oldest first; failed
    // attempts are in the History tab, not among the bars.
    std::vector<int> rows;
    for (int i = history_->rowCount() - 1; i >= 0 && rows.size() < 12; --i) {
        const RunRecord& r = history_->record(i);
        if (r.ok &&
            (r.predictedWf >= 0 || r.measuredWf >= 0 || r.nsPerInstr >= 0 || r.latencyMs >= 0))
            rows.insert(rows.begin(), i);
    }
    // Bars are numbered among the successful runs of the whole history, and carry the layout.
    std::vector<int> ordinal(std::size_t(history_->rowCount()), 0);
    for (int i = 0, n = 0; i < history_->rowCount(); ++i)
        if (history_->record(i).ok) ordinal[std::size_t(i)] = ++n;
    auto* pred = new QBarSet(QStringLiteral("predicted wf/instr"));
    auto* meas = new QBarSet(QStringLiteral("measured wf/instr (ncu)"));
    auto* time = new QLineSeries;
    time->setName(QStringLiteral("ns/instr (or TileLang ms)"));
    QStringList cats;
    double maxWf = 1, maxT = 0;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const RunRecord& r = history_->record(rows[k]);
        *pred << std::max(0.0, r.predictedWf);
        *meas << std::max(0.0, r.measuredWf);
        maxWf = std::max({maxWf, r.predictedWf, r.measuredWf});
        const double t = r.nsPerInstr >= 0 ? r.nsPerInstr : r.latencyMs;
        if (t >= 0) {
            time->append(double(k), t);
            maxT = std::max(maxT, t);
        }
        cats << runChartLabel(ordinal[std::size_t(rows[k])], r.layout, r.pattern);
    }
    auto* bars = new QBarSeries;
    bars->append(pred);
    bars->append(meas);
    chart_->addSeries(bars);
    chart_->addSeries(time);
    auto* ax = new QBarCategoryAxis;
    ax->append(cats.isEmpty() ? QStringList{QStringLiteral("no runs yet")} : cats);
    auto* ay = new QValueAxis;
    ay->setRange(0, maxWf * 1.1);
    ay->setTitleText(QStringLiteral("wavefronts / instr"));
    auto* at = new QValueAxis;
    at->setRange(0, maxT > 0 ? maxT * 1.2 : 1);
    at->setTitleText(QStringLiteral("time"));
    chart_->addAxis(ax, Qt::AlignBottom);
    chart_->addAxis(ay, Qt::AlignLeft);
    chart_->addAxis(at, Qt::AlignRight);
    bars->attachAxis(ax);
    bars->attachAxis(ay);
    time->attachAxis(ax);
    time->attachAxis(at);
}

QStringList RunPanel::chartCategories() const {
    for (QAbstractAxis* a : chart_->axes(Qt::Horizontal))
        if (auto* c = qobject_cast<QBarCategoryAxis*>(a)) return c->categories();
    return {};
}

void RunPanel::openSettings() {
    auto* dlg = new QDialog(this);
    dlg->setWindowTitle(QStringLiteral("Run settings"));
    dlg->setAttribute(Qt::WA_DeleteOnClose);
    RunSettings& s = ctl_->settings();
    auto* probe = new QLineEdit(s.probePath);
    probe->setPlaceholderText(QStringLiteral("auto: next to the app, then PATH"));
    auto* host = new QLineEdit(s.sshHost);
    auto* user = new QLineEdit(s.sshUser);
    auto* port = new QSpinBox;
    port->setRange(0, 65535);
    port->setSpecialValueText(QStringLiteral("default"));
    port->setValue(s.sshPort);
    auto* ct = new QSpinBox;
    ct->setRange(1, 300);
    ct->setValue(s.sshConnectTimeout);
    auto* remote = new QLineEdit(s.sshRemoteProbe);
    auto* python = new QLineEdit(s.python);
    python->setObjectName(QStringLiteral("pythonSetting"));
    python->setPlaceholderText(
        QStringLiteral("automatic: TILESCOPE_PYTHON, then .venv, then python3"));
    // Which interpreter "automatic" (or the typed one) means, for TileLang runs and the trace's
    // Run Script alike.
    auto* pythonNow = new QLabel;
    pythonNow->setObjectName(QStringLiteral("pythonResolved"));
    pythonNow->setStyleSheet(QStringLiteral("color: #6b7280;"));
    pythonNow->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pythonNow->setWordWrap(true);
    pythonNow->setToolTip(QStringLiteral("The interpreter of TileLang runs and of Trace ▸ Run "
                                         "Script"));
    python->setToolTip(pythonNow->toolTip());
    auto showPython = [pythonNow, python, s] {
        RunSettings t = s;
        t.python = python->text().trimmed();
        const PythonChoice c = resolvePython(t);
        pythonNow->setText(c.program.isEmpty()
                               ? QStringLiteral("No Python found.")
                               : QStringLiteral("Now: %1 (%2)").arg(c.program, c.origin));
    };
    showPython();
    connect(python, &QLineEdit::textChanged, pythonNow, showPython);
    auto* timeout = new QDoubleSpinBox;
    timeout->setRange(5, 3600);
    timeout->setValue(s.timeoutS);
    auto* form = new QFormLayout(dlg);
    form->addRow(QStringLiteral("Local probe"), probe);
    form->addRow(QStringLiteral("SSH host"), host);
    form->addRow(QStringLiteral("SSH user"), user);
    form->addRow(QStringLiteral("SSH port"), port);
    form->addRow(QStringLiteral("Connect timeout (s)"), ct);
    form->addRow(QStringLiteral("Remote probe path"), remote);
    form->addRow(QStringLiteral("Python (TileLang)"), python);
    form->addRow(QString(), pythonNow);
    form->addRow(QStringLiteral("Run timeout (s)"), timeout);
    auto* bb = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(bb);
    // Wide enough for the placeholders and a venv path.
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    dlg->setMinimumWidth(
        std::min(640, fontMetrics().horizontalAdvance(python->placeholderText()) + 260));
    dlg->setObjectName(QStringLiteral("runSettingsDialog"));
    connect(bb, &QDialogButtonBox::rejected, dlg, &QDialog::reject);
    connect(bb, &QDialogButtonBox::accepted, dlg, [=, this] {
        RunSettings n = ctl_->settings();
        n.probePath = probe->text().trimmed();
        n.sshHost = host->text().trimmed();
        n.sshUser = user->text().trimmed();
        n.sshPort = port->value();
        n.sshConnectTimeout = ct->value();
        n.sshRemoteProbe = remote->text().trimmed();
        n.python = python->text().trimmed();
        n.timeoutS = timeout->value();
        if (!n.sshHost.isEmpty()) {
            const QString p = RunController::sshSettingsProblem(n);
            if (!p.isEmpty()) {
                status_->setText(p);
                return;
            }
        }
        ctl_->setSettings(n);
        QSettings qs;
        n.save(qs);
        dlg->accept();
    });
    dlg->open();
}

// ------------------------------------------------------------------ main window hook

RunController* runControllerOf(QWidget* w) {
    return w ? w->findChild<RunController*>(QStringLiteral("runController")) : nullptr;
}
RunPanel* runPanelOf(QWidget* w) {
    return w ? w->findChild<RunPanel*>(QStringLiteral("runPanel")) : nullptr;
}

namespace {
constexpr std::int64_t kFitOnUiThreadCells = std::int64_t(1) << 20;

std::int64_t shapeCells(const ts::Shape& s) {
    std::int64_t n = 1;
    for (std::int64_t e : s)
        n *= e;
    return n;
}

// Shows in the panel the access (and the dtype the layout text names) that a run of this
// mapping uses while "fit the layout" is ticked; a fragment keeps the access shown.
void fitRunAccess(RunPanel* panel, const ts::Mapping& m, const std::string& text) {
    const auto* lay = std::get_if<ts::Layout>(&m);
    if (!lay) return;
    std::string dtype = ts::mappingDtype(text);
    if (dtype.empty()) dtype = panel->dtype().toStdString();
    const ts::SharedTile tile(*lay, dtype);
    panel->showFitted(QString::fromStdString(ts::defaultAccess(tile)),
                      QString::fromStdString(dtype));
}
// The Ascend footprint of the active layout's tile, for the dtype, back end and chip chosen:
// computed by the core (ascendFootprint), only shown here. Every figure belongs to the layout
// that is active now: recomputed whenever any of those inputs changes.
void showAscendFootprint(DocumentModel* doc, RunPanel* panel) {
    if (!panel->ascendTargetChosen()) return; // hidden; recomputed when Ascend is chosen
    const ts::DocLayout* l = doc->activeLayout();
    if (!l) {
        panel->showAscendFootprint(QStringLiteral("No layout: the Ascend tile is the active "
                                                  "layout's 2-D input shape."),
                                   false);
        return;
    }
    try {
        const ts::AscendKernelOptions o = ts::ascendKernelOptionsFor(
            l->text, panel->dtype().toStdString(), panel->ascendBackend().toStdString(),
            panel->ascendChip().toStdString());
        const ts::AscendFootprint f = ts::ascendFootprint(o);
        panel->showAscendFootprint(QStringLiteral("«%1» on-chip footprint — %2")
                                       .arg(QString::fromStdString(l->name),
                                            QString::fromStdString(f.describe()).trimmed()),
                                   !f.ok());
    } catch (const std::exception& e) {
        panel->showAscendFootprint(
            QStringLiteral("«%1»: no Ascend tile: %2")
                .arg(QString::fromStdString(l->name), QString::fromUtf8(e.what())),
            true);
    }
}
} // namespace

bool exportProbeRequestTo(RunController* ctl, RunPanel* panel, const RunSpec& spec,
                          const QString& path) {
    QString err;
    const bool ok = writeProbeRequest(spec, ctl->settings(), path, &err);
    panel->showRequestExport(ok ? path : QString(), err);
    return ok;
}

QDockWidget* installRunUi(FeatureHost* host) {
    QMainWindow* w = host->hostWindow();
    DocumentModel* doc = host->document();
    FeatureBus* bus = host->bus();
    auto* ctl = new RunController(w);
    ctl->setObjectName(QStringLiteral("runController"));
    {
        QSettings s;
        ctl->settings().load(s);
    }
    auto* history = new RunHistoryModel(w);
    history->setObjectName(QStringLiteral("runHistoryModel"));
    {
        QSettings s;
        history->load(s);
    }
    auto* panel = new RunPanel(ctl, history);
    panel->setDocument(doc);                 // the last run's layout is named by identity
    installMeasurementImport(host, history); // File > Import Measurements, runs kept in the project
    auto* dock = new QDockWidget(QStringLiteral("Run on device"), w);
    dock->setObjectName(QStringLiteral("runDock"));
    dock->setWidget(panel);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                      QDockWidget::DockWidgetClosable);
    w->addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide(); // the grid gets the room; Run (F5) brings the panel up

    // The spec Run, Compile Only and Export Probe Request use: the active layout with the
    // panel's access (fitted to the layout first while "fit the layout" is ticked).
    auto specNow = [doc, panel]() -> std::optional<RunSpec> {
        const ts::DocLayout* l = doc->activeLayout();
        if (!l) return std::nullopt;
        // Fit the access to the shared layout, as the bank panel does (a fragment, or text
        // with an error, is left to the controller, which says what is wrong).
        if (panel->fitAccess()) {
            try {
                fitRunAccess(panel, ts::parseMapping(l->text), l->text);
            } catch (const std::exception&) {
            }
        }
        RunSpec spec;
        spec.layoutName = QString::fromStdString(l->name);
        spec.mappingText = QString::fromStdString(l->text);
        spec.dtype = panel->dtype();
        spec.access = panel->access();
        spec.vector = panel->vector();
        spec.ascendBackend = panel->ascendBackend();
        spec.ascendChip = panel->ascendChip();
        return spec;
    };
    auto runNow = [doc, ctl, panel, dock, specNow](bool compileOnly) {
        dock->show();
        dock->raise();
        std::optional<RunSpec> made = specNow();
        if (!made) {
            emit ctl->failed(QStringLiteral("No layout to run: add or select one."), {});
            return;
        }
        RunSpec spec = *made;
        panel->setRunInput(doc->activeId(),
                           QStringLiteral("with %1 (%2)").arg(spec.access, spec.dtype));
        spec.compileOnly = compileOnly;
        ctl->start(panel->currentTarget(), spec);
    };
    QObject::connect(panel, &RunPanel::runRequested, w, [runNow] { runNow(false); });
    QObject::connect(panel, &RunPanel::compileRequested, w, [runNow] { runNow(true); });
    auto exportNow = [w, ctl, panel, dock, specNow] {
        dock->show();
        dock->raise();
        const std::optional<RunSpec> spec = specNow();
        if (!spec) {
            panel->showRequestExport({}, QStringLiteral("No layout to export: add or select one."));
            return;
        }
        QString base = spec->layoutName;
        for (QChar& ch : base)
            if (!ch.isLetterOrNumber() && ch != QLatin1Char('-')) ch = QLatin1Char('_');
        const QString path = QFileDialog::getSaveFileName(
            w, QStringLiteral("Export probe request"),
            w->property("exportStartDirectory").toString() + QLatin1Char('/') + base +
                QStringLiteral("-request.json"),
            QStringLiteral("tilescope-probe request (*.json)"));
        if (path.isEmpty()) return;
        exportProbeRequestTo(ctl, panel, *spec, path);
    };
    QObject::connect(panel, &RunPanel::exportRequestRequested, w, exportNow);
    // The last run's status describes the layout it ran; any change of that input marks it.
    QObject::connect(doc, &DocumentModel::textChanged, panel, [doc, panel](int i) {
        if (i == doc->active()) panel->inputChanged();
    });
    QObject::connect(doc, &DocumentModel::activeChanged, panel, &RunPanel::inputChanged);
    auto footprint = [doc, panel] { showAscendFootprint(doc, panel); };
    QObject::connect(panel, &RunPanel::ascendFootprintStale, panel, footprint);
    QObject::connect(doc, &DocumentModel::textChanged, panel, footprint);
    QObject::connect(doc, &DocumentModel::nameChanged, panel, footprint); // it names the layout
    QObject::connect(doc, &DocumentModel::activeChanged, panel, footprint);
    QObject::connect(doc, &DocumentModel::documentReset, panel, footprint);
    // Another project: the last run's status and the access chosen for the closed project's
    // layouts go; the access is fitted to the new project's layouts again.
    QObject::connect(doc, &DocumentModel::documentReset, panel, &RunPanel::resetForProject);
    // What the access field shows is what Run and Compile Only use: while fitting, it follows
    // the active layout as soon as that is evaluated (not only when a run starts).
    QObject::connect(host->evaluator(), &LayoutEvaluator::finished, panel,
                     [doc, panel](const EvalResult& r) {
                         const ts::DocLayout* l = doc->activeLayout();
                         if (!panel->fitAccess() || !r.ok || !r.mapping || !l) return;
                         if (r.text.toStdString() != l->text) return;
                         const auto* lay = std::get_if<ts::Layout>(r.mapping.get());
                         // A tile's addresses are computed here, on the UI thread: a huge one
                         // is fitted when it runs (the field says so meanwhile).
                         if (lay && shapeCells(lay->inputShape()) > kFitOnUiThreadCells) {
                             panel->showFitted(QString(), {});
                             return;
                         }
                         try {
                             fitRunAccess(panel, *r.mapping, l->text);
                         } catch (const std::exception&) {
                         }
                     });

    QMenu* menu = new QMenu(QStringLiteral("&Run"), w);
    menu->setObjectName(QStringLiteral("runMenu"));
    QList<QAction*> menus = w->menuBar()->actions();
    w->menuBar()->insertMenu(menus.isEmpty() ? nullptr : menus.last(), menu); // before Help
    auto* runAct = menu->addAction(QStringLiteral("&Run on Device"));
    runAct->setObjectName(QStringLiteral("runAction"));
    runAct->setShortcut(QKeySequence(Qt::Key_F5));
    QObject::connect(runAct, &QAction::triggered, w, [runNow] { runNow(false); });
    auto* compileAct = menu->addAction(QStringLiteral("C&ompile Only"));
    compileAct->setObjectName(QStringLiteral("compileOnlyAction"));
    compileAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F5));
    compileAct->setToolTip(panel->compileButton()->toolTip());
    QObject::connect(compileAct, &QAction::triggered, w, [runNow] { runNow(true); });
    auto* exportAct = menu->addAction(QStringLiteral("Export Probe &Request…"));
    exportAct->setObjectName(QStringLiteral("exportProbeRequestAction"));
    exportAct->setToolTip(panel->exportRequestButton()->toolTip());
    QObject::connect(exportAct, &QAction::triggered, w, exportNow);
    auto* cancelAct = menu->addAction(QStringLiteral("&Cancel Run"));
    cancelAct->setObjectName(QStringLiteral("cancelRunAction"));
    cancelAct->setEnabled(false);
    QObject::connect(cancelAct, &QAction::triggered, ctl, &RunController::cancel);
    menu->addSeparator();
    auto* group = new QActionGroup(menu);
    for (RunTarget t :
         {RunTarget::LocalGpu, RunTarget::Ssh, RunTarget::TileLang, RunTarget::Ascend}) {
        auto* a = menu->addAction(QStringLiteral("Target: ") + runTargetName(t));
        a->setCheckable(true);
        a->setChecked(t == panel->currentTarget());
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, panel, [panel, t] { panel->setTarget(t); });
    }
    menu->addSeparator();
    QObject::connect(menu->addAction(QStringLiteral("&Settings…")), &QAction::triggered, panel,
                     &RunPanel::openSettings);
    QObject::connect(menu->addAction(QStringLiteral("Clear Run &History")), &QAction::triggered,
                     history, [history] {
                         history->clear();
                         QSettings s;
                         history->save(s);
                     });
    // The panel itself is shown from View ▸ Panels (and by Run); a checkbox named like the
    // Run command here read as a second way to run.
    QObject::connect(ctl, &RunController::started, w, [runAct, compileAct, cancelAct] {
        runAct->setEnabled(false);
        compileAct->setEnabled(false);
        cancelAct->setEnabled(true);
    });
    auto idle = [runAct, compileAct, cancelAct] {
        runAct->setEnabled(true);
        compileAct->setEnabled(true);
        cancelAct->setEnabled(false);
    };
    QObject::connect(ctl, &RunController::finished, w, idle);
    // Measured next to predicted on the bank heat map (the banks feature listens).
    QObject::connect(ctl, &RunController::finished, bus, [bus](const RunRecord& r) {
        if (!r.ok || r.predictedWf < 0) return;
        emit bus->bankMeasured(
            {r.measuredWf, r.predictedWf, r.nsPerWavefront, r.device, r.pattern});
    });
    QObject::connect(ctl, &RunController::failed, w, idle);
    host->mainToolBar()->addSeparator();
    host->mainToolBar()->addAction(runAct);

    // TileLang output goes to the inference trace (its inferred layouts and conflicts), and
    // msprof op's UB conflict ratios next to the UB model's prediction: whoever listens.
    QObject::connect(ctl, &RunController::tileLangOutput, bus, &FeatureBus::tileLangOutput);
    QObject::connect(ctl, &RunController::tileLangFinished, bus, &FeatureBus::tileLangFinished);
    QObject::connect(ctl, &RunController::ascendMeasured, bus, &FeatureBus::ascendMeasured);
    return dock;
}

} // namespace tsw
