// SPDX-License-Identifier: Apache-2.0
// The builtin sweep of access patterns measured on the H200 (docs/measurements.md).
#pragma once

#include <nlohmann/json.hpp>

namespace tsprobe {

// {"ncu": true, "iterations": ..., "patterns": [request, ...]}
nlohmann::json builtinSweep();
// {"patterns": [{"name", "predicted_wavefronts", "predicted_excess"}, ...]}
nlohmann::json listSweep();

} // namespace tsprobe
