// SPDX-License-Identifier: Apache-2.0
#include "tilescope/support/errors.h"

#include <sstream>

namespace ts {

ParseError::ParseError(std::string message, std::string source, std::size_t column)
    : std::runtime_error(column ? "column " + std::to_string(column) + ": " + message : message),
      message_(std::move(message)), source_(std::move(source)), column_(column) {}

std::string ParseError::caretLines() const {
    if (column_ == 0 || source_.empty()) return {};
    // Show only the line that holds the column, so multi-line pastes stay readable.
    std::size_t start = 0, col = column_ - 1;
    std::size_t nl = source_.rfind('\n', col > 0 ? col - 1 : 0);
    if (col > 0 && nl != std::string::npos && nl < col) start = nl + 1;
    std::size_t end = source_.find('\n', col);
    std::string line =
        source_.substr(start, end == std::string::npos ? std::string::npos : end - start);
    return line + "\n" + std::string(col - start, ' ') + "^";
}

EvalError::EvalError(std::string message, std::vector<std::int64_t> cell)
    : std::runtime_error(cell.empty() ? message : message + " at cell " + formatCell(cell)),
      cell_(std::move(cell)) {}

std::string formatCell(const std::vector<std::int64_t>& cell) {
    std::ostringstream os;
    os << '(';
    for (std::size_t k = 0; k < cell.size(); ++k)
        os << (k ? ", " : "") << cell[k];
    os << ')';
    return os.str();
}

} // namespace ts
