// SPDX-License-Identifier: Apache-2.0
// Measurements made elsewhere: a tilescope-probe result file (one request, or a sweep) read back
// into records, and matched to the layout they measured. A result carries its request, and the
// request its spec (layout, mapping text, dtype, access): the request is rebuilt from the open
// layout's text with probeRequestFor and its plan and tile compared, so a result is shown only
// on a layout whose accesses are exactly the ones measured.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ts {

struct Measurement {
    std::string name;                           // "<layout> / <access>"
    std::string layout, mapping, dtype, access; // from the request's spec ("" when absent)
    int vector = 0;
    bool store = false;
    bool ok = false;          // the probe's verdict for this pattern
    std::string error;        // why not, when !ok
    double predicted_wf = -1; // wavefronts per instruction (model)
    double measured_wf = -1;  // ncu, one warp per SM; -1 when not measured
    double cycles_per_instr = -1, ns_per_instr = -1, ns_per_wavefront = -1;
    std::string roundtrip; // "pass", "fail" or ""
    std::string verdict;   // "agree", "differs", "timed (no ncu)", or the error
    std::string device, driver, ncu_version, date;
    int device_index = -1;
    nlohmann::json request; // as sent (plan, tile, spec)
};

// Reads a probe result (docs/probe.md). Throws InputError naming the file and what is wrong
// (not JSON, not a probe result, a pattern without its request).
std::vector<Measurement> readProbeResult(const std::string& jsonText, const std::string& file);

// Empty when `m` measured this layout text; otherwise why not, in words for the user.
std::string measurementMismatch(const Measurement& m, const std::string& layoutName,
                                const std::string& mappingText);

} // namespace ts
