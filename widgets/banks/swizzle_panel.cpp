// SPDX-License-Identifier: Apache-2.0
// SwizzlePanel (see swizzle_panel.h).
#include "banks/swizzle_panel.h"

#include "banks/bank_overlays.h"
#include "common/result_state.h"
#include "common/wording.h"
#include "grid/gridview.h"
#include "grid/panel_export.h"

#include "tilescope/banks/swizzle_search.h"
#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace tsw {

namespace {

QColor bankColor(std::int64_t bank) {
    return QColor::fromHslF(std::fmod(double(bank) * 360.0 / 32.0, 360.0) / 360.0, 0.60, 0.78);
}

// The key to the grids' colours: the 32 banks' swatches, numbered.
class BankLegendStrip : public QWidget {
public:
    explicit BankLegendStrip(QWidget* parent) : QWidget(parent) {
        setObjectName(QStringLiteral("bankLegend"));
        setMinimumHeight(QFontMetrics(font()).height() * 2 + 8);
        setToolTip(QStringLiteral("Cells are coloured by the bank of their first byte"));
    }
    QSize sizeHint() const override { return {640, QFontMetrics(font()).height() * 2 + 8}; }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        const QFontMetricsF fm(font());
        const QString lead = QStringLiteral("colour = bank ");
        const double x0 = fm.horizontalAdvance(lead) + 4;
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRectF(0, 0, x0, fm.height() + 4), Qt::AlignVCenter | Qt::AlignLeft, lead);
        const double w = std::max(8.0, (width() - x0 - 4) / 32.0);
        for (int b = 0; b < 32; ++b) {
            const QRectF r(x0 + b * w, 1, w - 1, fm.height() + 2);
            p.fillRect(r, bankColor(b));
            const bool label = w >= fm.horizontalAdvance(QStringLiteral("00")) + 2 || b % 4 == 0;
            if (label)
                p.drawText(QRectF(r.left(), r.bottom() + 1, std::max(w, 16.0), fm.height()),
                           Qt::AlignLeft | Qt::AlignTop, QString::number(b));
        }
    }
};

// Shows a layout's logical tile coloured by the bank of each element.
void showBanks(GridView* v, const ts::Layout& l, const std::string& dtype) {
    ts::SharedTile tile(l, dtype);
    ts::Mapping m = l;
    v->setModel(GridModel::fromMapping(m, ViewMode::Input, ColorMode::Thread));
    std::vector<std::int64_t> banks(std::size_t(tile.cells())), addr(banks.size());
    for (std::int64_t c = 0; c < tile.cells(); ++c) {
        addr[std::size_t(c)] = tile.addressOfCell(c);
        banks[std::size_t(c)] = (addr[std::size_t(c)] / 4) % 32;
    }
    const int gridCols = v->model().cols();
    v->setCellToolTip([addr, gridCols](int r, int c) {
        const std::size_t i = std::size_t(r) * std::size_t(gridCols) + std::size_t(c);
        if (i >= addr.size()) return QString();
        return QStringLiteral("<b>cell</b> (%1, %2) · byte address %3<br><b>bank</b> %4 · "
                              "<b>word</b> %5 · 16-byte chunk %6")
            .arg(r)
            .arg(c)
            .arg(addr[i])
            .arg(addr[i] / 4 % 32)
            .arg(addr[i] / 4)
            .arg(addr[i] / 16);
    });
    v->renderer().setCellColorOverlay(std::make_shared<CategoryOverlay>(
        v->model().cols(), std::move(banks), 0xffe8e8e8, bankColor));
    // Outline the 8-row swizzle periods and the 16-byte chunks.
    const int cols = v->model().cols(), rows = v->model().rows();
    const std::int64_t epc = 16 / tile.elementBytes();
    std::vector<std::int64_t> blocks(std::size_t(rows) * std::size_t(cols));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            blocks[std::size_t(r * cols + c)] = (r / 8) * 100000 + r * 1000 + c / epc;
    v->renderer().clearOverlays();
    v->renderer().addOverlay(std::make_shared<BlockOutlineOverlay>(rows, cols, std::move(blocks),
                                                                   QColor(90, 90, 90), 1.2));
    v->setMessage(QString());
    v->setLegendVisible(false);
    v->zoomToFit();
    v->update();
}

QTableWidgetItem* item(const QString& s) {
    auto* it = new QTableWidgetItem(s);
    it->setFlags(it->flags() & ~Qt::ItemIsEditable);
    return it;
}

} // namespace

SwizzlePanel::SwizzlePanel(QWidget* parent) : QWidget(parent) {
    auto* pictures = new PanelExporter(this, QStringLiteral("Swizzle"));
    pictures->addPicture(QStringLiteral("Swizzle Preview"),
                         [this](QString* why) { return picture(why); });
    setObjectName(QStringLiteral("swizzlePanel"));
    rows_ = new QSpinBox(this);
    rows_->setRange(1, 1024);
    rows_->setValue(32);
    cols_ = new QSpinBox(this);
    cols_->setRange(1, 1024);
    cols_->setValue(64);
    dtype_ = new QComboBox(this);
    for (const std::string& d : ts::knownDtypes())
        if (ts::dtypeBits(d) % 8 == 0) dtype_->addItem(QString::fromStdString(d));
    dtype_->setCurrentText(QStringLiteral("float16"));
    width_ = new QComboBox(this);
    width_->addItems({QStringLiteral("32B"), QStringLiteral("64B"), QStringLiteral("128B")});
    width_->setCurrentIndex(2);
    write_ = new QLineEdit(QStringLiteral("fragment:T.Fragment([32, 64], forward_thread_fn=lambda "
                                          "i, j: i, forward_index_fn=lambda i, j: j)"),
                           this);
    read_ = new QLineEdit(QStringLiteral("ldmatrix:x4"), this);

    auto* top = new QHBoxLayout;
    for (auto [label, w] : std::initializer_list<std::pair<const char*, QWidget*>>{
             {"rows", rows_}, {"cols", cols_}, {"dtype", dtype_}, {"swizzle", width_}}) {
        top->addWidget(new QLabel(QString::fromLatin1(label), this));
        top->addWidget(w);
    }
    top->addStretch(1);

    xor_ = new QTableWidget(this);
    xor_->setObjectName(QStringLiteral("xorTable"));
    xor_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    xor_->horizontalHeader()->setDefaultSectionSize(34);
    xor_->verticalHeader()->setDefaultSectionSize(22);
    xor_->setFixedHeight(32 + 8 * 22 + 8);
    xor_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    xor_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    xor_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    xorCaption_ = new QLabel(this);
    xorCaption_->setWordWrap(true);
    verdict_ = new QLabel(this);
    verdict_->setObjectName(QStringLiteral("swizzleVerdict"));
    verdict_->setWordWrap(true);

    before_ = new GridView(this);
    after_ = new GridView(this);
    padded_ = new GridView(this);
    auto* gridBox = new QWidget(this);
    auto* grids = new QHBoxLayout(gridBox);
    grids->setContentsMargins(0, 0, 0, 0);
    for (auto [title, v] :
         std::initializer_list<std::pair<const char*, GridView*>>{{"before: row-major", before_},
                                                                  {"after: swizzled", after_},
                                                                  {"padded by 16 B", padded_}}) {
        v->setTitleVisible(false);
        // Compact: a tile's worth of height, not the whole panel's (the colours key is the
        // shared strip below, the numbers are on the grids' edges).
        v->setMinimumSize(220, 180);
        v->setMaximumHeight(300);
        auto* box = new QGroupBox(QString::fromLatin1(title), this);
        box->setMaximumHeight(330);
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(2, 2, 2, 2);
        bl->addWidget(v);
        grids->addWidget(box, 1);
    }
    auto* legend = new BankLegendStrip(this);

    results_ = new QTableWidget(0, 6, this);
    results_->setObjectName(QStringLiteral("swizzleResults"));
    results_->setHorizontalHeaderLabels({QStringLiteral("candidate"), QStringLiteral("write wf"),
                                         QStringLiteral("read wf"), QStringLiteral("total"),
                                         QStringLiteral("bytes"), QStringLiteral("note")});
    results_->horizontalHeader()->setStretchLastSection(true);
    results_->verticalHeader()->hide();
    results_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    results_->setMinimumHeight(200);
    proposal_ = new QLabel(this);
    proposal_->setObjectName(QStringLiteral("swizzleProposal"));
    proposal_->setWordWrap(true);
    auto* searchBtn = new QPushButton(QStringLiteral("Search"), this);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("write pattern"), write_);
    form->addRow(QStringLiteral("read pattern"), read_);

    // One row: the XOR table, then the tile before, after and padded; the verdict and the
    // colour key under them.
    auto* xorColumn = new QVBoxLayout;
    xorColumn->addWidget(xor_);
    xorColumn->addStretch(1);
    grids->insertLayout(0, xorColumn);

    auto* previewMarker = new QLabel(this);
    previewMarker->setObjectName(QStringLiteral("swizzleMarker"));
    previewMarker->setWordWrap(true);
    auto* searchMarker = new QLabel(this);
    searchMarker->setObjectName(QStringLiteral("swizzleSearchMarker"));
    searchMarker->setWordWrap(true);
    // Everything the preview computed, as one result (hidden under an error).
    auto* preview = new QWidget(this);
    auto* pv = new QVBoxLayout(preview);
    pv->setContentsMargins(0, 0, 0, 0);
    pv->addWidget(xorCaption_);
    pv->addWidget(gridBox);
    pv->addWidget(legend);
    pv->addWidget(verdict_);
    auto* v = new QVBoxLayout(this);
    v->addLayout(top);
    v->addWidget(previewMarker);
    v->addWidget(preview);
    v->addWidget(new QLabel(QStringLiteral("<b>Search</b>: cheapest layout for both patterns "
                                           "(wavefronts; ties by footprint)"),
                            this));
    v->addLayout(form);
    v->addWidget(searchBtn);
    v->addWidget(searchMarker);
    v->addWidget(proposal_);
    v->addWidget(results_, 1000); // spare height goes to the table, not the grids
    v->addStretch(1); // holds the rest at the top while results are hidden under an error

    // The XOR table, verdict and grids describe the tile above; the search table describes the
    // tile and patterns it was run for: when those change it is marked until Search runs again.
    preview_ = new ResultState(this);
    preview_->setMarker(previewMarker);
    preview_->addView(preview);
    search_ = new ResultState(this);
    search_->setMarker(searchMarker);
    search_->setStaleDelayMs(0);
    search_->setStaleText(
        QStringLiteral("⟲ the tile or the patterns changed: press Search for results that match"));
    search_->addView(proposal_);
    search_->addView(results_);

    auto update = [this] { refresh(); };
    auto searchInput = [this] { search_->invalidateNow(); };
    connect(rows_, &QSpinBox::valueChanged, this, update);
    connect(cols_, &QSpinBox::valueChanged, this, update);
    connect(dtype_, &QComboBox::currentTextChanged, this, update);
    connect(width_, &QComboBox::currentIndexChanged, this, update);
    for (QSpinBox* b : {rows_, cols_})
        connect(b, &QSpinBox::valueChanged, this, searchInput);
    connect(dtype_, &QComboBox::currentTextChanged, this, searchInput);
    for (QLineEdit* e : {write_, read_})
        connect(e, &QLineEdit::textChanged, this, searchInput);
    connect(searchBtn, &QPushButton::clicked, this, [this] { runSearch(); });
    refresh();
    runSearch();
}

void SwizzlePanel::setTile(int r, int c, const QString& d) {
    const bool changed = r != rows_->value() || c != cols_->value() || d != dtype_->currentText();
    rows_->blockSignals(true);
    cols_->blockSignals(true);
    rows_->setValue(r);
    cols_->setValue(c);
    rows_->blockSignals(false);
    cols_->blockSignals(false);
    dtype_->setCurrentText(d);
    if (changed) search_->invalidateNow();
    refresh();
}

void SwizzlePanel::setSwizzleBytes(int b) {
    width_->setCurrentIndex(b == 32 ? 0 : b == 64 ? 1 : 2);
    refresh();
}

void SwizzlePanel::setPatterns(const QString& w, const QString& r) {
    write_->setText(w);
    read_->setText(r);
}

QString SwizzlePanel::verdictText() const {
    return verdict_->text();
}
QString SwizzlePanel::searchText() const {
    return proposal_->text();
}

bool SwizzlePanel::refresh() {
    const quint64 gen = preview_->invalidate();
    auto fail = [&](const QString& e) {
        error_ = e;
        xor_->clear();
        xorCaption_->clear();
        verdict_->clear();
        for (GridView* g : {before_, after_, padded_})
            g->setModel(GridModel());
        preview_->fail(gen, e);
        return false;
    };
    const std::string dtype = dtype_->currentText().toStdString();
    const int bytes = width_->currentIndex() == 0 ? 32 : width_->currentIndex() == 1 ? 64 : 128;
    const std::int64_t R = rows_->value(), C = cols_->value();
    try {
        ts::XorTable t = ts::xorTable(bytes, dtype);
        xor_->setRowCount(8);
        xor_->setColumnCount(t.k);
        QStringList hs, vs;
        for (int c = 0; c < t.k; ++c)
            hs << QStringLiteral("c%1").arg(c);
        for (int s = 0; s < 8; ++s)
            vs << QStringLiteral("row %1").arg(s);
        xor_->setHorizontalHeaderLabels(hs);
        xor_->setVerticalHeaderLabels(vs);
        for (int s = 0; s < 8; ++s)
            for (int c = 0; c < t.k; ++c) {
                const int p = t.table[std::size_t(s)][std::size_t(c)];
                auto* it = item(QString::number(p));
                it->setTextAlignment(Qt::AlignCenter);
                it->setBackground(QColor::fromRgba(categoricalColor(p)));
                xor_->setItem(s, c, it);
            }
        // The table as wide as its columns (it was stretched over half the panel).
        xor_->setFixedWidth(xor_->verticalHeader()->sizeHint().width() +
                            t.k * xor_->horizontalHeader()->defaultSectionSize() + 4);
        xorCaption_->setText(
            QStringLiteral("<b>%1 XOR table</b> for %2 (%3 B/element): logical 16-byte chunk c "
                           "of row s (mod 8) is stored at chunk table[s][c]; a chunk holds %4 "
                           "elements, a swizzled row %5 columns.")
                .arg(QString::number(bytes) + QStringLiteral("B"))
                .arg(QString::fromStdString(dtype))
                .arg(t.element_bytes)
                .arg(t.elements_per_chunk)
                .arg(t.columns));
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
    }
    std::vector<ts::SwizzleCandidate> cands;
    try {
        cands = ts::swizzleCandidates(R, C, dtype);
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
    }
    if (cands.empty()) return fail(QStringLiteral("no layout candidates for this tile"));
    auto find = [&](const std::string& name) -> const ts::SwizzleCandidate& {
        for (const auto& c : cands)
            if (c.name == name) return c;
        return cands.front();
    };
    const ts::SwizzleCandidate& rm = find("row-major");
    const ts::SwizzleCandidate& sw = find(std::to_string(bytes) + "B swizzle");
    const ts::SwizzleCandidate& pad = find("pad 16 B");
    QString verdict;
    try {
        if (rm.layout) showBanks(before_, *rm.layout, dtype);
        if (pad.layout) showBanks(padded_, *pad.layout, dtype);
        if (sw.legal && sw.layout) {
            showBanks(after_, *sw.layout, dtype);
            verdict = sw.bijective
                          ? QStringLiteral("<b style='color:#1b7f3b'>%1: bijective</b> onto "
                                           "[0, %2) elements: a permutation of the tile, no "
                                           "padding.")
                                .arg(QString::fromStdString(sw.name))
                                .arg(R * C)
                          : QStringLiteral("<b style='color:#b00020'>%1: not bijective</b>: %2")
                                .arg(QString::fromStdString(sw.name),
                                     QString::fromStdString(sw.problem).toHtmlEscaped());
        } else {
            after_->setModel(GridModel());
            after_->setMessage(QStringLiteral("illegal here"));
            verdict = QStringLiteral("<b style='color:#b00020'>%1 is illegal for %2x%3</b>: %4")
                          .arg(QString::fromStdString(sw.name))
                          .arg(R)
                          .arg(C)
                          .arg(QString::fromStdString(sw.problem).toHtmlEscaped());
        }
        if (pad.layout)
            verdict += QStringLiteral("<br>Padding by 16 B is injective but not onto "
                                      "(%1): it costs %2 B instead of %3 B.")
                           .arg(countNoun(ts::SharedTile(*pad.layout, dtype).footprintBytes() /
                                                  ts::dtypeBytes(dtype) -
                                              R * C,
                                          QStringLiteral("hole")))
                           .arg(ts::SharedTile(*pad.layout, dtype).footprintBytes())
                           .arg(R * C * ts::dtypeBytes(dtype));
        verdict += QStringLiteral("<br><i>Cells are coloured by the bank of their first byte; "
                                  "thin lines: 16-byte chunks.</i>");
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
    }
    verdict_->setText(verdict);
    error_.clear();
    preview_->publish(gen);
    return true;
}

bool SwizzlePanel::runSearch() {
    const quint64 gen = search_->invalidate();
    const std::string dtype = dtype_->currentText().toStdString();
    ts::SwizzleSearch s;
    try {
        s = ts::searchSwizzle(rows_->value(), cols_->value(), dtype, write_->text().toStdString(),
                              read_->text().toStdString());
    } catch (const std::exception& e) {
        error_ = QString::fromUtf8(e.what());
        proposal_->clear();
        results_->setRowCount(0);
        search_->fail(gen, error_);
        return false;
    }
    results_->setRowCount(int(s.candidates.size()));
    for (std::size_t i = 0; i < s.candidates.size(); ++i) {
        const ts::SwizzleCandidate& c = s.candidates[i];
        const int r = int(i);
        results_->setItem(r, 0, item(QString::fromStdString(c.name)));
        if (c.legal) {
            results_->setItem(r, 1, item(QString::number(c.write_wavefronts)));
            results_->setItem(r, 2, item(QString::number(c.read_wavefronts)));
            results_->setItem(r, 3, item(QString::number(c.total())));
            results_->setItem(r, 4, item(QString::number(c.footprint_bytes)));
            results_->setItem(r, 5,
                              item(c.bijective ? QStringLiteral("bijective")
                                               : QString::fromStdString(c.problem)));
        } else {
            for (int k = 1; k < 5; ++k)
                results_->setItem(r, k, item(QStringLiteral("—")));
            results_->setItem(
                r, 5, item(QStringLiteral("not usable: ") + QString::fromStdString(c.problem)));
        }
        for (int k = 0; k < 6; ++k) {
            QTableWidgetItem* it = results_->item(r, k);
            if (int(i) == s.best) {
                QFont f = it->font();
                f.setBold(true);
                it->setFont(f);
                it->setBackground(QColor(200, 230, 201));
            } else if (!c.legal) {
                it->setForeground(QColor(140, 140, 140));
            }
        }
    }
    results_->resizeColumnsToContents();
    search_->publish(gen);
    if (s.best < 0) {
        proposal_->setText(QStringLiteral("No candidate serves both patterns."));
        return true;
    }
    const ts::SwizzleCandidate& b = s.candidates[std::size_t(s.best)];
    proposal_->setText(QStringLiteral("<b>Proposal: %1</b> — %2 (write %3 + read %4), "
                                      "%5 B. <code>%6</code>")
                           .arg(QString::fromStdString(b.name))
                           .arg(countNoun(b.total(), QStringLiteral("wavefront")))
                           .arg(b.write_wavefronts)
                           .arg(b.read_wavefronts)
                           .arg(b.footprint_bytes)
                           .arg(QString::fromStdString(b.code).toHtmlEscaped()));
    return true;
}

} // namespace tsw
