// SPDX-License-Identifier: Apache-2.0
// Shared-memory counters measured per source line on a GPU (Nsight Compute's SASS-level
// counters, each SASS instruction mapped to the kernel source line it was generated for, through
// inlined calls: tools/h200_kernels.sh writes this file), and their comparison with a kernel
// X-ray line by line.
//
//   {"tool": "...", "gpu": "...", "kernels": [{"name": "main_kernel", "grid": [8, 8, 1],
//     "lines": [{"line": 30, "instructions": 1024, "wavefronts": 4096, "ideal": 4096,
//                "sass": ["LDGSTS.E.BYPASS.LTC128B.128"]}, ...]}]}
//
// instructions are warp-level executions summed over every block of the launch.
#pragma once

#include "tilescope/kernel/kernel_xray.h"
#include "tilescope/kernel/lowering.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ts::kernel {

struct MeasuredLine {
    int line = 0;
    std::int64_t instructions = 0, wavefronts = 0, ideal = -1; // ideal: -1 when not measured
    std::vector<std::string> sass;
};

struct MeasuredKernel {
    std::string name;
    std::array<int, 3> grid{0, 0, 0};
    std::vector<MeasuredLine> lines;
};

struct Measured {
    std::string tool, gpu, source; // source: the file the lines refer to (its sha256 if given)
    std::vector<MeasuredKernel> kernels;
    const MeasuredKernel* kernel(const std::string& name) const;
};

// Throws InputError naming the JSON path of a bad field (`what` names the file).
Measured readMeasured(const std::string& text, const std::string& what);
void toJson(nlohmann::json& j, const Measured& m);

struct LaunchCount {
    std::int64_t blocks = 0;
    std::string source; // "measured grid", "lowering's grid"
};
// The number of blocks of kernel `name`: the measured grid, else the lowering's.
LaunchCount blocksOf(const std::string& name, const std::vector<KernelLaunch>& launches,
                     const Measured& m);

struct LineComparison {
    int line = 0;
    // "match"; "match (line group)": this line and the others of `group` differ one by one but
    // match together (ptxas's line table gave instructions of one identical access to another);
    // "match (forwarded)": the loads were predicted forwardable and no instruction ran;
    // "differs"; "not analysed"; "not LSU" (measured, but wgmma / TMA instructions the bank
    // model does not cover); "measured only"; "not measured".
    std::string status;
    std::vector<int> group;
    std::int64_t predicted_instructions = 0, predicted_wavefronts = 0, predicted_ideal = 0;
    std::int64_t measured_instructions = 0, measured_wavefronts = 0, measured_ideal = -1;
    std::vector<std::string> ops, sass;
};

struct Comparison {
    std::string kernel;
    std::int64_t blocks = 0;
    std::string blocks_source;
    std::vector<LineComparison> lines;
    int matched = 0, differing = 0, not_analysed = 0, measured_only = 0, not_measured = 0;
    int matched_in_group = 0, not_lsu = 0; // included in matched / not_analysed
    // Every LSU line predicted equals the measurement, and no measured line went unpredicted.
    bool allMatch() const { return differing == 0 && measured_only == 0 && not_measured == 0; }
};

// Whether a SASS opcode is an LSU shared-memory instruction the bank model predicts (LDS, STS,
// LDSM, STSM, LDGSTS, ATOMS); HGMMA and UTMA* are not.
bool isLsuSass(const std::string& opcode);

// Predicted totals per block times `blocks` against the measured totals, per source line.
Comparison compare(const KernelXray& k, const Measured& m, const LaunchCount& blocks);
void toJson(nlohmann::json& j, const Comparison& c);
std::string formatComparison(const Comparison& c);

} // namespace ts::kernel
