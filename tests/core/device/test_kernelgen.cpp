// SPDX-License-Identifier: Apache-2.0
#include "tilescope/device/cuda_compile.h"
#include "tilescope/device/kernelgen.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

using namespace ts;

namespace {

AccessPlan mixedPlan() {
    AccessPlan p;
    for (int bytes : {1, 2, 4, 8, 16}) {
        p.instructions.push_back(stridedInstruction(SharedOp::Load, bytes, 1));
        p.instructions.push_back(stridedInstruction(SharedOp::Store, bytes, 2));
    }
    Instruction partial = stridedInstruction(SharedOp::Load, 8, 3);
    for (auto& la : partial.lanes)
        la.active = la.lane % 3 != 0;
    p.instructions.push_back(partial);
    Instruction partial_st = stridedInstruction(SharedOp::Store, 16, 1);
    partial_st.lanes.resize(20);
    p.instructions.push_back(partial_st);
    std::vector<std::int64_t> rows;
    for (int t = 0; t < 32; ++t)
        rows.push_back((t % 16) * 128 + (t / 16) * 16);
    for (int m : {1, 2, 4}) {
        p.instructions.push_back(matrixInstruction(SharedOp::LdMatrix, m, m == 2, rows));
        p.instructions.push_back(matrixInstruction(SharedOp::StMatrix, m, m == 4, rows));
    }
    return p;
}

TileDesc swizzledTile() {
    // 16 x 64 fp16, 128B XOR swizzle on 16-byte chunks.
    TileDesc t;
    t.elem_bytes = 2;
    t.elements = 16 * 64;
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 64; ++c)
            t.phys_of_logical.push_back(r * 64 + ((c / 8) ^ (r % 8)) * 8 + c % 8);
    return t;
}

} // namespace

TEST(KernelGen, EmitsBothKernelsAndVolatileAccesses) {
    GeneratedKernel g = generateCudaKernel(mixedPlan(), swizzledTile(), {.suffix = "_t"});
    EXPECT_EQ(g.roundtrip_kernel, "ts_roundtrip_t");
    EXPECT_EQ(g.timed_kernel, "ts_timed_t");
    for (const char* needle :
         {"extern \"C\" __global__ void ts_roundtrip_t", "extern \"C\" __global__ void ts_timed_t",
          "ld.volatile.shared.v4.u32", "st.volatile.shared.v2.u32", "ld.volatile.shared.u8",
          "ldmatrix.sync.aligned.m8n8.x4.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.trans",
          "stmatrix.sync.aligned.m8n8.x4.trans", "clock64()", "__constant__ unsigned ts_addr_t",
          "@p ld.volatile"})
        EXPECT_NE(g.source.find(needle), std::string::npos) << needle;
    EXPECT_EQ(g.instructions, 18);
    EXPECT_EQ(g.unroll, 1);
    EXPECT_EQ(g.roundtrip_smem_bytes, 2048);
    EXPECT_EQ(g.logical_of_phys.size(), 1024u);
}

TEST(KernelGen, RejectsNonBijectionAndOversizedTiles) {
    AccessPlan p;
    p.instructions.push_back(stridedInstruction(SharedOp::Load, 4, 1));
    TileDesc t;
    t.elem_bytes = 4;
    t.elements = 4;
    t.phys_of_logical = {0, 1, 1, 3};
    try {
        generateCudaKernel(p, t);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not a bijection"), std::string::npos);
    }
    t.phys_of_logical = {0, 1, 2, 300000};
    EXPECT_THROW(generateCudaKernel(p, t), InputError);
    TileDesc id = identityTileFor(p, 4);
    EXPECT_EQ(id.elements, 32);
    EXPECT_NO_THROW(generateCudaKernel(p, id));
}

TEST(KernelGen, CompilesWithNvrtcForSm90) {
    std::string why;
    if (!nvrtcAvailable(&why)) GTEST_SKIP() << why;
    GeneratedKernel g = generateCudaKernel(mixedPlan(), swizzledTile(), {.suffix = "_nvrtc"});
    CompileResult r = compileWithNvrtc(g.source, "sm_90");
    EXPECT_TRUE(r.ok) << r.log << "\n" << g.source;
    EXPECT_GT(r.cubin.size(), 1000u);
    EXPECT_EQ(r.cubin.substr(1, 3), "ELF");
    // A compile error comes back as a log, not a crash.
    CompileResult bad = compileWithNvrtc("extern \"C\" __global__ void k() { nope; }", "sm_90");
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.log.find("nope"), std::string::npos) << bad.log;
}

TEST(KernelGen, CompilesWithNvccForSm90) {
    AccessPlan p;
    p.instructions.push_back(stridedInstruction(SharedOp::Load, 16, 2));
    p.instructions.push_back(stridedInstruction(SharedOp::Store, 4, 33));
    GeneratedKernel g = generateCudaKernel(p, identityTileFor(p, 16), {.suffix = "_nvcc"});
    CompileResult r = compileWithNvcc(g.source, "sm_90");
    if (r.compiler.empty()) GTEST_SKIP() << r.log;
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.cubin.substr(1, 3), "ELF");
    EXPECT_EQ(g.unroll, 4);
}
