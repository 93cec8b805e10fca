// SPDX-License-Identifier: Apache-2.0
// Triton's LinearLayout operations used by its layout conversions (triton_ll_build.h).
#include "triton_ll_build.h"

#include "tilescope/support/errors.h"

#include <algorithm>
#include <bit>

namespace ts::interop::tll {

namespace {

int log2Of(std::int64_t n) {
    return std::countr_zero(static_cast<std::uint64_t>(n));
}

// All of x and y, each list's relative order kept: y's items missing from x are placed before
// the next item they precede in y. Triton multiplies layouts whose orders agree; one that does
// not would be a mistake in the conversions here, not in the user's text.
template <class T> std::vector<T> supremum(const std::vector<T>& x, const std::vector<T>& y) {
    std::vector<T> out;
    auto add = [&](const T& v) {
        if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
    };
    std::ptrdiff_t last = -1;
    for (const T& v : x) {
        auto it = std::find(y.begin(), y.end(), v);
        if (it != y.end()) {
            std::ptrdiff_t pos = it - y.begin();
            if (pos < last) throw InputError("internal: Triton layout dims in conflicting orders");
            for (std::ptrdiff_t k = last + 1; k < pos; ++k)
                add(y[static_cast<std::size_t>(k)]);
            last = pos;
        }
        add(v);
    }
    for (std::size_t k = static_cast<std::size_t>(last + 1); k < y.size(); ++k)
        add(y[k]);
    return out;
}

} // namespace

std::vector<std::vector<std::int64_t>>* Built::find(const std::string& in) {
    for (std::size_t k = 0; k < ins.size(); ++k)
        if (ins[k] == in) return &bases[k];
    return nullptr;
}

const std::vector<std::vector<std::int64_t>>* Built::find(const std::string& in) const {
    for (std::size_t k = 0; k < ins.size(); ++k)
        if (ins[k] == in) return &bases[k];
    return nullptr;
}

Built empty(std::size_t rank) {
    Built l;
    l.rank = rank;
    l.outSize.assign(rank, 1);
    return l;
}

Built identity1D(std::size_t rank, std::int64_t size, const std::string& in, std::size_t out) {
    Built l = empty(rank);
    l.ins = {in};
    l.bases.resize(1);
    for (int k = 0; k < log2Of(size); ++k) {
        std::vector<std::int64_t> b(rank, 0);
        b[out] = std::int64_t{1} << k;
        l.bases[0].push_back(b);
    }
    l.outOrder = {out};
    l.outSize[out] = size;
    return l;
}

Built zeros1D(std::size_t rank, std::int64_t size, const std::string& in, std::size_t out) {
    Built l = empty(rank);
    l.ins = {in};
    l.bases.assign(1, std::vector<std::vector<std::int64_t>>(static_cast<std::size_t>(log2Of(size)),
                                                             std::vector<std::int64_t>(rank, 0)));
    l.outOrder = {out};
    return l;
}

Built operator*(const Built& inner, const Built& outer) {
    Built r = empty(inner.rank);
    r.ins = supremum(inner.ins, outer.ins);
    r.outOrder = supremum(inner.outOrder, outer.outOrder);
    for (std::size_t o = 0; o < r.rank; ++o)
        r.outSize[o] = inner.outSize[o] * outer.outSize[o];
    for (const std::string& in : r.ins) {
        std::vector<std::vector<std::int64_t>> bs;
        if (auto* a = inner.find(in)) bs = *a;
        if (auto* b = outer.find(in))
            for (std::vector<std::int64_t> v : *b) {
                for (std::size_t o = 0; o < r.rank; ++o)
                    v[o] *= inner.outSize[o];
                bs.push_back(std::move(v));
            }
        r.bases.push_back(std::move(bs));
    }
    return r;
}

Built transposeOuts(Built l, const std::vector<std::size_t>& order) {
    l.outOrder = order;
    return l;
}

Built identityND(std::size_t rank, const std::string& in, const std::vector<std::int64_t>& shape,
                 const std::vector<std::size_t>& order) {
    Built l = empty(rank);
    for (std::size_t d : order)
        l = l * identity1D(rank, shape[d], in, d);
    return l;
}

Built broadcastND(std::size_t rank, const std::string& in, const std::vector<std::int64_t>& shape,
                  const std::vector<std::size_t>& order, std::size_t kDim) {
    Built l = empty(rank);
    for (std::size_t d : order)
        l = l * (d == kDim ? zeros1D(rank, shape[d], in, d) : identity1D(rank, shape[d], in, d));
    return l;
}

Built notSmallerThan(Built l, const std::vector<std::int64_t>& shape) {
    if (l.ins.empty()) return l;
    const std::string first = l.ins.front();
    const std::vector<std::size_t> order = l.outOrder;
    for (std::size_t o : order)
        if (l.outSize[o] < shape[o]) l = l * identity1D(l.rank, shape[o] / l.outSize[o], first, o);
    return l;
}

Built notLargerThan(Built l, const std::vector<std::int64_t>& shape, bool dropRegisters) {
    std::vector<bool> drop;
    if (auto* regs = l.find("register")) drop.assign(regs->size(), false);
    for (std::size_t o : l.outOrder) {
        if (l.outSize[o] <= shape[o]) continue;
        for (std::size_t k = 0; k < l.ins.size(); ++k)
            for (std::size_t i = 0; i < l.bases[k].size(); ++i) {
                std::int64_t& v = l.bases[k][i][o];
                if (v < shape[o]) continue;
                if (dropRegisters && l.ins[k] == "register")
                    drop[i] = true;
                else
                    v = 0;
            }
    }
    if (auto* regs = l.find("register"); regs && dropRegisters) {
        std::vector<std::vector<std::int64_t>> kept;
        for (std::size_t i = 0; i < regs->size(); ++i)
            if (!drop[i]) kept.push_back((*regs)[i]);
        *regs = std::move(kept);
    }
    // Triton rebuilds the layout from its bases: each size is the least power of two above
    // every coordinate.
    for (std::size_t o : l.outOrder) {
        std::int64_t size = 1;
        for (const auto& in : l.bases)
            for (const auto& b : in)
                size = std::max<std::int64_t>(
                    size, std::int64_t{1} << std::bit_width(static_cast<std::uint64_t>(b[o])));
        l.outSize[o] = size;
    }
    return l;
}

Built reshape(const Built& l, const std::vector<std::int64_t>& shape) {
    Built r = empty(shape.size());
    r.ins = l.ins;
    for (std::size_t o = 0; o < shape.size(); ++o) {
        r.outOrder.push_back(o);
        r.outSize[o] = shape[o];
    }
    for (const auto& in : l.bases) {
        std::vector<std::vector<std::int64_t>> bs;
        for (const auto& b : in) {
            std::int64_t flat = 0;
            for (std::size_t o : l.outOrder)
                flat = flat * l.outSize[o] + b[o];
            std::vector<std::int64_t> nb(shape.size(), 0);
            for (std::size_t o = shape.size(); o-- > 0;) {
                nb[o] = flat % shape[o];
                flat /= shape[o];
            }
            bs.push_back(std::move(nb));
        }
        r.bases.push_back(std::move(bs));
    }
    return r;
}

Built permuteDims(const Built& l, const std::vector<std::size_t>& order) {
    Built r = l;
    r.outOrder.clear();
    for (std::size_t o = 0; o < order.size(); ++o) {
        r.outOrder.push_back(o);
        r.outSize[o] = l.outSize[order[o]];
    }
    for (auto& in : r.bases)
        for (auto& b : in) {
            std::vector<std::int64_t> nb(order.size());
            for (std::size_t o = 0; o < order.size(); ++o)
                nb[o] = b[order[o]];
            b = std::move(nb);
        }
    return r;
}

linear::LinearLayout finish(const Built& l) {
    linear::LinearLayout out;
    for (std::size_t k = 0; k < l.ins.size(); ++k)
        out.ins.push_back({l.ins[k], l.bases[k]});
    for (std::size_t o = 0; o < l.rank; ++o) {
        out.outNames.push_back("dim" + std::to_string(o));
        out.outSizes.push_back(l.outSize[o]);
    }
    return out;
}

} // namespace ts::interop::tll
