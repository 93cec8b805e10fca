// SPDX-License-Identifier: Apache-2.0
// Several GM -> L1 DMAs into one zN tile (see nz_splice.h for the sources of each rule).
#include "tilescope/banks/nz_splice.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ts {

namespace {

std::int64_t roundUp(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b * b;
}

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

// "a:b", ":b", "a:" (Python slice bounds) against an extent; `what` names it in errors.
std::pair<std::int64_t, std::int64_t> parseRange(const std::string& text, std::int64_t extent,
                                                 const std::string& what) {
    const std::string t = trim(text);
    const auto colon = t.find(':');
    if (colon == std::string::npos || t.find(':', colon + 1) != std::string::npos)
        throw InputError(what + " '" + t + "' is not a range start:stop (e.g. 0:64)");
    auto num = [&](const std::string& s, std::int64_t dflt) -> std::int64_t {
        const std::string v = trim(s);
        if (v.empty()) return dflt;
        std::size_t used = 0;
        long long n = 0;
        try {
            n = std::stoll(v, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != v.size() || v.empty())
            throw InputError(what + " '" + t + "': '" + v + "' is not a whole number");
        return n;
    };
    const std::int64_t a = num(t.substr(0, colon), 0), b = num(t.substr(colon + 1), extent);
    if (a < 0 || b > extent || a >= b)
        throw InputError(what + " '" + t +
                         "' must satisfy 0 <= start < stop <= " + std::to_string(extent));
    return {a, b};
}

} // namespace

std::string nzC0StrideName(NzC0Stride s) {
    return s == NzC0Stride::Tile ? "tile" : "copy";
}
std::string nzClearName(NzClear c) {
    return c == NzClear::OffsetZero ? "offset0" : "every";
}
NzC0Stride parseNzC0Stride(const std::string& s) {
    if (s == "tile") return NzC0Stride::Tile;
    if (s == "copy") return NzC0Stride::Copy;
    throw InputError("C0 stride '" + s +
                     "': expected 'tile' (the buffer's rows, as "
                     "tilelang-ascend passes it) or 'copy' (the copy's own rows)");
}
NzClear parseNzClear(const std::string& s) {
    if (s == "offset0") return NzClear::OffsetZero;
    if (s == "every") return NzClear::EveryPartialCopy;
    throw InputError("clear '" + s +
                     "': expected 'offset0' (only the copy at offset 0, the "
                     "released tilelang-ascend) or 'every' (every partial copy, before the fix)");
}

std::vector<NzCopy> parseNzCopies(const std::string& text, std::int64_t rows, std::int64_t cols) {
    std::vector<NzCopy> out;
    std::string part;
    std::size_t index = 0;
    auto flush = [&] {
        const std::string p = trim(part);
        part.clear();
        if (p.empty()) return;
        ++index;
        const std::string who = "copy " + std::to_string(index);
        NzCopy c;
        const auto x = p.find_first_of("xX");
        auto [r0, r1] =
            parseRange(x == std::string::npos ? p : p.substr(0, x), rows, who + " rows");
        std::int64_t c0 = 0, c1 = cols;
        if (x != std::string::npos)
            std::tie(c0, c1) = parseRange(p.substr(x + 1), cols, who + " cols");
        c.row0 = r0, c.rows = r1 - r0, c.col0 = c0, c.cols = c1 - c0;
        out.push_back(c);
    };
    for (char ch : text) {
        if (ch == ',' || ch == ';' || ch == '\n')
            flush();
        else
            part += ch;
    }
    flush();
    if (out.empty()) throw InputError("no copies: give row ranges such as 0:64, 64:128");
    return out;
}

NzSplicePreview previewNzSplice(const NzSpliceOptions& opt) {
    if (opt.copies.empty()) throw InputError("no copies to preview");
    NzSplicePreview p;
    p.tile = fractalView(FractalKind::zN, opt.rows, opt.cols, opt.dtype);
    const std::int64_t R = opt.rows, C = opt.cols, C0 = p.tile.c0;
    const std::int64_t foot = p.tile.footprint_elements;
    const std::int64_t bits = p.tile.element_bits;
    for (std::size_t k = 0; k < opt.copies.size(); ++k) {
        const NzCopy& c = opt.copies[k];
        if (c.rows < 1 || c.cols < 1 || c.row0 < 0 || c.col0 < 0 || c.row0 + c.rows > R ||
            c.col0 + c.cols > C)
            throw InputError("copy " + std::to_string(k + 1) + " (rows " + std::to_string(c.row0) +
                             ":" + std::to_string(c.row0 + c.rows) + ", cols " +
                             std::to_string(c.col0) + ":" + std::to_string(c.col0 + c.cols) +
                             ") is outside the " + std::to_string(R) + " x " + std::to_string(C) +
                             " tile");
    }
    // The clear: InitConstValue of dstM * dstN * sizeof(T) / 32 blocks of 32 bytes (the
    // buffer's logical size, not its zN footprint).
    const std::int64_t clearElems = (R * C * bits / 256) * C0;
    std::vector<std::int64_t> mem(std::size_t(foot), NzSplicePreview::kStale);
    std::vector<std::int64_t> at(std::size_t(R * C), -1);
    auto writeCopies = [&](const std::vector<NzCopy>& copies, NzC0Stride stride, NzClear clear,
                           std::vector<std::int64_t>& m, std::vector<NzCopyStep>* steps,
                           std::int64_t* pastWrite, std::int64_t* pastClear) {
        for (const NzCopy& c : copies) {
            NzCopyStep s;
            s.offset = p.tile.offset[std::size_t(c.row0 * C + c.col0)];
            const bool partial = c.rows != R || c.cols != C;
            s.clears = partial && (clear == NzClear::EveryPartialCopy || s.offset == 0);
            s.cleared = s.clears ? clearElems : 0;
            s.c0_stride = stride == NzC0Stride::Tile ? roundUp(R, 16) : roundUp(c.rows, 16);
            for (std::int64_t o = s.offset; o < s.offset + s.cleared; ++o) {
                if (o < foot)
                    m[std::size_t(o)] = NzSplicePreview::kZero;
                else if (pastClear)
                    ++*pastClear;
            }
            for (std::int64_t i = 0; i < c.rows; ++i)
                for (std::int64_t j = 0; j < c.cols; ++j) {
                    const std::int64_t o = s.offset + (j / C0) * s.c0_stride * C0 + i * C0 + j % C0;
                    const std::int64_t cell = (c.row0 + i) * C + (c.col0 + j);
                    if (o < foot)
                        m[std::size_t(o)] = cell;
                    else if (pastWrite)
                        ++*pastWrite;
                }
            if (steps) steps->push_back(s);
        }
    };
    writeCopies(opt.copies, opt.stride, opt.clear, mem, &p.steps, &p.written_past_tile,
                &p.cleared_past_tile);
    p.content = std::move(mem);
    p.single.assign(std::size_t(foot), NzSplicePreview::kStale);
    writeCopies({NzCopy{0, R, 0, C}}, NzC0Stride::Tile, NzClear::OffsetZero, p.single, nullptr,
                nullptr, nullptr);

    std::vector<char> covered(std::size_t(R * C), 0);
    for (const NzCopy& c : opt.copies)
        for (std::int64_t r = c.row0; r < c.row0 + c.rows; ++r)
            for (std::int64_t cc = c.col0; cc < c.col0 + c.cols; ++cc)
                covered[std::size_t(r * C + cc)] = 1;
    for (std::int64_t o = 0; o < foot; ++o)
        if (p.content[std::size_t(o)] >= 0) at[std::size_t(p.content[std::size_t(o)])] = o;
    p.where = at;
    std::vector<std::int64_t> cellAt(std::size_t(foot), -1); // expected logical cell per offset
    for (std::int64_t cell = 0; cell < R * C; ++cell)
        cellAt[std::size_t(p.tile.offset[std::size_t(cell)])] = cell;
    for (std::int64_t cell = 0; cell < R * C; ++cell) {
        if (!covered[std::size_t(cell)]) {
            ++p.uncovered;
            continue;
        }
        if (at[std::size_t(cell)] < 0) ++p.lost;
        if (at[std::size_t(cell)] != p.tile.offset[std::size_t(cell)]) ++p.misplaced;
    }
    for (std::int64_t o = 0; o < foot; ++o) {
        const std::int64_t want = cellAt[std::size_t(o)];
        const bool fill = want < 0 || !covered[std::size_t(want)];
        if (fill && p.content[std::size_t(o)] != NzSplicePreview::kZero) ++p.nonzero_fill;
        if (want < 0 && p.single[std::size_t(o)] != NzSplicePreview::kZero) ++p.single_nonzero_fill;
    }
    return p;
}

std::string NzSplicePreview::summary() const {
    std::ostringstream os;
    os << steps.size() << " copies into a " << tile.rows << " x " << tile.cols << " zN tile ("
       << tile.footprint_elements << " elements):";
    for (std::size_t k = 0; k < steps.size(); ++k)
        os << (k ? ";" : "") << " copy " << k + 1 << " at offset " << steps[k].offset
           << ", C0 stride " << steps[k].c0_stride << " rows, "
           << (steps[k].clears ? "clears " + std::to_string(steps[k].cleared) + " elements"
                               : std::string("no clear"));
    os << ". ";
    if (correct())
        os << "Every element is where one copy of the whole tile puts it, and the rest is zero.";
    else {
        os << misplaced << " elements not at their zN offset (" << lost
           << " of them gone from the tile), " << nonzero_fill
           << " padding/uncovered cells not zero";
        if (written_past_tile) os << ", " << written_past_tile << " elements written past the tile";
        if (cleared_past_tile) os << ", " << cleared_past_tile << " elements zeroed past the tile";
        os << ".";
    }
    if (uncovered) os << " " << uncovered << " cells no copy covers (they must read as zero).";
    if (single_nonzero_fill)
        os << " A single full copy leaves " << single_nonzero_fill
           << " padding cells uncleared too (copy_gm_to_l1 clears only for a partial copy).";
    return os.str();
}

} // namespace ts
