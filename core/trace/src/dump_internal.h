// Internal: pieces shared by the dump parsers.
#pragma once

#include "tilescope/layout/layout.h"
#include "tilescope/support/errors.h"

#include <string>

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

} // namespace ts::dump
