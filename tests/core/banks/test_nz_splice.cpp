// SPDX-License-Identifier: Apache-2.0
// Several GM -> L1 DMAs into one zN tile, checked against what tilelang-ascend states:
// - PR #1243 (merged; released branch ascendc_pto @ 95acbd7): a 128 x 128 bfloat16 tile filled
//   by two 64-row copies; codegen passes the second copy the zN offset 64 * C0 = 1024 and the
//   whole-buffer C0 stride (template <128, 128> -> dstNzC0Stride 128); before the fix that copy
//   also zero-filled "16384 elements starting at offset 1024", clobbering the first copy;
// - its NPU tests (testing/python/language/test_tilelang_ascend_language_gm_to_l1.py): splits
//   1, 64, 127 and a 3-way splice leaving rows uncovered all equal the single-copy GEMM, the
//   uncovered rows reading as zero from the first copy's clear;
// - issue #1155: a DMA that interleaves over the copy's own rows puts the first copy's later
//   column blocks on rows of the second copy.
#include "tilescope/banks/nz_splice.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

namespace {

ts::NzSplicePreview splice(std::int64_t R, std::int64_t C, const std::string& dtype,
                           const std::string& copies, ts::NzC0Stride s = ts::NzC0Stride::Tile,
                           ts::NzClear c = ts::NzClear::OffsetZero) {
    ts::NzSpliceOptions o;
    o.rows = R, o.cols = C, o.dtype = dtype, o.stride = s, o.clear = c;
    o.copies = ts::parseNzCopies(copies, R, C);
    return ts::previewNzSplice(o);
}

} // namespace

TEST(NzSplice, ReleasedTwoWaySpliceEqualsTheSingleCopyTile) {
    const auto p = splice(128, 128, "bfloat16", "0:64, 64:128");
    ASSERT_EQ(p.steps.size(), 2u);
    EXPECT_EQ(p.steps[0].offset, 0);
    EXPECT_TRUE(p.steps[0].clears);
    EXPECT_EQ(p.steps[0].cleared, 16384);
    EXPECT_EQ(p.steps[1].offset, 1024); // 64 * C0, PR #1243
    EXPECT_FALSE(p.steps[1].clears);
    EXPECT_EQ(p.steps[1].c0_stride, 128);
    EXPECT_TRUE(p.correct()) << p.summary();
    for (std::int64_t cell = 0; cell < 128 * 128; ++cell)
        ASSERT_EQ(p.where[std::size_t(cell)], p.tile.offset[std::size_t(cell)]) << cell;
    EXPECT_EQ(p.content, p.single);
}

TEST(NzSplice, UnalignedSplitsAndColumnSplitsToo) {
    const struct {
        const char* cuts;
        std::vector<std::int64_t> offsets; // row0 * C0 for each copy
    } cases[] = {{"0:1, 1:128", {0, 16}},
                 {"0:127, 127:128", {0, 127 * 16}},
                 {"0:16,16:32,32:128", {0, 256, 512}}};
    for (const auto& c : cases) {
        const auto p = splice(128, 128, "float16", c.cuts);
        EXPECT_TRUE(p.correct()) << c.cuts << ": " << p.summary();
        ASSERT_EQ(p.steps.size(), c.offsets.size());
        for (std::size_t k = 0; k < c.offsets.size(); ++k) {
            EXPECT_EQ(p.steps[k].offset, c.offsets[k]) << c.cuts;
            EXPECT_EQ(p.steps[k].clears, k == 0) << c.cuts;
        }
    }
    // Left and right halves: the second copy starts at column block 4 of 128-row blocks.
    const auto cols = splice(128, 128, "float16", "0:128 x 0:64, 0:128 x 64:128");
    EXPECT_EQ(cols.steps[1].offset, 4 * 128 * 16);
    EXPECT_TRUE(cols.correct()) << cols.summary();
}

TEST(NzSplice, ThreeWaySpliceLeavesTheUncoveredRowsZero) {
    const auto p = splice(128, 128, "bfloat16", "0:48, 48:96, 96:120");
    EXPECT_EQ(p.uncovered, 8 * 128);
    EXPECT_TRUE(p.correct()) << p.summary();
    // Row 120..127 of every column block: zero from the first copy's clear.
    for (std::int64_t c = 0; c < 128; ++c)
        EXPECT_EQ(p.content[std::size_t(p.tile.offset[std::size_t(125 * 128 + c)])],
                  ts::NzSplicePreview::kZero);
}

TEST(NzSplice, ClearingOnEveryPartialCopyWipesTheFirstCopy) {
    const auto p = splice(128, 128, "bfloat16", "0:64, 64:128", ts::NzC0Stride::Tile,
                          ts::NzClear::EveryPartialCopy);
    EXPECT_TRUE(p.steps[1].clears);
    EXPECT_EQ(p.steps[1].cleared, 16384); // "16384 elements starting at offset 1024"
    EXPECT_EQ(p.cleared_past_tile, 1024); // 1024 + 16384 - 16384
    // Column block 0 of the first copy sits below offset 1024 and survives; blocks 1..7 of it
    // (64 rows x 16 columns each) are zeroed by the second copy's clear.
    EXPECT_EQ(p.lost, 7 * 64 * 16);
    EXPECT_EQ(p.where[0], 0);
    EXPECT_EQ(p.where[std::size_t(0 * 128 + 16)], -1);
    EXPECT_EQ(p.content[std::size_t(p.tile.offset[std::size_t(0 * 128 + 16)])],
              ts::NzSplicePreview::kZero);
    EXPECT_FALSE(p.correct());
}

TEST(NzSplice, InterleavingOverTheCopysRowsMisplacesColumnBlocks) {
    const auto p = splice(128, 128, "bfloat16", "0:64, 64:128", ts::NzC0Stride::Copy);
    EXPECT_EQ(p.steps[0].c0_stride, 64);
    // Copy 1, element (0, 16) (column block 1): written at 1 * 64 * 16 = 1024, the offset of
    // tile cell (64, 0), which copy 2 then overwrites with its own (64, 0).
    EXPECT_EQ(p.content[1024], 64 * 128 + 0);
    EXPECT_EQ(p.where[std::size_t(16)], -1);
    // Copy 2's (64, 16) (its column block 1) lands at 1024 + 64 * 16 = 2048: the tile's (0, 16).
    EXPECT_EQ(p.content[2048], 64 * 128 + 16);
    EXPECT_GT(p.misplaced, 0);
    EXPECT_FALSE(p.correct());
    // With one copy of the whole tile the two strides agree.
    const auto whole = splice(128, 128, "bfloat16", "0:128", ts::NzC0Stride::Copy);
    EXPECT_TRUE(whole.correct()) << whole.summary();
}

TEST(NzSplice, RaggedTileClearCoversOnlyTheLogicalSize) {
    // 100 x 60 float16: footprint 112 x 64 = 7168; the clear is 100 * 60 * 2 / 32 = 375 blocks
    // = 6000 elements, so the last 1168 footprint elements keep old contents.
    const auto p = splice(100, 60, "float16", "0:50, 50:100");
    EXPECT_EQ(p.steps[0].cleared, 6000);
    EXPECT_EQ(p.misplaced, 0);
    EXPECT_GT(p.nonzero_fill, 0);
    // A single full copy is not partial: no clear at all, every padding cell is old data.
    EXPECT_EQ(p.single_nonzero_fill, 7168 - 6000);
}

TEST(NzSplice, BadCopiesSayWhatAndWhere) {
    auto msg = [](const std::string& text) {
        try {
            ts::parseNzCopies(text, 128, 64);
        } catch (const ts::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(msg("0:64, 64:129").find("copy 2 rows '64:129' must satisfy"), std::string::npos);
    EXPECT_NE(msg("0:64 x 0:a").find("copy 1 cols"), std::string::npos);
    EXPECT_NE(msg("5").find("is not a range"), std::string::npos);
    EXPECT_NE(msg(" , ").find("no copies"), std::string::npos);
    const auto open = ts::parseNzCopies(":64, 64:", 128, 64);
    ASSERT_EQ(open.size(), 2u);
    EXPECT_EQ(open[1].row0, 64);
    EXPECT_EQ(open[1].rows, 64);
    EXPECT_EQ(open[1].cols, 64);
    EXPECT_THROW(ts::parseNzC0Stride("rows"), ts::InputError);
    EXPECT_THROW(ts::parseNzClear("always"), ts::InputError);
}
