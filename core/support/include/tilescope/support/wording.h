// SPDX-License-Identifier: Apache-2.0
// Count phrases for user-visible text: "1 wavefront", "2 wavefronts", never "wavefront(s)".
#pragma once

#include <string>
#include <string_view>

namespace ts {

// `plural` defaults to `singular` + "s".
inline std::string countNoun(long long n, std::string_view singular, std::string_view plural = {}) {
    std::string s = std::to_string(n) + ' ';
    if (n == 1 || n == -1) return s.append(singular);
    if (plural.empty()) return s.append(singular).append("s");
    return s.append(plural);
}

} // namespace ts
