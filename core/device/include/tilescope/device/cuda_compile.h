// SPDX-License-Identifier: Apache-2.0
// Compiling generated CUDA C++ without a GPU: NVRTC loaded at run time (dlopen, so core needs
// no CUDA link) and nvcc as a child process (argument vector, no shell).
#pragma once

#include <string>
#include <vector>

namespace ts {

struct CompileResult {
    bool ok = false;
    std::string compiler; // "nvrtc 13.0" or the nvcc path
    std::string log;      // compiler log, or why the compiler could not be used
    std::string cubin;    // binary image (ELF) for the requested sm_XX
    double seconds = 0;
};

// True when libnvrtc can be loaded; `why` says what was tried otherwise.
bool nvrtcAvailable(std::string* why = nullptr);
// arch like "sm_90". Produces a cubin via nvrtcGetCUBIN.
CompileResult compileWithNvrtc(const std::string& source, const std::string& arch = "sm_90",
                               const std::vector<std::string>& extra_options = {});
// Runs `nvcc -cubin -arch=<arch> -o <tmp>.cubin <tmp>.cu` (nvcc from $CUDA_HOME/bin or PATH).
CompileResult compileWithNvcc(const std::string& source, const std::string& arch = "sm_90",
                              double timeout_s = 120);
// "nvrtc", "nvcc" or "auto" (NVRTC, then nvcc when NVRTC is missing).
CompileResult compileCuda(const std::string& source, const std::string& arch = "sm_90",
                          const std::string& compiler = "auto");

} // namespace ts
