// SPDX-License-Identifier: Apache-2.0
// NzSpliceView (see nz_splice_view.h).
#include "banks/nz_splice_view.h"

#include "banks/bank_overlays.h"
#include "grid/gridview.h"

#include "tilescope/banks/nz_splice.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace tsw {

namespace {

enum Status : std::int64_t {
    InPlace,      // the element one full copy puts there
    Wrong,        // another element
    Zero,         // zero where zero belongs (padding, rows no copy covers)
    ZeroForData,  // zero where an element belongs
    StaleForData, // old L1 contents where an element belongs
    StalePadding, // old L1 contents in padding: mmad reads it
    Lost,         // an element no longer anywhere in the tile (rows below the storage)
    NotCopied,    // an element no copy covers (rows below the storage)
};

QColor statusColor(std::int64_t s) {
    switch (s) {
    case InPlace:
        return QColor(200, 230, 201);
    case Wrong:
        return QColor(239, 120, 110);
    case Zero:
        return QColor(225, 225, 225);
    case ZeroForData:
        return QColor(253, 190, 120);
    case StaleForData:
        return QColor(150, 110, 170);
    case StalePadding:
        return QColor(205, 190, 215);
    case NotCopied:
        return QColor(245, 245, 245);
    default:
        return QColor(90, 90, 90);
    }
}

const char* statusName(std::int64_t s) {
    switch (s) {
    case InPlace:
        return "the element one full copy puts here";
    case Wrong:
        return "another element";
    case Zero:
        return "zero (padding, or rows no copy covers)";
    case ZeroForData:
        return "zero where an element belongs";
    case StaleForData:
        return "old L1 data where an element belongs";
    case StalePadding:
        return "old L1 data in padding (not cleared)";
    case NotCopied:
        return "element no copy covers (listed below the tile)";
    default:
        return "element lost from the tile (listed below it)";
    }
}

// The storage grid of `content` (per storage offset: logical cell, kZero or kStale): logical
// cells at their physical position, lost ones in extra rows, each physical cell coloured.
void showContent(GridView* view, const ts::FractalView& f, const std::vector<std::int64_t>& content,
                 const std::vector<char>& covered) {
    const std::int64_t R = f.rows, C = f.cols, PC = f.phys_cols;
    std::vector<std::int64_t> where(std::size_t(R * C), -1), expected(content.size(), -1);
    for (std::int64_t o = 0; o < std::int64_t(content.size()); ++o)
        if (content[std::size_t(o)] >= 0) where[std::size_t(content[std::size_t(o)])] = o;
    for (std::int64_t cell = 0; cell < R * C; ++cell)
        expected[std::size_t(f.offset[std::size_t(cell)])] = cell;
    std::int64_t lost = 0;
    for (std::int64_t cell = 0; cell < R * C; ++cell)
        if (where[std::size_t(cell)] < 0) ++lost;
    const std::int64_t extra = (lost + PC - 1) / PC;
    const std::int64_t PR = f.phys_rows + extra;
    std::vector<std::int64_t> pos, cats(std::size_t(PR * PC), -1), blocks(cats.size(), -1);
    pos.reserve(std::size_t(R * C) * 2);
    std::int64_t nextLost = 0;
    for (std::int64_t cell = 0; cell < R * C; ++cell) {
        const std::int64_t o = where[std::size_t(cell)];
        if (o >= 0) {
            auto [pr, pc] = f.physPos(o);
            pos.push_back(pr);
            pos.push_back(pc);
        } else {
            const std::int64_t k = nextLost++;
            pos.push_back(f.phys_rows + k / PC);
            pos.push_back(k % PC);
            cats[std::size_t((f.phys_rows + k / PC) * PC + k % PC)] =
                covered[std::size_t(cell)] ? Lost : NotCopied;
        }
    }
    std::vector<bool> seen(std::size_t(NotCopied + 1), false);
    for (std::int64_t o = 0; o < std::int64_t(content.size()); ++o) {
        auto [pr, pc] = f.physPos(o);
        const std::int64_t want = expected[std::size_t(o)], got = content[std::size_t(o)];
        const bool data = want >= 0 && covered[std::size_t(want)];
        std::int64_t s;
        if (got >= 0)
            s = got == want ? InPlace : Wrong;
        else if (got == ts::NzSplicePreview::kZero)
            s = data ? ZeroForData : Zero;
        else
            s = data ? StaleForData : StalePadding;
        cats[std::size_t(pr * PC + pc)] = s;
        blocks[std::size_t(pr * PC + pc)] = (pr / f.frac_rows) * 100000 + pc / f.frac_cols;
    }
    for (auto c : cats)
        if (c >= 0) seen[std::size_t(c)] = true;
    std::vector<LegendEntry> legend;
    for (std::int64_t s = InPlace; s <= NotCopied; ++s)
        if (seen[std::size_t(s)])
            legend.push_back({statusColor(s), QString::fromLatin1(statusName(s))});
    view->setModel(tableGrid({R, C}, 2, std::move(pos), {PR, PC}, ViewMode::Output));
    view->renderer().setCellColorOverlay(std::make_shared<CategoryOverlay>(
        int(PC), std::move(cats), 0xffffffff, statusColor, std::move(legend)));
    view->renderer().clearOverlays();
    view->renderer().addOverlay(
        std::make_shared<BlockOutlineOverlay>(int(PR), int(PC), std::move(blocks)));
    view->zoomToFit();
}

} // namespace

NzSpliceView::NzSpliceView(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("nzSpliceView"));
    copies_ = new QLineEdit(this);
    copies_->setObjectName(QStringLiteral("nzSpliceCopies"));
    copies_->setPlaceholderText(
        QStringLiteral("row ranges of the T.copy calls, e.g. 0:10, 10:20 (empty: no preview)"));
    copies_->setToolTip(QStringLiteral(
        "One T.copy(src, buf[r0:r1, c0:c1]) per entry, as r0:r1 or r0:r1 x c0:c1, half-open like "
        "Python slices; comma or newline separated."));
    stride_ = new QComboBox(this);
    stride_->addItem(QStringLiteral("C0 stride: the buffer's rows (tilelang-ascend)"),
                     QStringLiteral("tile"));
    stride_->addItem(QStringLiteral("C0 stride: the copy's rows (a DMA made for the slice)"),
                     QStringLiteral("copy"));
    stride_->setToolTip(QStringLiteral(
        "Nd2NzParams.dstNzC0Stride: the distance between C0 column blocks. tilelang-ascend's "
        "copy_gm_to_l1 builds the zN layout of the whole buffer, so it is the buffer's rows; a "
        "DMA built for the slice's own rows interleaves each copy over its rows (the failure "
        "reported in tilelang-ascend issue #1155)."));
    clear_ = new QComboBox(this);
    clear_->addItem(QStringLiteral("clear: only the copy at offset 0 (released)"),
                    QStringLiteral("offset0"));
    clear_->addItem(QStringLiteral("clear: every partial copy (before the fix)"),
                    QStringLiteral("every"));
    clear_->setToolTip(QStringLiteral(
        "copy_gm_to_l1 zero-fills rows x cols elements from its destination before a partial "
        "copy. Since tilelang-ascend PR #1243 only the copy at destination offset 0 does; "
        "before it every partial copy did, wiping the copies already made."));
    // The field on one row, the two choices under it, each free to elide its long text: in one
    // row they needed about 1000 px, more than the panel has docked beside the grid.
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(QStringLiteral("copies"), this));
    top->addWidget(copies_, 1);
    auto* choices = new QHBoxLayout;
    for (QComboBox* c : {stride_, clear_}) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(18);
        choices->addWidget(c, 1);
    }
    info_ = new QLabel(this);
    info_->setObjectName(QStringLiteral("nzSpliceInfo"));
    info_->setWordWrap(true);
    info_->setAlignment(Qt::AlignTop | Qt::AlignLeft); // stays under the fields when no grids
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    single_ = new GridView(this);
    splice_ = new GridView(this);
    grids_ = new QWidget(this);
    auto* gl = new QHBoxLayout(grids_);
    gl->setContentsMargins(0, 0, 0, 0);
    for (auto [title, v] : std::initializer_list<std::pair<const char*, GridView*>>{
             {"one T.copy of the whole tile (label: element held)", single_},
             {"after the copies (label: element held)", splice_}}) {
        v->setTitleVisible(false);
        v->setMinimumSize(240, 200);
        auto* box = new QGroupBox(QString::fromLatin1(title), this);
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(2, 2, 2, 2);
        bl->addWidget(v);
        gl->addWidget(box, 1);
    }
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addLayout(top);
    v->addLayout(choices);
    v->addWidget(info_);
    v->addWidget(grids_, 1);
    connect(copies_, &QLineEdit::textChanged, this, [this] { refresh(); });
    connect(stride_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(clear_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    refresh();
}

void NzSpliceView::setTile(std::int64_t rows, std::int64_t cols, const QString& dtype, bool zn) {
    rows_ = rows, cols_ = cols, dtype_ = dtype, zn_ = zn;
    refresh();
}

void NzSpliceView::setCopies(const QString& text) {
    copies_->setText(text);
}

void NzSpliceView::setBehaviour(const QString& stride, const QString& clear) {
    stride_->setCurrentIndex(std::max(0, stride_->findData(stride)));
    clear_->setCurrentIndex(std::max(0, clear_->findData(clear)));
}

QString NzSpliceView::summaryText() const {
    return info_->text();
}

bool NzSpliceView::refresh() {
    error_.clear();
    const QString text = copies_->text().trimmed();
    auto hide = [&](const QString& why) {
        grids_->hide();
        info_->setText(why);
        single_->setModel(GridModel());
        splice_->setModel(GridModel());
    };
    if (!zn_ || rows_ < 1) {
        hide(QStringLiteral("Several DMAs into one tile: choose zN (NZ), the arrangement GM -> "
                            "L1 copies write."));
        return false;
    }
    if (text.isEmpty()) {
        hide(QStringLiteral("Several DMAs into one tile: type the row ranges of the T.copy calls "
                            "(e.g. %1) to see what L1 holds after them.")
                 .arg(rows_ >= 2 ? QStringLiteral("0:%1, %1:%2").arg(rows_ / 2).arg(rows_)
                                 : QStringLiteral("0:1")));
        return false;
    }
    try {
        ts::NzSpliceOptions o;
        o.rows = rows_, o.cols = cols_, o.dtype = dtype_.toStdString();
        o.copies = ts::parseNzCopies(text.toStdString(), rows_, cols_);
        o.stride = ts::parseNzC0Stride(stride_->currentData().toString().toStdString());
        o.clear = ts::parseNzClear(clear_->currentData().toString().toStdString());
        const ts::NzSplicePreview p = ts::previewNzSplice(o);
        std::vector<char> all(std::size_t(rows_ * cols_), 1), covered(all.size(), 0);
        for (const auto& c : o.copies)
            for (std::int64_t r = c.row0; r < c.row0 + c.rows; ++r)
                for (std::int64_t k = c.col0; k < c.col0 + c.cols; ++k)
                    covered[std::size_t(r * cols_ + k)] = 1;
        showContent(single_, p.tile, p.single, all);
        showContent(splice_, p.tile, p.content, covered);
        single_->setLegendVisible(true);
        splice_->setLegendVisible(true);
        const bool placed =
            p.misplaced == 0 && p.written_past_tile == 0 && p.cleared_past_tile == 0;
        const QString verdict =
            p.correct() ? QStringLiteral("<b style='color:#1b5e20'>Same as one full copy.</b> ")
            : placed    ? QStringLiteral("<b style='color:#8a5a00'>Every element in place, but "
                                            "not all padding is zero.</b> ")
                        : QStringLiteral("<b style='color:#b71c1c'>Not what one full copy "
                                            "gives.</b> ");
        info_->setText(verdict + QString::fromStdString(p.summary()).toHtmlEscaped());
        grids_->show();
        return true;
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what());
        hide(QStringLiteral("<span style='color:#b71c1c'>%1</span>").arg(error_.toHtmlEscaped()));
        return false;
    }
}

} // namespace tsw
