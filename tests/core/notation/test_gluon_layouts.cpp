// SPDX-License-Identifier: Apache-2.0
// Gluon layout constructors (BlockedLayout(...), NVMMADistributedLayout(...), ...) converted to
// linear layouts as Triton converts them: Triton 3.9's own bases for every random constructor in
// tests/data/goldens/gluon.json.gz, its refusals refused, and errors that say where.
#include "cli_run.h"
#include "golden_files.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/linear_layout.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

json gluonGoldens() {
    return tstest::readGolden("gluon");
}

const ts::linear::InDim* inDim(const ts::linear::LinearLayout& l, const std::string& name) {
    for (const auto& d : l.ins)
        if (d.name == name) return &d;
    return nullptr;
}

// Either the table, or the kind of error ("refused") when Tilescope does not show the layout.
std::string tableOrRefusal(const std::string& spec) {
    try {
        return ts::tableJson(ts::parseMapping(spec)).dump();
    } catch (const ts::InputError&) {
        return "refused";
    }
}

TEST(GluonGoldens, EveryConstructorGivesTritonsBasesExactly) {
    const json d = gluonGoldens();
    std::size_t cases = 0, bases = 0, shown = 0;
    for (const json& c : d.at("constructors")) {
        const std::string spec = c.at("spec");
        ts::linear::LinearLayout mine;
        try {
            mine = ts::linear::parse(spec);
        } catch (const std::exception& e) {
            ADD_FAILURE() << c.at("name") << ": Triton converts it, Tilescope says " << e.what()
                          << "\n  " << spec;
            continue;
        }
        ++cases;
        const std::vector<std::int64_t> shape = c.at("shape");
        EXPECT_EQ(mine.outSizes, shape) << spec;
        for (const auto& [name, want] : c.at("bases").items()) {
            const ts::linear::InDim* got = inDim(mine, name);
            const auto expected = want.get<std::vector<std::vector<std::int64_t>>>();
            if (!got) {
                EXPECT_TRUE(expected.empty()) << c.at("name") << ": no '" << name << "' bases";
                continue;
            }
            EXPECT_EQ(got->bases, expected) << c.at("name") << " '" << name << "' bases of\n  "
                                            << spec << "\n  Triton: " << c.at("triton_printed");
            bases += expected.size();
        }
        for (const auto& in : mine.ins)
            EXPECT_TRUE(c.at("bases").contains(in.name) || in.bases.empty())
                << c.at("name") << ": input dim '" << in.name << "' Triton does not have";
        // Cell by cell: the constructor shows what Triton's printed linear layout shows, and
        // is refused exactly when that is (register broadcast, a non-injective shared map).
        // Equal bases imply it; the tables are compared where they are small, to keep the
        // test quick (large replicated fragments list hundreds of threads per cell).
        std::int64_t elements = 1;
        for (std::int64_t s : shape)
            elements *= s;
        if (elements > 2048) continue;
        std::string printed = c.at("triton_printed");
        std::string fromCtor = tableOrRefusal(spec), fromTriton = tableOrRefusal(printed);
        if (c.at("bases").contains("offset")) {
            // Gluon prints SharedLinearLayout without its shape; compare on the same grid.
            json t = json::parse(fromTriton == "refused" ? "{}" : fromTriton);
            if (t.contains("input_shape") && t.at("input_shape") != json(shape)) continue;
        }
        EXPECT_EQ(fromCtor, fromTriton)
            << c.at("name") << ": cells differ from Triton's\n  " << printed;
        if (fromCtor != "refused") ++shown;
    }
    EXPECT_GT(cases, 500u);
    EXPECT_GT(bases, 5000u);
    EXPECT_GT(shown, 150u);
}

TEST(GluonGoldens, EveryConstructorTritonRefusesIsRefusedWithAColumn) {
    const json d = gluonGoldens();
    std::size_t refused = 0;
    for (const json& e : d.at("errors")) {
        const std::string spec = e.at("spec");
        try {
            ts::parseMapping(spec);
            ADD_FAILURE() << e.at("name") << ": Triton says " << e.at("error")
                          << ", Tilescope accepts " << spec;
        } catch (const ts::ParseError& p) {
            ++refused;
            EXPECT_GT(p.column(), 0u) << spec;
            EXPECT_GT(p.message().size(), 20u) << spec << ": " << p.message();
            EXPECT_EQ(p.message().find('\n'), std::string::npos) << p.message();
        } catch (const std::exception& x) {
            ADD_FAILURE() << e.at("name") << ": not a ParseError: " << x.what();
        }
    }
    EXPECT_GE(refused, 14u);
}

const char* kBlocked = "ttgl.BlockedLayout(size_per_thread=[1, 4], threads_per_warp=[4, 8], "
                       "warps_per_cta=[4, 1], order=[1, 0])";

TEST(GluonLayouts, EveryFormOfTheShapeReadsTheSame) {
    const std::string b = kBlocked;
    const std::string want =
        ts::tableJson(ts::parseMapping("ttgl.to_linear_layout(" + b + ", [32, 32])")).dump();
    for (const std::string& s :
         {b + ", [32, 32]", b + " [32, 32]",
          "gl.to_linear_layout(layout=" + b + ", shape=[32, 32])",
          std::string("to_linear_layout(BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]), (32, 32))"),
          "# a comment\n" + b + ",\n    [32, 32]  # the tile"})
        EXPECT_EQ(ts::tableJson(ts::parseMapping(s)).dump(), want) << s;
    // Triton's own answer for this layout (tests/data/goldens/triton.json.gz's first case).
    EXPECT_EQ(ts::linear::print(ts::linear::parse(b + ", [32, 32]")),
              "DistributedLinearLayout(reg_bases=[[0, 1], [0, 2], [16, 0]], lane_bases=[[0, 4], "
              "[0, 8], [0, 16], [1, 0], [2, 0]], warp_bases=[[4, 0], [8, 0]], block_bases=[], "
              "shape=[32, 32])");
}

void expectColumn(const std::string& text, std::size_t column, const std::string& words) {
    try {
        ts::parseMapping(text);
        ADD_FAILURE() << "accepted: " << text;
    } catch (const ts::ParseError& e) {
        EXPECT_EQ(e.column(), column) << text << ": " << e.message();
        EXPECT_NE(e.message().find(words), std::string::npos) << e.message();
    } catch (const std::exception& e) {
        ADD_FAILURE() << text << ": not a ParseError: " << e.what();
    }
}

TEST(GluonLayouts, BadArgumentsSayWhichAndWhere) {
    expectColumn("BlockedLayout([1, 3], [4, 8], [4, 1], [1, 0]), [32, 32]", 19,
                 "size_per_thread entries must be powers of two, not 3");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1]), [32, 32]", 1, "needs 'order'");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0], threads=[1]), [32, 32]", 55,
                 "unknown argument 'threads'");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0], order=[0, 1]), [32, 32]", 53,
                 "given twice");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 1]), [32, 32]", 43, "each dim");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]), [32, 24]", 48, "powers of two");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])", 1, "needs the tensor shape");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]), [32]", 1, "has rank 2");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0], cga_layout=[[1, 0]]), [32, 32]", 58,
                 "several CTAs");
    expectColumn("ttgl.AutoLayout(), [32, 32]", 1, "the compiler chooses one");
    expectColumn("ttgl.PaddedSharedLayout([[32, 4]], [[0, 1]], [], [32, 32]), [32, 32]", 1,
                 "not converted");
    const std::string mma3 =
        "NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])";
    expectColumn("DotOperandLayout(operand_index=1, parent=" + mma3 + ", k_width=2), [64, 64]", 32,
                 "operand 0");
    expectColumn("DotOperandLayout(0, " + mma3 + ", 0), [64, 64]", 109, "k_width");
    expectColumn("NVMMADistributedLayout(version=[1, 0], warps_per_cta=[4, 1], "
                 "instr_shape=[16, 8]), [64, 64]",
                 32, "[2, 0]");
    expectColumn("NVMMASharedLayout(swizzle_byte_width=48, element_bitwidth=16), [64, 64]", 38,
                 "0, 32, 64 or 128");
    expectColumn("NVMMASharedLayout(128, 16), [8, 32]", 1, "narrower than the 128-byte swizzle");
    expectColumn("NVMMASharedLayout(128, 16), [4, 64]", 1, "smaller than one 8x64");
    expectColumn("NVMMASharedLayout(128, 16, rank=3), [64, 64]", 33, "rank=3");
    expectColumn("NVMMASharedLayout(128, 8, fp4_padded=True), [64, 128]", 38, "two offsets");
    expectColumn("SwizzledSharedLayout(3, 1, 8, [1, 0]), [64, 64]", 22, "power of two");
    expectColumn("BlockedLayout([1, 8192], [4, 8], [4, 1], [1, 0]), [32, 32]", 19, "too large");
    expectColumn("BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]), [1048576, 1048576]", 1,
                 "more than 2^24");
    expectColumn("SliceLayout(2, BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])), [32]", 13,
                 "dim must name a dim of the parent");
}

TEST(GluonLayouts, RecognisedAsTritonText) {
    for (const std::string& s :
         {std::string(kBlocked) + ", [32, 32]",
          std::string("gl.NVMMASharedLayout(128, 16), [8, 64]"),
          std::string("SliceLayout(0, BlockedLayout([1], [32], [4], [0]))"),
          std::string("ttgl.DotOperandLayout(0, parent, 2)"), std::string("ttgl.AutoLayout()")})
        EXPECT_EQ(ts::recognizeNotation(s), ts::Notation::TritonLinear) << s;
    EXPECT_EQ(ts::recognizeNotation("T.Layout([4], lambda i: i)"), ts::Notation::TileLang);
}

TEST(GluonLayouts, SharedLayoutsAreTheirSwizzles) {
    // NVMMA's 128-byte swizzle of fp16 is CuTe's Sw<3,3,3>; the swizzled layout with vec 8,
    // per_phase 1, max_phase 8 is the same XOR.
    const std::string want =
        ts::tableJson(ts::parseMapping("Sw<3,3,3> o 0 o (16,64):(64,1)")).dump();
    EXPECT_EQ(ts::tableJson(ts::parseMapping("ttgl.NVMMASharedLayout(128, 16), [16, 64]")).dump(),
              want);
    EXPECT_EQ(
        ts::tableJson(ts::parseMapping("SwizzledSharedLayout(8, 1, 8, [1, 0]), [16, 64]")).dump(),
        want);
}

TEST(GluonLayouts, CliReadsTheConstructorAndExitsTwoOnBadOnes) {
    tstest::CliResult ok = tstest::cli(
        "convert " + tstest::quote(std::string(kBlocked) + ", [32, 32]") + " --to linear");
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_NE(ok.err.find("read as Triton linear layout"), std::string::npos) << ok.err;
    EXPECT_NE(ok.out.find("warp_bases=[[4, 0], [8, 0]]"), std::string::npos) << ok.out;
    tstest::CliResult bad = tstest::cli(
        "table " + tstest::quote("BlockedLayout([1, 3], [4, 8], [4, 1], [1, 0]), [32, 32]"));
    EXPECT_EQ(bad.code, 2);
    EXPECT_EQ(bad.err.rfind("tilescope-cli: error: column 19: size_per_thread", 0), 0u) << bad.err;
}

} // namespace
