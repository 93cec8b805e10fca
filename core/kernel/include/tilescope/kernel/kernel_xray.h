// SPDX-License-Identifier: Apache-2.0
// The kernel X-ray: every shared-memory access of a TileLang-generated CUDA kernel, evaluated
// for each warp of one thread block and each iteration of the loops around it, through the bank
// model (banks/bank_model.h); totals per source line and per kernel; the footprint, the register
// lower bound and the occupancy.
//
// How an access is found: the kernel body is walked once, symbolically. Integer variables
// become index expressions over threadIdx.{x,y,z}, blockIdx.{x,y,z} and one variable per loop
// (loops with constant trip counts; the loop variable is start + step * iteration); pointers
// carry their memory space, the buffer they point into, their element type and a byte offset
// expression. A load or store through a shared pointer, a cp.async / ldmatrix / stmatrix call
// with a shared destination or source, is an access site. Conditions of enclosing `if`s
// decide which lanes are active. Whatever cannot be evaluated (a data-dependent index or
// condition, a loop whose bounds are not constants, a shared pointer handed to a function the
// reader does not know, a TMA or wgmma operand, an operation inside a template such as
// tl::AllReduce) is a site with a reason and no numbers.
//
// Prediction is per thread block, with blockIdx = (0, 0, 0): a site whose address or condition
// depends on blockIdx says so (other blocks may differ).
#pragma once

#include "tilescope/banks/bank_model.h"
#include "tilescope/lang/expr.h"

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ts::kernel {

enum class AccessKind {
    Load,     // ld.shared (scalar or vector)
    Store,    // st.shared
    LdMatrix, // ldmatrix.x1/x2/x4[.trans]
    StMatrix, // stmatrix
    CpAsync,  // cp.async global -> shared (the shared side is a store)
    Atomic,   // atomics on shared memory
    Tma,      // cp.async.bulk.tensor: the TMA unit writes shared memory, not the LSU
    Mma,      // wgmma / tl::gemm_* operands read by the tensor core or inside a template
    Barrier,  // mbarrier objects
    Other     // a shared pointer handed to a function the reader does not know
};
std::string kindName(AccessKind k);
// Whether the kind is an LSU shared-memory access the bank model predicts.
bool isLsu(AccessKind k);

struct Buffer {
    std::string name;
    std::string scope; // "shared.dyn", "shared", "local", "global", "param"
    std::string ctype; // element C type as declared ("half_t", "uchar", "void")
    int element_bytes = 0;
    int parent = -1;                // a named part of the dynamic buffer: that buffer's index
    std::int64_t offset = 0;        // byte offset in its parent (the dynamic buffer)
    std::int64_t address = 0;       // byte address of its start in the shared window
    int align = 0;                  // __align__(N) as declared
    std::int64_t bytes = -1;        // allocated bytes; -1 unknown
    std::int64_t accessed_end = 0;  // one past the highest byte an analysed access touches
    std::vector<std::int64_t> dims; // declared array extents (local / static shared)
    int line = 0;
    std::string note; // how `bytes` was found
    // From a lowering (attachLayouts): the buffer as TileLang allocated it and the layout its
    // inference chose (repr as TileLang prints it, mapping-language text when it parsed).
    std::string dtype;
    std::vector<std::int64_t> shape;
    std::string layout_repr, layout_mapping, layout_error, layout_kind;
};

struct Loop {
    std::string var;  // the iteration variable the expressions use (unique per loop)
    std::string name; // as written in the source
    std::int64_t start = 0, step = 1, extent = 0;
    int line = 0;
};

struct Site {
    int line = 0, column = 0;
    AccessKind kind = AccessKind::Load;
    int bytes = 4;    // per lane
    int matrices = 0; // ldmatrix / stmatrix
    bool trans = false;
    int buffer = -1;              // index into KernelXray::buffers (-1 unknown)
    Expr address;                 // byte address from the buffer's start (null when not analysed)
    Expr global_address;          // cp.async: the global source's byte offset from its parameter
    std::vector<Expr> conditions; // a lane is active where every one is non-zero
    std::vector<Loop> loops;      // enclosing loops, outermost first
    std::string text;             // the source text of the access, shortened
    std::string not_analysed;     // reason; empty when analysed
    std::string note;             // e.g. depends on blockIdx
    int epoch = 0;                // barriers (__syncthreads, ...) walked before the access
    // A load of which each thread reads back only what it stored itself since the last barrier
    // (outside any loop the two share): the compiler may keep the data in registers.
    bool forwardable = false;
    std::string opName() const; // "ld.shared.v4 (16 B)", "ldmatrix.x4.trans", ...
};

struct SiteCost {
    std::int64_t instructions = 0, wavefronts = 0, ideal = 0, excess = 0;
    // What the banks alone cost: less than `wavefronts` for a cp.async whose phases read several
    // global lines (then the excess is not a bank conflict, and is not called one).
    std::int64_t bank_wavefronts = 0;
    int min_wavefronts = 0, max_wavefronts = 0;
    // The loops whose variables the access uses, each instance's wavefronts (-1: no lane
    // active, not issued): [instance = iteration over `used_loops` (row-major) * warps + warp].
    std::vector<int> used_loops; // indices into Site::loops
    std::int64_t repeat = 1;     // product of the extents of the other loops
    int warps = 0;
    std::vector<std::int32_t> per_instance;
};

struct LineTotal {
    int line = 0;
    std::vector<int> sites;
    std::int64_t instructions = 0, wavefronts = 0, ideal = 0, excess = 0;
    int not_analysed = 0; // sites on the line without numbers
};

struct ArchLimits {
    std::string arch;
    int max_threads_per_sm, max_blocks_per_sm, max_warps_per_sm;
    int regs_per_sm, max_regs_per_thread, reg_alloc_unit; // per warp
    std::int64_t smem_per_sm, max_smem_per_block, reserved_smem_per_block, smem_alloc_unit;
};
const ArchLimits* archLimits(const std::string& arch); // "sm_80", "sm_90"; null if unknown

struct Occupancy {
    std::string arch;
    int blocks_per_sm = 0;
    int by_threads = 0, by_registers = 0, by_shared = 0;
    std::string limiter;  // "threads", "registers", "shared memory", "does not fit: ..."
    double occupancy = 0; // active warps / max warps
};

struct KernelXray {
    std::string name;
    int line = 0;
    std::array<int, 3> block{1, 1, 1};
    std::string block_source; // "__launch_bounds__(128)", "--block", "meta"
    int warps = 0;
    std::vector<Buffer> buffers;
    std::vector<Site> sites;
    std::vector<SiteCost> costs; // [site]; empty cost for sites not analysed
    std::vector<LineTotal> lines;
    std::int64_t instructions = 0, wavefronts = 0, ideal = 0, excess = 0;
    int sites_not_analysed = 0;
    // Summary
    std::int64_t static_smem = 0, dynamic_smem = 0;
    std::string dynamic_smem_source; // "launch" or "accesses (lower bound)"
    int registers_lower_bound = 0;   // fragments (local arrays) only
    std::vector<Occupancy> occupancy;
    std::vector<std::string> notes;
};

struct XrayOptions {
    std::string function;                           // empty: every __global__ kernel
    std::array<int, 3> block{0, 0, 0};              // 0: from __launch_bounds__
    std::int64_t dynamic_smem = -1;                 // -1: inferred from the accesses
    std::map<std::string, std::int64_t> scalars;    // values of scalar kernel parameters
    std::int64_t max_lanes = std::int64_t(1) << 24; // per site: instances * 32
};

// Throws ParseError (line and column) on text that is not C, InputError when the text has no
// __global__ kernel or names an unknown --function (listing the kernels).
std::vector<KernelXray> xrayKernels(const std::string& source, const XrayOptions& opt = {});

// The 32 lane addresses of one instance of a site (inactive lanes: active = false), for
// overlays and tests. Throws InputError for a site not analysed or an instance out of range.
Instruction siteInstruction(const KernelXray& k, int site, std::int64_t iteration, int warp);
// How many iterations (over the site's used loops) a site has.
std::int64_t siteIterations(const KernelXray& k, int site);

void toJson(nlohmann::json& j, const KernelXray& k);
std::string formatXray(const KernelXray& k); // the CLI's tables

} // namespace ts::kernel
