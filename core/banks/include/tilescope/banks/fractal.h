// SPDX-License-Identifier: Apache-2.0
// Ascend fractal arrangements (tilelang-layouts.md 2.4): a logical R x C tile next to its zN /
// nZ / zZ / L0C storage, with C0 = 32 bytes / element size (L0C: 16 x 16 for every dtype).
// Offsets come from the builtins make_zn_layout / make_nz_layout / make_zz_layout /
// make_l0c_layout. The physical view draws storage as fractals of 16 rows x W elements
// (W = C0; 16 for L0C): fractal f of the storage order sits in band f / per_band (16 rows
// each), position f % per_band, so one band is one C0 column block (zN), one C0 row block
// (nZ), one 16-row block (zZ) or one 16-column block (L0C). Cells no logical element maps to are
// out-of-bounds padding (copy_gm_to_l1 zeroes them only for a partial copy, and only up to the
// buffer's rows x cols elements: nz_splice.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

enum class FractalKind { zN, nZ, zZ, L0C };
// Two spellings are in use. CATLASS writes the small-fractal order first: zN, nZ, zZ, L0C.
// tilelang-ascend users write uppercase with the large (fractal-grid) order first, so their "NZ"
// is CATLASS zN (what ND2NZ produces in L1) and their "ZN" is CATLASS nZ. Accepted: the CATLASS
// names as written, the uppercase tilelang-ascend names, "zz"/"ZZ" and "l0c"/"L0C" (the same in
// both), and a label "zN (NZ)" by its first word. All-lower or mixed spellings of zN/nZ that are
// neither ("zn", "nz", "Zn", "Nz") are rejected as ambiguous, naming both readings.
FractalKind parseFractalKind(const std::string& s);
std::string fractalKindName(FractalKind k);       // CATLASS: "zN", "nZ", "zZ", "L0C"
std::string fractalKindAscendName(FractalKind k); // tilelang-ascend: "NZ", "ZN", "ZZ", "L0C"
std::string fractalKindLabel(FractalKind k);      // both: "zN (NZ)", ..., "L0C"

// Python that gives a tilelang-ascend (ascendc_pto) buffer this arrangement: the library's
// make_zn_layout(buf) / make_nz_layout(buf) for zN / nZ, a T.Layout with layout_tag 3 for zZ
// (tilelang-ascend has no zZ builder), and for L0C a note that T.alloc_L0C buffers get it from
// codegen, with the untagged T.Layout for reference.
std::string ascendFractalCode(FractalKind k, std::int64_t rows, std::int64_t cols,
                              const std::string& dtype);

struct FractalView {
    FractalKind kind = FractalKind::zN;
    std::int64_t rows = 0, cols = 0; // logical
    int element_bits = 16;
    std::int64_t c0 = 16;                        // elements per 32-byte fractal row
    std::int64_t frac_rows = 16, frac_cols = 16; // fractal shape in the physical view
    std::int64_t fractals = 0, per_band = 0, bands = 0;
    std::int64_t footprint_elements = 0;
    std::int64_t footprint_bytes() const { return footprint_elements * element_bits / 8; }
    std::int64_t padding_elements() const { return footprint_elements - rows * cols; }
    std::vector<std::int64_t> offset;          // [r * cols + c] physical element offset
    std::int64_t phys_rows = 0, phys_cols = 0; // physical view grid
    std::vector<std::int64_t> phys_cell; // [pr * phys_cols + pc] -> logical cell, -1 = padding
    // Physical-view position of a storage offset.
    std::pair<std::int64_t, std::int64_t> physPos(std::int64_t offset) const;
    // Logical fractal block (0-based) a logical cell belongs to, row-major over blocks.
    std::int64_t logicalBlock(std::int64_t r, std::int64_t c) const;
};

FractalView fractalView(FractalKind kind, std::int64_t rows, std::int64_t cols,
                        const std::string& dtype);

} // namespace ts
