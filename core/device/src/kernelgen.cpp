// SPDX-License-Identifier: Apache-2.0
#include "tilescope/device/kernelgen.h"

#include "tilescope/support/errors.h"
#include "tilescope/support/wording.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ts {

namespace {

const char* elemType(int bytes) {
    switch (bytes) {
    case 1:
        return "unsigned char";
    case 2:
        return "unsigned short";
    case 4:
        return "unsigned int";
    case 8:
        return "unsigned long long";
    case 16:
        return "uint4";
    }
    throw InputError("element size must be 1, 2, 4, 8 or 16 bytes, got " + std::to_string(bytes));
}

void emitTable(std::ostringstream& os, const char* decl, const std::string& name,
               const std::vector<std::int64_t>& v) {
    os << decl << " " << name << "[" << std::max<std::size_t>(v.size(), 1) << "] = {";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i % 16 == 0) os << "\n    ";
        os << v[i] << ",";
    }
    if (v.empty()) os << "0";
    os << "\n};\n";
}

std::int64_t planFootprint(const AccessPlan& plan) {
    std::int64_t end = 0;
    for (const Instruction& ins : plan.instructions) {
        int bytes = ins.isMatrix() ? 16 : ins.bytes_per_lane;
        for (const LaneAccess& la : ins.lanes)
            if (la.active) end = std::max(end, la.byte_address + bytes);
    }
    return end;
}

// One instruction of the timed loop. `a` is the address register, `p` the active predicate
// register (empty when every lane is active), `acc` the accumulator.
void emitAccess(std::ostringstream& os, const Instruction& ins, int k, int u, bool all_active) {
    std::string a = "(a" + std::to_string(k) + "_" + std::to_string(u) + " + z)";
    std::string pre, post;
    if (!all_active && !ins.isMatrix()) {
        pre = "\"{\\n\\t.reg .pred p;\\n\\tsetp.ne.u32 p, %PRED, 0;\\n\\t@p ";
        post = "\\n\\t}\"";
    } else {
        pre = "\"";
        post = "\"";
    }
    auto fix = [&](std::string s, int pred_index) {
        auto pos = s.find("%PRED");
        if (pos != std::string::npos) s.replace(pos, 5, "%" + std::to_string(pred_index));
        return s;
    };
    std::string act = "act" + std::to_string(k);
    if (ins.op == SharedOp::Load) {
        switch (ins.bytes_per_lane) {
        case 1:
        case 2: {
            std::string t = ins.bytes_per_lane == 1 ? "u8" : "u16";
            os << "      { unsigned short r = 0; asm volatile(" << fix(pre, 2)
               << "ld.volatile.shared." << t << " %0, [%1];" << post << " : \"+h\"(r) : \"r\"" << a
               << (all_active ? "" : ", \"r\"(" + act + ")") << " : \"memory\"); acc ^= r; }\n";
            break;
        }
        case 4:
            os << "      { unsigned r = 0; asm volatile(" << fix(pre, 2)
               << "ld.volatile.shared.u32 %0, [%1];" << post << " : \"+r\"(r) : \"r\"" << a
               << (all_active ? "" : ", \"r\"(" + act + ")") << " : \"memory\"); acc ^= r; }\n";
            break;
        case 8:
            os << "      { unsigned r0 = 0, r1 = 0; asm volatile(" << fix(pre, 3)
               << "ld.volatile.shared.v2.u32 {%0, %1}, [%2];" << post
               << " : \"+r\"(r0), \"+r\"(r1) : \"r\"" << a
               << (all_active ? "" : ", \"r\"(" + act + ")")
               << " : \"memory\"); acc ^= r0 ^ r1; }\n";
            break;
        case 16:
            os << "      { unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0; asm volatile(" << fix(pre, 5)
               << "ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];" << post
               << " : \"+r\"(r0), \"+r\"(r1), \"+r\"(r2), \"+r\"(r3) : \"r\"" << a
               << (all_active ? "" : ", \"r\"(" + act + ")")
               << " : \"memory\"); acc ^= r0 ^ r1 ^ r2 ^ r3; }\n";
            break;
        }
    } else if (ins.op == SharedOp::Store) {
        switch (ins.bytes_per_lane) {
        case 1:
        case 2: {
            std::string t = ins.bytes_per_lane == 1 ? "u8" : "u16";
            os << "      { unsigned short v = (unsigned short)(acc + it); asm volatile("
               << fix(pre, 2) << "st.volatile.shared." << t << " [%0], %1;" << post << " :: \"r\""
               << a << ", \"h\"(v)" << (all_active ? "" : ", \"r\"(" + act + ")")
               << " : \"memory\"); }\n";
            break;
        }
        case 4:
            os << "      { unsigned v = acc + it; asm volatile(" << fix(pre, 2)
               << "st.volatile.shared.u32 [%0], %1;" << post << " :: \"r\"" << a << ", \"r\"(v)"
               << (all_active ? "" : ", \"r\"(" + act + ")") << " : \"memory\"); }\n";
            break;
        case 8:
            os << "      { unsigned v = acc + it; asm volatile(" << fix(pre, 3)
               << "st.volatile.shared.v2.u32 [%0], {%1, %2};" << post << " :: \"r\"" << a
               << ", \"r\"(v), \"r\"(v)" << (all_active ? "" : ", \"r\"(" + act + ")")
               << " : \"memory\"); }\n";
            break;
        case 16:
            os << "      { unsigned v = acc + it; asm volatile(" << fix(pre, 5)
               << "st.volatile.shared.v4.u32 [%0], {%1, %2, %3, %4};" << post << " :: \"r\"" << a
               << ", \"r\"(v), \"r\"(v), \"r\"(v), \"r\"(v)"
               << (all_active ? "" : ", \"r\"(" + act + ")") << " : \"memory\"); }\n";
            break;
        }
    } else {
        int n = ins.matrices;
        std::string shape = "m8n8.x" + std::to_string(n) + (ins.trans ? ".trans" : "");
        std::string regs;
        for (int r = 0; r < n; ++r)
            regs += (r ? ", %" : "%") + std::to_string(ins.op == SharedOp::LdMatrix ? r : r + 1);
        if (ins.op == SharedOp::LdMatrix) {
            os << "      { unsigned r[4] = {0, 0, 0, 0}; asm volatile(\"ldmatrix.sync.aligned."
               << shape << ".shared.b16 {" << regs << "}, [%" << n << "];\" : ";
            for (int r = 0; r < n; ++r)
                os << (r ? ", " : "") << "\"+r\"(r[" << r << "])";
            os << " : \"r\"" << a << " : \"memory\"); acc ^= r[0] ^ r[1] ^ r[2] ^ r[3]; }\n";
        } else {
            os << "      { unsigned v = acc + it; asm volatile(\"stmatrix.sync.aligned." << shape
               << ".shared.b16 [%0], {" << regs << "};\" :: \"r\"" << a;
            for (int r = 0; r < n; ++r)
                os << ", \"r\"(v)";
            os << " : \"memory\"); }\n";
        }
    }
}

} // namespace

TileDesc identityTileFor(const AccessPlan& plan, int elem_bytes) {
    elemType(elem_bytes);
    TileDesc t;
    t.elem_bytes = elem_bytes;
    t.elements = (planFootprint(plan) + elem_bytes - 1) / elem_bytes;
    return t;
}

GeneratedKernel generateCudaKernel(const AccessPlan& plan, const TileDesc& tile,
                                   const KernelGenOptions& opt) {
    validatePlan(plan);
    if (plan.bank_count * plan.bank_width != 128)
        throw InputError("kernel generation targets NVIDIA shared memory (32 banks x 4 B)");
    const char* T = elemType(tile.elem_bytes);
    if (tile.elements < 0) throw InputError("tile: negative element count");
    if (!tile.phys_of_logical.empty() && std::int64_t(tile.phys_of_logical.size()) != tile.elements)
        throw InputError("tile: phys_of_logical has " +
                         std::to_string(tile.phys_of_logical.size()) + " entries for " +
                         std::to_string(tile.elements) + " elements");
    for (char ch : opt.suffix)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'))
            throw InputError("kernel name suffix may hold only letters, digits and '_'");

    GeneratedKernel g;
    g.roundtrip_kernel = "ts_roundtrip" + opt.suffix;
    g.timed_kernel = "ts_timed" + opt.suffix;
    g.instructions = int(plan.instructions.size());

    // Physical extent and inverse (checks injectivity).
    std::vector<std::int64_t> phys(tile.elements);
    std::int64_t extent = 0;
    for (std::int64_t i = 0; i < tile.elements; ++i) {
        std::int64_t p = tile.phys_of_logical.empty() ? i : tile.phys_of_logical[i];
        if (p < 0)
            throw InputError("tile: logical element " + std::to_string(i) +
                             " maps to negative physical offset " + std::to_string(p));
        phys[i] = p;
        extent = std::max(extent, p + 1);
    }
    if (extent * tile.elem_bytes > opt.max_smem_bytes)
        throw InputError("tile needs " + std::to_string(extent * tile.elem_bytes) +
                         " bytes of shared memory, more than the " +
                         std::to_string(opt.max_smem_bytes) + " available per block");
    g.logical_of_phys.assign(extent, -1);
    for (std::int64_t i = 0; i < tile.elements; ++i) {
        auto& slot = g.logical_of_phys[phys[i]];
        if (slot >= 0)
            throw InputError("layout is not a bijection: logical elements " + std::to_string(slot) +
                             " and " + std::to_string(i) + " both map to physical offset " +
                             std::to_string(phys[i]));
        slot = i;
    }
    g.roundtrip_smem_bytes = std::max<std::int64_t>(16, (extent * tile.elem_bytes + 15) / 16 * 16);
    g.timed_smem_bytes = std::max<std::int64_t>(16, (planFootprint(plan) + 15) / 16 * 16);
    if (g.timed_smem_bytes > opt.max_smem_bytes)
        throw InputError("access plan touches " + std::to_string(g.timed_smem_bytes) +
                         " bytes of shared memory, more than the " +
                         std::to_string(opt.max_smem_bytes) + " available per block");

    const int n = g.instructions;
    g.unroll = n == 0 ? 1 : std::max(1, (opt.min_instructions_per_iter + n - 1) / n);
    for (const Instruction& ins : plan.instructions) {
        (ins.isStore() ? g.store_instructions : g.load_instructions)++;
        int bytes = ins.isMatrix() ? 16 : ins.bytes_per_lane;
        for (const LaneAccess& la : ins.lanes)
            if (la.active && (!ins.isMatrix() || la.lane < 8 * ins.matrices))
                g.bytes_per_pass += bytes;
    }

    const std::string& s = opt.suffix;
    std::ostringstream os;
    os << "// Generated by Tilescope (core/device/src/kernelgen.cpp). Device code only.\n"
       << "// Plan: " << countNoun(n, "instruction") << ", " << plan.bank_count << " banks x "
       << plan.bank_width << " B.\n";
    PlanCost pc = analyzePlan(plan);
    for (int k = 0; k < n; ++k)
        os << "//   [" << k << "] " << sharedOpName(plan.instructions[k].op) << " "
           << (plan.instructions[k].label.empty() ? "" : plan.instructions[k].label + ": ")
           << "predicted wavefronts " << pc.instructions[k].wavefronts << ", ideal "
           << pc.instructions[k].ideal << "\n";
    os << "\n";

    // ---- (a) round trip ----
    std::vector<std::int64_t> inv = g.logical_of_phys;
    emitTable(os, "__device__ const int", "ts_phys" + s, phys);
    emitTable(os, "__device__ const int", "ts_inv" + s, inv);
    os << "\nextern \"C\" __global__ void " << g.roundtrip_kernel << "(const " << T << "* in, " << T
       << "* out) {\n"
       << "  extern __shared__ __align__(16) unsigned char ts_smem_raw[];\n"
       << "  " << T << "* smem = reinterpret_cast<" << T << "*>(ts_smem_raw);\n"
       << "  for (int i = threadIdx.x; i < " << tile.elements << "; i += blockDim.x)\n"
       << "    smem[ts_phys" << s << "[i]] = in[i];\n"
       << "  __syncthreads();\n"
       << "  for (int p = threadIdx.x; p < " << extent << "; p += blockDim.x) {\n"
       << "    int l = ts_inv" << s << "[p];\n"
       << "    if (l >= 0) out[l] = smem[p];\n"
       << "  }\n"
       << "}\n\n";

    // ---- (b) timed loop ----
    std::vector<std::int64_t> addr(std::size_t(std::max(n, 1)) * kWarpSize, 0),
        mask(std::max(n, 1), 0);
    std::vector<bool> all_active(n, true);
    for (int k = 0; k < n; ++k) {
        const Instruction& ins = plan.instructions[k];
        unsigned m = 0;
        for (const LaneAccess& la : ins.lanes)
            if (la.active) {
                addr[std::size_t(k) * kWarpSize + la.lane] = la.byte_address;
                m |= 1u << la.lane;
            }
        mask[k] = m;
        all_active[k] = (m == 0xffffffffu);
    }
    emitTable(os, "__constant__ unsigned", "ts_addr" + s, addr);
    emitTable(os, "__constant__ unsigned", "ts_mask" + s, mask);
    os << "\nextern \"C\" __global__ void " << g.timed_kernel
       << "(unsigned long long* cycles, unsigned* sink, int iters, unsigned zero) {\n"
       << "  extern __shared__ __align__(16) unsigned char ts_smem_raw[];\n"
       << "  const unsigned lane = threadIdx.x & 31u;\n"
       << "  unsigned base;\n"
       << "  asm(\"{ .reg .u64 t; cvta.to.shared.u64 t, %1; cvt.u32.u64 %0, t; }\" : \"=r\"(base) "
          ": "
          "\"l\"(ts_smem_raw));\n"
       << "  unsigned acc = lane;\n";
    for (int k = 0; k < n; ++k) {
        os << "  const unsigned a" << k << " = base + ts_addr" << s << "[" << k
           << " * 32 + lane];\n";
        // One address register per unrolled copy, offset by (copy & zero) == 0: ptxas cannot
        // prove the copies equal, so it cannot merge them (it merged identical ldmatrix copies).
        for (int u = 0; u < g.unroll; ++u)
            os << "  const unsigned a" << k << "_" << u << " = a" << k << " + (" << u
               << "u & zero);\n";
        if (!all_active[k] && !plan.instructions[k].isMatrix())
            os << "  const unsigned act" << k << " = (ts_mask" << s << "[" << k
               << "] >> lane) & 1u;\n";
    }
    os << "  __syncthreads();\n"
       << "  const long long t0 = clock64();\n"
       << "#pragma unroll 1\n"
       << "  for (int it = 0; it < iters; ++it) {\n"
       << "    const unsigned z = (unsigned)it & zero;\n";
    for (int u = 0; u < g.unroll; ++u) {
        os << "    // pass " << u << "\n";
        for (int k = 0; k < n; ++k)
            emitAccess(os, plan.instructions[k], k, u, all_active[k]);
    }
    os << "  }\n"
       << "  const long long t1 = clock64();\n"
       << "  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;\n"
       << "  if (lane == 0) cycles[warp] = (unsigned long long)(t1 - t0);\n"
       << "  if (acc == 0x9e3779b9u + zero) sink[warp] = acc;\n"
       << "}\n";
    g.source = os.str();
    return g;
}

} // namespace ts
