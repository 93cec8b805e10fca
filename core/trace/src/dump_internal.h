// SPDX-License-Identifier: Apache-2.0
// Internal: pieces shared by the dump parsers.
#pragma once

#include "tilescope/layout/layout.h"
#include "tilescope/support/errors.h"

#include <optional>
#include <string>
#include <string_view>

namespace ts::dump {

// The four value texts of a layout-visualization block.
struct VisualFields {
    std::string shape, thread, index, replicate; // replicate empty: older TileLang, 1
};

// A ParseError in one of the fields (0 shape, 1 thread, 2 index, 3 replicate).
class FieldError : public ParseError {
public:
    FieldError(int f, std::string message, std::string source, std::size_t column)
        : ParseError(std::move(message), std::move(source), column), field(f) {}
    int field;
};

Fragment parseVisualFields(const VisualFields& v);

// A repr read but not evaluated: the mapping and the extents TileLang printed, which reprNote
// compares with the cells. The parser checks its cell cap between the two, so nothing is
// evaluated before it.
struct ParsedRepr {
    Mapping mapping;
    std::optional<Shape> printedOut;            // `(32, 32) -> (8,)`: the (8,)
    std::optional<std::int64_t> printedThreads; // `thread: 128`
    bool unboundedThreads = false;              // `thread: pos_inf`
};
ParsedRepr parseReprUnevaluated(std::string_view text);

// Where TileLang's printed extents differ from the evaluated cells ("" when they agree). Exactly
// one of the tables is given: the one of r.mapping.
std::string reprNote(const ParsedRepr& r, const FragmentTable* fragment, const LayoutTable* layout);

} // namespace ts::dump
