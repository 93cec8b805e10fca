// Shared by the fuzz targets: every documented failure is an exception of these types; anything
// else escaping (std::out_of_range, nlohmann::json::exception, ...) is a bug and aborts the run.
#pragma once

#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace fuzz {

inline std::string_view text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
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
