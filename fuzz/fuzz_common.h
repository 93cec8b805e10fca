// SPDX-License-Identifier: Apache-2.0
// Shared by the fuzz targets: every documented failure is an exception of these types; anything
// else escaping (std::out_of_range, nlohmann::json::exception, ...) is a bug and aborts the run.
#pragma once

#include "tilescope/layout/layout.h"
#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// A shape small enough to evaluate (and convert) on every input: every extent and the cell count
// at most `limit`.
inline bool smallShape(const ts::Shape& s, std::int64_t limit) {
    std::int64_t n = 1;
    for (auto d : s) {
        if (d <= 0 || d > limit) return false;
        n *= d;
        if (n > limit) return false;
    }
    return true;
}

// Runs f, swallowing only the documented error types.
template <class F> void expectCleanErrors(F&& f) {
    try {
        f();
    } catch (const ts::ParseError&) {
    } catch (const ts::EvalError&) {
    } catch (const ts::InputError&) {
    } catch (const ts::DocumentError&) {
    }
}

} // namespace fuzz
