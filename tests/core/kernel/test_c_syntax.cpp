// SPDX-License-Identifier: Apache-2.0
// The C reader of the kernel X-ray: what TileLang's code generator writes, and clear errors.
#include "tilescope/kernel/c_syntax.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

using namespace ts::c;

TEST(CSyntax, TokensSkipCommentsAndPreprocessorLinesAndKeepLines) {
    auto t =
        tokenize("#include <x.h>\n/* a\n b */ int x = 0x1p+0f; // c\n  tl::cp_async_gs<16>(p);");
    ASSERT_GE(t.size(), 6u);
    EXPECT_EQ(t[0].text, "int");
    EXPECT_EQ(t[0].line, 3);
    EXPECT_EQ(t[3].kind, Token::Float);
    auto it = std::find_if(t.begin(), t.end(),
                           [](const Token& k) { return k.text == "tl::cp_async_gs"; });
    ASSERT_NE(it, t.end());
    EXPECT_EQ(it->line, 4);
    EXPECT_EQ(it->column, 3);
}

TEST(CSyntax, UnterminatedCommentNamesItsLine) {
    try {
        tokenize("int a;\n/* open\n");
        FAIL() << "no error";
    } catch (const ts::ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("unterminated comment"), std::string::npos);
    }
}

TEST(CSyntax, KernelHeadLaunchBoundsParamsAndBody) {
    const auto u = parse(R"(#include <tl_templates/cuda/copy.h>
extern "C" __global__ void k(half_t* __restrict__ A, int n);
extern "C" __global__ void __launch_bounds__(256, 1) k(half_t* __restrict__ A, int n) {
  extern __shared__ __align__(1024) uchar buf_dyn_shmem[];
  void* A_s = ((void*)((char*)buf_dyn_shmem + 512));
  for (int i = 0; i < 4; ++i) {
    *(uint4*)(((half_t*)A_s) + (i * 8)) = *(uint4*)(A + i);
  }
})");
    ASSERT_EQ(u.functions.size(), 1u); // the declaration has no body
    const Function& f = u.functions[0];
    EXPECT_TRUE(f.global);
    EXPECT_EQ(f.name, "k");
    EXPECT_EQ(f.launch_bounds, 256);
    EXPECT_EQ(f.min_blocks, 1);
    ASSERT_EQ(f.params.size(), 2u);
    EXPECT_EQ(f.params[0].type, "half_t*");
    EXPECT_EQ(f.params[1].name, "n");
    ASSERT_EQ(u.includes.size(), 1u);
    ASSERT_TRUE(f.body);
    ASSERT_EQ(f.body->body.size(), 3u);
    EXPECT_EQ(f.body->body[0]->kind, Stmt::Decl);
    EXPECT_TRUE(f.body->body[0]->decls[0].shared);
    EXPECT_TRUE(f.body->body[0]->decls[0].extern_);
    EXPECT_EQ(f.body->body[0]->decls[0].align, 1024);
    EXPECT_EQ(f.body->body[1]->decls[0].type, "void*");
    EXPECT_EQ(f.body->body[2]->kind, Stmt::For);
}

TEST(CSyntax, CastsTemplatesTernariesAndPrecedence) {
    const auto u = parse(R"(__global__ void __launch_bounds__(32) k() {
  int a = (((int)threadIdx.x) >> 2) * 8 + ((int)threadIdx.x & 1 ? 3 : 4);
  tl::AllReduce<tl::SumOp, 128, 1, 0, tl::NamedBarrier<128>>::run(x, (&(((float*)w)[0])));
  auto m = reinterpret_cast<Barrier*>(mem);
})");
    const auto& body = u.functions.at(0).body->body;
    ASSERT_EQ(body.size(), 3u);
    const Expr& init = *body[0]->decls[0].init;
    EXPECT_EQ(init.kind, Expr::Binary);
    EXPECT_EQ(init.op, "+"); // * binds tighter than +, the ternary is parenthesised
    EXPECT_EQ(init.b->kind, Expr::Ternary);
    const Expr& call = *body[1]->expr;
    EXPECT_EQ(call.kind, Expr::Call);
    EXPECT_EQ(call.text, "tl::AllReduce::run");
    EXPECT_NE(call.templ.find("128"), std::string::npos);
    EXPECT_EQ(body[2]->decls[0].init->kind, Expr::Cast);
    EXPECT_EQ(body[2]->decls[0].init->text, "Barrier*");
}

TEST(CSyntax, AStatementItCannotReadIsKeptOpaqueNotDropped) {
    const auto u = parse(R"(__global__ void __launch_bounds__(32) k() {
  asm volatile("bar.sync 0;" ::: "memory");
  int b = 1;
})");
    const auto& body = u.functions.at(0).body->body;
    ASSERT_EQ(body.size(), 2u);
    EXPECT_EQ(body[0]->kind, Stmt::Opaque);
    EXPECT_NE(body[0]->text.find("inline assembly"), std::string::npos);
}

TEST(CSyntax, AnUnclosedBodyIsAnErrorWithItsLine) {
    try {
        parse("__global__ void __launch_bounds__(32) k() {\n  int a = 1;\n  {\n");
        FAIL() << "no error";
    } catch (const ts::ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("missing '}'"), std::string::npos) << e.what();
    }
}

TEST(CSyntax, TypeSizes) {
    EXPECT_EQ(typeBytes("half_t"), 2);
    EXPECT_EQ(typeBytes("uint4"), 16);
    EXPECT_EQ(typeBytes("float2"), 8);
    EXPECT_EQ(typeBytes("signed char"), 1);
    EXPECT_EQ(typeBytes("fp8_e4_t"), 1);
    EXPECT_EQ(typeBytes("Barrier"), 0);
}
