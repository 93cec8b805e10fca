// SPDX-License-Identifier: Apache-2.0
// PanelPicture (see panel_picture.h).
#include "grid/panel_picture.h"

#include "grid/gridview.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextDocumentFragment>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace tsw {

namespace {

constexpr double kMargin = 14;
constexpr double kPartGap = 28;   // between parts side by side
constexpr double kHeaderGap = 10; // between the header and the parts
// Text sizes in scene units (pixel sizes: the same on every device, unlike point sizes).
constexpr int kTitlePx = 16, kLinePx = 12, kNotePx = 13, kLabelPx = 13;
// Bitmaps beyond this many pixels are refused (the grid export's own limit).
constexpr double kMaxPixels = 120e6;
// Recorded widgets and the text are laid out at 96 dpi: a QPicture replays its point-size fonts
// for that resolution, so SVG and PDF are written at it too.
constexpr int kDpi = 96;

QFont pxFont(int px, bool bold = false) {
    QFont f;
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}

struct TextLine {
    QString text;
    QFont font;
    QColor color;
};

std::vector<TextLine> headerLines(const PanelPicture& pic) {
    std::vector<TextLine> out;
    out.push_back({pic.what, pxFont(kTitlePx, true), QColor(20, 20, 20)});
    out.push_back({pic.layoutLine(), pxFont(kLinePx), QColor(60, 60, 60)});
    for (const QString& c : pic.caption)
        if (!c.isEmpty()) out.push_back({c, pxFont(kLinePx), QColor(30, 30, 30)});
    if (!pic.staleNote.isEmpty())
        out.push_back({pic.staleNote, pxFont(kNotePx, true), QColor(190, 20, 20)});
    return out;
}

QSizeF partSize(const PanelPicturePart& part) {
    QSizeF s = part.grid ? part.grid->sceneSize() : part.drawingSize;
    if (!part.label.isEmpty())
        s.setHeight(s.height() + QFontMetricsF(pxFont(kLabelPx, true)).height() + 4);
    return s;
}

double textWidth(const TextLine& l) {
    return QFontMetricsF(l.font).horizontalAdvance(l.text);
}

// Paints the whole page at `scale` device pixels per scene unit, the page's top left at (0, 0).
void paintPicture(QPainter& p, const PanelPicture& pic, QSizeF page, double scale) {
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.fillRect(QRectF(QPointF(0, 0), page * scale), Qt::white);
    double y = kMargin;
    p.save();
    p.scale(scale, scale);
    for (const TextLine& l : headerLines(pic)) {
        const QFontMetricsF fm(l.font);
        p.setFont(l.font);
        p.setPen(l.color);
        p.drawText(QPointF(kMargin, y + fm.ascent()), l.text);
        y += fm.height() + 2;
    }
    p.restore();
    y += kHeaderGap;
    double x = kMargin;
    const QFont labelFont = pxFont(kLabelPx, true);
    const QFontMetricsF lfm(labelFont);
    for (const PanelPicturePart& part : pic.parts) {
        double top = y;
        if (!part.label.isEmpty()) {
            p.save();
            p.scale(scale, scale);
            p.setFont(labelFont);
            p.setPen(QColor(20, 20, 20));
            p.drawText(QPointF(x, top + lfm.ascent()), part.label);
            p.restore();
            top += lfm.height() + 4;
        }
        if (part.grid) {
            const QSizeF s = part.grid->sceneSize() * scale;
            const QPointF origin(x * scale, top * scale);
            p.save();
            part.grid->paint(p, QRectF(origin, s), origin, scale);
            p.restore();
        } else {
            p.save();
            p.scale(scale, scale);
            p.translate(x, top);
            p.setClipRect(QRectF(QPointF(0, 0), part.drawingSize));
            p.drawPicture(QPointF(0, 0), part.drawing);
            p.restore();
        }
        x += partSize(part).width() + kPartGap;
    }
}

bool fail(QString* error, const QString& m) {
    if (error) *error = m;
    return false;
}

} // namespace

QString textRevision(const QString& text) {
    return QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha1).toHex().left(8));
}

QString plainTextOf(const QString& labelText) {
    return Qt::mightBeRichText(labelText)
               ? QTextDocumentFragment::fromHtml(labelText).toPlainText().simplified()
               : labelText.simplified();
}

QString PanelPicture::layoutLine() const {
    const QString name = layoutName.isEmpty() ? QStringLiteral("(unnamed)") : layoutName;
    return QStringLiteral("layout «%1» · text rev %2").arg(name, textRevision(layoutText));
}

QString PanelPicture::suggestedBaseName() const {
    QString base = (layoutName.isEmpty() ? QStringLiteral("layout") : layoutName) +
                   QLatin1Char('-') + what.section(QLatin1Char(':'), -1).trimmed();
    // Letters, digits, '-', '.', '_' (no commas or slashes), as the grid export names files.
    for (QChar& ch : base)
        if (!ch.isLetterOrNumber() && ch != QLatin1Char('-') && ch != QLatin1Char('.'))
            ch = QLatin1Char('_');
    while (base.contains(QStringLiteral("__")))
        base.replace(QStringLiteral("__"), QStringLiteral("_"));
    return base;
}

PanelPicturePart gridPart(const GridView* view, const QString& label) {
    PanelPicturePart part;
    part.label = label;
    GridRenderer r = view->renderer();
    GridRenderer::Style s = r.style();
    s.legendInScene = true;
    s.exportPage = true;
    s.title = view->titleVisible();
    r.setStyle(s);
    r.setHover(std::nullopt);
    // Overviews are built as they are painted: the writer has no view to deliver them later.
    r.setOverviewsArriveLater(false);
    part.grid = std::move(r);
    return part;
}

PanelPicturePart widgetPart(QWidget* widget, const QString& label) {
    PanelPicturePart part;
    part.label = label;
    part.drawingSize = widget->size();
    QPainter p(&part.drawing);
    widget->render(&p, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    p.end();
    return part;
}

QSizeF panelPictureSize(const PanelPicture& pic) {
    double w = 0, h = kMargin;
    for (const TextLine& l : headerLines(pic)) {
        w = std::max(w, textWidth(l));
        h += QFontMetricsF(l.font).height() + 2;
    }
    h += kHeaderGap;
    double row = 0, rowH = 0;
    for (std::size_t k = 0; k < pic.parts.size(); ++k) {
        const QSizeF s = partSize(pic.parts[k]);
        row += s.width() + (k ? kPartGap : 0);
        rowH = std::max(rowH, s.height());
    }
    w = std::max(w, row);
    return {std::ceil(w + 2 * kMargin), std::ceil(h + rowH + kMargin)};
}

bool writePanelPicture(const PanelPicture& pic, const QString& path, double scale, QString* error) {
    if (pic.parts.empty())
        return fail(error, QStringLiteral("nothing to export: the panel is empty"));
    const QString ext = QFileInfo(path).suffix().toLower();
    const QSizeF page = panelPictureSize(pic);
    QSaveFile f(path);
    auto commit = [&]() {
        if (!f.commit())
            return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        return true;
    };
    if (ext == QLatin1String("png")) {
        const QSize px(int(std::ceil(page.width() * scale)), int(std::ceil(page.height() * scale)));
        if (double(px.width()) * px.height() > kMaxPixels)
            return fail(error, QStringLiteral("the picture would be %1 × %2 px; choose a smaller "
                                              "size")
                                   .arg(px.width())
                                   .arg(px.height()));
        QImage img(px, QImage::Format_ARGB32_Premultiplied);
        if (img.isNull()) return fail(error, QStringLiteral("the image is too large to allocate"));
        {
            QPainter p(&img);
            paintPicture(p, pic, page, scale);
        }
        if (!f.open(QIODevice::WriteOnly))
            return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        if (!img.save(&f, "PNG")) {
            f.cancelWriting();
            return fail(error, QStringLiteral("cannot write image %1").arg(path));
        }
        return commit();
    }
    if (ext == QLatin1String("svg")) {
        QBuffer buf;
        buf.open(QIODevice::WriteOnly);
        QSvgGenerator gen;
        gen.setOutputDevice(&buf);
        gen.setResolution(kDpi);
        gen.setSize((page * scale).toSize());
        gen.setViewBox(QRectF(QPointF(0, 0), page * scale));
        gen.setTitle(pic.what);
        gen.setDescription(pic.layoutLine());
        {
            QPainter p;
            if (!p.begin(&gen)) return fail(error, QStringLiteral("cannot write SVG %1").arg(path));
            paintPicture(p, pic, page, scale);
        }
        if (!f.open(QIODevice::WriteOnly) || f.write(buf.data()) != buf.data().size()) {
            f.cancelWriting();
            return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        }
        return commit();
    }
    if (ext == QLatin1String("pdf")) {
        // PDF pages are limited to 200 inches (14400 pt); a larger page is scaled down to fit.
        const double toPt = 72.0 / kDpi;
        const double maxPt = 14400;
        const double longest = std::max(page.width(), page.height()) * scale * toPt;
        if (longest > maxPt) scale *= maxPt / longest;
        if (!f.open(QIODevice::WriteOnly))
            return fail(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
        {
            QPdfWriter w(&f);
            w.setResolution(kDpi);
            w.setPageSize(
                QPageSize(page * scale * toPt, QPageSize::Point, QString(), QPageSize::ExactMatch));
            w.setPageMargins(QMarginsF(0, 0, 0, 0));
            w.setTitle(pic.what + QStringLiteral(" — ") + pic.layoutLine());
            w.setCreator(QStringLiteral("Tilescope"));
            QPainter p;
            if (!p.begin(&w)) {
                f.cancelWriting();
                return fail(error, QStringLiteral("cannot write PDF %1").arg(path));
            }
            paintPicture(p, pic, page, scale);
        }
        if (f.size() == 0) {
            f.cancelWriting();
            return fail(error, QStringLiteral("cannot write %1").arg(path));
        }
        return commit();
    }
    return fail(error,
                QStringLiteral("unknown picture format '.%1' (use .png, .svg or .pdf)").arg(ext));
}

} // namespace tsw
