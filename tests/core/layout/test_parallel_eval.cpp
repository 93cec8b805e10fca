// SPDX-License-Identifier: Apache-2.0
// Evaluation split across threads (grids over ~1M cells) gives exactly what one thread gives,
// and a failure names the same first failing cell.
#include "../../../core/layout/src/layout_eval.h"

#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

namespace {

using ts::detail::forEachBatchChunked;

// Every output of `exprs` over `shape`, cell-major, evaluated in `chunks` chunks.
std::vector<std::int64_t> evalAll(const ts::Shape& shape, const std::vector<ts::Expr>& exprs,
                                  std::size_t chunks) {
    const std::size_t outs = exprs.size();
    std::vector<std::int64_t> v(std::size_t(ts::cellCount(shape)) * outs, -7);
    forEachBatchChunked(shape, exprs, 0, chunks,
                        [&](std::size_t, std::int64_t first, std::size_t n, const auto& o) {
                            for (std::size_t p = 0; p < n; ++p)
                                for (std::size_t k = 0; k < outs; ++k)
                                    v[(std::size_t(first) + p) * outs + k] = o[k][p];
                        });
    return v;
}

std::vector<ts::Expr> exprs(std::initializer_list<const char*> texts, std::size_t rank) {
    std::vector<std::string> vars;
    for (std::size_t k = 0; k < rank; ++k)
        vars.push_back(ts::placeholderName(k));
    vars.push_back("_rep");
    std::vector<ts::Expr> e;
    for (const char* t : texts) {
        std::string s = t;
        for (std::size_t k = 0; k < rank; ++k) {
            const std::string from(1, char('a' + k)), to = ts::placeholderName(k);
            for (std::size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size())
                s.replace(at, 1, to);
        }
        e.push_back(ts::parseExpr(s, vars, ts::ExprDialect::Python));
    }
    return e;
}

TEST(ParallelEval, ChunksAgreeWithOneThread) {
    // 1100 columns: chunk borders fall inside rows, not on a batch of whole rows.
    const ts::Shape shape{1024, 1100};
    // Separable sums (tabulated), an XOR swizzle (per cell) and a product (per cell).
    const auto e =
        exprs({"a // 16 * 64 + b % 8 * 4 + b // 8", "b ^ (a % 8) * 8", "a * b % 977"}, 2);
    const auto one = evalAll(shape, e, 1);
    for (std::size_t chunks : {2, 3, 7}) {
        const auto many = evalAll(shape, e, chunks);
        ASSERT_EQ(many, one) << chunks << " chunks";
    }
    EXPECT_EQ(one[(std::size_t(1023) * 1100 + 1099) * 3 + 1], 1099 ^ (1023 % 8) * 8);
    // Rank 3 with the outer coordinates split by the chunks.
    const ts::Shape s3{16, 256, 300};
    const auto e3 = exprs({"a * 1000 + b * 3 + c", "(a + b) ^ c"}, 3);
    EXPECT_EQ(evalAll(s3, e3, 3), evalAll(s3, e3, 1));
}

TEST(ParallelEval, FirstFailingCellComesFromTheLowestChunk) {
    const ts::Shape shape{1024, 1024};
    // Fails on rows 300 and 900, which fall in different chunks: row 300 is the first.
    const auto e = exprs({"1 // ((a - 300) * (a - 900) + b * 0)"}, 2);
    for (std::size_t chunks : {1, 2, 3}) {
        try {
            evalAll(shape, e, chunks);
            FAIL() << "no error with " << chunks << " chunks";
        } catch (const ts::EvalError& err) {
            EXPECT_EQ(err.cell(), (std::vector<std::int64_t>{300, 0})) << chunks << " chunks";
        }
    }
}

TEST(ParallelEval, LargeTablesMatchAcrossTheThreshold) {
    // Above kParallelCells the tables are written by several threads (where there are several
    // cores); compare with the thread expression evaluated in one chunk.
    const ts::Mapping m = ts::parseMapping("make_gemm_c_fragment((2048, 1024), 128)");
    const auto& f = std::get<ts::Fragment>(m);
    const ts::FragmentTable t = f.evaluate();
    ASSERT_EQ(t.threads.size(), std::size_t(2048) * 1024);
    const auto ref = evalAll(ts::Shape{2048, 1024}, {f.thread()}, 1);
    ASSERT_EQ(t.threads, ref);
    EXPECT_EQ(t.threadExtent, 128);
}

} // namespace
