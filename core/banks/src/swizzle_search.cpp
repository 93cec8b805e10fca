// SPDX-License-Identifier: Apache-2.0
// XOR tables and the swizzle/padding search (see swizzle_search.h).
#include "tilescope/banks/swizzle_search.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <sstream>

namespace ts {

XorTable xorTable(int swizzleBytes, const std::string& dtype) {
    if (swizzleBytes != 32 && swizzleBytes != 64 && swizzleBytes != 128)
        throw InputError("swizzle width must be 32, 64 or 128 bytes, got " +
                         std::to_string(swizzleBytes));
    XorTable t;
    t.swizzle_bytes = swizzleBytes;
    t.k = swizzleBytes / 16;
    t.element_bytes = dtypeBytes(dtype);
    t.elements_per_chunk = 16 / t.element_bytes;
    t.columns = t.k * t.elements_per_chunk;
    t.table.assign(8, std::vector<int>(std::size_t(t.k)));
    for (int s = 0; s < 8; ++s) {
        const int f = t.k == 2 ? s / 4 : t.k == 4 ? s / 2 : s;
        for (int c = 0; c < t.k; ++c)
            t.table[std::size_t(s)][std::size_t(c)] = c ^ f;
    }
    return t;
}

std::string formatXorTable(const XorTable& t) {
    std::ostringstream o;
    o << t.swizzle_bytes << "B swizzle, " << t.element_bytes << "-byte elements: " << t.k
      << " chunks of 16 B (" << t.elements_per_chunk << " elements) per row, period 8 rows\n";
    o << "row\\chunk";
    for (int c = 0; c < t.k; ++c)
        o << ' ' << c;
    o << '\n';
    for (int s = 0; s < 8; ++s) {
        o << "    " << s << "    ";
        for (int c = 0; c < t.k; ++c)
            o << ' ' << t.table[std::size_t(s)][std::size_t(c)];
        o << '\n';
    }
    return o.str();
}

std::vector<SwizzleCandidate> swizzleCandidates(std::int64_t R, std::int64_t C,
                                                const std::string& dtype) {
    const int bytes = dtypeBytes(dtype);
    const std::string shape = "(" + std::to_string(R) + ", " + std::to_string(C) + ")";
    const std::string dt = "\"" + dtype + "\"";
    std::vector<SwizzleCandidate> out;
    auto add = [&](std::string name, std::string code) {
        SwizzleCandidate c;
        c.name = std::move(name);
        c.code = std::move(code);
        try {
            Mapping m = parseMapping(c.code);
            const Layout* l = std::get_if<Layout>(&m);
            if (!l) throw InputError("not a layout");
            if (auto col = l->findCollision())
                throw InputError("not injective: " + col->describe());
            c.layout = *l;
            auto problem = l->bijectivityProblem();
            c.bijective = !problem;
            if (problem) c.problem = *problem;
        } catch (const std::exception& e) {
            c.legal = false;
            c.problem = e.what();
        }
        out.push_back(std::move(c));
    };
    add("row-major", "make_linear_layout(" + shape + ", " + dt + ")");
    for (int pad : {4, 8, 16}) {
        const std::string name = "pad " + std::to_string(pad) + " B";
        if (pad % bytes != 0) {
            SwizzleCandidate c;
            c.name = name;
            c.legal = false;
            c.problem = "padding smaller than one " + std::to_string(bytes) + "-byte element";
            out.push_back(c);
            continue;
        }
        const std::int64_t stride = C + pad / bytes;
        add(name, "T.Layout([" + std::to_string(R) + ", " + std::to_string(C) +
                      "], lambda i, j: i * " + std::to_string(stride) + " + j)");
    }
    add("32B swizzle", "make_quarter_bank_swizzled_layout(" + shape + ", " + dt + ")");
    add("64B swizzle", "make_half_bank_swizzled_layout(" + shape + ", " + dt + ")");
    add("128B swizzle", "make_full_bank_swizzled_layout(" + shape + ", " + dt + ")");
    add("make_swizzled_layout", "make_swizzled_layout(" + shape + ", " + dt + ")");
    return out;
}

SwizzleSearch searchSwizzle(std::int64_t R, std::int64_t C, const std::string& dtype,
                            const std::string& writeAccess, const std::string& readAccess,
                            const AccessOptions& writeOpt, const AccessOptions& readOpt) {
    SwizzleSearch s;
    s.candidates = swizzleCandidates(R, C, dtype);
    for (SwizzleCandidate& c : s.candidates) {
        if (!c.legal) continue;
        try {
            SharedTile tile(*c.layout, dtype);
            c.footprint_bytes = tile.footprintBytes();
            if (!writeAccess.empty()) {
                AccessOptions o = writeOpt;
                o.store = true;
                PlanCost pc = analyzePlan(buildAccess(tile, writeAccess, o).plan);
                c.write_wavefronts = pc.wavefronts;
                c.write_ideal = pc.ideal;
            }
            if (!readAccess.empty()) {
                PlanCost pc = analyzePlan(buildAccess(tile, readAccess, readOpt).plan);
                c.read_wavefronts = pc.wavefronts;
                c.read_ideal = pc.ideal;
            }
        } catch (const std::exception& e) {
            c.legal = false;
            c.problem = e.what();
        }
    }
    for (std::size_t i = 0; i < s.candidates.size(); ++i) {
        const SwizzleCandidate& c = s.candidates[i];
        if (!c.legal) continue;
        if (s.best < 0) {
            s.best = int(i);
            continue;
        }
        const SwizzleCandidate& b = s.candidates[std::size_t(s.best)];
        if (c.total() < b.total() ||
            (c.total() == b.total() && c.footprint_bytes < b.footprint_bytes))
            s.best = int(i);
    }
    return s;
}

} // namespace ts
