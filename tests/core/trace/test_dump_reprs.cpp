// SPDX-License-Identifier: Apache-2.0
// Reprs and messages quoted in tilelang-layouts.md / peers.md, and malformed variants.
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace ts;
using namespace ts::dump;

namespace {

const char* kCRepr =
    "Fragment((32, 32) -> (8,), replicate: 1, thread: 128, forward_thread: _j // 16 * 64 + _i "
    "// 16 * 32 + _i % 8 * 4 + _j % 8 // 2, forward_index: (_j % 16 // 8 * 4 + _i % 16 // 8 * 2 "
    "+ _j % 2,), thread_range: I.Range(0, 128))";

const char* kCBlockList = "C_local inferred layout:\n"
                          "  Shape: [32, 32] -> [8]\n"
                          "  Thread: _j // 16 * 64 + _i // 16 * 32 + _i % 8 * 4 + _j % 8 // 2\n"
                          "  Index:  [_j % 16 // 8 * 4 + _i % 16 // 8 * 2 + _j % 2]\n"
                          "  Replicate:  1\n";

nlohmann::json cells(const Mapping& m) {
    return tableJson(m)["cells"];
}

} // namespace

TEST(DumpRepr, DocumentedAccumulatorTupleStyle) {
    std::string note;
    Mapping m = parseRepr(kCRepr, &note);
    EXPECT_TRUE(note.empty()) << note;
    const Fragment& f = std::get<Fragment>(m);
    EXPECT_EQ(f.inputShape(), (Shape{32, 32}));
    EXPECT_EQ(f.threadExtent(), 128);
    ASSERT_TRUE(f.threadRange());
    EXPECT_EQ(f.threadRange()->second, 128);
    // Round trip through TileLang's repr format.
    EXPECT_EQ(tilelangRepr(m), kCRepr);
    // Same cells as the visualization block in list style.
    std::string buf;
    Fragment v = parseVisualizationBlock(kCBlockList, &buf);
    EXPECT_EQ(buf, "C_local");
    EXPECT_EQ(cells(m), cells(Mapping(v)));
}

TEST(DumpRepr, ListStyleAndIndexKeyword) {
    // peers.md quotes list style; parallel.cc:650's comment uses `thread: _rep, index: (...)`.
    Mapping a = parseRepr("Fragment([64, 128] -> [32], replicate: 1, thread: 256, forward_thread: "
                          "_i % 16 * 16 + _j // 8, forward_index: [_i // 16 * 8 + _j % 8], "
                          "thread_range: I.Range(0, 256))");
    EXPECT_EQ(std::get<Fragment>(a).threadExtent(), 256);
    Mapping b = parseRepr("Fragment((2,) -> (2,), replicate: 256, thread: _rep, index: (_i,))");
    const Fragment& fb = std::get<Fragment>(b);
    EXPECT_EQ(fb.replicate(), 256);
    EXPECT_EQ(fb.threadExtent(), 256);
}

TEST(DumpRepr, LayoutTransposeAndSwizzle) {
    Mapping t = parseRepr("Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, _i))");
    auto c = cells(t);
    EXPECT_EQ(c[1]["out"], nlohmann::json::array({1, 0}));
    EXPECT_EQ(tilelangRepr(t), "Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, _i))");
    // A real shared-memory swizzle as TileLang printed it (3 outputs).
    std::string note;
    Mapping s = parseRepr(
        "Layout((64, 64) -> (1, 8, 512), transform: (_i, _j) -> (0, _i // 8, _i % 8 * 64 + (_j "
        "// 32 + _i % 8 // 4) % 2 * 32 + (_j % 32 // 16 + _i % 4 // 2) % 2 * 16 + (_j % 16 // 8 + "
        "_i % 2) % 2 * 8 + _j % 8))",
        &note);
    EXPECT_TRUE(note.empty()) << note;
    EXPECT_EQ(std::get<Layout>(s).outputShape(), (Shape{1, 8, 512}));
    EXPECT_FALSE(std::get<Layout>(s).findCollision());
}

TEST(DumpRepr, ReflectionStyle) {
    Mapping m = parseRepr("tl.Fragment(input_size=(32,), forward_index=(_i // 8,), "
                          "forward_thread=_i % 8 * 16 + _rep, replicate_size=16, "
                          "thread_range=None)");
    const Fragment& f = std::get<Fragment>(m);
    EXPECT_EQ(f.replicate(), 16);
    EXPECT_FALSE(f.threadRange());
    EXPECT_EQ(f.threadExtent(), 128);
}

TEST(DumpRepr, TvmPrinterForms) {
    Mapping m = parseRepr("Fragment((16, 16) -> (8,), replicate: 1, thread: 32, forward_thread: "
                          "T.floormod(_i, 8) * 4 + T.floordiv(T.min(_j, 15), 4) % 4, "
                          "forward_index: (T.bitwise_xor(_j % 4, 0) + T.int64(4) * (_i // 8),))");
    EXPECT_EQ(std::get<Fragment>(m).threadExtent(), 32);
}

TEST(DumpRepr, MismatchedExtentGivesANote) {
    std::string note;
    parseRepr("Fragment((8,) -> (1,), replicate: 1, thread: 16, forward_thread: _i, "
              "forward_index: (0,))",
              &note);
    EXPECT_NE(note.find("thread extent 16"), std::string::npos) << note;
}

TEST(DumpRepr, ErrorsNameTheColumn) {
    try {
        parseRepr("Fragment((8,) -> (1,), replicate: 1, thread: 8, forward_thread: T.foo(_i), "
                  "forward_index: (0,))");
        FAIL();
    } catch (const ParseError& e) {
        EXPECT_GT(e.column(), 60u); // inside forward_thread, not at 1
        EXPECT_NE(std::string(e.what()).find("foo"), std::string::npos) << e.what();
    }
    try {
        parseRepr("Fragment((8,) -> (1,), replicate: 1, thread: 8, forward_thread: (_i + 1");
        FAIL();
    } catch (const ParseError& e) {
        EXPECT_NE(std::string(e.what()).find("unbalanced"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parseRepr("Fragment((8,) -> (1,), replicate: 1)"), ParseError);
    EXPECT_THROW(parseRepr("Something((8,))"), ParseError);
    EXPECT_THROW(parseRepr("Layout((0, 4) -> (4,), transform: (_i, _j) -> (_i,))"), InputError);
}

TEST(DumpRepr, AnyLayoutTextAcceptsAllThreeForms) {
    Mapping a = parseAnyLayoutText(kCRepr);
    Mapping b = parseAnyLayoutText(kCBlockList);
    Mapping c = parseAnyLayoutText(mappingText(a));
    EXPECT_EQ(cells(a), cells(b));
    EXPECT_EQ(cells(a), cells(c));
}

TEST(DumpParser, QuotedConflictMessages) {
    // tilelang-layouts.md 3.3: format strings with values, as LOG(FATAL) prints them.
    std::string log =
        "[12:00:00] /src/transform/layout_inference.cc:265: Get different layout for acc\n"
        " current layout: Fragment((16, 128) -> (8,), replicate: 1, thread: 256, forward_thread: "
        "_j // 8 * 16 + _i, forward_index: (_j % 8,), thread_range: I.Range(0, 256))\n"
        " previous layout: Fragment((16, 128) -> (16,), replicate: 1, thread: 128, "
        "forward_thread: _j // 16 * 16 + _i, forward_index: (_j % 16,), thread_range: "
        "I.Range(128, 256))\n"
        "  --> kernel.py:42:13\n"
        "noise line\n"
        "Get different layout for alias buffer B_alias (data-shared with B)\n"
        " current: Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, _i))\n"
        " previous: Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_i, _j))\n"
        "W1129 12:00:00 Layout inference failed for buffer S_frag. The buffer cannot be inferred "
        "with current layout inference rules.\n"
        "some.module.LayoutConflictException: Layout infer conflict between acc_s and acc_s_cast "
        "in T.Parallel loop:\n"
        "    loop Fragment((16, 32) -> (16,), replicate: 4, thread: 128, forward_thread: _rep * 32 "
        "+ _i % 8 * 4 + _j % 8 // 2, forward_index: (_j // 8 * 4 + _i // 8 * 2 + _j % 2,))\n"
        "    fragment Fragment((16, 32) -> (4,), replicate: 1, thread: 128, forward_thread: _j // "
        "8 * 32 + _i % 8 * 4 + _j % 8 // 2, forward_index: (_i // 8 * 2 + _j % 2,))\n";
    auto ev = parseText(log);
    ASSERT_EQ(ev.size(), 5u);
    EXPECT_EQ(ev[0].kind, EventKind::Conflict);
    EXPECT_EQ(ev[0].buffer, "acc");
    EXPECT_EQ(ev[0].span, "kernel.py:42:13");
    EXPECT_TRUE(ev[0].ok()) << ev[0].problem;
    EXPECT_EQ(std::get<Fragment>(*ev[0].layout("previous")->value).threadRange()->first, 128);
    EXPECT_EQ(ev[1].kind, EventKind::AliasConflict);
    EXPECT_EQ(ev[1].buffer, "B_alias");
    EXPECT_EQ(ev[1].other, "B");
    EXPECT_TRUE(ev[1].ok()) << ev[1].problem;
    EXPECT_EQ(ev[2].kind, EventKind::Warning);
    EXPECT_EQ(ev[2].buffer, "S_frag");
    EXPECT_EQ(ev[3].kind, EventKind::Error);
    EXPECT_EQ(ev[4].kind, EventKind::ParallelConflict);
    EXPECT_EQ(ev[4].other, "acc_s_cast");
    EXPECT_EQ(ev[4].line, 10u);
    EXPECT_TRUE(ev[4].ok()) << ev[4].problem;
}

TEST(DumpParser, MalformedBlocksAreReportedAndTheRestImports) {
    std::string log = "x inferred layout:\n"
                      "  Shape: (64, 128) -> (64,)\n"
                      "  Thread: _i % 8 * 16 + T.nope(_j)\n" // unknown builtin
                      "  Index:  (_i // 8 * 8 + _j % 8,)\n"
                      "  Replicate:  1\n"
                      "y inferred layout:\n"
                      "  Shape: (64,) -> (8,)\n" // truncated: no Thread
                      "row_sum inferred layout:\n"
                      "  Shape: (64,) -> (8,)\n"
                      "  Thread: _i % 8 * 16 + _rep\n"
                      "  Index:  (_i // 8,)\n"
                      "  Replicate:  16\n"
                      "Get different layout for acc\n"
                      " current layout: Fragment((16, 128) -> (8,), replicate: 1, thread: 256, "
                      "forward_thread: (_j // 8 * 16 + _i\n" // unbalanced, never closes
                      "Traceback (most recent call last):\n";
    auto ev = parseText(log);
    ASSERT_EQ(ev.size(), 4u);
    EXPECT_FALSE(ev[0].ok());
    EXPECT_EQ(ev[0].problem.rfind("line 3: Thread: column", 0), 0u) << ev[0].problem;
    EXPECT_NE(ev[0].problem.find("nope"), std::string::npos) << ev[0].problem;
    EXPECT_FALSE(ev[1].ok());
    EXPECT_EQ(ev[1].buffer, "y");
    EXPECT_NE(ev[1].problem.find("line 8: expected 'Thread:'"), std::string::npos) << ev[1].problem;
    EXPECT_TRUE(ev[2].ok());
    EXPECT_EQ(ev[2].buffer, "row_sum");
    EXPECT_EQ(ev[3].kind, EventKind::Conflict);
    EXPECT_FALSE(ev[3].ok());
    EXPECT_NE(ev[3].problem.find("line 14"), std::string::npos) << ev[3].problem;
}

TEST(DumpParser, WrappedReprIsJoined) {
    std::string log = "Get different layout for acc\n"
                      " current layout: Fragment((4, 4) -> (4,), replicate: 1, thread: 4,\n"
                      "   forward_thread: _i, forward_index: (_j,))\n"
                      " previous layout: Fragment((4, 4) -> (4,), replicate: 1, thread: 4, "
                      "forward_thread: _j, forward_index: (_i,))\n";
    auto ev = parseText(log);
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_TRUE(ev[0].ok()) << ev[0].problem;
    EXPECT_EQ(ev[0].endLine, 4u);
}

TEST(DumpParser, LoneReprsAndPythonSourceAreDistinguished) {
    auto ev = parseText("layout = T.Fragment([8, 8], forward_thread_fn=lambda i, j: i)\n"
                        "print: Fragment((8,) -> (1,), replicate: 1, thread: 8, forward_thread: "
                        "_i, forward_index: (0,))\n"
                        "acc_layout = Layout((4,) -> (4,), transform: (_i,) -> (_i,))\n");
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev[0].kind, EventKind::Repr);
    EXPECT_EQ(ev[1].buffer, "acc_layout");
    EXPECT_TRUE(ev[1].ok());
}

TEST(DumpParser, AnsiColoursAndCrLf) {
    auto ev = parseText("\x1b[1;31mC_local inferred layout:\x1b[0m\r\n  Shape: (4,) -> (1,)\r\n"
                        "  Thread: _i\r\n  Index:  (0,)\r\n  Replicate:  1\r\n");
    ASSERT_EQ(ev.size(), 1u);
    EXPECT_TRUE(ev[0].ok()) << ev[0].problem;
    EXPECT_EQ(ev[0].buffer, "C_local");
}

TEST(DumpParser, RepeatedEventsPointAtTheFirst) {
    std::string block = "a inferred layout:\n  Shape: (4,) -> (1,)\n  Thread: _i\n  Index:  "
                        "(0,)\n  Replicate:  1\n";
    auto ev = parseText(block + block);
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_FALSE(ev[0].repeatOf);
    ASSERT_TRUE(ev[1].repeatOf);
    EXPECT_EQ(*ev[1].repeatOf, 0u);
}
