// SPDX-License-Identifier: Apache-2.0
// Export: PNG/SVG/PDF/text of the expected size and format, from the GUI and from
// `tilescope-cli render`; `tilescope --screenshot` writes a PNG of the main window.
#include "test_gui_common.h"

#include "document/documentmodel.h"
#include "grid/gridview.h"
#include "window/mainwindow.h"

#include "tilescope/notation/mapping.h"

#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QXmlStreamReader>
#include <QtTest>

using namespace tsw;

namespace {
QString out(const QString& name) {
    return guiTestDir().path() + QLatin1Char('/') + name;
}
QByteArray head(const QString& path, int n) {
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.read(n);
}
} // namespace

class TestGuiExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    void exportFromWindow() {
        MainWindow w;
        w.setConfirmOnClose(false);
        w.show();
        w.document()->setText(0, QStringLiteral("make_gemm_c_fragment((32, 32), 128)"));
        QTRY_COMPARE(w.gridView()->model().rows(), 32);
        GridRenderer::Style s;
        s.legendInScene = true;
        s.exportPage = true;
        const QSize expected = GridRenderer(w.gridView()->model(), s).sceneSize().toSize();
        QVERIFY(expected.width() > 32 * 48 && expected.height() > 32 * 48);

        QVERIFY(w.exportView(out("a.png")));
        QImage img(out("a.png"));
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), expected);
        QVERIFY(w.exportView(out("b.png"), 0.5));
        QCOMPARE(QImage(out("b.png")).width(), int(std::ceil(expected.width() * 0.5)));

        QVERIFY(w.exportView(out("a.svg")));
        QFile svg(out("a.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&svg);
        bool sawSvg = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("svg")) {
                sawSvg = true;
                QCOMPARE(xml.attributes().value(QLatin1String("viewBox")).toString(),
                         QStringLiteral("0 0 %1 %2").arg(expected.width()).arg(expected.height()));
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(sawSvg);

        QVERIFY(w.exportView(out("a.pdf")));
        QCOMPARE(head(out("a.pdf"), 4), QByteArray("%PDF"));
        QVERIFY(QFileInfo(out("a.pdf")).size() > 1000);

        QVERIFY(w.exportView(out("a.txt")));
        const QByteArray txt = head(out("a.txt"), 1 << 20);
        QVERIFY(txt.contains("T0 L0"));
        QCOMPARE(txt.count('\n'), 2 + 32);

        QVERIFY(!w.exportView(out("a.xyz")));
        QVERIFY(w.lastError().contains(QStringLiteral("unknown export format")));
    }

    void cliRender() {
        QProcess p;
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_c_fragment((32, 32), 128)"),
                 QStringLiteral("-o"), out("cli.png"), QStringLiteral("--cell"),
                 QStringLiteral("20")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out("cli.png"));
        QVERIFY(!img.isNull());
        QVERIFY(img.width() > 32 * 20 && img.width() < 32 * 20 + 200);

        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("T.Layout([4, 4], lambda i, j: (j, i))"),
                 QStringLiteral("-o"), out("cli.svg"), QStringLiteral("--view"),
                 QStringLiteral("output")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(head(out("cli.svg"), 4096).contains("<svg"));

        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"),
                 QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json"),
                 QStringLiteral("-o"), out("cli.pdf"), QStringLiteral("--color"),
                 QStringLiteral("warp")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(head(out("cli.pdf"), 4), QByteArray("%PDF"));

        // Bad input: exit code 2 and a message naming the problem.
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("T.Fragment([4, 4], "),
                 QStringLiteral("-o"), out("bad.png")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("error"));
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_fragment_8x8()"),
                 QStringLiteral("-o"), out("bad.gif")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"),
                 QStringLiteral("make_linear_layout((8192, 4096), \"float16\")"),
                 QStringLiteral("-o"), out("big.png")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("16777216 cells"));
    }

    // A large grid's default PNG is a few megapixels, not one pixel budget per label: its
    // cells shrink (the legend says the labels are omitted); --cell still gives any size.
    void cliRenderDefaultSize() {
        QProcess p;
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_c_fragment((512, 512), 128)"),
                 QStringLiteral("-o"), out("c512.png")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out("c512.png"));
        QVERIFY(!img.isNull());
        QVERIFY2(img.width() >= 2048 && img.width() < 2048 + 200,
                 qPrintable(QString::number(img.width())));
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_c_fragment((64, 64), 128)"),
                 QStringLiteral("-o"), out("c64.png"), QStringLiteral("--cell"),
                 QStringLiteral("50")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(QImage(out("c64.png")).width() > 64 * 50);
    }

    // An export whose cells are too small for their labels says so in its legend.
    void omittedLabelsAreSaid() {
        const GridModel m =
            GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((64, 64), 128)"),
                                   ViewMode::Input, ColorMode::Thread);
        GridRenderer::Style s;
        s.legendInScene = true;
        auto says = [&](double cell) {
            s.cell = cell;
            GridRenderer r(m, s);
            for (const LegendEntry& e : r.legendEntries(1.0))
                if (e.text.startsWith(QStringLiteral("labels omitted"))) return true;
            return false;
        };
        QVERIFY(says(8));
        QVERIFY(!says(40));
        s.cell = 40;
        QVERIFY(GridRenderer(m, s).labelCellPx() > 8);
        QVERIFY(GridRenderer(m, s).labelCellPx() <= 40);
    }

    // The PNG writer is lossless: the file decodes to exactly the rendered image.
    void pngIsExact() {
        const GridModel m =
            GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((32, 32), 128)"),
                                   ViewMode::Input, ColorMode::Thread);
        GridRenderer::Style s;
        s.legendInScene = true;
        GridRenderer r(m, s);
        QString err;
        QVERIFY2(r.exportFile(out("exact.png"), &err), qPrintable(err));
        const QImage back(out("exact.png"));
        QVERIFY(!back.isNull());
        QCOMPARE(back.convertToFormat(QImage::Format_RGB32),
                 r.renderImage().convertToFormat(QImage::Format_RGB32));
    }

    // SVG stays under 100 bytes a cell with every label in it (shared styles, one path per
    // colour), and is well-formed.
    void svgIsCompact() {
        const GridModel m =
            GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((64, 64), 128)"),
                                   ViewMode::Input, ColorMode::Thread);
        GridRenderer::Style s;
        s.legendInScene = true;
        GridRenderer r(m, s);
        QString err;
        QVERIFY2(r.exportFile(out("compact.svg"), &err), qPrintable(err));
        QFile f(out("compact.svg"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        const double perCell = double(svg.size()) / (64 * 64);
        QVERIFY2(perCell <= 100, qPrintable(QStringLiteral("%1 bytes per cell").arg(perCell)));
        QXmlStreamReader xml(svg);
        int texts = 0, paths = 0;
        QSet<QString> labels;
        while (!xml.atEnd()) {
            xml.readNext();
            if (!xml.isStartElement()) continue;
            if (xml.name() == QLatin1String("path")) ++paths;
            if (xml.name() == QLatin1String("text")) {
                ++texts;
                labels.insert(xml.readElementText());
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(texts >= 2 * 64 * 64); // both label lines of every cell
        QVERIFY(labels.contains(QStringLiteral("T127")) && labels.contains(QStringLiteral("L31")));
        QVERIFY(paths <= 130); // one per thread colour and the gaps, not one per cell
    }

    void screenshot() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TILESCOPE_GUI_BIN),
                {QStringLiteral("--screenshot"), out("shot.png"), QStringLiteral("--size"),
                 QStringLiteral("1200x800"),
                 QStringLiteral(TILESCOPE_SOURCE_DIR "/samples/default.tilescope.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QImage img(out("shot.png"));
        QVERIFY(!img.isNull());
        QCOMPARE(img.size(), QSize(1200, 800));
    }
};

QTEST_MAIN(TestGuiExport)
#include "test_gui_export.moc"
