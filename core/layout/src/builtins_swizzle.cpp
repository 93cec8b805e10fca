// SPDX-License-Identifier: Apache-2.0
// Shared-memory layouts: TileLang's bank swizzles, the GEMM operand selection logic, padding
// and linear layouts (gemm_layouts.cc:376-964, mma_layout.py:295-348).
#include "builtins_impl.h"

namespace ts::builtin {

namespace {

Expr xor2x2(const Expr& a, const Expr& b) {
    return floormod(a + b, 2);
}
Expr xor4x4(const Expr& a, const Expr& b) {
    return 2 * xor2x2(floordiv(a, 2), floordiv(b, 2)) + xor2x2(floormod(a, 2), floormod(b, 2));
}
Expr xor8x8(const Expr& a, const Expr& b) {
    return 2 * xor4x4(floordiv(a, 2), floordiv(b, 2)) + xor2x2(floormod(a, 2), floormod(b, 2));
}

// Rank >= 2 buffers use their last two dims; leading dims pass through unchanged (ExpandLayout2D).
Layout expandLeading(const Shape& shape,
                     const std::function<Layout(std::int64_t, std::int64_t)>& make2d) {
    if (shape.size() < 2)
        throw InputError("expects a buffer shape of rank >= 2, got " + formatShape(shape));
    Layout l = make2d(shape[shape.size() - 2], shape.back());
    return l.expand(Shape(shape.begin(), shape.end() - 2));
}

} // namespace

Layout bankSwizzle(std::int64_t R, std::int64_t C, int bits, int k, const char* name) {
    const std::int64_t v = 128 / bits;
    if (!(R == 4 || R % 8 == 0) || C % (v * k) != 0)
        throw InputError(std::string("illegal shape for ") + name +
                         ": needs rows == 4 or rows % 8 == 0 and " + "columns % " +
                         std::to_string(v * k) + " == 0, got " + std::to_string(R) + "x" +
                         std::to_string(C));
    Expr i = var("_i"), j = var("_j");
    Expr ts = floordiv(i, 8), s = floormod(i, 8);
    Expr tc = floordiv(j, v * k), c = floormod(floordiv(j, v), k), vec = floormod(j, v);
    Expr cs = k == 2   ? xor2x2(c, floordiv(s, 4))
              : k == 4 ? xor4x4(c, floordiv(s, 2))
                       : xor8x8(c, s);
    Expr index = (cs + s * k) * v + vec;
    return Layout({R, C}, {tc, ts, index});
}

Layout padded2d(std::int64_t R, std::int64_t C, int bits) {
    std::int64_t padded = C + ((bits * C) % 256 == 0 ? 128 / bits : 0);
    return Layout({R, C}, {var("_i") * padded + var("_j")});
}

Layout linear2d(std::int64_t R, std::int64_t C) {
    return Layout({R, C}, {var("_i") * C + var("_j")});
}

namespace {

Layout f64Swizzle(std::int64_t R, std::int64_t C, bool kInner) {
    Expr i = var("_i"), j = var("_j");
    Expr tc = floordiv(j, 16), ts = floordiv(i, 4), c = floormod(j, 16), s = floormod(i, 4);
    Expr index = kInner ? floordiv(c, 4) * 4 + xor4x4(floormod(c, 4), s) + s * 16
                        : floormod(c, 4) + xor4x4(floordiv(c, 4), s) * 4 + s * 16;
    return Layout({R, C}, {tc, ts, index});
}

Layout gemmAB(std::int64_t R, std::int64_t C, int bits, bool kInner) {
    const std::int64_t v = 128 / bits;
    if (bits == 64) {
        if (C % 16 == 0) return f64Swizzle(R, C, kInner);
        return padded2d(R, C, bits);
    }
    if (!kInner && bits == 8) return padded2d(R, C, bits);
    if (C % (8 * v) == 0) return bankSwizzle(R, C, bits, 8, "make_swizzled_layout");
    if (C % (4 * v) == 0) return bankSwizzle(R, C, bits, 4, "make_swizzled_layout");
    if (C % (2 * v) == 0) return bankSwizzle(R, C, bits, 2, "make_swizzled_layout");
    return padded2d(R, C, bits);
}

// MakeGemmABLayoutHopper; `continuity` (the continuous extent by default) only selects the
// float64 swizzle. MakeGemmABLayoutSm100 is the same rule without float64.
Layout gemmABHopper(std::int64_t R, std::int64_t C, int bits, bool kInner, std::int64_t continuity,
                    const char* name) {
    const std::int64_t v = 128 / bits;
    if (bits == 64) {
        if (continuity % 16 == 0) return f64Swizzle(R, C, kInner);
        if (R % 8 != 0) return linear2d(R, C);
        return bankSwizzle(R, C, bits, 2, name);
    }
    if (R % 8 == 0) {
        if (C % (8 * v) == 0) return bankSwizzle(R, C, bits, 8, name);
        if (C % (4 * v) == 0) return bankSwizzle(R, C, bits, 4, name);
        if (C % (2 * v) == 0) return bankSwizzle(R, C, bits, 2, name);
    }
    if (C % v == 0) return linear2d(R, C);
    throw InputError(std::string(name) + ": no layout for " + std::to_string(R) + "x" +
                     std::to_string(C) + " with " + std::to_string(bits) +
                     "-bit elements (the continuous extent must be a multiple of " +
                     std::to_string(v) + ")");
}

// Volta (sm70) operand layouts, MakeGemmVoltaABLayout: CUTLASS's crosswise and congruous
// tensor-op multiplicands for float16, else rows padded as for 16-bit elements.
Layout voltaCrosswise(std::int64_t R, std::int64_t C) {
    Expr i = var("_i"), j = var("_j");
    Expr vc = floordiv(j, 4), vs = floormod(vc, 8);
    Expr bit2 =
        floormod(floordiv(floormod(i, 32), 16) + floordiv(floormod(i, 16), 8) + floordiv(vs, 4), 2);
    Expr bit1 = xor2x2(floordiv(floormod(i, 8), 4), floordiv(floormod(vs, 4), 2));
    Expr permuted = floordiv(i, 16) * 16 + floormod(i, 4) * 4 + bit2 * 2 + bit1;
    return Layout({R, C}, {floormod(j, 4) + permuted * 4 + vc * (R * 4)});
}

Layout voltaCongruous(std::int64_t R, std::int64_t C, bool isA) {
    Expr i = var("_i"), j = var("_j");
    Expr vc = floordiv(j, 8);
    Expr tileC = floordiv(vc, 8), tileS = floordiv(i, 4);
    Expr resC = floormod(vc, 8), resS = floormod(i, 4);
    Expr strided = isA ? floordiv(resC, 2) : floormod(resC, 4);
    Expr contiguous = (isA ? floormod(resC, 2) * 4 : floordiv(resC, 4) * 4) + xor4x4(resS, strided);
    Expr elemS = strided + tileS * 4;
    Expr elemC = floormod(j, 8) + (contiguous + tileC * 8) * 8;
    return Layout({R, C}, {elemS * C + elemC});
}

Layout gemmABVolta(std::int64_t R, std::int64_t C, bool isA, bool kInner) {
    if (kInner && C % 32 == 0 && R % 32 == 0) return voltaCrosswise(R, C);
    if (C % 64 == 0 && R % 4 == 0) return voltaCongruous(R, C, isA);
    return padded2d(R, C, 16);
}

Mapping mmaSwizzle(const Shape& shape, int bits, bool smooth) {
    return expandLeading(shape, [&](std::int64_t R, std::int64_t C) {
        Expr i = var("_i"), j = var("_j");
        if (smooth || (C * bits) % 512 != 0) return Layout({R, C}, {i, j});
        std::int64_t rowBytes = C * bits / 8;
        std::int64_t swz = std::min<std::int64_t>(128, rowBytes);
        std::int64_t e16 = 128 / bits, nvec = swz / 16;
        Expr col = binary(Op::BitXor, floormod(floordiv(j, e16), nvec),
                          floordiv(floormod(i, 8), 8 / nvec)) *
                       e16 +
                   floormod(j, e16);
        return Layout({R, C}, {floordiv(floordiv(j, e16), nvec), i, col});
    });
}

} // namespace

void registerSwizzles(std::vector<Builtin>& out) {
    const BuiltinParam shape{"shape", ParamKind::Shape, std::nullopt, "buffer shape (rank >= 2)"};
    const BuiltinParam dtype{"dtype", ParamKind::Dtype, "\"float16\"", "element type"};
    struct Bank {
        const char* name;
        int k;
        const char* bytes;
    };
    for (Bank b : {Bank{"make_quarter_bank_swizzled_layout", 2, "32B"},
                   Bank{"make_half_bank_swizzled_layout", 4, "64B"},
                   Bank{"make_full_bank_swizzled_layout", 8, "128B"}}) {
        out.push_back({b.name,
                       {shape, dtype},
                       std::string(b.bytes) +
                           " XOR swizzle; outputs [tile_col, tile_row, offset] as TileLang",
                       [b](const BuiltinArgs& a) -> Mapping {
                           int bits = a.dtypeBits("dtype");
                           return expandLeading(a.shape("shape"),
                                                [&](std::int64_t R, std::int64_t C) {
                                                    return bankSwizzle(R, C, bits, b.k, b.name);
                                                });
                       }});
    }
    out.push_back(
        {"make_swizzled_layout",
         {shape,
          dtype,
          {"k_major", ParamKind::Bool, "True",
           "K is the contiguous dim. T.gemm on sm80 always leaves it True, whatever "
           "transpose_A/transpose_B say: an int8 A stored transposed gets the k_major=True "
           "swizzle, not the padded layout k_major=False gives"},
          {"allow_pad", ParamKind::Bool, "True", "fall back to padding (sm80); else Hopper rules"}},
         "T.gemm's choice for an operand in shared memory: widest legal swizzle, else padding",
         [](const BuiltinArgs& a) -> Mapping {
             int bits = a.dtypeBits("dtype");
             bool k = a.boolean("k_major"), pad = a.boolean("allow_pad");
             return expandLeading(a.shape("shape"), [&](std::int64_t R, std::int64_t C) {
                 return pad ? gemmAB(R, C, bits, k)
                            : gemmABHopper(R, C, bits, k, C, "make_swizzled_layout");
             });
         }});
    const BuiltinParam continuity{"continuity", ParamKind::Int, "None",
                                  "extent that selects the float64 swizzle; None: the last dim"};
    const BuiltinParam kMajor{"k_major", ParamKind::Bool, "True", "K is the contiguous dim"};
    out.push_back({"make_wgmma_swizzled_layout",
                   {shape, dtype, continuity, kMajor},
                   "WGMMA operand layout (Hopper rules: swizzle, else linear)",
                   [](const BuiltinArgs& a) -> Mapping {
                       int bits = a.dtypeBits("dtype");
                       return expandLeading(a.shape("shape"), [&](std::int64_t R, std::int64_t C) {
                           const std::int64_t cont =
                               a.has("continuity") ? a.integer("continuity") : C;
                           return gemmABHopper(R, C, bits, a.boolean("k_major"),
                                               cont < 0 ? C : cont, "make_wgmma_swizzled_layout");
                       });
                   }});
    out.push_back(
        {"make_tcgen05mma_swizzled_layout",
         {shape,
          dtype,
          {"continuity", ParamKind::Int, "None", "accepted and unused by TileLang's sm100 rule"},
          {"k_major", ParamKind::Bool, "True", "accepted and unused by TileLang's sm100 rule"}},
         "TCGEN05 (sm100) operand layout: the Hopper rule without float64",
         [](const BuiltinArgs& a) -> Mapping {
             int bits = a.dtypeBits("dtype");
             if (bits == 64)
                 throw InputError("make_tcgen05mma_swizzled_layout: float64 on sm100 is not "
                                  "supported (TileLang rejects it too)");
             return expandLeading(a.shape("shape"), [&](std::int64_t R, std::int64_t C) {
                 return gemmABHopper(R, C, bits, true, C, "make_tcgen05mma_swizzled_layout");
             });
         }});
    out.push_back({"make_volta_swizzled_layout",
                   {shape,
                    {"dtype", ParamKind::Dtype, "\"float16\"",
                     "accepted and unused, as in TileLang: Volta layouts are for float16"},
                    {"is_a", ParamKind::Bool, "True", "operand A (else B)"},
                    {"k_inner", ParamKind::Bool, "True", "K is the contiguous dim"}},
                   "Volta (sm70) operand layout: crosswise, congruous A/B, else padded",
                   [](const BuiltinArgs& a) -> Mapping {
                       return expandLeading(a.shape("shape"), [&](std::int64_t R, std::int64_t C) {
                           return gemmABVolta(R, C, a.boolean("is_a"), a.boolean("k_inner"));
                       });
                   }});
    out.push_back({"make_padded_layout",
                   {shape, dtype},
                   "TileLang's padded operand layout: rows padded by 16 bytes when a row is a "
                   "multiple of 32 bytes",
                   [](const BuiltinArgs& a) -> Mapping {
                       int bits = a.dtypeBits("dtype");
                       return expandLeading(a.shape("shape"), [&](std::int64_t R, std::int64_t C) {
                           return padded2d(R, C, bits);
                       });
                   }});
    out.push_back({"make_mma_swizzle_layout",
                   {shape, dtype, {"is_smooth", ParamKind::Bool, "False", "identity when true"}},
                   "Python MMA swizzle (real ^); identity when rows are not a multiple of 64 bytes",
                   [](const BuiltinArgs& a) -> Mapping {
                       return mmaSwizzle(a.shape("shape"), a.dtypeBits("dtype"),
                                         a.boolean("is_smooth"));
                   }});
    out.push_back({"make_linear_layout",
                   {shape, dtype},
                   "row-major, one output",
                   [](const BuiltinArgs& a) -> Mapping {
                       const Shape& s = a.shape("shape");
                       checkShape(s, "shape");
                       Expr acc = constant(0);
                       for (std::size_t k = 0; k < s.size(); ++k)
                           acc = acc * s[k] + var(placeholderName(k));
                       return Layout(s, {acc});
                   }});
}

} // namespace ts::builtin
