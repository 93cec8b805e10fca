// SPDX-License-Identifier: Apache-2.0
// TTGIR text as Triton 3.9 prints it (tensor and memdesc types, layout attributes, alias
// definitions), to_linear_layout of linear layouts, register broadcast, and the messages for
// what Tilescope does not read. Every golden of tests/data/goldens/triton_mlir.json.gz is checked
// cell by cell by golden_tests; these pin the forms and the words of the refusals.
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/interop.h"
#include "tilescope/notation/linear_layout.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

json table(const std::string& spec) {
    return ts::tableJson(ts::parseMapping(spec));
}

// The message of the refusal, whichever error type carries it ("" when accepted).
std::string refusal(const std::string& spec, std::size_t* column = nullptr) {
    try {
        ts::parseMapping(spec);
    } catch (const ts::ParseError& e) {
        if (column) *column = e.column();
        return e.message();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

const char* kBlocked = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>";

TEST(TritonMlir, TensorTypeAliasAndConstructorGiveTheSameCells) {
    const json gluon = table("ttgl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]), [128, 64]");
    EXPECT_EQ(table(std::string("tensor<128x64xf16, ") + kBlocked + ">"), gluon);
    // A dump's alias, defined above the type or below it, and a pointer element type.
    EXPECT_EQ(table(std::string("#blocked = ") + kBlocked + "\ntensor<128x64xf16, #blocked>"),
              gluon);
    EXPECT_EQ(table(std::string("tensor<128x64x!tt.ptr<f16>, #blocked>\n#blocked = ") + kBlocked),
              gluon);
    EXPECT_EQ(
        ts::recognizeNotation(std::string("#blocked = ") + kBlocked + "\ntensor<1xf16, #blocked>"),
        ts::Notation::TritonLinear);
    EXPECT_EQ(ts::recognizeNotation("tensor<16x4xf16, #linear>"), ts::Notation::TritonLinear);
    EXPECT_EQ(ts::recognizeNotation("# a comment\nT.Layout([4], lambda i: i)"),
              ts::Notation::TileLang);
}

TEST(TritonMlir, MmaDotOperandSliceAndSharedPrints) {
    const std::string mma = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
                            "[4, 1], instrShape = [16, 64, 16]}>";
    EXPECT_EQ(table("tensor<64x64xf16, " + mma + ">"),
              table("NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), [64, 64]"));
    EXPECT_EQ(table("#mma = " + mma +
                    "\ntensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>"),
              table("DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), "
                    "2), [64, 64]"));
    EXPECT_EQ(
        table(std::string("tensor<64xf16, #ttg.slice<{dim = 1, parent = ") + kBlocked + "}>>"),
        table("SliceLayout(1, BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])), [64]"));
    const std::string shared = "#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
                               "transposed = false, elementBitWidth = 16}>\n#smem = "
                               "#ttg.shared_memory\n";
    EXPECT_EQ(table(shared + "!ttg.memdesc<64x64xf16, #shared, #smem, mutable>"),
              table("NVMMASharedLayout(128, 16), [64, 64]"));
    EXPECT_EQ(table("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0]]}, alignment = 16>"),
              table("SharedLinearLayout(offset_bases=[[0, 1], [0, 2], [1, 0]], block_bases=[])"));
}

TEST(TritonMlir, ToLinearLayoutOfLinearLayouts) {
    // Triton repeats registers along the last dim first, and drops a register past the shape.
    EXPECT_EQ(ts::linear::print(ts::linear::parse(
                  "ttgl.to_linear_layout(DistributedLinearLayout([], [[1, 0], [2, 0], [0, 0], "
                  "[0, 2], [0, 1]], [[0, 4], [0, 8]], [], [4, 16]), [8, 64])")),
              "DistributedLinearLayout(reg_bases=[[0, 16], [0, 32], [4, 0]], lane_bases=[[1, 0], "
              "[2, 0], [0, 0], [0, 2], [0, 1]], warp_bases=[[0, 4], [0, 8]], block_bases=[], "
              "shape=[8, 64])");
    EXPECT_NE(refusal("to_linear_layout(DistributedLinearLayout([[1, 0], [1, 0]], [], [], [], "
                      "[2, 1]), [2, 1])")
                  .find("permutation matrix"),
              std::string::npos);
    EXPECT_NE(
        refusal("to_linear_layout(SharedLinearLayout([[1], [2]]), [8])").find("size == llSize"),
        std::string::npos);
}

TEST(TritonMlir, RegisterBroadcastIsShownInTheLowestRegister) {
    // Registers 0 and 1 hold the same element (a zero basis): each element in its lowest.
    json t = table("tensor<2x4xf16, #ttg.linear<{register = [[0, 0], [1, 0]], lane = [[0, 1], "
                   "[0, 2], [0, 0], [0, 0], [0, 0]], warp = [], block = []}>>");
    EXPECT_EQ(t.at("local_size"), 3);
    EXPECT_EQ(t.at("replicate"), 8);
    EXPECT_EQ(t.at("cells")[4],
              json::parse(R"({"in":[1,0],"threads":[0,4,8,12,16,20,24,28],"local":2})"));
}

TEST(TritonMlir, UnreadFormsAreNamed) {
    std::size_t col = 0;
    EXPECT_EQ(refusal("tensor<64x64xf16, #ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
                      "instrShape = [32, 32, 8], isTransposed = true}>>",
                      &col),
              "this is Triton's print of an AMD MFMA layout (#ttg.amd_mfma), which Tilescope does "
              "not read yet");
    EXPECT_EQ(col, 19u);
    EXPECT_NE(refusal("#mma = #ttg.amd_wmma<{version = 2, isTranspose = true, ctaLayout = {warp = "
                      "[[1, 0], [2, 0]]}}>\ntensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = "
                      "#mma, kWidth = 8}>>")
                  .find("print of an AMD WMMA layout"),
              std::string::npos);
    EXPECT_NE(refusal("!ttg.memdesc<64x64xf16, #ttg.padded_shared<[32:+4] {order = [1, 0], shape "
                      "= [64, 64]}>, #ttg.shared_memory, mutable>")
                  .find("print of a padded shared layout"),
              std::string::npos);
    EXPECT_NE(refusal("tensor<128x64xf16, #blocked>").find("paste that definition line"),
              std::string::npos);
    EXPECT_NE(refusal(kBlocked).find("no shape of its own"), std::string::npos);
    // From a compiled sm_100 kernel's dump: an mbarrier array of two, and the whole module.
    EXPECT_NE(refusal("#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order "
                      "= [0]}>\n#smem = #ttg.shared_memory\n!ttg.memdesc<2x1xi64, #shared, "
                      "#smem, mutable>")
                  .find("leading dims count buffers"),
              std::string::npos);
    EXPECT_NE(refusal(std::string("#blocked = ") + kBlocked +
                      "\nmodule {\n  tt.func public @k(%arg0: tensor<64x16xf16, #blocked>) {\n  "
                      "  tt.return\n  }\n}")
                  .find("this is TTGIR code, not one type"),
              std::string::npos);
    EXPECT_NE(refusal("!ttg.memdesc<64x16xf32, #ttng.tensor_memory_encoding<blockM = 64, blockN = "
                      "16, colStride = 1>, #ttng.tensor_memory, mutable>")
                  .find("print of a Blackwell tensor memory layout"),
              std::string::npos);
    EXPECT_NE(refusal("tensor<64x64xf16, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
                      "warpsPerCTA = [4, 1], instrShape = [16, 24, 16]}>>")
                  .find("N = 24 is not a power of two"),
              std::string::npos);
    EXPECT_NE(refusal("tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 4], foo = 1}>>")
                  .find("'foo' that Tilescope does not read yet"),
              std::string::npos);
}

} // namespace
