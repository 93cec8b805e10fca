// SPDX-License-Identifier: Apache-2.0
// Constructing a mapping costs no more than its text: index inference and replica condensing
// decide from the thread map alone where they can (a fully replicated fragment's map is `_rep`),
// never by storing a table; the syntax key and the named dtype come from the text alone; the
// default bank access fits every T.Layout the samples ship.
#include "tilescope/banks/access.h"
#include "tilescope/lang/expr.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace {

// The largest fully replicated fragment the limits allow to be built: 16M cells x 65536
// replicas. Evaluating it would need 2^40 values; building it must not evaluate anything.
TEST(CheapConstruction, FullyReplicatedFragmentEvaluatesNothingToBeBuilt) {
    const ts::Mapping m = ts::parseMapping("make_fully_replicated_fragment((4096, 4096), 65536)");
    const auto& f = std::get<ts::Fragment>(m);
    EXPECT_EQ(f.replicate(), 65536);
    ASSERT_EQ(f.index().size(), 1u);
    EXPECT_EQ(ts::printExpr(f.index()[0]), "_i * 4096 + _j");
    EXPECT_THROW(f.evaluate(), ts::InputError); // the stored-values limit, checked before work
}

TEST(CheapConstruction, InferredIndexStillFindsUsedPieces) {
    // Thread uses i % 4 and rep: the index is built from i // 4 and j, as TileLang infers.
    const auto f = std::get<ts::Fragment>(ts::parseMapping(
        "T.Fragment([64, 8], forward_thread_fn=lambda i, j, rep: i % 4 * 32 + rep, "
        "replicate=32)"));
    EXPECT_EQ(ts::printExpr(f.index()[0]), "_i // 4 * 8 + _j");
    const ts::FragmentTable t = f.evaluate();
    EXPECT_EQ(t.localShape, ts::Shape({128}));
}

TEST(CheapConstruction, CondenseDropsUnusedReplicaBitsWithoutATable) {
    const auto f = std::get<ts::Fragment>(
        ts::parseMapping("make_fully_replicated_fragment((1024, 1024), 32)"));
    const ts::Fragment c = f.condenseRepVar();
    EXPECT_EQ(c.replicate(), 32); // every replica bit selects a thread: all kept
    const auto g = std::get<ts::Fragment>(ts::parseMapping(
        "T.Fragment([1024, 1024], forward_thread_fn=lambda i, j, rep: i % 8, replicate=16)"));
    EXPECT_EQ(g.condenseRepVar().replicate(), 1); // the map ignores rep: no replica bit used
}

TEST(MappingText, SyntaxKeyIgnoresCommentsAndSpacingOnly) {
    const std::string a = ts::mappingSyntaxKey("make_gemm_c_fragment((32, 32), 128)");
    EXPECT_EQ(a, ts::mappingSyntaxKey("make_gemm_c_fragment( (32,32),\n 128 )  # accumulator"));
    EXPECT_NE(a, ts::mappingSyntaxKey("make_gemm_c_fragment((32, 32), 256)"));
    EXPECT_NE(ts::mappingSyntaxKey("T.Layout([12], lambda i: i)"),
              ts::mappingSyntaxKey("T.Layout([21], lambda i: i)"));
    EXPECT_NE(ts::mappingSyntaxKey("make_linear_layout((8, 8), \"float16\")"),
              ts::mappingSyntaxKey("make_linear_layout((8, 8), \"float32\")"));
    EXPECT_THROW(ts::mappingSyntaxKey("T.Layout([4], lambda i: i +)"), ts::ParseError);
    // CuTe text is keyed as written.
    EXPECT_NE(ts::mappingSyntaxKey("(4,8):(1,4)"), ts::mappingSyntaxKey("(4,8):(8,1)"));
    EXPECT_NE(ts::mappingSyntaxKey("(4,8):(1,4)"), ts::mappingSyntaxKey("(4, 8):(1, 4)"));
}

TEST(MappingText, DtypeNamedByTheText) {
    EXPECT_EQ(ts::mappingDtype("make_full_bank_swizzled_layout((8, 64), \"float16\")"), "float16");
    EXPECT_EQ(ts::mappingDtype("make_mma_load_base_layout(dtype=\"bfloat16\", matrix=\"A\")"),
              "bfloat16");
    EXPECT_EQ(ts::mappingDtype("T.Layout([4, 4], lambda i, j: (j, i))"), "");
    EXPECT_EQ(ts::mappingDtype("make_linear_layout((8, 8), \"float16\") +"), ""); // syntax error
}

TEST(DefaultAccess, FitsEveryShippedLayout) {
    int layouts = 0;
    for (const auto& e : std::filesystem::directory_iterator(
             std::filesystem::path(TILESCOPE_SOURCE_DIR) / "samples")) {
        if (e.path().string().find(".tilescope.json") == std::string::npos) continue;
        const ts::Document d = ts::loadDocumentFile(e.path().string());
        for (const ts::DocLayout& l : d.layouts) {
            const ts::Mapping m = ts::parseMapping(l.text);
            const auto* lay = std::get_if<ts::Layout>(&m);
            if (!lay) continue;
            std::string dtype = ts::mappingDtype(l.text);
            if (dtype.empty()) dtype = "float16";
            const ts::SharedTile tile(*lay, dtype);
            std::string why;
            const std::string access = ts::defaultAccess(tile, &why);
            SCOPED_TRACE(l.name + ": " + access);
            EXPECT_FALSE(why.empty());
            const ts::SharedAccess a = ts::buildAccess(tile, access);
            EXPECT_GT(ts::analyzePlan(a.plan).wavefronts, 0);
            ++layouts;
        }
    }
    EXPECT_GE(layouts, 15);
}

TEST(DefaultAccess, ChoosesByShapeAndElementSize) {
    auto pick = [](const std::string& text, const std::string& dtype) {
        return ts::defaultAccess(
            ts::SharedTile(std::get<ts::Layout>(ts::parseMapping(text)), dtype));
    };
    EXPECT_EQ(pick("make_full_bank_swizzled_layout((32, 64), \"float16\")", "float16"),
              "ldmatrix:x4");
    EXPECT_EQ(pick("make_full_bank_swizzled_layout((8, 64), \"float16\")", "float16"),
              "ldmatrix:x1");
    // Transposed: no 16-byte row is contiguous, so no ldmatrix.
    EXPECT_EQ(pick("T.Layout([8, 8], lambda i, j: (j, i))", "float16"),
              "lanes:lambda t: (t // 8, t % 8)");
    EXPECT_EQ(pick("T.Layout([4, 4], lambda i, j: (j, i))", "float16"),
              "lanes:lambda t: (t // 4 % 4, t % 4)");
    EXPECT_EQ(pick("T.Layout([32, 32], lambda i, j: (i, j))", "float32"),
              "lanes:lambda t: (t // 32, t)");
    EXPECT_EQ(pick("T.Layout([2, 4, 8], lambda i, j, k: (k, i * 4 + j))", "float32"),
              "lanes:lambda t: (t // 32, t // 8, t % 8)");
}

} // namespace
