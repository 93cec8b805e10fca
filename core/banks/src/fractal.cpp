// SPDX-License-Identifier: Apache-2.0
// Ascend fractal previews (see fractal.h).
#include "tilescope/banks/fractal.h"

#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <cctype>

namespace ts {

FractalKind parseFractalKind(const std::string& in) {
    const std::string s = in.substr(0, in.find(' '));
    if (s == "zN" || s == "NZ") return FractalKind::zN;
    if (s == "nZ" || s == "ZN") return FractalKind::nZ;
    if (s == "zZ" || s == "ZZ" || s == "zz") return FractalKind::zZ;
    if (s == "L0C" || s == "l0c" || s == "L0c") return FractalKind::L0C;
    std::string lower;
    for (char c : s)
        lower += char(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "zn" || lower == "nz")
        throw InputError("fractal '" + in +
                         "' is ambiguous: CATLASS zN is tilelang-ascend \"NZ\" and CATLASS nZ "
                         "is tilelang-ascend \"ZN\"; write zN or nZ (CATLASS), NZ or ZN "
                         "(tilelang-ascend)");
    throw InputError("unknown fractal '" + in + "' (zN, nZ, zZ, L0C; or NZ, ZN, ZZ)");
}

std::string fractalKindName(FractalKind k) {
    switch (k) {
    case FractalKind::zN:
        return "zN";
    case FractalKind::nZ:
        return "nZ";
    case FractalKind::zZ:
        return "zZ";
    case FractalKind::L0C:
        return "L0C";
    }
    return "?";
}

std::string fractalKindAscendName(FractalKind k) {
    switch (k) {
    case FractalKind::zN:
        return "NZ";
    case FractalKind::nZ:
        return "ZN";
    case FractalKind::zZ:
        return "ZZ";
    case FractalKind::L0C:
        return "L0C";
    }
    return "?";
}

std::string fractalKindLabel(FractalKind k) {
    if (k == FractalKind::L0C) return "L0C";
    return fractalKindName(k) + " (" + fractalKindAscendName(k) + ")";
}

std::string ascendFractalCode(FractalKind k, std::int64_t rows, std::int64_t cols,
                              const std::string& dtype) {
    const std::string shape = "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
    const std::string name =
        fractalKindName(k) + " (tilelang-ascend \"" + fractalKindAscendName(k) + "\")";
    if (k == FractalKind::zN || k == FractalKind::nZ) {
        const std::string fn = k == FractalKind::zN ? "make_zn_layout" : "make_nz_layout";
        return "# " + name +
               ", tilelang-ascend (ascendc_pto) tilelang/intrinsics/ascend_layout.py\n"
               "from tilelang.intrinsics import " +
               fn +
               "\n\n"
               "# inside the kernel:\n"
               "buf = T.alloc_L1(" +
               shape + ", \"" + dtype +
               "\")\n"
               "T.annotate_layout({buf: " +
               fn + "(buf)})\n";
    }
    const std::string builder = k == FractalKind::zZ ? "make_zz_layout" : "make_l0c_layout";
    std::string code = toTileLangCode(parseMapping(builder + "(" + shape + ", \"" + dtype + "\")"));
    if (k == FractalKind::zZ) {
        // layout_tag 3 = AscendLayout.kzZ (ascend_layout.py:14), read by codegen.
        const auto close = code.rfind(')');
        if (close == std::string::npos) throw InputError("internal: no T.Layout call to tag");
        code.insert(close, ", layout_tag=3");
        return "# " + name +
               ": tilelang-ascend has no zZ builder; T.Layout with layout_tag=3\n"
               "# (AscendLayout.kzZ) is what its codegen reads as zZ.\n" +
               code;
    }
    return "# L0C: tilelang-ascend has no L0C layout tag; a T.alloc_L0C buffer gets this order\n"
           "# from codegen (tla::MakeLayoutL0C). The untagged layout, for reference only:\n" +
           code;
}

namespace {
std::int64_t roundUp(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b * b;
}
} // namespace

std::pair<std::int64_t, std::int64_t> FractalView::physPos(std::int64_t off) const {
    const std::int64_t fsize = frac_rows * frac_cols;
    const std::int64_t f = off / fsize, in = off % fsize;
    const std::int64_t band = f / per_band, pos = f % per_band;
    return {band * frac_rows + in / frac_cols, pos * frac_cols + in % frac_cols};
}

std::int64_t FractalView::logicalBlock(std::int64_t r, std::int64_t c) const {
    std::int64_t br = 16, bc = c0;
    if (kind == FractalKind::nZ) br = c0, bc = 16;
    if (kind == FractalKind::L0C) br = 16, bc = 16;
    const std::int64_t nbc = (cols + bc - 1) / bc;
    return (r / br) * nbc + c / bc;
}

FractalView fractalView(FractalKind kind, std::int64_t R, std::int64_t C,
                        const std::string& dtype) {
    if (R < 1 || C < 1 || R * C > (std::int64_t{1} << 22))
        throw InputError("fractal tile must be non-empty and at most 2^22 cells");
    FractalView v;
    v.kind = kind;
    v.rows = R;
    v.cols = C;
    v.element_bits = dtypeBits(dtype);
    v.c0 = kind == FractalKind::L0C ? 16 : 256 / v.element_bits;
    const std::int64_t C0 = 256 / v.element_bits;
    v.frac_rows = 16;
    v.frac_cols = kind == FractalKind::L0C ? 16 : C0;
    const char* builder = kind == FractalKind::zN   ? "make_zn_layout"
                          : kind == FractalKind::nZ ? "make_nz_layout"
                          : kind == FractalKind::zZ ? "make_zz_layout"
                                                    : "make_l0c_layout";
    switch (kind) {
    case FractalKind::zN:
        v.per_band = roundUp(R, 16) / 16, v.bands = roundUp(C, C0) / C0;
        break;
    case FractalKind::nZ:
        v.per_band = roundUp(C, 16) / 16, v.bands = roundUp(R, C0) / C0;
        break;
    case FractalKind::zZ:
        v.per_band = roundUp(C, C0) / C0, v.bands = roundUp(R, 16) / 16;
        break;
    case FractalKind::L0C:
        v.per_band = roundUp(R, 16) / 16, v.bands = roundUp(C, 16) / 16;
        break;
    }
    v.fractals = v.per_band * v.bands;
    v.footprint_elements = v.fractals * v.frac_rows * v.frac_cols;
    Mapping m = parseMapping(std::string(builder) + "((" + std::to_string(R) + ", " +
                             std::to_string(C) + "), \"" + dtype + "\")");
    LayoutTable t = std::get<Layout>(m).evaluate();
    v.offset = t.out;
    v.phys_rows = v.bands * v.frac_rows;
    v.phys_cols = v.per_band * v.frac_cols;
    v.phys_cell.assign(std::size_t(v.phys_rows * v.phys_cols), -1);
    for (std::int64_t cell = 0; cell < R * C; ++cell) {
        const std::int64_t off = v.offset[std::size_t(cell)];
        if (off < 0 || off >= v.footprint_elements)
            throw InputError("internal: fractal offset " + std::to_string(off) +
                             " outside the footprint");
        auto [pr, pc] = v.physPos(off);
        v.phys_cell[std::size_t(pr * v.phys_cols + pc)] = cell;
    }
    return v;
}

} // namespace ts
