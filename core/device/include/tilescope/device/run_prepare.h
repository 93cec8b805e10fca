// SPDX-License-Identifier: Apache-2.0
// Preparing a device run: from a shared layout's mapping text, a dtype and an access
// pattern (access.h) to a tilescope-probe request, checked BEFORE anything is started:
//   * the mapping must be a T.Layout (a Fragment is a register layout, not a shared tile);
//   * the layout must map logical cells one-to-one onto shared elements (a bijection onto its
//     image; padding holes are allowed), otherwise the data round trip could not be verified;
//   * the tile (prod(output shape) x element bytes) must fit in shared memory (max_smem_bytes).
// Each failure throws InputError with a message the GUI shows as is.
#pragma once

#include "tilescope/banks/access.h"
#include "tilescope/banks/bank_model.h"
#include "tilescope/device/kernelgen.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace ts {

struct RunOptions {
    std::string arch = "sm_90";
    std::string compiler = "auto";
    int iterations = 4096, repetitions = 20, warmup = 3;
    double timeout_s = 60;
    bool ncu = false;
    std::int64_t max_smem_bytes = 227 * 1024; // sm_90 opt-in limit per block
};

struct PreparedRun {
    std::string name;       // "<layout> / <access>"
    std::string access;     // the access text
    TileDesc tile;          // element size, elements, phys_of_logical
    AccessPlan plan;        // what the timed kernel repeats
    PlanCost predicted;     // the bank model's cost of one plan pass
    nlohmann::json request; // tilescope-probe request (docs/probe.md)
};

// Checks the layout (see above) and returns its tile for the kernel generator.
TileDesc sharedTileDesc(const Layout& layout, const std::string& dtype,
                        std::int64_t max_smem_bytes = 227 * 1024);

// Parses the mapping text, checks it, builds the access plan and the probe request.
PreparedRun prepareRun(const std::string& layoutName, const std::string& mappingText,
                       const std::string& dtype, const std::string& access,
                       const AccessOptions& accessOptions = {}, const RunOptions& run = {});

// What the Run button sends for one layout and access: the GUI (RunController) and
// `tilescope-cli probe-request` both call probeRequestFor, so a request written on a laptop
// without the GUI is the one the GUI would have piped to tilescope-probe.
struct ProbeRequestInput {
    std::string layoutName, mappingText, dtype = "float16", access;
    int vector = 0;           // elements per lane access (0: widest contiguous)
    bool store = false;       // st / stmatrix instead of ld / ldmatrix
    bool ncu = true;          // ask the probe for its ncu passes
    double runTimeoutS = 180; // the whole child's timeout (the GUI's Run settings)
};
// The probe's own timeout is the run's less 10 s (at least 10 s), so that the probe reports a
// hung kernel before the caller kills it.
PreparedRun probeRequestFor(const ProbeRequestInput& in);

// Predicted wavefronts per instruction of a plan pass (0 for an empty plan).
double predictedWavefrontsPerInstruction(const PlanCost& c);

} // namespace ts
