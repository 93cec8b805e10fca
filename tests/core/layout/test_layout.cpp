// SPDX-License-Identifier: Apache-2.0
// Layout/Fragment algebra over the whole domain: repeat, replicate, expand and inverse round
// trips, the inferred local index, collision checks, the mapping language and its errors.
#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <random>

namespace {

ts::Layout layout(const std::string& s) {
    return std::get<ts::Layout>(ts::parseMapping(s));
}
ts::Fragment fragment(const std::string& s) {
    return std::get<ts::Fragment>(ts::parseMapping(s));
}

std::vector<std::int64_t> unflat(std::int64_t f, const ts::Shape& s) {
    std::vector<std::int64_t> c(s.size());
    for (std::size_t k = s.size(); k-- > 0;)
        c[k] = f % s[k], f /= s[k];
    return c;
}

TEST(LayoutAlgebra, RepeatAddsAGroupOutputAndWrapsTheDim) {
    ts::Layout base = layout("T.Layout([8, 64], lambda i, j: i * 64 + j)");
    ts::LayoutTable b = base.evaluate();
    for (int dim : {0, 1, -1})
        for (int factor : {2, 3}) {
            ts::Layout r = base.repeat(dim, factor);
            ts::LayoutTable t = r.evaluate();
            const std::size_t d = dim < 0 ? 1 : dim;
            ASSERT_EQ(t.inputShape[d], base.inputShape()[d] * factor);
            ASSERT_EQ(t.outRank, 2u);
            for (std::int64_t c = 0; c < t.cells(); ++c) {
                auto x = unflat(c, t.inputShape);
                std::int64_t g = x[d] / base.inputShape()[d];
                x[d] %= base.inputShape()[d];
                std::int64_t inner = x[0] * 64 + x[1];
                ASSERT_EQ(t.out[c * 2], g);
                ASSERT_EQ(t.out[c * 2 + 1], b.out[inner]);
            }
        }
    EXPECT_THROW(base.repeat(0, 0), ts::InputError);
    EXPECT_THROW(base.repeat(2, 2), ts::InputError);
    EXPECT_THROW(base.repeat(-3, 2), ts::InputError);
}

TEST(LayoutAlgebra, ExpandPrefixesLeadingCoordinates) {
    ts::Layout base = layout("T.Layout([4, 8], lambda i, j: j * 4 + i)");
    ts::LayoutTable t = base.expand({2, 3}).evaluate();
    ts::LayoutTable b = base.evaluate();
    ASSERT_EQ(t.inputShape, (ts::Shape{2, 3, 4, 8}));
    for (std::int64_t c = 0; c < t.cells(); ++c) {
        auto x = unflat(c, t.inputShape);
        EXPECT_EQ(t.out[c * 3], x[0]);
        EXPECT_EQ(t.out[c * 3 + 1], x[1]);
        EXPECT_EQ(t.out[c * 3 + 2], b.out[x[2] * 8 + x[3]]);
    }
    EXPECT_THROW(base.expand({0}), ts::InputError);
}

TEST(LayoutAlgebra, InverseRoundTripsOnBijections) {
    for (const char* s : {"T.Layout([8, 4], lambda i, j: (i % 4 * 2 + i // 4, j))",
                          "make_full_bank_swizzled_layout((32, 64), \"float16\")",
                          "make_zn_layout((32, 32), \"float16\")",
                          "T.Layout([16, 16], lambda i, j: i * 16 + (j ^ i % 8))"}) {
        ts::Layout l = layout(s);
        ts::LayoutTable f = l.evaluate(), g = l.inverse().evaluate();
        ASSERT_EQ(g.inputShape, f.outputShape) << s;
        for (std::int64_t c = 0; c < f.cells(); ++c) {
            std::int64_t q = 0;
            for (std::size_t k = 0; k < f.outRank; ++k)
                q = q * f.outputShape[k] + f.out[c * f.outRank + k];
            auto x = unflat(c, f.inputShape);
            for (std::size_t k = 0; k < x.size(); ++k)
                ASSERT_EQ(g.out[q * g.outRank + k], x[k]) << s;
        }
    }
}

TEST(LayoutAlgebra, InverseNamesTheCollidingCells) {
    try {
        layout("T.Layout([4, 4], lambda i, j: i + j)").inverse();
        FAIL();
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("logical (0, 1) and (1, 0) both map to (1)"),
                  std::string::npos)
            << e.what();
    }
    try {
        layout("T.Layout([4], lambda i: i * 2)").inverse();
        FAIL();
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("output (1) is never reached"), std::string::npos)
            << e.what();
    }
}

TEST(FragmentAlgebra, RepeatOnThreadAndOnIndexForEveryOrder) {
    ts::Fragment base = fragment("T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // "
                                 "2, forward_index_fn=lambda i, j: j % 2)");
    ts::FragmentTable b = base.evaluate();
    for (bool onThread : {false, true})
        for (bool ldf : {false, true}) {
            ts::Fragment r = base.repeat({2, 3}, onThread, ldf);
            ts::FragmentTable t = r.evaluate();
            ASSERT_EQ(t.inputShape, (ts::Shape{16, 24}));
            for (std::int64_t c = 0; c < t.cells(); ++c) {
                auto x = unflat(c, t.inputShape);
                std::int64_t gi = x[0] / 8, gj = x[1] / 8;
                std::int64_t g = ldf ? gi * 3 + gj : gi + gj * 2;
                std::int64_t inner = (x[0] % 8) * 8 + x[1] % 8;
                if (onThread) {
                    ASSERT_EQ(t.threads[c], b.threads[inner] + 32 * g);
                    ASSERT_EQ(t.local[c], b.local[inner]);
                } else {
                    ASSERT_EQ(t.threads[c], b.threads[inner]);
                    ASSERT_EQ(t.local[c], b.local[inner] + 2 * g);
                }
            }
            EXPECT_FALSE(r.findCollision()) << onThread << ldf;
        }
    EXPECT_THROW(base.repeat({2}), ts::InputError);
}

TEST(FragmentAlgebra, ReplicatePutsNewReplicasAboveTheThreadExtent) {
    ts::Fragment base = fragment(
        "T.Fragment([16, 16], forward_thread_fn=lambda i, j, rep: i % 8 * 4 + j // 4 + 32 * rep, "
        "forward_index_fn=lambda i, j: i // 8 * 4 + j % 4, replicate=2)");
    ts::FragmentTable b = base.evaluate();
    ts::FragmentTable t = base.replicateBy(3).evaluate();
    ASSERT_EQ(t.replicate, 6);
    EXPECT_EQ(t.threadExtent, 3 * b.threadExtent);
    for (std::int64_t c = 0; c < t.cells(); ++c)
        for (std::int64_t r = 0; r < 6; ++r)
            ASSERT_EQ(t.threads[c * 6 + r], b.threads[c * 2 + r % 2] + b.threadExtent * (r / 2));
}

TEST(FragmentAlgebra, InferredIndexMatchesTileLangsRule) {
    EXPECT_EQ(
        ts::printExpr(
            fragment("T.Fragment([128, 128], forward_thread_fn=lambda i, j: i % 8 * 16 + j // 8)")
                .index()[0]),
        "_i // 8 * 8 + _j % 8");
    EXPECT_EQ(
        ts::printExpr(
            fragment("T.Fragment([64, 256], forward_thread_fn=lambda i, j: i % 4 * 64 + j // 4)")
                .index()[0]),
        "_i // 4 * 4 + _j % 4");
    EXPECT_EQ(
        ts::printExpr(
            fragment(
                "T.Fragment([64], forward_thread_fn=lambda i, rep: i % 4 * 32 + rep, replicate=32)")
                .index()[0]),
        "_i // 4");
    // Every inferred fragment is a valid register allocation.
    for (const char* s :
         {"T.Fragment([32, 32], forward_thread_fn=lambda i, j: i // 16 * 16 + j % 4 * 4 + i % 4)",
          "T.Fragment([16, 16], forward_thread_fn=lambda i, j: i // 2 % 4 * 8 + j % 8)",
          "T.Fragment([8, 8, 4], forward_thread_fn=lambda i, j, k: j * 4 + k)"})
        EXPECT_FALSE(fragment(s).findCollision()) << s;
}

TEST(FragmentAlgebra, CollisionReportsTheFirstTwoCells) {
    auto c = fragment("T.Fragment([4, 4], forward_thread_fn=lambda i, j: i, "
                      "forward_index_fn=lambda i, j: j // 2)")
                 .findCollision();
    ASSERT_TRUE(c);
    EXPECT_EQ(c->first, (std::vector<std::int64_t>{0, 0}));
    EXPECT_EQ(c->second, (std::vector<std::int64_t>{0, 1}));
    EXPECT_EQ(c->target, (std::vector<std::int64_t>{0, 0}));
}

TEST(FragmentAlgebra, InverseIsTheLocalThreadToCoordinateTable) {
    ts::Fragment f = fragment("make_gemm_c_fragment((32, 32), 128)");
    ts::FragmentTable t = f.evaluate();
    ts::LayoutTable inv = f.inverse().evaluate();
    ASSERT_EQ(inv.inputShape, (ts::Shape{8, 128}));
    for (std::int64_t c = 0; c < t.cells(); ++c) {
        std::int64_t q = t.local[c] * 128 + t.threads[c];
        ASSERT_EQ(inv.out[q * 3] * 32 + inv.out[q * 3 + 1], c);
        ASSERT_EQ(inv.out[q * 3 + 2], 0);
    }
}

TEST(MappingLanguage, AcceptsPastedTileLangCode) {
    // An assignment, newlines, comments and keyword arguments in any order.
    ts::Fragment f = fragment(
        "frag = T.Fragment(\n    [8, 8],  # an mma atom\n    forward_index_fn=lambda i, j: j % 2,\n"
        "    forward_thread_fn=lambda i, j: 4 * i + j // 2,\n)");
    EXPECT_EQ(f.threadExtent(), 32);
    ts::Fragment g =
        fragment("T.Fragment([8, 8], forward_fn=lambda i, j: (4 * i + j // 2, j % 2))");
    EXPECT_EQ(g.evaluate().threads, f.evaluate().threads);
    EXPECT_EQ(g.evaluate().local, f.evaluate().local);
    // Method chains as in examples/plot_layout/fragment_mma_load_a.py.
    ts::Fragment block =
        fragment("make_mma_load_base_layout(dtype=\"float16\", matrix=\"A\").repeat([2, 1], "
                 "repeat_on_thread=True)"
                 ".replicate(2).repeat([4, 2], repeat_on_thread=False, lower_dim_first=False)");
    EXPECT_EQ(block.inputShape(), (ts::Shape{128, 32}));
    EXPECT_EQ(block.threadExtent(), 128);
    EXPECT_EQ(block.replicate(), 2);
    // tilelang.language.* and T.* prefixes of builtins resolve too.
    EXPECT_NO_THROW(ts::parseMapping("T.make_swizzled_layout((32, 64), \"float16\")"));
}

TEST(MappingLanguage, CopyAsTileLangRebuildsTheSameCells) {
    for (const char* s :
         {"make_gemm_c_fragment((64, 64), 128)",
          "make_full_bank_swizzled_layout((8, 64), \"float16\")",
          "T.Fragment([64], forward_thread_fn=lambda i, rep: i % 4 * 32 + rep, replicate=32)",
          "make_mma_swizzle_layout((16, 64), \"float16\")"}) {
        ts::Mapping m = ts::parseMapping(s);
        std::string code = ts::toTileLangCode(m);
        ts::Mapping back = ts::parseMapping(code);
        ASSERT_EQ(m.index(), back.index()) << code;
        if (auto* f = std::get_if<ts::Fragment>(&m)) {
            auto a = f->evaluate(), b = std::get<ts::Fragment>(back).evaluate();
            EXPECT_EQ(a.threads, b.threads) << code;
            EXPECT_EQ(a.local, b.local) << code;
        } else {
            EXPECT_EQ(std::get<ts::Layout>(m).evaluate().out,
                      std::get<ts::Layout>(back).evaluate().out)
                << code;
        }
    }
}

struct BadMapping {
    const char* text;
    const char* message;
};

TEST(MappingLanguage, BadInputGetsAClearErrorWithItsPosition) {
    const BadMapping cases[] = {
        {"T.Layout([4, 4], lambda i: i)",
         "forward_fn takes 1 parameter, but the shape has 2 dimensions"},
        {"T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, replicat=2)",
         "unknown keyword 'replicat'"},
        {"make_nosuch_layout((8, 8))", "unknown name 'make_nosuch_layout'"},
        {"make_full_bank_swizzled_layout((30, 64), \"float16\")",
         "illegal shape for make_full_bank_swizzled_layout"},
        {"make_full_bank_swizzled_layout((32, 64), \"float17\")", "unknown dtype \"float17\""},
        {"T.Layout([100000, 100000], lambda i, j: i)", "more than 16777216 cells"},
        {"T.Layout([0, 4], lambda i, j: i)", "non-positive extent"},
        {"T.Layout([4, 4], lambda i, j: (j, i)).repeat(5, 2)", "dim 5 is out of range"},
        {"T.Fragment([8], forward_thread_fn=lambda i: i, replicate=0)", "replicate must be >= 1"},
        {"T.Layout([4, 4], lambda i, j: (j, i)).nosuch()", "Layout has no method 'nosuch'"},
        {"T.Layout([4, 4], lambda i, j: k)", "unknown name 'k'"},
        {"42", "not a layout"},
        {"T.Fragment([8, 8], forward_thread_fn=lambda i, j: i, forward_fn=lambda i, j: (i, j))",
         "not both"},
        {"make_gemm_c_fragment((24, 24), 128)", "M divisible by 16"},
        {"make_gemm_c_fragment((32, 32), 96)", "no warp partition"},
    };
    for (const auto& c : cases) {
        try {
            ts::parseMapping(c.text);
            ADD_FAILURE() << "no error for " << c.text;
        } catch (const ts::ParseError& e) {
            EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
                << c.text << " -> " << e.what();
            EXPECT_GT(e.column(), 0u) << c.text;
        } catch (const std::exception& e) {
            ADD_FAILURE() << c.text << " threw a non-positional error: " << e.what();
        }
    }
}

// A value the tables cannot hold names its cell as the grid and every other message do, (i, j),
// and says the value itself; "thread 0 ... at flat cell 4" read like thread number 0 at a
// position the user never sees.
TEST(MappingLanguage, ABadThreadOrSlotNamesItsCellAndValue) {
    const BadMapping cases[] = {
        {"T.Fragment([16,16], forward_thread_fn=lambda i,j: (i//2)*4 + j//4 - 1, "
         "forward_index_fn=lambda i,j: (i%2)*4 + j%4)",
         "the thread of cell (0, 0) is -1"},
        // Row-major flat cell 4 of a 4x4 grid is (1, 0).
        {"T.Fragment([4, 4], forward_thread_fn=lambda i, j: j - i, forward_index_fn=lambda i, j: "
         "j)",
         "the thread of cell (1, 0) is -1"},
        {"T.Fragment([4, 4], forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j - "
         "2)",
         "the local index of cell (0, 0) is -2"},
        {"T.Fragment([4, 4], forward_thread_fn=lambda i, j: i, "
         "forward_index_fn=lambda i, j: (i, j - 3))",
         "local index 1 of cell (0, 0) is -3"},
        // The replica's thread table holds two entries per cell: cell (2), not entry 5.
        {"T.Fragment([4], forward_thread_fn=lambda i, rep: i + rep * (1 - 2 * i), replicate=2)",
         "the thread of cell (2) (replica 1) is -1"},
        {"T.Layout([4, 4], lambda i, j: (i - 8, j))", "output 0 of cell (0, 0) is -8"},
        {"T.Layout([4, 4], lambda i, j: (i, j - i))", "output 1 of cell (1, 0) is -1"},
        {"T.Layout([2, 3], lambda i, j: i * 3 + j - 4)", "the output of cell (0, 0) is -4"},
        {"T.Fragment([2, 4096], forward_thread_fn=lambda i, j: i * 1048576 + j, "
         "forward_index_fn=lambda i, j: 0)",
         "the thread of cell (1, 0) is 1048576, over the limit of 1048576 threads (0 to 1048575)"},
    };
    for (const auto& c : cases) {
        try {
            const ts::Mapping m = ts::parseMapping(c.text);
            if (const auto* f = std::get_if<ts::Fragment>(&m))
                (void)f->evaluate();
            else
                (void)std::get<ts::Layout>(m).evaluate();
            ADD_FAILURE() << "no error for " << c.text;
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
                << c.text << " -> " << e.what();
            EXPECT_EQ(std::string(e.what()).find("flat"), std::string::npos) << e.what();
        }
    }
}

// README.md's list of builtins is written by hand: a builtin added to the registry and not to
// the README fails here, naming it.
TEST(MappingLanguage, ReadmeNamesEveryBuiltin) {
    std::ifstream in(std::string(TILESCOPE_SOURCE_DIR) + "/README.md");
    ASSERT_TRUE(in);
    const std::string readme((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
    for (const ts::Builtin& b : ts::builtins())
        EXPECT_NE(readme.find("`" + b.name + "`"), std::string::npos)
            << b.name << " is not named in README.md's list of builtins";
}

TEST(MappingLanguage, EveryBuiltinListedInHelpEvaluatesWithItsDefaults) {
    // Builtins whose only required parameter is a shape get a legal one.
    const std::map<std::string, std::string> calls{
        {"make_gemm_c_fragment", "((32, 32))"},
        {"make_mma_load_layout", "((64, 64), 32)"},
        {"make_mfma_load_layout", "((64, 64), 32)"},
        {"make_wgmma_c_fragment", "((64, 64))"},
        {"make_fully_replicated_partial_fragment", "((4,), 8)"},
        {"make_fully_replicated_fragment", "((4, 4), 8)"},
        {"make_fully_replicated_layout_fragment", "((4,), 8)"}};
    for (const ts::Builtin& b : ts::builtins()) {
        std::string args = "()";
        if (auto it = calls.find(b.name); it != calls.end())
            args = it->second;
        else if (!b.params.empty() && b.params[0].kind == ts::ParamKind::Shape)
            args = "((32, 64))";
        ts::Mapping m;
        ASSERT_NO_THROW(m = ts::parseMapping(b.name + args)) << b.name << args;
        EXPECT_NO_THROW(std::visit([](const auto& v) { v.evaluate(); }, m)) << b.name;
        EXPECT_FALSE(b.summary.empty());
    }
}

} // namespace
