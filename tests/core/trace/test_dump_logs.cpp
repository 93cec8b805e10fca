// SPDX-License-Identifier: Apache-2.0
// The dump importer on REAL TileLang logs (tests/data/logs, made by tools/gen_logs*.py with the
// real tilelang) and on truncated / corrupted copies of them made here.
#include "tilescope/layout/table_json.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

using namespace ts;
using namespace ts::dump;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kLogs = fs::path(TILESCOPE_SOURCE_DIR) / "tests" / "data" / "logs";

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct LogCase {
    std::string name;
    std::string text;
    json expected;
};

std::vector<LogCase> realLogs() {
    std::vector<LogCase> out;
    if (!fs::exists(kLogs)) return out;
    for (const auto& e : fs::directory_iterator(kLogs)) {
        auto p = e.path();
        if (p.extension() != ".log") continue;
        fs::path side = p;
        side.replace_extension(".expected.json");
        if (!fs::exists(side)) continue;
        out.push_back({p.stem().string(), readFile(p), json::parse(readFile(side))});
    }
    std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.name < b.name; });
    return out;
}

EventKind kindOf(const std::string& k) {
    if (k == "inferred") return EventKind::Inferred;
    if (k == "conflict") return EventKind::Conflict;
    if (k == "alias_conflict") return EventKind::AliasConflict;
    if (k == "parallel_conflict") return EventKind::ParallelConflict;
    if (k == "reduce_conflict") return EventKind::ReduceConflict;
    if (k == "warning") return EventKind::Warning;
    if (k == "error") return EventKind::Error;
    return EventKind::Repr;
}

bool sameTable(const Mapping& a, const Mapping& b) {
    return tableJson(a) == tableJson(b);
}

// Does `e` match the expected event of the sidecar?
bool matches(const Event& e, const json& x) {
    if (e.kind != kindOf(x["kind"])) return false;
    if (x.contains("buffer") && e.buffer != x["buffer"].get<std::string>()) return false;
    if (x.contains("source_buffer") && e.other != x["source_buffer"].get<std::string>())
        return false;
    if (e.kind == EventKind::Error) {
        std::string m = x["message"];
        if (e.message.size() < m.size() || e.message.substr(e.message.size() - m.size()) != m)
            return false;
        if (x.contains("type") && e.message.rfind(x["type"].get<std::string>() + ": ", 0) != 0)
            return false;
    }
    for (const char* role : {"current", "previous", "loop", "fragment", "src_layout",
                             "reducer_layout", "orig_dst_layout"}) {
        if (!x.contains(role)) continue;
        const DumpLayout* l = e.layout(role);
        if (!l || l->raw != x[role].get<std::string>()) return false;
    }
    return true;
}

std::vector<Event> parseChunked(const std::string& text, std::mt19937& rng) {
    Parser p;
    std::vector<Event> all;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t n = std::uniform_int_distribution<std::size_t>(1, 97)(rng);
        for (auto& e : p.feed(std::string_view(text).substr(pos, n)))
            all.push_back(std::move(e));
        pos += n;
    }
    for (auto& e : p.finish())
        all.push_back(std::move(e));
    return all;
}

std::string signature(const Event& e) {
    std::string s = std::string(kindName(e.kind)) + "|" + e.buffer + "|" + e.other + "|" +
                    std::to_string(e.line) + "|" + e.problem;
    for (const auto& l : e.layouts)
        s += "|" + l.mapping;
    return s;
}

} // namespace

TEST(DumpLogs, RealLogsArePresent) {
    auto logs = realLogs();
    ASSERT_GE(logs.size(), 5u) << "expected the real TileLang logs in " << kLogs;
}

TEST(DumpLogs, EveryExpectedEventIsFoundAndEvaluates) {
    for (const auto& lc : realLogs()) {
        SCOPED_TRACE(lc.name);
        std::vector<Event> events = parseText(lc.text);
        for (const auto& e : events) {
            EXPECT_TRUE(e.ok()) << "line " << e.line << ": " << e.problem;
            for (const auto& l : e.layouts) {
                ASSERT_TRUE(l.value.has_value()) << l.role << ": " << l.error << "\n" << l.raw;
                EXPECT_NO_THROW(tableJson(*l.value));
                // The mapping text is mapping-language text that gives the same table.
                EXPECT_TRUE(sameTable(*l.value, parseAnyLayoutText(l.mapping))) << l.mapping;
                EXPECT_TRUE(l.note.empty()) << l.note;
            }
        }
        for (const auto& x : lc.expected["events"]) {
            SCOPED_TRACE(x.dump().substr(0, 200));
            std::size_t found = 0;
            const Event* first = nullptr;
            for (const auto& e : events)
                if (matches(e, x)) {
                    ++found;
                    if (!first) first = &e;
                }
            ASSERT_TRUE(first) << "not found";
            if (x.contains("occurrences") && x["kind"] != "inferred")
                EXPECT_EQ(found, x["occurrences"].get<std::size_t>());
            EXPECT_FALSE(first->repeatOf.has_value());
            // Inferred layouts: the block gives the same table as TileLang's repr of the layout,
            // and the cells TileLang itself evaluated.
            if (x["kind"] == "inferred") {
                const DumpLayout* l = first->layout("layout");
                ASSERT_TRUE(l && l->value);
                std::string note;
                Mapping fromRepr = parseRepr(x["repr"].get<std::string>(), &note);
                EXPECT_TRUE(note.empty()) << note;
                EXPECT_TRUE(sameTable(*l->value, fromRepr));
                if (x.contains("table")) {
                    json ours = tableJson(*l->value);
                    EXPECT_EQ(ours["cells"], x["table"]["cells"]);
                    EXPECT_EQ(ours["thread_extent"], x["table"]["thread_extent"]);
                    EXPECT_EQ(ours["replicate"], x["table"]["replicate"]);
                    EXPECT_EQ(ours["local_size"], x["table"]["local_size"]);
                }
            }
        }
    }
}

TEST(DumpLogs, EveryCapturedLayoutReprParses) {
    // The sidecars also hold every layout TileLang attached to the IR (shared-memory swizzles
    // included), printed by TileLang's own repr.
    std::size_t n = 0;
    for (const auto& lc : realLogs()) {
        if (!lc.expected.contains("all_layouts_captured")) continue;
        for (const auto& c : lc.expected["all_layouts_captured"]) {
            SCOPED_TRACE(lc.name + ": " + c["repr"].get<std::string>());
            std::string note;
            Mapping m = parseRepr(c["repr"].get<std::string>(), &note);
            EXPECT_EQ((std::holds_alternative<Fragment>(m) ? "Fragment" : "Layout"),
                      c["type"].get<std::string>());
            json t = tableJson(m, true);
            EXPECT_EQ(t["input_shape"], c["input_shape"]);
            if (std::holds_alternative<Layout>(m))
                EXPECT_EQ(t["output_shape"], c["output_shape"]);
            else
                EXPECT_EQ(json::array({t["local_size"]}), c["output_shape"]);
            EXPECT_TRUE(note.empty()) << note;
            if (c.contains("table")) EXPECT_EQ(tableJson(m)["cells"], c["table"]["cells"]);
            ++n;
        }
    }
    EXPECT_GT(n, 0u);
}

TEST(DumpLogs, ChunkedFeedingGivesTheSameEvents) {
    std::mt19937 rng(7);
    for (const auto& lc : realLogs()) {
        SCOPED_TRACE(lc.name);
        auto whole = parseText(lc.text);
        auto chunked = parseChunked(lc.text, rng);
        ASSERT_EQ(whole.size(), chunked.size());
        for (std::size_t k = 0; k < whole.size(); ++k)
            EXPECT_EQ(signature(whole[k]), signature(chunked[k]));
    }
}

TEST(DumpLogs, TruncatedCopiesKeepEverythingBeforeTheCut) {
    std::mt19937 rng(11);
    for (const auto& lc : realLogs()) {
        SCOPED_TRACE(lc.name);
        auto whole = parseText(lc.text);
        for (int trial = 0; trial < 40; ++trial) {
            std::size_t cut = std::uniform_int_distribution<std::size_t>(0, lc.text.size())(rng);
            std::string part = lc.text.substr(0, cut);
            std::size_t cutLine = 1 + std::count(part.begin(), part.end(), '\n');
            std::vector<Event> events;
            ASSERT_NO_THROW(events = parseText(part));
            // Events that ended before the cut line are reported unchanged.
            for (const auto& w : whole) {
                if (w.endLine + 1 >= cutLine) continue;
                bool found = false;
                for (const auto& e : events)
                    found = found || signature(e) == signature(w);
                EXPECT_TRUE(found) << "cut at byte " << cut << " lost line " << w.line;
            }
            // Anything broken carries a line number.
            for (const auto& e : events) {
                if (!e.ok()) EXPECT_EQ(e.problem.rfind("line ", 0), 0u) << e.problem;
                EXPECT_GE(e.line, 1u);
                EXPECT_LE(e.line, cutLine);
            }
        }
    }
}

TEST(DumpLogs, CorruptedCopiesNeverThrowAndReportWithLines) {
    std::mt19937 rng(5);
    for (const auto& lc : realLogs()) {
        SCOPED_TRACE(lc.name);
        for (int trial = 0; trial < 60; ++trial) {
            std::string s = lc.text;
            int flips = std::uniform_int_distribution<int>(1, 12)(rng);
            for (int f = 0; f < flips && !s.empty(); ++f) {
                std::size_t at = std::uniform_int_distribution<std::size_t>(0, s.size() - 1)(rng);
                s[at] = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
            }
            std::vector<Event> events;
            ASSERT_NO_THROW(events = parseText(s));
            for (const auto& e : events)
                if (!e.ok()) EXPECT_EQ(e.problem.rfind("line ", 0), 0u) << e.problem;
        }
    }
}

TEST(DumpLogs, BinaryGarbageBetweenBlocksIsSkippedAndReported) {
    std::mt19937 rng(3);
    for (const auto& lc : realLogs()) {
        SCOPED_TRACE(lc.name);
        auto whole = parseText(lc.text);
        // Insert a binary line before every event start line.
        std::vector<std::string> lines;
        std::stringstream ss(lc.text);
        for (std::string l; std::getline(ss, l);)
            lines.push_back(l);
        std::string garbage;
        for (int k = 0; k < 300; ++k)
            garbage += static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
        std::replace(garbage.begin(), garbage.end(), '\n', '\0');
        garbage[0] = '\0';
        std::string out;
        std::set<std::size_t> starts;
        for (const auto& w : whole)
            starts.insert(w.line);
        for (std::size_t k = 0; k < lines.size(); ++k) {
            if (starts.count(k + 1)) out += garbage + "\n";
            out += lines[k] + "\n";
        }
        auto events = parseText(out);
        std::size_t warnings = 0;
        for (const auto& e : events)
            if (e.kind == EventKind::Warning &&
                e.message.find("binary data skipped") != std::string::npos)
                ++warnings;
        EXPECT_EQ(warnings, starts.size());
        for (const auto& w : whole) {
            bool found = false;
            for (const auto& e : events)
                found = found || (e.kind == w.kind && e.buffer == w.buffer && e.ok() == w.ok() &&
                                  e.layouts.size() == w.layouts.size());
            EXPECT_TRUE(found) << kindName(w.kind) << " " << w.buffer;
        }
    }
}

TEST(DumpLogs, GarbageInsideABlockBreaksOnlyThatBlock) {
    std::string text = readFile(kLogs / "flash_attn_fwd.log");
    ASSERT_FALSE(text.empty());
    // Replace the Index line of the second block (line 9) with binary data.
    std::vector<std::string> lines;
    std::stringstream ss(text);
    for (std::string l; std::getline(ss, l);)
        lines.push_back(l);
    lines[8] = std::string("\x00\x01\x02\xff\xfe garbage", 14);
    std::string out;
    for (auto& l : lines)
        out += l + "\n";
    auto events = parseText(out);
    std::size_t ok = 0, bad = 0;
    for (const auto& e : events) {
        if (e.kind == EventKind::Inferred) (e.ok() ? ok : bad)++;
        if (e.kind == EventKind::Inferred && !e.ok()) {
            EXPECT_EQ(e.buffer, "acc_s_cast");
            EXPECT_EQ(e.line, 6u);
            EXPECT_NE(e.problem.find("line 9"), std::string::npos) << e.problem;
        }
    }
    EXPECT_EQ(ok, 7u);
    EXPECT_EQ(bad, 1u);
}

TEST(DumpLogs, ByteLimitStopsWithAWarning) {
    std::string text = readFile(kLogs / "flash_attn_fwd.log");
    ParserOptions o;
    o.maxBytes = 300;
    auto events = parseText(text, o);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.back().kind, EventKind::Warning);
    EXPECT_NE(events.back().message.find("limit"), std::string::npos);
    EXPECT_EQ(events.front().buffer, "acc_s");
    EXPECT_TRUE(events.front().ok());
}

TEST(DumpLogs, HugeLinesAreCut) {
    ParserOptions o;
    o.maxLineBytes = 4096;
    std::string text = "C_local inferred layout:\n  Shape: (32, 32) -> (8,)\n  Thread: " +
                       std::string(100000, '(') + "\n  Index:  (0,)\n  Replicate:  1\n" +
                       readFile(kLogs / "gemm_visual_layout_inference.log");
    auto events = parseText(text, o);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_FALSE(events[0].ok());
    EXPECT_NE(events[0].problem.find("line 3"), std::string::npos) << events[0].problem;
    EXPECT_TRUE(events[1].ok());
    EXPECT_EQ(events[1].line, 6u);
}
