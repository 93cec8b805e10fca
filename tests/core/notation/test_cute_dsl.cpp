// SPDX-License-Identifier: Apache-2.0
// CuTe DSL prints, CuTe C++'s GMMA shared-memory layouts, nested basis strides, strides past
// 2^31, and the CuTe prints Tilescope does not read (each refused by name, never "unexpected").
#include "golden_files.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

json cells(const std::string& text) {
    return ts::tableJson(ts::parseMapping(text)).at("cells");
}

std::string refusal(const std::string& text) {
    try {
        ts::tableJson(ts::parseMapping(text));
    } catch (const ts::ParseError& e) {
        return e.message();
    } catch (const std::exception& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted: " << text;
    return {};
}

void expectRefusedNaming(const std::string& text, const std::string& words) {
    const std::string m = refusal(text);
    EXPECT_NE(m.find(words), std::string::npos) << text << "\n -> " << m;
    EXPECT_EQ(m.find("unexpected"), std::string::npos) << text << "\n -> " << m;
}

const char* kDslMmaAtom = "MMA Atom\n"
                          "  ThrID:       32:1\n"
                          "  Shape MNK:   (16,8,16)\n"
                          "  TV Layout A: ((4,8),(2,2,2)):((32,1),(16,8,128))\n"
                          "  TV Layout B: ((4,8),(2,2)):((16,1),(8,64))\n"
                          "  TV Layout C: ((4,8),(2,2)):((32,1),(16,8))";

TEST(CuteDsl, SwizzlePrintIsCuTesSwizzle) {
    EXPECT_EQ(ts::recognizeNotation("S<3,4,3> o 0 o (8,64):(64,1)"), ts::Notation::CuTeLayout);
    EXPECT_EQ(cells("S<3,4,3> o 0 o (8,64):(64,1)"), cells("Sw<3,4,3> o 0 o (8,64):(64,1)"));
    // The DSL prints a negative shift without its `>`; CuTe DSL evaluates (1,0) to
    // S<3,4,-3>(8 + 64) = 72 ^ ((72 << 3) & (7 << 7)) = 584.
    json c = cells("S<3,4,-3 o 8 o (8,64):(64,1)");
    EXPECT_EQ(c[64]["in"], json({1, 0}));
    EXPECT_EQ(c[64]["out"], json({584}));
    EXPECT_EQ(c, cells("Sw<3,4,-3> o 8 o (8,64):(64,1)"));
}

TEST(CuteDsl, MmaAtomPrintIsTheSameAsCuTeCxx) {
    EXPECT_EQ(ts::recognizeNotation(kDslMmaAtom), ts::Notation::CuTeTV);
    EXPECT_EQ(cells(kDslMmaAtom), cells("MMA_Atom\n  ThrID: _32:_1\n  Shape_MNK: (_16,_8,_16)\n"
                                        "  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"));
    // A column in a DSL print is the column of the text as pasted.
    try {
        ts::parseMapping(
            "MMA Atom\n  Shape MNK:   (16,8,16)\n  TV Layout C: ((4,8),(2,2)):((32,1),(16,9))");
        ADD_FAILURE() << "accepted a TV layout that is not a bijection";
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not a bijection"), std::string::npos) << e.what();
    }
}

TEST(CuteDsl, TiledCopyWithATilerOfLayouts) {
    const std::string dsl = "Tiled Copy\n  Tiler MN:        (32:1,16:1)\n"
                            "  TV Layout tiled: ((4,32),4):((128,1),32)\nCopy Atom\n"
                            "  ThrID:           1:0\n  TV Layout Src:   (1,4):(0,1)\n"
                            "  TV Layout Dst:   (1,4):(0,1)\n  Value type:      f16";
    EXPECT_EQ(cells(dsl), cells("TiledCopy\n  Tiler_MN:       (_32,_16)\n"
                                "  TiledLayout_TV: ((_4,_32),_4):((_128,_1),_32)"));
    // C++ prints an identity tiler entry as `_32:_1` too.
    EXPECT_EQ(cells(dsl), cells("Tiler_MN: (_32:_1,(_4,_4):(_1,_4))\n"
                                "TiledLayout_TV: ((_4,_32),_4):((_128,_1),_32)"));
    expectRefusedNaming("Tiler_MN: ((4,8):(8,1),4:1)\nTiledLayout_TV: (32,4):(4,1)",
                        "not the identity on its extent");
}

TEST(CuteDsl, TiledMmaPermutationThatIsTheWholeTileIsRead) {
    const std::string atom = "MMA Atom\n  ThrID:           32:1\n  Shape MNK:       (16,8,16)\n"
                             "  TV Layout C:     ((4,8),(2,2)):((32,1),(16,8))";
    const std::string plain =
        "Tiled MMA\n  Thr Layout VMNK: (32,2,2,1):(1,32,64,0)\n  Permutation MNK: (_,_,_)\n" + atom;
    const std::string perm = "Tiled MMA\n  Thr Layout VMNK: (32,2,2,1):(1,32,64,0)\n"
                             "  Permutation MNK: (32:1,16:1,16:1)\n" +
                             atom;
    EXPECT_EQ(cells(perm), cells(plain));
    expectRefusedNaming("Tiled MMA\n  Thr Layout VMNK: (32,2,2,1):(1,32,64,0)\n"
                        "  Permutation MNK: (32:1,(4,4,2):(1,8,4),16:1)\n" +
                            atom,
                        "print of a TiledMMA with PermutationMNK");
}

TEST(CuteTiledMma, PermutationWiderThanTheAtomsRepeatsThemInFurtherRegisters) {
    // CuTe C++'s print of make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, 2x2x1, Tile<_32,_32,_16>):
    // the atoms cover 32x16 and repeat once along N; CuTe's partition_C puts the repeat in
    // registers 4..7 of the same threads (atom values, then rest M, then rest N).
    const std::string wide = "TiledMMA\n  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)\n"
                             "  PermutationMNK: (_32,_32,_16)\nMMA_Atom\n  ThrID:      _32:_1\n"
                             "  Shape_MNK:  (_16,_8,_16)\n"
                             "  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))";
    ts::Fragment f = std::get<ts::Fragment>(ts::parseMapping(wide));
    ASSERT_EQ(f.inputShape(), (ts::Shape{32, 32}));
    ts::FragmentTable t = f.evaluate();
    for (std::size_t m = 0; m < 32; ++m)
        for (std::size_t n = 0; n < 16; ++n) {
            const std::size_t a = m * 32 + n, b = m * 32 + n + 16;
            EXPECT_EQ(t.threads[a], t.threads[b]) << m << "," << n;
            EXPECT_EQ(t.local[a] + 4, t.local[b]) << m << "," << n;
        }
    expectRefusedNaming("TiledMMA\n  ThrLayoutVMNK:  (_32,_2,_2,_1):(_1,_32,_64,_0)\n"
                        "  PermutationMNK: (_48,_16,_16)\nMMA_Atom\n  ThrID:      _32:_1\n"
                        "  Shape_MNK:  (_16,_8,_16)\n"
                        "  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
                        "print of a TiledMMA with PermutationMNK (_48,_16,_16)");
}

TEST(CuteGmma, SmemPtrSwizzlesByteAddresses) {
    // CuTe C++'s GMMA::Layout_K_SW128_Atom<half_t>: Sw<3,4,3> acts on byte addresses, so row 1
    // (elements 64.., bytes 128..) starts at element 72 (g++ against CUTLASS: &t(1,0) - base).
    const std::string k128 = "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)";
    json c = cells(k128);
    EXPECT_EQ(c[64]["out"], json({72}));
    EXPECT_EQ(c[72]["out"], json({64}));
    // Editing the pointer to `_0` reads the swizzle on element offsets: half the cells move.
    json wrong = cells("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
    int differ = 0;
    for (std::size_t k = 0; k < c.size(); ++k)
        differ += c[k] != wrong[k];
    EXPECT_EQ(differ, 256);
    EXPECT_EQ(c, cells("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"));
    // 4-bit elements: CuTe C++ swizzles the element offset itself (uint4_t element 128, byte
    // 64, is at 144 = Sw<3,4,3>(128); element 256 at 288).
    json u4 = cells("Sw<3,4,3> o smem_ptr[4b](unset) o (_8,_256):(_256,_1)");
    EXPECT_EQ(u4[128]["out"], json({144}));
    EXPECT_EQ(u4[256]["out"], json({288}));
    expectRefusedNaming("Sw<3,4,3> o smem_ptr[6b](unset) o (_8,_128):(_128,_1)",
                        "print of a swizzle on the addresses of 6-bit elements");
    expectRefusedNaming("Sw<3,2,3> o smem_ptr[64b](unset) o (_8,_16):(_16,_1)",
                        "moves bits inside an element");
    expectRefusedNaming("Sw<3,4,3> o smem_ptr[16b](0x7f0000000400) o (_8,_64):(_64,_1)",
                        "a shared-memory pointer that is set");
}

TEST(CuteStrides, NestedBasisStridesAreNestedCoordinates) {
    // CuTe's make_identity_layout(((4,2),8)): (5, 3) -> ((1, 1), 3), flattened in order.
    const std::string id = "((4,2),8):((_1@0@0,_1@1@0),_1@1)";
    ts::Layout l = std::get<ts::Layout>(ts::parseMapping(id));
    ts::LayoutTable t = l.evaluate();
    ASSERT_EQ(t.outRank, 3u);
    const std::size_t cell = 5 * 8 + 3;
    EXPECT_EQ(t.out[cell * 3 + 0], 1);
    EXPECT_EQ(t.out[cell * 3 + 1], 1);
    EXPECT_EQ(t.out[cell * 3 + 2], 3);
    // Sub-mode 0 of mode 0 named by no stride is an output that stays 0, as CuTe's _0.
    EXPECT_EQ(std::get<ts::Layout>(ts::parseMapping("(4):(1@1@0)")).evaluate().outRank, 2u);
    expectRefusedNaming("(4,8):(1@0@1,1@1)", "CuTe cannot add the two");
    expectRefusedNaming("(4,8):(1@1,1@0@1)", "CuTe cannot add the two");
}

TEST(CuteStrides, StridesPastInt32AreReadAndNotConvertedToTileLang) {
    json c = cells("(4,2):(1,4294967296)");
    EXPECT_EQ(c[1]["out"], json({4294967296}));
    ts::Mapping m = ts::parseMapping("(4,2):(1,4294967296)");
    try {
        ts::toTileLangCode(m);
        ADD_FAILURE() << "converted offsets beyond int32 to T.Layout";
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("beyond int32"), std::string::npos) << e.what();
    }
    expectRefusedNaming("(4,2):(1,562949953421313)", "up to 2^48");
}

TEST(CuteStrides, NegativeStridesAreRefusedWithTheReason) {
    for (auto [text, column] : {std::pair{"(4,2):(1,-8)", 10u}, {"(_4,_2):(_1,_-8)", 13u}}) {
        try {
            ts::parseMapping(text);
            ADD_FAILURE() << "accepted " << text;
        } catch (const ts::ParseError& e) {
            EXPECT_EQ(e.column(), column) << text;
            EXPECT_NE(e.message().find("negative stride -8"), std::string::npos) << e.message();
            EXPECT_NE(e.message().find("non-negative offsets"), std::string::npos) << e.message();
        }
    }
}

TEST(CuteConvert, NegativeShiftSwizzlesRoundTrip) {
    for (const char* text : {"Sw<3,4,-3> o 0 o (8,64):(64,1)", "S<2,3,-4 o 0 o (16,32):(32,1)",
                             "Sw<1,2,-2> o 0 o (32,8):(1,32)"}) {
        ts::Conversion c = ts::toCuTe(ts::parseMapping(text));
        EXPECT_EQ(cells(c.text), cells(text)) << text << " -> " << c.text;
    }
}

TEST(CuteUnread, EveryOtherCutePrintIsNamed) {
    expectRefusedNaming("Copy_Atom\n  ThrID:        _1:_0\n  ValLayoutSrc: (_1,_4):(_0,_1)\n"
                        "  ValLayoutDst: (_1,_4):(_0,_1)\n  ValLayoutRef: (_1,_4):(_0,_1)\n"
                        "  ValueType:    16b",
                        "CuTe's print of a Copy_Atom, which Tilescope does not read yet");
    expectRefusedNaming("Copy Atom\n  ThrID:         1:0\n  TV Layout Src: (1,4):(0,1)",
                        "the CuTe DSL's print of a Copy Atom");
    expectRefusedNaming("tensor<(0,0) o (8,4):(1@0,1@1)>", "the CuTe DSL's print of a tensor");
    expectRefusedNaming("gmem_ptr[16b](0x7ffd0000) o (_8,_64):(_64,_1)",
                        "CuTe's print of a Tensor");
    expectRefusedNaming("(?,64):(64,1)", "dynamic extents or strides");
    // The CuTe DSL's print of tcgen05.MmaF16BF16Op(f16, f32, (128,128,16), CtaGroup.ONE, SMEM).
    expectRefusedNaming("MMA Atom\n  ThrID:       1:0\n  Shape MNK:   (128,128,16)\n"
                        "  TV Layout C: (1,(128,128)):(128,(1,128))",
                        "tensor memory");
    // A one-thread atom with a register's worth of values is read (UniversalFMA, 1x1x1).
    EXPECT_NO_THROW(ts::parseMapping("MMA_Atom\n  ThrID:      _1:_0\n  Shape_MNK:  (_1,_1,_1)\n"
                                     "  LayoutC_TV: (_1,_1):(_0,_0)"));
    expectRefusedNaming("Sw<3,4,3>_smem_ptr[16b](0x7f0000000400) o (_8,_64):(_64,_1)",
                        "CuTe's print of a Tensor");
    expectRefusedNaming("(_4,_8):(_8,_1) o _0 o (_8,_4):(_1,_8)",
                        "CuTe's print of a ComposedLayout of two layouts");
}

// Every print in the generated families that Tilescope does not read is refused with the words
// the generator recorded (tools/gen_cute_dsl_goldens.py, tools/gen_cute_cxx_goldens.py).
TEST(CuteDslGoldens, EveryUnreadPrintIsRefusedByName) {
    std::size_t checked = 0;
    for (const char* family : {"cute_dsl", "cute_cxx"}) {
        const json d = tstest::readGolden(family);
        for (const json& u : d.at("unread")) {
            ++checked;
            SCOPED_TRACE(u.at("name").get<std::string>());
            expectRefusedNaming(u.at("spec"), u.at("expect"));
        }
    }
    EXPECT_GT(checked, 20u);
}

} // namespace
