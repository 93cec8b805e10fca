// SPDX-License-Identifier: Apache-2.0
// Error types that say what is wrong and where: a column in a text, a cell of a layout, or a
// path in a JSON document. Every user-facing failure in core is one of these.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ts {

// Bad input text. `column` is 1-based into `source` (0 when unknown).
class ParseError : public std::runtime_error {
public:
    ParseError(std::string message, std::string source, std::size_t column);
    const std::string& message() const { return message_; }
    const std::string& source() const { return source_; }
    std::size_t column() const { return column_; }
    // The offending source line and a caret under the column, for terminals and tooltips.
    std::string caretLines() const;

private:
    std::string message_;
    std::string source_;
    std::size_t column_;
};

// A failure while evaluating a layout at a particular logical cell (division by zero, ...).
class EvalError : public std::runtime_error {
public:
    EvalError(std::string message, std::vector<std::int64_t> cell = {});
    const std::vector<std::int64_t>& cell() const { return cell_; }

private:
    std::vector<std::int64_t> cell_;
};

// A semantic error in otherwise well-formed input: illegal shape, non-bijective inverse,
// a limit exceeded. Optional column when it comes from mapping text.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message, std::size_t column = 0)
        : std::runtime_error(message), column_(column) {}
    std::size_t column() const { return column_; }

private:
    std::size_t column_;
};

std::string formatCell(const std::vector<std::int64_t>& cell);

} // namespace ts
