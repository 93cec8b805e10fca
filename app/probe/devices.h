// SPDX-License-Identifier: Apache-2.0
// Spreading a sweep over the GPUs of one machine: which devices (--devices all|0,1,...), which
// patterns each device's worker runs, and merging the workers' answers back in request order.
// Pure functions (no driver), so the split and the merge are tested on machines without a GPU.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tsprobe {

// "all" -> 0..count-1; "0,2" -> {0, 2}. Throws ts::InputError for an empty, malformed,
// repeated or absent device (the message names it and how many the machine has).
std::vector<int> parseDevices(const std::string& arg, int count);

// Pattern indices of each device: pattern i goes to device slot i % devices (round robin, so a
// sweep ordered by kind spreads each kind over every GPU). Slots without a pattern stay empty.
std::vector<std::vector<std::size_t>> splitPatterns(std::size_t patterns, std::size_t devices);

// One worker's answer: {"ok", "device": {...}, "jobs": [results in the order of its patterns]}.
struct WorkerAnswer {
    int device = 0;                    // CUDA ordinal the worker ran on
    std::vector<std::size_t> patterns; // request indices it ran, in its order
    nlohmann::json out;                // what the worker wrote (or {"ok": false, "error"})
    double seconds = 0;                // wall time of the worker process
};

// {"ok", "device" (the first device's, for readers of one-GPU results), "devices": [{"index",
// ...device fields..., "patterns": [...], "seconds_run", "ok", "error"?}], "jobs": [n results in
// request order, each with "device_index"]}. A worker that failed gives its patterns
// {"ok": false, "error": "<device N>: ..."}; "ok" is false only when every worker failed.
nlohmann::json mergeWorkerAnswers(const std::vector<WorkerAnswer>& answers, std::size_t patterns);

} // namespace tsprobe
