// SPDX-License-Identifier: Apache-2.0
// UbPanel (see bank_ub_panel.h).
#include "banks/bank_ub_panel.h"
#include "common/wording.h"
#include "grid/panel_export.h"

#include "common/result_state.h"

#include "tilescope/banks/bank_model.h"
#include "tilescope/device/msprof_op.h"
#include "tilescope/support/errors.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace tsw {

namespace {

ts::UbConfig configOf(const QString& arch) {
    return arch == QLatin1String("950") ? ts::UbConfig::ascend950() : ts::UbConfig::atlasA2A3();
}

QString pct(double v) {
    return QStringLiteral("%1%").arg(v * 100.0, 0, 'f', 1);
}

QLabel* boxLabel(QWidget* parent, const char* name, const char* style) {
    auto* l = new QLabel(parent);
    l->setObjectName(QString::fromLatin1(name));
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setStyleSheet(QString::fromLatin1(style));
    return l;
}

} // namespace

UbPanel::UbPanel(QWidget* parent) : QWidget(parent) {
    auto* pictures = new PanelExporter(this, QStringLiteral("Ascend UB banks"));
    pictures->addPicture(QStringLiteral("UB Banks"), [this](QString* why) { return picture(why); });
    setObjectName(QStringLiteral("ubPanel"));
    arch_ = new QComboBox(this);
    arch_->setObjectName(QStringLiteral("ubArch"));
    arch_->addItem(QStringLiteral("Atlas A2/A3 UB (192 KB)"), QStringLiteral("a2a3"));
    arch_->addItem(QStringLiteral("Ascend 950 UB (248 KB usable of 256 KB)"),
                   QStringLiteral("950"));
    stated_ =
        boxLabel(this, "ubStated", "background: #e8f5e9; border: 1px solid #81c784; padding: 6px;");
    inferred_ = boxLabel(this, "ubInferred",
                         "background: #fff8e1; border: 1px solid #e0c070; padding: 6px;");
    input_ = new QPlainTextEdit(this);
    input_->setPlaceholderText(QStringLiteral("one 32-byte block per line: 0x10000, 0x10020 w"));
    input_->setPlainText(QStringLiteral("0x0\n0x20\n0x200\n0x10000 w\n0x10200 w"));
    input_->setMaximumHeight(110);
    result_ = new QLabel(this);
    result_->setObjectName(QStringLiteral("ubResult"));
    result_->setWordWrap(true);
    measured_ = boxLabel(this, "ubMeasured",
                         "background: #e3f2fd; border: 1px solid #64b5f6; padding: 6px;");
    auto* load = new QPushButton(QStringLiteral("Load msprof op output..."), this);
    load->setObjectName(QStringLiteral("ubLoadMsprof"));
    load->setToolTip(QStringLiteral(
        "The --output directory of `msprof op` (or one OPPROF_* folder in it): "
        "OpBasicInfo.csv gives the task duration, ResourceConflictRatio.csv the UB bank and "
        "bank-group conflict ratios measured on the NPU."));
    auto* clear = new QPushButton(QStringLiteral("Clear"), this);
    clear->setObjectName(QStringLiteral("ubClearMsprof"));
    banks_ = new QTableWidget(3, 16, this);
    banks_->setMaximumHeight(130);
    banks_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    banks_->verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    auto* v = new QVBoxLayout(this);
    auto* head = new QHBoxLayout;
    head->addWidget(new QLabel(QStringLiteral("<b>Ascend Unified Buffer</b>"), this));
    head->addWidget(arch_);
    head->addStretch(1);
    v->addLayout(head);
    v->addWidget(new QLabel(QStringLiteral("Stated by the CANN guide:"), this));
    v->addWidget(stated_);
    v->addWidget(new QLabel(QStringLiteral("Inferred by Tilescope (no source states it; not "
                                           "checked on hardware):"),
                            this));
    v->addWidget(inferred_);
    v->addWidget(
        new QLabel(QStringLiteral("One vector step (block addresses; <i>w</i> = write):"), this));
    auto* marker = new QLabel(this);
    marker->setObjectName(QStringLiteral("ubMarker"));
    marker->setWordWrap(true);
    auto* banksCaption = new QLabel(QStringLiteral("rows read / written per bank (r/w):"), this);
    v->addWidget(input_);
    v->addWidget(marker);
    v->addWidget(result_);
    v->addWidget(banksCaption);
    v->addWidget(banks_);
    auto* mrow = new QHBoxLayout;
    mrow->addWidget(new QLabel(QStringLiteral("Measured on an NPU:"), this));
    mrow->addStretch(1);
    mrow->addWidget(load);
    mrow->addWidget(clear);
    v->addLayout(mrow);
    v->addWidget(measured_);
    v->addStretch(1);
    // The cycle counts and the per-bank table are one result: hidden under an error.
    state_ = new ResultState(this);
    state_->setMarker(marker);
    state_->addView(result_);
    state_->addView(banksCaption);
    state_->addView(banks_);
    connect(input_, &QPlainTextEdit::textChanged, this, [this] { analyze(); });
    connect(arch_, &QComboBox::currentIndexChanged, this, [this] { analyze(); });
    connect(clear, &QPushButton::clicked, this, [this] { clearMeasurement(); });
    connect(load, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, QStringLiteral("msprof op output directory"));
        if (dir.isEmpty()) return;
        measured_->setText(QStringLiteral("Reading %1 ...").arg(dir.toHtmlEscaped()));
        auto* watch = new QFutureWatcher<QString>(this);
        auto result = std::make_shared<ts::MsprofOpResult>();
        connect(watch, &QFutureWatcher<QString>::finished, this, [this, watch, result, dir] {
            const QString err = watch->result();
            watch->deleteLater();
            if (!err.isEmpty()) {
                haveMeasurement_ = false;
                measured_->setText(QStringLiteral("<span style='color:#b71c1c'>%1</span>")
                                       .arg(err.toHtmlEscaped()));
                return;
            }
            setMeasurement(*result);
        });
        watch->setFuture(QtConcurrent::run([dir, result]() -> QString {
            try {
                *result = ts::readMsprofOpDir(dir.toStdString());
                return {};
            } catch (const std::exception& e) {
                return QString::fromUtf8(e.what());
            }
        }));
    });
    clearMeasurement();
    analyze();
}

QString UbPanel::assumptionsText() const {
    return stated_->text() + QLatin1Char('\n') + inferred_->text();
}
QString UbPanel::statedText() const {
    return stated_->text();
}
QString UbPanel::inferredText() const {
    return inferred_->text();
}
QString UbPanel::resultText() const {
    return result_->text();
}
QString UbPanel::measuredText() const {
    return measured_->text();
}

void UbPanel::setBlocksText(const QString& t) {
    input_->setPlainText(t);
}

void UbPanel::setArch(const QString& arch) {
    arch_->setCurrentIndex(std::max(0, arch_->findData(arch)));
}

bool UbPanel::loadMeasurement(const QString& dir) {
    try {
        setMeasurement(ts::readMsprofOpDir(dir.toStdString()));
        return true;
    } catch (const std::exception& e) {
        haveMeasurement_ = false;
        measured_->setText(QStringLiteral("<span style='color:#b71c1c'>%1</span>")
                               .arg(QString::fromUtf8(e.what()).toHtmlEscaped()));
        return false;
    }
}

void UbPanel::setMeasurement(const ts::MsprofOpResult& m) {
    haveMeasurement_ = true;
    bankMax_ = m.bankMax().value_or(-1);
    bankMean_ = m.bankMean().value_or(-1);
    groupMax_ = m.bankgroupMax().value_or(-1);
    groupMean_ = m.bankgroupMean().value_or(-1);
    measuredSource_ =
        QString::fromStdString(!m.conflict_file.empty()    ? m.conflict_file
                               : !m.basic_file.empty()     ? m.basic_file
                               : m.simulator_files.empty() ? std::string()
                                                           : m.simulator_files.front());
    measuredDuration_.clear();
    for (const auto& o : m.ops)
        if (o.task_duration_us)
            measuredDuration_ += QStringLiteral("%1: task duration %2 us. ")
                                     .arg(QString::fromStdString(o.op_name))
                                     .arg(*o.task_duration_us, 0, 'f', 3);
    if (m.ops.empty() && m.conflicts.empty() && !m.simulator_files.empty())
        measuredDuration_ = QStringLiteral("Simulator output only (%1 trace file(s)): it has no "
                                           "conflict ratios; open it in MindStudio Insight. ")
                                .arg(m.simulator_files.size());
    showMeasured();
}

void UbPanel::clearMeasurement() {
    haveMeasurement_ = false;
    showMeasured();
}

void UbPanel::showMeasured() {
    if (!haveMeasurement_) {
        measured_->setText(QStringLiteral(
            "No measurement loaded. Run the kernel under <tt>msprof op --output=DIR</tt> on an "
            "NPU and load DIR: its aiv_vec_bank_cflt_ratio and aiv_vec_bankgroup_cflt_ratio "
            "appear here next to the model's shares."));
        return;
    }
    auto fig = [](double max, double mean) {
        return max < 0
                   ? QStringLiteral("not reported")
                   : QStringLiteral("max %1, mean %2 over vector cores").arg(pct(max), pct(mean));
    };
    QString model;
    if (predicted_) model = QStringLiteral(" &nbsp;|&nbsp; model, this step: %1");
    QString t = QStringLiteral("<b>msprof op</b> (whole kernel; %1)<br>")
                    .arg(measuredSource_.toHtmlEscaped());
    t +=
        QStringLiteral("Bank conflicts (read/write on one bank): <b>%1</b>%2<br>")
            .arg(fig(bankMax_, bankMean_), predicted_ ? model.arg(pct(predictedBank_)) : QString());
    t += QStringLiteral("Bank-group conflicts (same group): <b>%1</b>%2<br>")
             .arg(fig(groupMax_, groupMean_),
                  predicted_ ? model.arg(pct(predictedGroup_)) : QString());
    t += QStringLiteral("<i>The profiler's ratios are blocked cycles over all cycles of the "
                        "kernel; the model's are conflict cycles over the cycles of the one step "
                        "above. They agree only when the kernel repeats that step.</i>");
    if (!measuredDuration_.isEmpty())
        t += QStringLiteral("<br>") + measuredDuration_.toHtmlEscaped();
    measured_->setText(t);
}

bool UbPanel::analyze() {
    const quint64 gen = state_->invalidate();
    const ts::UbConfig cfg = configOf(arch_->currentData().toString());
    stated_->setText(QString::fromStdString(ts::ubStatedFacts(cfg)));
    inferred_->setText(QString::fromStdString(ts::ubInferred(cfg)));
    banks_->setColumnCount(cfg.groups);
    banks_->setRowCount(cfg.banks_per_group);
    QStringList groups, members;
    for (int g = 0; g < cfg.groups; ++g)
        groups << QStringLiteral("g%1").arg(g);
    for (int k = 0; k < cfg.banks_per_group; ++k)
        members << (k ? QStringLiteral("bank g+%1").arg(k * cfg.groups) : QStringLiteral("bank g"));
    banks_->setHorizontalHeaderLabels(groups);
    banks_->setVerticalHeaderLabels(members);
    std::vector<ts::UbBlock> blocks;
    try {
        int line = 0;
        for (QString l : input_->toPlainText().split(QLatin1Char('\n'))) {
            ++line;
            l = l.trimmed();
            if (l.isEmpty()) continue;
            QStringList parts =
                l.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
            bool ok = false;
            const qlonglong a = parts[0].toLongLong(&ok, 0);
            if (!ok)
                throw ts::InputError("line " + std::to_string(line) + ": '" +
                                     parts[0].toStdString() + "' is not an address");
            const bool w = parts.size() > 1 && parts[1].startsWith(QLatin1Char('w'));
            blocks.push_back({a, w});
        }
        const ts::UbStepCost c = ts::analyzeUbStep(blocks, cfg);
        result_->setText(
            QStringLiteral("<b>%1</b>: read %2, write %3; same-group conflicts: read %4, "
                           "write %5; read/write conflicts: %6 (model: %7 of the cycles are "
                           "group conflicts, %8 bank conflicts)")
                .arg(countNoun(c.cycles, QStringLiteral("cycle")))
                .arg(c.read_cycles)
                .arg(c.write_cycles)
                .arg(c.read_group_conflicts)
                .arg(c.write_group_conflicts)
                .arg(c.read_write_conflicts)
                .arg(pct(c.groupConflictShare()), pct(c.bankConflictShare())));
        banks_->clearContents();
        for (int b = 0; b < cfg.banks(); ++b) {
            const int r = c.bank_reads[std::size_t(b)], w = c.bank_writes[std::size_t(b)];
            auto* it =
                new QTableWidgetItem(r || w ? QStringLiteral("%1/%2").arg(r).arg(w) : QString());
            it->setTextAlignment(Qt::AlignCenter);
            if (r && w)
                it->setBackground(QColor(244, 160, 150));
            else if (r > 1 || w > 1)
                it->setBackground(QColor(253, 208, 162));
            else if (r || w)
                it->setBackground(QColor(200, 230, 201));
            banks_->setItem(b / cfg.groups, b % cfg.groups, it);
        }
        predicted_ = true;
        predictedBank_ = c.bankConflictShare();
        predictedGroup_ = c.groupConflictShare();
        showMeasured();
        error_.clear();
        state_->publish(gen);
        return true;
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what());
        result_->clear();
        banks_->clearContents();
        predicted_ = false;
        showMeasured();
        state_->fail(gen, error_);
        return false;
    }
}

} // namespace tsw
