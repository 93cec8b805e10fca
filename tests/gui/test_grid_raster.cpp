// SPDX-License-Identifier: Apache-2.0
// The CLI's raster picture (grid_raster.h) against the GUI's QPainter renderer, and the Qt-free
// colours (grid_colors.h) against the QColor computations they replaced: the PNG that
// `tilescope-cli render` writes without Qt's GUI library must show what an export from the
// window shows.
#include "test_gui_common.h"

#include "grid/grid_raster.h"
#include "grid/gridrenderer.h"

#include "tilescope/notation/mapping.h"

#include <QColor>
#include <QImage>
#include <QProcess>
#include <QtTest>
#include <cmath>

using namespace tsw;

namespace {

QImage toImage(const RasterImage& r) {
    return QImage(reinterpret_cast<const uchar*>(r.pixels.data()), r.width, r.height, r.width * 4,
                  QImage::Format_RGB32)
        .copy();
}

struct Case {
    const char* text;
    ViewMode view;
    ColorMode color;
    double cell;
    bool title = true, legend = true;
};

} // namespace

class TestGridRaster : public QObject {
    Q_OBJECT
private slots:
    void coloursAreThoseOfQColor() {
        static const double kLight[4] = {0.78, 0.66, 0.85, 0.72};
        static const double kSat[4] = {0.72, 0.58, 0.62, 0.50};
        for (std::int64_t t = 0; t < 4096; ++t) {
            const std::int64_t lane = t % 32, warp = t / 32;
            const double hue = std::fmod(lane * (360.0 / 32.0) + (warp % 2) * 5.6, 360.0);
            QCOMPARE(threadColor(t),
                     QColor::fromHslF(hue / 360.0, kSat[warp % 4], kLight[warp % 4]).rgb());
        }
        static const QRgb kBase[12] = {0x7eb0d5, 0xfd7f6f, 0xb2e061, 0xbd7ebe, 0xffb55a, 0xffee65,
                                       0xbeb9db, 0xfdcce5, 0x8bd3c7, 0xe6c79c, 0xa0c4a8, 0xd3a5a5};
        for (int k = -40; k < 80; ++k) {
            const int i = ((k % 36) + 36) % 36;
            QColor c(kBase[i % 12]);
            if (i / 12 == 1) c = c.lighter(115);
            if (i / 12 == 2) c = c.darker(115);
            QCOMPARE(categoricalColor(k), c.rgb());
        }
        static const QRgb kStops[9] = {0x9e0142, 0xd53e4f, 0xf46d43, 0xfdae61, 0xfee08b,
                                       0xe6f598, 0xabdda4, 0x66c2a5, 0x3288bd};
        for (int s = -10; s <= 100010; ++s) {
            const double t0 = s / 100000.0, t = std::clamp(t0, 0.0, 1.0) * 8.0;
            const int k = std::min(7, int(t));
            const double f = t - k;
            const QColor a(kStops[k]), b(kStops[k + 1]);
            const QRgb q = QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * f,
                                            a.greenF() + (b.greenF() - a.greenF()) * f,
                                            a.blueF() + (b.blueF() - a.blueF()) * f)
                               .rgb();
            if (rampColor(t0) != q) QFAIL(qPrintable(QStringLiteral("ramp at %1").arg(t0)));
        }
        QCOMPARE(kUnusedGrey, QColor::fromRgbF(0.95, 0.95, 0.95).rgb());
        for (QRgb c : {0xff000000u, 0xffffffffu, 0xff808080u, 0xff7eb0d5u, 0xff3288bdu})
            QCOMPARE(isDark(c), 0.299 * qRed(c) + 0.587 * qGreen(c) + 0.114 * qBlue(c) < 128);
    }

    // Same size, the same colour in every cell, labels in the same cells, and text that differs
    // only in its antialiasing: the raster picture is the renderer's export drawn another way.
    void rasterMatchesTheRenderersExport_data() {
        QTest::addColumn<int>("k");
        const char* names[] = {
            "fragment thread", "fragment warp",  "fragment slot",
            "replicated",      "register file",  "layout input",
            "layout output",   "labels omitted", "no title or legend",
            "one-line labels", "scaled",         "CuTe subtitle wider than the grid"};
        for (int k = 0; k < int(std::size(names)); ++k)
            QTest::newRow(names[k]) << k;
    }
    void rasterMatchesTheRenderersExport() {
        QFETCH(int, k);
        static const Case cases[] = {
            {"make_gemm_c_fragment((32, 32), 128)", ViewMode::Input, ColorMode::Thread, 40},
            {"make_gemm_c_fragment((64, 32), 256)", ViewMode::Input, ColorMode::Warp, 30},
            {"make_gemm_c_fragment((32, 32), 128)", ViewMode::Input, ColorMode::Slot, 40},
            {"make_fully_replicated_fragment((8, 8), 32)", ViewMode::Input, ColorMode::Replica, 44},
            {"make_gemm_fragment_8x8()", ViewMode::Output, ColorMode::Thread, 40},
            {"make_wgmma_swizzled_layout((16, 64), \"float16\")", ViewMode::Input,
             ColorMode::Thread, 36},
            {"T.Layout([8, 8], lambda i, j: (j, i ^ j))", ViewMode::Output, ColorMode::Thread, 40},
            {"make_gemm_c_fragment((128, 128), 128)", ViewMode::Input, ColorMode::Thread, 6},
            {"make_gemm_fragment_8x8()", ViewMode::Input, ColorMode::Thread, 40, false, false},
            {"T.Layout([4, 12], lambda i, j: (i * 12 + j,))", ViewMode::Input, ColorMode::Thread,
             40},
            {"make_gemm_fragment_8x8()", ViewMode::Input, ColorMode::Thread, 20},
            {"(4,8):(8,1)", ViewMode::Input, ColorMode::Thread, 40},
        };
        const Case& c = cases[k];
        const double scale = k == 10 ? 1.5 : 1.0;
        const GridModel m = GridModel::fromMapping(ts::parseMapping(c.text), c.view, c.color);
        GridRenderer::Style s;
        s.cell = c.cell;
        s.legendInScene = c.legend;
        s.title = c.title;
        s.exportPage = true;
        const QImage qt =
            GridRenderer(m, s).renderImage(scale).convertToFormat(QImage::Format_RGB32);

        std::string why;
        auto fonts = FontRaster::open(&why);
        QVERIFY2(fonts, why.c_str());
        RasterOptions o;
        o.cell = c.cell;
        o.scale = scale;
        o.legend = c.legend;
        o.title = c.title;
        const auto r = rasterizeGrid(m, o, *fonts, &why);
        QVERIFY2(r, why.c_str());
        const QImage mine = toImage(*r);
        QCOMPARE(mine.size(), qt.size());
        if (k == 11) {
            // The subtitle (CuTe's axes) is wider than the grid and the title: the page is as
            // wide as the subtitle, whose last pixels are not cut at the edge.
            const double sub = fonts->advance(m.subtitle().toStdString(), 11);
            QVERIFY2(
                qt.width() >= 14 + layout::headerWidth(m.rows()) + sub + 14 - 1,
                qPrintable(QStringLiteral("%1 px for a subtitle of %2").arg(qt.width()).arg(sub)));
        }

        // Every cell: the fill colour near its top-left corner (labels are centred), and ink
        // (pixels other than the fill) in its label area in both pictures or in neither.
        GridRenderer geo(m, s);
        const double cellPx = c.cell * scale;
        for (int row = 0; row < m.rows(); ++row)
            for (int col = 0; col < m.cols(); ++col) {
                const QRectF d =
                    QRectF(geo.cellRect(row, col).topLeft() * scale, QSizeF(cellPx, cellPx));
                const QPoint probe = d.topLeft().toPoint() + QPoint(2, 2);
                const QRgb fill = qt.pixel(probe);
                QCOMPARE(mine.pixel(probe), fill);
                auto inked = [&](const QImage& img) {
                    for (int y = int(d.top() + cellPx * 0.2); y < int(d.bottom() - cellPx * 0.2);
                         ++y)
                        for (int x = int(d.left() + cellPx * 0.2);
                             x < int(d.right() - cellPx * 0.2); ++x)
                            if (img.pixel(x, y) != fill) return true;
                    return false;
                };
                QVERIFY2(inked(mine) == inked(qt),
                         qPrintable(QStringLiteral("cell (%1, %2): label in one picture only")
                                        .arg(row)
                                        .arg(col)));
            }
        // Text differs only in antialiasing: small on average.
        double diff = 0;
        for (int y = 0; y < qt.height(); ++y)
            for (int x = 0; x < qt.width(); ++x) {
                const QRgb a = qt.pixel(x, y), b = mine.pixel(x, y);
                diff += std::abs(qRed(a) - qRed(b)) + std::abs(qGreen(a) - qGreen(b)) +
                        std::abs(qBlue(a) - qBlue(b));
            }
        diff /= 3.0 * qt.width() * qt.height();
        QVERIFY2(diff < 4.0, qPrintable(QStringLiteral("mean difference %1 / 255").arg(diff)));
    }

    // What the raster picture does not draw, it says so and the CLI hands it to Qt.
    void rasterRefusesWhatOnlyQtDraws() {
        const GridModel m =
            GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((512, 512), 128)"),
                                   ViewMode::Input, ColorMode::Thread);
        std::string why;
        auto fonts = FontRaster::open(&why);
        QVERIFY(fonts);
        RasterOptions o;
        o.cell = 2;
        o.scale = 0.25;
        QVERIFY(!rasterizeGrid(m, o, *fonts, &why));
        QVERIFY(why.find("overview") != std::string::npos);
        o.scale = 1;
        o.maxPixels = 1e5;
        QVERIFY(!rasterizeGrid(m, o, *fonts, &why));
        QVERIFY(why.find("pixels") != std::string::npos);
    }

    // The CLI's PNG loads no Qt GUI library, is the raster picture, and falls back to the Qt
    // module for an overview.
    void cliPngWithoutQtGui() {
        const QString out = guiTestDir().path() + QStringLiteral("/raster.png");
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("libs"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_c_fragment((32, 32), 128)"),
                 QStringLiteral("-o"), out});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QByteArray loaded = p.readAllStandardError();
        QVERIFY(loaded.contains("libQt6Core"));
        QVERIFY2(!loaded.contains("libQt6Gui"), "render to PNG loaded Qt's GUI library");
        QImage img(out);
        QCOMPARE(img.size(), QSize(1335, 1405));

        const GridModel m =
            GridModel::fromMapping(ts::parseMapping("make_gemm_c_fragment((32, 32), 128)"),
                                   ViewMode::Input, ColorMode::Thread);
        std::string why;
        auto fonts = FontRaster::open(&why);
        QVERIFY(fonts);
        QCOMPARE(img.convertToFormat(QImage::Format_RGB32),
                 toImage(*rasterizeGrid(m, RasterOptions{}, *fonts, &why)));

        p.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        p.start(QStringLiteral(TILESCOPE_CLI),
                {QStringLiteral("render"), QStringLiteral("make_gemm_c_fragment((512, 512), 128)"),
                 QStringLiteral("-o"), out, QStringLiteral("--cell"), QStringLiteral("2"),
                 QStringLiteral("--scale"), QStringLiteral("0.25")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QImage(out).isNull());
    }
};

QTEST_MAIN(TestGridRaster)
#include "test_grid_raster.moc"
