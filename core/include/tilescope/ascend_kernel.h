// The Ascend path of a device run (issue 6): the fractal copy kernel for tilelang-ascend (an ND
// matrix in global memory to the NZ fractal layout, out-of-bounds rows/columns zero-padded up to
// whole 16 x C0 fractals, C0 = 32 bytes / element size), and detection of a CANN installation.
//
// IMPORTANT: no Ascend NPU or CANN toolkit exists on the machines this project is developed and
// tested on. The generated script and the detection are exercised only up to "what is missing";
// the kernel has never been compiled by bisheng/ccec nor run (docs/ascend.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ts {

struct AscendKernelOptions {
    std::int64_t rows = 100, cols = 60; // ND shape (any size: the tail is zero-padded)
    std::string dtype = "float16";      // float16 / bfloat16 (C0 = 16), float32 (C0 = 8), int8 (32)
    int block_num = 1;
};

// C0: elements in one 32-byte fractal row.
int ascendC0(const std::string& dtype);
// The NZ shape (cols1, rows1, 16, C0) of an ND (rows, cols) matrix.
std::vector<std::int64_t> ndToNzShape(std::int64_t rows, std::int64_t cols,
                                      const std::string& dtype);
// Reference mapping: NZ flat index of ND element (r, c) (padding cells are never produced).
std::int64_t ndToNzIndex(std::int64_t r, std::int64_t c, std::int64_t rows, std::int64_t cols,
                         const std::string& dtype);

// tilelang-ascend Python: builds the kernel, checks the NZ result against a NumPy reference
// (zero padding included) and prints TILESCOPE_* lines like the CUDA TileLang script.
std::string generateAscendNdToNzKernel(const AscendKernelOptions& opt = {});

struct CannInstallation {
    bool complete = false;      // toolkit + compiler + msprof + python with tilelang
    std::string toolkit;        // resolved toolkit root, or empty
    std::string toolkit_source; // "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME" or the default path
    std::string compiler;       // bisheng or ccec
    std::string msprof;
    std::string npu_smi;              // optional: the driver's npu-smi
    std::vector<std::string> missing; // one sentence per missing piece
    std::string summary() const;      // what was found, then exactly what is missing
};

// `env` overrides getenv (tests); an absent key means "unset". `python` is used only to name
// the interpreter in messages (importability of tilelang is the caller's run).
CannInstallation detectCann(const std::map<std::string, std::string>* env = nullptr);

} // namespace ts
