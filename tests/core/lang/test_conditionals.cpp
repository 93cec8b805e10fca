// SPDX-License-Identifier: Apache-2.0
// Comparisons, truth values and conditionals: what TVM prints (dump text), what TileLang's Python
// accepts and refuses (mapping text), how they evaluate on every path, and 1-tuples.
#include "tilescope/banks/access.h"
#include "tilescope/lang/expr_eval.h"
#include "tilescope/lang/simplify.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace {

const std::vector<std::string> kVars{"_i", "_j", "_rep"};

ts::Expr dump(const std::string& s) {
    return ts::parseExpr(s, kVars, ts::ExprDialect::Printed);
}

std::vector<std::int64_t> overI(const ts::Expr& e, std::int64_t n, std::int64_t j = 0) {
    std::vector<std::int64_t> v;
    for (std::int64_t i = 0; i < n; ++i)
        v.push_back(ts::evaluatePoint(e, [&](const std::string& name) {
            return name == "_i" ? i : name == "_j" ? j : 0;
        }));
    return v;
}

using V = std::vector<std::int64_t>;

// The forms below are what TileLang 0.1.15 printed (str(layout)) for layouts built with
// comparisons, T.if_then_else, T.Select, T.And/T.Or/T.Not, T.abs and T.likely, with the values
// TileLang's map_forward_index gave for _i = 0..7.
TEST(Conditionals, TVMsPrintedFormsEvaluateAsTileLangDid) {
    EXPECT_EQ(overI(dump("T.if_then_else(_i < 4 and 1 < _i, _i, 7 - _i)"), 8),
              (V{7, 6, 2, 3, 3, 2, 1, 0}));
    EXPECT_EQ(overI(dump("T.if_then_else(_i < 2 or 5 < _i, _i, 0)"), 8),
              (V{0, 1, 0, 0, 0, 0, 6, 7}));
    EXPECT_EQ(overI(dump("T.if_then_else(_i != 2, _i, 0)"), 8), (V{0, 1, 0, 3, 4, 5, 6, 7}));
    EXPECT_EQ(overI(dump("T.Select(4 <= _i, _i - 4, 4 - _i)"), 8), (V{4, 3, 2, 1, 0, 1, 2, 3}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", _i < 4) * 2 + _i"), 8), (V{2, 3, 4, 5, 4, 5, 6, 7}));
    // TVMScript folds a comparison chain left: (_i < 4) < (_i < 2) is never true.
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", _i < 4 < (_i < 2))"), 8), (V(8, 0)));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", T.Cast(\"int32\", _i < 4) == 1)"), 8),
              (V{1, 1, 1, 1, 0, 0, 0, 0}));
    EXPECT_EQ(overI(dump("T.if_then_else(T.likely(_i < 2), _i, 0)"), 8),
              (V{0, 1, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(overI(dump("T.if_then_else(_i < 4, T.Cast(\"int64\", _i), T.int64(3))"), 8),
              (V{0, 1, 2, 3, 3, 3, 3, 3}));
    EXPECT_EQ(overI(dump("T.if_then_else(_i < 4, T.Select(_i < 2, 0, 1), "
                         "T.if_then_else(_i == 7, 7, 3))"),
                    8),
              (V{0, 0, 1, 1, 3, 3, 3, 7}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", T.min(_i < 4, _i < 2)) * 3"), 8),
              (V{3, 3, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", (_i < 4) * (_i < 2)) * 3"), 8),
              (V{3, 3, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", T.if_then_else(_i < 4, T.bool(True), _i < 6)) * 3"), 8),
              (V{3, 3, 3, 3, 3, 3, 0, 0}));
    EXPECT_EQ(overI(dump("T.if_then_else(_i < 4, T.Cast(\"int32\", _i < 2), 5)"), 8),
              (V{1, 1, 0, 0, 5, 5, 5, 5}));
    EXPECT_EQ(overI(dump("T.Select(_i - _j >= 0, _i - _j, 0 - (_i - _j))"), 8, 3),
              (V{3, 2, 1, 0, 1, 2, 3, 4}));
    // Printed by TVM for tir.Not / tir.And / tir.Or trees and a constant operand.
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", not _i < 4 and _j < 2)"), 8, 1),
              (V{0, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", not (_i < 4 and _j < 2))"), 8, 1),
              (V{0, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", _i < 1 or _j < 2 and _i < 3)"), 8, 5),
              (V{1, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", not not _i < 4)"), 8), (V{1, 1, 1, 1, 0, 0, 0, 0}));
    EXPECT_EQ(overI(dump("T.if_then_else(T.And(T.bool(True), _i < 4), 1, 0)"), 8),
              (V{1, 1, 1, 1, 0, 0, 0, 0}));
    EXPECT_EQ(overI(dump("T.Cast(\"int32\", _i < 4 == (_j == 2))"), 8, 2),
              (V{1, 1, 1, 1, 0, 0, 0, 0}));
}

TEST(Conditionals, PrintedTextKeepsTVMsMeaningInBothDialects) {
    auto p = [](const std::string& s) { return ts::printExpr(dump(s)); };
    EXPECT_EQ(p("T.Cast(\"int32\", _i < 4) * 2 + _i"), "T.Cast(\"int32\", _i < 4) * 2 + _i");
    EXPECT_EQ(p("T.if_then_else(_i < 4 and 1 < _i, _i, 7 - _i)"),
              "T.if_then_else(T.And(_i < 4, 1 < _i), _i, 7 - _i)");
    EXPECT_EQ(p("T.if_then_else(not _i < 4 or _j == 2, 1, 0)"),
              "T.if_then_else(T.Or(T.Not(_i < 4), _j == 2), 1, 0)");
    // A comparison inside a comparison gets parentheses: Python would chain it.
    EXPECT_EQ(p("T.Cast(\"int32\", _i < 4 < (_j < 2))"), "T.Cast(\"int32\", (_i < 4) < (_j < 2))");
    EXPECT_EQ(p("(_i < 4) * 2 + (_j >= 3)"), "(_i < 4) * 2 + (_j >= 3)");
    EXPECT_EQ(p("T.Select(_i <= 3, _i, -_i) * 2"), "T.Select(_i <= 3, _i, -_i) * 2");
    EXPECT_EQ(p("_i < -3"), "_i < -3");
    // A truth value built through the API in an integer position still prints as an integer;
    // and an integer in a truth position as a comparison.
    EXPECT_EQ(
        ts::printExpr(ts::ternary(ts::Op::Select, ts::var("_i"), ts::constant(1), ts::constant(2))),
        "T.Select(_i != 0, 1, 2)");
    EXPECT_EQ(
        ts::printExpr(ts::ternary(ts::Op::Select, ts::constant(1), ts::var("_i"), ts::constant(2))),
        "T.Select(T.bool(True), _i, 2)");
}

TEST(Conditionals, BuildersRefuseAWrongOperandCount) {
    const ts::Expr i = ts::var("_i");
    EXPECT_THROW(ts::binary(ts::Op::Neg, i, i), std::invalid_argument);
    EXPECT_THROW(ts::binary(ts::Op::Select, i, i), std::invalid_argument);
    EXPECT_THROW(ts::unary(ts::Op::Add, i), std::invalid_argument);
    EXPECT_THROW(ts::ternary(ts::Op::Lt, i, i, i), std::invalid_argument);
    EXPECT_THROW(ts::ternary(ts::Op::Select, i, i, nullptr), std::invalid_argument);
    static_assert(ts::arity(ts::Op::Select) == 3 && ts::arity(ts::Op::Not) == 1 &&
                  ts::arity(ts::Op::Lt) == 2 && ts::arity(ts::Op::Var) == 0);
    // Generic passes see the third operand.
    const ts::Expr s =
        ts::ternary(ts::Op::Select, ts::binary(ts::Op::Lt, i, ts::constant(4)), i, ts::var("_j"));
    std::set<std::string> vars;
    ts::collectVars(s, vars);
    EXPECT_EQ(vars, (std::set<std::string>{"_i", "_j"}));
    EXPECT_EQ(ts::exprSize(s), 6u);
    EXPECT_FALSE(ts::structurallyEqual(s, ts::ternary(ts::Op::Select, s->a, i, ts::constant(0))));
    const ts::Expr r = ts::substitute(
        s, [](const std::string& n) -> ts::Expr { return n == "_j" ? ts::constant(9) : nullptr; });
    EXPECT_EQ(ts::printExpr(r), "T.Select(_i < 4, _i, 9)");
}

std::string refusal(const std::string& text) {
    try {
        const ts::Mapping m = ts::parseMapping(text);
        (void)ts::tableJson(m);
    } catch (const ts::ParseError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

void expectRefused(const std::string& text, const std::string& part) {
    const std::string e = refusal(text);
    EXPECT_NE(e.find(part), std::string::npos) << text << "\n  gave: '" << e << "'";
}

// Python evaluates a lambda before TileLang sees it: a truth test of a value that depends on the
// parameters raises in TileLang ("Cannot use and / or / not operator to Expr"), except `==`/`!=`,
// which TVM answers by object identity. Tilescope refuses all of them, saying why.
TEST(Conditionals, PythonTruthTestsOfExpressionsAreRefused) {
    const std::string tvm = "Cannot use and / or / not operator to Expr";
    expectRefused("T.Layout([8], lambda i: i if i < 4 else 7 - i)", tvm);
    expectRefused("T.Layout([8], lambda i: i if i < 4 else 7 - i)", "T.if_then_else");
    expectRefused("T.Layout([8], lambda i: (i < 4 and i > 1) * 1)", tvm);
    expectRefused("T.Layout([8], lambda i: (i < 4 or i > 1) * 1)", tvm);
    expectRefused("T.Layout([8], lambda i: (not (i < 4)) * 1)", tvm);
    expectRefused("T.Layout([8], lambda i: (1 < i < 4) * 1)", "chained comparison");
    expectRefused("T.Layout([8], lambda i: i if i == 4 else 0)", "object identity");
    expectRefused("T.Layout([8], lambda i: i if i != 4 else 0)", "object identity");
    // The column points at the condition (its operator, as for every binary operation).
    try {
        ts::parseMapping("T.Layout([8], lambda i: i if i < 4 else 7 - i)");
        FAIL();
    } catch (const ts::ParseError& e) {
        EXPECT_EQ(e.column(), 32u) << e.what();
    }
}

TEST(Conditionals, PythonConditionalsOnPlainValuesAreKept) {
    auto forward = [](const std::string& text) {
        return ts::printExpr(std::get<ts::Layout>(ts::parseMapping(text)).forward()[0]);
    };
    EXPECT_EQ(forward("T.Layout([8], lambda i: i if 8 > 4 else 7 - i)"), "_i");
    EXPECT_EQ(forward("T.Layout([8], lambda i: i if not 1 else 7 - i)"), "-_i + 7");
    EXPECT_EQ(forward("T.Layout([8], lambda i: (1 and i) + (0 or 2))"), "_i + 2");
    EXPECT_EQ(forward("T.Layout([8], lambda i: (0 and i // 0) + i)"), "_i"); // not evaluated
    EXPECT_EQ(forward("T.Layout([8], lambda i: i * (1 < 2 < 3) + (3 < 2 < 1))"), "_i");
    EXPECT_EQ(forward("T.Layout([8], lambda i: i + (2 == 2) + (1 >= 2))"), "_i + 1");
    EXPECT_EQ(forward("T.Layout([8], lambda i: T.if_then_else(True, i, 0))"), "_i");
    EXPECT_EQ(forward("T.Layout([8], lambda i: T.Select(1 > 2, 0, i))"), "_i");
    EXPECT_EQ(forward("T.Layout([8], lambda i: T.abs(i - 4))"),
              "T.Select(_i - 4 >= 0, _i - 4, -(_i - 4))");
}

// TVM's types: a comparison is a bool; it becomes 0/1 where it meets an integer; a bool layout
// output that can be 1 fails; T.if_then_else / T.Select need a bool condition; T.And/T.Or/T.Not
// need bools; an operator other than * on two bools keeps the bool type and fails.
TEST(Conditionals, TruthValuesFollowTVMsTypes) {
    expectRefused("T.Layout([8], lambda i: i < 4)", "truth value");
    expectRefused("T.Layout([8], lambda i: (i, i >= 2))", "output 2 is a truth value");
    expectRefused("T.Fragment([8], forward_thread_fn=lambda i: i // 2, forward_index_fn=lambda i: "
                  "i % 2 == 0)",
                  "truth value");
    expectRefused("T.Fragment([8], forward_fn=lambda i: (i < 4, i))", "thread is a truth value");
    expectRefused("T.Layout([8], lambda i: (i < 4) + (i < 2))", "of two truth values");
    expectRefused("T.Layout([8], lambda i: T.bitwise_and(i < 4, i > 1) * 1)",
                  "of two truth values");
    expectRefused("T.Layout([8], lambda i: -(i < 4) + 1)", "of a truth value");
    expectRefused("T.Layout([8], lambda i: ~(i < 4) + 1)", "of a truth value");
    expectRefused("T.Layout([8], lambda i: T.if_then_else(i, 1, 0))", "needs a truth value");
    expectRefused("T.Layout([8], lambda i: T.if_then_else(1, i, 0))", "needs a truth value");
    expectRefused("T.Layout([8], lambda i: T.Select(i < 4, i < 2, 5))", "mismatched types");
    expectRefused("T.Layout([8], lambda i: T.if_then_else(T.And(i, 1), i, 0))", "truth values");
    expectRefused("T.Layout([8], lambda i: T.if_then_else(T.Not(i), i, 0))", "truth value");
    expectRefused("T.Layout([8], lambda i: T.if_then_else(T.bool(2), i, 0))", "exceeds range");
    expectRefused("T.Layout([8], lambda i: T.if_then_else(T.Cast(\"bool\", i), i, 0))",
                  "exceeds range");
    expectRefused("T.Layout([8], lambda i: T.if_then_else(i < 4, i))", "takes 3 arguments");
    expectRefused("T.Layout([8], lambda i: i in (1, 2))", "'in' comparisons are not supported");
    expectRefused("T.Layout([8], lambda i: i is 1)", "'is' comparisons are not supported");
    expectRefused("T.Layout([8], lambda i: i if i < 4)", "expected 'else'");
    expectRefused("T.Layout([8], lambda i: and)", "unexpected keyword 'and'");

    auto table = [](const std::string& text) {
        return ts::tableJson(ts::parseMapping(text)).at("cells");
    };
    // Accepted, as TileLang does: a cast or a product makes an integer; a bool output that is
    // always 0 is fine; a product of two bools stays within 0..1.
    EXPECT_EQ(table("T.Layout([4], lambda i: (T.Cast(\"int32\", i < 2), i))"),
              table("T.Layout([4], lambda i: (1 - i // 2, i))"));
    EXPECT_EQ(table("T.Layout([4], lambda i: ((i < 2) * 1, i >= 9))"),
              table("T.Layout([4], lambda i: (1 - i // 2, 0))"));
    EXPECT_EQ(table("T.Layout([8, 8], lambda i, j: (i < 4) * (j < 4) * 64 + i * 8 + j)"),
              table("T.Layout([8, 8], lambda i, j: (1 - i // 4) * (1 - j // 4) * 64 + i * 8 + j)"));
    EXPECT_EQ(table("T.Layout([8], lambda i: T.if_then_else(T.Or(i < 2, T.Not(i < 6)), 1, 0))"),
              table("T.Layout([8], lambda i: T.if_then_else(T.Or(i < 2, i >= 6), T.int32(1), "
                    "T.int64(0)))"));
    EXPECT_EQ(table("T.Layout([8], lambda i: T.if_then_else(T.likely(T.EQ(i, 3)), 1, 0))"),
              table("T.Layout([8], lambda i: T.if_then_else(i == 3, 1, 0))"));
}

// TVM evaluates a layout at a point by substituting and folding every subterm, so a division by
// zero fails the cell even in the branch not taken, for T.Select and T.if_then_else alike
// (TileLang: "Divide by zero" at i = 7 for both). A condition the simplifier decides when the
// layout is built drops its other branch, as TVM's does (TileLang prints `_i` for the first layout
// below).
TEST(Conditionals, BranchesAreEvaluatedAsTVMEvaluatesThem) {
    for (const char* fn : {"T.Select", "T.if_then_else"}) {
        const std::string text =
            std::string("T.Layout([8], lambda i: ") + fn + "(i != 7, 7 // (i - 7), 0))";
        const ts::Layout l = std::get<ts::Layout>(ts::parseMapping(text));
        try {
            (void)l.evaluate();
            ADD_FAILURE() << text;
        } catch (const ts::EvalError& e) {
            EXPECT_EQ(e.cell(), (std::vector<std::int64_t>{7})) << e.what();
        }
        EXPECT_THROW(ts::evaluatePoint(l.forward()[0], [](const std::string&) { return 7; }),
                     ts::EvalError);
        EXPECT_EQ(ts::evaluatePoint(l.forward()[0], [](const std::string&) { return 6; }), -7);
        // The compiled program names the same point, with or without variable ranges (the
        // divisor's range includes 0, so both run the 64-bit path here).
        for (bool narrow : {false, true}) {
            std::unique_ptr<ts::Program> p =
                narrow ? std::make_unique<ts::Program>(l.forward(), std::vector<std::string>{"_i"},
                                                       std::vector<std::int64_t>{8})
                       : std::make_unique<ts::Program>(l.forward(), std::vector<std::string>{"_i"});
            std::vector<std::int64_t> in{0, 1, 2, 3, 4, 5, 6, 7}, out(8);
            const std::int64_t* ins[] = {in.data()};
            std::int64_t* outs[] = {out.data()};
            std::size_t bad = 0;
            std::string msg;
            EXPECT_FALSE(p->run(ins, outs, 8, bad, msg));
            EXPECT_EQ(bad, 7u);
            EXPECT_EQ(msg, "division by zero");
        }
    }
    const ts::Layout dead = std::get<ts::Layout>(
        ts::parseMapping("T.Layout([8], lambda i: T.if_then_else(i < 8, i, i // (i - 7)))"));
    EXPECT_EQ(ts::printExpr(dead.forward()[0]), "_i");
    EXPECT_NO_THROW((void)dead.evaluate());
}

// The 32-bit path is taken only when both branches (and the condition) fit in 32 bits.
TEST(Conditionals, NarrowPathOnlyWhenEveryBranchFits) {
    const std::vector<std::string> vars{"_i", "_j"};
    const std::vector<std::int64_t> ext{16, 16};
    EXPECT_TRUE(ts::Program({dump("T.Select(_i < 2, _i * 64, _j)")}, vars, ext).narrow());
    EXPECT_TRUE(ts::Program({dump("(_i < _j) * 64 + T.Not(_i == 3)")}, vars, ext).narrow());
    // Each branch fits, but what is computed from the choice does not.
    for (const char* text : {"T.Select(_i < 2, 0, _i * 65536) * 65536",
                             "T.if_then_else(_i < 2, _i * 65536, _j) * 65536"}) {
        const ts::Program p({dump(text)}, vars, ext);
        EXPECT_FALSE(p.narrow()) << text;
        std::vector<std::int64_t> is{0, 3}, js{5, 5}, out(2);
        const std::int64_t* in[] = {is.data(), js.data()};
        std::int64_t* outs[] = {out.data()};
        std::size_t bad = 0;
        std::string msg;
        ASSERT_TRUE(p.run(in, outs, 2, bad, msg));
        for (std::size_t k = 0; k < 2; ++k)
            EXPECT_EQ(out[k], ts::evaluatePoint(dump(text), [&](const std::string& n) {
                          return n == "_i" ? is[k] : js[k];
                      }));
    }
}

// A 2-D grid takes the tabulated path (one-coordinate terms evaluated once per row/column) and,
// with a term that mixes coordinates, the per-cell program: both must give the tree walk's values.
TEST(Conditionals, EveryEvaluationPathAgrees) {
    for (const char* text :
         {"T.Layout([40, 24], lambda i, j: T.if_then_else(i < 20, i, 39 - i) * 24 + "
          "T.Select(j % 2 == 0, j, 23 - j))",
          "T.Layout([40, 24], lambda i, j: (T.Select(T.And(i < j, T.Not(j == 3)), i, j), "
          "(i >= 8) * 100 + j))",
          "T.Fragment([32, 16], forward_thread_fn=lambda i, j, rep: T.if_then_else(i % 2 == 1, "
          "i, 31 - i) + rep * 32, forward_index_fn=lambda i, j: T.Select(j < 8, j, j - 8), "
          "replicate=2)"}) {
        SCOPED_TRACE(text);
        const ts::Mapping m = ts::parseMapping(text);
        if (const auto* l = std::get_if<ts::Layout>(&m)) {
            const ts::LayoutTable t = l->evaluate();
            const std::size_t outs = l->forward().size();
            for (std::int64_t i = 0; i < 40; ++i)
                for (std::int64_t j = 0; j < 24; ++j)
                    for (std::size_t o = 0; o < outs; ++o)
                        ASSERT_EQ(t.out[std::size_t(i * 24 + j) * outs + o],
                                  ts::evaluatePoint(l->forward()[o], [&](const std::string& n) {
                                      return n == "_i" ? i : j;
                                  }));
        } else {
            const auto& f = std::get<ts::Fragment>(m);
            const ts::FragmentTable t = f.evaluate();
            for (std::int64_t i = 0; i < 32; ++i)
                for (std::int64_t j = 0; j < 16; ++j) {
                    const std::size_t cell = std::size_t(i * 16 + j);
                    for (std::int64_t r = 0; r < 2; ++r)
                        ASSERT_EQ(t.threads[cell * 2 + std::size_t(r)],
                                  ts::evaluatePoint(f.thread(), [&](const std::string& n) {
                                      return n == "_i" ? i : n == "_j" ? j : r;
                                  }));
                    ASSERT_EQ(t.local[cell], j % 8);
                }
        }
    }
}

// "Copy as TileLang" and the mapping text of a dump layout read back to the same cells, and say
// in TileLang's terms what the language read (T.Cast keeps an integer output an integer).
TEST(Conditionals, TileLangCodeReadsBack) {
    for (const char* text :
         {"T.Layout([8, 8], lambda i, j: ((i < 4) * 1, T.if_then_else(j >= 4, j - 4, j + 4)))",
          "T.Layout([8], lambda i: (T.Cast(\"int32\", T.And(i > 1, i < 6)),))",
          "T.Fragment([16], forward_fn=lambda i: (T.Select(i < 8, i, 15 - i), (i >= 8) * 1))"}) {
        SCOPED_TRACE(text);
        const ts::Mapping m = ts::parseMapping(text);
        const std::string code = ts::toTileLangCode(m);
        EXPECT_EQ(ts::tableJson(ts::parseMapping(code)), ts::tableJson(m)) << code;
    }
    const ts::Layout l =
        std::get<ts::Layout>(ts::parseMapping("T.Layout([8, 8], lambda i, j: ((i < 4) * 1, j))"));
    EXPECT_EQ(ts::printExpr(l.forward()[0]), "T.Cast(\"int32\", _i < 4)");
    // A repr TileLang printed for a fragment whose thread map T.if_then_else makes unbounded.
    std::string note;
    const ts::Mapping r = ts::dump::parseRepr(
        "Fragment((8, 8) -> (2,), replicate: 1, thread: pos_inf, forward_thread: "
        "T.if_then_else(_i < 4, _i * 8 + _j, _j + 56 - _i * 8), forward_index: "
        "(T.Select(_i < 4, 0, 1),))",
        &note);
    EXPECT_EQ(std::get<ts::Fragment>(r).evaluate().threadExtent, 32);
    EXPECT_NE(note.find("pos_inf"), std::string::npos) << note;
}

TEST(Conditionals, OneElementTuplesAreOneElement) {
    const ts::Layout l =
        std::get<ts::Layout>(ts::parseMapping("T.Layout((8,), lambda t: (t * 3,))"));
    EXPECT_EQ(l.inputShape(), ts::Shape{8});
    ASSERT_EQ(l.forward().size(), 1u);
    EXPECT_EQ(l.outputShape(), ts::Shape{22});
    const auto f = std::get<ts::Fragment>(
        ts::parseMapping("T.Fragment((8, 8), forward_thread_fn=lambda i, j: (i * 4 + j // 2,), "
                         "forward_index_fn=lambda i, j: (j % 2,))"));
    EXPECT_EQ(f.index().size(), 1u);
    EXPECT_EQ(f.evaluate().threadExtent, 32);
    // Lane maps: `(t * 3,)` is one coordinate for a 1-D layout, `(t, 0)` two for a 2-D one.
    const ts::SharedTile tile(
        std::get<ts::Layout>(ts::parseMapping("make_linear_layout((128,), \"float32\")")),
        "float32");
    const ts::SharedAccess a = ts::buildAccess(tile, "lanes:lambda t: (t * 3,)", {});
    ASSERT_EQ(a.plan.instructions.size(), 1u);
    EXPECT_EQ(ts::analyzePlan(a.plan).wavefronts, 1); // stride 3 words: 32 distinct banks
    EXPECT_EQ(ts::analyzePlan(ts::buildAccess(tile, "lanes:lambda t: t * 4", {}).plan).wavefronts,
              4);
    try {
        ts::buildAccess(tile, "lanes:lambda t: (t, 0)", {});
        ADD_FAILURE();
    } catch (const ts::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("returns 2 coordinates"), std::string::npos);
    }
    // A conditional lane map, and one that is not a lambda.
    const ts::SharedTile tile2(
        std::get<ts::Layout>(ts::parseMapping("make_linear_layout((16, 64), \"float16\")")),
        "float16");
    EXPECT_EQ(ts::analyzePlan(ts::buildAccess(tile2,
                                              "lanes:lambda t: (t % 16, T.if_then_else(t < 16, "
                                              "0, 32))",
                                              {})
                                  .plan)
                  .wavefronts,
              16);
    // Lane maps run per lane, as Python runs a lambda on integers: the conditional forms decide
    // per value, and read the same as T.if_then_else.
    EXPECT_EQ(ts::analyzePlan(
                  ts::buildAccess(tile2, "lanes:lambda t: (t % 16, 0 if t < 16 else 32)", {}).plan)
                  .wavefronts,
              16);
}

TEST(Conditionals, LaneMapsReadPythonPerValue) {
    // Each lambda against what Python gives for t in 0..31 (k in 0..3), computed here by hand
    // from Python's rules: `and`/`or` return an operand, `not` a bool, chains are conjunctions.
    struct Case {
        const char* text;
        std::int64_t (*python)(std::int64_t t, std::int64_t k);
    } cases[] = {
        {"lambda t: t if t < 16 else 0",
         [](std::int64_t t, std::int64_t) { return t < 16 ? t : 0; }},
        {"lambda t: (t % 8 and t // 8) or 5",
         [](std::int64_t t, std::int64_t) -> std::int64_t {
             std::int64_t a = t % 8 ? t / 8 : t % 8;
             return a ? a : 5;
         }},
        {"lambda t: not t % 4",
         [](std::int64_t t, std::int64_t) -> std::int64_t { return t % 4 == 0; }},
        {"lambda t: 2 < t < 9",
         [](std::int64_t t, std::int64_t) -> std::int64_t { return 2 < t && t < 9; }},
        {"lambda t, k: t // 2 if t % 2 == 0 and k > 1 else t + k",
         [](std::int64_t t, std::int64_t k) { return t % 2 == 0 && k > 1 ? t / 2 : t + k; }},
        {"lambda t: (t if t > 3 else 3) if t < 20 else t * 2",
         [](std::int64_t t, std::int64_t) { return t < 20 ? (t > 3 ? t : 3) : t * 2; }},
    };
    for (const Case& c : cases) {
        ts::LambdaExprs lam = ts::parseLambda(c.text);
        ASSERT_EQ(lam.outputs.size(), 1u) << c.text;
        for (std::int64_t t = 0; t < 32; ++t)
            for (std::int64_t k = 0; k < 4; ++k) {
                const std::int64_t got = ts::evaluatePoint(
                    lam.outputs[0], [&](const std::string& n) { return n == "t" ? t : k; });
                ASSERT_EQ(got, c.python(t, k)) << c.text << " at t=" << t << " k=" << k;
            }
    }
    // Layouts keep TileLang's rule: a truth test of a symbolic value is refused there.
    EXPECT_THROW(ts::parseMapping("T.Layout([8], lambda i: i if i < 4 else 0)"), ts::ParseError);
}

TEST(Simplify, DecidesComparisonsOnlyWhereTheRangesDo) {
    // _i in [0, 16): each boundary on both sides, checked against every point.
    const std::map<std::string, std::int64_t> ext{{"_i", 16}};
    struct Case {
        const char* text;
        const char* simplified;
    } cases[] = {
        {"_i < 16", "1"},
        {"_i < 15", "_i < 15"},
        {"_i <= 15", "1"},
        {"_i <= 14", "_i <= 14"},
        {"_i >= 0", "1"},
        {"_i >= 1", "_i >= 1"},
        {"_i > -1", "1"},
        {"_i > 0", "_i > 0"},
        {"_i < 0", "0"},
        {"_i < 1", "_i < 1"},
        {"_i > 15", "0"},
        {"_i > 14", "_i > 14"},
        {"_i == 16", "0"},
        {"_i == 15", "_i == 15"},
        {"_i != -1", "1"},
        {"_i != 0", "_i != 0"},
        {"_i % 4 < 4", "1"},
        {"_i % 4 < 3", "_i % 4 < 3"},
        {"_i // 4 >= 3", "_i // 4 >= 3"},
        {"_i // 4 <= 3", "1"},
    };
    for (const auto& c : cases) {
        const ts::Expr e = dump(c.text);
        const ts::Expr s = ts::simplify(e, ext);
        EXPECT_EQ(ts::printExpr(s), c.simplified) << c.text;
        EXPECT_EQ(overI(s, 16), overI(e, 16)) << c.text;
    }
}

TEST(Simplify, KeepsIntegersIntegersAndDropsDecidedBranches) {
    const std::map<std::string, std::int64_t> ext{{"_i", 8}, {"_j", 8}};
    // Each result also reads back, as Python, to the same tree (no bare truth value where an
    // integer was, no `-` of a truth value).
    auto s = [&](const std::string& t) {
        const ts::Expr r = ts::simplify(dump(t), ext);
        const std::string text = ts::printExpr(r);
        EXPECT_TRUE(ts::structurallyEqual(ts::parseExpr(text, kVars, ts::ExprDialect::Python), r))
            << text;
        return text;
    };
    EXPECT_EQ(s("(_i < 4) * 1"), "T.Cast(\"int32\", _i < 4)");
    EXPECT_EQ(s("(_i < 4) + 0"), "T.Cast(\"int32\", _i < 4)");
    EXPECT_EQ(s("(_j < 4) % 2"), "T.Cast(\"int32\", _j < 4)");
    EXPECT_EQ(s("T.if_then_else(_i < 8, _j, _j // (_i - _i))"), "_j");
    EXPECT_EQ(s("T.Select(_i >= 8, _i // (_i - 7), _i)"), "_i");
    EXPECT_EQ(s("T.if_then_else(_i < 8, _j < 2, 5)"), "T.Cast(\"int32\", _j < 2)");
    EXPECT_EQ(s("T.if_then_else(T.And(_i < 8, _j < 2), 1, 0)"), "T.if_then_else(_j < 2, 1, 0)");
    EXPECT_EQ(s("T.if_then_else(T.Or(_i < 3, _j < 8), _i, 0)"), "_i");
    EXPECT_EQ(s("T.if_then_else(T.Not(T.Not(_i < 3)), _i, 0)"), "T.if_then_else(_i < 3, _i, 0)");
    EXPECT_EQ(s("0 - (_i < 3) + _j"), "-T.Cast(\"int32\", _i < 3) + _j");
    EXPECT_EQ(s("T.Cast(\"int32\", _i < 9)"), "1");
}

} // namespace
