// SPDX-License-Identifier: Apache-2.0
// The Ascend path of a device run: an ND -> NZ round-trip kernel for tilelang-ascend (the
// detection of a CANN installation is in cann_detect.h).
//
// The kernel uses only data paths the Atlas A2/A3 cube core has: GM -> L1 (ND2NZ DMA, which pads
// the tail with zeros), L1 -> L0A / L0B, mmad into L0C, and L0C -> GM (fixpipe). The tile is
// multiplied by an identity matrix, so the result must equal the zero-padded input: that checks
// the data arrival and the padding. There is no L1 -> GM path on A2/A3 (CATLASS has no such tile
// copy; bishengir rejects it), so L1 is never read back directly.
//
// Two back ends, because tilelang-ascend has two incompatible branches:
//   ascendc_pto  the default branch, the same code as the PyPI tilelang-ascend 0.1.4 release:
//                T.Scope("C"), T.alloc_L0A/L0B/L0C, T.copy for every hop, T.mma, target "ascendc";
//   npuir        the AscendNPU-IR branch: T.Scope("Cube"), T.load_nd2nz, T.gemm,
//                T.store_fixpipe; target "npuir". It also stores L0C without the NZ -> ND
//                conversion, which exposes the L0C fractal order (make_l0c_layout) in GM.
// For npuir, ascendNpuirMlir() writes the HIVM IR that route lowers to, so that the real
// bishengir-compile (PyPI ascendnpu-ir) can check it on a CPU up to the step that needs CANN.
// Nothing here has run on an NPU (docs/ascend.md says which checks ran where).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ts {

enum class AscendBackend { AscendcPto, Npuir };
std::string ascendBackendName(AscendBackend b); // "ascendc_pto" / "npuir"
// "ascendc_pto" (also "released", "ascendc") or "npuir"; anything else is an InputError.
AscendBackend parseAscendBackend(const std::string& s);

struct AscendKernelOptions {
    std::int64_t rows = 100, cols = 60; // ND shape (any size: the tail is zero-padded)
    std::string dtype = "float16"; // float16/bfloat16 (C0 16), float32 (8), int8 (32), int4 (64)
    AscendBackend backend = AscendBackend::AscendcPto;
};

// C0: elements in one 32-byte fractal row (int4: 64).
int ascendC0(const std::string& dtype);
// The L0C accumulator type of a cube input type: float32 for floats, int32 for int8/int4.
std::string ascendAccumDtype(const std::string& dtype);
// The NZ shape (cols1, rows1, 16, C0) of an ND (rows, cols) matrix.
std::vector<std::int64_t> ndToNzShape(std::int64_t rows, std::int64_t cols,
                                      const std::string& dtype);
// Reference mapping: NZ flat index of ND element (r, c) (padding cells are never produced).
std::int64_t ndToNzIndex(std::int64_t r, std::int64_t c, std::int64_t rows, std::int64_t cols,
                         const std::string& dtype);

// The padded cube tile of the round trip: A (m x k) times identity (k x n) into L0C (m x n),
// m = rows rounded up to 16, k = cols rounded up to C0, n = k rounded up to 16.
struct AscendRoundTripTile {
    std::int64_t m = 0, k = 0, n = 0;
    std::string accum;
};
AscendRoundTripTile ascendRoundTripTile(const AscendKernelOptions& opt);

// The tilelang-ascend Python script for the chosen back end. It prints TILESCOPE_ROUNDTRIP
// pass|fail (exact comparison: the inputs are small integers, exact in every dtype) and
// TILESCOPE_LATENCY_MS, like the CUDA TileLang script. Throws InputError for a shape or dtype
// the back end cannot take, saying why.
std::string generateAscendNdToNzKernel(const AscendKernelOptions& opt = {});

// Every `T.<name>` and `tilelang.<name>` the ascendc_pto script uses, with the file:line of the
// released source (tile-ai/tilelang-ascend ascendc_pto @ 95acbd7, = PyPI 0.1.4) that defines it.
struct AscendApiName {
    std::string name, citation;
};
const std::vector<AscendApiName>& ascendReleasedApi();
// Names the released branch does not have (the script must not use them), with the reason.
const std::vector<AscendApiName>& ascendReleasedMissingApi();

// The HIVM IR (MLIR) of the npuir route's cube kernel, in the form tilelang-ascend's npuir
// codegen emits (hivm.hir.nd2nz, hivm.hir.mmadL1, hivm.hir.fixpipe with and without
// enable_nz2nd). `with_l1_to_gm_store` appends the copy L1 -> GM that the A2/A3 hardware
// lacks (what the old script did), which bishengir must reject.
std::string ascendNpuirMlir(const AscendKernelOptions& opt, bool with_l1_to_gm_store = false);
// The options tilelang-ascend's npuir JIT passes to bishengir-compile (expert mode, the
// default; tilelang/jit/jit_npu.py on the npuir branch), then the file and `-o out`.
std::vector<std::string> bishengirCompileArgs(const std::string& compiler,
                                              const std::string& mlir_file, const std::string& out);

} // namespace ts
