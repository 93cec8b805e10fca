// SPDX-License-Identifier: Apache-2.0
// Threadblock rasterization: TileLang's T.use_swizzle(panel_size, order) (the OTHER "swizzle",
// of block ids for L2 reuse; not the shared-memory one). The block-id -> (bx, by) mappings are
// those of tl::rasterization2DRow / rasterization2DColumn (src/tl_templates/cuda/
// threadblock_swizzle.h) and Metal's rasterization2DMLX (order="mlx", panel a power of two):
//   linear id = blockIdx.x + blockIdx.y * gridDim.x, dispatched in increasing linear id.
//   row:    panel = panel_size * gx; p = id / panel, o = id % panel; stride = panel_size, or for
//           the last panel (grid - p * panel) / gx; bx = p odd ? gx - 1 - o / stride : o / stride;
//           by = o % stride + p * panel_size.
//   column: the same with gx <-> gy and bx <-> by.
//   mlx:    launched on a (gx * P, ceil(gy / P)) grid; bx = x >> log2 P,
//           by = (y << log2 P) + (x & (P - 1)); blocks with by >= gy exit at once.
// Block (bx, by) computes C tile (by, bx) of a GEMM: it reads A row panel `by` and B column
// panel `bx` (TileLang's `T.Kernel(ceildiv(N, bN), ceildiv(M, bM)) as (bx, by)`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

enum class RasterOrder { Plain, Row, Column, Mlx };
RasterOrder parseRasterOrder(const std::string& s); // "plain"/"none", "row", "col"/"column", "mlx"
std::string rasterOrderName(RasterOrder o);

struct BlockCoord {
    std::int64_t bx = 0, by = 0;
    bool active = true; // false: an mlx padding block that exits
};

// Launch order: element i is the logical block dispatched i-th. Throws InputError for a grid
// that is empty or too large (> 2^22 blocks), a panel size < 1, or an mlx panel that is not a
// power of two.
std::vector<BlockCoord> rasterize(std::int64_t gx, std::int64_t gy, std::int64_t panel,
                                  RasterOrder order);

struct RasterWave {
    int wave = 0;
    std::int64_t first = 0, count = 0; // launch indices [first, first + count)
    std::vector<std::int64_t> a_tiles; // distinct by (A row panels), sorted
    std::vector<std::int64_t> b_tiles; // distinct bx (B column panels), sorted
};
// Waves of `resident` blocks at a time (SM count x blocks per SM), in launch order.
std::vector<RasterWave> rasterWaves(const std::vector<BlockCoord>& order, std::int64_t resident);

// Per (by, bx) cell: launch index (row-major over gy x gx), -1 when never launched.
std::vector<std::int64_t> launchIndexGrid(const std::vector<BlockCoord>& order, std::int64_t gx,
                                          std::int64_t gy);

} // namespace ts
