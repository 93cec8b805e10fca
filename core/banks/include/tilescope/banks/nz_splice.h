// SPDX-License-Identifier: Apache-2.0
// Several GM -> L1 DMAs into one zN ("NZ" in tilelang-ascend's naming) tile: what L1 holds after
// the copies, next to the tile one full copy produces.
//
// The facts this models, from tilelang-ascend's released branch (ascendc_pto @ 95acbd7, the
// PyPI 0.1.4 code) and CATLASS:
// - codegen lowers T.copy(src, l1[r0:r0+h, c0:c0+w]) to
//   copy_gm_to_l1<T, dstM, dstN>(l1[off], src, srcN, h, w, need_clear) with dstM x dstN the
//   whole L1 buffer, off = the zN offset of (r0, c0) in that buffer, and
//   need_clear = (off == 0) (src/op/ascend.cc, src/target/codegen_ascend.cc:2450-2458);
// - copy_gm_to_l1 zero-fills dstM * dstN * sizeof(T) bytes from its destination with
//   InitConstValue, when need_clear is set and the copy is partial (h != dstM or w != dstN),
//   then issues one Nd2Nz DMA (src/tl_templates/ascend/common.h:55-86);
// - that DMA (CATLASS TileCopyTla GM RowMajor -> L1 zN, gemm/tile/atlasa2/copy_gm_to_l1.hpp)
//   writes source element (i, j) at off + (j / C0) * S * C0 + i * C0 + j % C0, with
//   S = dstNzC0Stride = the zN column-block stride of the layout it is given / C0.
// With S = the buffer's rows rounded up to 16 (what the codegen passes) and a clear only at
// offset 0 (tilelang-ascend PR #1243), a splice reproduces the single-copy tile exactly. The
// other settings show the failures users reported (tilelang-ascend issue #1155): a clear on every
// partial copy (the code before #1243) wipes the copies already made and runs past the tile; a
// DMA whose C0 stride is the copy's own rows (an Nd2Nz written for the slice, not the buffer)
// interleaves each copy's column blocks over its own rows, so its later column blocks land on
// rows that belong to the next copy.
//
// Not modelled: what a DMA writes into the unused part of a 32-byte row when the copy's width is
// not a multiple of C0 (the sources read do not say); those cells count as not written.
#pragma once

#include "tilescope/banks/fractal.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

// The C0 column-block stride the DMA is given (Nd2NzParams.dstNzC0Stride).
enum class NzC0Stride {
    Tile, // the whole buffer's rows rounded up to 16: tilelang-ascend codegen, CATLASS
    Copy, // the copy's own rows rounded up to 16: the interleaving issue #1155 describes
};
// Which copies zero-fill the tile before writing.
enum class NzClear {
    OffsetZero,       // need_clear = (dst offset == 0), partial copies only (released, PR #1243)
    EveryPartialCopy, // every partial copy, from its own offset (tilelang-ascend before #1243)
};
std::string nzC0StrideName(NzC0Stride s); // "tile" / "copy"
std::string nzClearName(NzClear c);       // "offset0" / "every"
NzC0Stride parseNzC0Stride(const std::string& s);
NzClear parseNzClear(const std::string& s);

// The part of the tile one T.copy fills (the GM source holds the same logical cells).
struct NzCopy {
    std::int64_t row0 = 0, rows = 0, col0 = 0, cols = 0;
};
// "0:64, 64:128" (row ranges, full width) or "0:64 x 0:32" (rows x cols), comma or newline
// separated, half-open like Python slices; throws InputError naming the bad part.
std::vector<NzCopy> parseNzCopies(const std::string& text, std::int64_t rows, std::int64_t cols);

struct NzSpliceOptions {
    std::int64_t rows = 128, cols = 128; // the L1 buffer (dstM x dstN)
    std::string dtype = "float16";
    std::vector<NzCopy> copies;
    NzC0Stride stride = NzC0Stride::Tile;
    NzClear clear = NzClear::OffsetZero;
};

struct NzCopyStep {
    std::int64_t offset = 0;    // destination offset codegen passes (zN offset of row0, col0)
    bool clears = false;        // zero-fills before its DMA
    std::int64_t cleared = 0;   // elements the clear zeroes, from `offset`
    std::int64_t c0_stride = 0; // dstNzC0Stride in 32-byte rows
};

struct NzSplicePreview {
    static constexpr std::int64_t kZero = -1;  // zeroed by a clear, never written after
    static constexpr std::int64_t kStale = -2; // neither cleared nor written: old L1 contents
    FractalView tile;                          // the zN tile (storage order, physical view)
    std::vector<NzCopyStep> steps;
    // [storage offset, 0..footprint) -> logical cell r * cols + c held there, or kZero / kStale.
    std::vector<std::int64_t> content;
    // The same after one T.copy of the whole tile (need_clear true, but the copy is not partial:
    // no clear, so padding stays stale exactly as copy_gm_to_l1 leaves it).
    std::vector<std::int64_t> single;
    // [logical cell] -> storage offset where it ended up, or -1 when it was overwritten, cleared
    // or written past the tile.
    std::vector<std::int64_t> where;
    // Compared with what the splice means: every covered cell holds its element at its zN
    // offset, every other cell of the footprint (padding, rows no copy covers) is zero.
    std::int64_t misplaced = 0;    // covered logical cells not at their zN offset (incl. lost)
    std::int64_t lost = 0;         // logical cells no longer anywhere in the tile
    std::int64_t nonzero_fill = 0; // padding or uncovered cells not zero (stale or data)
    std::int64_t single_nonzero_fill = 0; // the same for the single full copy
    std::int64_t written_past_tile = 0;   // DMA elements written beyond the footprint
    std::int64_t cleared_past_tile = 0;   // elements zeroed beyond the footprint
    std::int64_t uncovered = 0;           // logical cells no copy covers
    bool correct() const {
        return misplaced == 0 && nonzero_fill == 0 && written_past_tile == 0 &&
               cleared_past_tile == 0;
    }
    std::string summary() const;
};

NzSplicePreview previewNzSplice(const NzSpliceOptions& opt);

} // namespace ts
