// SPDX-License-Identifier: Apache-2.0
// Importer for TileLang compiler logs: layout-visualization pass blocks, Layout/Fragment reprs
// and layout-inference conflict messages (tilelang-layouts.md section 3).
//
// The parser is incremental: feed() it chunks of any size (a growing file, a child's stdout) and
// it returns the events completed so far; finish() flushes a trailing block. Everything that is
// not layout text (tracebacks, other passes, binary garbage) is skipped. A block that breaks off
// or a layout that does not parse is still reported, as an event with a `problem`, with its line
// number; the rest of the log imports normally.
#pragma once

#include "tilescope/layout/layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ts::dump {

enum class EventKind : std::uint8_t {
    Inferred,         // `X inferred layout:` block of the layout-visualization pass
    Repr,             // a lone `Layout(...)` / `Fragment(...)` repr
    Conflict,         // `Get different layout for X` (current / previous)
    AliasConflict,    // `Get different layout for alias buffer X (data-shared with Y)`
    ParallelConflict, // `Layout infer conflict between X and Y in T.Parallel loop` (loop /
                      // fragment)
    ReduceConflict,   // `Layout may conflict with ReduceOp for buffer X vs. Y`
    Warning,          // `Layout inference failed for buffer X`, binary data skipped, ...
    Error,            // `SomethingError: message` (Python exception line)
};

const char* kindName(EventKind k); // "inferred", "repr", "conflict", ...
// Conflict, AliasConflict, ParallelConflict or ReduceConflict: an event comparing two layouts.
bool isConflict(EventKind k);

struct DumpLayout {
    std::string role; // "layout", "current", "previous", "loop", "fragment", "src_layout", ...
    std::string raw;  // the text as it appears in the log
    std::size_t line = 0;
    std::optional<Mapping> value; // empty when it did not parse
    std::string mapping;          // mapping-language text (T.Fragment(...)) when parsed
    std::string error;            // why it did not parse (with column)
    std::string note; // a value TileLang printed that differs from ours (thread extent, ...)
};

struct Event {
    EventKind kind = EventKind::Repr;
    std::size_t index = 0;   // 0-based order in the log
    std::size_t line = 0;    // 1-based first line
    std::size_t endLine = 0; // last line
    std::string buffer;      // X
    std::string other;       // Y (source / data-shared buffer), when the message names two
    std::vector<DumpLayout> layouts;
    std::string message;    // errors and warnings: the message; conflicts: the headline
    std::string span;       // `--> file:line:col` of a conflict, without the arrow
    std::string spanSource; // the source line the span points at, as the log quotes it
    std::string location;   // errors: the raising frame, "layout_inference.cc:1539 in Cls::Fn"
    std::string raw;        // the lines of the event (capped at kMaxRawBytes)
    std::string problem;    // non-empty: malformed block, truncated, or a layout failed to parse
    std::optional<std::size_t> repeatOf; // index of an earlier identical event

    bool ok() const { return problem.empty(); }
    const DumpLayout* layout(std::string_view role) const;
    // The two layouts a conflict compares, in display order (current / previous, loop /
    // fragment, orig_dst_layout / reducer_layout); nulls for other events or missing roles.
    std::pair<const DumpLayout*, const DumpLayout*> comparedLayouts() const;
};

struct ParserOptions {
    std::size_t maxLineBytes = 1 << 20; // longer lines are cut (reported when they matter)
    std::int64_t maxBytes = 0;          // 0: limits::kMaxLogBytes
    std::size_t maxRawBytes = 1 << 16;  // raw text kept per event
    bool evaluate = true;               // evaluate every parsed layout (catches bad values)
    // Cells a parsed layout may have to be evaluated, a fragment's replicas counted (what its
    // evaluation computes); a layout over it becomes that layout's error before any evaluation.
    // 0: no cap beyond the layout limits (limits::kMaxCells, kMaxStoredValues).
    std::int64_t maxCells = 0;
};

class Parser {
public:
    explicit Parser(ParserOptions options = {});
    ~Parser();
    Parser(Parser&&) noexcept;
    Parser& operator=(Parser&&) noexcept;

    // Events completed by this chunk, in log order.
    std::vector<Event> feed(std::string_view chunk);
    // Flushes the last line and any open block (reported as truncated).
    std::vector<Event> finish();

    std::size_t lines() const;
    std::int64_t bytes() const;
    bool stopped() const; // the byte limit was reached; further input is ignored

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Whole-text and whole-file conveniences. parseFile throws InputError when the file cannot be read.
std::vector<Event> parseText(std::string_view text, ParserOptions options = {});
std::vector<Event> parseFile(const std::string& path, ParserOptions options = {});

// One repr: `Layout((4, 4) -> (4, 4), transform: (_i, _j) -> (_j, _i))`,
// `Fragment((32, 32) -> (8,), replicate: 1, thread: 128, forward_thread: ..., forward_index:
// (...,), thread_range: I.Range(0, 128))`, list style `[32, 32] -> [8]`, `index:` for
// `forward_index:`, and `tl.Fragment(input_size=..., forward_index=..., forward_thread=...,
// replicate_size=..., thread_range=None)`. Throws ParseError (column into `text`), InputError,
// EvalError. `note` receives a mismatch between printed and computed extents when not null.
Mapping parseRepr(std::string_view text, std::string* note = nullptr);

// A layout-visualization block (header line optional). Throws ParseError / InputError.
Fragment parseVisualizationBlock(std::string_view text, std::string* buffer = nullptr);

// Mapping text, a repr or a visualization block: whichever the text is.
Mapping parseAnyLayoutText(std::string_view text);

// Mapping-language text for a parsed layout (parseMapping(mappingText(m)) gives the same table).
std::string mappingText(const Mapping& m);

} // namespace ts::dump
