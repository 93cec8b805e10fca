// SPDX-License-Identifier: Apache-2.0
#include "trace/trace_viewer.h"
#include "tilescope/trace/conflict_reason.h"

#include "grid/panel_export.h"

#include "common/dock_sizing.h"
#include "common/feature_bus.h"
#include "common/feature_host.h"
#include "common/python_choice.h"
#include "common/wording.h"
#include "document/documentmodel.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPainterPath>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <memory>

namespace tsw {

using ts::dump::Event;
using ts::dump::EventKind;

namespace {

QColor eventColor(const Event& e) {
    if (!e.ok()) return QColor(200, 40, 40);
    switch (e.kind) {
    case EventKind::Inferred:
        return QColor(60, 130, 200);
    case EventKind::Repr:
        return QColor(110, 160, 210);
    case EventKind::Conflict:
    case EventKind::AliasConflict:
    case EventKind::ParallelConflict:
    case EventKind::ReduceConflict:
        return QColor(230, 120, 20);
    case EventKind::Warning:
        return QColor(210, 180, 40);
    case EventKind::Error:
        return QColor(200, 40, 40);
    }
    return Qt::gray;
}

QString shapeText(const ts::Mapping& m) {
    const ts::Shape& s = std::holds_alternative<ts::Fragment>(m)
                             ? std::get<ts::Fragment>(m).inputShape()
                             : std::get<ts::Layout>(m).inputShape();
    return QString::fromStdString(ts::formatShape(s, true));
}

QString roleTitle(const Event& e, const ts::dump::DumpLayout& l) {
    return QString::fromStdString(ts::dump::sideLabel(e, l));
}

} // namespace

// ---- TraceEventModel --------------------------------------------------------------------------

TraceEventModel::TraceEventModel(QObject* parent) : QAbstractListModel(parent) {}

int TraceEventModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

const Event& TraceEventModel::event(int row) const {
    return all_.at(std::size_t(rows_.at(std::size_t(row))));
}

int TraceEventModel::rowOfEvent(std::size_t eventIndex) const {
    auto it = std::lower_bound(rows_.begin(), rows_.end(), int(eventIndex));
    return (it != rows_.end() && *it == int(eventIndex)) ? int(it - rows_.begin()) : -1;
}

QString TraceEventModel::describe(const Event& e) {
    const QString buf = QString::fromStdString(e.buffer);
    const QString other = QString::fromStdString(e.other);
    auto first = [&]() -> QString {
        for (const auto& l : e.layouts)
            if (l.value) {
                QString s = shapeText(*l.value);
                if (const auto* f = std::get_if<ts::Fragment>(&*l.value))
                    if (f->replicate() > 1) s += QStringLiteral(" ×%1").arg(f->replicate());
                return s;
            }
        return {};
    };
    QString msg = QString::fromStdString(e.message);
    if (msg.size() > 90) msg = msg.left(88) + QStringLiteral("…");
    switch (e.kind) {
    case EventKind::Inferred:
        return QStringLiteral("inferred  %1  %2").arg(buf, first());
    case EventKind::Repr:
        return QStringLiteral("layout  %1  %2")
            .arg(buf.isEmpty() ? QStringLiteral("—") : buf, first());
    case EventKind::Conflict:
        return QStringLiteral("conflict  %1  current ≠ previous").arg(buf);
    case EventKind::AliasConflict:
        return QStringLiteral("alias conflict  %1 (shares %2)").arg(buf, other);
    case EventKind::ParallelConflict:
        return QStringLiteral("T.Parallel conflict  %1 vs %2").arg(buf, other);
    case EventKind::ReduceConflict:
        return QStringLiteral("ReduceOp conflict  %1 vs %2").arg(buf, other);
    case EventKind::Warning:
        return QStringLiteral("warning  %1").arg(msg);
    case EventKind::Error:
        return QStringLiteral("error  %1").arg(msg) +
               (e.location.empty() ? QString()
                                   : QStringLiteral("  (%1)").arg(QString::fromStdString(
                                         e.location.substr(0, e.location.find(' ')))));
    }
    return {};
}

QVariant TraceEventModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const Event& e = event(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1  %2").arg(e.line, 5).arg(describe(e)) +
               (e.ok() ? QString() : QStringLiteral("  ⚠"));
    case Qt::DecorationRole:
        return eventColor(e);
    case Qt::ForegroundRole:
        if (!e.ok()) return QColor(180, 30, 30);
        if (e.repeatOf) return QColor(140, 140, 140);
        return {};
    case Qt::ToolTipRole: {
        QString t = QStringLiteral("line %1").arg(e.line);
        if (e.endLine > e.line) t += QStringLiteral("–%1").arg(e.endLine);
        if (!e.span.empty()) t += QStringLiteral("\n--> ") + QString::fromStdString(e.span);
        if (!e.location.empty())
            t += QStringLiteral("\nraised at ") + QString::fromStdString(e.location);
        if (!e.message.empty()) t += QLatin1Char('\n') + QString::fromStdString(e.message);
        if (!e.ok()) t += QStringLiteral("\nproblem: ") + QString::fromStdString(e.problem);
        if (e.repeatOf) t += QStringLiteral("\n(repeats event #%1)").arg(*e.repeatOf + 1);
        return t;
    }
    case KindRole:
        return int(e.kind);
    case LineRole:
        return qulonglong(e.line);
    case ProblemRole:
        return QString::fromStdString(e.problem);
    case EventIndexRole:
        return qulonglong(e.index);
    }
    return {};
}

void TraceEventModel::clear() {
    beginResetModel();
    all_.clear();
    rows_.clear();
    endResetModel();
}

void TraceEventModel::append(const TraceEvents& events) {
    std::vector<int> add;
    for (const auto& e : events) {
        all_.push_back(e);
        if (visible(e)) add.push_back(int(all_.size() - 1));
    }
    if (add.empty()) return;
    beginInsertRows({}, int(rows_.size()), int(rows_.size() + add.size() - 1));
    rows_.insert(rows_.end(), add.begin(), add.end());
    endInsertRows();
}

void TraceEventModel::setHideRepeats(bool hide) {
    if (hide == hideRepeats_) return;
    beginResetModel();
    hideRepeats_ = hide;
    rows_.clear();
    for (std::size_t k = 0; k < all_.size(); ++k)
        if (visible(all_[k])) rows_.push_back(int(k));
    endResetModel();
}

// ---- DiffColorOverlay ---------------------------------------------------------------------------

QColor DiffColorOverlay::kindColor(std::uint8_t bits) {
    if (bits & ts::kDiffThread) return QColor(220, 30, 30);
    if (bits & ts::kDiffReplica) return QColor(150, 60, 210);
    if (bits & ts::kDiffSlot) return QColor(240, 140, 0);
    if (bits & ts::kDiffShape) return QColor(70, 70, 70);
    return Qt::transparent;
}

DiffColorOverlay::DiffColorOverlay(const ts::LayoutDiff& d, GridModel base)
    : diff_(d), base_(std::move(base)) {
    static quint64 counter = 1u << 30;
    revision_ = ++counter;
}

std::optional<QRgb> DiffColorOverlay::cellColor(int row, int col) const {
    const std::uint8_t bits = diff_.at(row, col);
    if (bits) return kindColor(bits).lighter(125).rgb();
    // Cells that agree keep their layout colour, faded, so the differing ones stand out while
    // the layout stays readable.
    const QRgb c = base_.color(row, col);
    const double t = 0.72;
    return qRgb(int(qRed(c) + (255 - qRed(c)) * t), int(qGreen(c) + (255 - qGreen(c)) * t),
                int(qBlue(c) + (255 - qBlue(c)) * t));
}

std::vector<LegendEntry> DiffColorOverlay::legend() const {
    // A cell with several differences is drawn in the colour of the first kind (kindColor's
    // order), so each swatch counts the cells drawn in its colour; a kind that also occurs
    // under another colour says how often in all (the counts line lists every kind).
    std::int64_t drawn[4] = {0, 0, 0, 0};
    const std::uint8_t order[4] = {ts::kDiffThread, ts::kDiffReplica, ts::kDiffSlot,
                                   ts::kDiffShape};
    for (const std::uint8_t bits : diff_.cells)
        for (int k = 0; k < 4; ++k)
            if (bits & order[k]) {
                ++drawn[k];
                break;
            }
    const auto& n = diff_.counts;
    const std::int64_t total[4] = {n.thread, n.replica, n.slot, n.shape};
    const QString names[4] = {
        QStringLiteral("thread differs"), QStringLiteral("replica count differs"),
        diff_.fragments ? QStringLiteral("slot differs") : QStringLiteral("offset differs"),
        QStringLiteral("only on one side")};
    std::vector<LegendEntry> e;
    for (int k = 0; k < 4; ++k) {
        if (drawn[k] == 0) continue;
        const QString text = total[k] == drawn[k]
                                 ? QStringLiteral("%1 (%2)").arg(names[k]).arg(drawn[k])
                                 : QStringLiteral("%1 (%2 in this colour, %3 in all)")
                                       .arg(names[k])
                                       .arg(drawn[k])
                                       .arg(total[k]);
        e.push_back({kindColor(order[k]).lighter(125), text});
    }
    e.push_back({QColor(235, 235, 235), QStringLiteral("same in both (faded layout colour)")});
    return e;
}

// ---- ComparisonView ---------------------------------------------------------------------------

ComparisonView::ComparisonView(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    auto* grids = new QHBoxLayout;
    for (int k = 0; k < 2; ++k) {
        auto* col = new QVBoxLayout;
        titles_[k] = new QLabel(this);
        titles_[k]->setTextFormat(Qt::RichText);
        titles_[k]->setWordWrap(true);
        views_[k] = new GridView(this);
        views_[k]->setMinimumSize(120, 90); // the panel fits under the grid on a laptop
        views_[k]->setTitleVisible(false);  // the label above names the layout and its shape
        views_[k]->setCellToolTip([this](int r, int c) { return pairToolTip(r, c); });
        open_[k] = new QPushButton(QStringLiteral("Open in Editor"), this);
        connect(open_[k], &QPushButton::clicked, this, [this, k] { emit openInEditor(k); });
        auto* bar = new QHBoxLayout;
        bar->addWidget(titles_[k], 1);
        bar->addWidget(open_[k]);
        col->addLayout(bar);
        col->addWidget(views_[k], 1);
        grids->addLayout(col, 1);
    }
    lay->addLayout(grids, 1);
    counts_ = new QLabel(this);
    counts_->setTextFormat(Qt::RichText);
    counts_->setObjectName(QStringLiteral("diffCounts"));
    auto* modeRow = new QHBoxLayout;
    auto* showLabel = new QLabel(QStringLiteral("Show:"), this);
    showLayouts_ = new QToolButton(this);
    showLayouts_->setText(QStringLiteral("Layouts"));
    showLayouts_->setObjectName(QStringLiteral("showLayouts"));
    showLayouts_->setToolTip(QStringLiteral("Each layout in its own thread colours"));
    showDiffs_ = new QToolButton(this);
    showDiffs_->setText(QStringLiteral("Differences"));
    showDiffs_->setObjectName(QStringLiteral("showDifferences"));
    showDiffs_->setToolTip(
        QStringLiteral("Cells that differ in the colour of their kind; cells that agree faded"));
    for (QToolButton* b : {showLayouts_, showDiffs_}) {
        b->setCheckable(true);
        b->setAutoRaise(false);
    }
    connect(showLayouts_, &QToolButton::clicked, this, [this] { setMode(Mode::Layouts); });
    connect(showDiffs_, &QToolButton::clicked, this, [this] { setMode(Mode::Differences); });
    modeRow->addWidget(showLabel);
    modeRow->addWidget(showLayouts_);
    modeRow->addWidget(showDiffs_);
    modeRow->addSpacing(10);
    modeRow->addWidget(counts_, 1);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    lay->addLayout(modeRow);
    lay->addWidget(summary_);

    // Synchronised zoom/pan, hover and highlight.
    for (int k = 0; k < 2; ++k) {
        GridView* a = views_[k];
        GridView* b = views_[1 - k];
        connect(a, &GridView::viewTransformChanged, this, [this, a, b](double s, QPointF pan) {
            if (syncing_) return;
            syncing_ = true;
            // Two grids of one shape that fit their views stay fitted, so that they grow with
            // the panel (a floating or resized dock); setViewTransform would pin the scale.
            if (a->isFitted() && a->model().rows() == b->model().rows() &&
                a->model().cols() == b->model().cols())
                b->zoomToFit();
            else
                b->setViewTransform(s, pan);
            syncing_ = false;
        });
        connect(a, &GridView::cellHovered, this, [this, b](int r, int c) {
            if (syncing_) return;
            syncing_ = true;
            b->setHoveredCell(r, c);
            syncing_ = false;
        });
        connect(a, &GridView::highlightChanged, this, [this, b](const Highlight& h) {
            if (syncing_) return;
            syncing_ = true;
            b->setHighlight(h);
            syncing_ = false;
        });
    }
}

void ComparisonView::clear() {
    diff_.reset();
    for (auto* v : views_) {
        v->renderer().clearOverlays();
        v->renderer().setCellColorOverlay(nullptr);
        v->setModel(GridModel());
    }
    counts_->clear();
    summary_->clear();
}

void ComparisonView::setLayouts(const ts::Mapping& a, const QString& nameA, const QString& textA,
                                const ts::Mapping& b, const QString& nameB, const QString& textB) {
    const ts::Mapping* m[2] = {&a, &b};
    const QString names[2] = {nameA, nameB};
    const QString texts[2] = {textA, textB};
    diff_.reset();
    note_.clear();
    for (int k = 0; k < 2; ++k)
        sideNames_[k] = names[k].section(QLatin1Char(' '), 0, 0);
    QString error;
    try {
        diff_ = ts::diffLayouts(a, b, nameA.section(QLatin1Char(' '), 0, 0).toStdString(),
                                nameB.section(QLatin1Char(' '), 0, 0).toStdString());
    } catch (const std::exception& e) {
        error = QString::fromUtf8(e.what());
    }
    for (int k = 0; k < 2; ++k) {
        views_[k]->renderer().clearOverlays();
        try {
            views_[k]->setModel(GridModel::fromMapping(*m[k], ViewMode::Input, ColorMode::Thread));
            views_[k]->setMessage({});
        } catch (const std::exception& e) {
            views_[k]->setModel(GridModel());
            views_[k]->setMessage(QString::fromUtf8(e.what()));
        }
        titles_[k]->setText(QStringLiteral("<b>%1</b>  <span style='color:#666'>%2</span>")
                                .arg(names[k].toHtmlEscaped(), shapeText(*m[k])));
        titles_[k]->setToolTip(texts[k]);
        views_[k]->update();
    }
    if (diff_) {
        const auto& c = diff_->counts;
        mode_ = 2 * c.differing() > c.cells ? Mode::Layouts : Mode::Differences;
    }
    setMode(mode_);
    summary_->setText(error.isEmpty() ? summaryText() : error);
    // Align: one scale for both, from the larger grid, then keep them in step.
    QTimer::singleShot(0, this, [this] {
        syncing_ = true;
        views_[0]->zoomToFit();
        views_[1]->zoomToFit();
        syncing_ = false;
        if (views_[0]->model().rows() == views_[1]->model().rows() &&
            views_[0]->model().cols() == views_[1]->model().cols())
            return; // one shape: both fitted alike, and they follow resizes
        const int big = views_[0]->model().cellCount() >= views_[1]->model().cellCount() ? 0 : 1;
        const double s = std::min(views_[0]->scale(), views_[1]->scale());
        syncing_ = true;
        views_[big]->setViewTransform(s, views_[big]->pan());
        views_[1 - big]->setViewTransform(s, views_[big]->pan());
        syncing_ = false;
    });
}

void ComparisonView::setMode(Mode m) {
    mode_ = m;
    showLayouts_->setChecked(m == Mode::Layouts);
    showDiffs_->setChecked(m == Mode::Differences);
    showLayouts_->setEnabled(diff_.has_value());
    showDiffs_->setEnabled(diff_.has_value());
    for (GridView* v : views_) {
        if (diff_ && m == Mode::Differences && !v->model().isEmpty())
            v->renderer().setCellColorOverlay(
                std::make_shared<DiffColorOverlay>(*diff_, v->model()));
        else
            v->renderer().setCellColorOverlay(nullptr);
        v->update();
    }
    counts_->setText(countsText());
}

QString ComparisonView::countsText() const {
    if (!diff_) return {};
    const auto& c = diff_->counts;
    auto chip = [](std::uint8_t bits, const QString& name, std::int64_t n) {
        // A kind that does not occur is grey: a red "thread 0" read as an alarm.
        const QColor bg = n > 0 ? DiffColorOverlay::kindColor(bits) : QColor(0xc4, 0xc8, 0xce);
        return QStringLiteral("<span style='background:%1;color:white'>&nbsp;%2&nbsp;</span> "
                              "<b>%3</b>&nbsp;&nbsp; ")
            .arg(bg.name(), name)
            .arg(n);
    };
    const QString showing =
        mode_ == Mode::Layouts ? (2 * c.differing() > c.cells
                                      ? QStringLiteral(" — showing the layouts (most cells differ)")
                                      : QStringLiteral(" — showing the layouts"))
                               : QStringLiteral(" — showing the differences");
    return QStringLiteral("<b>%1 of %2 %3</b>%4 &nbsp; ")
               .arg(c.differing())
               .arg(countNoun(c.cells, QStringLiteral("cell")))
               .arg(c.differing() == 1 ? QStringLiteral("differs") : QStringLiteral("differ"))
               .arg(showing) +
           chip(ts::kDiffThread, QStringLiteral("thread"), c.thread) +
           chip(ts::kDiffSlot, diff_->fragments ? QStringLiteral("slot") : QStringLiteral("offset"),
                c.slot) +
           chip(ts::kDiffReplica, QStringLiteral("replica count"), c.replica) +
           chip(ts::kDiffShape, QStringLiteral("shape"), c.shape);
}

QString ComparisonView::sideTitle(int side) const {
    return plainTextOf(titles_[side & 1]->text());
}

void ComparisonView::setNote(const QString& note) {
    note_ = note;
    summary_->setText(summaryText());
}

QString ComparisonView::summaryText() const {
    if (!diff_) return {};
    const QString s = QString::fromStdString(diff_->summary);
    return note_.isEmpty() ? s : s + QLatin1Char('\n') + note_;
}

// ---- TraceViewer ------------------------------------------------------------------------------

TraceViewer::TraceViewer(QWidget* parent) : QWidget(parent) {
    auto* pictures = new PanelExporter(this, QStringLiteral("Inference Trace"));
    pictures->addPicture(QStringLiteral("Trace"), [this](QString* why) { return picture(why); });
    importer_ = new TraceImporter(this);
    model_ = new TraceEventModel(this);

    auto* lay = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    auto* openBtn = new QPushButton(QStringLiteral("Open Log…"), this);
    follow_ = new QCheckBox(QStringLiteral("Follow"), this);
    follow_->setObjectName(QStringLiteral("traceFollow"));
    follow_->setToolTip(QStringLiteral("Keep reading the log as it grows (tick or untick at any "
                                       "time)"));
    auto* runBtn = new QPushButton(QStringLiteral("Run Script…"), this);
    runBtn->setToolTip(QStringLiteral(
        "Run a TileLang script with python, with the layout-visualization pass enabled"));
    cancel_ = new QPushButton(QStringLiteral("Cancel"), this);
    cancel_->setEnabled(false);
    repeats_ = new QCheckBox(QStringLiteral("Hide repeats"), this);
    repeats_->setChecked(true);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(160);
    progress_->setTextVisible(false);
    progress_->hide();
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("traceStatus"));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The status can be long (a failed interpreter's path): it elides rather than widening the
    // window.
    status_->setMinimumWidth(40);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bar->addWidget(openBtn);
    bar->addWidget(follow_);
    bar->addWidget(runBtn);
    bar->addWidget(cancel_);
    bar->addWidget(repeats_);
    bar->addWidget(progress_);
    bar->addWidget(status_, 1);
    lay->addLayout(bar);

    auto* split = new QSplitter(Qt::Horizontal, this);
    list_ = new QListView(split);
    list_->setModel(model_);
    list_->setUniformItemSizes(true);
    list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    list_->setMinimumWidth(160);
    pages_ = new QStackedWidget(split);

    empty_ = new QLabel(pages_);
    empty_->setObjectName(QStringLiteral("traceEmpty"));
    empty_->setAlignment(Qt::AlignCenter);
    empty_->setWordWrap(true);
    pages_->addWidget(empty_); // 0

    auto* single = new QWidget(pages_);
    auto* sl = new QVBoxLayout(single);
    sl->setContentsMargins(0, 0, 0, 0);
    auto* sbar = new QHBoxLayout;
    singleTitle_ = new QLabel(single);
    singleTitle_->setTextFormat(Qt::RichText);
    singleOpen_ = new QPushButton(QStringLiteral("Open in Editor"), single);
    sbar->addWidget(singleTitle_, 1);
    sbar->addWidget(singleOpen_);
    sl->addLayout(sbar);
    single_ = new GridView(single);
    single_->setMinimumSize(120, 90);
    sl->addWidget(single_, 1);
    text_ = new QPlainTextEdit(single);
    text_->setReadOnly(true);
    text_->setMaximumHeight(110);
    text_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    sl->addWidget(text_);
    pages_->addWidget(single); // 1

    comparison_ = new ComparisonView(pages_);
    pages_->addWidget(comparison_); // 2

    message_ = new QPlainTextEdit(pages_);
    message_->setReadOnly(true);
    pages_->addWidget(message_); // 3

    // What the selected event is and where it comes from: lines, source span, raising frame.
    context_ = new QLabel(this);
    context_->setObjectName(QStringLiteral("traceContext"));
    context_->setTextFormat(Qt::RichText);
    context_->setWordWrap(true);
    context_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    context_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    notice_ = new QLabel(this);
    notice_->setObjectName(QStringLiteral("traceNotice"));
    notice_->setWordWrap(true);
    notice_->setStyleSheet(QStringLiteral("color:#166534"));
    notice_->hide();
    auto* right = new QWidget(split);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->setSpacing(2);
    rl->addWidget(context_);
    rl->addWidget(notice_);
    rl->addWidget(pages_, 1);

    split->addWidget(list_);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({300, 900});
    lay->addWidget(split, 1);

    connect(openBtn, &QPushButton::clicked, this, &TraceViewer::openLogDialog);
    connect(runBtn, &QPushButton::clicked, this, &TraceViewer::runScriptDialog);
    connect(cancel_, &QPushButton::clicked, this, &TraceViewer::cancel);
    connect(follow_, &QCheckBox::toggled, this, [this](bool on) {
        if (on && importer_->sourceKind() == TraceImporter::Source::File &&
            importer_->state() != TraceImporter::State::Following) {
            // Re-reading starts the list afresh: come back to the event being looked at.
            const QModelIndex cur = list_->currentIndex();
            restoreEvent_ = cur.isValid() ? qint64(model_->event(cur.row()).index) : qint64(-1);
        }
        importer_->setFollow(on);
        updateStatus();
    });
    connect(repeats_, &QCheckBox::toggled, this, [this](bool on) {
        model_->setHideRepeats(on);
        updateStatus();
    });
    connect(singleOpen_, &QPushButton::clicked, this, [this] { emitOpen(0); });
    connect(comparison_, &ComparisonView::openInEditor, this, [this](int s) { emitOpen(s); });
    connect(list_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& cur) { showRow(cur.isValid() ? cur.row() : -1); });
    // Showing or hiding repeats rebuilds the list (and drops its current row without a signal):
    // the event being looked at stays selected if it is still listed, else nothing is shown.
    connect(model_, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
        const QModelIndex cur = list_->currentIndex();
        keepEvent_ = cur.isValid() && cur.row() < model_->rowCount()
                         ? qint64(model_->event(cur.row()).index)
                         : qint64(-1);
    });
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        const int row = keepEvent_ >= 0 ? model_->rowOfEvent(std::size_t(keepEvent_)) : -1;
        keepEvent_ = -1;
        if (row >= 0)
            list_->setCurrentIndex(model_->index(row));
        else
            showRow(-1);
    });

    connect(importer_, &TraceImporter::reset, this, [this] {
        // Nothing of the previous log may stay on screen: list, context line, grids, texts.
        finishedOnce_ = false;
        model_->clear();
        autoSelected_ = false;
        lastError_.clear();
        comparison_->clear();
        single_->setModel(GridModel());
        single_->setBanner({});
        singleTitle_->clear();
        text_->clear();
        message_->clear();
        showRow(-1);
        cancel_->setEnabled(true);
        progress_->show();
        progress_->setRange(0, 0);
        updateStatus();
    });
    connect(importer_, &TraceImporter::eventsReady, this, &TraceViewer::onEvents);
    empty_->setText(emptyText());
    connect(importer_, &TraceImporter::progress, this, [this](qint64 b, qint64, qint64 total) {
        if (total > 0) {
            progress_->setRange(0, 1000);
            progress_->setValue(int(1000.0 * double(b) / double(total)));
        }
        updateStatus();
    });
    connect(importer_, &TraceImporter::finished, this,
            [this](bool cancelled, const QString& error) {
                restoreEvent_ = -1;
                cancel_->setEnabled(false);
                progress_->hide();
                lastError_ = error;
                if (cancelled) lastError_ = QStringLiteral("cancelled");
                finishedOnce_ = true;
                if (!list_->currentIndex().isValid()) showRow(-1);
                updateStatus();
                emit importFinished(cancelled, error);
            });
}

void TraceViewer::openLog(const QString& path, bool follow) {
    {
        const QSignalBlocker block(follow_);
        follow_->setChecked(follow);
    }
    restoreEvent_ = -1;
    importer_->openFile(path, follow);
}

void TraceViewer::runScript(const QString& python, const QString& script) {
    importer_->runTileLangScript(python, script);
}

void TraceViewer::openLogDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, QStringLiteral("Open TileLang Log"), QString(),
        QStringLiteral("Logs (*.log *.txt *.out *.err);;All files (*)"));
    if (!path.isEmpty()) openLog(path, follow_->isChecked());
}

QString TraceViewer::scriptPython(QString* origin) {
    // The same interpreter as Run ▸ Target: TileLang (one setting, in Run ▸ Settings).
    const PythonChoice py = resolvePython(configuredPython());
    if (origin) *origin = py.origin;
    return py.program;
}

void TraceViewer::runScriptDialog() {
    QString origin;
    const QString python = scriptPython(&origin);
    if (python.isEmpty()) {
        pages_->setCurrentIndex(3);
        message_->setPlainText(
            QStringLiteral("No Python found: set one with TileLang installed in Run ▸ Settings (or "
                           "TILESCOPE_PYTHON), or create .venv next to the project."));
        return;
    }
    const QString script = QFileDialog::getOpenFileName(this, QStringLiteral("Run TileLang Script"),
                                                        QString(), QStringLiteral("Python (*.py)"));
    if (script.isEmpty()) return;
    runScript(python, script);
    context_->setText(QStringLiteral("Running %1 with <code>%2</code> (%3)")
                          .arg(QFileInfo(script).fileName().toHtmlEscaped(), python.toHtmlEscaped(),
                               origin.toHtmlEscaped()));
}

void TraceViewer::cancel() {
    importer_->cancel();
}

void TraceViewer::onEvents(std::shared_ptr<const TraceEvents> ev) {
    model_->append(*ev);
    if (restoreEvent_ >= 0) {
        const int row = model_->rowOfEvent(std::size_t(restoreEvent_));
        if (row >= 0) {
            restoreEvent_ = -1;
            autoSelected_ = true;
            list_->setCurrentIndex(model_->index(row));
        }
    } else if (!autoSelected_ && model_->rowCount() > 0) {
        // First conflict if there is one in this batch, else the first event.
        int row = 0;
        for (int r = 0; r < model_->rowCount(); ++r) {
            EventKind k = model_->event(r).kind;
            if (k == EventKind::Conflict || k == EventKind::AliasConflict ||
                k == EventKind::ParallelConflict || k == EventKind::ReduceConflict) {
                row = r;
                break;
            }
        }
        autoSelected_ = true;
        list_->setCurrentIndex(model_->index(row));
    }
    updateStatus();
}

bool TraceViewer::selectEvent(std::size_t eventIndex) {
    int row = model_->rowOfEvent(eventIndex);
    if (row < 0) return false;
    list_->setCurrentIndex(model_->index(row));
    return true;
}

int TraceViewer::findEvent(EventKind kind) const {
    for (const auto& e : model_->all())
        if (e.kind == kind) return int(e.index);
    return -1;
}

QString TraceViewer::currentMappingText(int side) const {
    return shownText_[side & 1];
}
QString TraceViewer::currentLayoutName(int side) const {
    return shownName_[side & 1];
}

void TraceViewer::emitOpen(int side) {
    if (shownText_[side & 1].isEmpty()) return;
    emit openInEditor(shownName_[side & 1], shownText_[side & 1]);
}

namespace {

// The kind in words, for names and the context line ("T.Parallel conflict", not
// "parallel_conflict").
QString kindWords(EventKind k) {
    switch (k) {
    case EventKind::Inferred:
        return QStringLiteral("inferred");
    case EventKind::Repr:
        return QStringLiteral("layout");
    case EventKind::Conflict:
        return QStringLiteral("conflict");
    case EventKind::AliasConflict:
        return QStringLiteral("alias conflict");
    case EventKind::ParallelConflict:
        return QStringLiteral("T.Parallel conflict");
    case EventKind::ReduceConflict:
        return QStringLiteral("ReduceOp conflict");
    case EventKind::Warning:
        return QStringLiteral("warning");
    case EventKind::Error:
        return QStringLiteral("error");
    }
    return {};
}

const Event* eventAt(const std::vector<Event>& all, std::size_t index) {
    if (index < all.size() && all[index].index == index) return &all[index];
    for (const Event& e : all)
        if (e.index == index) return &e;
    return nullptr;
}

// The first report of the conflict an event repeats (or the event itself).
const Event& original(const std::vector<Event>& all, const Event& e) {
    const Event* o = e.repeatOf ? eventAt(all, *e.repeatOf) : nullptr;
    return o ? *o : e;
}

} // namespace

const Event* TraceViewer::conflictOnLine(const Event& err) const {
    // TileLang raises a conflict as an exception whose message repeats it on the same line.
    if (err.kind != EventKind::Error) return nullptr;
    for (const Event& c : model_->all())
        if (c.line == err.line && ts::dump::isConflict(c.kind)) return &c;
    return nullptr;
}

const Event* TraceViewer::conflictOfError(const Event& err) const {
    const Event* c = conflictOnLine(err);
    return c ? &original(model_->all(), *c) : nullptr;
}

QString TraceViewer::emptyText() const {
    const QString file = QFileInfo(importer_->source()).fileName();
    if (importer_->sourceKind() == TraceImporter::Source::None || file.isEmpty())
        return QStringLiteral("Open a TileLang log (layout-visualization output, conflict errors) "
                              "or run a script.");
    if (model_->eventCount() > 0) return QStringLiteral("Select an event in the list.");
    if (!finishedOnce_ && importer_->state() != TraceImporter::State::Idle)
        return QStringLiteral("Reading %1… no layout events in %2 so far.")
            .arg(file, countNoun(importer_->linesRead(), QStringLiteral("line")));
    return QStringLiteral("No layout events in %1 of %2.")
        .arg(countNoun(importer_->linesRead(), QStringLiteral("line")), file);
}

const Event* TraceViewer::errorOfConflict(const Event& conflict) const {
    for (const Event& e : model_->all())
        if (e.kind == EventKind::Error)
            if (const Event* c = conflictOfError(e); c && c->index == conflict.index) return &e;
    return nullptr;
}

QString TraceViewer::contextText(const Event& shown, const Event* raisedBy) const {
    auto code = [](const std::string& t) {
        return QStringLiteral("<code>%1</code>").arg(QString::fromStdString(t).toHtmlEscaped());
    };
    QStringList parts;
    QString head = QStringLiteral("<b>%1</b>").arg(kindWords(shown.kind).toHtmlEscaped());
    if (!shown.buffer.empty()) head += QLatin1Char(' ') + code(shown.buffer);
    // An exception names its type ("tvm.error.InternalError"), as its row in the list does.
    if (shown.kind == EventKind::Error && !shown.message.empty())
        head += QLatin1Char(' ') + code(shown.message.substr(0, shown.message.find(':')));
    parts << head;
    parts << (shown.endLine > shown.line
                  ? QStringLiteral("lines %1–%2").arg(shown.line).arg(shown.endLine)
                  : QStringLiteral("line %1").arg(shown.line));
    if (!shown.span.empty()) {
        // The log quotes the spanned source line once, maybe only with a repeat of the event.
        std::string source = shown.spanSource;
        for (const Event& x : model_->all())
            if (source.empty() && x.span == shown.span) source = x.spanSource;
        QString span = QStringLiteral("--&gt; ") + code(shown.span);
        if (!source.empty()) span += QStringLiteral(" ") + code(source);
        parts << span;
    }
    if (raisedBy) {
        QString r = QStringLiteral("raised as %1 at line %2")
                        .arg(code(raisedBy->message.substr(0, raisedBy->message.find(':'))))
                        .arg(raisedBy->line);
        if (!raisedBy->location.empty()) r += QStringLiteral(" in ") + code(raisedBy->location);
        parts << r;
    } else if (!shown.location.empty()) {
        parts << QStringLiteral("raised in ") + code(shown.location);
    }
    return parts.join(QStringLiteral(" &nbsp;·&nbsp; "));
}

void TraceViewer::showNotice(const QString& text) {
    notice_->setText(text);
    notice_->setVisible(!text.isEmpty());
}

QString TraceViewer::noticeText() const {
    return notice_->isVisible() ? notice_->text() : QString();
}

void TraceViewer::showRow(int row) {
    shownName_[0] = shownName_[1] = shownText_[0] = shownText_[1] = QString();
    context_->clear();
    showNotice({}); // it told of another event's layout
    if (row < 0 || row >= model_->rowCount()) {
        empty_->setText(emptyText());
        pages_->setCurrentIndex(0);
        return;
    }
    const Event& selected = model_->event(row);
    // An exception that reports a conflict is shown as that exception (its line, where it was
    // raised) with the grids of the conflict its own message reports; a conflict shows the
    // exception that raised it, so both rows tell the same line numbers.
    const Event* reported = conflictOnLine(selected);
    const Event& e = reported ? *reported : selected;
    const Event* raisedBy = !reported && ts::dump::isConflict(e.kind)
                                ? errorOfConflict(original(model_->all(), e))
                                : nullptr;
    if (reported) {
        QString t = contextText(selected, nullptr);
        t += QStringLiteral(" &nbsp;·&nbsp; reports the %1 <code>%2</code> of ")
                 .arg(kindWords(e.kind).toHtmlEscaped(),
                      QString::fromStdString(e.buffer).toHtmlEscaped());
        t += e.endLine > e.line ? QStringLiteral("lines %1–%2").arg(e.line).arg(e.endLine)
                                : QStringLiteral("line %1").arg(e.line);
        const Event& first = original(model_->all(), e);
        if (&first != &e) t += QStringLiteral(" (first reported at line %1)").arg(first.line);
        context_->setText(t);
    } else {
        context_->setText(contextText(e, raisedBy));
    }
    auto [a, b] = e.comparedLayouts();
    const QString buf = QString::fromStdString(e.buffer);
    // "A_frag current · conflict, line 2": which buffer, which side, where in the log.
    auto nameOf = [&](const ts::dump::DumpLayout& l) {
        QString n = buf.isEmpty() ? QStringLiteral("layout") : buf;
        if (l.role != "layout") n += QLatin1Char(' ') + QString::fromStdString(l.role);
        // The loop side of a T.Parallel conflict is the loop's layout, not the buffer's.
        if (e.kind == EventKind::ParallelConflict && l.role == "loop")
            n = e.other.empty() ? QStringLiteral("T.Parallel loop")
                                : QStringLiteral("T.Parallel loop from %1")
                                      .arg(QString::fromStdString(e.other));
        return n + QStringLiteral(" · %1, line %2")
                       .arg(kindWords(e.kind))
                       .arg(l.line ? l.line : e.line);
    };
    if (a && b && a->value && b->value) {
        shownName_[0] = nameOf(*a);
        shownName_[1] = nameOf(*b);
        shownText_[0] = QString::fromStdString(a->mapping);
        shownText_[1] = QString::fromStdString(b->mapping);
        comparison_->setLayouts(
            *a->value, roleTitle(e, *a),
            QString::fromStdString(a->raw) + QStringLiteral("\n\n") + shownText_[0], *b->value,
            roleTitle(e, *b),
            QString::fromStdString(b->raw) + QStringLiteral("\n\n") + shownText_[1]);
        const auto& d = comparison_->diff();
        if (d && d->counts.differing() == 0)
            comparison_->setNote(QString::fromStdString(ts::dump::equalLayoutsReason(e)));
        pages_->setCurrentIndex(2);
        return;
    }
    const ts::dump::DumpLayout* l = nullptr;
    for (const auto& x : e.layouts)
        if (x.value) {
            l = &x;
            break;
        }
    if (l) {
        shownName_[0] = nameOf(*l);
        shownText_[0] = QString::fromStdString(l->mapping);
        try {
            single_->setModel(
                GridModel::fromMapping(*l->value, ViewMode::Input, ColorMode::Thread));
            single_->setMessage({});
        } catch (const std::exception& ex) {
            single_->setModel(GridModel());
            single_->setMessage(QString::fromUtf8(ex.what()));
        }
        single_->setBanner(e.ok() ? QString() : QString::fromStdString(e.problem));
        // The name says the buffer, the kind and the line ("x · inferred, line 12").
        singleTitle_->setText(QStringLiteral("<b>%1</b>").arg(shownName_[0].toHtmlEscaped()));
        QString t = shownText_[0] + QStringLiteral("\n\n") + QString::fromStdString(l->raw);
        if (!l->note.empty()) t += QStringLiteral("\n\nnote: ") + QString::fromStdString(l->note);
        text_->setPlainText(t);
        pages_->setCurrentIndex(1);
        return;
    }
    // The whole message (the list row shortens it).
    QString t = QStringLiteral("line %1  %2  %3\n")
                    .arg(e.line)
                    .arg(kindWords(e.kind),
                         QString::fromStdString(e.message.empty() ? e.buffer : e.message));
    if (!e.span.empty()) t += QStringLiteral("--> ") + QString::fromStdString(e.span) + '\n';
    if (!e.location.empty())
        t += QStringLiteral("raised at ") + QString::fromStdString(e.location) + '\n';
    if (!e.problem.empty())
        t += QStringLiteral("problem: ") + QString::fromStdString(e.problem) + '\n';
    for (const auto& x : e.layouts)
        if (!x.error.empty())
            t += QString::fromStdString(x.role) + QStringLiteral(": ") +
                 QString::fromStdString(x.error) + '\n';
    t += QLatin1Char('\n') + QString::fromStdString(e.raw);
    message_->setPlainText(t);
    pages_->setCurrentIndex(3);
}

QString TraceViewer::contextLine() const {
    return context_->text();
}

QString TraceViewer::statusText() const {
    int conflicts = 0, problems = 0;
    for (const auto& e : model_->all()) {
        if (!e.ok()) ++problems;
        if (!e.repeatOf &&
            (e.kind == EventKind::Conflict || e.kind == EventKind::AliasConflict ||
             e.kind == EventKind::ParallelConflict || e.kind == EventKind::ReduceConflict))
            ++conflicts;
    }
    QString s = QStringLiteral("%1, %2, %3 · %4")
                    .arg(countNoun(model_->eventCount(), QStringLiteral("event")),
                         countNoun(conflicts, QStringLiteral("conflict")),
                         countNoun(problems, QStringLiteral("problem")),
                         countNoun(importer_->linesRead(), QStringLiteral("line")));
    // Which log is shown (a sample, a trace() capture, one picked by hand): its file name.
    if (importer_->sourceKind() == TraceImporter::Source::File)
        s += QStringLiteral(" · ") + QFileInfo(importer_->source()).fileName();
    if (importer_->state() == TraceImporter::State::Following) s += QStringLiteral(" · following");
    if (importer_->state() == TraceImporter::State::Running) s += QStringLiteral(" · running");
    if (!lastError_.isEmpty()) s += QStringLiteral(" · ") + lastError_;
    return s;
}

void TraceViewer::updateStatus() {
    if (pages_->currentIndex() == 0) empty_->setText(emptyText());
    const QString s = statusText();
    status_->setText(s);
    status_->setToolTip(s);
    // Only a log file can be followed (ticking Follow before opening one is fine).
    const auto kind = importer_->sourceKind();
    follow_->setEnabled(kind == TraceImporter::Source::None || kind == TraceImporter::Source::File);
}

QDockWidget* installTraceDock(FeatureHost* host) {
    QMainWindow* window = host->hostWindow();
    auto* dock = new QDockWidget(QStringLiteral("Inference Trace"), window);
    dock->setObjectName(QStringLiteral("traceDock"));
    auto* viewer = new TraceViewer(dock);
    dock->setWidget(viewer);
    window->addDockWidget(Qt::BottomDockWidgetArea, dock);
    dock->hide();
    growWhenShown(window, dock, 0.5, 520); // two grids side by side need the height
    FeatureBus* bus = host->bus();
    DocumentModel* doc = host->document();
    // The notice "Added «name» ..." names the added layout by its id, not a copy of its name: a
    // rename renames it, and once the layout is gone (undo, delete, File > New or Open) so is the
    // notice, which would otherwise tell of a layout the project does not have.
    struct AddedNotice {
        LayoutId id = 0;
        QString text;
    };
    auto added = std::make_shared<AddedNotice>();
    auto showAdded = [doc, viewer, added] {
        if (!added->id) return;
        if (viewer->noticeText() != added->text) { // replaced by another notice meanwhile
            added->id = 0;
            return;
        }
        const QString name = doc->nameOf(added->id);
        added->text = name.isEmpty()
                          ? QString()
                          : QStringLiteral("Added «%1» to the project as a new layout and selected "
                                           "it in the editor (Edit ▸ Undo removes it).")
                                .arg(name);
        if (name.isEmpty()) added->id = 0;
        viewer->showNotice(added->text);
    };
    if (doc) {
        QObject::connect(doc, &DocumentModel::nameChanged, viewer, showAdded);
        QObject::connect(doc, &DocumentModel::layoutRemoved, viewer, showAdded);
        QObject::connect(doc, &DocumentModel::documentReset, viewer, showAdded);
    }
    QObject::connect(
        viewer, &TraceViewer::openInEditor, bus,
        [bus, doc, viewer, added, showAdded](const QString& name, const QString& text) {
            // The window adds the layout and makes it active (at once: one thread),
            // so the panel can say which name it got (a taken name is numbered).
            emit bus->openLayoutRequested(name, text, QStringLiteral("the inference trace"));
            const ts::DocLayout* layout = doc ? doc->activeLayout() : nullptr;
            if (!layout || layout->text != text.toStdString()) return;
            added->id = doc->activeId();
            added->text = viewer->noticeText(); // "ours" for showAdded, which words it
            showAdded();
        });
    QObject::connect(bus, &FeatureBus::tileLangOutput, viewer,
                     [viewer](const QByteArray& chunk) { viewer->importer()->feedText(chunk); });
    QObject::connect(bus, &FeatureBus::tileLangFinished, viewer,
                     [viewer] { viewer->importer()->finishText(); });
    dock->toggleViewAction()->setText(QStringLiteral("Inference &Trace"));
    host->panelsMenu()->addAction(dock->toggleViewAction());
    return dock;
}

} // namespace tsw
