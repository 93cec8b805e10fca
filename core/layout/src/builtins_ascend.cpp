// SPDX-License-Identifier: Apache-2.0
// Ascend fractal layouts (tilelang-ascend ascend_layout.py:33-135, catlass layout/matrix.hpp).
// C0 = 32 bytes / element size; fractals are 16 x C0 (L0C: 16 x 16 for every dtype). Shapes that
// are not multiples of the fractal are padded: the physical footprint rounds up.
#include "builtins_impl.h"

namespace ts::builtin {

namespace {

std::int64_t roundUp(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b * b;
}

Layout fractal(const Shape& s, const char* name,
               const std::function<Expr(std::int64_t, std::int64_t)>& f) {
    if (s.size() != 2)
        throw InputError(std::string(name) + " takes a 2-D shape, got " + formatShape(s));
    return Layout(s, {f(s[0], s[1])});
}

} // namespace

void registerAscend(std::vector<Builtin>& out) {
    const BuiltinParam shape{"shape", ParamKind::Shape, std::nullopt, "logical (rows, cols)"};
    const BuiltinParam dtype{"dtype", ParamKind::Dtype, "\"float16\"",
                             "element type (sets C0 = 32 B / size)"};
    const Expr r = var("_i"), c = var("_j");
    auto c0 = [](const BuiltinArgs& a) {
        int bits = a.dtypeBits("dtype");
        return std::int64_t{256} / bits;
    };
    out.push_back(
        {"make_zn_layout",
         {shape, dtype},
         "Ascend zN (L1, ND->NZ target): C0-wide column blocks",
         [=](const BuiltinArgs& a) -> Mapping {
             std::int64_t C0 = c0(a);
             return fractal(a.shape("shape"), "make_zn_layout", [&](std::int64_t R, std::int64_t) {
                 return floordiv(c, C0) * (roundUp(R, 16) * C0) + floordiv(r, 16) * (16 * C0) +
                        floormod(r, 16) * C0 + floormod(c, C0);
             });
         }});
    out.push_back(
        {"make_nz_layout",
         {shape, dtype},
         "Ascend nZ (L0B, transposed L1)",
         [=](const BuiltinArgs& a) -> Mapping {
             std::int64_t C0 = c0(a);
             return fractal(a.shape("shape"), "make_nz_layout", [&](std::int64_t, std::int64_t C) {
                 return floordiv(r, C0) * (roundUp(C, 16) * C0) + floordiv(c, 16) * (16 * C0) +
                        floormod(c, 16) * C0 + floormod(r, C0);
             });
         }});
    out.push_back(
        {"make_zz_layout",
         {shape, dtype},
         "Ascend zZ (L0A): row-major fractals of 16 x C0",
         [=](const BuiltinArgs& a) -> Mapping {
             std::int64_t C0 = c0(a);
             return fractal(a.shape("shape"), "make_zz_layout", [&](std::int64_t, std::int64_t C) {
                 return floordiv(r, 16) * (roundUp(C, C0) * 16) + floordiv(c, C0) * (16 * C0) +
                        floormod(r, 16) * C0 + floormod(c, C0);
             });
         }});
    out.push_back(
        {"make_l0c_layout",
         {shape, {"dtype", ParamKind::Dtype, "\"float32\"", "ignored: L0C fractals are 16x16"}},
         "Ascend L0C accumulator: 16x16 fractals for every dtype",
         [=](const BuiltinArgs& a) -> Mapping {
             return fractal(a.shape("shape"), "make_l0c_layout", [&](std::int64_t R, std::int64_t) {
                 return floordiv(c, 16) * (roundUp(R, 16) * 16) + floordiv(r, 16) * 256 +
                        floormod(r, 16) * 16 + floormod(c, 16);
             });
         }});
}

// TileLang 0.1.15's own Ascend layouts (tilelang/layout/ascend.py): four outputs
// [c0_group, row16_group, row % 16, c % C0] per 2-D tile, leading dims passed through.
namespace {

Layout fourOutput(const Shape& s, std::int64_t C0, bool c0OnRows) {
    if (s.size() < 2)
        throw InputError("expects a buffer shape of rank >= 2, got " + formatShape(s));
    const std::size_t L = s.size() - 2;
    Expr r = var(placeholderName(L)), c = var(placeholderName(L + 1));
    Expr a = c0OnRows ? r : c, b = c0OnRows ? c : r; // a: grouped by C0, b: grouped by 16
    std::vector<Expr> out;
    for (std::size_t k = 0; k < L; ++k)
        out.push_back(var(placeholderName(k)));
    for (Expr e : {floordiv(a, C0), floordiv(b, 16), floormod(b, 16), floormod(a, C0)})
        out.push_back(e);
    return Layout(s, out);
}

// k_align only checks the K extent (TileLang: "requires K-axis extent to be divisible by
// k_align"); the layout itself does not change. Values <= 1 check nothing.
void requireAlign(const BuiltinArgs& a, bool kIsLast, const char* what) {
    const Shape& s = a.shape("shape");
    const std::int64_t k = a.integer("k_align");
    if (s.size() < 2 || k <= 1) return;
    const std::int64_t extent = kIsLast ? s.back() : s[s.size() - 2];
    if (extent % k)
        throw InputError(std::string("Ascend ") + what + " layout requires the K-axis extent (" +
                         (kIsLast ? "last" : "second-to-last") + " dim, " + std::to_string(extent) +
                         ") to be divisible by k_align = " + std::to_string(k));
}

} // namespace

void registerAscendTileLang(std::vector<Builtin>& out) {
    const BuiltinParam shape{"shape", ParamKind::Shape, std::nullopt, "buffer shape (rank >= 2)"};
    const BuiltinParam dtype{"dtype", ParamKind::Dtype, "\"float16\"",
                             "element type (C0 = 32 B / size)"};
    const BuiltinParam align{"k_align", ParamKind::Int, "1",
                             "the K extent must be a multiple of it (checked, layout unchanged)"};
    auto c0 = [](const BuiltinArgs& a) { return std::int64_t{256} / a.dtypeBits("dtype"); };
    out.push_back({"make_ascend_nz_layout",
                   {shape, dtype},
                   "TileLang's Ascend NZ: [c // C0, r // 16, r % 16, c % C0]",
                   [=](const BuiltinArgs& a) -> Mapping {
                       return fourOutput(a.shape("shape"), c0(a), false);
                   }});
    out.push_back({"make_ascend_major_k_layout",
                   {shape, dtype, align},
                   "Ascend fractal for [MN, K] tiles: K grouped by C0 outermost",
                   [=](const BuiltinArgs& a) -> Mapping {
                       requireAlign(a, true, "MajorK");
                       return fourOutput(a.shape("shape"), c0(a), false);
                   }});
    out.push_back({"make_ascend_major_mn_layout",
                   {shape, dtype, align},
                   "Ascend fractal for [K, MN] tiles: rows grouped by C0 outermost",
                   [=](const BuiltinArgs& a) -> Mapping {
                       requireAlign(a, false, "MajorMN");
                       return fourOutput(a.shape("shape"), c0(a), true);
                   }});
    out.push_back(
        {"make_ascend_l0c_layout",
         {shape, {"dtype", ParamKind::Dtype, "\"float32\"", "ignored (16x16)"}},
         "TileLang's Ascend L0C: 16x16 fractals",
         [=](const BuiltinArgs& a) -> Mapping { return fourOutput(a.shape("shape"), 16, false); }});
    out.push_back(
        {"make_ascend_sf_layout",
         {shape, {"dtype", ParamKind::Dtype, "\"uint8\"", "scale-factor storage type"}},
         "Ascend MX scale-factor layout: [r // 16, c // P, r % 16, c % P], P = 16 bits / size",
         [=](const BuiltinArgs& a) -> Mapping {
             const int bits = a.dtypeBits("dtype");
             if (16 % bits)
                 throw InputError("make_ascend_sf_layout needs a storage type whose bit width "
                                  "divides 16, got " +
                                  a.string("dtype"));
             const Shape& s = a.shape("shape");
             if (s.size() < 2)
                 throw InputError("expects a buffer shape of rank >= 2, got " + formatShape(s));
             const std::size_t L = s.size() - 2;
             const std::int64_t P = 16 / bits;
             Expr r = var(placeholderName(L)), c = var(placeholderName(L + 1));
             std::vector<Expr> o;
             for (std::size_t k = 0; k < L; ++k)
                 o.push_back(var(placeholderName(k)));
             for (Expr e : {floordiv(r, 16), floordiv(c, P), floormod(r, 16), floormod(c, P)})
                 o.push_back(e);
             return Layout(s, o);
         }});
    out.push_back(
        {"make_ascend_compact_nz_layout",
         {shape, dtype},
         "compact NZ: [lead * (C / C0) + c // C0, r, c % C0], leading dims folded into the group",
         [=](const BuiltinArgs& a) -> Mapping {
             const Shape& s = a.shape("shape");
             if (s.size() < 2) throw InputError("expects a buffer shape of rank >= 2");
             const std::int64_t C0 = c0(a), C = s.back();
             if (C % C0)
                 throw InputError("columns (" + std::to_string(C) +
                                  ") must be divisible by C0 = " + std::to_string(C0));
             const std::size_t L = s.size() - 2;
             Expr lead = constant(0);
             for (std::size_t k = 0; k < L; ++k)
                 lead = lead * s[k] + var(placeholderName(k));
             Expr r = var(placeholderName(L)), c = var(placeholderName(L + 1));
             return Layout(s, {lead * (C / C0) + floordiv(c, C0), r, floormod(c, C0)});
         }});
}

} // namespace ts::builtin
