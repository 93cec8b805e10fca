// SPDX-License-Identifier: Apache-2.0
// CUDA source generation for measuring an AccessPlan on a GPU.
//
// The emitted source is device code only (no host code, no includes), with two extern "C"
// kernels whose names end in `KernelGenOptions::suffix`:
//
//   ts_roundtrip<suffix>(const T* in, T* out)
//       One block copies a tile global -> shared through the layout (smem[phys[i]] = in[i]) and
//       back through its inverse (out[inv[p]] = smem[p]); the host checks out == in. Tables live
//       in __device__ arrays. Dynamic shared memory: GeneratedKernel::roundtrip_smem_bytes.
//
//   ts_timed<suffix>(unsigned long long* cycles, unsigned* sink, int iters, unsigned zero)
//       Every warp repeats exactly the plan's shared accesses `iters * unroll` times with inline
//       PTX (ld/st.volatile.shared[.v2|.v4], ldmatrix/stmatrix .sync.aligned). Per-lane offsets
//       and active masks sit in __constant__ tables. Addresses get `+ (it & zero)` (zero == 0
//       at run time, unknown to the compiler) so nothing can be hoisted. Lane 0 of each warp
//       writes clock64() cycles spent in the loop to cycles[global warp id]. Launch with
//       GeneratedKernel::timed_smem_bytes of dynamic shared memory and pass zero = 0.
//
// Bad input (not a bijection, tile larger than shared memory) throws InputError.
#pragma once

#include "tilescope/banks/bank_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

struct TileDesc {
    int elem_bytes = 4;                        // 1, 2, 4, 8 or 16
    std::int64_t elements = 0;                 // logical elements in the shared tile
    std::vector<std::int64_t> phys_of_logical; // logical -> physical element; empty = identity
};

struct KernelGenOptions {
    std::string suffix;                       // appended to kernel and table names
    int min_instructions_per_iter = 8;        // body replicated until it holds at least this many
    std::int64_t max_smem_bytes = 227 * 1024; // sm_90 opt-in limit per block
};

struct GeneratedKernel {
    std::string source;
    std::string roundtrip_kernel; // "ts_roundtrip" + suffix
    std::string timed_kernel;     // "ts_timed" + suffix
    std::int64_t roundtrip_smem_bytes = 0;
    std::int64_t timed_smem_bytes = 0;
    int unroll = 1;                  // copies of the plan's instructions per loop iteration
    int instructions = 0;            // instructions in the plan
    int load_instructions = 0;       // per plan pass (ld + ldmatrix)
    int store_instructions = 0;      // per plan pass (st + stmatrix)
    std::int64_t bytes_per_pass = 0; // bytes moved by one warp in one plan pass (active lanes)
    std::vector<std::int64_t> logical_of_phys; // inverse table; -1 for holes
};

GeneratedKernel generateCudaKernel(const AccessPlan& plan, const TileDesc& tile,
                                   const KernelGenOptions& opt = {});

// Identity tile covering every byte the plan touches, in elements of elem_bytes.
TileDesc identityTileFor(const AccessPlan& plan, int elem_bytes = 4);

} // namespace ts
