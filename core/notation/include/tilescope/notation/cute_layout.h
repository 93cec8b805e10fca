// SPDX-License-Identifier: Apache-2.0
// CuTe layouts as CuTe prints them, and their reading as Tilescope layouts and fragments.
//
// Text forms read: `((2,4),8):((1,16),2)` (static integers may carry CuTe's `_`, spaces as pycute
// prints them are fine), basis strides `8@0` (TileLang's CuTe bridge prints them), swizzles
// composed with a layout `Sw<3,3,3> o 0 o (8,64):(64,1)` / `Swizzle<3,3,3> o ...` / pycute's
// `SW_3_3_3 o 0 o ...`, and thread-value layouts labelled as CuTe prints a TiledCopy
// (`Tiler_MN: (16,8)  TiledLayout_TV: ...`) or an MMA_Atom (`Shape_MNK: (16,8,16)
// LayoutC_TV: ...`). interop.h states how each is read.
#pragma once

#include "tilescope/layout/layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::cute {

// A CuTe IntTuple: a leaf (value; for strides optionally a basis mode `value@mode`) or a tuple.
struct IntTuple {
    bool leaf = true;
    std::int64_t value = 0;
    int basis = -1; // stride leaves only: `value@basis`; -1 for an integer stride
    // A nested basis `value@i@j` (CuTe's E<j,i>): basis j, inner {i}; outermost first.
    std::vector<int> inner;
    std::vector<IntTuple> children;
    std::size_t column = 0; // 1-based column of its first character
};

struct Layout {
    IntTuple shape, stride;
};

struct Swizzle {
    int bits = 0, base = 0, shift = 0; // Swizzle<B, M, S>
};

// `swizzle o offset o layout` (CuTe's ComposedLayout as it prints), or just a layout.
struct Composed {
    std::optional<Swizzle> swizzle;
    std::int64_t offset = 0;
    // CuTe C++'s `smem_ptr[16b](unset)` in place of the offset (the GMMA shared-memory atoms):
    // the swizzle acts on the byte address of an element of this many bits, so the element
    // offset is Sw(offset * bytes) / bytes. 0 for a plain integer offset.
    int elementBits = 0;
    Layout layout;
};

// The flattened modes of one top-level mode, leftmost (fastest) first.
struct Mode {
    std::int64_t size = 1, stride = 0;
    int basis = -1;
    std::vector<int> inner;
    std::size_t column = 0;
};

Composed parseComposed(std::string_view text);
std::vector<Mode> flattenModes(const IntTuple& shape, const IntTuple& stride);
std::int64_t size(const IntTuple& shape);

// CuTe's Swizzle<B,M,S>(x) = x ^ ((x & yyy) >> S), yyy = ((1<<B)-1) << (M + max(0,S)).
Expr swizzleExpr(const Expr& x, const Swizzle& s);
std::int64_t applySwizzle(std::int64_t x, const Swizzle& s);
void checkSwizzle(const Swizzle& s, std::string_view text, std::size_t column);

// The grid reading (top-level modes are axes). Throws InputError on overflow or mixed strides.
ts::Layout toLayout(const Composed& c);
// The fragment of a TV layout over an M x N tile (see interop.h). Throws InputError when the TV
// layout is not a bijection from (non-broadcast thread, value) onto the tile.
ts::Fragment tvToFragment(const Layout& tv, std::int64_t m, std::int64_t n);
// An MMA atom's TV layouts number its threads logically (0 .. size(ThrID) - 1); its `ThrID`
// layout maps a logical thread to the lane that runs it (SM70's quadpair: threads 4..7 are lanes
// 16..19). Returns the fragment with each thread replaced by its lane, unchanged for an identity
// ThrID. Throws InputError when ThrID does not cover the TV layout's threads exactly.
ts::Fragment applyThrID(const ts::Fragment& f, const Layout& thrId, std::int64_t threads);
// The number of (logical) threads of a TV layout: the size of its first mode.
std::int64_t tvThreads(const Layout& tv);
// A TiledMMA (CuTe's print: ThrLayoutVMNK, PermutationMNK (_,_,_), then its MMA_Atom): the atom's
// fragment `atom` (logical threads, over one atom's rows x cols) tiled over the atoms of
// ThrLayoutVMNK, whose V mode puts each logical thread on its lane and whose other modes add
// each atom's thread offset. `rowMode` and `colMode` are the VMNK modes (1 M, 2 N, 3 K) of the
// operand's rows and columns (C: M, N; A: M, K; B: N, K); the remaining one of M, N, K holds
// copies of the operand (A is shared by the atoms along N): replicas. Throws InputError when
// ThrLayoutVMNK is not four modes or its V mode is not the atom's threads.
// `rows` x `cols` is the TiledMMA's tile along the operand's modes (0: the atoms' own); a
// PermutationMNK wider than the atoms repeats them over it, each repeat in further registers
// (`atomValues` per repeat, the atom TV layout's value count).
ts::Fragment tileMma(const ts::Fragment& atom, const Layout& vmnk, int rowMode, int colMode,
                     std::int64_t atomThreads, std::int64_t rows = 0, std::int64_t cols = 0,
                     std::int64_t atomValues = 1);

std::string print(const IntTuple& t);
std::string print(const Layout& l);
std::string print(const Swizzle& s);

} // namespace ts::cute
