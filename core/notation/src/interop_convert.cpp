// SPDX-License-Identifier: Apache-2.0
// Tilescope layouts written as CuTe or as Triton linear layouts, from the evaluated table: the
// result is checked against every cell, so it is exact or refused with the reason (interop.h).
#include "tilescope/notation/cute_layout.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/linear_layout.h"
#include "tilescope/support/errors.h"

#include <bit>
#include <cstdlib>
#include <numeric>

namespace ts {

namespace {

constexpr std::int64_t kMaxSwizzleSearchCells = std::int64_t{1} << 16;

using Vec = std::vector<std::int64_t>;

struct Digit {
    std::int64_t size;
    Vec stride;
};

bool isZero(const Vec& v) {
    for (auto x : v)
        if (x) return false;
    return true;
}

// Splits one axis of extent n whose values (one vector per coordinate, relative to coordinate
// 0) are v into CuTe modes, leftmost fastest: the largest run with a constant step, then the
// next, each run's length dividing what is left. nullopt when no such split reproduces v.
std::optional<std::vector<Digit>> splitAxis(const std::vector<Vec>& v) {
    const std::int64_t n = static_cast<std::int64_t>(v.size());
    const std::size_t r = v.empty() ? 0 : v[0].size();
    std::vector<Digit> digits;
    std::int64_t block = 1;
    while (block < n) {
        const Vec& stride = v[static_cast<std::size_t>(block)];
        std::int64_t smax = 1;
        while (block * (smax + 1) <= n) {
            bool ok = true;
            for (std::size_t k = 0; k < r && ok; ++k)
                ok = v[static_cast<std::size_t>(block * smax)][k] == smax * stride[k];
            if (!ok) break;
            ++smax;
        }
        const std::int64_t rest = n / block;
        std::int64_t s = 0;
        for (std::int64_t q = std::min(smax, rest); q >= 2; --q)
            if (rest % q == 0) {
                s = q;
                break;
            }
        if (s == 0) return std::nullopt;
        digits.push_back({s, stride});
        block *= s;
    }
    // Check every coordinate: v(x) = sum of digit_k(x) * stride_k.
    for (std::int64_t x = 0; x < n; ++x) {
        Vec want(r, 0);
        std::int64_t rem = x;
        for (const Digit& d : digits) {
            std::int64_t q = rem % d.size;
            rem /= d.size;
            for (std::size_t k = 0; k < r; ++k)
                want[k] += q * d.stride[k];
        }
        if (want != v[static_cast<std::size_t>(x)]) return std::nullopt;
    }
    return digits;
}

struct Affine {
    std::vector<std::vector<Digit>> axes;
    Vec origin;
};

// values[cell * r + k] over a row-major grid: an affine CuTe layout when the value splits into
// per-axis parts that each split into modes.
std::optional<Affine> affineOf(const Shape& grid, std::size_t r,
                               const std::vector<std::int64_t>& values) {
    const std::int64_t cells =
        static_cast<std::int64_t>(values.size() / std::max<std::size_t>(r, 1));
    Affine a;
    a.origin.assign(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(r));
    std::vector<std::int64_t> rowStride(grid.size(), 1);
    for (std::size_t d = grid.size(); d-- > 1;)
        rowStride[d - 1] = rowStride[d] * grid[d];
    for (std::size_t d = 0; d < grid.size(); ++d) {
        std::vector<Vec> v;
        for (std::int64_t x = 0; x < grid[d]; ++x) {
            Vec e(r);
            for (std::size_t k = 0; k < r; ++k)
                e[k] = values[static_cast<std::size_t>(x * rowStride[d]) * r + k] - a.origin[k];
            v.push_back(std::move(e));
        }
        auto digits = splitAxis(v);
        if (!digits) return std::nullopt;
        a.axes.push_back(std::move(*digits));
    }
    for (std::int64_t cell = 0; cell < cells; ++cell) {
        Vec want = a.origin;
        std::int64_t rem = cell;
        for (std::size_t d = grid.size(); d-- > 0;) {
            std::int64_t x = rem % grid[d];
            rem /= grid[d];
            for (const Digit& dg : a.axes[d]) {
                std::int64_t q = x % dg.size;
                x /= dg.size;
                for (std::size_t k = 0; k < r; ++k)
                    want[k] += q * dg.stride[k];
            }
        }
        for (std::size_t k = 0; k < r; ++k)
            if (want[k] != values[static_cast<std::size_t>(cell) * r + k]) return std::nullopt;
    }
    return a;
}

// CuTe text for an affine layout; integer strides for one output, `d@k` for several.
std::string cuteText(const Shape& grid, const Affine& a, std::size_t r) {
    auto strideText = [&](const Vec& s) -> std::string {
        if (r == 1) {
            if (s[0] < 0)
                throw InputError("a negative stride: CuTe allows it but Tilescope reads only "
                                 "non-negative strides");
            return std::to_string(s[0]);
        }
        int nz = -1;
        for (std::size_t k = 0; k < r; ++k)
            if (s[k]) {
                if (nz >= 0)
                    throw InputError("one mode moves two outputs at once, which a CuTe basis "
                                     "stride (d@k) cannot say");
                nz = static_cast<int>(k);
            }
        if (nz < 0) return "0";
        if (s[static_cast<std::size_t>(nz)] < 0) throw InputError("a negative stride");
        return std::to_string(s[static_cast<std::size_t>(nz)]) + "@" + std::to_string(nz);
    };
    std::string shape, stride;
    for (std::size_t d = 0; d < grid.size(); ++d) {
        const auto& ds = a.axes[d];
        std::string sh, st;
        if (ds.empty()) {
            sh = "1";
            st = "0";
        } else if (ds.size() == 1) {
            sh = std::to_string(ds[0].size);
            st = strideText(ds[0].stride);
        } else {
            sh = st = "(";
            for (std::size_t k = 0; k < ds.size(); ++k) {
                sh += (k ? "," : "") + std::to_string(ds[k].size);
                st += (k ? "," : "") + strideText(ds[k].stride);
            }
            sh += ")";
            st += ")";
        }
        shape += (d ? "," : "") + sh;
        stride += (d ? "," : "") + st;
    }
    // One axis of several modes needs the outer tuple, or the modes would read as axes.
    if (grid.size() == 1 && a.axes[0].size() <= 1) return shape + ":" + stride;
    return "(" + shape + "):(" + stride + ")";
}

Conversion layoutToCuTe(const Layout& l) {
    LayoutTable t = l.evaluate();
    const std::size_t r = t.outRank;
    if (auto a = affineOf(t.inputShape, r, t.out)) {
        // Basis strides name only the outputs some mode moves: an output that is 0 everywhere
        // would be lost, and the text would read back with fewer outputs.
        if (r > 1)
            for (std::size_t k = 0; k < r; ++k) {
                bool named = false;
                for (const auto& axis : a->axes)
                    for (const auto& mode : axis)
                        named = named || mode.stride[k] != 0;
                if (!named)
                    throw InputError("output " + std::to_string(k) +
                                     " is 0 for every element: CuTe basis strides (d@k) name "
                                     "only the outputs a mode moves, so the text would have "
                                     "fewer outputs than the layout");
            }
        if (!isZero(a->origin)) {
            if (r != 1)
                throw InputError("the layout does not map the origin to 0; CuTe's offset applies "
                                 "to one output only");
            return {"Sw<0,0,0> o " + std::to_string(a->origin[0]) + " o " +
                        cuteText(t.inputShape, *a, r),
                    "the layout maps the origin to " + std::to_string(a->origin[0]) +
                        ": written as an offset composed with the identity swizzle Sw<0,0,0>"};
        }
        return {cuteText(t.inputShape, *a, r), ""};
    }
    if (r != 1)
        throw InputError(
            "not an affine layout (no shape:stride reproduces it) and a CuTe swizzle needs "
            "a single output; this layout has " +
            std::to_string(r));
    if (t.cells() > kMaxSwizzleSearchCells)
        throw InputError(
            "not an affine layout; the search for a swizzle that makes it affine stops at "
            "65536 cells");
    std::vector<std::int64_t> un(t.out.size());
    // Positive shifts first (the common ones), then CuTe's negative shifts (`Sw<3,4,-3>`: the
    // low bits XORed into the high ones), so that such a swizzle converts back to itself.
    std::vector<int> shifts;
    for (int s = 1; s <= 10; ++s)
        shifts.push_back(s);
    for (int s = 1; s <= 10; ++s)
        shifts.push_back(-s);
    for (int b = 1; b <= 5; ++b)
        for (int s : shifts)
            for (int m = 0; std::abs(s) >= b && m + b + std::abs(s) <= 20; ++m) {
                cute::Swizzle sw{b, m, s};
                for (std::size_t k = 0; k < t.out.size(); ++k)
                    un[k] = cute::applySwizzle(t.out[k], sw);
                if (auto a = affineOf(t.inputShape, 1, un)) {
                    std::string off = std::to_string(a->origin[0]);
                    return {cute::print(sw) + " o " + off + " o " + cuteText(t.inputShape, *a, 1),
                            ""};
                }
            }
    throw InputError("neither affine nor an affine layout under a CuTe swizzle Sw<B,M,S> (B <= 5): "
                     "CuTe has no shape:stride for it");
}

Conversion fragmentToCuTe(const Fragment& f) {
    FragmentTable t = f.evaluate();
    if (t.inputShape.size() > 2)
        throw InputError("a CuTe TV layout maps into an M x N tile; this fragment has rank " +
                         std::to_string(t.inputShape.size()));
    if (t.localRank != 1)
        throw InputError("a CuTe TV layout has one value index; this fragment has " +
                         std::to_string(t.localRank));
    const std::int64_t m = t.inputShape[0], n = t.inputShape.size() > 1 ? t.inputShape[1] : 1;
    const std::int64_t T = t.threadExtent, V = t.localShape.empty() ? 1 : t.localShape[0];
    std::vector<std::int64_t> idx(static_cast<std::size_t>(T * V), -1);
    for (std::int64_t cell = 0; cell < t.cells(); ++cell) {
        const std::int64_t mi = t.inputShape.size() > 1 ? cell / n : cell,
                           ni = t.inputShape.size() > 1 ? cell % n : 0;
        const std::int64_t v = t.local[static_cast<std::size_t>(cell)];
        for (std::int64_t r = 0; r < t.replicate; ++r) {
            const std::int64_t th = t.threads[static_cast<std::size_t>(cell * t.replicate + r)];
            auto& slot = idx[static_cast<std::size_t>(th * V + v)];
            if (slot >= 0)
                throw InputError("thread " + std::to_string(th) +
                                 " holds two elements in register " + std::to_string(v) +
                                 "; a TV layout is a function of (thread, value)");
            slot = mi + m * ni;
        }
    }
    for (std::size_t k = 0; k < idx.size(); ++k)
        if (idx[k] < 0)
            throw InputError("thread " + std::to_string(static_cast<std::int64_t>(k) / V) +
                             " has no value " + std::to_string(static_cast<std::int64_t>(k) % V) +
                             "; a CuTe TV layout covers every (thread, value) pair");
    auto a = affineOf({T, V}, 1, [&] {
        // affineOf reads a row-major grid over (thread, value).
        return idx;
    }());
    if (!a || a->origin[0] != 0)
        throw InputError("the (thread, value) -> element map is not affine, so no CuTe TV layout "
                         "shape:stride gives it (an XOR-swizzled fragment, for instance)");
    // A 1-D fragment's tile is 1-D too, so that the text reads back with its rank.
    const std::string tiler = f.inputShape().size() == 1
                                  ? std::to_string(m)
                                  : std::to_string(m) + "," + std::to_string(n);
    return {"Tiler_MN: (" + tiler + ")\nTiledLayout_TV: " + cuteText({T, V}, *a, 1), ""};
}

bool powerOfTwo(std::int64_t x) {
    return x > 0 && (x & (x - 1)) == 0;
}

int log2i(std::int64_t x) {
    return std::countr_zero(static_cast<std::uint64_t>(x));
}

// Coordinates (row-major cell number -> per-dim) for bases.
Vec coordsOf(std::int64_t cell, const Shape& grid) {
    Vec c(grid.size());
    for (std::size_t d = grid.size(); d-- > 0;) {
        c[d] = cell % grid[d];
        cell /= grid[d];
    }
    return c;
}

Vec xorVec(Vec a, const Vec& b) {
    for (std::size_t k = 0; k < a.size(); ++k)
        a[k] ^= b[k];
    return a;
}

// bases[k] = image of input 2^k; checks g(x) == XOR of the bases of x's bits for every x.
std::vector<Vec> basesOf(const std::vector<Vec>& g, const char* what) {
    std::vector<Vec> bases;
    for (std::size_t k = 1; k < g.size(); k <<= 1)
        bases.push_back(g[k]);
    for (std::size_t x = 0; x < g.size(); ++x) {
        Vec want(g[0].size(), 0);
        for (std::size_t k = 0; k < bases.size(); ++k)
            if ((x >> k) & 1) want = xorVec(want, bases[k]);
        if (want != g[x])
            throw InputError(
                std::string(what) + " " + std::to_string(x) +
                " is not the XOR of its bits' images, so the layout is not linear over F2 "
                "and no Triton LinearLayout gives it");
    }
    return bases;
}

Conversion layoutToLinear(const Layout& l) {
    LayoutTable t = l.evaluate();
    if (t.outRank != 1)
        throw InputError("a Triton shared layout maps one offset; this layout has " +
                         std::to_string(t.outRank) + " outputs");
    for (std::int64_t e : t.inputShape)
        if (!powerOfTwo(e))
            throw InputError("linear layouts need power-of-two extents; this one has " +
                             std::to_string(e));
    const std::int64_t cells = t.cells();
    std::vector<Vec> g(static_cast<std::size_t>(cells));
    std::vector<bool> seen(static_cast<std::size_t>(cells), false);
    for (std::int64_t cell = 0; cell < cells; ++cell) {
        const std::int64_t off = t.out[static_cast<std::size_t>(cell)];
        if (off < 0 || off >= cells)
            throw InputError("offset " + std::to_string(off) + " is outside [0, " +
                             std::to_string(cells) +
                             "): a Triton shared layout is a bijection onto its offsets");
        if (seen[static_cast<std::size_t>(off)])
            throw InputError("two elements share offset " + std::to_string(off) +
                             ": a Triton shared layout is a bijection onto its offsets");
        seen[static_cast<std::size_t>(off)] = true;
        g[static_cast<std::size_t>(off)] = coordsOf(cell, t.inputShape);
    }
    linear::LinearLayout ll;
    ll.ins.push_back({"offset", basesOf(g, "offset")});
    ll.ins.push_back({"block", {}});
    for (std::size_t d = 0; d < t.inputShape.size(); ++d) {
        ll.outNames.push_back("dim" + std::to_string(d));
        ll.outSizes.push_back(t.inputShape[d]);
    }
    return {linear::print(ll), ""};
}

Conversion fragmentToLinear(const Fragment& f) {
    FragmentTable t = f.evaluate();
    if (t.localRank != 1)
        throw InputError("a Triton register index is one number; this fragment has " +
                         std::to_string(t.localRank));
    for (std::int64_t e : t.inputShape)
        if (!powerOfTwo(e))
            throw InputError("linear layouts need power-of-two extents; this one has " +
                             std::to_string(e));
    const std::int64_t T = t.threadExtent, V = t.localShape.empty() ? 1 : t.localShape[0];
    if (!powerOfTwo(T)) throw InputError(std::to_string(T) + " threads is not a power of two");
    if (!powerOfTwo(V)) throw InputError(std::to_string(V) + " registers is not a power of two");
    std::vector<Vec> g(static_cast<std::size_t>(T * V));
    std::vector<bool> seen(g.size(), false);
    for (std::int64_t cell = 0; cell < t.cells(); ++cell) {
        const std::int64_t v = t.local[static_cast<std::size_t>(cell)];
        for (std::int64_t r = 0; r < t.replicate; ++r) {
            const std::int64_t th = t.threads[static_cast<std::size_t>(cell * t.replicate + r)];
            const std::size_t slot = static_cast<std::size_t>(th * V + v); // register bits lowest
            if (seen[slot])
                throw InputError("thread " + std::to_string(th) +
                                 " holds two elements in register " + std::to_string(v));
            seen[slot] = true;
            g[slot] = coordsOf(cell, t.inputShape);
        }
    }
    for (std::size_t s = 0; s < g.size(); ++s)
        if (!seen[s])
            throw InputError("thread " + std::to_string(static_cast<std::int64_t>(s) / V) +
                             " has no register " +
                             std::to_string(static_cast<std::int64_t>(s) % V) +
                             "; a Triton layout gives every register of every thread an element");
    // Bases are taken with registers lowest, then the thread bits, as the slots are numbered.
    std::vector<Vec> gg(g.size());
    const int nr = log2i(V), nt = log2i(T);
    for (std::size_t s = 0; s < g.size(); ++s)
        gg[s] = g[s];
    std::vector<Vec> bases = basesOf(gg, "(thread, register) slot");
    const int nl = std::min(nt, 5);
    linear::LinearLayout ll;
    ll.ins.push_back({"register", {bases.begin(), bases.begin() + nr}});
    ll.ins.push_back({"lane", {bases.begin() + nr, bases.begin() + nr + nl}});
    ll.ins.push_back({"warp", {bases.begin() + nr + nl, bases.end()}});
    ll.ins.push_back({"block", {}});
    std::string note;
    if (nl < 5)
        // Kept exact: padding the lanes would add copies the fragment does not have.
        note = "the fragment uses " + std::to_string(T) + " threads, so lane_bases has " +
               std::to_string(nl) + " entries; a 32-lane warp in Triton needs " +
               std::to_string(5 - nl) + " more (zero bases: the extra lanes hold copies)";
    for (std::size_t d = 0; d < t.inputShape.size(); ++d) {
        ll.outNames.push_back("dim" + std::to_string(d));
        ll.outSizes.push_back(t.inputShape[d]);
    }
    return {linear::print(ll), note};
}

} // namespace

Conversion toCuTe(const Mapping& m) {
    if (const Layout* l = std::get_if<Layout>(&m)) return layoutToCuTe(*l);
    return fragmentToCuTe(std::get<Fragment>(m));
}

Conversion toTritonLinear(const Mapping& m) {
    if (const Layout* l = std::get_if<Layout>(&m)) {
        // One element: no offset basis at all, and SharedLinearLayout's text gives its rank only
        // through its bases, so the text would not read back as this layout.
        if (!l->inputShape().empty() && cellCount(l->inputShape()) == 1)
            throw InputError("a layout of one element has no linear-layout bases: Triton's "
                             "SharedLinearLayout text cannot say its shape");
        return layoutToLinear(*l);
    }
    return fragmentToLinear(std::get<Fragment>(m));
}

} // namespace ts
