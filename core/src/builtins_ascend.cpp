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
         {shape},
         "Ascend L0C accumulator: 16x16 fractals for every dtype",
         [=](const BuiltinArgs& a) -> Mapping {
             return fractal(a.shape("shape"), "make_l0c_layout", [&](std::int64_t R, std::int64_t) {
                 return floordiv(c, 16) * (roundUp(R, 16) * 16) + floordiv(r, 16) * 256 +
                        floormod(r, 16) * 16 + floormod(c, 16);
             });
         }});
}

} // namespace ts::builtin
