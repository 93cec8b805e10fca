// UbPanel (see bank_ub_panel.h).
#include "bank_ub_panel.h"
#include "wording.h"

#include "result_state.h"

#include "tilescope/bank_model.h"
#include "tilescope/errors.h"

#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tsw {

UbPanel::UbPanel(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("ubPanel"));
    assumptions_ = new QLabel(QString::fromStdString(ts::ubAssumptions()), this);
    assumptions_->setObjectName(QStringLiteral("ubAssumptions"));
    assumptions_->setWordWrap(true);
    assumptions_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    assumptions_->setStyleSheet(
        QStringLiteral("background: #fff8e1; border: 1px solid #e0c070; padding: 6px;"));
    input_ = new QPlainTextEdit(this);
    input_->setPlaceholderText(QStringLiteral("one 32-byte block per line: 0x10000, 0x10020 w"));
    input_->setPlainText(QStringLiteral("0x0\n0x20\n0x200\n0x10000 w\n0x10200 w"));
    input_->setMaximumHeight(110);
    result_ = new QLabel(this);
    result_->setObjectName(QStringLiteral("ubResult"));
    result_->setWordWrap(true);
    banks_ = new QTableWidget(3, 16, this);
    banks_->setMaximumHeight(130);
    banks_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    banks_->verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    QStringList groups, members;
    for (int g = 0; g < 16; ++g)
        groups << QStringLiteral("g%1").arg(g);
    banks_->setHorizontalHeaderLabels(groups);
    banks_->setVerticalHeaderLabels(
        {QStringLiteral("bank g"), QStringLiteral("bank g+16"), QStringLiteral("bank g+32")});
    auto* v = new QVBoxLayout(this);
    auto* title = new QLabel(QStringLiteral("<b>Ascend Unified Buffer: assumptions</b>"), this);
    v->addWidget(title);
    v->addWidget(assumptions_);
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
    v->addStretch(1);
    // The cycle counts and the per-bank table are one result: hidden under an error.
    state_ = new ResultState(this);
    state_->setMarker(marker);
    state_->addView(result_);
    state_->addView(banksCaption);
    state_->addView(banks_);
    connect(input_, &QPlainTextEdit::textChanged, this, [this] { analyze(); });
    analyze();
}

QString UbPanel::assumptionsText() const {
    return assumptions_->text();
}
QString UbPanel::resultText() const {
    return result_->text();
}

void UbPanel::setBlocksText(const QString& t) {
    input_->setPlainText(t);
}

bool UbPanel::analyze() {
    const quint64 gen = state_->invalidate();
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
        const ts::UbStepCost c = ts::analyzeUbStep(blocks);
        result_->setText(
            QStringLiteral("<b>%1</b>: read %2, write %3; same-group conflicts: read %4, "
                           "write %5; read/write conflicts: %6")
                .arg(countNoun(c.cycles, QStringLiteral("cycle")))
                .arg(c.read_cycles)
                .arg(c.write_cycles)
                .arg(c.read_group_conflicts)
                .arg(c.write_group_conflicts)
                .arg(c.read_write_conflicts));
        for (int b = 0; b < 48; ++b) {
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
            banks_->setItem(b / 16, b % 16, it);
        }
        error_.clear();
        state_->publish(gen);
        return true;
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what());
        result_->clear();
        banks_->clearContents();
        state_->fail(gen, error_);
        return false;
    }
}

} // namespace tsw
