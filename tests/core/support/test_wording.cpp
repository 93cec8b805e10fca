// SPDX-License-Identifier: Apache-2.0
// User-visible wording from the core: counts, error locations in logs, project titles, the list
// of expression functions the GUI's reference shows, and sentences that start with identifiers.
#include "tilescope/layout/layout_diff.h"
#include "tilescope/notation/document.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/wording.h"
#include "tilescope/trace/dump.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>

namespace {

TEST(Wording, CountNounSingularAndPlural) {
    EXPECT_EQ(ts::countNoun(1, "wavefront"), "1 wavefront");
    EXPECT_EQ(ts::countNoun(0, "wavefront"), "0 wavefronts");
    EXPECT_EQ(ts::countNoun(32, "wavefront"), "32 wavefronts");
    EXPECT_EQ(ts::countNoun(2, "match", "matches"), "2 matches");
}

TEST(Wording, ParameterCountMessageIsGrammatical) {
    try {
        ts::parseMapping("T.Fragment([8, 8], forward_fn=lambda i: (i, 0))");
        FAIL() << "a 1-parameter lambda for a 2-D shape must be refused";
    } catch (const std::exception& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("takes 1 parameter, but the shape has 2 dimensions"), std::string::npos)
            << m;
    }
}

TEST(Wording, ErrorEventNamesTheRaisingFrame) {
    const std::string log =
        "Traceback (most recent call last):\n"
        "  File \"/work/tools/gen_logs.py\", line 304, in run_child\n"
        "    tilelang.lower(func, target=TARGET)\n"
        "  File \"<unknown>\", line 0, in tvm::tl::BufferUseDefCollector::Run()\n"
        "  File \"/project/src/transform/layout_inference/layout_inference.cc\", line 1539, in "
        "void tvm::tl::BufferUseDefCollector::InferInFreeMode(tvm::tl::LayoutMap&, const "
        "tvm::tl::LayoutMap&)\n"
        "tvm.error.InternalError: Check failed: (has_best) is false: no available layout found\n";
    const auto ev = ts::dump::parseText(log);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_EQ(ev[0].kind, ts::dump::EventKind::Error);
    EXPECT_EQ(ev[0].line, 6u);
    EXPECT_EQ(ev[0].location, "layout_inference.cc:1539 in BufferUseDefCollector::InferInFreeMode");
}

TEST(Wording, FramesWithoutAFileGiveTheFunction) {
    const std::string log =
        "  File \"<unknown>\", line 0, in tvm::tl::BufferUseDefCollector::RunInferStep(int, "
        "tvm::tl::InferLevel, bool)\n"
        "  File \"<unknown>\", line 0, in tvm::runtime::detail::LogFatal::~LogFatal()\n"
        "tvm.error.InternalError: Get different layout for A_frag\n";
    const auto ev = ts::dump::parseText(log);
    ASSERT_FALSE(ev.empty());
    EXPECT_EQ(ev[0].kind, ts::dump::EventKind::Error);
    EXPECT_EQ(ev[0].location, "BufferUseDefCollector::RunInferStep");
}

TEST(Wording, ConflictSpanKeepsItsSourceLine) {
    const std::string log =
        "tvm.error.InternalError: Get different layout for A_frag\n"
        " current layout: Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_i, _j))\n"
        " previous layout: Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, _i))\n"
        "  --> /work/tools/gen_logs.py:165:1\n"
        "      |\n"
        "  165 |             A_frag = T.alloc_fragment((M, K), dtype)\n"
        "      |             ^\n"
        "next line of the log\n";
    const auto ev = ts::dump::parseText(log);
    auto c = std::find_if(ev.begin(), ev.end(),
                          [](const auto& e) { return e.kind == ts::dump::EventKind::Conflict; });
    ASSERT_NE(c, ev.end());
    EXPECT_EQ(c->span, "/work/tools/gen_logs.py:165:1");
    EXPECT_EQ(c->spanSource, "A_frag = T.alloc_fragment((M, K), dtype)");
    EXPECT_EQ(c->endLine, 7u);
    EXPECT_TRUE(c->ok()) << c->problem;
}

TEST(Wording, ErrorWithoutTracebackHasNoLocation) {
    const auto ev = ts::dump::parseText("some text\nValueError: bad value\n");
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_TRUE(ev[0].location.empty());
}

TEST(Wording, ProjectTitleRoundTrips) {
    ts::Document d = ts::parseDocument(
        R"json({"format": "tilescope-project", "version": 1, "title": "GEMM fragments",
            "layouts": [{"name": "a", "text": "make_gemm_fragment_8x8()"}]})json");
    EXPECT_EQ(d.title, "GEMM fragments");
    const ts::Document again = ts::parseDocument(ts::serializeDocument(d));
    EXPECT_EQ(again.title, "GEMM fragments");
    EXPECT_THROW(ts::parseDocument(R"({"format": "tilescope-project", "version": 1, "title": 3,
                                       "layouts": [{"name": "a", "text": "x"}]})"),
                 ts::DocumentError);
}

TEST(Wording, ExpressionFunctionsAreTheParsersOwn) {
    const auto fns = ts::expressionFunctions();
    for (const char* f :
         {"min", "T.floordiv", "T.bitwise_xor", "T.shift_right", "T.Cast", "T.int64"})
        EXPECT_NE(std::find(fns.begin(), fns.end(), f), fns.end()) << f;
    // Every listed function parses in an expression (with the arguments it takes).
    const std::map<std::string, std::string> calls = {
        {"T.Cast", "T.Cast(\"int32\", _i)"},
        {"T.if_then_else", "T.if_then_else(_i < 3, _i, 3)"},
        {"T.Select", "T.Select(_i < 3, _i, 3)"},
        {"T.And", "T.if_then_else(T.And(_i < 3, _i > 1), 1, 0)"},
        {"T.Or", "T.if_then_else(T.Or(_i < 3, _i > 1), 1, 0)"},
        {"T.Not", "T.if_then_else(T.Not(_i < 3), 1, 0)"},
        {"T.bool", "T.if_then_else(T.bool(_i < 3), 1, 0)"},
        {"T.likely", "T.likely(_i)"},
        {"T.abs", "T.abs(_i - 3)"}};
    for (const auto& f : fns) {
        std::string text = f + "(_i, 3)";
        if (auto it = calls.find(f); it != calls.end())
            text = it->second;
        else if (f.rfind("T.int", 0) == 0 || f.rfind("T.uint", 0) == 0)
            text = f + "(_i)";
        EXPECT_NO_THROW(ts::parseExpr(text, {"_i"})) << text;
    }
}

TEST(Wording, SentenceStartingWithAnIdentifierKeepsItsCase) {
    const ts::Mapping a = ts::parseMapping(
        "T.Fragment([32, 32], forward_thread_fn=lambda i, j: i, forward_index_fn=lambda i, j: j)");
    const ts::Mapping b =
        ts::parseMapping("T.Fragment([32, 32], forward_thread_fn=lambda i, j: "
                         "i % 16, forward_index_fn=lambda i, j: j + i // 16 * 32)");
    const ts::LayoutDiff d = ts::diffLayouts(a, b, "orig_dst_layout", "reducer_layout");
    EXPECT_NE(d.summary.find("orig_dst_layout uses 32 threads"), std::string::npos) << d.summary;
    EXPECT_EQ(d.summary.find("Orig_dst_layout"), std::string::npos) << d.summary;
    EXPECT_EQ(d.summary.find("Reducer_layout"), std::string::npos) << d.summary;
    // "1 cell of 1024 differs", not "differ".
    const ts::Mapping c = ts::parseMapping(
        "T.Fragment([32, 32], forward_thread_fn=lambda i, j: i + j // 31 * (i // 31), "
        "forward_index_fn=lambda i, j: j)");
    EXPECT_EQ(ts::diffLayouts(a, c, "x", "y").summary.rfind("1 cell of 1024 differs", 0), 0u)
        << ts::diffLayouts(a, c, "x", "y").summary;
    const ts::LayoutDiff plain = ts::diffLayouts(a, b, "current", "previous");
    EXPECT_NE(plain.summary.find("Current uses 32 threads"), std::string::npos) << plain.summary;
}

} // namespace
