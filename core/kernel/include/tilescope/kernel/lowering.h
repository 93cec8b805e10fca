// SPDX-License-Identifier: Apache-2.0
// A TileLang Python file lowered to its generated CUDA through a child Python process (the
// script resources/kernel/lower_kernel.py, compiled into the core), with the launch
// configuration of each kernel and TileLang's layout-visualization log.
#pragma once

#include "tilescope/kernel/kernel_xray.h"

#include <atomic>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace ts::kernel {

// The script text (written to a private temporary file when run).
const std::string& lowerKernelScript();

struct KernelLaunch {
    std::string name;
    std::array<int, 3> grid{1, 1, 1}, block{1, 1, 1};
    std::int64_t dynamic_smem = -1;
    nlohmann::json params = nlohmann::json::array();
};

struct LoweredKernel {
    std::string source; // kernel_source
    std::string log;    // everything TileLang printed while lowering
    std::string function, arch, tilelang_version;
    double seconds = 0;
    std::vector<KernelLaunch> kernels;
    nlohmann::json meta; // the script's JSON without source and log
};

// Parses the script's output (the TILESCOPE_KERNEL_JSON line, or the TILESCOPE_KERNEL_ERROR
// line: thrown as InputError with its message). Also reads a committed meta.json (same fields).
LoweredKernel parseLowering(const std::string& output);
std::vector<KernelLaunch> launchesFromMeta(const nlohmann::json& meta);

// Runs the script with `python` on `pyFile` (function may be empty; arch e.g. "sm_80").
// Throws InputError with what failed (the script's message, a timeout, no output), and
// LoweringCancelled when `cancel` became true (the child is killed).
struct LoweringCancelled : std::runtime_error {
    LoweringCancelled() : std::runtime_error("lowering cancelled") {}
};
LoweredKernel lowerTileLangFile(const std::string& python, const std::string& pyFile,
                                const std::string& function, const std::string& arch,
                                double timeout_s = 600, const std::atomic<bool>* cancel = nullptr);

// X-ray options for one kernel of a lowering (its block and dynamic shared memory).
XrayOptions optionsFor(const KernelLaunch& launch);

} // namespace ts::kernel
