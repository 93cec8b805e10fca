// SPDX-License-Identifier: Apache-2.0
// Block aggregation for grid overviews (see grid_overview.h).
#include "grid/grid_overview.h"

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

namespace tsw {

namespace {

QRgb fade(QRgb c) {
    // The same fade the renderer applies to cells outside a highlight.
    const double t = 0.78;
    return qRgb(int(qRed(c) + (255 - qRed(c)) * t), int(qGreen(c) + (255 - qGreen(c)) * t),
                int(qBlue(c) + (255 - qBlue(c)) * t));
}

// The most common value (ties: the smallest) among `n` values read by `at`. Blocks mostly hold
// a handful of distinct values (warps, colours), so a short list of (value, count) pairs beats
// sorting a copy; past kMaxTally distinct values the sort takes over.
constexpr std::size_t kMaxTally = 32;

template <class T, class At>
T plurality(std::size_t n, At at, std::vector<std::pair<T, std::size_t>>& tally,
            std::vector<T>& sorted) {
    tally.clear();
    for (std::size_t i = 0; i < n && tally.size() <= kMaxTally; ++i) {
        const T v = at(i);
        auto it =
            std::find_if(tally.begin(), tally.end(), [&](const auto& e) { return e.first == v; });
        if (it == tally.end())
            tally.emplace_back(v, 1);
        else
            ++it->second;
    }
    if (tally.size() > kMaxTally) {
        sorted.clear();
        for (std::size_t i = 0; i < n; ++i)
            sorted.push_back(at(i));
        std::sort(sorted.begin(), sorted.end());
        tally.clear();
        for (std::size_t i = 0; i < n;) {
            std::size_t j = i;
            while (j < n && sorted[j] == sorted[i])
                ++j;
            tally.emplace_back(sorted[i], j - i);
            i = j;
        }
    }
    T best = tally[0].first;
    std::size_t bestCount = 0;
    for (const auto& [v, c] : tally)
        if (c > bestCount || (c == bestCount && v < best)) best = v, bestCount = c;
    return best;
}

} // namespace

int overviewBlock(double cellPx) {
    int k = 1;
    while (k < (1 << 20) && k * cellPx < 1.0)
        k *= 2;
    return k;
}

namespace {

// Block rows [by0, by1) of the overview.
void aggregateRows(const OverviewInput& in, int k, uchar* bits, qsizetype bytesPerLine, int bw,
                   int by0, int by1) {
    std::vector<std::size_t> cells; // the cells that speak for a block
    cells.reserve(std::size_t(k) * std::size_t(k));
    std::vector<std::pair<QRgb, std::size_t>> colorTally;
    std::vector<std::pair<std::int64_t, std::size_t>> groupTally;
    std::vector<QRgb> colorSort;
    std::vector<std::int64_t> groupSort;
    auto groupOf = [&](std::size_t i) {
        return in.groups[std::int64_t(i) * in.groupStride] / in.groupDivisor;
    };
    for (int by = by0; by < by1; ++by) {
        auto* line = reinterpret_cast<QRgb*>(bits + by * bytesPerLine);
        const int r0 = by * k, r1 = std::min(in.rows, r0 + k);
        for (int bx = 0; bx < bw; ++bx) {
            const int c0 = bx * k, c1 = std::min(in.cols, c0 + k);
            // The emphasised cells speak for the block when there are any, else all of them.
            cells.clear();
            if (in.emphasised)
                for (int r = r0; r < r1; ++r)
                    for (int c = c0; c < c1; ++c) {
                        const std::size_t i = std::size_t(r) * std::size_t(in.cols) + c;
                        if (in.emphasised[i]) cells.push_back(i);
                    }
            const bool emph = !cells.empty();
            if (!emph)
                for (int r = r0; r < r1; ++r) {
                    const std::size_t row = std::size_t(r) * std::size_t(in.cols);
                    for (int c = c0; c < c1; ++c)
                        cells.push_back(row + c);
                }
            const std::size_t n = cells.size();
            auto color = [&](std::size_t j) { return in.colors[cells[j]]; };
            // (1) the colour of more than half of the block (Boyer-Moore vote, then a count).
            QRgb cand = color(0);
            std::size_t votes = 0;
            for (std::size_t j = 0; j < n; ++j) {
                const QRgb x = color(j);
                if (votes == 0) cand = x;
                votes += x == cand ? 1 : std::size_t(-1);
            }
            std::size_t held = 0;
            for (std::size_t j = 0; j < n; ++j)
                held += color(j) == cand;
            QRgb out = cand;
            if (2 * held > n) {
                // one colour holds most of the block.
            } else if (in.groups && in.groupColor) {
                // (2) the block's most common group (warp).
                out = in.groupColor(plurality<std::int64_t>(
                    n, [&](std::size_t j) { return groupOf(cells[j]); }, groupTally, groupSort));
                if (in.dimUnemphasised && !emph) out = fade(out);
            } else if (in.continuous) {
                // (3) a ramp: the mean is the honest summary.
                std::uint64_t s[3] = {0, 0, 0};
                for (std::size_t j = 0; j < n; ++j) {
                    const QRgb c = color(j);
                    s[0] += qRed(c);
                    s[1] += qGreen(c);
                    s[2] += qBlue(c);
                }
                out = qRgb(int(s[0] / n), int(s[1] / n), int(s[2] / n));
            } else {
                // (4) categories without a majority: the most common one.
                out = plurality<QRgb>(n, color, colorTally, colorSort);
            }
            line[bx] = out;
        }
    }
}

} // namespace

QImage aggregateOverview(const OverviewInput& in, int k) {
    k = std::max(1, k);
    if (in.rows <= 0 || in.cols <= 0 || !in.colors) return {};
    const int bw = (in.cols + k - 1) / k, bh = (in.rows + k - 1) / k;
    QImage img(bw, bh, QImage::Format_RGB32);
    if (img.isNull()) return img;
    // Blocks are independent: over ~1M cells the block rows are split across the cores (each
    // thread writes its own scan lines; groupColor must be callable from any thread).
    const std::int64_t cells = std::int64_t(in.rows) * in.cols;
    const int threads =
        cells < (std::int64_t{1} << 20)
            ? 1
            : std::clamp(int(std::thread::hardware_concurrency()), 1, std::max(1, bh / 4));
    uchar* bits = img.bits(); // detached once here, not from the threads
    const qsizetype bpl = img.bytesPerLine();
    if (threads == 1) {
        aggregateRows(in, k, bits, bpl, bw, 0, bh);
        return img;
    }
    std::vector<std::thread> pool;
    const int per = (bh + threads - 1) / threads;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back([&, t] {
            aggregateRows(in, k, bits, bpl, bw, std::min(bh, t * per), std::min(bh, (t + 1) * per));
        });
    aggregateRows(in, k, bits, bpl, bw, 0, std::min(bh, per));
    for (auto& th : pool)
        th.join();
    return img;
}

} // namespace tsw
