// SPDX-License-Identifier: Apache-2.0
#include "tilescope/kernel/kernel_xray.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ts::kernel {

void toJson(nlohmann::json& j, const KernelXray& k) {
    using nlohmann::json;
    j = json::object();
    j["kernel"] = k.name;
    j["line"] = k.line;
    j["block"] = {k.block[0], k.block[1], k.block[2]};
    j["block_source"] = k.block_source;
    j["warps"] = k.warps;
    json bufs = json::array();
    for (const auto& b : k.buffers) {
        json x{{"name", b.name},   {"scope", b.scope},
               {"ctype", b.ctype}, {"element_bytes", b.element_bytes},
               {"line", b.line},   {"note", b.note}};
        if (b.bytes >= 0) x["bytes"] = b.bytes;
        if (!b.dims.empty()) x["dims"] = b.dims;
        if (!b.dtype.empty()) x["dtype"] = b.dtype;
        if (!b.shape.empty()) x["shape"] = b.shape;
        if (!b.layout_repr.empty()) {
            x["inferred_layout"] = {{"kind", b.layout_kind}, {"repr", b.layout_repr}};
            if (!b.layout_mapping.empty()) x["inferred_layout"]["mapping"] = b.layout_mapping;
            if (!b.layout_error.empty()) x["inferred_layout"]["error"] = b.layout_error;
        }
        if (b.scope == "shared" || b.scope == "shared.dyn") {
            x["address"] = b.address;
            x["accessed_bytes"] = b.accessed_end;
            if (b.parent >= 0) {
                x["parent"] = k.buffers[std::size_t(b.parent)].name;
                x["offset"] = b.offset;
            }
        }
        bufs.push_back(std::move(x));
    }
    j["buffers"] = std::move(bufs);
    json sites = json::array();
    for (std::size_t i = 0; i < k.sites.size(); ++i) {
        const Site& s = k.sites[i];
        json x{{"line", s.line},   {"column", s.column},        {"kind", kindName(s.kind)},
               {"op", s.opName()}, {"bytes_per_lane", s.bytes}, {"text", s.text}};
        x["buffer"] = s.buffer >= 0 ? json(k.buffers[std::size_t(s.buffer)].name) : json(nullptr);
        json loops = json::array();
        for (const auto& l : s.loops)
            loops.push_back({{"var", l.name},
                             {"line", l.line},
                             {"start", l.start},
                             {"step", l.step},
                             {"extent", l.extent}});
        x["loops"] = std::move(loops);
        if (!s.note.empty()) x["note"] = s.note;
        if (!s.not_analysed.empty()) {
            x["not_analysed"] = s.not_analysed;
        } else {
            const SiteCost& c = k.costs[i];
            x["address"] = printExpr(s.address);
            x["instructions"] = c.instructions;
            x["wavefronts"] = c.wavefronts;
            x["ideal"] = c.ideal;
            x["excess"] = c.excess;
            x["bank_excess"] = c.bank_wavefronts - c.ideal;
            x["wavefronts_per_instruction"] = {{"min", c.min_wavefronts},
                                               {"max", c.max_wavefronts}};
            json used = json::array();
            for (int u : c.used_loops)
                used.push_back(s.loops[std::size_t(u)].name);
            x["iterated_loops"] = std::move(used);
            x["repeat"] = c.repeat;
        }
        sites.push_back(std::move(x));
    }
    j["accesses"] = std::move(sites);
    json lines = json::array();
    for (const auto& l : k.lines)
        lines.push_back({{"line", l.line},
                         {"accesses", l.sites},
                         {"instructions", l.instructions},
                         {"wavefronts", l.wavefronts},
                         {"ideal", l.ideal},
                         {"excess", l.excess},
                         {"not_analysed", l.not_analysed}});
    j["lines"] = std::move(lines);
    j["totals"] = {{"instructions", k.instructions},
                   {"wavefronts", k.wavefronts},
                   {"ideal", k.ideal},
                   {"excess", k.excess},
                   {"accesses_not_analysed", k.sites_not_analysed},
                   {"per", "one thread block (blockIdx = 0)"}};
    json occ = json::array();
    for (const auto& o : k.occupancy)
        occ.push_back({{"arch", o.arch},
                       {"blocks_per_sm", o.blocks_per_sm},
                       {"by_threads", o.by_threads},
                       {"by_registers", o.by_registers},
                       {"by_shared_memory", o.by_shared},
                       {"limiter", o.limiter},
                       {"occupancy", o.occupancy}});
    j["summary"] = {{"static_shared_bytes", k.static_smem},
                    {"dynamic_shared_bytes", k.dynamic_smem},
                    {"dynamic_shared_source", k.dynamic_smem_source},
                    {"shared_bytes", k.static_smem + k.dynamic_smem},
                    {"registers_per_thread_lower_bound", k.registers_lower_bound},
                    {"registers_note",
                     "fragments (local arrays) only: the compiler adds addresses, "
                     "loop counters and temporaries, so the real count is higher "
                     "and the occupancy below an upper bound"},
                    {"occupancy", std::move(occ)}};
    j["notes"] = k.notes;
}

std::string formatXray(const KernelXray& k) {
    std::ostringstream o;
    char buf[512];
    o << "kernel " << k.name << " (line " << k.line << "): block " << k.block[0] << "x"
      << k.block[1] << "x" << k.block[2] << " from " << k.block_source << ", " << k.warps
      << " warps\n\nbuffers\n";
    std::snprintf(buf, sizeof buf, "  %-20s %-11s %-10s %10s %10s  %s\n", "name", "scope", "type",
                  "bytes", "address", "note");
    o << buf;
    for (const auto& b : k.buffers) {
        if (b.scope == "global" || b.scope == "param") continue;
        std::snprintf(buf, sizeof buf, "  %-20s %-11s %-10s %10s %10s  %s\n", b.name.c_str(),
                      b.scope.c_str(), b.ctype.c_str(),
                      b.bytes >= 0 ? std::to_string(b.bytes).c_str() : "?",
                      b.scope == "local" ? "-" : std::to_string(b.address).c_str(), b.note.c_str());
        o << buf;
        if (!b.shape.empty()) {
            std::string shape;
            for (auto d : b.shape)
                shape += (shape.empty() ? "" : ", ") + std::to_string(d);
            o << "  " << std::string(20, ' ') << " TileLang: " << b.dtype << " [" << shape << "]";
            if (!b.layout_repr.empty())
                o << ", inferred " << b.layout_kind << ": " << b.layout_repr.substr(0, 110)
                  << (b.layout_repr.size() > 110 ? "..." : "");
            o << "\n";
        }
    }
    o << "\nshared-memory accesses (per thread block; wavefronts per instruction min-max)\n";
    std::snprintf(buf, sizeof buf, "  %5s  %-22s %-12s %8s %10s %8s %8s  %s\n", "line", "op",
                  "buffer", "instr", "wavefronts", "ideal", "excess", "per instr");
    o << buf;
    for (std::size_t i = 0; i < k.sites.size(); ++i) {
        const Site& s = k.sites[i];
        const std::string bname = s.buffer >= 0 ? k.buffers[std::size_t(s.buffer)].name : "?";
        if (!s.not_analysed.empty()) {
            std::snprintf(buf, sizeof buf, "  %5d  %-22s %-12s not analysed: ", s.line,
                          s.opName().c_str(), bname.c_str());
            o << buf << s.not_analysed << "\n";
            continue;
        }
        const SiteCost& c = k.costs[i];
        std::snprintf(buf, sizeof buf, "  %5d  %-22s %-12s %8lld %10lld %8lld %8lld  %d-%d%s\n",
                      s.line, s.opName().c_str(), bname.c_str(), (long long)c.instructions,
                      (long long)c.wavefronts, (long long)c.ideal, (long long)c.excess,
                      c.min_wavefronts, c.max_wavefronts,
                      c.excess > c.bank_wavefronts - c.ideal ? "  global lines"
                      : s.note.empty()                       ? ""
                                                             : "  (*)");
        o << buf;
    }
    std::snprintf(buf, sizeof buf, "  %5s  %-22s %-12s %8lld %10lld %8lld %8lld\n", "total", "", "",
                  (long long)k.instructions, (long long)k.wavefronts, (long long)k.ideal,
                  (long long)k.excess);
    o << buf;
    if (k.sites_not_analysed)
        o << "  " << k.sites_not_analysed << " access(es) not analysed (no numbers given)\n";
    for (std::size_t i = 0; i < k.sites.size(); ++i)
        if (k.sites[i].not_analysed.empty() &&
            k.costs[i].excess > k.costs[i].bank_wavefronts - k.costs[i].ideal) {
            o << "  global lines: a cp.async phase that reads several 128-byte global lines costs "
                 "a "
                 "wavefront for each (measured on the H200), beyond what its banks cost\n";
            break;
        }
    for (const auto& s : k.sites)
        if (!s.note.empty() && s.not_analysed.empty()) {
            o << "  (*) line " << s.line << ": " << s.note << "\n";
            break;
        }
    o << "\nsummary\n  shared memory: " << k.static_smem << " B static + " << k.dynamic_smem
      << " B dynamic (" << k.dynamic_smem_source << ") = " << (k.static_smem + k.dynamic_smem)
      << " B per block\n  registers per thread: at least " << k.registers_lower_bound
      << " (fragments only; the compiler adds more)\n";
    for (const auto& oc : k.occupancy) {
        std::snprintf(
            buf, sizeof buf,
            oc.limiter.rfind("does not fit", 0) == 0
                ? "  %s: %d blocks/SM (threads %d, registers %d, shared %d) = %.0f%%: %s\n"
                : "  %s: at most %d blocks/SM (threads %d, registers %d, shared %d) = "
                  "%.0f%% occupancy, limited by %s\n",
            oc.arch.c_str(), oc.blocks_per_sm, oc.by_threads, oc.by_registers, oc.by_shared,
            oc.occupancy * 100, oc.limiter.c_str());
        o << buf;
    }
    for (const auto& n : k.notes)
        o << "  note: " << n << "\n";
    return o.str();
}

} // namespace ts::kernel
