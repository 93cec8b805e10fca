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

// Boyer-Moore vote: the value held by more than half of `v`, if any.
template <class T> bool majority(const std::vector<T>& v, T* out) {
    if (v.empty()) return false;
    T cand = v[0];
    std::size_t votes = 0;
    for (const T& x : v) {
        if (votes == 0) cand = x;
        votes += x == cand ? 1 : std::size_t(-1);
    }
    std::size_t n = 0;
    for (const T& x : v)
        n += x == cand;
    if (2 * n <= v.size()) return false;
    *out = cand;
    return true;
}

// The most common value (ties: the smallest), by sorting a copy.
template <class T> T plurality(std::vector<T>& v) {
    std::sort(v.begin(), v.end());
    T best = v[0];
    std::size_t bestRun = 0;
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        while (j < v.size() && v[j] == v[i])
            ++j;
        if (j - i > bestRun) {
            bestRun = j - i;
            best = v[i];
        }
        i = j;
    }
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
    std::vector<QRgb> colors;
    std::vector<std::int64_t> groups;
    std::vector<std::size_t> cells;
    colors.reserve(std::size_t(k) * std::size_t(k));
    cells.reserve(std::size_t(k) * std::size_t(k));
    for (int by = by0; by < by1; ++by) {
        auto* line = reinterpret_cast<QRgb*>(bits + by * bytesPerLine);
        const int r0 = by * k, r1 = std::min(in.rows, r0 + k);
        for (int bx = 0; bx < bw; ++bx) {
            const int c0 = bx * k, c1 = std::min(in.cols, c0 + k);
            // The cells that speak for the block: the emphasised ones when there are any.
            cells.clear();
            if (in.emphasised)
                for (int r = r0; r < r1; ++r)
                    for (int c = c0; c < c1; ++c) {
                        const std::size_t i = std::size_t(r) * std::size_t(in.cols) + c;
                        if (in.emphasised[i]) cells.push_back(i);
                    }
            const bool emph = !cells.empty();
            if (!emph)
                for (int r = r0; r < r1; ++r)
                    for (int c = c0; c < c1; ++c)
                        cells.push_back(std::size_t(r) * std::size_t(in.cols) + c);
            colors.clear();
            for (std::size_t i : cells)
                colors.push_back(in.colors[i]);
            QRgb out = colors[0];
            if (majority(colors, &out)) {
                // (1) one colour holds most of the block.
            } else if (in.groups && in.groupColor) {
                // (2) the block's most common group (warp).
                groups.clear();
                for (std::size_t i : cells)
                    groups.push_back(in.groups[i]);
                out = in.groupColor(plurality(groups));
                if (in.dimUnemphasised && !emph) out = fade(out);
            } else if (in.continuous) {
                // (3) a ramp: the mean is the honest summary.
                std::uint64_t s[3] = {0, 0, 0};
                for (QRgb c : colors) {
                    s[0] += qRed(c);
                    s[1] += qGreen(c);
                    s[2] += qBlue(c);
                }
                const std::uint64_t n = colors.size();
                out = qRgb(int(s[0] / n), int(s[1] / n), int(s[2] / n));
            } else {
                // (4) categories without a majority: the most common one.
                out = plurality(colors);
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
