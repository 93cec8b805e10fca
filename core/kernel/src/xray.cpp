// SPDX-License-Identifier: Apache-2.0
#include "tilescope/kernel/kernel_xray.h"

#include "tilescope/lang/expr_eval.h"
#include "tilescope/support/errors.h"
#include "walk.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace ts::kernel {

namespace {

const char* const kThreadVars[6] = {"threadIdx.x", "threadIdx.y", "threadIdx.z",
                                    "blockIdx.x",  "blockIdx.y",  "blockIdx.z"};

std::int64_t alignUp(std::int64_t v, std::int64_t a) {
    return a > 1 ? (v + a - 1) / a * a : v;
}

SharedOp bankOp(AccessKind k) {
    switch (k) {
    case AccessKind::Store:
    case AccessKind::CpAsync:
        return SharedOp::Store;
    case AccessKind::LdMatrix:
        return SharedOp::LdMatrix;
    case AccessKind::StMatrix:
        return SharedOp::StMatrix;
    default:
        return SharedOp::Load;
    }
}

// Evaluates a site's address and conditions for a range of instances.
struct SiteEval {
    const KernelXray& k;
    const Site& s;
    std::vector<int> used; // loop indices
    std::vector<std::int64_t> iterExtents;
    std::int64_t iterations = 1, repeat = 1;
    int threads = 0;
    std::unique_ptr<Program> program;
    std::vector<std::string> vars;
    std::int64_t base = 0; // the buffer's address

    SiteEval(const KernelXray& kx, const Site& site) : k(kx), s(site) {
        std::set<std::string> names;
        collectVars(s.address, names);
        if (s.global_address) collectVars(s.global_address, names);
        for (const auto& c : s.conditions)
            collectVars(c, names);
        for (std::size_t l = 0; l < s.loops.size(); ++l) {
            if (names.count(s.loops[l].var)) {
                used.push_back(int(l));
                iterExtents.push_back(s.loops[l].extent);
                iterations *= s.loops[l].extent;
            } else {
                repeat *= s.loops[l].extent;
            }
        }
        threads = k.block[0] * k.block[1] * k.block[2];
        for (const char* v : kThreadVars)
            vars.push_back(v);
        for (int l : used)
            vars.push_back(s.loops[std::size_t(l)].var);
        for (const auto& n : names)
            if (std::find(vars.begin(), vars.end(), n) == vars.end())
                throw InputError("the access uses '" + n + "', which has no value");
        std::vector<Expr> outs{s.address};
        if (s.global_address) outs.push_back(s.global_address);
        for (const auto& c : s.conditions)
            outs.push_back(c);
        program = std::make_unique<Program>(outs, vars);
        if (s.buffer >= 0) base = k.buffers[std::size_t(s.buffer)].address;
    }

    // Addresses (absolute) and activity of instances [first, first + n): 32 lanes each.
    void run(std::int64_t first, std::int64_t n, std::vector<std::int64_t>& addr,
             std::vector<char>& active, std::vector<std::int64_t>* global = nullptr) const {
        const std::size_t points = std::size_t(n) * 32;
        std::vector<std::vector<std::int64_t>> in(vars.size(),
                                                  std::vector<std::int64_t>(points, 0));
        std::vector<char> exists(points, 0);
        const int warps = k.warps;
        std::vector<std::int64_t> idx(used.size());
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int64_t inst = first + i;
            std::int64_t it = inst / warps;
            const int warp = int(inst % warps);
            for (std::size_t u = used.size(); u-- > 0;) {
                idx[u] = it % iterExtents[u];
                it /= iterExtents[u];
            }
            for (int lane = 0; lane < 32; ++lane) {
                const std::size_t p = std::size_t(i) * 32 + std::size_t(lane);
                const int t = warp * 32 + lane;
                if (t < threads) {
                    exists[p] = 1;
                    in[0][p] = t % k.block[0];
                    in[1][p] = (t / k.block[0]) % k.block[1];
                    in[2][p] = t / (k.block[0] * k.block[1]);
                }
                for (std::size_t u = 0; u < used.size(); ++u)
                    in[6 + u][p] = idx[u];
            }
        }
        std::vector<std::vector<std::int64_t>> out(program->outputCount(),
                                                   std::vector<std::int64_t>(points));
        std::vector<const std::int64_t*> ins;
        for (auto& v : in)
            ins.push_back(v.data());
        std::vector<std::int64_t*> outs;
        for (auto& v : out)
            outs.push_back(v.data());
        std::size_t failed = 0;
        std::string message;
        for (std::size_t b = 0; b < points; b += Program::kBatch) {
            const std::size_t m = std::min(Program::kBatch, points - b);
            std::vector<const std::int64_t*> ib;
            for (auto* x : ins)
                ib.push_back(x + b);
            std::vector<std::int64_t*> ob;
            for (auto* x : outs)
                ob.push_back(x + b);
            if (!program->run(ib, ob, m, failed, message)) {
                const std::size_t p = b + failed;
                throw InputError(
                    message + " at thread " + std::to_string(in[0][p]) +
                    (used.empty()
                         ? std::string()
                         : ", iteration " + std::to_string(first + std::int64_t(p / 32) / warps)));
            }
        }
        addr.assign(points, 0);
        active.assign(points, 0);
        const std::size_t firstCond = s.global_address ? 2 : 1;
        if (global) global->assign(points, 0);
        for (std::size_t p = 0; p < points; ++p) {
            bool on = exists[p];
            for (std::size_t c = firstCond; on && c < out.size(); ++c)
                on = out[c][p] != 0;
            active[p] = on;
            addr[p] = base + out[0][p];
            if (global && s.global_address) (*global)[p] = out[1][p];
        }
    }
};

Instruction makeInstruction(const Site& s, const std::int64_t* addr, const char* active) {
    Instruction ins;
    ins.op = bankOp(s.kind);
    ins.bytes_per_lane =
        s.kind == AccessKind::LdMatrix || s.kind == AccessKind::StMatrix ? 16 : s.bytes;
    ins.matrices = s.matrices ? s.matrices : 4;
    ins.trans = s.trans;
    for (int l = 0; l < 32; ++l)
        if (active[l]) ins.lanes.push_back({l, addr[l], true});
    return ins;
}

// cp.async (LDGSTS) writes shared memory as the global data arrives: measured on an H200, a
// phase whose lanes read from n distinct 128-byte global lines costs n wavefronts when that is
// more than its shared-side (bank) cost. The global buffer is taken as 128-byte aligned, as
// cudaMalloc's are.
int cpAsyncWavefronts(const InstructionCost& ic, const std::int64_t* global, const char* active) {
    int total = 0;
    const int lpp = std::max(1, ic.lanes_per_phase);
    for (int p = 0; p < ic.phases; ++p) {
        std::set<std::int64_t> lines;
        for (int l = p * lpp; l < (p + 1) * lpp && l < 32; ++l)
            if (active[l]) lines.insert(global[l] >> 7);
        const int bank =
            p < int(ic.phase_wavefronts.size()) ? ic.phase_wavefronts[std::size_t(p)] : 0;
        total += std::max(bank, int(lines.size()));
    }
    return total;
}

void costSite(KernelXray& k, std::size_t si, const XrayOptions& opt) {
    Site& s = k.sites[si];
    SiteCost& c = k.costs[si];
    if (!s.not_analysed.empty()) return;
    if (!isLsu(s.kind)) {
        s.not_analysed = "not an LSU access";
        return;
    }
    try {
        SiteEval ev(k, s);
        std::set<std::string> names;
        collectVars(s.address, names);
        for (const auto& cond : s.conditions)
            collectVars(cond, names);
        if (names.count("blockIdx.x") || names.count("blockIdx.y") || names.count("blockIdx.z"))
            s.note = "depends on blockIdx: block (0, 0, 0) shown, other blocks may differ";
        c.used_loops = ev.used;
        c.repeat = ev.repeat;
        c.warps = k.warps;
        const std::int64_t instances = ev.iterations * k.warps;
        if (instances * 32 > opt.max_lanes) {
            s.not_analysed = std::to_string(ev.iterations) + " iterations x " +
                             std::to_string(k.warps) + " warps: more lanes than the " +
                             std::to_string(opt.max_lanes) + " evaluated per access";
            return;
        }
        c.per_instance.assign(std::size_t(instances), -1);
        // relative lanes -> (wavefronts, ideal, the bank model's own wavefronts)
        std::unordered_map<std::string, std::array<int, 3>> cache;
        std::vector<std::int64_t> addr, global;
        std::vector<char> active;
        const std::int64_t chunk = 2048;
        const bool lines = s.kind == AccessKind::CpAsync && s.global_address;
        if (s.kind == AccessKind::CpAsync && !s.global_address)
            s.note = "the global source's address is not known: wavefronts from the shared side "
                     "alone (a phase that reads several 128-byte global lines costs more)";
        c.min_wavefronts = 1 << 30;
        Buffer* buf = s.buffer >= 0 ? &k.buffers[std::size_t(s.buffer)] : nullptr;
        const int bytes =
            s.kind == AccessKind::LdMatrix || s.kind == AccessKind::StMatrix ? 16 : s.bytes;
        for (std::int64_t f = 0; f < instances; f += chunk) {
            const std::int64_t n = std::min(chunk, instances - f);
            ev.run(f, n, addr, active, lines ? &global : nullptr);
            for (std::int64_t i = 0; i < n; ++i) {
                const std::int64_t* a = addr.data() + i * 32;
                const char* on = active.data() + i * 32;
                std::int64_t first = -1;
                std::string key;
                key.reserve(32 * 5);
                for (int l = 0; l < 32; ++l) {
                    if (!on[l]) {
                        key.append(5, '\xff');
                        continue;
                    }
                    if (a[l] < 0)
                        throw InputError("lane " + std::to_string(l) +
                                         " has the negative shared address " +
                                         std::to_string(a[l]));
                    if (first < 0) first = a[l] / 128 * 128;
                    const std::int64_t rel = a[l] - first;
                    key.push_back(char(1));
                    key.append(reinterpret_cast<const char*>(&rel), 4);
                    if (lines) {
                        const std::int64_t line =
                            (global[std::size_t(i * 32 + l)] - global[std::size_t(i * 32)]) >> 7;
                        key.append(reinterpret_cast<const char*>(&line), 4);
                    }
                    if (buf) {
                        const std::int64_t end = a[l] + bytes - buf->address;
                        buf->accessed_end = std::max(buf->accessed_end, end);
                    }
                }
                if (first < 0) continue; // no lane active: the warp skips the instruction
                auto it = cache.find(key);
                if (it == cache.end()) {
                    const InstructionCost ic = analyzeInstruction(makeInstruction(s, a, on));
                    int wf = ic.wavefronts;
                    if (lines) wf = cpAsyncWavefronts(ic, global.data() + i * 32, on);
                    it = cache.emplace(key, std::array<int, 3>{wf, ic.ideal, ic.wavefronts}).first;
                }
                const auto [wf, ideal, bankWf] = it->second;
                c.bank_wavefronts += std::int64_t(bankWf) * c.repeat;
                c.per_instance[std::size_t(f + i)] = wf;
                c.instructions += c.repeat;
                c.wavefronts += std::int64_t(wf) * c.repeat;
                c.ideal += std::int64_t(ideal) * c.repeat;
                c.min_wavefronts = std::min(c.min_wavefronts, wf);
                c.max_wavefronts = std::max(c.max_wavefronts, wf);
            }
        }
        if (c.instructions == 0) c.min_wavefronts = 0;
        c.excess = c.wavefronts - c.ideal;
    } catch (const std::exception& e) {
        s.not_analysed = std::string("evaluation failed: ") + e.what();
        c = SiteCost{};
    }
}

void layoutShared(KernelXray& k) {
    std::int64_t cur = 0;
    for (auto& b : k.buffers)
        if (b.scope == "shared" && b.parent < 0) {
            b.address = alignUp(cur, std::max<std::int64_t>({16, b.align, b.element_bytes}));
            cur = b.address + std::max<std::int64_t>(0, b.bytes);
        }
    k.static_smem = cur;
    for (auto& b : k.buffers)
        if (b.scope == "shared.dyn" && b.parent < 0)
            b.address = alignUp(cur, std::max<std::int64_t>(16, b.align));
    for (auto& b : k.buffers)
        if (b.parent >= 0) b.address = k.buffers[std::size_t(b.parent)].address + b.offset;
}

void sizeBuffers(KernelXray& k, const XrayOptions& opt) {
    for (std::size_t d = 0; d < k.buffers.size(); ++d) {
        Buffer& dyn = k.buffers[d];
        if (dyn.scope != "shared.dyn" || dyn.parent >= 0) continue;
        std::vector<std::size_t> parts;
        for (std::size_t i = 0; i < k.buffers.size(); ++i)
            if (k.buffers[i].parent == int(d)) parts.push_back(i);
        std::sort(parts.begin(), parts.end(), [&](std::size_t a, std::size_t b) {
            return k.buffers[a].offset < k.buffers[b].offset;
        });
        std::int64_t used = dyn.accessed_end;
        for (std::size_t i : parts)
            used = std::max(used, k.buffers[i].offset + k.buffers[i].accessed_end);
        if (opt.dynamic_smem >= 0) {
            dyn.bytes = opt.dynamic_smem;
            k.dynamic_smem = opt.dynamic_smem;
            k.dynamic_smem_source = "launch";
            if (used > opt.dynamic_smem)
                k.notes.push_back("accesses reach byte " + std::to_string(used) +
                                  " of the dynamic buffer, beyond the " +
                                  std::to_string(opt.dynamic_smem) + " bytes given at launch");
        } else {
            dyn.bytes = used;
            k.dynamic_smem = used;
            k.dynamic_smem_source = "accesses (lower bound)";
            dyn.note += "; size from the highest byte accessed (a lower bound: give the launch's "
                        "dynamic shared memory size for the real one)";
        }
        for (std::size_t j = 0; j < parts.size(); ++j) {
            Buffer& b = k.buffers[parts[j]];
            // Buffers TileLang lets share storage start at one offset: the size runs to the next
            // larger offset.
            std::size_t nx = j + 1;
            while (nx < parts.size() && k.buffers[parts[nx]].offset == b.offset)
                ++nx;
            const std::int64_t end = nx < parts.size() ? k.buffers[parts[nx]].offset : dyn.bytes;
            b.bytes = std::max<std::int64_t>(0, end - b.offset);
            b.note += nx < parts.size() ? " (up to the next buffer)" : " (up to the buffer's end)";
        }
    }
}

void occupancy(KernelXray& k) {
    const int regs = k.registers_lower_bound; // the walk's peak of live local arrays
    const int threads = k.block[0] * k.block[1] * k.block[2];
    const std::int64_t smem = k.static_smem + k.dynamic_smem;
    for (const char* arch : {"sm_80", "sm_90"}) {
        const ArchLimits& L = *archLimits(arch);
        Occupancy o;
        o.arch = arch;
        const int warps = (threads + 31) / 32;
        o.by_threads = std::min(L.max_blocks_per_sm, L.max_warps_per_sm / std::max(1, warps));
        // Registers are allocated per warp in units of reg_alloc_unit (CUDA Occupancy Calculator).
        const int perWarp = int(alignUp(std::int64_t(std::max(regs, 1)) * 32, L.reg_alloc_unit));
        o.by_registers =
            regs > L.max_regs_per_thread ? 0 : (L.regs_per_sm / perWarp) / std::max(1, warps);
        const std::int64_t perBlock = alignUp(smem + L.reserved_smem_per_block, L.smem_alloc_unit);
        o.by_shared = smem > L.max_smem_per_block ? 0 : int(L.smem_per_sm / perBlock);
        o.blocks_per_sm = std::min({o.by_threads, o.by_registers, o.by_shared});
        if (smem > L.max_smem_per_block)
            o.limiter = "does not fit: " + std::to_string(smem) +
                        " bytes of shared memory, at most " + std::to_string(L.max_smem_per_block) +
                        " per block";
        else if (regs > L.max_regs_per_thread)
            o.limiter = "does not fit: at least " + std::to_string(regs) +
                        " registers per thread, at most " + std::to_string(L.max_regs_per_thread) +
                        " (the compiler spills)";
        else
            o.limiter = o.blocks_per_sm == o.by_shared      ? "shared memory"
                        : o.blocks_per_sm == o.by_registers ? "registers"
                                                            : "threads";
        o.occupancy = double(o.blocks_per_sm * warps) / L.max_warps_per_sm;
        k.occupancy.push_back(o);
    }
}

// Store-to-load forwarding: a load whose every lane reads an address its own thread stored
// (with the same width) at an earlier site of the same barrier epoch (no barrier between them).
void markForwardable(KernelXray& k) {
    // Loops around both accesses are allowed when neither uses their variables: then every
    // iteration stores and loads the same addresses, and the per-thread check below holds in
    // each iteration.
    auto usesCommonLoop = [](const Site& a, const Site& b) {
        std::set<std::string> names;
        collectVars(a.address, names);
        collectVars(b.address, names);
        for (const auto& c : a.conditions)
            collectVars(c, names);
        for (const auto& c : b.conditions)
            collectVars(c, names);
        for (const auto& x : a.loops)
            for (const auto& y : b.loops)
                if (x.var == y.var && names.count(x.var)) return true;
        return false;
    };
    for (std::size_t li = 0; li < k.sites.size(); ++li) {
        Site& L = k.sites[li];
        if (L.kind != AccessKind::Load || !L.not_analysed.empty()) continue;
        std::vector<std::size_t> stores;
        for (std::size_t si = 0; si < li; ++si) {
            const Site& S = k.sites[si];
            if ((S.kind == AccessKind::Store) && S.not_analysed.empty() && S.epoch == L.epoch &&
                S.bytes == L.bytes && !usesCommonLoop(S, L))
                stores.push_back(si);
        }
        if (stores.empty()) continue;
        try {
            const int threads = k.block[0] * k.block[1] * k.block[2];
            std::vector<std::set<std::int64_t>> written(static_cast<std::size_t>(threads));
            auto each = [&](std::size_t site, auto&& f) {
                SiteEval ev(k, k.sites[site]);
                const std::int64_t instances = ev.iterations * k.warps;
                if (instances * 32 > (1 << 20)) throw InputError("too many");
                std::vector<std::int64_t> addr;
                std::vector<char> active;
                ev.run(0, instances, addr, active);
                for (std::int64_t i = 0; i < instances; ++i)
                    for (int l = 0; l < 32; ++l)
                        if (active[std::size_t(i * 32 + l)])
                            f(int(i % k.warps) * 32 + l, addr[std::size_t(i * 32 + l)]);
            };
            for (std::size_t si : stores)
                each(si, [&](int t, std::int64_t a) { written[std::size_t(t)].insert(a); });
            bool all = true;
            each(li,
                 [&](int t, std::int64_t a) { all = all && written[std::size_t(t)].count(a) > 0; });
            if (all) {
                L.forwardable = true;
                std::string lines;
                for (std::size_t si : stores)
                    lines += (lines.empty() ? "" : ", ") + std::to_string(k.sites[si].line);
                L.note = "each thread reads back only what it stored itself at line " + lines +
                         " since the last barrier: the compiler may keep the data in registers "
                         "and issue no load";
            }
        } catch (const std::exception&) {
        }
    }
}

void lineTotals(KernelXray& k) {
    std::map<int, LineTotal> lines;
    for (std::size_t i = 0; i < k.sites.size(); ++i) {
        const Site& s = k.sites[i];
        LineTotal& l = lines[s.line];
        l.line = s.line;
        l.sites.push_back(int(i));
        if (!s.not_analysed.empty()) {
            ++l.not_analysed;
            ++k.sites_not_analysed;
            continue;
        }
        const SiteCost& c = k.costs[i];
        l.instructions += c.instructions;
        l.wavefronts += c.wavefronts;
        l.ideal += c.ideal;
        l.excess += c.excess;
        k.instructions += c.instructions;
        k.wavefronts += c.wavefronts;
        k.ideal += c.ideal;
        k.excess += c.excess;
    }
    for (auto& [line, t] : lines)
        k.lines.push_back(std::move(t));
}

} // namespace

std::string kindName(AccessKind k) {
    switch (k) {
    case AccessKind::Load:
        return "load";
    case AccessKind::Store:
        return "store";
    case AccessKind::LdMatrix:
        return "ldmatrix";
    case AccessKind::StMatrix:
        return "stmatrix";
    case AccessKind::CpAsync:
        return "cp.async";
    case AccessKind::Atomic:
        return "atomic";
    case AccessKind::Tma:
        return "tma";
    case AccessKind::Mma:
        return "mma-operand";
    case AccessKind::Barrier:
        return "mbarrier";
    case AccessKind::Other:
        return "other";
    }
    return "other";
}

bool isLsu(AccessKind k) {
    return k == AccessKind::Load || k == AccessKind::Store || k == AccessKind::LdMatrix ||
           k == AccessKind::StMatrix || k == AccessKind::CpAsync;
}

std::string Site::opName() const {
    switch (kind) {
    case AccessKind::Load:
    case AccessKind::Store: {
        std::string o = kind == AccessKind::Load ? "ld.shared" : "st.shared";
        if (bytes > 4) o += bytes == 8 ? ".v2" : bytes == 16 ? ".v4" : "";
        return o + " (" + std::to_string(bytes) + " B)";
    }
    case AccessKind::LdMatrix:
    case AccessKind::StMatrix:
        return std::string(kind == AccessKind::LdMatrix ? "ldmatrix" : "stmatrix") + ".x" +
               std::to_string(matrices) + (trans ? ".trans" : "");
    case AccessKind::CpAsync:
        return "cp.async (" + std::to_string(bytes) + " B)";
    default:
        return kindName(kind);
    }
}

const ArchLimits* archLimits(const std::string& arch) {
    // NVIDIA CUDA C++ Programming Guide, "Technical Specifications per Compute Capability"
    // (compute capability 8.0 and 9.0), and the CUDA Occupancy Calculator's allocation rules:
    // registers per warp in units of 256, shared memory in units of 128 bytes plus 1 KB the
    // system reserves per block (CUDA 11 and later). A100: 164 KB shared per SM, 163 KB per block;
    // H100/H200: 228 KB per SM, 227 KB per block.
    static const ArchLimits limits[] = {
        {"sm_80", 2048, 32, 64, 65536, 255, 256, 167936, 166912, 1024, 128},
        {"sm_90", 2048, 32, 64, 65536, 255, 256, 233472, 232448, 1024, 128},
    };
    for (const auto& l : limits)
        if (l.arch == arch) return &l;
    return nullptr;
}

std::vector<KernelXray> xrayKernels(const std::string& source, const XrayOptions& opt) {
    const c::TranslationUnit u = c::parse(source);
    std::vector<const c::Function*> kernels;
    std::string names;
    for (const auto& f : u.functions)
        if (f.global) {
            names += (names.empty() ? "" : ", ") + f.name;
            if (opt.function.empty() || opt.function == f.name) kernels.push_back(&f);
        }
    if (names.empty())
        throw InputError("no __global__ kernel in the source: is this TileLang's generated CUDA? "
                         "(a TileLang Python file is lowered first: give the .py)");
    if (kernels.empty())
        throw InputError("no kernel named '" + opt.function + "' (the source has: " + names + ")");
    std::vector<KernelXray> out;
    for (const c::Function* f : kernels) {
        KernelXray k;
        if (opt.block[0] > 0) {
            k.block = opt.block;
            for (auto& d : k.block)
                d = std::max(1, d);
            k.block_source = "given";
        } else if (f->launch_bounds > 0) {
            k.block = {f->launch_bounds, 1, 1};
            k.block_source = "__launch_bounds__(" + std::to_string(f->launch_bounds) + ")";
        } else {
            throw InputError("kernel '" + f->name + "' (line " + std::to_string(f->line) +
                             ") has no __launch_bounds__: give the block size (--block X,Y,Z)");
        }
        const int threads = k.block[0] * k.block[1] * k.block[2];
        if (threads > 1024)
            throw InputError("a block of " + std::to_string(threads) + " threads (at most 1024)");
        k.warps = (threads + 31) / 32;
        walkKernel(*f, opt, k);
        layoutShared(k);
        k.costs.assign(k.sites.size(), SiteCost{});
        for (std::size_t i = 0; i < k.sites.size(); ++i)
            costSite(k, i, opt);
        sizeBuffers(k, opt);
        markForwardable(k);
        occupancy(k);
        lineTotals(k);
        out.push_back(std::move(k));
    }
    return out;
}

std::int64_t siteIterations(const KernelXray& k, int site) {
    const SiteCost& c = k.costs.at(std::size_t(site));
    return c.warps ? std::int64_t(c.per_instance.size()) / c.warps : 0;
}

Instruction siteInstruction(const KernelXray& k, int site, std::int64_t iteration, int warp) {
    if (site < 0 || std::size_t(site) >= k.sites.size())
        throw InputError("no access " + std::to_string(site));
    const Site& s = k.sites[std::size_t(site)];
    if (!s.not_analysed.empty()) throw InputError("the access is not analysed: " + s.not_analysed);
    const std::int64_t its = siteIterations(k, site);
    if (iteration < 0 || iteration >= its || warp < 0 || warp >= k.warps)
        throw InputError("iteration " + std::to_string(iteration) + " of " + std::to_string(its) +
                         ", warp " + std::to_string(warp) + " of " + std::to_string(k.warps));
    SiteEval ev(k, s);
    std::vector<std::int64_t> addr;
    std::vector<char> active;
    ev.run(iteration * k.warps + warp, 1, addr, active);
    return makeInstruction(s, addr.data(), active.data());
}

} // namespace ts::kernel
