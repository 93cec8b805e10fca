// SPDX-License-Identifier: Apache-2.0
#include "grid/gridmodel.h"

#include "tilescope/layout/slot_collisions.h"
#include "tilescope/notation/interop.h"

#include "tilescope/support/errors.h"

#include "common/wording.h"

#include <QLocale>
#include <algorithm>
#include <array>
#include <unordered_map>

namespace tsw {

namespace {

std::pair<int, int> flatten2d(const ts::Shape& s) {
    if (s.empty()) return {1, 1};
    if (s.size() == 1) return {1, static_cast<int>(s[0])};
    std::int64_t rows = 1;
    for (std::size_t k = 0; k + 1 < s.size(); ++k)
        rows *= s[k];
    return {static_cast<int>(rows), static_cast<int>(s.back())};
}

void unravel(std::int64_t flat, const ts::Shape& s, std::vector<std::int64_t>& out) {
    out.assign(s.size(), 0);
    for (std::size_t k = s.size(); k-- > 0;) {
        out[k] = flat % s[k];
        flat /= s[k];
    }
}

QString tuple(const std::int64_t* v, std::size_t n, bool brackets = false) {
    QString s = brackets ? QStringLiteral("[") : QStringLiteral("(");
    for (std::size_t k = 0; k < n; ++k) {
        if (k) s += brackets ? QStringLiteral(",") : QStringLiteral(", ");
        s += QString::number(v[k]);
    }
    return s + (brackets ? QStringLiteral("]") : QStringLiteral(")"));
}

int digits(std::int64_t v) {
    int d = 1;
    while (v >= 10) {
        v /= 10;
        ++d;
    }
    return d;
}

QString shapeText(const ts::Shape& s) {
    QString t;
    for (std::size_t k = 0; k < s.size(); ++k) {
        if (k) t += QChar(0x00D7);
        t += QString::number(s[k]);
    }
    return t;
}

void checkDrawable(std::int64_t cells, const char* what) {
    if (cells > kMaxDrawCells)
        throw ts::InputError(
            std::string("this layout is too large to draw: its ") + what + " has " +
            QLocale(QLocale::English).toString(qlonglong(cells)).toStdString() +
            " cells, and the grid draws at most " +
            QLocale(QLocale::English).toString(qlonglong(kMaxDrawCells)).toStdString() +
            " (4096 x 4096); use `tilescope-cli table` for the numbers");
}

} // namespace

struct GridModel::Data {
    Kind kind = Kind::Empty;
    int rows = 0, cols = 0;
    ViewMode view = ViewMode::Input;
    ColorMode color = ColorMode::Thread;
    ts::Shape inShape;
    // Fragment
    ts::FragmentTable frag;
    // Each cell's flattened local slot: the table's own column when the local shape has rank 1
    // (no copy of a 16M-cell column), else localFlatOwned.
    const std::int64_t* localFlat = nullptr;
    std::vector<std::int64_t> localFlatOwned;
    std::int64_t localCount = 1;
    // Layout
    ts::LayoutTable lay;
    std::vector<std::int64_t> outFlat; // input view: per logical cell
    std::vector<std::int64_t> src;     // output view: per physical cell, -1 when unfilled
    std::int64_t collisions = 0;
    std::int64_t maxOut = 0;
    // Fragment slot collisions (ts::findSlotCollisions), found where the model is built (the
    // evaluation worker), so painting never re-scans the table.
    std::int64_t slotCollisions = 0;
    std::vector<bool> colliding;
    QString collisionWarning;
    // Layout cells that share their offset with another cell (a non-injective T.Layout); the
    // warning and `colliding` then describe them.
    std::int64_t aliasedCells = 0;

    std::vector<QRgb> colors;
    std::vector<LegendEntry> legend;
    QString title, subtitle;
    int maxLen[2] = {1, 1};
};

// ---------------------------------------------------------------- modes

ViewMode viewModeFromString(const std::string& s) {
    return (s == "output" || s == "out" || s == "dst") ? ViewMode::Output : ViewMode::Input;
}
ColorMode colorModeFromString(const std::string& s) {
    if (s == "warp") return ColorMode::Warp;
    if (s == "slot") return ColorMode::Slot;
    if (s == "replica") return ColorMode::Replica;
    return ColorMode::Thread;
}
std::string viewModeName(ViewMode v) {
    return v == ViewMode::Output ? "output" : "input";
}
std::string colorModeName(ColorMode c) {
    switch (c) {
    case ColorMode::Warp:
        return "warp";
    case ColorMode::Slot:
        return "slot";
    case ColorMode::Replica:
        return "replica";
    default:
        return "thread";
    }
}

// ---------------------------------------------------------------- construction

GridModel GridModel::fromMapping(const ts::Mapping& m, ViewMode view, ColorMode color) {
    GridModel g;
    if (const auto* f = std::get_if<ts::Fragment>(&m)) {
        checkDrawable(ts::cellCount(f->inputShape()), "logical shape");
        g = fromFragment(f->evaluate(), color, view);
    } else {
        const auto& l = std::get<ts::Layout>(m);
        checkDrawable(ts::cellCount(l.inputShape()), "logical shape");
        g = fromLayout(l.evaluate(), view);
    }
    for (const std::string& note : ts::mappingNotes(m))
        g.notes_ << QString::fromStdString(note);
    return g;
}

QString GridModel::notesLine() const {
    if (notes_.isEmpty()) return {};
    return QStringLiteral("⚠ ") + notes_.join(QStringLiteral("; "));
}

namespace {

// "T0/T32" for a replica thread set (sorted), abbreviated past four threads.
QString threadSetText(const std::vector<std::int64_t>& th) {
    QString s;
    if (th.size() <= 4) {
        for (std::size_t k = 0; k < th.size(); ++k)
            s += (k ? QStringLiteral("/T") : QStringLiteral("T")) + QString::number(th[k]);
        return s;
    }
    return QStringLiteral("T%1/T%2/…/T%3 (%4 threads)")
        .arg(th[0])
        .arg(th[1])
        .arg(th.back())
        .arg(th.size());
}

constexpr std::int64_t kMaxReplicaLegend = 12;

// The register file: row = thread, column = flattened local slot; each register shows the
// logical element it holds (every replica's thread holds a copy). Coloured by the element's
// logical position, as a Layout's output view is.
void fillFragmentOutput(GridModel::Data& d) {
    const ts::FragmentTable& t = d.frag;
    const std::int64_t n = t.cells(), R = t.replicate;
    const std::int64_t T = std::max<std::int64_t>(t.threadExtent, 1), L = d.localCount;
    checkDrawable(T * L, "register file (threads x slots)");
    d.kind = GridModel::Kind::FragmentOutput;
    d.view = ViewMode::Output;
    d.rows = static_cast<int>(T);
    d.cols = static_cast<int>(L);
    d.src.assign(std::size_t(T * L), -1);
    for (std::int64_t c = 0; c < n; ++c)
        for (std::int64_t k = 0; k < R; ++k) {
            const std::int64_t th = t.threads[c * R + k];
            if (th < 0 || th >= T) continue;
            std::int64_t& slot = d.src[std::size_t(th * L + d.localFlat[c])];
            if (slot >= 0 && slot != c) ++d.collisions;
            slot = c;
        }
    const QRgb grey = kUnusedGrey;
    d.colors.resize(d.src.size());
    for (std::size_t o = 0; o < d.src.size(); ++o)
        d.colors[o] =
            d.src[o] < 0 ? grey : rampColor(n > 1 ? double(d.src[o]) / double(n - 1) : 0.0);
    d.title = QStringLiteral("Fragment [%1] → %2 × %3%4 (output view)")
                  .arg(shapeText(t.inputShape))
                  .arg(countNoun(t.threadExtent, QStringLiteral("thread")))
                  .arg(countNoun(L, QStringLiteral("slot")))
                  .arg(R > 1 ? QStringLiteral(", replicate %1").arg(R) : QString());
    d.subtitle = QStringLiteral("rows: threads, columns: register slots; label: the element held");
    std::int64_t maxDim = 1;
    for (auto e : t.inputShape)
        maxDim = std::max(maxDim, e);
    const int r = static_cast<int>(t.inputShape.size());
    d.maxLen[0] = 2 + r * digits(maxDim - 1) + (r - 1);
    d.legend = {{rampColor(0), QStringLiteral("first element")},
                {rampColor(1), QStringLiteral("last element")}};
    if (std::count(d.src.begin(), d.src.end(), -1) > 0)
        d.legend.push_back({kUnusedGrey, QStringLiteral("unused register")});
    if (d.collisions)
        d.legend.push_back(
            {kTransparent, d.collisions == 1
                               ? QStringLiteral("1 register holds two elements (last shown)")
                               : QStringLiteral("%1 registers hold two elements (last shown)")
                                     .arg(d.collisions)});
}

} // namespace

bool colorModesApply(GridModel::Kind k) {
    return k == GridModel::Kind::Fragment;
}

GridModel GridModel::fromFragment(ts::FragmentTable table, ColorMode color, ViewMode view) {
    auto d = std::make_shared<Data>();
    d->kind = Kind::Fragment;
    d->color = color;
    d->inShape = table.inputShape;
    d->frag = std::move(table);
    const ts::FragmentTable& t = d->frag;
    {
        const ts::SlotCollisions sc = ts::findSlotCollisions(t);
        d->slotCollisions = sc.elements();
        if (sc.any()) {
            d->colliding.assign(std::size_t(t.cells()), false);
            for (std::int64_t c : sc.cells)
                d->colliding[std::size_t(c)] = true;
            const ts::Collision& f = *sc.first;
            auto cell = [](const std::vector<std::int64_t>& v) {
                QStringList parts;
                for (std::int64_t x : v)
                    parts << QString::number(x);
                return QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
            };
            d->collisionWarning =
                QStringLiteral("⚠ %1 and %2 share a register (thread %3, slot %4); %5 elements "
                               "in %6 registers — click to highlight")
                    .arg(cell(f.first), cell(f.second))
                    .arg(f.target[0])
                    .arg(f.target[1])
                    .arg(sc.elements())
                    .arg(sc.sharedSlots);
        }
    }
    std::tie(d->rows, d->cols) = flatten2d(t.inputShape);
    const std::int64_t n = t.cells(), R = t.replicate;
    const std::size_t lr = t.localRank;
    d->localCount = 1;
    for (auto e : t.localShape)
        d->localCount *= e;
    if (lr == 1) {
        d->localFlat = t.local.data();
    } else {
        d->localFlatOwned.resize(n);
        for (std::int64_t c = 0; c < n; ++c) {
            std::int64_t flat = 0;
            for (std::size_t k = 0; k < lr; ++k)
                flat = flat * t.localShape[k] + t.local[c * lr + k];
            d->localFlatOwned[c] = flat;
        }
        d->localFlat = d->localFlatOwned.data();
    }
    if (view == ViewMode::Output) {
        fillFragmentOutput(*d);
        GridModel g;
        g.d_ = d;
        return g;
    }
    d->colors.resize(n);
    const std::int64_t T = std::max<std::int64_t>(t.threadExtent, 1);
    const std::int64_t warps = (T + 31) / 32;
    switch (color) {
    case ColorMode::Thread: {
        std::vector<QRgb> lut(T);
        for (std::int64_t k = 0; k < T; ++k)
            lut[k] = threadColor(k);
        // The legend lists only colours on the grid: a swatch for a thread no cell shows (lane
        // 24 of an 8-thread fragment) would read as a claim about the layout.
        std::vector<char> shown(std::size_t(T), 0);
        for (std::int64_t c = 0; c < n; ++c) {
            const std::int64_t th = t.threads[c * R];
            d->colors[c] = lut[th];
            shown[std::size_t(th)] = 1;
        }
        // One swatch per hue while they are few (an 8-thread fragment shows 8 hues: all eight
        // are listed), else four of them evenly spaced over the lanes shown (0, 8, 16, 24 of a
        // full warp): each entry is the first thread shown with that lane, warp 0's tint if
        // warp 0 has it.
        std::vector<std::int64_t> firstOfLane;
        for (std::int64_t lane = 0; lane < std::min<std::int64_t>(T, 32); ++lane)
            for (std::int64_t th = lane; th < T; th += 32)
                if (shown[std::size_t(th)]) {
                    firstOfLane.push_back(th);
                    break;
                }
        const std::size_t lanes = firstOfLane.size();
        const std::size_t step = lanes <= 8 ? 1 : (lanes + 3) / 4;
        for (std::size_t k = 0; k < lanes; k += step) {
            const std::int64_t th = firstOfLane[k];
            d->legend.push_back({threadColor(th),
                                 th < 32
                                     ? QStringLiteral("lane %1").arg(th)
                                     : QStringLiteral("lane %1 (thread %2)").arg(th % 32).arg(th)});
        }
        if (warps > 1 && shown[32] && firstOfLane.front() != 32)
            d->legend.push_back(
                {threadColor(32), QStringLiteral("lane 0 of warp 1 (tint = warp)")});
        d->subtitle = QStringLiteral("colour: thread (hue = lane, tint = warp)");
        break;
    }
    case ColorMode::Warp:
        for (std::int64_t c = 0; c < n; ++c)
            d->colors[c] = categoricalColor(t.threads[c * R] / 32);
        for (std::int64_t w = 0; w < std::min<std::int64_t>(warps, 12); ++w)
            d->legend.push_back({categoricalColor(w), QStringLiteral("warp %1").arg(w)});
        d->subtitle = QStringLiteral("colour: warp");
        break;
    case ColorMode::Slot: {
        const std::int64_t L = d->localCount;
        auto col = [L](std::int64_t s) {
            return L <= 12 ? categoricalColor(s) : rampColor(L > 1 ? double(s) / (L - 1) : 0.5);
        };
        for (std::int64_t c = 0; c < n; ++c)
            d->colors[c] = col(d->localFlat[c]);
        for (std::int64_t s = 0; s < std::min<std::int64_t>(L, 12); ++s)
            d->legend.push_back({col(L <= 12 ? s : s * (L - 1) / 11),
                                 QStringLiteral("L%1").arg(L <= 12 ? s : s * (L - 1) / 11)});
        d->subtitle = QStringLiteral("colour: register slot");
        break;
    }
    case ColorMode::Replica: {
        if (R == 1) {
            // Nothing is replicated: one colour says so, and the legend matches the grid.
            const QRgb one = categoricalColor(0);
            std::fill(d->colors.begin(), d->colors.end(), one);
            d->legend.push_back({categoricalColor(0),
                                 QStringLiteral("replicate = 1: each element is in one thread")});
            d->subtitle = QStringLiteral("colour: replica thread set (replicate = 1: none)");
            break;
        }
        // Cells whose replicas live in the same set of threads share a colour; the legend names
        // the first sets' threads.
        std::unordered_map<std::string, std::int64_t> ids;
        std::vector<std::vector<std::int64_t>> firstSets;
        std::string key;
        for (std::int64_t c = 0; c < n; ++c) {
            std::vector<std::int64_t> th(t.threads.begin() + c * R, t.threads.begin() + c * R + R);
            std::sort(th.begin(), th.end());
            key.assign(reinterpret_cast<const char*>(th.data()), th.size() * sizeof(std::int64_t));
            auto [it, fresh] = ids.emplace(key, static_cast<std::int64_t>(ids.size()));
            if (fresh && it->second < kMaxReplicaLegend) firstSets.push_back(th);
            d->colors[c] = categoricalColor(it->second);
        }
        for (std::size_t k = 0; k < firstSets.size(); ++k)
            d->legend.push_back({categoricalColor(std::int64_t(k)), threadSetText(firstSets[k])});
        const std::int64_t sets = static_cast<std::int64_t>(ids.size());
        if (sets > kMaxReplicaLegend)
            d->legend.push_back(
                {kTransparent,
                 QStringLiteral("+ %1%2")
                     .arg(countNoun(sets - kMaxReplicaLegend, QStringLiteral("more thread set")))
                     .arg(sets > 36 ? QStringLiteral(" (colours repeat every 36)") : QString())});
        d->subtitle = QStringLiteral("colour: replica thread set (replicate = %1, %2)")
                          .arg(R)
                          .arg(countNoun(sets, QStringLiteral("set")));
        break;
    }
    }
    d->title = QStringLiteral("Fragment [%1] → %2 × %3%4")
                   .arg(shapeText(t.inputShape))
                   .arg(countNoun(t.threadExtent, QStringLiteral("thread")))
                   .arg(countNoun(d->localCount, QStringLiteral("slot")))
                   .arg(R > 1 ? QStringLiteral(", replicate %1").arg(R) : QString());
    const int td = digits(std::max<std::int64_t>(t.threadExtent - 1, 0));
    const int shown = static_cast<int>(std::min<std::int64_t>(R, 4));
    d->maxLen[0] = 1 + shown * td + (shown - 1) + (R > 4 ? 2 : 0);
    d->maxLen[1] = 1 + digits(std::max<std::int64_t>(d->localCount - 1, 0));
    GridModel g;
    g.d_ = d;
    return g;
}

namespace {
QString coordText(const ts::Shape& shape, std::int64_t cell) {
    QStringList parts;
    for (std::size_t k = shape.size(); k-- > 0;) {
        const std::int64_t e = std::max<std::int64_t>(shape[k], 1);
        parts.prepend(QString::number(cell % e));
        cell /= e;
    }
    return QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

// A T.Layout that sends two logical cells to one offset is not injective: as a shared-memory
// layout it stores two elements in one place. Found here, where the model is built (the
// evaluation worker), as fragment slot collisions are, so painting never scans the table.
void findOffsetAliasing(GridModel::Data& d, ViewMode view) {
    const std::int64_t n = std::int64_t(d.outFlat.size());
    if (n < 2) return;
    // The first cell at each offset, and whether a second came: a table over the offsets when
    // they are dense enough, else the cells sorted by offset.
    std::int64_t firstA = -1, firstB = -1;
    std::vector<bool> shared; // per cell: its offset has another cell
    shared.assign(std::size_t(n), false);
    if (d.maxOut < 8 * n + 1024) {
        std::vector<std::int64_t> seen(std::size_t(d.maxOut + 1), -1);
        for (std::int64_t c = 0; c < n; ++c) {
            const std::int64_t o = d.outFlat[std::size_t(c)];
            if (o < 0) continue;
            std::int64_t& s = seen[std::size_t(o)];
            if (s >= 0) {
                if (firstA < 0) firstA = s, firstB = c;
                shared[std::size_t(c)] = shared[std::size_t(s)] = true;
            } else {
                s = c;
            }
        }
        if (firstA >= 0)
            for (std::int64_t c = 0; c < n; ++c) {
                const std::int64_t o = d.outFlat[std::size_t(c)];
                if (o >= 0 && shared[std::size_t(seen[std::size_t(o)])])
                    shared[std::size_t(c)] = true;
            }
    } else {
        std::vector<std::int64_t> order(static_cast<std::size_t>(n));
        for (std::int64_t c = 0; c < n; ++c)
            order[std::size_t(c)] = c;
        std::stable_sort(order.begin(), order.end(), [&d](std::int64_t a, std::int64_t b) {
            return d.outFlat[std::size_t(a)] < d.outFlat[std::size_t(b)];
        });
        for (std::size_t i = 1; i < order.size(); ++i) {
            const std::int64_t a = order[i - 1], b = order[i];
            if (d.outFlat[std::size_t(a)] != d.outFlat[std::size_t(b)]) continue;
            shared[std::size_t(a)] = shared[std::size_t(b)] = true;
        }
        // The first pair in row-major order of its second cell, as for the table above.
        for (std::size_t i = 0; i < order.size();) {
            std::size_t j = i;
            while (j < order.size() &&
                   d.outFlat[std::size_t(order[j])] == d.outFlat[std::size_t(order[i])])
                ++j;
            if (j - i > 1 && (firstB < 0 || order[i + 1] < firstB))
                firstA = order[i], firstB = order[i + 1];
            i = j;
        }
    }
    if (firstA < 0) return;
    std::int64_t count = 0;
    for (bool b : shared)
        count += b;
    d.aliasedCells = count;
    d.collisionWarning = QStringLiteral("⚠ Not injective: %1 and %2 share offset %3; %4 share an "
                                        "offset with another cell — click to highlight")
                             .arg(coordText(d.inShape, firstA), coordText(d.inShape, firstB))
                             .arg(d.outFlat[std::size_t(firstA)])
                             .arg(countNoun(count, QStringLiteral("cell")));
    if (view == ViewMode::Input) {
        d.colliding = std::move(shared);
    } else {
        // The output view shows offsets: mark those that more than one cell maps to.
        std::int64_t total = 1;
        for (std::int64_t e : d.lay.outputShape)
            total *= e;
        d.colliding.assign(std::size_t(std::max(total, d.maxOut + 1)), false);
        for (std::int64_t c = 0; c < n; ++c)
            if (shared[std::size_t(c)] && d.outFlat[std::size_t(c)] >= 0)
                d.colliding[std::size_t(d.outFlat[std::size_t(c)])] = true;
    }
}
} // namespace

GridModel GridModel::fromLayout(ts::LayoutTable table, ViewMode view, bool checkInjective) {
    auto d = std::make_shared<Data>();
    d->view = view;
    d->inShape = table.inputShape;
    d->lay = std::move(table);
    const ts::LayoutTable& t = d->lay;
    const std::int64_t n = t.cells();
    const std::size_t rk = t.outRank;
    d->outFlat.resize(n);
    std::int64_t maxOut = 0;
    for (std::int64_t c = 0; c < n; ++c) {
        std::int64_t flat = 0;
        for (std::size_t k = 0; k < rk; ++k)
            flat = flat * t.outputShape[k] + t.out[c * rk + k];
        d->outFlat[c] = flat;
        maxOut = std::max(maxOut, flat);
    }
    d->maxOut = maxOut;
    if (checkInjective) findOffsetAliasing(*d, view);
    const QString head = QStringLiteral("Layout [%1] → [%2]")
                             .arg(shapeText(t.inputShape))
                             .arg(shapeText(t.outputShape));
    if (view == ViewMode::Input) {
        d->kind = Kind::LayoutInput;
        std::tie(d->rows, d->cols) = flatten2d(t.inputShape);
        d->colors.resize(n);
        for (std::int64_t c = 0; c < n; ++c)
            d->colors[c] = rampColor(maxOut ? double(d->outFlat[c]) / maxOut : 0.0);
        d->title = head + QStringLiteral(" (input view)");
        d->subtitle = QStringLiteral("label and colour: flattened physical offset");
        d->maxLen[0] = digits(maxOut);
    } else {
        d->kind = Kind::LayoutOutput;
        std::int64_t total = 1;
        for (auto e : t.outputShape)
            total *= e;
        checkDrawable(total, "physical shape");
        std::tie(d->rows, d->cols) = flatten2d(t.outputShape);
        if (rk == 0) d->rows = d->cols = 1;
        d->src.assign(total, -1);
        for (std::int64_t c = 0; c < n; ++c) {
            if (d->src[d->outFlat[c]] >= 0) ++d->collisions;
            d->src[d->outFlat[c]] = c;
        }
        d->colors.resize(total);
        const QRgb grey = kUnusedGrey;
        for (std::int64_t o = 0; o < total; ++o)
            d->colors[o] =
                d->src[o] < 0 ? grey : rampColor(n > 1 ? double(d->src[o]) / (n - 1) : 0.0);
        d->title = head + QStringLiteral(" (output view)");
        d->subtitle = QStringLiteral("label: source coordinates; colour: source position");
        std::int64_t maxDim = 1;
        for (auto e : t.inputShape)
            maxDim = std::max(maxDim, e);
        const int r = static_cast<int>(t.inputShape.size());
        d->maxLen[0] = 2 + r * digits(maxDim - 1) + (r - 1);
        if (std::count(d->src.begin(), d->src.end(), -1) > 0)
            d->legend.push_back({kUnusedGrey, QStringLiteral("unused offset")});
        if (d->collisions)
            d->legend.push_back(
                {kTransparent, countNoun(d->collisions, QStringLiteral("collision")) +
                                   QStringLiteral(" (last source shown)")});
    }
    d->legend.insert(
        d->legend.begin(),
        {{rampColor(0),
          view == ViewMode::Input ? QStringLiteral("offset 0") : QStringLiteral("first source")},
         {rampColor(1), view == ViewMode::Input ? QStringLiteral("offset %1").arg(maxOut)
                                                : QStringLiteral("last source")}});
    GridModel g;
    g.d_ = d;
    return g;
}

// ---------------------------------------------------------------- queries

GridModel::Kind GridModel::kind() const {
    return d_ ? d_->kind : Kind::Empty;
}
int GridModel::rows() const {
    return d_ ? d_->rows : 0;
}
int GridModel::cols() const {
    return d_ ? d_->cols : 0;
}
QString GridModel::title() const {
    return d_ ? d_->title : QString();
}
QString GridModel::axisNoteFor(const std::string& text) {
    // CuTe numbers a grid axis by its mode's 1-D coordinate, whose sub-modes run
    // colexicographically (leftmost fastest); the grid says so, as print_layout's reader knows.
    switch (ts::recognizeNotation(text)) {
    case ts::Notation::CuTeLayout:
        return QStringLiteral("axes: CuTe's top-level modes; within a mode the coordinate is "
                              "split colexicographically (leftmost sub-mode fastest)");
    case ts::Notation::CuTeTV:
        return QStringLiteral("axes: (m, n) of the TV layout's tile, element m + M·n; thread t "
                              "holds it in value v");
    default:
        return {};
    }
}

QString GridModel::subtitle() const {
    if (!d_) return {};
    const QString axes = axisNote_.isEmpty() ? QString() : QStringLiteral(" · ") + axisNote_;
    // Exports and the CLI render draw the subtitle: a figure of a colliding fragment says so.
    if (d_->slotCollisions > 0)
        return d_->subtitle + axes +
               QStringLiteral(" · ⚠ %1 elements share a register with another")
                   .arg(d_->slotCollisions);
    return d_->subtitle + axes;
}
ColorMode GridModel::colorMode() const {
    return d_ ? d_->color : ColorMode::Thread;
}
ViewMode GridModel::viewMode() const {
    return d_ ? d_->view : ViewMode::Input;
}

const std::vector<LegendEntry>& GridModel::legend() const {
    static const std::vector<LegendEntry> none;
    return d_ ? d_->legend : none;
}

bool GridModel::hasGroups() const {
    return d_ && d_->kind == Kind::Fragment &&
           (d_->color == ColorMode::Thread || d_->color == ColorMode::Warp);
}

std::int64_t GridModel::group(int r, int c) const {
    if (!hasGroups()) return -1;
    const std::int64_t cell = std::int64_t(r) * d_->cols + c;
    return d_->frag.threads[std::size_t(cell * d_->frag.replicate)] / 32;
}

GridModel::GroupSource GridModel::groupSource() const {
    if (!hasGroups()) return {};
    return {d_->frag.threads.data(), d_->frag.replicate, 32};
}

QRgb GridModel::groupColor(std::int64_t g) {
    return categoricalColor(g);
}

QString GridModel::groupName() const {
    return hasGroups() ? QStringLiteral("warp") : QString();
}

std::int64_t GridModel::groupCount() const {
    return hasGroups() ? (std::max<std::int64_t>(d_->frag.threadExtent, 1) + 31) / 32 : 0;
}

bool GridModel::continuousColors() const {
    if (!d_) return false;
    if (d_->kind == Kind::LayoutInput || d_->kind == Kind::LayoutOutput) return true;
    return d_->kind == Kind::Fragment && d_->color == ColorMode::Slot && d_->localCount > 12;
}

bool GridModel::filled(int r, int c) const {
    if (!d_) return false;
    if (d_->kind == Kind::LayoutOutput || d_->kind == Kind::FragmentOutput)
        return d_->src[std::int64_t(r) * d_->cols + c] >= 0;
    return true;
}

QRgb GridModel::color(int r, int c) const {
    return d_ ? d_->colors[std::int64_t(r) * d_->cols + c] : 0xffffffff;
}

const QRgb* GridModel::colorData() const {
    return d_ && !d_->colors.empty() ? d_->colors.data() : nullptr;
}

int GridModel::labelLines() const {
    return d_ && d_->kind == Kind::Fragment ? 2 : 1;
}

int GridModel::maxLabelChars(int line) const {
    return d_ ? d_->maxLen[line ? 1 : 0] : 1;
}

QString GridModel::label(int r, int c, int line) const {
    if (!d_) return {};
    const std::int64_t cell = std::int64_t(r) * d_->cols + c;
    switch (d_->kind) {
    case Kind::Fragment: {
        if (line == 1) return QStringLiteral("L%1").arg(d_->localFlat[cell]);
        const std::int64_t R = d_->frag.replicate;
        const std::int64_t* th = d_->frag.threads.data() + cell * R;
        QString s = QStringLiteral("T");
        if (R <= 4) {
            for (std::int64_t k = 0; k < R; ++k) {
                if (k) s += QLatin1Char('/');
                s += QString::number(th[k]);
            }
        } else {
            s += QStringLiteral("%1/%2/…/%3").arg(th[0]).arg(th[1]).arg(th[R - 1]);
        }
        return s;
    }
    case Kind::LayoutInput:
        return QString::number(d_->outFlat[cell]);
    case Kind::FragmentOutput:
    case Kind::LayoutOutput: {
        const std::int64_t s = d_->src[cell];
        if (s < 0) return {};
        std::vector<std::int64_t> v;
        unravel(s, d_->inShape, v);
        return tuple(v.data(), v.size(), true);
    }
    default:
        return {};
    }
}

QString GridModel::compactLabel(int r, int c) const {
    if (!d_ || d_->kind != Kind::Fragment || d_->frag.replicate <= 1) return {};
    const std::int64_t cell = std::int64_t(r) * d_->cols + c;
    const std::int64_t R = d_->frag.replicate;
    return QStringLiteral("T%1 ×%2").arg(d_->frag.threads[std::size_t(cell * R)]).arg(R);
}

int GridModel::maxCompactChars() const {
    if (!d_ || d_->kind != Kind::Fragment || d_->frag.replicate <= 1) return 0;
    return 3 + digits(std::max<std::int64_t>(d_->frag.threadExtent - 1, 0)) +
           digits(d_->frag.replicate);
}

QString CellInfo::toToolTip() const {
    if (!valid) return {};
    QString s = QStringLiteral("<b>cell</b> %1<br>").arg(logical);
    if (!threads.isEmpty())
        s += QStringLiteral("<b>%1</b> %2<br>")
                 .arg(threads.contains(QLatin1Char(',')) ? QStringLiteral("threads")
                                                         : QStringLiteral("thread"),
                      threads);
    if (!slot.isEmpty()) s += QStringLiteral("<b>slot</b> %1<br>").arg(slot);
    if (!physical.isEmpty()) s += QStringLiteral("<b>physical</b> %1").arg(physical);
    return s;
}

CellInfo GridModel::info(int r, int c) const {
    CellInfo i;
    if (!d_ || r < 0 || c < 0 || r >= d_->rows || c >= d_->cols) return i;
    i.valid = true;
    i.row = r;
    i.col = c;
    const std::int64_t cell = std::int64_t(r) * d_->cols + c;
    std::vector<std::int64_t> v;
    i.label = label(r, c, 0);
    if (labelLines() > 1) i.label += QLatin1Char(' ') + label(r, c, 1);
    switch (d_->kind) {
    case Kind::Fragment: {
        unravel(cell, d_->inShape, v);
        i.logical = tuple(v.data(), v.size());
        const std::int64_t R = d_->frag.replicate;
        QStringList th;
        for (std::int64_t k = 0; k < std::min<std::int64_t>(R, 64); ++k)
            th << QString::number(d_->frag.threads[cell * R + k]);
        if (R > 64) th << QStringLiteral("… (%1 replicas)").arg(R);
        i.threads = th.join(QStringLiteral(", "));
        const std::size_t lr = d_->frag.localRank;
        i.slot = lr == 1 ? QString::number(d_->localFlat[cell])
                         : QStringLiteral("%1 = %2")
                               .arg(tuple(d_->frag.local.data() + cell * lr, lr))
                               .arg(d_->localFlat[cell]);
        const std::int64_t t0 = d_->frag.threads[cell * R];
        i.physical = QStringLiteral("warp %1 lane %2, register %3")
                         .arg(t0 / 32)
                         .arg(t0 % 32)
                         .arg(d_->localFlat[cell]);
        break;
    }
    case Kind::FragmentOutput: {
        const std::int64_t s = d_->src[cell];
        if (s >= 0) {
            unravel(s, d_->inShape, v);
            i.logical = tuple(v.data(), v.size());
        } else {
            i.logical = QStringLiteral("— (unused register)");
        }
        i.threads = QString::number(r);
        i.slot = QString::number(c);
        i.physical = QStringLiteral("warp %1 lane %2, register %3").arg(r / 32).arg(r % 32).arg(c);
        break;
    }
    case Kind::LayoutInput: {
        unravel(cell, d_->inShape, v);
        i.logical = tuple(v.data(), v.size());
        const std::size_t rk = d_->lay.outRank;
        i.physical = QStringLiteral("%1 → offset %2")
                         .arg(tuple(d_->lay.out.data() + cell * rk, rk))
                         .arg(d_->outFlat[cell]);
        break;
    }
    case Kind::LayoutOutput: {
        const std::int64_t s = d_->src[cell];
        if (s >= 0) {
            unravel(s, d_->inShape, v);
            i.logical = tuple(v.data(), v.size());
        } else {
            i.logical = QStringLiteral("— (unused)");
        }
        std::vector<std::int64_t> o;
        unravel(cell, d_->lay.outputShape, o);
        i.physical = QStringLiteral("%1 → offset %2").arg(tuple(o.data(), o.size())).arg(cell);
        break;
    }
    default:
        break;
    }
    return i;
}

Highlight GridModel::highlightFor(int r, int c, bool slot) const {
    Highlight h;
    if (!d_ || r < 0 || c < 0 || r >= d_->rows || c >= d_->cols) return h;
    const std::int64_t cell = std::int64_t(r) * d_->cols + c;
    switch (d_->kind) {
    case Kind::Fragment:
        h.kind = slot ? Highlight::Slot : Highlight::Thread;
        h.value = slot ? d_->localFlat[cell] : d_->frag.threads[cell * d_->frag.replicate];
        break;
    case Kind::LayoutInput:
        h.kind = Highlight::Value;
        h.value = d_->outFlat[cell];
        break;
    case Kind::FragmentOutput:
    case Kind::LayoutOutput:
        if (d_->src[cell] < 0) return h;
        h.kind = Highlight::Value;
        h.value = d_->src[cell];
        break;
    default:
        break;
    }
    return h;
}

bool GridModel::matches(int r, int c, const Highlight& h) const {
    if (!d_ || !h.active()) return false;
    const std::int64_t cell = std::int64_t(r) * d_->cols + c;
    if (h.kind == Highlight::Collisions)
        return std::size_t(cell) < d_->colliding.size() && d_->colliding[std::size_t(cell)];
    switch (d_->kind) {
    case Kind::Fragment:
        if (h.kind == Highlight::Slot) return d_->localFlat[cell] == h.value;
        if (h.kind == Highlight::Thread) {
            const std::int64_t R = d_->frag.replicate;
            const std::int64_t* th = d_->frag.threads.data() + cell * R;
            return std::find(th, th + R, h.value) != th + R;
        }
        return false;
    case Kind::LayoutInput:
        return d_->outFlat[cell] == h.value;
    case Kind::FragmentOutput:
    case Kind::LayoutOutput:
        return d_->src[cell] == h.value;
    default:
        return false;
    }
}

QString GridModel::describe(const Highlight& h) const {
    switch (h.kind) {
    case Highlight::Thread:
        return QStringLiteral("thread T%1").arg(h.value);
    case Highlight::Slot:
        return QStringLiteral("slot L%1").arg(h.value);
    case Highlight::Value:
        return kind() == Kind::LayoutOutput || kind() == Kind::FragmentOutput
                   ? QStringLiteral("source cell %1").arg(h.value)
                   : QStringLiteral("offset %1").arg(h.value);
    case Highlight::Collisions:
        return kind() == Kind::LayoutInput || kind() == Kind::LayoutOutput
                   ? QStringLiteral("cells sharing an offset")
                   : QStringLiteral("elements sharing a register");
    default:
        return {};
    }
}

std::int64_t GridModel::slotCollisions() const {
    return d_ ? d_->slotCollisions : 0;
}

std::int64_t GridModel::aliasedCells() const {
    return d_ ? d_->aliasedCells : 0;
}

QString GridModel::collisionWarning() const {
    return d_ ? d_->collisionWarning : QString();
}

void GridModel::setMarks(std::vector<std::uint8_t> marks) {
    if (marks.empty())
        marks_.reset();
    else
        marks_ = std::make_shared<const std::vector<std::uint8_t>>(std::move(marks));
}

std::uint8_t GridModel::mark(int r, int c) const {
    if (!marks_ || !d_) return 0;
    const std::size_t cell = std::size_t(r) * d_->cols + c;
    return cell < marks_->size() ? (*marks_)[cell] : 0;
}

bool GridModel::hasMarks() const {
    return marks_ != nullptr;
}

const ts::FragmentTable* GridModel::fragmentTable() const {
    // The output view is drawn from the same table (Details shows its repr in either view).
    return d_ && (d_->kind == Kind::Fragment || d_->kind == Kind::FragmentOutput) ? &d_->frag
                                                                                  : nullptr;
}

const ts::LayoutTable* GridModel::layoutTable() const {
    return d_ && (d_->kind == Kind::LayoutInput || d_->kind == Kind::LayoutOutput) ? &d_->lay
                                                                                   : nullptr;
}

QString GridModel::toTextTable() const {
    if (!d_) return {};
    QString out = title() + QLatin1Char('\n');
    // The table of a fragment whose elements share registers says so before its first row.
    if (!d_->collisionWarning.isEmpty())
        out += d_->collisionWarning.section(QStringLiteral(" — "), 0, 0) + QLatin1Char('\n');
    out += QStringLiteral("row\\col");
    for (int c = 0; c < cols(); ++c)
        out += QLatin1Char('\t') + colHeader(c);
    out += QLatin1Char('\n');
    for (int r = 0; r < rows(); ++r) {
        out += rowHeader(r);
        for (int c = 0; c < cols(); ++c) {
            out += QLatin1Char('\t') + label(r, c, 0);
            if (labelLines() > 1) out += QLatin1Char(' ') + label(r, c, 1);
        }
        out += QLatin1Char('\n');
    }
    return out;
}

} // namespace tsw
