// SPDX-License-Identifier: Apache-2.0
// Threadblock rasterization (see raster.h).
#include "tilescope/banks/raster.h"

#include "tilescope/support/errors.h"

#include <algorithm>
#include <cctype>

namespace ts {

RasterOrder parseRasterOrder(const std::string& in) {
    std::string s;
    for (char c : in)
        s += char(std::tolower(static_cast<unsigned char>(c)));
    if (s == "plain" || s == "none" || s == "linear") return RasterOrder::Plain;
    if (s == "row") return RasterOrder::Row;
    if (s == "col" || s == "column") return RasterOrder::Column;
    if (s == "mlx") return RasterOrder::Mlx;
    throw InputError("unknown rasterization order '" + in + "' (plain, row, column, mlx)");
}

std::string rasterOrderName(RasterOrder o) {
    switch (o) {
    case RasterOrder::Plain:
        return "plain";
    case RasterOrder::Row:
        return "row";
    case RasterOrder::Column:
        return "column";
    case RasterOrder::Mlx:
        return "mlx";
    }
    return "?";
}

std::vector<BlockCoord> rasterize(std::int64_t gx, std::int64_t gy, std::int64_t P,
                                  RasterOrder order) {
    if (gx < 1 || gy < 1 || gx * gy > (std::int64_t{1} << 22))
        throw InputError("grid " + std::to_string(gx) + " x " + std::to_string(gy) +
                         " must be non-empty and at most 2^22 blocks");
    if (P < 1) throw InputError("panel size must be >= 1, got " + std::to_string(P));
    const std::int64_t grid = gx * gy;
    std::vector<BlockCoord> out;
    out.reserve(std::size_t(grid));
    switch (order) {
    case RasterOrder::Plain:
        for (std::int64_t id = 0; id < grid; ++id)
            out.push_back({id % gx, id / gx, true});
        break;
    case RasterOrder::Row:
    case RasterOrder::Column: {
        const bool row = order == RasterOrder::Row;
        const std::int64_t along = row ? gx : gy;  // the dimension a panel spans fully
        const std::int64_t across = row ? gy : gx; // the dimension split into panels
        (void)across;
        const std::int64_t panel = P * along;
        const std::int64_t total = (grid + panel - 1) / panel;
        for (std::int64_t id = 0; id < grid; ++id) {
            const std::int64_t o = id % panel, p = id / panel;
            const std::int64_t stride = p + 1 < total ? P : (grid - p * panel) / along;
            const std::int64_t a = (p & 1) ? along - 1 - o / stride : o / stride;
            const std::int64_t b = o % stride + p * P;
            out.push_back(row ? BlockCoord{a, b, true} : BlockCoord{b, a, true});
        }
        break;
    }
    case RasterOrder::Mlx: {
        if (P & (P - 1))
            throw InputError("mlx rasterization needs a power-of-two panel size, got " +
                             std::to_string(P));
        int log = 0;
        while ((std::int64_t{1} << log) < P)
            ++log;
        const std::int64_t px = gx * P, py = (gy + P - 1) / P;
        for (std::int64_t y = 0; y < py; ++y)
            for (std::int64_t x = 0; x < px; ++x) {
                BlockCoord b{x >> log, (y << log) + (x & (P - 1)), true};
                b.active = b.by < gy && b.bx < gx;
                out.push_back(b);
            }
        break;
    }
    }
    return out;
}

std::vector<RasterWave> rasterWaves(const std::vector<BlockCoord>& order, std::int64_t resident) {
    if (resident < 1) throw InputError("resident blocks must be >= 1");
    std::vector<RasterWave> waves;
    RasterWave cur;
    auto flush = [&] {
        if (!cur.count) return;
        for (auto* v : {&cur.a_tiles, &cur.b_tiles}) {
            std::sort(v->begin(), v->end());
            v->erase(std::unique(v->begin(), v->end()), v->end());
        }
        waves.push_back(cur);
        cur = RasterWave{};
        cur.wave = int(waves.size());
    };
    for (std::size_t i = 0; i < order.size(); ++i) {
        const BlockCoord& b = order[i];
        if (!b.active) continue; // mlx padding blocks exit at once
        if (cur.count == 0) cur.first = std::int64_t(i);
        cur.a_tiles.push_back(b.by);
        cur.b_tiles.push_back(b.bx);
        if (++cur.count == resident) flush();
    }
    flush();
    return waves;
}

std::vector<std::int64_t> launchIndexGrid(const std::vector<BlockCoord>& order, std::int64_t gx,
                                          std::int64_t gy) {
    std::vector<std::int64_t> g(std::size_t(gx * gy), -1);
    std::int64_t n = 0;
    for (const BlockCoord& b : order) {
        if (!b.active) continue;
        if (b.bx >= 0 && b.bx < gx && b.by >= 0 && b.by < gy) g[std::size_t(b.by * gx + b.bx)] = n;
        ++n;
    }
    return g;
}

} // namespace ts
