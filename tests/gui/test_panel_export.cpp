// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen) for Export Picture on the panels: the bank heat map and histogram, the trace
// comparison, the fractal and swizzle previews and the Ascend UB panel, each written as PNG, SVG
// and PDF off the UI thread. The files are read back: the PNG's pixel size is the picture's, the
// SVG holds the header's and the labels' text (real text, not paths), the PDF has a page. Numbers
// that are being recomputed are refused, and a failed write leaves the previous file in place.
#include "test_gui_common.h"

#include "banks/bank_panel.h"
#include "banks/bank_ub_panel.h"
#include "banks/fractal_panel.h"
#include "banks/swizzle_panel.h"
#include "common/result_state.h"
#include "document/documentmodel.h"
#include "grid/panel_export.h"
#include "trace/trace_viewer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace tsw;

namespace {

PanelExporter* exporterOf(QWidget* panel) {
    return panel->findChild<PanelExporter*>(QStringLiteral("panelExporter"),
                                            Qt::FindDirectChildrenOnly);
}

// Exports picture `k` of `panel` to `path` and waits for the worker; the error, empty on success.
QString exportAndWait(QWidget* panel, int k, const QString& path, double scale = 1.0) {
    PanelExporter* ex = exporterOf(panel);
    if (!ex) return QStringLiteral("no exporter");
    QSignalSpy done(ex, &PanelExporter::finished);
    QString err;
    if (!ex->exportTo(k, path, scale, &err)) return QStringLiteral("refused: ") + err;
    if (!done.wait(20000)) return QStringLiteral("timed out");
    const auto args = done.takeFirst();
    return args.at(0).toBool() ? QString() : args.at(2).toString();
}

// The pictures are kept for a look (TILESCOPE_TEST_OUT/panel-export).
void keepForALook(const QString& path) {
    QString d = qEnvironmentVariable("TILESCOPE_TEST_OUT");
    if (d.isEmpty()) return;
    d += QStringLiteral("/panel-export");
    QDir().mkpath(d);
    const QString to = d + QLatin1Char('/') + QFileInfo(path).fileName();
    QFile::remove(to);
    QFile::copy(path, to);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Checks the three formats of one picture: `texts` must all be in the SVG as text.
void checkAllFormats(QWidget* panel, int k, const QString& base, const QStringList& texts,
                     QSizeF expectSize) {
    const QString png = base + QStringLiteral(".png"), svg = base + QStringLiteral(".svg"),
                  pdf = base + QStringLiteral(".pdf");
    QString err = exportAndWait(panel, k, png);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    const QImage img(png);
    QVERIFY(!img.isNull());
    keepForALook(png);
    QCOMPARE(img.size(), expectSize.toSize());
    // Not a blank page: the grid's colours are there.
    QSet<QRgb> colours;
    for (int y = 0; y < img.height(); y += 3)
        for (int x = 0; x < img.width(); x += 3)
            colours.insert(img.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));

    err = exportAndWait(panel, k, svg);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    const QString s = QString::fromUtf8(readAll(svg));
    keepForALook(svg);
    QVERIFY(s.startsWith(QStringLiteral("<?xml")) || s.contains(QStringLiteral("<svg")));
    for (const QString& t : texts)
        QVERIFY2(s.contains(t.toHtmlEscaped()), qPrintable(QStringLiteral("SVG lacks: ") + t));

    err = exportAndWait(panel, k, pdf, 2.0);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    const QByteArray p = readAll(pdf);
    keepForALook(pdf);
    QVERIFY(p.startsWith("%PDF-"));
    QVERIFY(p.contains("/Type /Page\n") || p.contains("/Type /Page "));
    QVERIFY(p.size() > 2000);
}

} // namespace

class TestPanelExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void bankHeatMapAndHistogram() {
        QTemporaryDir dir;
        // The panel names a layout of a project by its identity, looked up when drawn.
        DocumentModel doc;
        doc.addLayout({"smem A tile", "T.Layout([32, 32], lambda i, j: i * 32 + j)", {}, {}});
        BankPanel p;
        p.setDocument(&doc);
        p.resize(1100, 700);
        p.show();
        p.setSourceLayout(doc.activeId(),
                          QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"));
        QVERIFY(p.analyze());
        QTRY_COMPARE(p.resultState()->state(), ResultState::State::Current);
        PanelExporter* ex = exporterOf(&p);
        QVERIFY(ex);
        QCOMPARE(ex->pictureCount(), 2);
        const QString rev =
            textRevision(QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"));
        auto pic = p.heatMapPicture(nullptr);
        QVERIFY(pic);
        QCOMPARE(pic->layoutName, QStringLiteral("smem A tile"));
        const QString totals = plainTextOf(p.totalsText());
        QVERIFY(!totals.isEmpty());
        checkAllFormats(&p, 0, dir.filePath(QStringLiteral("heat")),
                        {QStringLiteral("Bank conflicts: heat map"), QStringLiteral("smem A tile"),
                         QStringLiteral("text rev ") + rev, totals.left(20)},
                        panelPictureSize(*pic));
        auto hist = p.histogramPicture(nullptr);
        QVERIFY(hist);
        checkAllFormats(
            &p, 1, dir.filePath(QStringLiteral("hist")),
            {QStringLiteral("Bank conflicts: histogram"), QStringLiteral("text rev ") + rev},
            panelPictureSize(*hist));
    }

    // An edit makes the numbers on screen belong to an earlier input: the picture is refused
    // with the reason until the new analysis is current, then exported again.
    void staleNumbersAreRefused() {
        QTemporaryDir dir;
        DocumentModel doc;
        doc.addLayout({"tile", "T.Layout([32, 32], lambda i, j: i * 32 + j)", {}, {}});
        BankPanel p;
        p.setDocument(&doc);
        p.show();
        p.setSourceLayout(doc.activeId(),
                          QStringLiteral("T.Layout([32, 32], lambda i, j: i * 32 + j)"));
        QVERIFY(p.analyze());
        p.projectLayoutTextChanged(
            doc.activeId(), QStringLiteral("T.Layout([32, 32], lambda i, j: j * 32 + i)"), false);
        QVERIFY(p.resultState()->state() != ResultState::State::Current);
        QString why;
        QVERIFY(!exporterOf(&p)->exportTo(0, dir.filePath(QStringLiteral("x.png")), 1.0, &why));
        QVERIFY2(why.contains(QStringLiteral("not the current input")), qPrintable(why));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
        // Nothing analysed at all: said so.
        BankPanel empty;
        empty.resetForProject();
        QVERIFY(!empty.heatMapPicture(&why));
        QVERIFY2(!why.isEmpty(), qPrintable(why));
    }

    // An existing file is replaced only by a complete picture; a write that fails leaves it.
    void writesAreAtomicAndErrorsSaid() {
        QTemporaryDir dir;
        FractalPanel p;
        p.resize(900, 500);
        p.show();
        p.setTile(40, 40, QStringLiteral("float16"), QStringLiteral("zN"));
        QTRY_COMPARE(p.resultState()->state(), ResultState::State::Current);
        const QString path = dir.filePath(QStringLiteral("keep.png"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("old");
        }
        QString err = exportAndWait(&p, 0, dir.filePath(QStringLiteral("no/such/dir/x.png")));
        QVERIFY2(err.contains(QStringLiteral("cannot write")), qPrintable(err));
        err = exportAndWait(&p, 0, dir.filePath(QStringLiteral("x.gif")));
        QVERIFY2(err.contains(QStringLiteral("use .png, .svg or .pdf")), qPrintable(err));
        QCOMPARE(readAll(path), QByteArray("old"));
        QCOMPARE(exportAndWait(&p, 0, path), QString());
        QVERIFY(!QImage(path).isNull());
    }

    void fractalSwizzleAndUb() {
        QTemporaryDir dir;
        FractalPanel f;
        f.resize(900, 500);
        f.show();
        f.setTile(40, 40, QStringLiteral("float16"), QStringLiteral("zN"));
        QTRY_COMPARE(f.resultState()->state(), ResultState::State::Current);
        auto fp = f.picture(nullptr);
        QVERIFY(fp);
        QCOMPARE(fp->parts.size(), std::size_t(2));
        checkAllFormats(&f, 0, dir.filePath(QStringLiteral("fractal")),
                        {QStringLiteral("Ascend fractal storage"),
                         QStringLiteral("logical tile (label: storage offset)"),
                         plainTextOf(f.footprintText()).left(25)},
                        panelPictureSize(*fp));

        SwizzlePanel s;
        s.resize(1200, 600);
        s.show();
        s.setTile(16, 64, QStringLiteral("float16"));
        QVERIFY(s.refresh());
        QTRY_COMPARE(s.previewState()->state(), ResultState::State::Current);
        auto sp = s.picture(nullptr);
        QVERIFY(sp);
        QCOMPARE(sp->parts.size(), std::size_t(3));
        checkAllFormats(&s, 0, dir.filePath(QStringLiteral("swizzle")),
                        {QStringLiteral("Swizzle: preview"), QStringLiteral("after: swizzled"),
                         QStringLiteral("16 x 64 float16")},
                        panelPictureSize(*sp));

        UbPanel u;
        u.resize(900, 600);
        u.show();
        u.setBlocksText(QStringLiteral("0 8 16 24"));
        QVERIFY(u.analyze());
        auto up = u.picture(nullptr);
        QVERIFY(up);
        const QString result = plainTextOf(u.resultText());
        QVERIFY(!result.isEmpty());
        // A table of small cells: fewer colours than a grid, so only the SVG's texts are checked
        // beyond the formats.
        const QString base = dir.filePath(QStringLiteral("ub"));
        QCOMPARE(exportAndWait(&u, 0, base + QStringLiteral(".svg")), QString());
        const QString svg = QString::fromUtf8(readAll(base + QStringLiteral(".svg")));
        QVERIFY(svg.contains(QStringLiteral("Ascend UB banks")));
        QVERIFY2(svg.contains(result.left(20).toHtmlEscaped()), qPrintable(result));
        QCOMPARE(exportAndWait(&u, 0, base + QStringLiteral(".png")), QString());
        QCOMPARE(QImage(base + QStringLiteral(".png")).size(), panelPictureSize(*up).toSize());
        QCOMPARE(exportAndWait(&u, 0, base + QStringLiteral(".pdf")), QString());
        QVERIFY(readAll(base + QStringLiteral(".pdf")).startsWith("%PDF-"));
    }

    void traceComparison() {
        QTemporaryDir dir;
        TraceViewer v;
        v.resize(1400, 800);
        v.show();
        QString why;
        QVERIFY(!v.picture(&why)); // no log yet
        QVERIFY(why.contains(QStringLiteral("no layout")));
        v.openLog(
            QStringLiteral(TILESCOPE_SOURCE_DIR "/tests/data/logs/conflict_parallel_cast.log"));
        QTRY_VERIFY_WITH_TIMEOUT(!v.busy(), 20000);
        const int idx = v.findEvent(ts::dump::EventKind::ParallelConflict);
        QVERIFY(idx >= 0 && v.selectEvent(std::size_t(idx)));
        QCOMPARE(v.pages()->currentIndex(), 2);
        auto pic = v.picture(nullptr);
        QVERIFY(pic);
        QCOMPARE(pic->parts.size(), std::size_t(2));
        checkAllFormats(&v, 0, dir.filePath(QStringLiteral("trace")),
                        {QStringLiteral("Inference trace: comparison"),
                         v.comparison()->sideTitle(0), v.comparison()->sideTitle(1),
                         QStringLiteral("text rev ")},
                        panelPictureSize(*pic));
    }

    // The context menu offers each picture; the window's File menu lists the open panels'.
    void contextMenuOffersEachPicture() {
        BankPanel p;
        QMenu m;
        exporterOf(&p)->addActions(&m);
        QStringList names;
        for (QAction* a : m.actions())
            names << a->text();
        QCOMPARE(names, QStringList({QStringLiteral("Export Heat Map Picture…"),
                                     QStringLiteral("Export Histogram Picture…")}));
        QCOMPARE(p.contextMenuPolicy(), Qt::CustomContextMenu);
    }
};

QTEST_MAIN(TestPanelExport)
#include "test_panel_export.moc"
