// SPDX-License-Identifier: Apache-2.0
// Injectivity of a formula layout decided while its values stream past, without a table.
//
// Builtins check that what they build is one-to-one (T.gemm's fragments must be, or TileLang
// fails to lower them). On the largest grids a table of every cell's outputs is hundreds of
// megabytes that the check then throws away; one bit per output position is enough to see
// whether any position is reached twice. Only the answer "one-to-one" is given here: anything
// else goes back to the table path, which names the offending cells exactly as before.
#include "layout_eval.h"

#include "tilescope/support/limits.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace ts::detail {

namespace {

// Thrown from a sink to stop the pass at the first repeated position (not an error).
struct Repeated {};

// The most positions a bitmap may cover, per cell: each chunk has its own bitmap, and at 16 bits
// a cell all of them together stay below the table they replace (8 bytes a cell and output).
// Sparser outputs go to the table path.
constexpr std::int64_t kMaxPositionsPerCell = 16;

} // namespace

std::optional<bool> streamedInjective(const Shape& shape, const std::vector<Expr>& exprs,
                                      bool onto) {
    const std::int64_t cells = cellCount(shape);
    const std::size_t outs = exprs.size();
    if (cells == 0 || outs == 0) return std::nullopt;
    const std::size_t chunks = parallelChunks(cells);

    // Extents: free from the tabulated terms, else one streaming pass.
    Bounds bounds = tabulatedBounds(shape, exprs, 0);
    if (bounds.empty()) {
        std::vector<Bounds> per(chunks, Bounds(outs, {std::numeric_limits<std::int64_t>::max(),
                                                      std::numeric_limits<std::int64_t>::min()}));
        forEachBatchChunked(shape, exprs, 0, chunks,
                            [&](std::size_t c, std::int64_t, std::size_t n, const auto& o) {
                                for (std::size_t k = 0; k < outs; ++k) {
                                    const auto [mn, mx] = std::minmax_element(o[k], o[k] + n);
                                    per[c][k].first = std::min(per[c][k].first, *mn);
                                    per[c][k].second = std::max(per[c][k].second, *mx);
                                }
                            });
        bounds = per[0];
        for (std::size_t c = 1; c < chunks; ++c)
            for (std::size_t k = 0; k < outs; ++k) {
                bounds[k].first = std::min(bounds[k].first, per[c][k].first);
                bounds[k].second = std::max(bounds[k].second, per[c][k].second);
            }
    }
    // Positions are row-major over [0, max + 1) per output, as the table's output shape is.
    std::vector<std::int64_t> extent(outs);
    std::int64_t space = 1;
    for (std::size_t k = 0; k < outs; ++k) {
        if (bounds[k].first < 0) return std::nullopt; // the table path reports the negative cell
        extent[k] = bounds[k].second + 1;
        if (space > kMaxPositionsPerCell * cells / extent[k]) return std::nullopt;
        space *= extent[k];
    }
    if (space < cells) return false;          // more cells than positions: some repeat
    if (onto && space != cells) return false; // one-to-one but with holes
    const std::size_t words = static_cast<std::size_t>((space + 63) / 64);

    // One bitmap per chunk (each chunk writes only its own), then the chunks must not overlap.
    std::vector<std::vector<std::uint64_t>> seen(chunks);
    std::vector<char> repeated(chunks, 0);
    try {
        forEachBatchChunked(shape, exprs, 0, chunks,
                            [&](std::size_t c, std::int64_t, std::size_t n, const auto& o) {
                                std::vector<std::uint64_t>& bits = seen[c];
                                if (bits.empty()) bits.assign(words, 0);
                                for (std::size_t p = 0; p < n; ++p) {
                                    std::int64_t pos = 0;
                                    for (std::size_t k = 0; k < outs; ++k)
                                        pos = pos * extent[k] + o[k][p];
                                    const std::uint64_t bit = std::uint64_t{1} << (pos & 63);
                                    std::uint64_t& w = bits[static_cast<std::size_t>(pos >> 6)];
                                    if (w & bit) {
                                        repeated[c] = 1;
                                        throw Repeated{};
                                    }
                                    w |= bit;
                                }
                            });
    } catch (const Repeated&) {
        return false;
    }
    if (std::any_of(repeated.begin(), repeated.end(), [](char r) { return r != 0; })) return false;
    if (seen[0].empty()) seen[0].assign(words, 0);
    for (std::size_t c = 1; c < chunks; ++c) {
        if (seen[c].empty()) continue;
        for (std::size_t w = 0; w < words; ++w) {
            if (seen[0][w] & seen[c][w]) return false;
            seen[0][w] |= seen[c][w];
        }
    }
    return true;
}

} // namespace ts::detail
