// SPDX-License-Identifier: Apache-2.0
// The lesson handout (see lesson_handout.h).
#include "banks/lesson_handout.h"

#include "banks/bank_analysis.h"
#include "banks/bank_heat.h"
#include "banks/bank_overlays.h"

#include "tilescope/banks/fractal.h"
#include "tilescope/notation/mapping.h"

#include <QFileInfo>
#include <QFontMetricsF>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <algorithm>

namespace tsw {

namespace {

// Painter units per point: the page is laid out in points, drawn at 288 dpi so that the grid's
// cell labels (drawn only from Style::minLabelPx device pixels on) show on cells a few points
// wide, as they would on a printed page.
constexpr double kDpi = 288;
constexpr double kUnit = kDpi / 72.0;
constexpr double kMargin = 30; // points
// Scene units to points for the pictures: their titles (20 units) and legends (11) come out at
// 13 and 7 points, under the page's own title and caption.
constexpr double kPictureText = 0.65;

QString stepName(const ts::Document& doc, int i) {
    return QStringLiteral("Step %1 «%2»")
        .arg(i + 1)
        .arg(QString::fromStdString(doc.layouts[std::size_t(i)].name));
}

GridRenderer::Style pageStyle() {
    // The grid export's page: title, headers and the legend under the cells.
    GridRenderer::Style s;
    s.legendInScene = true;
    s.exportPage = true;
    return s;
}

GridRenderer pageRenderer(GridModel m) {
    GridRenderer r(std::move(m), pageStyle());
    r.setOverviewsArriveLater(false); // no view to deliver them later
    return r;
}

// The fractal panel's logical view: each cell labelled with its storage offset, coloured and
// outlined by fractal block.
GridRenderer fractalRenderer(const ts::FractalView& f) {
    GridRenderer r = pageRenderer(
        tableGrid({f.rows, f.cols}, 1, f.offset, {f.footprint_elements}, ViewMode::Input));
    // No legend, as in the panel: the colours are the blocks (outlined), not the offsets the
    // model's legend would name.
    GridRenderer::Style st = r.style();
    st.legendInScene = false;
    r.setStyle(st);
    const int R = int(f.rows), C = int(f.cols);
    std::vector<std::int64_t> blocks(std::size_t(R) * std::size_t(C));
    for (int row = 0; row < R; ++row)
        for (int col = 0; col < C; ++col)
            blocks[std::size_t(row * C + col)] = f.logicalBlock(row, col);
    r.setCellColorOverlay(std::make_shared<CategoryOverlay>(C, blocks));
    r.addOverlay(std::make_shared<BlockOutlineOverlay>(R, C, std::move(blocks)));
    return r;
}

QFont pageFont(double points, bool bold = false, bool mono = false) {
    // A monospace family by hint (the platform theme's fixed font is not asked for: this runs
    // on a worker thread).
    QFont f;
    if (mono) {
        f.setFamily(QStringLiteral("monospace"));
        f.setStyleHint(QFont::Monospace);
    }
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

// Draws `r` to fit `box` (painter units), centred horizontally at the top. The cells are
// sized to the box so that the page's texts (title, headers, legend) keep their natural size,
// in proportion to the page (kPictureText), as on the grid export's page; only what is still
// too large is scaled down as a whole.
void paintFitted(QPainter& p, const GridRenderer& fitted, const QRectF& box) {
    if (box.isEmpty() || fitted.model().isEmpty()) return;
    GridRenderer r = fitted;
    GridRenderer::Style st = r.style();
    const QSizeF natural = r.sceneSize();
    const int rows = std::max(1, r.model().rows()), cols = std::max(1, r.model().cols());
    const double fixedW = natural.width() - st.cell * cols,
                 fixedH = natural.height() - st.cell * rows;
    const double unit = kUnit * kPictureText; // painter units per scene unit
    const double cellW = (box.width() / unit - fixedW) / cols;
    const double cellH = (box.height() / unit - fixedH) / rows;
    st.cell = std::clamp(std::min(cellW, cellH), 2.0, st.cell);
    r.setStyle(st);
    const QSizeF scene = r.sceneSize();
    if (scene.isEmpty()) return;
    const double s = std::min({kUnit, box.width() / scene.width(), box.height() / scene.height()});
    const QPointF origin(box.left() + (box.width() - scene.width() * s) / 2, box.top());
    p.save();
    p.setClipRect(box);
    r.paint(p, QRectF(origin, scene * s), origin, s);
    p.restore();
}

// Draws `text` wrapped in the width of `box` from its top; returns the height used.
double paintWrapped(QPainter& p, const QString& text, const QFont& font, const QRectF& box) {
    if (text.isEmpty()) return 0;
    p.setFont(font);
    const QRectF used = p.boundingRect(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    p.drawText(box, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, text);
    return used.height();
}

void paintPage(QPainter& p, const HandoutPage& pg, const QSizeF& page) {
    const double m = kMargin * kUnit;
    const double width = page.width() - 2 * m;
    double y = m;
    p.setPen(Qt::black);
    y += paintWrapped(p, pg.title, pageFont(16, true), QRectF(m, y, width, 40 * kUnit));
    y += 4 * kUnit;
    y += paintWrapped(p, pg.caption, pageFont(11), QRectF(m, y, width, 80 * kUnit));
    y += 10 * kUnit;
    // From the bottom up: the mapping text, then the numbers; the pictures take what is left.
    const QFont mono = pageFont(8, false, true);
    const QString mapping = QStringLiteral("Mapping: ") + pg.mappingText;
    p.setFont(mono);
    const double mappingH =
        p.boundingRect(QRectF(m, 0, width, page.height()), Qt::TextWrapAnywhere, mapping).height();
    const double mappingTop = page.height() - m - mappingH;
    p.drawText(QRectF(m, mappingTop, width, mappingH + kUnit), Qt::TextWrapAnywhere, mapping);
    const QFont numbers = pageFont(9);
    const double lineH = QFontMetricsF(numbers, p.device()).lineSpacing();
    const double numbersTop = mappingTop - 6 * kUnit - lineH * pg.numbers.size();
    p.setFont(numbers);
    for (int k = 0; k < pg.numbers.size(); ++k)
        p.drawText(QPointF(m, numbersTop + lineH * k + QFontMetricsF(numbers, p.device()).ascent()),
                   pg.numbers[k]);
    const double picturesBottom = numbersTop - 8 * kUnit;
    const QFont label = pageFont(9, true);
    const double labelH = QFontMetricsF(label, p.device()).lineSpacing();
    const double gap = 16 * kUnit;
    const double boxW = pg.analysis ? (width - gap) / 2 : width;
    auto picture = [&](double x, const QString& text, const GridRenderer& r) {
        p.setFont(label);
        p.drawText(QRectF(x, y, boxW, labelH), Qt::AlignLeft | Qt::AlignTop, text);
        paintFitted(p, r,
                    QRectF(x, y + labelH + 2 * kUnit, boxW,
                           std::max(0.0, picturesBottom - y - labelH - 2 * kUnit)));
    };
    picture(m, pg.layoutLabel, pg.layout);
    if (pg.analysis) picture(m + boxW + gap, pg.analysisLabel, *pg.analysis);
}

} // namespace

QString handoutRefusal(const ts::Document& doc) {
    if (doc.layouts.empty()) return QStringLiteral("The project has no layouts to hand out.");
    for (std::size_t i = 0; i < doc.layouts.size(); ++i) {
        try {
            (void)ts::parseMapping(doc.layouts[i].text);
        } catch (const std::exception& e) {
            return QStringLiteral("%1: its text has an error: %2")
                .arg(stepName(doc, int(i)),
                     QString::fromUtf8(e.what()).split(QLatin1Char('\n')).first());
        }
    }
    return {};
}

std::optional<HandoutPage> handoutPage(const ts::Document& doc, int i, QString* error) {
    auto fail = [&](const QString& why) -> std::optional<HandoutPage> {
        if (error) *error = QStringLiteral("%1: %2").arg(stepName(doc, i), why);
        return std::nullopt;
    };
    if (i < 0 || i >= int(doc.layouts.size())) return fail(QStringLiteral("no such step"));
    const ts::DocLayout& l = doc.layouts[std::size_t(i)];
    const int n = int(doc.layouts.size());
    HandoutPage pg;
    pg.title =
        QStringLiteral("Step %1 of %2 · %3").arg(i + 1).arg(n).arg(QString::fromStdString(l.name));
    pg.caption = QString::fromStdString(l.caption);
    pg.mappingText = QString::fromStdString(l.text);
    ts::Shape shape;
    try {
        const ts::Mapping mapping = ts::parseMapping(l.text);
        shape = std::holds_alternative<ts::Layout>(mapping)
                    ? std::get<ts::Layout>(mapping).inputShape()
                    : std::get<ts::Fragment>(mapping).inputShape();
        const ViewMode view = viewModeFromString(l.view.view);
        pg.layout =
            pageRenderer(GridModel::fromMapping(mapping, view, colorModeFromString(l.view.color)));
        pg.layoutLabel =
            QStringLiteral("The layout (%1 view)")
                .arg(view == ViewMode::Output ? QStringLiteral("output") : QStringLiteral("input"));
    } catch (const std::exception& e) {
        return fail(QStringLiteral("its text has an error: %1")
                        .arg(QString::fromUtf8(e.what()).split(QLatin1Char('\n')).first()));
    }
    const ts::AnalysisSettings& a = l.analysis;
    if (a.panel == "banks") {
        BankInput in;
        in.layoutText = pg.mappingText;
        in.accessText = QString::fromStdString(a.access);
        in.dtype = QString::fromStdString(a.dtype.empty() ? "float16" : a.dtype);
        in.vector = a.vector;
        in.store = a.store;
        const BankAnalysis r = analyzeBanks(in);
        if (!r.ok || !r.cost)
            return fail(QStringLiteral("its bank analysis has an error: %1").arg(r.error));
        const int count = int(r.cost->instructions.size());
        const int step = a.step >= 0 && a.step < count ? a.step : -1;
        GridRenderer heat = pageRenderer(r.grid);
        // No title, as in the panel: the model's would name the layout's offsets ("label and
        // colour: flattened physical offset") over cells that show banks; the label above the
        // picture says what it is.
        GridRenderer::Style st = heat.style();
        st.title = false;
        heat.setStyle(st);
        applyBankHeat(heat, *r.tile, *r.plan, *r.cost, step);
        pg.analysis = std::move(heat);
        pg.analysisLabel =
            QStringLiteral("Bank conflicts: %1, %2%3%4, %5")
                .arg(r.access, r.dtype,
                     a.vector > 0 ? QStringLiteral(", %1 per lane").arg(a.vector) : QString(),
                     a.store ? QStringLiteral(", store") : QString(),
                     step >= 0 ? QStringLiteral("instruction %1 of %2").arg(step + 1).arg(count)
                               : QStringLiteral("all instructions"));
        pg.numbers << bankTotalsText(*r.cost);
        if (step >= 0)
            pg.numbers << QStringLiteral("shown: ") + bankStepText(*r.plan, *r.cost, step);
        pg.numbers << bankInstructionLines(*r.plan, *r.cost, 12);
    } else if (a.panel == "fractal") {
        if (shape.size() != 2) return fail(QStringLiteral("a fractal analysis needs a 2-D tile"));
        try {
            const ts::FractalView f =
                ts::fractalView(ts::parseFractalKind(a.fractal), shape[0], shape[1],
                                a.dtype.empty() ? "float16" : a.dtype);
            pg.analysis = fractalRenderer(f);
            pg.analysisLabel =
                QStringLiteral("Ascend fractal %1: storage offset per element, by fractal block")
                    .arg(QString::fromStdString(ts::fractalKindLabel(f.kind)));
            pg.numbers << QStringLiteral("%1×%2 %3: C0 = %4, fractals of %5×%6, %7 fractals")
                              .arg(f.rows)
                              .arg(f.cols)
                              .arg(QString::fromStdString(a.dtype))
                              .arg(f.c0)
                              .arg(f.frac_rows)
                              .arg(f.frac_cols)
                              .arg(f.fractals)
                       << QStringLiteral("storage: %1 elements (%2 bytes), %3 of them padding")
                              .arg(f.footprint_elements)
                              .arg(f.footprint_bytes())
                              .arg(f.padding_elements());
        } catch (const std::exception& e) {
            return fail(QStringLiteral("its fractal analysis has an error: %1")
                            .arg(QString::fromUtf8(e.what())));
        }
    }
    return pg;
}

HandoutOutcome writeLessonHandout(const ts::Document& doc, const QString& path,
                                  ExportProgress* progress) {
    HandoutOutcome out;
    if (const QString no = handoutRefusal(doc); !no.isEmpty()) {
        out.error = no;
        return out;
    }
    if (QFileInfo(path).suffix().toLower() != QLatin1String("pdf")) {
        out.error = QStringLiteral("a handout is a PDF: name the file .pdf");
        return out;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        out.error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return out;
    }
    const int n = int(doc.layouts.size());
    {
        QPdfWriter w(&file);
        w.setResolution(int(kDpi));
        w.setPageSize(QPageSize(QPageSize::A4));
        w.setPageOrientation(QPageLayout::Landscape);
        w.setPageMargins(QMarginsF(0, 0, 0, 0));
        w.setTitle(doc.title.empty() ? QStringLiteral("Lesson handout")
                                     : QString::fromStdString(doc.title));
        w.setCreator(QStringLiteral("Tilescope"));
        QPainter p;
        for (int i = 0; i < n; ++i) {
            if (progress && progress->cancelled.load()) {
                out.cancelled = true;
                break;
            }
            QString error;
            const auto page = handoutPage(doc, i, &error);
            if (!page) {
                out.error = error;
                break;
            }
            if (i == 0 ? !p.begin(&w) : !w.newPage()) {
                out.error = QStringLiteral("cannot write PDF %1").arg(path);
                break;
            }
            const QSizeF size(w.width(), w.height());
            p.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
            paintPage(p, *page, size);
            ++out.pages;
            if (progress) progress->permille.store(1000 * (i + 1) / n);
        }
        if (p.isActive()) p.end();
    }
    if (out.cancelled || !out.error.isEmpty() || out.pages != n) {
        file.cancelWriting();
        return out;
    }
    if (!file.commit()) {
        out.error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return out;
    }
    out.ok = true;
    return out;
}

} // namespace tsw
