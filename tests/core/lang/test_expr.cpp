// SPDX-License-Identifier: Apache-2.0
// Expressions: parsing (typed text and dump text share one grammar), printing with minimal
// parentheses, the parse/print round trip, floor semantics and the compiled evaluator.
#include "tilescope/lang/expr_eval.h"
#include "tilescope/layout/layout.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>
#include <optional>
#include <random>

namespace {

const std::vector<std::string> kVars{"_i", "_j", "_rep"};

ts::Expr parse(const std::string& s) {
    return ts::parseExpr(s, kVars);
}

std::int64_t at(const ts::Expr& e, std::int64_t i, std::int64_t j, std::int64_t rep = 0) {
    return ts::evaluatePoint(e, [&](const std::string& n) {
        return n == "_i" ? i : n == "_j" ? j : rep;
    });
}

TEST(Expr, FloorSemanticsMatchPython) {
    // Python: -7 // 2 == -4, -7 % 2 == 1, 7 // -2 == -4, 7 % -2 == -1
    EXPECT_EQ(at(parse("(_i - 7) // 2"), 0, 0), -4);
    EXPECT_EQ(at(parse("(_i - 7) % 2"), 0, 0), 1);
    EXPECT_EQ(at(parse("(_i + 7) // -2"), 0, 0), -4);
    EXPECT_EQ(at(parse("(_i + 7) % -2"), 0, 0), -1);
    EXPECT_EQ(at(parse("T.truncdiv(_i - 7, 2)"), 0, 0), -3);
}

TEST(Expr, BoolsAreIntegersAsInPython) {
    // Python folds `16 - False` to 16 before TileLang sees it; the printed form must re-parse
    // to the same tree (a fuzzer-found round-trip break).
    EXPECT_TRUE(ts::structurallyEqual(parse("16 - False + _i"), parse("16 + _i")));
    EXPECT_TRUE(ts::structurallyEqual(parse("_i * (True + True)"), parse("_i * 2")));
    EXPECT_EQ(at(parse("-True + ~False + _j"), 0, 5), 3);
    for (const char* s : {"16 - False", "1 - True - _i", "False - 1 + _j"}) {
        const ts::Expr e = parse(s);
        EXPECT_TRUE(ts::structurallyEqual(e, parse(ts::printExpr(e)))) << s;
    }
}

TEST(Expr, PrecedenceIsPythons) {
    EXPECT_EQ(at(parse("_i + _j * 2"), 1, 3), 7);
    EXPECT_EQ(at(parse("_i ^ _j & 1"), 6, 3), 7);  // & binds tighter than ^
    EXPECT_EQ(at(parse("_i | _j ^ 1"), 4, 2), 7);  // ^ tighter than |
    EXPECT_EQ(at(parse("1 << _i + 1"), 2, 0), 8);  // + tighter than <<
    EXPECT_EQ(at(parse("-_i // 2"), 3, 0), -2);    // unary minus binds tightest
    EXPECT_EQ(at(parse("_i - _j - 1"), 10, 3), 6); // left associative
}

TEST(Expr, DumpFormsShareTheGrammar) {
    EXPECT_EQ(at(parse("T.floordiv(_i, 8) * 16 + T.floormod(_j, 4)"), 17, 6), 34);
    EXPECT_EQ(at(parse("T.min(_i, 3) + T.max(_j, 5)"), 7, 2), 8);
    EXPECT_EQ(at(parse("T.bitwise_xor(_i, _j)"), 6, 3), 5);
    EXPECT_EQ(at(parse("T.bitwise_and(_i, 3) + T.bitwise_or(_j, 8)"), 6, 1), 11);
    EXPECT_EQ(at(parse("T.shift_left(_i, 2) + T.shift_right(_j, 1)"), 1, 6), 7);
    EXPECT_EQ(at(parse("T.Cast(\"int32\", _i) + T.int64(5)"), 2, 0), 7);
    EXPECT_EQ(at(parse("min(_i, _j, 4)"), 9, 6), 4);
    EXPECT_EQ(at(parse("_rep * 2 + _i"), 1, 0, 3), 7);
}

TEST(Expr, PrintsTileLangStyleWithMinimalParentheses) {
    EXPECT_EQ(ts::printExpr(parse("_i % 8 * 16 + _j // 8")), "_i % 8 * 16 + _j // 8");
    EXPECT_EQ(ts::printExpr(parse("(_i * 640 + _j // 4) // 256 * 4 + _j % 4")),
              "(_i * 640 + _j // 4) // 256 * 4 + _j % 4");
    EXPECT_EQ(ts::printExpr(parse("_i - (_j - 1)")), "_i - (_j - 1)");
    EXPECT_EQ(ts::printExpr(parse("T.min(_i, 3)")), "T.min(_i, 3)");
    EXPECT_EQ(ts::printExpr(parse("T.bitwise_xor(_i, _j) * 2")), "(_i ^ _j) * 2");
    EXPECT_EQ(ts::printExpr(parse("_j % 8 // 2")), "_j % 8 // 2");
}

ts::Expr randomExpr(std::mt19937& rng, int depth);

// A truth value as the language builds one: a comparison, T.And/T.Or/T.Not of truth values, or
// a T.Select/T.if_then_else of two.
ts::Expr randomCondition(std::mt19937& rng, int depth) {
    static const ts::Op cmp[] = {ts::Op::Lt, ts::Op::Le, ts::Op::Gt,
                                 ts::Op::Ge, ts::Op::Eq, ts::Op::Ne};
    const int k = depth <= 0 ? 0 : int(rng() % 6);
    switch (k) {
    case 1:
    case 2:
        return ts::binary(k == 1 ? ts::Op::And : ts::Op::Or, randomCondition(rng, depth - 1),
                          randomCondition(rng, depth - 1));
    case 3:
        return ts::unary(ts::Op::Not, randomCondition(rng, depth - 1));
    case 4:
        return ts::ternary(rng() % 2 ? ts::Op::Select : ts::Op::IfThenElse,
                           randomCondition(rng, depth - 1), randomCondition(rng, depth - 1),
                           randomCondition(rng, depth - 1));
    default: {
        ts::Expr a = randomExpr(rng, depth - 1), b = randomExpr(rng, depth - 1);
        if (ts::isConst(a) && ts::isConst(b)) a = ts::var("_j"); // Python folds constant pairs
        return ts::binary(cmp[rng() % 6], a, b);
    }
    }
}

// Random trees over every operator: print then parse gives the same tree. Comparisons and
// conditionals appear as integers (TVM casts a truth value to 0/1 where it meets one), in
// T.Cast, and as conditions.
ts::Expr randomExpr(std::mt19937& rng, int depth) {
    std::uniform_int_distribution<int> pick(0, 19);
    int k = depth <= 0 ? pick(rng) % 3 : pick(rng);
    switch (k) {
    case 0:
        return ts::constant(std::uniform_int_distribution<int>(-20, 300)(rng));
    case 1:
        return ts::var("_i");
    case 2:
        return ts::var("_j");
    case 3: {
        ts::Expr a = randomExpr(rng, depth - 1);
        if (ts::isBoolean(a)) a = ts::unary(ts::Op::Cast, a); // `-(a < b)` is refused
        return ts::isConst(a) ? a : ts::negate(a);
    }
    case 16:
        return randomCondition(rng, depth - 1);
    case 17:
        return ts::unary(ts::Op::Cast, randomCondition(rng, depth - 1));
    case 18:
    case 19: {
        // T.Select needs two values of one type; T.if_then_else converts.
        const bool select = k == 18;
        ts::Expr t = randomExpr(rng, depth - 1), f = randomExpr(rng, depth - 1);
        if (select && ts::isBoolean(t) != ts::isBoolean(f))
            (ts::isBoolean(t) ? t : f) = ts::unary(ts::Op::Cast, ts::isBoolean(t) ? t : f);
        return ts::ternary(select ? ts::Op::Select : ts::Op::IfThenElse,
                           randomCondition(rng, depth - 1), t, f);
    }
    default: {
        static const ts::Op ops[] = {ts::Op::Add,      ts::Op::Sub,      ts::Op::Mul,
                                     ts::Op::FloorDiv, ts::Op::FloorMod, ts::Op::BitXor,
                                     ts::Op::BitAnd,   ts::Op::BitOr,    ts::Op::Shl,
                                     ts::Op::Shr,      ts::Op::Min,      ts::Op::Max};
        ts::Expr a = randomExpr(rng, depth - 1), b = randomExpr(rng, depth - 1);
        if (ts::isConst(a) && ts::isConst(b)) a = ts::var("_i"); // Python folds constant pairs
        if (ts::isConst(b) && b->value == 0)
            b = ts::constant(7); // a literal zero divisor is a parse error
        const ts::Op op = ops[pick(rng) % 12];
        // Two truth values under an operator other than *, min, max: TVM keeps the bool type
        // and fails, so the language refuses it; one side is cast.
        if (ts::isBoolean(a) && ts::isBoolean(b) && op != ts::Op::Mul && op != ts::Op::Min &&
            op != ts::Op::Max)
            b = ts::unary(ts::Op::Cast, b);
        return ts::binary(op, a, b);
    }
    }
}

TEST(Expr, ParsePrintRoundTripOnRandomTrees) {
    std::mt19937 rng(1234);
    int conditional = 0;
    for (int n = 0; n < 3000; ++n) {
        ts::Expr e = randomExpr(rng, 5);
        std::string text = ts::printExpr(e);
        conditional += text.find("T.Select") != std::string::npos ||
                       text.find("T.if_then_else") != std::string::npos;
        // The printed form reads the same in dump text and in TileLang's Python.
        for (auto dialect : {ts::ExprDialect::Printed, ts::ExprDialect::Python}) {
            ts::Expr back;
            ASSERT_NO_THROW(back = ts::parseExpr(text, kVars, dialect)) << text;
            ASSERT_TRUE(ts::structurallyEqual(e, back))
                << text << " reparsed as " << ts::printExpr(back);
        }
    }
    EXPECT_GT(conditional, 500); // the new operators are really exercised
}

TEST(Expr, CompiledEvaluatorAgreesWithTreeWalk) {
    std::mt19937 rng(99);
    for (int n = 0; n < 400; ++n) {
        ts::Expr e = randomExpr(rng, 4);
        for (bool narrow : {false, true}) {
            std::unique_ptr<ts::Program> prog;
            try {
                prog = narrow ? std::make_unique<ts::Program>(std::vector<ts::Expr>{e},
                                                              std::vector<std::string>{"_i", "_j"},
                                                              std::vector<std::int64_t>{16, 16})
                              : std::make_unique<ts::Program>(std::vector<ts::Expr>{e},
                                                              std::vector<std::string>{"_i", "_j"});
            } catch (const ts::EvalError&) {
                continue; // constant division by zero: reported at compile time
            }
            std::vector<std::int64_t> is, js, out(256);
            for (int i = 0; i < 16; ++i)
                for (int j = 0; j < 16; ++j)
                    is.push_back(i), js.push_back(j);
            const std::int64_t* in[] = {is.data(), js.data()};
            std::int64_t* outs[] = {out.data()};
            std::size_t bad = 0;
            std::string msg;
            bool ok = prog->run(in, outs, 256, bad, msg);
            if (!ok) {
                // The failing point really fails, and it is the first that does.
                EXPECT_THROW(at(e, is[bad], js[bad]), ts::EvalError) << ts::printExpr(e);
                for (std::size_t p = 0; p < bad; ++p)
                    EXPECT_NO_THROW(at(e, is[p], js[p])) << ts::printExpr(e);
                continue;
            }
            for (std::size_t p = 0; p < 256; ++p)
                ASSERT_EQ(out[p], at(e, is[p], js[p]))
                    << ts::printExpr(e) << " at (" << is[p] << "," << js[p] << ")";
        }
    }
}

TEST(Expr, NarrowPathOnlyWhenProvablyIn32Bits) {
    ts::Program small({parse("_i * 64 + _j")}, {"_i", "_j"}, {1024, 1024});
    EXPECT_TRUE(small.narrow());
    ts::Program big({parse("_i * 4294967296 + _j")}, {"_i", "_j"}, {1024, 1024});
    EXPECT_FALSE(big.narrow());
    ts::Program shifted({parse("_i << 40")}, {"_i", "_j"}, {2, 2});
    EXPECT_FALSE(shifted.narrow());
}

struct BadExpr {
    const char* text;
    std::size_t column;
    const char* message;
};

TEST(Expr, ErrorsCarryColumnAndCaret) {
    const BadExpr cases[] = {
        {"_i +", 5, "unexpected end of text"},
        {"_i + * 2", 6, "unexpected '*'"},
        {"(_i + 2", 1, "unbalanced '('"},
        {"_i + foo", 6, "unknown name 'foo'"},
        {"_i / 2", 4, "use '//'"},
        {"_i // 0", 4, "division by zero"},
        {"_i % (3 - 3)", 4, "modulo by zero"},
        {"_i + 1.5", 6, "floating-point"},
        {"T.nosuch(_i)", 2, "unknown function 'T.nosuch'"},
        {"_i @ 2", 4, "unexpected character '@'"},
        {"99999999999999999999", 1, "too large"},
        {"T.min(_i)", 6, "takes 2 arguments"},
        {"_i ** 2", 4, "'**' is not supported"},
    };
    for (const auto& c : cases) {
        try {
            parse(c.text);
            ADD_FAILURE() << "no error for " << c.text;
        } catch (const ts::ParseError& e) {
            EXPECT_EQ(e.column(), c.column) << c.text << ": " << e.what();
            EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
                << c.text << ": " << e.what();
            EXPECT_NE(e.caretLines().find('^'), std::string::npos);
        }
    }
}

TEST(Expr, DeepNestingIsRefusedNotACrash) {
    std::string deep(100000, '(');
    EXPECT_THROW(parse(deep + "_i"), ts::ParseError);
    std::string longSum = "_i";
    for (int k = 0; k < 1000; ++k)
        longSum += " + 1";
    EXPECT_NO_THROW(parse(longSum)); // long flat sums are fine up to the height limit
    // ... beyond it they are refused like deep nesting (they are left-deep trees: 200000 terms
    // overflowed the stack in the interpreter; found by fuzzing, see docs/hardening.md).
    for (int k = 0; k < 200000; ++k)
        longSum += " + 1";
    EXPECT_THROW(parse(longSum), ts::ParseError);
    EXPECT_THROW(parse("_i" + std::string(100000, '-')), ts::ParseError);
}

TEST(Expr, DivisionByZeroAtACellNamesTheCell) {
    ts::Mapping m = ts::parseMapping("T.Layout([4, 4], lambda i, j: i // (j - 2))");
    try {
        std::get<ts::Layout>(m).evaluate();
        FAIL();
    } catch (const ts::EvalError& e) {
        EXPECT_EQ(e.cell(), (std::vector<std::int64_t>{0, 2}));
        EXPECT_NE(std::string(e.what()).find("division by zero at cell (0, 2)"), std::string::npos)
            << e.what();
    }
}

} // namespace

#include "tilescope/lang/simplify.h"

namespace {

// Whole-grid evaluation tabulates one-coordinate terms and adds them per cell; it must give
// exactly the tree walk's value at every cell, and the tree walk's first failing cell.
TEST(Expr, GridEvaluationAgreesWithTreeWalkOnSumsOfTerms) {
    std::mt19937 rng(7);
    const std::vector<ts::Shape> shapes{{5, 37}, {1200, 3}, {33, 64}, {1, 1}};
    int compared = 0, failures = 0;
    for (int n = 0; n < 1500; ++n) {
        const ts::Shape& shape = shapes[std::size_t(n) % shapes.size()];
        std::vector<ts::Expr> outs;
        // 5000 + sum of terms clamped to [-1000, 1000]: never negative (the layout would be
        // refused), and each term keeps the coordinates it uses.
        auto term = [&] {
            return ts::binary(ts::Op::Min,
                              ts::binary(ts::Op::Max, randomExpr(rng, 2), ts::constant(-1000)),
                              ts::constant(1000));
        };
        for (int o = 0; o < 2; ++o) {
            ts::Expr e = rng() % 2 ? term() : ts::negate(term());
            for (int t = 0; t < 3; ++t)
                e = ts::binary(rng() % 2 ? ts::Op::Add : ts::Op::Sub, e, term());
            outs.push_back(ts::binary(ts::Op::Add, ts::constant(5000), e));
        }
        // The layout keeps its simplified forms (which may drop a failing subterm times zero):
        // the grid must agree with the tree walk of those.
        const ts::Layout layout(shape, outs);
        outs = layout.forward();
        ts::LayoutTable table;
        std::optional<std::vector<std::int64_t>> failedAt;
        try {
            table = layout.evaluate();
        } catch (const ts::EvalError& err) {
            failedAt = err.cell();
            if (failedAt->empty()) {
                // Refused as a whole: a negative output value, or a constant subterm that fails
                // at compile time (so at the first cell).
                bool explained = false;
                try {
                    for (std::int64_t c = 0; c < shape[0] * shape[1] && !explained; ++c)
                        for (const ts::Expr& e : outs)
                            explained = explained || at(e, c / shape[1], c % shape[1]) < 0;
                } catch (const ts::EvalError&) {
                    explained = true;
                }
                EXPECT_TRUE(explained) << err.what();
                continue;
            }
        } catch (const ts::InputError&) {
            continue; // too large an output shape
        }
        bool failedYet = false;
        for (std::int64_t i = 0; i < shape[0] && !failedYet; ++i)
            for (std::int64_t j = 0; j < shape[1] && !failedYet; ++j) {
                const std::size_t cell = std::size_t(i * shape[1] + j);
                for (std::size_t o = 0; o < outs.size() && !failedYet; ++o) {
                    std::int64_t v = 0;
                    try {
                        v = at(outs[o], i, j);
                    } catch (const ts::EvalError&) {
                        failedYet = true;
                        ASSERT_TRUE(failedAt) << ts::printExpr(outs[o]);
                        EXPECT_EQ(*failedAt, (std::vector<std::int64_t>{i, j}))
                            << ts::printExpr(outs[o]);
                        break;
                    }
                    if (failedAt) continue; // no table: only the first failing cell counts
                    ASSERT_EQ(table.out[cell * 2 + o], v)
                        << ts::printExpr(outs[o]) << " at (" << i << ", " << j << ")";
                }
            }
        EXPECT_EQ(failedYet, failedAt.has_value());
        (failedAt ? failures : compared) += 1;
    }
    // The random sums must exercise both outcomes, not only the refusals.
    EXPECT_GT(compared, 60) << failures << " failures";
    EXPECT_GT(failures, 10) << compared << " compared";
}

TEST(Expr, FragmentExtentsFromTabulatedTermsMatchTheCells) {
    // Separable thread and index (extents come from the tables), one with a mixed XOR term,
    // and replicas (`_rep`): every cell and both extents against the tree walk.
    for (const char* text :
         {"T.Fragment([96, 40], forward_thread_fn=lambda i, j: j // 8 * 32 + i % 32, "
          "forward_index_fn=lambda i, j: i // 32 * 8 + j % 8)",
          "T.Fragment([64, 64], forward_thread_fn=lambda i, j: (i % 8 ^ j // 8) + i // 8 * 8, "
          "forward_index_fn=lambda i, j: j % 8 + 3)",
          "T.Fragment([16, 16], forward_thread_fn=lambda i, j, rep: rep * 64 + i * 4 + j // 4, "
          "forward_index_fn=lambda i, j: j % 4, replicate=3)"}) {
        const auto f = std::get<ts::Fragment>(ts::parseMapping(text));
        const ts::FragmentTable t = f.evaluate();
        std::int64_t maxThread = -1, maxLocal = -1;
        for (std::int64_t i = 0; i < t.inputShape[0]; ++i)
            for (std::int64_t j = 0; j < t.inputShape[1]; ++j) {
                const std::size_t cell = std::size_t(i * t.inputShape[1] + j);
                const std::int64_t local = at(f.index()[0], i, j);
                EXPECT_EQ(t.local[cell], local) << text;
                maxLocal = std::max(maxLocal, local);
                for (std::int64_t r = 0; r < t.replicate; ++r) {
                    const std::int64_t th = at(f.thread(), i, j, r);
                    EXPECT_EQ(t.threads[cell * std::size_t(t.replicate) + std::size_t(r)], th);
                    maxThread = std::max(maxThread, th);
                }
            }
        EXPECT_EQ(t.threadExtent, maxThread + 1) << text;
        EXPECT_EQ(t.localShape, ts::Shape{maxLocal + 1}) << text;
    }
}

TEST(Simplify, PreservesEveryValueOverTheRanges) {
    std::mt19937 rng(7);
    int checked = 0;
    for (int n = 0; n < 2000; ++n) {
        ts::Expr e = randomExpr(rng, 4);
        ts::Expr s = ts::simplify(e, {{"_i", 16}, {"_j", 8}});
        // Simplified forms keep the type (an integer never becomes a bare truth value) and so
        // read back, as TileLang's Python, to the same tree; unless a divisor became a literal
        // 0 or a shift a literal bad count, which the language refuses (as Python does) and
        // which fails everywhere anyway.
        const std::string text = ts::printExpr(s);
        if (!ts::isConst(s)) // a decided truth value is the number 0 or 1
            ASSERT_EQ(ts::isBoolean(s), ts::isBoolean(e)) << ts::printExpr(e) << " -> " << text;
        try {
            ASSERT_TRUE(
                ts::structurallyEqual(ts::parseExpr(text, kVars, ts::ExprDialect::Python), s))
                << text;
        } catch (const ts::ParseError& err) {
            ASSERT_TRUE(err.message().find("by zero") != std::string::npos ||
                        err.message().find("shift count") != std::string::npos)
                << text << ": " << err.what();
            EXPECT_THROW(at(s, 0, 0), ts::EvalError) << text;
        }
        for (int i = 0; i < 16; ++i)
            for (int j = 0; j < 8; ++j) {
                std::int64_t a, b;
                try {
                    a = at(e, i, j);
                } catch (const ts::EvalError&) {
                    continue; // undefined at this point: nothing to preserve
                }
                ASSERT_NO_THROW(b = at(s, i, j)) << ts::printExpr(e) << " -> " << ts::printExpr(s);
                ASSERT_EQ(a, b) << ts::printExpr(e) << " -> " << ts::printExpr(s) << " at " << i
                                << "," << j;
                ++checked;
            }
    }
    EXPECT_GT(checked, 100000);
}

TEST(Simplify, ReadsLikeTileLangsCanonicalForm) {
    auto s = [](const std::string& t) {
        return ts::printExpr(ts::simplify(parse(t), {{"_i", 32}, {"_j", 32}}));
    };
    EXPECT_EQ(s("_j // 16 * 64 + (_i // 16 * 32 + (_i % 16 % 8 * 4 + _j % 16 % 8 // 2))"),
              "_j // 16 * 64 + _i // 16 * 32 + _i % 8 * 4 + _j % 8 // 2");
    EXPECT_EQ(s("_i % 32 + _j // 64"), "_i");
    EXPECT_EQ(s("(_i // 4) // 2"), "_i // 8");
    EXPECT_EQ(s("(_i + 2 * _j) * 4"), "_j * 8 + _i * 4");
}

} // namespace
