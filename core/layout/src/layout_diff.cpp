// SPDX-License-Identifier: Apache-2.0
// Cell-by-cell diff of two layouts/fragments and the relations that explain it.
#include "tilescope/layout/layout_diff.h"

#include "tilescope/support/errors.h"
#include "tilescope/support/limits.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace ts {

std::pair<std::int64_t, std::int64_t> flatten2d(const Shape& s) {
    if (s.empty()) return {1, 1};
    if (s.size() == 1) return {1, s[0]};
    std::int64_t rows = 1;
    for (std::size_t k = 0; k + 1 < s.size(); ++k)
        rows *= s[k];
    return {rows, s.back()};
}

std::string diffBitsName(std::uint8_t bits) {
    if (bits == kDiffSame) return "same";
    std::string s;
    auto add = [&](std::uint8_t b, const char* n) {
        if (bits & b) s += (s.empty() ? "" : "+") + std::string(n);
    };
    add(kDiffThread, "thread");
    add(kDiffSlot, "slot");
    add(kDiffReplica, "replica");
    add(kDiffShape, "shape");
    return s;
}

namespace {

std::string plural(std::int64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// One side of the comparison: per cell the sorted thread set (fragments) or the linear offset
// (layouts), and the slot vector.
struct Side {
    std::int64_t rows = 0, cols = 0, cells = 0;
    std::int64_t replicate = 1;
    std::size_t slotRank = 1;
    std::vector<std::int64_t> threads;       // cells x replicate, in replica order
    std::vector<std::int64_t> sortedThreads; // cells x replicate, sorted per cell
    std::vector<std::int64_t> slots;         // cells x slotRank
    std::int64_t threadExtent = 0;
    Shape shape;
    std::optional<std::pair<std::int64_t, std::int64_t>> range;

    const std::int64_t* ts(std::int64_t c) const { return &sortedThreads[c * replicate]; }
    const std::int64_t* sl(std::int64_t c) const { return &slots[c * slotRank]; }
    bool slotEq(std::int64_t c, const Side& o, std::int64_t oc) const {
        if (slotRank != o.slotRank) return false;
        return std::equal(sl(c), sl(c) + slotRank, o.sl(oc));
    }
};

Side side(const Mapping& m) {
    Side s;
    if (const Fragment* f = std::get_if<Fragment>(&m)) {
        FragmentTable t = f->evaluate();
        s.shape = t.inputShape;
        s.replicate = t.replicate;
        s.slotRank = t.localRank;
        s.threads = std::move(t.threads);
        s.slots = std::move(t.local);
        s.threadExtent = t.threadExtent;
        s.range = f->threadRange();
        s.sortedThreads = s.threads;
        for (std::int64_t c = 0; c < t.cells(); ++c)
            std::sort(s.sortedThreads.begin() + c * s.replicate,
                      s.sortedThreads.begin() + (c + 1) * s.replicate);
    } else {
        LayoutTable t = std::get<Layout>(m).evaluate();
        s.shape = t.inputShape;
        s.slotRank = std::max<std::size_t>(t.outRank, 1);
        s.slots = std::move(t.out);
        if (t.outRank == 0) s.slots.assign(static_cast<std::size_t>(cellCount(s.shape)), 0);
    }
    auto [r, c] = flatten2d(s.shape);
    s.rows = r;
    s.cols = c;
    s.cells = r * c;
    return s;
}

// Linear physical offset of a layout cell (row-major over per-dimension max+1).
std::vector<std::int64_t> linearOffsets(const Side& s) {
    std::vector<std::int64_t> ext(s.slotRank, 1);
    for (std::int64_t c = 0; c < s.cells; ++c)
        for (std::size_t k = 0; k < s.slotRank; ++k)
            ext[k] = std::max(ext[k], s.sl(c)[k] + 1);
    std::vector<std::int64_t> out(static_cast<std::size_t>(s.cells));
    for (std::int64_t c = 0; c < s.cells; ++c) {
        std::int64_t v = 0;
        for (std::size_t k = 0; k < s.slotRank; ++k)
            v = v * ext[k] + s.sl(c)[k];
        out[static_cast<std::size_t>(c)] = v;
    }
    return out;
}

// How warps tile the grid (replica 0): "2x2 warps of 16x16 cells", or "" when not rectangular.
std::string warpTiling(const Side& s) {
    struct Box {
        std::int64_t r0 = INT64_MAX, r1 = -1, c0 = INT64_MAX, c1 = -1, n = 0;
    };
    std::map<std::int64_t, Box> boxes;
    for (std::int64_t c = 0; c < s.cells; ++c) {
        Box& b = boxes[s.threads[c * s.replicate] / 32];
        std::int64_t r = c / s.cols, col = c % s.cols;
        b.r0 = std::min(b.r0, r);
        b.r1 = std::max(b.r1, r);
        b.c0 = std::min(b.c0, col);
        b.c1 = std::max(b.c1, col);
        ++b.n;
    }
    if (boxes.empty()) return "";
    const Box& first = boxes.begin()->second;
    std::int64_t h = first.r1 - first.r0 + 1, w = first.c1 - first.c0 + 1;
    for (const auto& [warp, b] : boxes)
        if (b.r1 - b.r0 + 1 != h || b.c1 - b.c0 + 1 != w || b.n != h * w) return "";
    std::int64_t gr = s.rows / h, gc = s.cols / w;
    if (gr * gc != static_cast<std::int64_t>(boxes.size())) return "";
    if (boxes.size() == 1) return "one warp holds all cells";
    return std::to_string(gr) + "x" + std::to_string(gc) + " warps of " + std::to_string(h) + "x" +
           std::to_string(w) + " cells";
}

} // namespace

LayoutDiff diffLayouts(const Mapping& ma, const Mapping& mb, const std::string& nameA,
                       const std::string& nameB) {
    const bool fa = std::holds_alternative<Fragment>(ma), fb = std::holds_alternative<Fragment>(mb);
    if (fa != fb)
        throw InputError("cannot compare a " + std::string(fa ? "Fragment" : "Layout") +
                         " with a " + std::string(fb ? "Fragment" : "Layout") + " cell by cell");
    Side A = side(ma), B = side(mb);
    LayoutDiff d;
    d.fragments = fa;
    d.rowsA = A.rows;
    d.colsA = A.cols;
    d.rowsB = B.rows;
    d.colsB = B.cols;
    d.rows = std::max(A.rows, B.rows);
    d.cols = std::max(A.cols, B.cols);
    if (d.rows * d.cols > limits::kMaxCells * 2)
        throw InputError("the aligned grid is too large to compare");
    d.cells.assign(static_cast<std::size_t>(d.rows * d.cols), kDiffSame);
    std::vector<std::int64_t> linA, linB;
    if (!fa) {
        linA = linearOffsets(A);
        linB = linearOffsets(B);
    }
    for (std::int64_t r = 0; r < d.rows; ++r) {
        for (std::int64_t c = 0; c < d.cols; ++c) {
            std::uint8_t bits = 0;
            bool inA = r < A.rows && c < A.cols, inB = r < B.rows && c < B.cols;
            if (!inA || !inB) {
                bits = kDiffShape;
            } else {
                std::int64_t ca = r * A.cols + c, cb = r * B.cols + c;
                if (fa) {
                    if (A.replicate != B.replicate) {
                        bits |= kDiffReplica;
                        const Side& small = A.replicate < B.replicate ? A : B;
                        const Side& big = A.replicate < B.replicate ? B : A;
                        std::int64_t cs = &small == &A ? ca : cb, cbg = &small == &A ? cb : ca;
                        if (!std::includes(big.ts(cbg), big.ts(cbg) + big.replicate, small.ts(cs),
                                           small.ts(cs) + small.replicate))
                            bits |= kDiffThread;
                    } else if (!std::equal(A.ts(ca), A.ts(ca) + A.replicate, B.ts(cb))) {
                        bits |= kDiffThread;
                    }
                    if (!A.slotEq(ca, B, cb)) bits |= kDiffSlot;
                } else if (!A.slotEq(ca, B, cb)) {
                    bits |= kDiffSlot;
                }
            }
            d.cells[static_cast<std::size_t>(r * d.cols + c)] = bits;
            ++d.counts.cells;
            if (bits == 0) ++d.counts.same;
            if (bits & kDiffThread) ++d.counts.thread;
            if (bits & kDiffSlot) ++d.counts.slot;
            if (bits & kDiffReplica) ++d.counts.replica;
            if (bits & kDiffShape) ++d.counts.shape;
        }
    }

    // ---- relations --------------------------------------------------------------------------
    auto& rel = d.relations;
    const bool sameShape = A.shape == B.shape;
    if (d.counts.differing() == 0) {
        rel.push_back(sameShape ? "identical cell by cell"
                                : "identical on every cell (the shapes flatten to the same grid)");
    }
    if (!sameShape) {
        rel.push_back("input shapes differ: " + nameA + " " + formatShape(A.shape, true) + ", " +
                      nameB + " " + formatShape(B.shape, true));
    }
    // Transposed: A[i, j] == B[j, i].
    if (d.counts.differing() > 0 && A.shape.size() == 2 && B.shape.size() == 2 &&
        A.shape[0] == B.shape[1] && A.shape[1] == B.shape[0] && A.replicate == B.replicate) {
        bool thr = true, slot = true;
        for (std::int64_t i = 0; i < A.rows && (thr || slot); ++i)
            for (std::int64_t j = 0; j < A.cols; ++j) {
                std::int64_t ca = i * A.cols + j, cb = j * B.cols + i;
                if (fa && !std::equal(A.ts(ca), A.ts(ca) + A.replicate, B.ts(cb))) thr = false;
                if (!A.slotEq(ca, B, cb)) slot = false;
            }
        if (fa && thr && slot)
            rel.push_back(nameB + " is " + nameA + " transposed: " + nameB + "[i, j] = " + nameA +
                          "[j, i] (same threads and slots); typically one fragment used both as "
                          "an operand and as its transpose");
        else if (fa && thr)
            rel.push_back(nameB + "'s thread map is " + nameA + "'s transposed; the slots differ");
        else if (!fa && slot)
            rel.push_back(nameB + " is " + nameA + " transposed: " + nameB + "[i, j] = " + nameA +
                          "[j, i]");
    }
    if (sameShape && d.counts.differing() > 0) {
        const std::int64_t n = A.cells;
        if (fa) {
            if (A.threadExtent != B.threadExtent)
                rel.push_back(nameA + " uses " + plural(A.threadExtent, "thread", "threads") +
                              ", " + nameB + " " + plural(B.threadExtent, "thread", "threads"));
            if (A.range && B.range && A.range != B.range)
                rel.push_back(
                    "thread ranges differ: " + nameA + " [" + std::to_string(A.range->first) +
                    ", " + std::to_string(A.range->second) + "), " + nameB + " [" +
                    std::to_string(B.range->first) + ", " + std::to_string(B.range->second) + ")");
            if (A.replicate != B.replicate) {
                const Side& big = A.replicate > B.replicate ? A : B;
                const Side& small = A.replicate > B.replicate ? B : A;
                const std::string& bn = &big == &A ? nameA : nameB;
                const std::string& sn = &big == &A ? nameB : nameA;
                std::string s =
                    bn + " replicates every element on " +
                    plural(big.replicate, "thread", "threads") + ", " + sn +
                    (small.replicate == 1 ? " holds each on one thread"
                                          : " on " + plural(small.replicate, "thread", "threads"));
                bool subset = true;
                for (std::int64_t c = 0; c < n && subset; ++c)
                    subset = std::includes(big.ts(c), big.ts(c) + big.replicate, small.ts(c),
                                           small.ts(c) + small.replicate);
                if (subset) s += " (each of " + sn + "'s holders is also a holder in " + bn + ")";
                rel.push_back(s + " — replicated vs not");
            } else {
                // Thread offset by a constant.
                std::int64_t off = B.ts(0)[0] - A.ts(0)[0];
                bool offset = off != 0, slots = true;
                for (std::int64_t c = 0; c < n && offset; ++c) {
                    for (std::int64_t r = 0; r < A.replicate; ++r)
                        if (B.ts(c)[r] - A.ts(c)[r] != off) offset = false;
                    if (!A.slotEq(c, B, c)) slots = false;
                }
                if (offset)
                    rel.push_back(nameB + "'s threads are " + nameA + "'s " +
                                  (off > 0 ? "plus " : "minus ") +
                                  std::to_string(off > 0 ? off : -off) +
                                  (slots ? " (same slots)" : " (the slots differ too)") +
                                  " — thread offset by a constant");
                // Same lanes, different warps.
                bool lanes = true, warps = false;
                for (std::int64_t c = 0; c < n && lanes; ++c)
                    for (std::int64_t r = 0; r < A.replicate; ++r) {
                        std::int64_t ta = A.threads[c * A.replicate + r],
                                     tb = B.threads[c * B.replicate + r];
                        if (ta % 32 != tb % 32) lanes = false;
                        if (ta / 32 != tb / 32) warps = true;
                    }
                if (lanes && warps && !offset) {
                    std::string wa = warpTiling(A), wb = warpTiling(B);
                    std::string s = "same lane pattern inside each warp, different warp partition";
                    if (!wa.empty() && !wb.empty() && wa != wb)
                        s += ": " + nameA + " " + wa + ", " + nameB + " " + wb;
                    rel.push_back(s);
                }
                // Same partition up to relabelling threads.
                if (!offset) {
                    std::unordered_map<std::int64_t, std::int64_t> fwd, back;
                    bool bij = true;
                    for (std::int64_t c = 0; c < n && bij; ++c)
                        for (std::int64_t r = 0; r < A.replicate && bij; ++r) {
                            std::int64_t ta = A.threads[c * A.replicate + r],
                                         tb = B.threads[c * B.replicate + r];
                            auto [i1, f1] = fwd.emplace(ta, tb);
                            auto [i2, f2] = back.emplace(tb, ta);
                            if (i1->second != tb || i2->second != ta) bij = false;
                        }
                    if (bij && d.counts.thread > 0) {
                        std::int64_t moved = 0;
                        for (auto& [ta, tb] : fwd)
                            moved += ta != tb;
                        rel.push_back("same partition up to relabelling threads (" +
                                      plural(moved, "thread is", "threads are") + " renumbered" +
                                      (d.counts.slot ? "; the slots differ too)" : ")"));
                    }
                }
            }
            // Same threads, registers permuted.
            if (d.counts.thread == 0 && d.counts.replica == 0 && d.counts.slot > 0) {
                std::map<std::pair<std::int64_t, std::vector<std::int64_t>>,
                         std::vector<std::int64_t>>
                    fwd;
                bool bij = true;
                std::set<std::pair<std::int64_t, std::vector<std::int64_t>>> usedB;
                for (std::int64_t c = 0; c < n && bij; ++c) {
                    std::int64_t t = A.threads[c * A.replicate];
                    std::vector<std::int64_t> sa(A.sl(c), A.sl(c) + A.slotRank),
                        sb(B.sl(c), B.sl(c) + B.slotRank);
                    auto [it, fresh] = fwd.emplace(std::make_pair(t, sa), sb);
                    if (!fresh && it->second != sb) bij = false;
                    if (fresh && !usedB.insert({t, sb}).second) bij = false;
                }
                rel.push_back(bij ? "same threads; each thread keeps its elements in a different "
                                    "register order"
                                  : "same threads; the register slots differ");
            }
        } else {
            // Layouts: offset by a constant / same up to relabelling physical positions.
            std::int64_t off = linB[0] - linA[0];
            bool offset = off != 0;
            for (std::int64_t c = 0; c < n && offset; ++c)
                if (linB[c] - linA[c] != off) offset = false;
            if (offset)
                rel.push_back(nameB + "'s offsets are " + nameA + "'s " +
                              (off > 0 ? "plus " : "minus ") +
                              std::to_string(off > 0 ? off : -off));
            std::unordered_map<std::int64_t, std::int64_t> fwd, back;
            bool bij = true;
            for (std::int64_t c = 0; c < n && bij; ++c) {
                auto [i1, f1] = fwd.emplace(linA[c], linB[c]);
                auto [i2, f2] = back.emplace(linB[c], linA[c]);
                if (i1->second != linB[c] || i2->second != linA[c]) bij = false;
            }
            if (bij && !offset)
                rel.push_back("same grouping of elements, physical positions permuted");
        }
    }

    // ---- summary ----------------------------------------------------------------------------
    std::string s;
    if (d.counts.differing() == 0) {
        s = "No differences: " + nameA + " and " + nameB + " agree on all " +
            plural(d.counts.cells, "cell", "cells") + ".";
    } else {
        s = plural(d.counts.differing(), "cell", "cells") + " of " +
            std::to_string(d.counts.cells) + (d.counts.differing() == 1 ? " differs" : " differ");
        std::string parts;
        auto add = [&](std::int64_t v, const char* what) {
            if (v)
                parts += (parts.empty() ? "" : ", ") + std::string(what) + " " + std::to_string(v);
        };
        add(d.counts.thread, "thread");
        add(d.counts.slot, fa ? "slot" : "offset");
        add(d.counts.replica, "replica count");
        add(d.counts.shape, "shape");
        s += " (" + parts + ").";
    }
    for (const auto& r : rel)
        if (r.rfind("identical", 0) != 0) {
            std::string x = r;
            // A sentence that starts with an identifier (orig_dst_layout, A_frag) keeps it as it
            // is spelt; plain words such as "current" are capitalised.
            auto identifier = [&](const std::string& name) {
                return !name.empty() && x.rfind(name, 0) == 0 &&
                       std::any_of(name.begin(), name.end(), [](unsigned char ch) {
                           return ch == '_' || std::isdigit(ch) || std::isupper(ch);
                       });
            };
            if (!identifier(nameA) && !identifier(nameB))
                x[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(x[0])));
            s += " " + x + ".";
        }
    d.summary = s;
    return d;
}

} // namespace ts
