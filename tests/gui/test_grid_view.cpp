// SPDX-License-Identifier: Apache-2.0
// QtTest (offscreen) for reading large grids: the overview below one pixel per cell shows a
// fragment's warps (checked pixel by pixel against the model), row/column numbers stay in view
// while zoomed and panned, the legend never covers a cell, the wheel scrolls and Ctrl+wheel
// zooms, compact labels for replicated cells, and exports of huge grids keep a readable title.
#include "test_gui_common.h"

#include "grid/grid_overview.h"
#include "grid/gridview.h"

#include "tilescope/notation/mapping.h"

#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QToolTip>
#include <QWheelEvent>
#include <QtTest>
#include <array>
#include <map>
#include <random>

using namespace tsw;

namespace {

GridModel gridOf(const char* text, ColorMode color = ColorMode::Thread) {
    return GridModel::fromMapping(ts::parseMapping(text), ViewMode::Input, color);
}

QImage shot(GridView& v) {
    QCoreApplication::processEvents();
    return v.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

bool hasInk(const QImage& img, const QRectF& r, QRgb background) {
    // Any pixel clearly darker than the strip's background: a drawn number.
    const QRect ri = r.toRect().intersected(img.rect());
    for (int y = ri.top(); y <= ri.bottom(); ++y)
        for (int x = ri.left(); x <= ri.right(); ++x)
            if (qGray(img.pixel(x, y)) < qGray(background) - 80) return true;
    return false;
}

void wheel(QWidget* w, QPoint at, int dy, Qt::KeyboardModifiers mods) {
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, dy), Qt::NoButton, mods,
                  Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

} // namespace

class TestGridView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { guiTestSetUp(); }

    // A 1024 x 1024 gemm accumulator (8 warps) at fit zoom: every pixel of the overview is the
    // colour of the warp that owns its block (no thread owns half of a block, so the block's
    // most common warp decides), not a grey average of 256 lane hues.
    void overviewShowsWarpsAtFit() {
        GridView v;
        v.resize(900, 760);
        v.show();
        const GridModel m = gridOf("make_gemm_c_fragment((1024, 1024), 256)");
        v.setModel(m);
        QVERIFY(v.scale() * v.renderer().style().cell < 1.0); // cells below a pixel
        const int k = v.renderer().overviewBlockAt(v.scale());
        QVERIFY(k >= 2);
        QVERIFY(v.renderer().overviewGroupsAt(v.scale()));
        const QImage img = shot(v);
        const QRectF g = v.gridRectOnScreen().intersected(v.cellArea());
        QSet<QRgb> seen;
        int checked = 0;
        const double cellPx = v.scale() * v.renderer().style().cell;
        for (int sy = 1; sy < 40; ++sy)
            for (int sx = 1; sx < 40; ++sx) {
                const QPointF p(g.left() + g.width() * sx / 40.0, g.top() + g.height() * sy / 40.0);
                const auto cell = v.cellAtWidget(p);
                QVERIFY(cell);
                // Away from warp boundaries (512 x 256 regions), by more than a block.
                const int r = cell->y(), c = cell->x();
                const int margin = 2 * k + 2;
                if (r % 512 < margin || r % 512 > 511 - margin || c % 256 < margin ||
                    c % 256 > 255 - margin)
                    continue;
                const QRgb expected = GridModel::groupColor(m.group(r, c));
                QCOMPARE(QColor(img.pixel(p.toPoint())).name(), QColor(expected).name());
                seen.insert(img.pixel(p.toPoint()));
                ++checked;
            }
        QVERIFY(checked > 600);
        QCOMPARE(seen.size(), 8); // the eight warps, each visible
        (void)cellPx;
        // The legend says what the colours mean at this zoom.
        bool said = false;
        for (const LegendEntry& e : v.renderer().legendEntries(v.scale()))
            said = said || e.text.contains(QStringLiteral("overview"));
        QVERIFY(said);
        // And lists only colours drawn: the eight warps, no per-lane swatch (no block of 2x2 or
        // more cells here has one lane's colour for most of its cells).
        int swatches = 0;
        for (const LegendEntry& e : v.renderer().legendEntries(v.scale())) {
            if (qAlpha(e.color) == 0) continue;
            ++swatches;
            QVERIFY2(seen.contains((e.color | 0xff000000u)), qPrintable(e.text));
        }
        QCOMPARE(swatches, 8);
    }

    // A large grid (2048 x 1024): the overview levels that zooming needs are built off the UI
    // thread after the first paint and handed over; a frame at a new level then draws it as it
    // is (no stand-in level), and it is the very image a synchronous build gives.
    void overviewLevelsArriveFromTheBackground() {
        const GridModel m = gridOf("make_gemm_c_fragment((2048, 1024), 256)");
        GridView a;
        a.resize(900, 760);
        a.show();
        a.setModel(m);
        shot(a); // at fit: builds the fit level, starts the others in the background
        const int fitBlock = a.renderer().overviewBlockAt(a.scale());
        QVERIFY(fitBlock >= 2);
        const int deepest = a.renderer().overviewBlockAt(0.0005);
        QTRY_VERIFY_WITH_TIMEOUT(!a.renderer().overviewJob(deepest).has_value(), 60000);
        for (int k = 2; k <= deepest; k *= 2)
            QCOMPARE(a.renderer().drawnOverviewBlock(k), k);
        // The next level in: the prefetched overview, pixel for pixel what a view that builds
        // it while painting shows.
        a.zoomBy(2.0, a.cellArea().center());
        QCOMPARE(a.renderer().overviewBlockAt(a.scale()), fitBlock / 2);
        const QImage prefetched = shot(a);
        GridView b;
        b.resize(900, 760);
        b.show();
        b.setModel(m);
        b.setViewTransform(a.scale(), a.pan());
        QCOMPARE(b.renderer().drawnOverviewBlock(fitBlock / 2), fitBlock / 2); // none yet: built
        shot(b); // the legend, and the scroll bars around the cells, settle with a first paint
        const QImage direct = shot(b);
        const QRect cells = a.cellArea().toRect();
        QCOMPARE(b.cellArea().toRect(), cells);
        QVERIFY(cells.width() > 600 && cells.height() > 500);
        QCOMPARE(direct.copy(cells), prefetched.copy(cells));
    }

    // While a level is being built a nearby one stands in, and the legend names the block size
    // drawn, not the one coming.
    void legendNamesTheLevelDrawn() {
        GridRenderer r(gridOf("make_gemm_c_fragment((1024, 1024), 128)"));
        r.setOverviewsArriveLater(true);
        const double scale = 0.3 / r.style().cell; // 0.3 px a cell: 4x4 blocks
        QCOMPARE(r.overviewBlockAt(scale), 4);
        auto rule = [&] {
            for (const LegendEntry& e : r.legendEntries(scale))
                if (e.text.startsWith(QStringLiteral("overview"))) return e.text;
            return QString();
        };
        const auto job = r.overviewJob(8);
        r.adoptOverview(8, job->key, GridRenderer::buildOverview(*job, 8));
        QCOMPARE(r.drawnOverviewBlock(4), 8);
        QVERIFY2(rule().contains(QStringLiteral("8×8 cells per pixel")), qPrintable(rule()));
        r.adoptOverview(4, job->key, GridRenderer::buildOverview(*job, 4));
        QCOMPARE(r.drawnOverviewBlock(4), 4);
        QVERIFY2(rule().contains(QStringLiteral("4×4 cells per pixel")), qPrintable(rule()));
    }

    // The colours of a level collected with it off the UI thread are those of every pixel, and
    // the legend of an adopted level with its colours is the legend computed when painting.
    void overviewColoursAreEveryPixels() {
        const GridModel m = gridOf("make_gemm_c_fragment((1024, 1024), 256)", ColorMode::Warp);
        GridRenderer r(m), plain(m);
        r.setOverviewsArriveLater(true);
        plain.setOverviewsArriveLater(true);
        const double scale = 0.3 / r.style().cell;
        const auto job = r.overviewJob(8);
        for (int k : {2, 4, 8}) {
            const QImage img = GridRenderer::buildOverview(*job, k);
            QSet<QRgb> every;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    every.insert(img.pixel(x, y) | 0xff000000u);
            const QSet<QRgb> collected = GridRenderer::coloursOf(img);
            QCOMPARE(collected, every);
            r.adoptOverview(k, job->key, img, collected);
            plain.adoptOverview(k, job->key, img);
        }
        auto texts = [&](const GridRenderer& x) {
            QStringList t;
            for (const LegendEntry& e : x.legendEntries(scale))
                t << e.text;
            return t;
        };
        QCOMPARE(texts(r), texts(plain));
        QVERIFY(texts(r).join(QLatin1Char('|')).contains(QStringLiteral("warp")));
    }

    // An overview built for a colouring that has since changed is not adopted.
    void staleOverviewsAreDropped() {
        GridRenderer r(gridOf("make_gemm_c_fragment((1024, 1024), 128)"));
        const auto job = r.overviewJob(8);
        QVERIFY(job.has_value());
        QCOMPARE(job->blocks, (std::vector<int>{2, 4, 8}));
        const QImage img = GridRenderer::buildOverview(*job, 4);
        r.setModel(gridOf("make_gemm_c_fragment((1024, 1024), 256)"));
        r.adoptOverview(4, job->key, img);
        QCOMPARE(r.overviewJob(8)->blocks, (std::vector<int>{2, 4, 8})); // still to build
        const auto fresh = r.overviewJob(8);
        r.adoptOverview(4, fresh->key, GridRenderer::buildOverview(*fresh, 4));
        QCOMPARE(r.overviewJob(8)->blocks, (std::vector<int>{2, 8}));
    }

    // The aggregation against a plain reading of its rule, on random grids whose blocks hold
    // from one to hundreds of distinct colours and groups (past the short tally, the sort).
    void overviewAggregationMatchesItsRule() {
        std::mt19937 rng(7);
        for (int round = 0; round < 24; ++round) {
            const int rows = 1 + int(rng() % 97), cols = 1 + int(rng() % 131);
            const int palette = std::array<int, 4>{2, 5, 40, 300}[round % 4];
            const int k = 1 << (1 + round % 5); // 2..32
            std::vector<QRgb> colors(std::size_t(rows) * cols);
            std::vector<std::int64_t> groups(colors.size());
            for (std::size_t i = 0; i < colors.size(); ++i) {
                colors[i] = qRgb(int(rng() % palette), int(rng() % 2), 7);
                groups[i] = std::int64_t(rng() % (round % 3 ? 3 : 200));
            }
            OverviewInput in;
            in.rows = rows;
            in.cols = cols;
            in.colors = colors.data();
            const bool grouped = round % 2 == 0, continuous = round % 4 == 1;
            if (grouped) {
                in.groups = groups.data();
                in.groupColor = [](std::int64_t g) { return qRgb(int(g % 256), 9, 9); };
            }
            in.continuous = continuous;
            const QImage img = aggregateOverview(in, k);
            for (int by = 0; by * k < rows; ++by)
                for (int bx = 0; bx * k < cols; ++bx) {
                    std::map<QRgb, int> cc;
                    std::map<std::int64_t, int> gc;
                    std::uint64_t sum[3] = {0, 0, 0};
                    int n = 0;
                    for (int r = by * k; r < std::min(rows, by * k + k); ++r)
                        for (int c = bx * k; c < std::min(cols, bx * k + k); ++c) {
                            const std::size_t i = std::size_t(r) * cols + c;
                            ++cc[colors[i]];
                            ++gc[groups[i]];
                            sum[0] += qRed(colors[i]);
                            sum[1] += qGreen(colors[i]);
                            sum[2] += qBlue(colors[i]);
                            ++n;
                        }
                    // Most common, ties to the smallest (maps iterate in ascending order).
                    auto most = [](const auto& counts) {
                        auto best = counts.begin();
                        for (auto it = counts.begin(); it != counts.end(); ++it)
                            if (it->second > best->second) best = it;
                        return *best;
                    };
                    const auto [topColor, topCount] = most(cc);
                    QRgb want = topColor;
                    if (2 * topCount <= n) {
                        if (grouped)
                            want = qRgb(int(most(gc).first % 256), 9, 9);
                        else if (continuous)
                            want = qRgb(int(sum[0] / n), int(sum[1] / n), int(sum[2] / n));
                    }
                    QCOMPARE(img.pixel(bx, by), want);
                }
        }
    }

    // The aggregation rule on a known 4 x 4 input: majority colour, then group, then mean.
    void overviewAggregationRule() {
        const QRgb a = qRgb(200, 0, 0), b = qRgb(0, 200, 0), c = qRgb(0, 0, 200);
        std::vector<QRgb> colors = {a, a, b, c, //
                                    a, b, c, a, //
                                    a, a, b, b, //
                                    a, a, c, c};
        std::vector<std::int64_t> groups = {0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3};
        OverviewInput in;
        in.rows = in.cols = 4;
        in.colors = colors.data();
        QImage plain = aggregateOverview(in, 2);
        QCOMPARE(plain.size(), QSize(2, 2));
        QCOMPARE(plain.pixel(0, 0), a);                     // 3 of 4: majority
        QCOMPARE(plain.pixel(0, 1), a);                     // 4 of 4
        QCOMPARE(plain.pixel(1, 0), QRgb(qRgb(0, 0, 200))); // b, c, c, a: c most common
        in.groups = groups.data();
        in.groupColor = [](std::int64_t g) { return qRgb(int(g) * 10, 1, 1); };
        QImage grouped = aggregateOverview(in, 2);
        QCOMPARE(grouped.pixel(1, 0), qRgb(10, 1, 1)); // no majority colour: the group's
        QCOMPARE(grouped.pixel(1, 1), qRgb(30, 1, 1)); // b, b, c, c: group 3
        in.groups = nullptr;
        in.continuous = true;
        QImage mean = aggregateOverview(in, 2);
        QCOMPARE(mean.pixel(1, 1), qRgb(0, 100, 100)); // b, b, c, c averaged
        QCOMPARE(overviewBlock(0.3), 4);
        QCOMPARE(overviewBlock(1.0), 1);
    }

    // Zoomed in and panned to the middle: the numbers are still drawn, along the cell area's
    // edges, and name the rows and columns in view.
    void headersStayWhenPanned() {
        GridView v;
        v.resize(800, 600);
        v.show();
        v.setModel(gridOf("make_gemm_c_fragment((256, 256), 128)"));
        QVERIFY(!v.columnHeaderRect().isEmpty());
        v.setZoomRelative(12);
        const QRectF vp = v.cellArea();
        // Pan to the middle of the grid.
        const QSizeF s = v.gridRectOnScreen().size();
        v.setViewTransform(v.scale(),
                           QPointF(vp.left() - s.width() / 2, vp.top() - s.height() / 2));
        QVERIFY(v.gridRectOnScreen().top() < vp.top() - 100);
        QVERIFY(v.gridRectOnScreen().left() < vp.left() - 100);
        const QRectF ch = v.columnHeaderRect(), rh = v.rowHeaderRect();
        QVERIFY(!ch.isEmpty() && !rh.isEmpty());
        QCOMPARE(ch.bottom(), vp.top());
        QCOMPARE(rh.right(), vp.left());
        QVERIFY(ch.top() >= 0 && rh.left() >= 0);
        const QImage img = shot(v);
        QVERIFY(hasInk(img, ch, qRgb(0xf7, 0xf8, 0xfa)));
        QVERIFY(hasInk(img, rh, qRgb(0xf7, 0xf8, 0xfa)));
        // Scrollbars appear while the grid is larger than the view.
        QVERIFY(v.horizontalBar()->isVisible() && v.verticalBar()->isVisible());
        QVERIFY(v.horizontalBar()->value() > 0);
        v.zoomToFit();
        QVERIFY(!v.horizontalBar()->isVisible() && !v.verticalBar()->isVisible());
        // At fit the title sits above the numbers and is readable (not scaled with the page).
        QVERIFY(v.titleRect().height() >= 20);
        QVERIFY(v.titleRect().bottom() <= v.columnHeaderRect().top() + 0.5);
    }

    void legendNeverCoversCells() {
        GridView v;
        v.resize(700, 520);
        v.show();
        for (const char* text :
             {"make_gemm_c_fragment((32, 32), 128)", "make_gemm_c_fragment((512, 512), 256)",
              "T.Layout([4, 64], lambda i, j: i * 64 + j)"}) {
            v.setModel(gridOf(text));
            for (double z : {1.0, 3.0, 20.0}) {
                v.setZoomRelative(z);
                // Pan to the bottom-left corner, where a floating legend used to sit.
                v.setViewTransform(v.scale(), QPointF(v.cellArea().left(), -1e9));
                const QRectF cells = v.cellArea().intersected(v.gridRectOnScreen());
                const QRectF legend = v.legendRect();
                QVERIFY2(!legend.isEmpty(), text);
                QVERIFY2(!legend.intersects(cells), text);
                QVERIFY(legend.bottom() <= v.height());
            }
        }
    }

    void wheelScrollsAndCtrlWheelZooms() {
        GridView v;
        v.resize(800, 600);
        v.show();
        v.setModel(gridOf("make_gemm_c_fragment((128, 128), 128)"));
        const QPoint mid = v.cellArea().center().toPoint();
        // At fit there is nothing to scroll: the wheel says how to zoom.
        const double fit = v.scale();
        wheel(&v, mid, -120, Qt::NoModifier);
        QCOMPARE(v.scale(), fit);
        QVERIFY(v.hint().contains(QStringLiteral("Ctrl")));
        wheel(&v, mid, 120, Qt::ControlModifier);
        QVERIFY(v.scale() > fit * 1.1);
        v.setZoomRelative(6);
        const double s = v.scale();
        const QPointF before = v.pan();
        wheel(&v, mid, -120, Qt::NoModifier);
        QCOMPARE(v.scale(), s);
        QVERIFY(v.pan().y() < before.y()); // scrolled down
        QCOMPARE(v.pan().x(), before.x());
        wheel(&v, mid, -120, Qt::ShiftModifier);
        QVERIFY(v.pan().x() < before.x()); // Shift: sideways
        // The scrollbar follows and drives the view.
        const int value = v.verticalBar()->value();
        QVERIFY(value > 0);
        v.verticalBar()->setValue(0);
        QCOMPARE(v.pan().y(), v.cellArea().top());
    }

    // A replicated cell too small for "T0/32/64/96" shows "T0 ×4"; the full list when larger.
    void replicatedCellsGetCompactLabels() {
        const GridModel m = gridOf("T.Fragment([16, 32], forward_thread_fn=lambda i, j, rep: rep "
                                   "* 32 + i % 8 * 4 + j % 8 // 2, replicate=4)");
        QCOMPARE(m.label(0, 0, 0), QStringLiteral("T0/32/64/96"));
        QCOMPARE(m.compactLabel(0, 0), QStringLiteral("T0 ×4"));
        GridRenderer::Style st;
        st.title = st.headers = false;
        st.margin = 0;
        st.cell = 28; // the full label would need about 56 px
        GridRenderer r(m, st);
        const QImage img = r.renderImage(1.0);
        // Ink inside cell (0, 0): some pixels far from its fill colour.
        const QRgb fill = r.effectiveColor(0, 0);
        int ink = 0;
        for (int y = 2; y < 26; ++y)
            for (int x = 2; x < 26; ++x)
                ink += std::abs(qGray(img.pixel(x, y)) - qGray(fill)) > 60;
        QVERIFY2(ink > 10, qPrintable(QString::number(ink)));
    }

    // An export below a pixel per cell is the overview: the eight warps, not a moire.
    void exportBelowAPixelPerCellShowsWarps() {
        const GridModel m = gridOf("make_gemm_c_fragment((1024, 1024), 256)");
        GridRenderer::Style st;
        st.cell = 0.5; // a 512 px grid: one overview pixel per 2 x 2 cells
        st.legendInScene = true;
        GridRenderer r(m, st);
        const QImage img = r.renderImage(1.0);
        QVERIFY(!img.isNull());
        const QRectF g = r.gridRect();
        QSet<QRgb> seen;
        for (int w = 0; w < 8; ++w) {
            const int row = (w % 2) * 512 + 256, col = (w / 2) * 256 + 128;
            const QPoint p = (g.topLeft() + QPointF(col, row) * st.cell).toPoint();
            QCOMPARE(QColor(img.pixel(p)).name(),
                     QColor(GridModel::groupColor(m.group(row, col))).name());
            seen.insert(img.pixel(p));
        }
        QCOMPARE(seen.size(), 8);
    }

    // Over the pixel budget the cells shrink, not the page: the title band and the legend keep
    // their size (scaling everything left a 1024 x 1024 export with a 4-pixel title).
    void exportOverBudgetKeepsTitleSize() {
        const GridModel m = gridOf("make_gemm_c_fragment((256, 256), 128)");
        GridRenderer::Style st; // 48-unit cells: a 12k x 12k page
        st.legendInScene = true;
        const GridRenderer full(m, st);
        st.maxPixels = 4e6;
        const GridRenderer budget(m, st);
        const QImage img = budget.renderImage(1.0);
        QVERIFY(double(img.width()) * img.height() <= 4e6);
        QVERIFY(img.width() > 1500); // not a thumbnail
        // The grid starts below the same title band as the unconstrained page.
        const QRectF g = full.gridRect();
        // First non-white row under the title: where the column numbers or the grid begin.
        int firstGridRow = -1;
        for (int y = int(g.top()) - 2; y < img.height() && firstGridRow < 0; ++y)
            for (int x = int(g.left()); x < int(g.left()) + 200; ++x)
                if (img.pixel(x, y) != qRgb(255, 255, 255) && qGray(img.pixel(x, y)) < 235) {
                    firstGridRow = y;
                    break;
                }
        QVERIFY(firstGridRow >= int(g.top()) - 2);
        QVERIFY(firstGridRow <= int(g.top()) + 2);
        // Title ink in the band above, at full size: rows with dark pixels span >= 10 px.
        int inkRows = 0;
        for (int y = 0; y < int(g.top()) - 22; ++y) {
            bool ink = false;
            for (int x = 0; x < 400 && !ink; ++x)
                ink = qGray(img.pixel(x, y)) < 100;
            inkRows += ink;
        }
        QVERIFY2(inkRows >= 10, qPrintable(QString::number(inkRows)));
    }
    // A row or column number is drawn whole or not at all, apart from its neighbours: the last
    // number of a 1024- or 4096-wide grid is not cut to "100"/"400" by the view's edge, and on a
    // narrow grid "10" and "15" do not run together into "1015" (also with a hovered, bold
    // number). Checked against the pixels: every inked column of the header strip lies inside a
    // label that fits the strip.
    void axisNumbersWholeAndApart() {
        struct Case {
            const char* text;
            QSize size;
            std::optional<QPoint> hover; // (col, row)
        };
        const Case cases[] = {
            {"make_gemm_c_fragment((1024, 1024), 128)", {900, 700}, {}},
            {"make_gemm_c_fragment((1024, 1024), 128)", {1300, 520}, QPoint(1000, 3)},
            {"T.Layout([64, 4096], lambda i, j: i * 4096 + j)", {1100, 500}, {}},
            {"make_gemm_c_fragment((32, 16), 128)", {260, 300}, {}},
            {"make_gemm_c_fragment((32, 16), 128)", {200, 260}, QPoint(12, 9)},
        };
        for (const Case& k : cases) {
            GridView v;
            v.resize(k.size);
            v.show();
            v.setModel(gridOf(k.text));
            if (k.hover) v.setHoveredCell(k.hover->y(), k.hover->x());
            const QImage img = shot(v);
            const QString what = QStringLiteral("%1 at %2x%3")
                                     .arg(QLatin1String(k.text))
                                     .arg(k.size.width())
                                     .arg(k.size.height());
            for (const auto* spots : {&v.drawnColumnLabels(), &v.drawnRowLabels()}) {
                const bool cols = spots == &v.drawnColumnLabels();
                const QRectF strip = cols ? v.columnHeaderRect() : v.rowHeaderRect();
                const double lo = cols ? strip.left() : strip.top();
                const double hi = cols ? strip.right() : strip.bottom();
                // Row 0's number may reach into the empty corner above the row strip.
                const double corner = cols ? 0.0 : strip.top() - v.columnHeaderRect().top();
                QVERIFY2(spots->size() >= (cols ? 2u : 1u), qPrintable(what));
                for (std::size_t i = 0; i < spots->size(); ++i) {
                    const AxisLabelSpot& sp = (*spots)[i];
                    const double from = sp.index == 0 ? lo - corner : lo;
                    QVERIFY2(sp.lo >= from - 0.01 && sp.hi <= hi + 0.01,
                             qPrintable(what + QStringLiteral(": number %1 cut").arg(sp.index)));
                    if (i > 0)
                        QVERIFY2(sp.lo >= (*spots)[i - 1].hi + 0.99,
                                 qPrintable(what + QStringLiteral(": %1 touches %2")
                                                       .arg(sp.index)
                                                       .arg((*spots)[i - 1].index)));
                }
                if (!cols) continue;
                // Ink in the column strip only inside the drawn labels (plus antialiasing).
                const QRgb bg = qRgb(0xf7, 0xf8, 0xfa);
                for (int x = int(strip.left()) + 1; x < int(strip.right()) - 1; ++x) {
                    bool ink = false;
                    for (int y = int(strip.top()) + 1; y < int(strip.bottom()) - 1 && !ink; ++y)
                        ink = qGray(img.pixel(x, y)) < qGray(bg) - 80;
                    if (!ink) continue;
                    bool inside = false;
                    for (const AxisLabelSpot& sp : *spots)
                        inside = inside || (x >= sp.lo - 1 && x <= sp.hi + 1);
                    QVERIFY2(inside, qPrintable(what + QStringLiteral(": ink at x=%1").arg(x)));
                }
            }
            if (k.hover) {
                bool hovered = false;
                for (const AxisLabelSpot& sp : v.drawnColumnLabels())
                    hovered = hovered || sp.index == k.hover->x();
                QVERIFY2(hovered, qPrintable(what + QStringLiteral(": hovered number missing")));
            }
        }
        // The rule itself: 16 columns of 4.5 px with a step of 5 would put "15" (moved inwards
        // from the grid's edge) on top of "10"; it gives way instead.
        AxisLabelRequest r;
        r.first = 0;
        r.last = 15;
        r.count = 16;
        r.step = 5;
        r.stripLo = 0;
        r.stripHi = 72;
        r.centre = [](int c) { return (c + 0.5) * 4.5; };
        r.extent = [](int c) { return c < 10 ? 8.0 : 15.0; };
        const auto spots = placeAxisLabels(r);
        QCOMPARE(int(spots.size()), 3);
        QCOMPARE(spots.back().index, 10);
    }

    // Row numbers keep their rhythm from the top: on a 32x32 grid drawn with every second row
    // numbered, row 0's number (taller than its cell) does not push out "2" (0, 4, 6, ... was
    // drawn); it reaches into the empty header corner instead. Every height from thumbnail to
    // full screen.
    void rowNumbersKeepTheirStepFromZero() {
        const GridModel m = gridOf("T.Layout([32, 32], lambda i, j: i * 32 + j)");
        int checked = 0;
        for (int h = 240; h <= 1000; h += 20) {
            GridView v;
            v.resize(h + 40, h);
            v.show();
            v.setModel(m);
            v.zoomToFit();
            shot(v);
            const auto& rows = v.drawnRowLabels();
            const QString what = QStringLiteral("32x32 at height %1: rows %2").arg(h).arg([&] {
                QStringList l;
                for (const AxisLabelSpot& s : rows)
                    l << QString::number(s.index);
                return l.join(',');
            }());
            QVERIFY2(rows.size() >= 3, qPrintable(what));
            QCOMPARE(rows[0].index, 0);
            const int step = rows[1].index;
            // Every multiple of the step up to the last number drawn (31, moved inwards, may
            // take the place of the last multiple).
            for (std::size_t i = 1; i + 1 < rows.size(); ++i)
                QVERIFY2(rows[i].index == int(i) * step, qPrintable(what));
            checked += step == 2;
        }
        QVERIFY(checked > 0); // the step of the reported case was among them
    }

    // A legend lists only what is on the grid: no lane 8/16/24 swatch for an 8-thread fragment
    // or a fully replicated one (one colour), no "unused offset" for a layout that uses every
    // offset; every swatch's colour is found on the grid.
    void legendsListOnlyWhatIsDrawn() {
        const char* texts[] = {
            "T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j)",
            "make_fully_replicated_fragment((8, 8), 32)", "make_gemm_c_fragment((32, 16), 128)"};
        for (const char* text : texts) {
            const GridModel g = gridOf(text);
            QSet<QRgb> onGrid;
            for (int r = 0; r < g.rows(); ++r)
                for (int c = 0; c < g.cols(); ++c)
                    onGrid.insert(g.color(r, c));
            for (const LegendEntry& e : g.legend())
                if (qAlpha(e.color) == 255)
                    QVERIFY2(onGrid.contains((e.color | 0xff000000u)),
                             qPrintable(QLatin1String(text) + QStringLiteral(": ") + e.text));
        }
        const GridModel eight = gridOf(texts[0]);
        for (const LegendEntry& e : eight.legend())
            QVERIFY2(!e.text.contains(QStringLiteral("lane 8")), qPrintable(e.text));
        // ...and the 8 hues its cells have are all named (it listed only "lane 0"); a wider
        // fragment names four lanes evenly spaced over those it shows.
        auto lanesNamed = [](const GridModel& g) {
            QStringList l;
            QSet<QRgb> colours;
            for (const LegendEntry& e : g.legend())
                if (e.text.startsWith(QStringLiteral("lane ")) && !e.text.contains("warp")) {
                    l << e.text;
                    colours.insert(e.color);
                }
            return colours.size() == l.size() ? l.join(QStringLiteral(", "))
                                              : QStringLiteral("repeated colour");
        };
        QCOMPARE(lanesNamed(eight),
                 QStringLiteral("lane 0, lane 1, lane 2, lane 3, lane 4, lane 5, lane 6, lane 7"));
        QCOMPARE(lanesNamed(gridOf("T.Fragment([16, 4], forward_thread_fn=lambda i, j: i, "
                                   "forward_index_fn=lambda i, j: j)")),
                 QStringLiteral("lane 0, lane 4, lane 8, lane 12"));
        QCOMPARE(lanesNamed(gridOf("make_gemm_c_fragment((32, 16), 128)")),
                 QStringLiteral("lane 0, lane 8, lane 16, lane 24"));
        const GridModel mma = gridOf(texts[2]);
        QVERIFY(std::any_of(mma.legend().begin(), mma.legend().end(), [](const LegendEntry& e) {
            return e.text.contains(QStringLiteral("warp 1"));
        }));
        const GridModel out =
            GridModel::fromMapping(ts::parseMapping("T.Layout([8, 8], lambda i, j: j * 8 + i)"),
                                   ViewMode::Output, ColorMode::Thread);
        for (const LegendEntry& e : out.legend())
            QVERIFY2(!e.text.contains(QStringLiteral("unused")), qPrintable(e.text));
        const GridModel sparse =
            GridModel::fromMapping(ts::parseMapping("T.Layout([8, 8], lambda i, j: i * 16 + j)"),
                                   ViewMode::Output, ColorMode::Thread);
        QVERIFY(
            std::any_of(sparse.legend().begin(), sparse.legend().end(), [](const LegendEntry& e) {
                return e.text == QStringLiteral("unused offset");
            }));
    }

    // A banner that comes with an edit (the collision warning travels in the model) or with the
    // text's state (setBanner) takes its room from the cell area without hiding row 0 under the
    // column numbers, fitted or zoomed in; when it goes, the grid gets its room back: the same
    // scale and place as before, no empty band above the title.
    void bannerNeverHidesRowZeroAndGivesItsRoomBack() {
        const char* plain = "T.Fragment([16, 16], forward_thread_fn=lambda i, j: i, "
                            "forward_index_fn=lambda i, j: j)";
        const char* clash = "T.Fragment([16, 16], forward_thread_fn=lambda i, j: i, "
                            "forward_index_fn=lambda i, j: j % 4)";
        QVERIFY(gridOf(plain).collisionWarning().isEmpty());
        QVERIFY(!gridOf(clash).collisionWarning().isEmpty());
        GridView v;
        v.resize(700, 420);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setModel(gridOf(plain));
        QCoreApplication::processEvents();
        const double scale0 = v.scale();
        const QRectF grid0 = v.gridRectOnScreen(), title0 = v.titleRect();
        auto rowAtTop = [&] {
            const auto c = v.cellAtWidget(v.cellArea().topLeft() + QPointF(2, 2));
            return c ? c->y() : -1;
        };
        auto rowZeroShown = [&] {
            return v.gridRectOnScreen().top() >= v.cellArea().top() - 0.5 && rowAtTop() <= 0 &&
                   !v.verticalBar()->isVisible();
        };
        QVERIFY(rowZeroShown());

        // Fitted: an edit that brings the warning, then one that drops it; then the error banner.
        for (int round = 0; round < 2; ++round) {
            if (round == 0)
                v.setModel(gridOf(clash), true);
            else
                v.setBanner(QStringLiteral("The mapping has an error — showing the last valid "
                                           "layout"));
            QCoreApplication::processEvents();
            QVERIFY(v.columnHeaderRect().top() > title0.bottom()); // the banner's line is there
            QVERIFY2(rowZeroShown(), qPrintable(QStringLiteral("round %1").arg(round)));
            QCOMPARE(v.zoomRelative(), 1.0);
            if (round == 0)
                v.setModel(gridOf(plain), true);
            else
                v.setBanner({});
            QCoreApplication::processEvents();
            QCOMPARE(v.scale(), scale0);
            QCOMPARE(v.gridRectOnScreen(), grid0);
            QCOMPARE(v.titleRect(), title0);
        }

        // Zoomed in and scrolled to the top: row 0 stays the first row shown.
        for (int k = 0; k < 4; ++k)
            v.zoomIn();
        v.verticalBar()->setValue(0);
        QCoreApplication::processEvents();
        QVERIFY(v.verticalBar()->isVisible());
        QCOMPARE(rowAtTop(), 0);
        const double zoomed = v.scale();
        const QRectF gridZoomed = v.gridRectOnScreen();
        v.setModel(gridOf(clash), true);
        QCoreApplication::processEvents();
        QCOMPARE(v.scale(), zoomed);
        QCOMPARE(rowAtTop(), 0);
        QVERIFY(v.gridRectOnScreen().top() >= v.cellArea().top() - 0.5);
        v.setBanner(QStringLiteral("Evaluating… the grid shows the previous text"));
        QCOMPARE(rowAtTop(), 0);
        QVERIFY(v.gridRectOnScreen().top() >= v.cellArea().top() - 0.5);
        v.setBanner({});
        v.setModel(gridOf(plain), true);
        QCoreApplication::processEvents();
        QCOMPARE(v.gridRectOnScreen(), gridZoomed);
    }

    // A grid that does not fit even at the smallest zoom (the output view of a 4096 x 4096
    // fragment over 256 threads is 256 x 65536) opens at its first column, as "zoom 100%" and
    // the column numbers suggest, not scrolled to its middle (columns 20000 to 46000).
    void anOversizedGridOpensAtItsStart() {
        GridView v;
        v.resize(600, 400);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setModel(gridOf("T.Layout([2, 131072], lambda i, j: j * 2 + i)"));
        QCoreApplication::processEvents();
        QVERIFY(v.gridRectOnScreen().width() > v.cellArea().width()); // it does not fit
        QCOMPARE(v.zoomRelative(), 1.0);
        QCOMPARE(v.horizontalBar()->value(), 0);
        QCOMPARE(v.gridRectOnScreen().left(), v.cellArea().left()); // column 0 at the left
        // Zoom to Fit again after scrolling: back at the start.
        v.horizontalBar()->setValue(v.horizontalBar()->maximum() / 2);
        v.zoomToFit();
        QCOMPARE(v.horizontalBar()->value(), 0);
    }

    // The subtitle is shown whole: a CuTe TV layout's explains its axes in a line longer than a
    // small grid is wide ("...; th…" was all the window showed of it). It starts left of the grid
    // as far as it needs, and wraps when the view is narrower than it.
    void subtitleIsShownWhole() {
        const std::string text = "Shape_MNK: (16,8,16)\nLayoutC_TV: ((4,8),(2,2)):((32,1),(16,8))";
        GridModel g =
            GridModel::fromMapping(ts::parseMapping(text), ViewMode::Input, ColorMode::Thread);
        g.setAxisNote(GridModel::axisNoteFor(text));
        const QString sub = g.subtitle();
        QVERIFY2(sub.contains(QStringLiteral("TV layout")), qPrintable(sub));
        GridView v;
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setModel(g);
        QFont sf = v.font(), tf = v.font();
        sf.setPixelSize(11);
        tf.setPixelSize(14);
        tf.setBold(true);
        const QFontMetricsF sm(sf), tm(tf);
        QVERIFY(sm.horizontalAdvance(sub) > 500); // longer than the grid is wide at 700 px
        for (int w = 300; w <= 1400; w += 20) {
            v.resize(w, 500);
            QCoreApplication::processEvents();
            const QRectF t = v.titleRect();
            const QRectF need =
                sm.boundingRect(QRectF(0, 0, t.width(), 1e6), Qt::TextWordWrap, sub);
            QVERIFY2(t.left() >= 0 && t.right() <= w, qPrintable(QString::number(w)));
            QVERIFY2(need.height() <= t.height() - tm.height() - 4 + 0.5,
                     qPrintable(QStringLiteral("%1 px: subtitle needs %2 px, has %3")
                                    .arg(w)
                                    .arg(need.height())
                                    .arg(t.height() - tm.height())));
            QVERIFY(t.bottom() <= v.columnHeaderRect().top() + 0.5); // above the numbers
            if (w == 1400) QCOMPARE(need.height(), sm.height());     // room for one line: one line
        }
    }

    // A shown cell tooltip follows the view: after Ctrl++ without moving the mouse it names the
    // cell now under the mouse or is gone, never the cell that was there before the zoom.
    void tooltipFollowsKeyboardZoom() {
        GridView v;
        v.resize(700, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setModel(gridOf("make_gemm_c_fragment((16, 16), 64)"));
        QCoreApplication::processEvents();
        const QPoint at = v.gridRectOnScreen().topLeft().toPoint() + QPoint(40, 30);
        QCursor::setPos(v.mapToGlobal(at)); // the mouse rests where the tooltip was asked
        QCoreApplication::processEvents();
        const QPoint mouse = v.mapFromGlobal(QCursor::pos());
        const auto before = v.cellAtWidget(mouse);
        QVERIFY(before.has_value());
        QHelpEvent help(QEvent::ToolTip, mouse, v.mapToGlobal(mouse));
        QApplication::sendEvent(&v, &help);
        QVERIFY(QToolTip::isVisible());
        const QString tipBefore = QToolTip::text();
        QCOMPARE(tipBefore, v.toolTipFor(before->y(), before->x()));
        for (int k = 0; k < 3; ++k)
            v.zoomIn();
        const auto after = v.cellAtWidget(mouse);
        QVERIFY(after.has_value() && *after != *before);
        QVERIFY2(!QToolTip::isVisible() || QToolTip::text() == v.toolTipFor(after->y(), after->x()),
                 qPrintable(QToolTip::text()));
        // And after a new model of the same size (an edit).
        QApplication::sendEvent(&v, &help);
        QVERIFY(QToolTip::isVisible());
        v.setModel(gridOf("make_gemm_c_fragment((16, 16), 32)"), true);
        const auto cell = v.cellAtWidget(mouse);
        QVERIFY2(!QToolTip::isVisible() ||
                     (cell && QToolTip::text() == v.toolTipFor(cell->y(), cell->x())),
                 qPrintable(QToolTip::text()));
        QToolTip::hideText();
    }

    // Whoever shows the hovered cell (status bar, Details) is told what it is after a new model:
    // the new model's cell under the mouse, or none. The renderer forgets its hovered cell with
    // the model, and the view re-announced only the cell it still had (none): after an edit
    // that kept the grid's size, the status bar kept describing the previous layout's cell
    // (found by the GUI monkey).
    void hoveredCellIsAnnouncedForANewModel() {
        GridView v;
        v.resize(700, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setModel(gridOf("T.Layout([8, 8], lambda i, j: (j, i))"));
        QCoreApplication::processEvents();
        QSignalSpy spy(&v, &GridView::cellHovered);
        const QPoint at = v.gridRectOnScreen().center().toPoint();
        // The pointer itself is there too: Qt sends a view that a shown or hidden scrollbar
        // leaves elsewhere a Leave event.
        QCursor::setPos(v.mapToGlobal(at));
        QCoreApplication::processEvents();
        QMouseEvent move(QEvent::MouseMove, QPointF(at), QPointF(v.mapToGlobal(at)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(&v, &move);
        const auto hovered = v.hoveredCell();
        QVERIFY(hovered.has_value());
        QVERIFY(!spy.isEmpty());
        auto lastIs = [&](int row, int col) {
            return !spy.isEmpty() && spy.last().at(0).toInt() == row &&
                   spy.last().at(1).toInt() == col;
        };
        QVERIFY(lastIs(hovered->y(), hovered->x()));

        // An edit of the same size, view kept: the same cell, announced again for the new model.
        spy.clear();
        v.setModel(gridOf("T.Layout([8, 8], lambda i, j: (i, j))"), true);
        QCOMPARE(v.hoveredCell(), hovered);
        QVERIFY(lastIs(hovered->y(), hovered->x()));

        // Another size: the view fits it, and the cell under the mouse is that model's.
        spy.clear();
        v.setModel(gridOf("T.Layout([2, 3], lambda i, j: (j, i))"));
        const auto cell = v.cellAtWidget(QPointF(at));
        QVERIFY(cell.has_value());
        QCOMPARE(v.hoveredCell(), cell);
        QVERIFY(lastIs(cell->y(), cell->x()));

        // No grid: no cell.
        spy.clear();
        v.setModel(GridModel());
        QVERIFY(!v.hoveredCell().has_value());
        QVERIFY(lastIs(-1, -1));
    }

    // The zoom shown beside the grid (the status bar's "zoom N%") is relative to what fits: a
    // resize of a zoomed view changes it with the scale unchanged, and it is announced. It was
    // not: opening a panel below the grid left the status bar at the old percentage (found by
    // the GUI monkey).
    void relativeZoomIsAnnouncedOnResize() {
        GridView v;
        v.resize(700, 600);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        v.setModel(gridOf("T.Layout([8, 8], lambda i, j: (j, i))"));
        v.zoomIn();
        QSignalSpy spy(&v, &GridView::zoomRelativeChanged);
        const double before = v.zoomRelative();
        v.resize(700, 300);
        QCoreApplication::processEvents();
        QVERIFY(std::abs(v.zoomRelative() - before) > 0.01);
        QVERIFY(!spy.isEmpty());
        QCOMPARE(spy.last().at(0).toDouble(), v.zoomRelative());

        // An overlay set through the renderer (the bank heat map's way) whose legend takes
        // room: what fits changes without the view being told, and is announced after the
        // repaint it asks for.
        struct Striped : CellColorOverlay {
            std::optional<QRgb> cellColor(int, int) const override { return qRgb(200, 0, 0); }
            std::vector<LegendEntry> legend() const override {
                std::vector<LegendEntry> l;
                for (int k = 0; k < 40; ++k)
                    l.push_back({QColor::fromHsv(k * 9, 200, 200),
                                 QStringLiteral("a long legend entry number %1").arg(k)});
                return l;
            }
        };
        const double plain = v.zoomRelative();
        v.renderer().setCellColorOverlay(std::make_shared<Striped>());
        v.update();
        QTRY_VERIFY(std::abs(v.zoomRelative() - plain) > 0.01);
        QTRY_COMPARE(spy.last().at(0).toDouble(), v.zoomRelative());
    }
};

QTEST_MAIN(TestGridView)
#include "test_grid_view.moc"
