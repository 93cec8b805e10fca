// SPDX-License-Identifier: Apache-2.0
// Documented bounds, checked before any allocation (README "Limits").
#pragma once

#include <cstdint>

namespace ts::limits {

inline constexpr std::int64_t kMaxCells = std::int64_t{1} << 24; // logical cells per layout
inline constexpr std::int64_t kMaxStoredValues = std::int64_t{1}
                                                 << 26; // cells x (outputs + replicas)
inline constexpr std::int64_t kMaxReplicate = 1 << 16;
inline constexpr std::int64_t kMaxThreadExtent = 1 << 20;
inline constexpr std::size_t kMaxRank = 8;
inline constexpr std::size_t kMaxTextLength = 1 << 20; // bytes of mapping text
inline constexpr std::size_t kMaxExprDepth = 256;      // nesting of an expression
// Height of a parsed expression tree, operator and call chains included (`i + 1 + 1 ...` is
// left-deep): every recursive pass over a tree (interpreter, simplifier, printer) is bounded by it.
inline constexpr std::size_t kMaxExprHeight = 1024;
inline constexpr std::int64_t kMaxLogBytes = std::int64_t{1} << 31; // 2 GiB of compiler log

} // namespace ts::limits
