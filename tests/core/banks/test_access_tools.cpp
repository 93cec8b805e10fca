// SPDX-License-Identifier: Apache-2.0
// Swizzle XOR tables and search, threadblock rasterization (TileLang's rasterization2DRow /
// Column and Metal's MLX), Ascend fractal previews.
#include "tilescope/banks/fractal.h"
#include "tilescope/banks/raster.h"
#include "tilescope/banks/swizzle_search.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <set>

using namespace ts;

TEST(XorTables, PerWidthAndDtype) {
    XorTable full = xorTable(128, "float16");
    EXPECT_EQ(full.k, 8);
    EXPECT_EQ(full.elements_per_chunk, 8);
    EXPECT_EQ(full.columns, 64);
    EXPECT_EQ(full.table[3][5], 6);
    XorTable half = xorTable(64, "float32");
    EXPECT_EQ(half.k, 4);
    EXPECT_EQ(half.elements_per_chunk, 4);
    EXPECT_EQ(half.table[5][1], 1 ^ 2); // f = s / 2
    XorTable quarter = xorTable(32, "int8");
    EXPECT_EQ(quarter.columns, 32);
    EXPECT_EQ(quarter.table[3][1], 1);
    EXPECT_EQ(quarter.table[4][1], 0);
    EXPECT_THROW(xorTable(48, "float16"), InputError);
    EXPECT_NE(formatXorTable(full).find("period 8 rows"), std::string::npos);
}

TEST(SwizzleSearch, RowWritesAndLdmatrixReads) {
    const std::string write = "fragment:T.Fragment([32, 64], forward_thread_fn=lambda i, j: i, "
                              "forward_index_fn=lambda i, j: j)";
    SwizzleSearch s = searchSwizzle(32, 64, "float16", write, "ldmatrix:x4");
    ASSERT_GE(s.best, 0);
    const SwizzleCandidate& best = s.candidates[std::size_t(s.best)];
    // Conflict-free for both: 8 x 4 wavefronts of 16-byte writes + 4 for ldmatrix.x4. The
    // 32B swizzle, 64B, 128B and make_swizzled_layout tie at 36 with 4096 B; 16 B padding ties
    // too but costs 4592 B. The first of the cheapest wins.
    EXPECT_EQ(best.total(), 36);
    EXPECT_EQ(best.footprint_bytes, 4096);
    EXPECT_EQ(best.name, "32B swizzle");
    EXPECT_TRUE(best.bijective);
    const SwizzleCandidate& rm = s.candidates[0];
    EXPECT_EQ(rm.name, "row-major");
    EXPECT_EQ(rm.write_wavefronts, 256);
    EXPECT_EQ(rm.read_wavefronts, 32);
    const SwizzleCandidate& pad16 = s.candidates[3];
    EXPECT_EQ(pad16.name, "pad 16 B");
    EXPECT_EQ(pad16.total(), 36);
    EXPECT_FALSE(pad16.bijective); // holes: injective only
    EXPECT_EQ(pad16.footprint_bytes, (31 * 72 + 64) * 2);
    // pad 4 B misaligns ldmatrix rows: not a candidate for this read.
    EXPECT_FALSE(s.candidates[1].legal);
    EXPECT_NE(s.candidates[1].problem.find("misaligned"), std::string::npos);
}

TEST(SwizzleSearch, IllegalShapesAreReported) {
    std::vector<SwizzleCandidate> c = swizzleCandidates(8, 16, "float16");
    int illegal = 0;
    for (const auto& x : c)
        illegal += !x.legal;
    EXPECT_EQ(illegal, 2); // 64B and 128B need 32 / 64 columns
    std::vector<SwizzleCandidate> d = swizzleCandidates(8, 16, "float64");
    EXPECT_FALSE(d[1].legal); // 4 B padding is smaller than one element
}

namespace {
void expectPermutation(const std::vector<BlockCoord>& o, std::int64_t gx, std::int64_t gy) {
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (const BlockCoord& b : o)
        if (b.active) {
            ASSERT_TRUE(b.bx >= 0 && b.bx < gx && b.by >= 0 && b.by < gy) << b.bx << "," << b.by;
            ASSERT_TRUE(seen.insert({b.bx, b.by}).second) << b.bx << "," << b.by;
        }
    EXPECT_EQ(std::int64_t(seen.size()), gx * gy);
}
} // namespace

TEST(Raster, RowOrderSerpentinePanels) {
    std::vector<BlockCoord> o = rasterize(4, 4, 2, RasterOrder::Row);
    const std::vector<std::pair<int, int>> expect = {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1},
                                                     {3, 0}, {3, 1}, {3, 2}, {3, 3}, {2, 2}, {2, 3},
                                                     {1, 2}, {1, 3}, {0, 2}, {0, 3}};
    ASSERT_EQ(o.size(), expect.size());
    for (std::size_t i = 0; i < o.size(); ++i) {
        EXPECT_EQ(o[i].bx, expect[i].first) << i;
        EXPECT_EQ(o[i].by, expect[i].second) << i;
    }
    // Ragged last panel (gy = 5): stride (20 - 16) / 4 = 1, not reversed (panel 2 is even).
    std::vector<BlockCoord> r = rasterize(4, 5, 2, RasterOrder::Row);
    EXPECT_EQ(r[16].bx, 0);
    EXPECT_EQ(r[16].by, 4);
    EXPECT_EQ(r[19].bx, 3);
    for (auto [gx, gy, p] : std::vector<std::tuple<int, int, int>>{
             {4, 5, 2}, {7, 3, 4}, {1, 9, 3}, {16, 16, 8}, {5, 13, 10}, {3, 3, 1}})
        for (RasterOrder ord : {RasterOrder::Plain, RasterOrder::Row, RasterOrder::Column})
            expectPermutation(rasterize(gx, gy, p, ord), gx, gy);
}

TEST(Raster, ColumnAndMlx) {
    std::vector<BlockCoord> c = rasterize(4, 4, 2, RasterOrder::Column);
    EXPECT_EQ(c[1].bx, 1);
    EXPECT_EQ(c[1].by, 0);
    EXPECT_EQ(c[2].bx, 0);
    EXPECT_EQ(c[2].by, 1);
    EXPECT_EQ(c[8].bx, 2);
    EXPECT_EQ(c[8].by, 3); // second panel runs bottom-up
    std::vector<BlockCoord> m = rasterize(3, 5, 2, RasterOrder::Mlx);
    EXPECT_EQ(m.size(), 6u * 3u);
    EXPECT_EQ(m[1].bx, 0);
    EXPECT_EQ(m[1].by, 1);
    EXPECT_EQ(m[2].bx, 1);
    EXPECT_EQ(m[2].by, 0);
    EXPECT_FALSE(m[13].active); // by = 5
    expectPermutation(m, 3, 5);
    EXPECT_THROW(rasterize(3, 5, 3, RasterOrder::Mlx), InputError);
    EXPECT_THROW(parseRasterOrder("diagonal"), InputError);
}

TEST(Raster, WavesTouchFewerTilesWhenSwizzled) {
    std::vector<RasterWave> plain = rasterWaves(rasterize(16, 16, 4, RasterOrder::Plain), 16);
    EXPECT_EQ(plain[0].a_tiles.size(), 1u);
    EXPECT_EQ(plain[0].b_tiles.size(), 16u);
    std::vector<RasterWave> row = rasterWaves(rasterize(16, 16, 4, RasterOrder::Row), 16);
    EXPECT_EQ(row[0].a_tiles.size(), 4u);
    EXPECT_EQ(row[0].b_tiles.size(), 4u);
    EXPECT_EQ(row.size(), 16u);
    std::vector<std::int64_t> g = launchIndexGrid(rasterize(4, 4, 2, RasterOrder::Row), 4, 4);
    EXPECT_EQ(g[1 * 4 + 0], 1); // (by 1, bx 0) is launched second
}

TEST(Fractal, ZnFootprintPaddingAndPositions) {
    FractalView v = fractalView(FractalKind::zN, 20, 20, "float16");
    EXPECT_EQ(v.c0, 16);
    EXPECT_EQ(v.fractals, 4);
    EXPECT_EQ(v.footprint_elements, 1024);
    EXPECT_EQ(v.padding_elements(), 1024 - 400);
    EXPECT_EQ(v.footprint_bytes(), 2048);
    EXPECT_EQ(v.offset[17 * 20 + 9], 281);
    auto [pr, pc] = v.physPos(281);
    EXPECT_EQ(pr, 1);
    EXPECT_EQ(pc, 25);
    EXPECT_EQ(v.phys_cell[std::size_t(pr * v.phys_cols + pc)], 17 * 20 + 9);
    std::int64_t pad = 0;
    for (std::int64_t c : v.phys_cell)
        pad += c < 0;
    EXPECT_EQ(pad, v.padding_elements());
    FractalView f32 = fractalView(FractalKind::zN, 20, 20, "float32");
    EXPECT_EQ(f32.c0, 8);
    EXPECT_EQ(f32.fractals, 6);
    EXPECT_EQ(f32.footprint_elements, 768);
    FractalView l0c = fractalView(FractalKind::L0C, 20, 20, "float32");
    EXPECT_EQ(l0c.frac_cols, 16);
    EXPECT_EQ(l0c.footprint_elements, 1024);
    FractalView nz = fractalView(FractalKind::nZ, 16, 16, "float16");
    // nZ stores the fractal transposed: (r, c) at (c % 16) * C0 + r % C0.
    EXPECT_EQ(nz.offset[1 * 16 + 0], 1);
    EXPECT_EQ(nz.offset[0 * 16 + 1], 16);
    FractalView zz = fractalView(FractalKind::zZ, 32, 40, "int8");
    EXPECT_EQ(zz.c0, 32);
    EXPECT_EQ(zz.fractals, 2 * 2);
    EXPECT_EQ(zz.logicalBlock(17, 33), 3);
    EXPECT_THROW(parseFractalKind("zq"), InputError);
}
