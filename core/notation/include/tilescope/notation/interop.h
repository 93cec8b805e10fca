// SPDX-License-Identifier: Apache-2.0
// Layouts written in other layout languages: CuTe (CUTLASS) and Triton linear layouts, read into
// Tilescope's Layout/Fragment and written back where that is exact.
//
// Reading conventions (the README's "Other layout languages" section says the same):
// - A CuTe layout `S:D` is a grid with one axis per top-level mode of S; the coordinate along an
//   axis is the mode's 1-D coordinate, split into the mode's sub-coordinates colexicographically
//   (leftmost fastest), as CuTe's print_layout draws it. Integer strides give one output (the
//   offset); basis strides `d@k` give output k. `Sw<B,M,S> o off o L` applies the swizzle to
//   off + L(c).
// - A CuTe thread-value layout (TV layout, (thread, value) -> index in an MxN tile, the index
//   being m + M*n as CuTe numbers a tile) is read with its tile (`Tiler_MN:` of a TiledCopy print,
//   `Shape_MNK:` of an MMA_Atom print) into the Fragment whose cell (m, n) is held by thread t in
//   register v exactly when the TV layout maps (t, v) to that cell. That is the TV layout's
//   inverse; thread modes with stride 0 (the same element in several threads) become replicas.
// - A Triton LinearLayout is linear over F2: the image of an input is the XOR of the bases of its
//   set bits. Inputs (register, lane, warp) are read as a Fragment over the output dims
//   (dim0, dim1, ...): thread = lane + lanes * warp, local = register. Inputs (offset) are a
//   shared-memory layout, read as the Layout (dim0, ...) -> offset, i.e. its inverse.
#pragma once

#include "tilescope/layout/layout.h"

#include <optional>
#include <string>
#include <string_view>

namespace ts {

enum class Notation { TileLang, CuTeLayout, CuTeTV, TritonLinear };

// Which notation `text` is written in, judged by its first tokens only (no full parse): CuTe
// text starts with a tuple, an integer or a swizzle, or carries CuTe's print labels; Triton text
// is a Gluon layout constructor, a `#ttg.linear` attribute or LinearLayout::toString() output.
// Everything else is the mapping language.
Notation recognizeNotation(std::string_view text);
// A short name for the editor and the CLI, e.g. "CuTe layout".
std::string notationName(Notation n);

// Parsers for the foreign notations; they throw ParseError (with a column) for malformed text and
// InputError for well-formed text that is no layout (overflow, wrong arity, not invertible).
Mapping parseCuTe(std::string_view text);
Mapping parseTriton(std::string_view text);
// The dispatcher parseMapping uses: nullopt for mapping-language text.
std::optional<Mapping> parseForeignNotation(std::string_view text);

// Conversions. `text` is exact (it parses back to the same cells); `note` says anything the
// reader should know (e.g. an output flattened row-major). Throws InputError with the reason
// when the mapping is not exactly expressible in the target.
struct Conversion {
    std::string text;
    std::string note;
};
Conversion toCuTe(const Mapping& m);
Conversion toTritonLinear(const Mapping& m);

} // namespace ts
