// SPDX-License-Identifier: Apache-2.0
// Triton's LinearLayout: a map linear over F2 from named input dims (register, lane, warp, block,
// offset) to named output dims (dim0, dim1, ...). Input bit k of dim `in` maps to its basis
// bases[in][k] (one value per output dim); the image of any input is the XOR of the bases of
// its set bits. interop.h says how it becomes a Tilescope Layout or Fragment.
//
// Text forms read: LinearLayout::toString() (` - register=1 -> (0, 1)` ... `where out dims
// are: [dim0 (size 16), ...]`), Gluon's `DistributedLinearLayout(reg_bases=..., lane_bases=...,
// warp_bases=..., block_bases=..., shape=[...])` and `SharedLinearLayout(offset_bases=...,
// block_bases=..., alignment=...)`, TTGIR's `#ttg.linear<{register = [...], lane = [...], ...}>`,
// and `to_linear_layout(LAYOUT, SHAPE)` or `LAYOUT, SHAPE` of the Gluon layouts BlockedLayout,
// NVMMADistributedLayout (v2, v3), DotOperandLayout, SliceLayout, NVMMASharedLayout and
// SwizzledSharedLayout, converted as Triton converts them (triton_layouts.cpp); TTGIR types and
// attributes as Triton prints them (`tensor<64x16xf16, #ttg.blocked<{...}>>`, `!ttg.memdesc<...>`,
// with a dump's `#alias = ...` definitions; triton_mlir_text.cpp).
#pragma once

#include "tilescope/layout/layout.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ts::linear {

struct InDim {
    std::string name;
    std::vector<std::vector<std::int64_t>> bases; // bases[k] = image of 2^k, one per out dim
};

struct LinearLayout {
    std::vector<InDim> ins;
    std::vector<std::string> outNames;
    std::vector<std::int64_t> outSizes; // powers of two

    std::size_t outBits() const;
    // The image of input values (one per input dim), XOR of the selected bases.
    std::vector<std::int64_t> apply(const std::vector<std::int64_t>& in) const;
};

// Parses every text form above; ParseError with a column for malformed text, InputError for
// wrong arity, sizes that are not powers of two, coordinates outside the output.
LinearLayout parse(std::string_view text);
// The Tilescope reading (interop.h): a Fragment for register/lane/warp[/block] inputs, the
// inverse Layout for offset[/block] inputs, the forward Layout otherwise.
Mapping toMapping(const LinearLayout& l);
// Printed as Gluon constructs it (DistributedLinearLayout / SharedLinearLayout), or as
// LinearLayout::toString() for other input dims.
std::string print(const LinearLayout& l);

} // namespace ts::linear
