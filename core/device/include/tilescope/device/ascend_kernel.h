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
//                T.store_fixpipe(enable_nz2nd=True); target "npuir". (An earlier version also
//                stored L0C without nz2nd to expose its fractal order; no tilelang-ascend
//                example or test uses that form, so it was dropped.)
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

// The chip the run is meant for. tilelang-ascend picks its platform from the device name at run
// time (tilelang/utils/target.py: 910B -> A2, 910_93 -> A3, 950 -> A5), so Tilescope cannot
// see it before the run: the user says which, and the capacity check follows.
enum class AscendChip { A2A3, Ascend950 };
std::string ascendChipName(AscendChip c); // "Atlas A2/A3" / "Ascend 950"
std::string ascendChipId(AscendChip c);   // "a2a3" / "950"
// "a2a3" (also "a2", "a3", "910b"), "950" (also "a5", "ascend950"); else InputError.
AscendChip parseAscendChip(const std::string& s);

struct AscendKernelOptions {
    std::int64_t rows = 100, cols = 60; // ND shape (the tail is zero-padded; capacity-checked)
    std::string dtype = "float16"; // float16/bfloat16 (C0 16), float32 (8), int8 (32), int4 (64)
    AscendBackend backend = AscendBackend::AscendcPto;
    AscendChip chip = AscendChip::A2A3;
};

// The options of the ND->NZ round trip for a layout: its 2-D input shape is the tile, with the
// dtype, back end and chip as named by the user (parseAscendBackend, parseAscendChip). What the
// Run panel shows as the footprint and what the run generates are the same tile by construction.
// Throws the parser's error for mapping text that does not parse, and InputError for a tile that
// is not 2-D or an unknown back end or chip.
AscendKernelOptions ascendKernelOptionsFor(const std::string& mappingText, const std::string& dtype,
                                           const std::string& backend, const std::string& chip);

// On-chip capacities in bytes. The chip's come from CANN (see ascendChipCapacity in
// ascend_kernel.cpp for the sources); a route may use less (tilelang-ascend's released codegen
// gives L1 and UB 256 bytes less than the chip has).
struct AscendCapacity {
    std::int64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, ub = 0;
};
AscendCapacity ascendChipCapacity(AscendChip c);
// Where the numbers of ascendChipCapacity come from (one line).
std::string ascendChipCapacitySource(AscendChip c);

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
// m = rows rounded up to 16, k = cols rounded up to C0 (float32: to 16, see below), n = k
// rounded up to 16. float32's K is padded to 16, not C0 = 8: CATLASS's f32 L1 -> L0A/L0B loads
// (load3dv2, the TileCopyTla that tilelang-ascend's copy_l1_to_l0a/b call) round K up to 16 and
// would read and write past a K = 8 tile.
struct AscendRoundTripTile {
    std::int64_t m = 0, k = 0, n = 0;
    std::string accum;
};
AscendRoundTripTile ascendRoundTripTile(const AscendKernelOptions& opt);

// One on-chip buffer space of the script: what the script allocates there against what the
// chip has and what the route can use.
struct AscendBufferUse {
    std::string space;      // "L1", "L0A", "L0B", "L0C", "UB"
    std::string contents;   // the script's buffers there, e.g. "A_L1 112x64 + I_L1 64x64 float16"
    std::int64_t bytes = 0; // allocated by the script (0: the space is not used)
    std::int64_t chip_bytes = 0;   // the chip's capacity
    std::int64_t usable_bytes = 0; // what the route gives its buffers (<= chip_bytes)
    std::string usable_source;     // why usable_bytes, when it is not chip_bytes
    bool fits() const { return bytes <= usable_bytes; }
};
// Every on-chip buffer the generated script allocates, per space, for its chip and back end, and
// the rules the tile breaks (empty when it fits and is allowed). Shape checks (1..4096, even int4
// columns) throw InputError as before; capacity and dtype rules are reported here, each problem
// naming the rule and the numbers, e.g. "L0C needs 160 KB, the chip has 128 KB (...)".
struct AscendFootprint {
    AscendKernelOptions options;
    AscendRoundTripTile tile;
    std::vector<AscendBufferUse> buffers;
    std::vector<std::string> problems;
    bool ok() const { return problems.empty(); }
    // The per-buffer table the Run panel shows, then the problems.
    std::string describe() const;
};
AscendFootprint ascendFootprint(const AscendKernelOptions& opt);
// "14 KB", "511.75 KB", "160 KB", "512 B".
std::string formatAscendBytes(std::int64_t bytes);

// The tilelang-ascend Python script for the chosen back end. It prints TILESCOPE_ROUNDTRIP
// pass|fail (exact comparison: the inputs are small integers, exact in every dtype) and
// TILESCOPE_LATENCY_MS, like the CUDA TileLang script. Throws InputError for a shape or dtype
// the back end cannot take and for a tile that does not fit the chip (ascendFootprint's
// problems), saying why.
std::string generateAscendNdToNzKernel(const AscendKernelOptions& opt = {});

// The tilelang-ascend commit each script is written for: ascendc_pto @ 95acbd7 (= PyPI 0.1.4),
// npuir @ bd7c60c. tests/data/tilelang_ascend/<branch>_api.json lists what tilelang.language
// exports at that commit (made by tools/tilelang_ascend_api.py from tilelang-ascend's source);
// the tests check every `T.<name>` of the scripts against it and that its commit is this one,
// so refreshing the list for a newer commit forces the scripts to be checked against it.
std::string ascendTilelangCommit(AscendBackend b);

// Every `T.<name>` and `tilelang.<name>` the ascendc_pto script uses, with the file:line of the
// released source (tile-ai/tilelang-ascend ascendc_pto @ 95acbd7, = PyPI 0.1.4) that defines it.
struct AscendApiName {
    std::string name, citation;
};
const std::vector<AscendApiName>& ascendReleasedApi();
// Names the released branch does not have (the script must not use them), with the reason.
const std::vector<AscendApiName>& ascendReleasedMissingApi();

// The HIVM IR (MLIR) of the npuir route's cube kernel, in the form tilelang-ascend's npuir
// codegen emits: its function signature (ffts_base_address, sync-lock and workspace arguments,
// the launch grid), set_ffts_base_addr, reinterpret_casts, subviews, hivm.hir.nd2nz,
// hivm.hir.mmadL1, hivm.hir.fixpipe with enable_nz2nd. Written by Tilescope from reading the
// codegen, not produced by it. `with_l1_to_gm_store` appends the copy L1 -> GM that the A2/A3
// hardware lacks (what the old script did), which bishengir must reject.
std::string ascendNpuirMlir(const AscendKernelOptions& opt, bool with_l1_to_gm_store = false);
// The options tilelang-ascend's npuir JIT passes to bishengir-compile (expert mode, the
// default; tilelang/jit/jit_npu.py on the npuir branch), then the file and `-o out`.
std::vector<std::string> bishengirCompileArgs(const std::string& compiler,
                                              const std::string& mlir_file, const std::string& out);

} // namespace ts
