// SPDX-License-Identifier: Apache-2.0
// Layout.reshape and Fragment.reshape as TileLang 0.1.15 computes them (src/layout/layout.cc,
// Reshape and TryReinterpretReshape): the new shape's row-major flat index recovers the old
// coordinates; a rescale num/den other than 1 is an element-width change (num = old bits, den =
// new bits in TileLang's reading), narrowing splits each old element into `pack` new ones on the
// last output, widening merges `pack` old elements that must sit in one aligned slot.
#include "tilescope/layout/layout.h"
#include "tilescope/support/errors.h"

#include <functional>

namespace ts {

namespace {

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

Expr flatIndex(const Shape& s) {
    Expr f = constant(0);
    for (std::size_t k = 0; k < s.size(); ++k)
        f = f * s[k] + var(placeholderName(k));
    return f;
}

// RecoverOriginalIndices: old coordinates of a flat element index.
std::vector<Expr> recover(const Shape& old, const Expr& flat) {
    std::vector<Expr> out;
    Expr rest = flat;
    for (std::size_t k = 0; k < old.size(); ++k) {
        std::int64_t stride = 1;
        for (std::size_t j = k + 1; j < old.size(); ++j)
            stride *= old[j];
        out.push_back(floordiv(rest, stride));
        rest = floormod(rest, stride);
    }
    return out;
}

Expr onOld(const Expr& e, const std::vector<Expr>& coords) {
    return substitute(e, [&](const std::string& n) -> Expr {
        for (std::size_t k = 0; k < coords.size(); ++k)
            if (n == placeholderName(k)) return coords[k];
        return nullptr;
    });
}

enum class Rescale { Same, Narrow, Widen };

struct Plan {
    Rescale kind = Rescale::Same;
    std::int64_t pack = 1;
};

// The checks TileLang makes before reshaping: element counts agree under the rescale, and a
// width change is an integer ratio.
Plan planReshape(const Shape& from, const Shape& to, std::int64_t num, std::int64_t den) {
    checkShape(to, "reshape shape");
    if (num < 1 || den < 1)
        throw InputError("reshape: rescale_num and rescale_den must be positive, got " +
                         std::to_string(num) + " and " + std::to_string(den));
    const std::int64_t a = cellCount(from), b = cellCount(to);
    std::int64_t lhs = 0, rhs = 0;
    if (__builtin_mul_overflow(a, num, &lhs) || __builtin_mul_overflow(b, den, &rhs) || lhs != rhs)
        throw InputError(
            "reshape: " + formatShape(from) + " (" + std::to_string(a) +
            " elements) cannot become " + formatShape(to) + " (" + std::to_string(b) +
            " elements)" +
            (num == den ? std::string()
                        : " with rescale " + std::to_string(num) + "/" + std::to_string(den)));
    if (num == den) return {};
    if (num > den) {
        if (num % den)
            throw InputError("reshape: rescale " + std::to_string(num) + "/" + std::to_string(den) +
                             " is not an integer element-width ratio");
        return {Rescale::Narrow, num / den};
    }
    if (den % num)
        throw InputError("reshape: rescale " + std::to_string(num) + "/" + std::to_string(den) +
                         " is not an integer element-width ratio");
    return {Rescale::Widen, den / num};
}

std::string widenError(const std::string& what, std::int64_t pack) {
    return "reshape: cannot reinterpret this " + what + " with " + std::to_string(pack) +
           " old elements per new one: aliasing buffers must induce the same storage layout, "
           "and this one interleaves storage" +
           (what == "fragment" ? " or threads" : "") + " below the new element width";
}

} // namespace

Layout Layout::reshape(const Shape& shape, std::int64_t num, std::int64_t den) const {
    if (shape == input_) return *this; // TileLang's fast path, before any check
    const Plan plan = planReshape(input_, shape, num, den);
    if (table_) throw InputError("reshape of a tabulated (inverted) layout is not supported");
    const Expr flat = flatIndex(shape);
    std::vector<Expr> fwd;
    if (plan.kind == Rescale::Same) {
        for (const Expr& e : forward_)
            fwd.push_back(onOld(e, recover(input_, flat)));
        return Layout(shape, fwd);
    }
    if (plan.kind == Rescale::Narrow) {
        for (const Expr& e : forward_)
            fwd.push_back(onOld(e, recover(input_, floordiv(flat, plan.pack))));
        fwd.back() = fwd.back() * plan.pack + floormod(flat, plan.pack);
        return Layout(shape, fwd);
    }
    // Widen: every lane of a new element must land in the same aligned slot of the old layout.
    Shape probeShape = shape;
    probeShape.push_back(plan.pack);
    const Expr lane = var(placeholderName(shape.size()));
    std::vector<Expr> probe;
    for (const Expr& e : forward_)
        probe.push_back(onOld(e, recover(input_, flat * plan.pack + lane)));
    const LayoutTable t = Layout(probeShape, probe).evaluate();
    const std::size_t R = t.outRank;
    for (std::int64_t c = 0; c < t.cells(); c += plan.pack) {
        const std::int64_t* base = &t.out[c * R];
        const std::int64_t slot = floorDiv(base[R - 1], plan.pack);
        for (std::int64_t l = 0; l < plan.pack; ++l) {
            const std::int64_t* p = &t.out[(c + l) * R];
            bool same = p[R - 1] == slot * plan.pack + l;
            for (std::size_t k = 0; same && k + 1 < R; ++k)
                same = p[k] == base[k];
            if (!same) throw InputError(widenError("layout", plan.pack));
        }
    }
    for (const Expr& e : forward_)
        fwd.push_back(onOld(e, recover(input_, flat * plan.pack)));
    fwd.back() = floordiv(fwd.back(), plan.pack);
    return Layout(shape, fwd);
}

Fragment Fragment::reshape(const Shape& shape, std::int64_t num, std::int64_t den) const {
    if (shape == input_) return *this;
    const Plan plan = planReshape(input_, shape, num, den);
    const Expr flat = flatIndex(shape);
    auto rebuilt = [&](Expr thread, std::vector<Expr> index) {
        Fragment f(shape, std::move(thread), std::move(index), replicate_);
        f.range_ = range_;
        return f;
    };
    std::vector<Expr> index;
    if (plan.kind != Rescale::Widen) {
        const auto coords =
            recover(input_, plan.kind == Rescale::Same ? flat : floordiv(flat, plan.pack));
        for (const Expr& e : index_)
            index.push_back(onOld(e, coords));
        if (plan.kind == Rescale::Narrow)
            index.back() = index.back() * plan.pack + floormod(flat, plan.pack);
        return rebuilt(onOld(thread_, coords), index);
    }
    Shape probeShape = shape;
    probeShape.push_back(plan.pack);
    const Expr lane = var(placeholderName(shape.size()));
    const auto probeCoords = recover(input_, flat * plan.pack + lane);
    std::vector<Expr> probeIndex;
    for (const Expr& e : index_)
        probeIndex.push_back(onOld(e, probeCoords));
    const FragmentTable t =
        Fragment(probeShape, onOld(thread_, probeCoords), probeIndex, replicate_).evaluate();
    const std::size_t L = t.localRank;
    for (std::int64_t c = 0; c < t.cells(); c += plan.pack) {
        const std::int64_t* base = &t.local[c * L];
        const std::int64_t slot = floorDiv(base[L - 1], plan.pack);
        for (std::int64_t l = 0; l < plan.pack; ++l) {
            const std::int64_t* p = &t.local[(c + l) * L];
            bool same = p[L - 1] == slot * plan.pack + l;
            for (std::size_t k = 0; same && k + 1 < L; ++k)
                same = p[k] == base[k];
            for (std::int64_t r = 0; same && r < replicate_; ++r)
                same = t.threads[(c + l) * replicate_ + r] == t.threads[c * replicate_ + r];
            if (!same) throw InputError(widenError("fragment", plan.pack));
        }
    }
    const auto coords = recover(input_, flat * plan.pack);
    for (const Expr& e : index_)
        index.push_back(onOld(e, coords));
    index.back() = floordiv(index.back(), plan.pack);
    return rebuilt(onOld(thread_, coords), index);
}

Layout Fragment::expandIndex(const Shape& leading) const {
    return Layout(input_, index_).expand(leading);
}

} // namespace ts
