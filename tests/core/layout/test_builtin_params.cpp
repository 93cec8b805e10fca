// SPDX-License-Identifier: Apache-2.0
// Every parameter TileLang honours changes what Tilescope computes, and what TileLang rejects
// Tilescope rejects with a sentence naming the cause. The cell-by-cell agreement is in the
// builtin_params goldens; these tests pin the behaviour and the messages.
#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

namespace {

ts::FragmentTable frag(const std::string& s) {
    return std::get<ts::Fragment>(ts::parseMapping(s)).evaluate();
}

ts::LayoutTable lay(const std::string& s) {
    return std::get<ts::Layout>(ts::parseMapping(s)).evaluate();
}

std::string errorOf(const std::string& s) {
    try {
        ts::parseMapping(s);
    } catch (const ts::ParseError& e) {
        return e.message();
    }
    return "";
}

TEST(BuiltinParams, Float64AccumulatorUsesTheM8n8SlotOrder) {
    // Same threads as float32, different register slots: T.gemm's m8n8k4 atom has two.
    auto f32 = frag("make_gemm_c_fragment((32, 32), 128)");
    auto f64 = frag("make_gemm_c_fragment((32, 32), 128, accum_dtype=\"float64\")");
    EXPECT_EQ(f32.threads, f64.threads);
    EXPECT_NE(f32.local, f64.local);
    // The float64 default operand is float64; spelling it out gives the same table.
    auto spelled =
        frag("make_gemm_c_fragment((32, 32), 128, accum_dtype=\"float64\", dtype=\"float64\")");
    EXPECT_EQ(f64.local, spelled.local);
    EXPECT_NE(errorOf("make_gemm_c_fragment((32, 32), 128, accum_dtype=\"float64\", "
                      "dtype=\"float16\")")
                  .find("needs 64-bit operands"),
              std::string::npos);
}

TEST(BuiltinParams, PolicyChoosesTheWarpPartitionAsTheCxxGemmDoes) {
    // 96 threads on 48x32: only 3 warps on M tile it, so FullCol falls back to that too.
    auto sq = frag("make_gemm_c_fragment((48, 32), 96)");
    auto col3 = frag("make_gemm_c_fragment((48, 32), 96, policy=\"FullCol\")");
    EXPECT_EQ(sq.threads, col3.threads);
    EXPECT_EQ(sq.threadExtent, 96);
    EXPECT_NE(errorOf("make_gemm_c_fragment((32, 32), 96)").find("no warp partition"),
              std::string::npos);
    // TileLang's own spelling of the policy.
    auto col = frag("make_gemm_c_fragment((32, 64), 128, policy=T.GemmWarpPolicy.FullCol)");
    auto colText = frag("make_gemm_c_fragment((32, 64), 128, policy=\"FullCol\")");
    EXPECT_EQ(col.threads, colText.threads);
    EXPECT_NE(col.threads, frag("make_gemm_c_fragment((32, 64), 128)").threads);
    EXPECT_NE(
        errorOf("make_gemm_c_fragment((32, 32), 128, policy=\"Diagonal\")").find("policy must be"),
        std::string::npos);
}

TEST(BuiltinParams, MfmaAccumulatorIsTheTransposeOfTheRawAtom) {
    auto atom = frag("make_mfma_c_atom()");
    auto gemm = frag("make_mfma_c_fragment((16, 16), 64)");
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            EXPECT_EQ(gemm.threads[i * 16 + j], atom.threads[j * 16 + i]) << i << "," << j;
            EXPECT_EQ(gemm.local[i * 16 + j], atom.local[j * 16 + i]) << i << "," << j;
        }
    EXPECT_NE(
        errorOf("make_mfma_c_fragment((16, 16), 128, policy=\"FullRow\")").find("division by zero"),
        std::string::npos);
    EXPECT_NE(errorOf("make_mfma_c_fragment((32, 32), 64, accum_dtype=\"bfloat16\")")
                  .find("accumulates in"),
              std::string::npos);
    EXPECT_NE(errorOf("make_mfma_c_fragment()").find("missing argument 'shape'"),
              std::string::npos);
}

TEST(BuiltinParams, WgmmaAccumulatorOnlyWhereTGemmIssuesWgmma) {
    // 4 warps on 64x64: mma.sync splits 2x2, WGMMA puts the warpgroup along M.
    auto mma = frag("make_gemm_c_fragment((64, 64), 128)");
    auto wg = frag("make_wgmma_c_fragment((64, 64), 128)");
    EXPECT_NE(mma.threads, wg.threads);
    EXPECT_EQ(wg.threads[16 * 64], 32); // row 16 is the second warp of the warpgroup
    EXPECT_NE(errorOf("make_wgmma_c_fragment((32, 64), 128)").find("M >= 64"), std::string::npos);
    EXPECT_NE(errorOf("make_wgmma_c_fragment((64, 32), 96)").find("multiple of 128 threads"),
              std::string::npos);
    // K decides too: fp16 WGMMA needs K % 16 == 0, else T.gemm issues mma.sync.
    EXPECT_NO_THROW(ts::parseMapping("make_wgmma_c_fragment((64, 32), 128, chunk=32)"));
    EXPECT_NE(errorOf("make_wgmma_c_fragment((64, 32), 128, chunk=8)").find("multiple of 16"),
              std::string::npos);
    EXPECT_NE(errorOf("make_gemm_c_fragment((64, 32), 128, chunk=24)").find("not a multiple"),
              std::string::npos);
    EXPECT_NE(errorOf("make_mfma_c_fragment((32, 32), 64, chunk=8)").find("not a multiple"),
              std::string::npos);
    EXPECT_NE(errorOf("make_wgmma_c_fragment((64, 32), 128, dtype=\"float32\")")
                  .find("does not issue WGMMA"),
              std::string::npos);
}

TEST(BuiltinParams, OperandChunksThatTGemmAcceptsAndRejects) {
    // A K chunk smaller than one instruction uses the smaller mma (fp16 k8).
    auto a8 = frag("make_mma_load_layout((32, 32), 8, \"float16\", \"A\")");
    EXPECT_EQ(a8.inputShape, (ts::Shape{32, 8}));
    EXPECT_NE(
        errorOf("make_mma_load_layout((32, 32), 24, \"float16\")").find("not a multiple of the 16"),
        std::string::npos);
    // ...but for B that k8 slice of the atom leaves holes in the register slots.
    EXPECT_NE(
        errorOf("make_mma_load_layout((32, 32), 8, \"float16\", \"B\")").find("not one-to-one"),
        std::string::npos);
    EXPECT_NE(errorOf("make_mma_load_layout((32, 32), 16, \"float64\")").find("64-bit"),
              std::string::npos);
}

TEST(BuiltinParams, ContinuitySelectsTheFloat64WgmmaSwizzle) {
    auto byShape = lay("make_wgmma_swizzled_layout((16, 8), \"float64\")");
    auto cont16 = lay("make_wgmma_swizzled_layout((16, 8), \"float64\", continuity=16)");
    auto none = lay("make_wgmma_swizzled_layout((16, 8), \"float64\", continuity=None)");
    EXPECT_NE(byShape.out, cont16.out);
    EXPECT_EQ(byShape.out, none.out);
    // Other types ignore it, as in TileLang.
    EXPECT_EQ(lay("make_wgmma_swizzled_layout((8, 64), \"float16\")").out,
              lay("make_wgmma_swizzled_layout((8, 64), \"float16\", continuity=16)").out);
    EXPECT_NE(errorOf("make_tcgen05mma_swizzled_layout((16, 16), \"float64\")").find("float64"),
              std::string::npos);
}

TEST(BuiltinParams, KAlignChecksTheKExtentOnly) {
    EXPECT_EQ(lay("make_ascend_major_k_layout((32, 32), \"float16\", k_align=32)").out,
              lay("make_ascend_major_k_layout((32, 32), \"float16\")").out);
    EXPECT_NE(errorOf("make_ascend_major_k_layout((32, 48), \"float16\", k_align=32)")
                  .find("divisible by k_align = 32"),
              std::string::npos);
    // MajorMN's K is the row axis.
    EXPECT_NO_THROW(ts::parseMapping("make_ascend_major_mn_layout((32, 48), \"float16\", 32)"));
    EXPECT_NE(errorOf("make_ascend_major_mn_layout((48, 32), \"float16\", 32)").find("k_align"),
              std::string::npos);
    EXPECT_NE(errorOf("make_ascend_sf_layout((32, 32), \"float32\")").find("divides 16"),
              std::string::npos);
}

TEST(BuiltinParams, FragmentExpandDropsTheThreadMapAsTileLangDoes) {
    ts::Mapping m = ts::parseMapping("make_gemm_fragment_8x8().expand([2])");
    ASSERT_TRUE(std::holds_alternative<ts::Layout>(m));
    EXPECT_EQ(std::get<ts::Layout>(m).inputShape(), (ts::Shape{2, 8, 8}));
    EXPECT_TRUE(std::holds_alternative<ts::Fragment>(
        ts::parseMapping("make_gemm_fragment_8x8().expand([])")));
    EXPECT_NE(errorOf("make_gemm_fragment_8x8().expand([0])").find("positive"), std::string::npos);
}

TEST(BuiltinParams, ReshapeAndItsElementWidthRescale) {
    auto t = lay("T.Layout([8, 8], lambda i, j: (j, i)).reshape([64])");
    EXPECT_EQ(t.outputShape, (ts::Shape{8, 8}));
    // Narrowing by 2: the last output doubles and the half-element goes into it.
    auto n = lay("T.Layout([8, 8], lambda i, j: (j, i)).reshape([8, 16], 2, 1)");
    EXPECT_EQ(n.outputShape, (ts::Shape{8, 16}));
    EXPECT_NE(
        errorOf("T.Layout([8, 8], lambda i, j: (j, i)).reshape([8, 9])").find("cannot become"),
        std::string::npos);
    EXPECT_NE(errorOf("T.Layout([8, 8], lambda i, j: (j, i)).reshape([4, 8], 1, 2)")
                  .find("interleaves storage"),
              std::string::npos);
    auto f = frag("make_gemm_fragment_8x8().reshape([4, 8], 1, 2)");
    EXPECT_EQ(f.localShape, (ts::Shape{1}));
}

TEST(BuiltinParams, KnownButUnmodelledTileLangFunctionsSaySo) {
    EXPECT_NE(errorOf("make_cutlass_metadata_layout((32, 32), \"float16\")")
                  .find("not supported by Tilescope"),
              std::string::npos);
    EXPECT_NE(errorOf("T.make_strided_slice(1, 2, 3)").find("not supported by Tilescope"),
              std::string::npos);
}

} // namespace

namespace {

// make_mfma_load_base_layout is the operand base T.gemm lowers on gfx942 (the MFMA emitter's
// base fragment): 16 x k_dim on 64 lanes, k_dim = the type's micro K times k_pack (1 or 2).
// The plot_layout example's formula (16 x 16 on 32 lanes for float16 with k_dim 32) is not what
// any TileLang kernel lowers; tests/data/goldens/mfma_base.json.gz checks every reachable k_dim.
TEST(BuiltinParams, MfmaOperandBaseIsWhatTGemmLowersOnGfx942) {
    auto f16k32 = frag(R"(make_mfma_load_base_layout(dtype="float16", matrix="A", k_dim=32))");
    EXPECT_EQ(f16k32.inputShape, (ts::Shape{16, 32}));
    EXPECT_EQ(f16k32.threadExtent, 64);
    EXPECT_EQ(f16k32.localShape, (ts::Shape{8}));
    auto i8k64 = frag(R"(make_mfma_load_base_layout(dtype="int8", matrix="B", k_dim=64))");
    EXPECT_EQ(i8k64.inputShape, (ts::Shape{64, 16}));
    EXPECT_EQ(i8k64.threadExtent, 64);
    // The k_dim T.gemm cannot reach with k_pack 1 or 2, and float32 with k_pack 2 (TileLang's
    // emitter has no 8-wide layout), are refused with the reason.
    EXPECT_NE(errorOf(R"(make_mfma_load_base_layout(dtype="float16", matrix="A", k_dim=64))")
                  .find("16 (k_pack=1) or 32 (k_pack=2)"),
              std::string::npos);
    EXPECT_NE(errorOf(R"(make_mfma_load_base_layout(dtype="int8", matrix="A", k_dim=16))")
                  .find("32 (k_pack=1) or 64 (k_pack=2)"),
              std::string::npos);
    EXPECT_NE(errorOf(R"(make_mfma_load_base_layout(dtype="float32", matrix="A", k_dim=8))")
                  .find("k_dim must be 4 or 16 or 32 or 64"),
              std::string::npos);
}

} // namespace

namespace {

// make_mfma_load_layout takes T.gemm's k_pack (ROCm): with 2, the base is twice as wide in K
// (float16: 16 x 32 per wavefront tile, 8 registers), as the emitter repeats it.
TEST(BuiltinParams, MfmaLoadLayoutTakesKPack) {
    auto one = frag(R"(make_mfma_load_layout((32, 32), 64, "float16", "A", 256))");
    auto two = frag(R"(make_mfma_load_layout((32, 32), 64, "float16", "A", 256, k_pack=2))");
    EXPECT_EQ(one.inputShape, two.inputShape);
    EXPECT_EQ(one.localShape, two.localShape); // 16 registers either way, other slots
    EXPECT_NE(one.local, two.local);
    EXPECT_NE(errorOf(R"(make_mfma_load_layout((32, 32), 64, "float16", "A", 256, k_pack=3))")
                  .find("k_pack is 1 or 2"),
              std::string::npos);
    EXPECT_NE(errorOf(R"(make_mfma_load_layout((32, 32), 16, "float32", "A", 256, k_pack=2))")
                  .find("k_dim must be 4 or 16 or 32 or 64"),
              std::string::npos);
}

} // namespace
