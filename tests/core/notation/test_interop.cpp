// SPDX-License-Identifier: Apache-2.0
// CuTe and Triton layout text: recognition, reading, errors, conversions and the CLI `convert`.
#include "cli_run.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/cute_layout.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/linear_layout.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

namespace {

using nlohmann::json;

const char* kSm80C = "Shape_MNK: (_16,_8,_16)\n  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))";
// The same accumulator as Triton's mma v2 (one warp) and TileLang's m16n8 C layout.
const char* kSm80CTriton = "DistributedLinearLayout(reg_bases=[[0, 1], [8, 0]], lane_bases=[[0, "
                           "2], [0, 4], [1, 0], [2, 0], "
                           "[4, 0]], warp_bases=[], block_bases=[], shape=[16, 8])";
const char* kSm80CTileLang =
    "T.Fragment([16, 8], forward_thread_fn=lambda i, j: i % 8 * 4 + j // 2, "
    "forward_index_fn=lambda i, j: i // 8 * 2 + j % 2)";

std::int64_t out0(const ts::Mapping& m, std::int64_t cell) {
    return std::get<ts::Layout>(m).evaluate().out[static_cast<std::size_t>(cell)];
}

TEST(Interop, RecognisesEachNotation) {
    EXPECT_EQ(ts::recognizeNotation("((2,4),8):((1,16),2)"), ts::Notation::CuTeLayout);
    EXPECT_EQ(ts::recognizeNotation("  _32:_1"), ts::Notation::CuTeLayout);
    EXPECT_EQ(ts::recognizeNotation("Sw<3,3,3> o 0 o (8,64):(64,1)"), ts::Notation::CuTeLayout);
    EXPECT_EQ(ts::recognizeNotation("SW_3_3_3 o 0 o (8, 64):(64, 1)"), ts::Notation::CuTeLayout);
    EXPECT_EQ(ts::recognizeNotation(kSm80C), ts::Notation::CuTeTV);
    EXPECT_EQ(
        ts::recognizeNotation("TiledCopy\n  Tiler_MN: (_16,_8)\n  TiledLayout_TV: (32,4):(4,1)"),
        ts::Notation::CuTeTV);
    EXPECT_EQ(ts::recognizeNotation(kSm80CTriton), ts::Notation::TritonLinear);
    EXPECT_EQ(ts::recognizeNotation("ttgl.SharedLinearLayout(offset_bases=[[0, 1]])"),
              ts::Notation::TritonLinear);
    EXPECT_EQ(
        ts::recognizeNotation("\n - register=1 -> (0, 1)\nwhere out dims are: [dim0 (size 2)]"),
        ts::Notation::TritonLinear);
    EXPECT_EQ(ts::recognizeNotation(
                  "#ttg.linear<{register = [[0, 1]], lane = [], warp = [], block = []}>"),
              ts::Notation::TritonLinear);
    EXPECT_EQ(ts::recognizeNotation(kSm80CTileLang), ts::Notation::TileLang);
    EXPECT_EQ(ts::recognizeNotation("frag = make_gemm_fragment_8x8()"), ts::Notation::TileLang);
    EXPECT_EQ(ts::notationName(ts::Notation::CuTeTV), "CuTe TV layout");
}

TEST(Interop, CuTeModesAreColexicographicAxes) {
    // ((2,4),8):((1,16),2): axis 0 is the mode (2,4), its coordinate i splits as (i % 2, i / 2).
    ts::Mapping m = ts::parseMapping("((2,4),8):((1,16),2)");
    ts::LayoutTable t = std::get<ts::Layout>(m).evaluate();
    EXPECT_EQ(t.inputShape, (ts::Shape{8, 8}));
    // cell (3, 1): i = 3 -> (1, 1) -> 1 + 16, j = 1 -> 2; pycute says 19.
    EXPECT_EQ(t.out[3 * 8 + 1], 19);
    EXPECT_EQ(out0(ts::parseMapping("(_8,_16):(_16,_1)"), 17), 17);
    // A one-mode tuple is one axis, not two.
    EXPECT_EQ(std::get<ts::Layout>(ts::parseMapping("((2,4)):((4,1))")).inputShape(),
              (ts::Shape{8}));
}

TEST(Interop, BasisStridesGiveOneOutputPerMode) {
    ts::LayoutTable t = std::get<ts::Layout>(ts::parseMapping("(8,8):(1@1,1@0)")).evaluate();
    ASSERT_EQ(t.outRank, 2u);
    EXPECT_EQ(t.out[(2 * 8 + 3) * 2 + 0], 3); // (2, 3) -> (3, 2), as TileLang's bridge says
    EXPECT_EQ(t.out[(2 * 8 + 3) * 2 + 1], 2);
}

TEST(Interop, SwizzleComposesAfterTheOffset) {
    ts::Mapping m = ts::parseMapping("Sw<3,3,3> o 0 o (8,64):(64,1)");
    EXPECT_EQ(out0(m, 1 * 64 + 9), 65); // pycute: SW_3_3_3 o 0 o (8,64):(64,1) at (1, 9)
    ts::Mapping same = ts::parseMapping("Swizzle<3,3,3>{} o _0 o (_8,_64):(_64,_1)");
    EXPECT_EQ(ts::tableJson(m), ts::tableJson(same));
    EXPECT_EQ(ts::tableJson(m), ts::tableJson(ts::parseMapping("SW_3_3_3 o 0 o (8, 64):(64, 1)")));
    for (std::int64_t x = 0; x < 4096; ++x)
        EXPECT_EQ(ts::cute::applySwizzle(ts::cute::applySwizzle(x, {3, 3, 3}), {3, 3, 3}), x);
}

TEST(Interop, TVLayoutIsReadAsItsInverseFragment) {
    ts::Mapping m = ts::parseMapping(kSm80C);
    ASSERT_TRUE(std::holds_alternative<ts::Fragment>(m));
    EXPECT_EQ(ts::tableJson(m), ts::tableJson(ts::parseMapping(kSm80CTileLang)));
    EXPECT_EQ(ts::tableJson(m), ts::tableJson(ts::parseMapping(kSm80CTriton)));
    // A stride-0 thread mode: threads t and t + 1 hold the same element (replicas).
    ts::Fragment r = std::get<ts::Fragment>(
        ts::parseMapping("Tiler_MN: (16,8) TiledLayout_TV: ((2,4,8),(2,2)):((0,32,1),(16,8))"));
    EXPECT_EQ(r.replicate(), 2);
    ts::FragmentTable t = r.evaluate();
    EXPECT_EQ(t.threads[0], 0);
    EXPECT_EQ(t.threads[1], 1);
}

void expectParseError(const std::string& text, std::size_t column, const std::string& words) {
    try {
        ts::parseMapping(text);
        ADD_FAILURE() << "accepted: " << text;
    } catch (const ts::ParseError& e) {
        EXPECT_EQ(e.column(), column) << text << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        EXPECT_FALSE(e.caretLines().empty());
    } catch (const std::exception& e) {
        ADD_FAILURE() << text << ": not a ParseError: " << e.what();
    }
}

void expectInputError(const std::string& text, const std::string& words) {
    try {
        ts::parseMapping(text);
        ADD_FAILURE() << "accepted: " << text;
    } catch (const ts::ParseError& e) {
        ADD_FAILURE() << text << ": a ParseError where an InputError was expected: " << e.what();
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
}

TEST(Interop, MalformedTextNamesTheColumn) {
    expectParseError("((2,4),8):((1,16),2", 20, "expected ')'");
    // `(1,)` is pycute's print of a one-mode tuple: read, and then not congruent with (2,4).
    expectParseError("(2,4):(1,)", 7, "congruent");
    expectParseError("(2,4):(1,,)", 10, "expected a stride");
    expectParseError("(2,4)(1,2):(1,2)", 6, "expected ':'");
    expectParseError("((2,4),8):(1,2)", 12, "congruent");
    expectParseError("(2,0):(1,2)", 4, "positive");
    expectParseError("(2,4):(1,2) junk", 13, "unexpected");
    expectParseError("(4,99999999999):(1,4)", 4, "too large");
    expectParseError("Sw<3,3,2> o (8,64):(64,1)", 1, "|S| must be at least B");
    // B + M + |S| past an int (found by the notation fuzzer as signed overflow).
    expectParseError("Sw<1655555395,2,1655555456> o (8,64):(64,1)", 1, "above 30");
    expectParseError("Sw<3,3,3>", 10, "a swizzle alone");
    expectParseError("(8,8):(1@1@,1@0)", 12, "expected a basis mode");
    expectParseError(kSm80CTriton + std::string("x"), 151, "unexpected");
    expectParseError("DistributedLinearLayout(reg_bases=[[0, 1, 3]], lane_bases=[], warp_bases=[], "
                     "block_bases=[], shape=[2, 2])",
                     36, "3 coordinates but the layout has 2 output dims");
    expectParseError("DistributedLinearLayout(reg_bases=[[0, 4]], lane_bases=[], warp_bases=[], "
                     "block_bases=[], shape=[2, 4])",
                     36, "outside dim1");
    expectParseError(" - register=1 -> (0, 1)\n   register=4 -> (0, 2)\nwhere out dims are: [dim0 "
                     "(size 1), dim1 (size 4)]",
                     37, "out of order");
    expectParseError("DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[], warp_bases=[], "
                     "block_bases=[], shape=[2, 3])",
                     1, "not a power of two");
    expectParseError("Shape_MNK: (16,8,16)\nLayoutC_TV: ((4,8),(2,2)):((32,1),(16,8)", 62,
                     "expected ')'");
}

TEST(Interop, SemanticErrorsSayWhy) {
    expectInputError("(8,8):(1@0,2)", "integer stride among basis strides");
    expectInputError("Tiler_MN: (16,8)\nTiledLayout_TV: ((4,8),(2,2)):((32,1),(16,4))",
                     "not a bijection");
    expectInputError("Tiler_MN: (16,16)\nTiledLayout_TV: ((4,8),(2,2)):((32,1),(16,8))",
                     "covers 128");
    expectInputError("Tiler_MN: (8,8)\nTiledLayout_TV: (32,(2,2)):(1,(32,0))",
                     "value mode with stride 0");
    expectInputError("SharedLinearLayout(offset_bases=[[0, 1], [0, 1]], block_bases=[])",
                     "offsets 0 and 3 hold the same element");
    expectInputError("SharedLinearLayout(offset_bases=[[0, 3]], block_bases=[])", "not surjective");
    expectInputError("SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 0]], block_bases=[])",
                     "hold the same element");
    // Register broadcast is shown (test_triton_mlir.cpp), unless the register holding an
    // element would depend on the thread.
    expectInputError(
        "DistributedLinearLayout(reg_bases=[[0, 1], [1, 0]], lane_bases=[[1, 0]], warp_bases=[], "
        "block_bases=[], shape=[2, 2])",
        "depends on the thread");
    expectInputError("DistributedLinearLayout(reg_bases=[[0, 1]], lane_bases=[], warp_bases=[], "
                     "block_bases=[[1, 0]], shape=[2, 2])",
                     "several CTAs");
    expectInputError("(1048576,1048576):(1,1048576)", "");
}

TEST(Interop, ConversionsRoundTripExactly) {
    const std::vector<std::string> specs = {
        "((2,4),8):((1,16),2)",
        "Sw<3,3,3> o 0 o (8,64):(64,1)",
        "(8,8):(1@1,1@0)",
        kSm80C,
        kSm80CTriton,
        kSm80CTileLang,
        "make_gemm_c_fragment((32, 32), 128)",
        "T.Layout([32, 64], lambda i, j: i * 64 + (j // 8 ^ i % 8) * 8 + j % 8)",
        "Tiler_MN: (16,8) TiledLayout_TV: ((2,4,8),(2,2)):((0,32,1),(16,8))",
        "SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, "
        "8], "
        "[2, 16], [4, 32], [8, 0]], block_bases=[], alignment=1024)"};
    for (const std::string& s : specs) {
        ts::Mapping m = ts::parseMapping(s);
        const json want = ts::tableJson(m);
        EXPECT_EQ(ts::tableJson(ts::parseMapping(ts::toTileLangCode(m))), want) << s;
        bool multiOut =
            std::holds_alternative<ts::Layout>(m) && std::get<ts::Layout>(m).outputRank() > 1;
        ts::Conversion c = ts::toCuTe(m);
        EXPECT_EQ(ts::tableJson(ts::parseMapping(c.text)), want) << s << " -> " << c.text;
        if (!multiOut) {
            ts::Conversion l = ts::toTritonLinear(m);
            EXPECT_EQ(ts::tableJson(ts::parseMapping(l.text)), want) << s << " -> " << l.text;
        }
    }
    EXPECT_EQ(ts::toCuTe(ts::parseMapping(kSm80CTileLang)).text,
              "Tiler_MN: (16,8)\nTiledLayout_TV: ((4,8),(2,2)):((32,1),(16,8))");
    // TileLang's 128-byte XOR swizzle written as one offset is CuTe's Sw<3,3,3>.
    EXPECT_EQ(
        ts::toCuTe(ts::parseMapping(
                       "T.Layout([8, 64], lambda i, j: i * 64 + (j // 8 ^ i % 8) * 8 + j % 8)"))
            .text,
        "Sw<3,3,3> o 0 o (8,64):(64,1)");
}

TEST(Interop, ConversionsRefuseWithAReason) {
    auto refuses = [](const std::string& spec, bool cute, const std::string& words) {
        try {
            ts::Mapping m = ts::parseMapping(spec);
            ts::Conversion c = cute ? ts::toCuTe(m) : ts::toTritonLinear(m);
            ADD_FAILURE() << spec << " converted to " << c.text;
        } catch (const ts::InputError& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    };
    refuses("T.Layout([6, 4], lambda i, j: i * 4 + j)", false, "power-of-two");
    refuses("T.Layout([4, 4], lambda i, j: i * 5 + j)", false, "outside");
    refuses("T.Layout([8, 8], lambda i, j: (i * 8 + j) * (i * 8 + j) % 64)", true,
            "neither affine");
    refuses("T.Layout([4, 4], lambda i, j: (i + j) % 4 * 4 + i)", false, "not linear over F2");
    refuses(
        "T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j % 4)",
        true, "two elements");
    refuses("make_full_bank_swizzled_layout((32, 64), \"float16\")", true, "single output");
    refuses(
        "T.Fragment([4, 4], forward_thread_fn=lambda i, j: i ^ j, forward_index_fn=lambda i, j: i)",
        true, "not affine");
    // Exact but worth a word: fewer than 32 threads make a short lane list.
    ts::Conversion c =
        ts::toTritonLinear(ts::parseMapping("T.Fragment([4, 4], forward_thread_fn=lambda i, j: i * "
                                            "4 + j, forward_index_fn=lambda i, j: 0)"));
    EXPECT_NE(c.note.find("lane_bases has 4 entries"), std::string::npos) << c.note;
}

std::vector<std::string> sampleTexts(const std::string& file) {
    std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/samples/" + file);
    json d = json::parse(in);
    std::vector<std::string> out;
    for (const json& l : d.at("layouts"))
        out.push_back(l.at("text"));
    return out;
}

TEST(InteropSamples, OneAccumulatorInThreeNotationsHasIdenticalCells) {
    auto t = sampleTexts("interop_sm80_accumulator.tilescope.json");
    ASSERT_EQ(t.size(), 4u);
    EXPECT_EQ(ts::recognizeNotation(t[0]), ts::Notation::TileLang);
    EXPECT_EQ(ts::recognizeNotation(t[1]), ts::Notation::CuTeTV);
    EXPECT_EQ(ts::recognizeNotation(t[2]), ts::Notation::TritonLinear);
    EXPECT_EQ(ts::recognizeNotation(t[3]), ts::Notation::TritonLinear); // the Gluon constructor
    const json want = ts::tableJson(ts::parseMapping(t[0]));
    EXPECT_EQ(ts::tableJson(ts::parseMapping(t[1])), want);
    EXPECT_EQ(ts::tableJson(ts::parseMapping(t[2])), want);
    EXPECT_EQ(ts::tableJson(ts::parseMapping(t[3])), want);
}

TEST(InteropSamples, DotOperandAgreesWithCuTeAndTileLang) {
    auto t = sampleTexts("interop_triton_dot_operand.tilescope.json");
    ASSERT_EQ(t.size(), 5u);
    const json want = ts::tableJson(ts::parseMapping(t[0]));
    EXPECT_EQ(ts::tableJson(ts::parseMapping(t[2])), want); // CuTe SM80 LayoutA_TV
    EXPECT_EQ(ts::tableJson(ts::parseMapping(t[3])), want); // TileLang mma A base layout
    EXPECT_EQ(ts::tableJson(ts::parseMapping(t[4])), want); // Gluon's DotOperandLayout(...)
    EXPECT_EQ(ts::linear::print(ts::linear::parse(t[4])), t[0]);
    EXPECT_EQ(std::get<ts::Fragment>(ts::parseMapping(t[1])).replicate(), 2);
}

TEST(InteropSamples, SwizzleSampleReadsEveryForm) {
    auto t = sampleTexts("interop_cute_swizzle333.tilescope.json");
    ASSERT_EQ(t.size(), 4u);
    // The 8x64 tile is the first eight rows of the 64x64 one; the byte form has twice the columns.
    ts::LayoutTable small = std::get<ts::Layout>(ts::parseMapping(t[0])).evaluate();
    ts::LayoutTable big = std::get<ts::Layout>(ts::parseMapping(t[1])).evaluate();
    ts::LayoutTable bytes = std::get<ts::Layout>(ts::parseMapping(t[2])).evaluate();
    for (std::size_t k = 0; k < small.out.size(); ++k)
        EXPECT_EQ(small.out[k], big.out[k]);
    for (std::int64_t r = 0; r < 64; ++r)
        for (std::int64_t c = 0; c < 64; ++c) // element (r, c) of fp16 starts at byte 2 * offset
            EXPECT_EQ(bytes.out[static_cast<std::size_t>(r * 128 + 2 * c)],
                      2 * big.out[static_cast<std::size_t>(r * 64 + c)]);
    // Triton's NVMMA 128-byte swizzle for fp16 is CuTe's Sw<3,3,3>.
    EXPECT_EQ(ts::tableJson(ts::parseMapping(t[3])),
              ts::tableJson(ts::parseMapping("Sw<3,3,3> o 0 o (16,64):(64,1)")));
}

using Result = tstest::CliResult;
using tstest::cli;
using tstest::quote;

TEST(InteropCli, ConvertRoundTripsThroughEveryNotation) {
    const std::string specs[] = {kSm80C, kSm80CTriton, kSm80CTileLang};
    for (const std::string& s : specs) {
        Result table = cli("table " + quote(s));
        ASSERT_EQ(table.code, 0) << table.err;
        for (const char* to : {"tilelang", "cute", "linear"}) {
            Result c = cli("convert " + quote(s) + " --to " + to);
            ASSERT_EQ(c.code, 0) << s << " --to " << to << ": " << c.err;
            EXPECT_NE(c.err.find("read as "), std::string::npos);
            Result back = cli("table " + quote(c.out));
            ASSERT_EQ(back.code, 0) << c.out << back.err;
            EXPECT_EQ(back.out, table.out) << s << " --to " << to;
        }
    }
    Result r = cli("convert " + quote("Sw<3,3,3> o 0 o (8,64):(64,1)") + " --to cute");
    EXPECT_EQ(r.out, "Sw<3,3,3> o 0 o (8,64):(64,1)\n");
    EXPECT_NE(r.err.find("read as CuTe layout"), std::string::npos);
}

TEST(InteropCli, EveryCommandTakesTheNewNotations) {
    Result banks =
        cli("banks " + quote("Sw<2,2,3> o 0 o (16,8):(8,1)") + " --dtype float32 --access " +
            quote(std::string("fragment:") + kSm80CTriton) + " --json");
    EXPECT_EQ(banks.code, 0) << banks.err;
    EXPECT_NE(banks.out.find("wavefronts"), std::string::npos) << banks.out.substr(0, 300);
    Result print = cli("print " + quote(kSm80C) + " --format visual");
    EXPECT_EQ(print.code, 0) << print.err;
    EXPECT_NE(print.out.find("Thread: _i % 8 * 4 + _j // 2"), std::string::npos) << print.out;
    Result diff = cli("diff " + quote(kSm80C) + " " + quote(kSm80CTriton) + " --json");
    EXPECT_EQ(diff.code, 0) << diff.err;
    EXPECT_NE(diff.out.find("\"differing\": 0"), std::string::npos) << diff.out.substr(0, 400);
}

TEST(InteropCli, BadInputExitsTwoWithOneLineAndACaret) {
    Result r = cli("table " + quote("((2,4),8):((1,16),2"));
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.rfind("tilescope-cli: error: column 20: expected ')'", 0), 0u) << r.err;
    Result n = cli("convert " + quote("T.Layout([6], lambda i: i)") + " --to linear");
    EXPECT_EQ(n.code, 2);
    EXPECT_NE(n.err.find("power-of-two"), std::string::npos) << n.err;
    Result t = cli("convert " + quote("(2,2):(1,2)") + " --to python");
    EXPECT_EQ(t.code, 2);
}

} // namespace

namespace {

// CuTe's print of MMA_Atom<SM70_8x8x4_F32F16F16F32_NT>{} (CuTe C++ on the host): the TV layouts
// number the quadpair's threads 0..7 and ThrID puts threads 4..7 on lanes 16..19.
const char* kSm70Atom = "MMA_Atom\n"
                        "  ThrID:      (_4,_2):(_1,_16)\n"
                        "  Shape_MNK:  (_8,_8,_4)\n"
                        "  LayoutA_TV: ((_4,_2),_4):((_8,_4),_1)\n"
                        "  LayoutB_TV: ((_4,_2),_4):((_8,_4),_1)\n"
                        "  LayoutC_TV: ((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))";

TEST(CuTeMmaAtom, ThrIdPutsEachThreadOnItsLane) {
    auto t = std::get<ts::Fragment>(ts::parseMapping(kSm70Atom)).evaluate();
    std::set<std::int64_t> lanes(t.threads.begin(), t.threads.end());
    EXPECT_EQ(lanes, (std::set<std::int64_t>{0, 1, 2, 3, 16, 17, 18, 19}));
    EXPECT_EQ(t.threadExtent, 20);
    // Element (4, 0) of C: logical thread 4 (LayoutC_TV), lane 16 (ThrID).
    EXPECT_EQ(t.threads[4 * 8 + 0], 16);
    // An identity ThrID changes nothing.
    auto sm80 = std::get<ts::Fragment>(ts::parseMapping(kSm80C)).evaluate();
    auto sm80Id = std::get<ts::Fragment>(ts::parseMapping(std::string("ThrID: _32:_1\n") + kSm80C))
                      .evaluate();
    EXPECT_EQ(sm80.threads, sm80Id.threads);
    // A ThrID of another size is not this atom's.
    EXPECT_THROW(ts::parseMapping(std::string("ThrID: _16:_1\n") + kSm80C), std::exception);
}

} // namespace

namespace {

// print(make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2,_1>>{})): the atoms are
// tiled over ThrLayoutVMNK (its V mode the atom's ThrID), so all 32 lanes hold the 16x16 tile.
// It was read as its atom alone (8x8 on 8 lanes).
TEST(CuTeMmaAtom, TiledMmaPrintIsTheWholeTile) {
    const std::string tiled = "TiledMMA\n"
                              "  ThrLayoutVMNK:  ((_4,_2),_2,_2,_1):((_1,_16),_4,_8,_0)\n"
                              "  PermutationMNK: (_,_,_)\n" +
                              std::string(kSm70Atom);
    auto t = std::get<ts::Fragment>(ts::parseMapping(tiled)).evaluate();
    EXPECT_EQ(t.inputShape, (ts::Shape{16, 16}));
    std::set<std::int64_t> lanes(t.threads.begin(), t.threads.end());
    EXPECT_EQ(lanes.size(), 32u);
    EXPECT_EQ(t.threadExtent, 32);
    // A tile twice the atoms' repeats them (cute_cxx.json.gz checks its cells against CuTe).
    std::string wide = tiled;
    wide.replace(wide.find("(_,_,_)"), 7, "(_32,_32,_4)");
    EXPECT_EQ(std::get<ts::Fragment>(ts::parseMapping(wide)).inputShape(), (ts::Shape{32, 32}));
    // A permutation that reorders rows is not read yet: said so, not read as the plain one.
    std::string permuted = tiled;
    permuted.replace(permuted.find("(_,_,_)"), 7, "(_16,(_4,_2,_2):(_1,_8,_4),_4)");
    EXPECT_THROW(ts::parseMapping(permuted), ts::ParseError);
}

} // namespace
