// SPDX-License-Identifier: Apache-2.0
#include "tilescope/kernel/measured.h"

#include "tilescope/support/errors.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ts::kernel {

namespace {

std::int64_t intAt(const nlohmann::json& j, const char* key, const std::string& path,
                   std::int64_t fallback = -2) {
    if (!j.contains(key)) {
        if (fallback != -2) return fallback;
        throw InputError(path + "." + key + " is missing");
    }
    if (!j[key].is_number_integer()) throw InputError(path + "." + key + " is not an integer");
    return j[key].get<std::int64_t>();
}

} // namespace

const MeasuredKernel* Measured::kernel(const std::string& name) const {
    for (const auto& k : kernels)
        if (k.name == name) return &k;
    return nullptr;
}

Measured readMeasured(const std::string& text, const std::string& what) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(what + ": not JSON (" + e.what() + ")");
    }
    if (!j.is_object() || !j.contains("kernels") || !j["kernels"].is_array())
        throw InputError(what + ": not a measurement (no \"kernels\" list)");
    Measured m;
    m.tool = j.value("tool", "");
    m.gpu = j.value("gpu", "");
    m.source = j.value("source", "");
    for (std::size_t i = 0; i < j["kernels"].size(); ++i) {
        const auto& k = j["kernels"][i];
        const std::string path = what + ": kernels[" + std::to_string(i) + "]";
        MeasuredKernel mk;
        if (!k.contains("name") || !k["name"].is_string())
            throw InputError(path + ".name is missing");
        mk.name = k["name"];
        if (k.contains("grid") && k["grid"].is_array())
            for (std::size_t d = 0; d < std::min<std::size_t>(3, k["grid"].size()); ++d)
                mk.grid[d] = k["grid"][d].get<int>();
        if (!k.contains("lines") || !k["lines"].is_array())
            throw InputError(path + ".lines is missing");
        for (std::size_t l = 0; l < k["lines"].size(); ++l) {
            const auto& x = k["lines"][l];
            const std::string lp = path + ".lines[" + std::to_string(l) + "]";
            MeasuredLine ml;
            ml.line = int(intAt(x, "line", lp));
            ml.instructions = intAt(x, "instructions", lp);
            ml.wavefronts = intAt(x, "wavefronts", lp);
            ml.ideal = intAt(x, "ideal", lp, -1);
            if (x.contains("sass") && x["sass"].is_array())
                for (const auto& s : x["sass"])
                    if (s.is_string()) ml.sass.push_back(s);
            mk.lines.push_back(std::move(ml));
        }
        m.kernels.push_back(std::move(mk));
    }
    return m;
}

void toJson(nlohmann::json& j, const Measured& m) {
    j = {{"tool", m.tool},
         {"gpu", m.gpu},
         {"source", m.source},
         {"kernels", nlohmann::json::array()}};
    for (const auto& k : m.kernels) {
        nlohmann::json lines = nlohmann::json::array();
        for (const auto& l : k.lines)
            lines.push_back({{"line", l.line},
                             {"instructions", l.instructions},
                             {"wavefronts", l.wavefronts},
                             {"ideal", l.ideal},
                             {"sass", l.sass}});
        j["kernels"].push_back({{"name", k.name}, {"grid", k.grid}, {"lines", std::move(lines)}});
    }
}

LaunchCount blocksOf(const std::string& name, const std::vector<KernelLaunch>& launches,
                     const Measured& m) {
    LaunchCount n;
    if (const MeasuredKernel* k = m.kernel(name); k && k->grid[0] > 0) {
        n.blocks = std::int64_t(k->grid[0]) * std::max(1, k->grid[1]) * std::max(1, k->grid[2]);
        n.source = "measured grid";
        return n;
    }
    for (const auto& l : launches)
        if (l.name == name) {
            n.blocks = std::int64_t(l.grid[0]) * l.grid[1] * l.grid[2];
            n.source = "lowering's grid";
            return n;
        }
    throw InputError("the measurement gives no grid for kernel '" + name +
                     "' and there is no lowering to take it from");
}

Comparison compare(const KernelXray& k, const Measured& m, const LaunchCount& blocks) {
    Comparison c;
    c.kernel = k.name;
    c.blocks = blocks.blocks;
    c.blocks_source = blocks.source;
    const MeasuredKernel* mk = m.kernel(k.name);
    if (!mk) throw InputError("the measurement has no kernel named '" + k.name + "'");
    std::map<int, const MeasuredLine*> measured;
    for (const auto& l : mk->lines)
        measured[l.line] = &l;
    std::set<int> lines;
    for (const auto& l : k.lines)
        lines.insert(l.line);
    for (const auto& [line, ml] : measured)
        lines.insert(line);
    std::map<int, const LineTotal*> predicted;
    for (const auto& l : k.lines)
        predicted[l.line] = &l;
    for (int line : lines) {
        LineComparison lc;
        lc.line = line;
        const LineTotal* p = predicted.count(line) ? predicted[line] : nullptr;
        const MeasuredLine* ml = measured.count(line) ? measured[line] : nullptr;
        bool lsu = false, unanalysed = false;
        if (p)
            for (int s : p->sites) {
                const Site& site = k.sites[std::size_t(s)];
                lc.ops.push_back(site.opName());
                if (isLsu(site.kind) || !site.not_analysed.empty()) {
                    if (site.not_analysed.empty())
                        lsu = true;
                    else
                        unanalysed = true;
                }
            }
        if (p) {
            lc.predicted_instructions = p->instructions * blocks.blocks;
            lc.predicted_wavefronts = p->wavefronts * blocks.blocks;
            lc.predicted_ideal = p->ideal * blocks.blocks;
        }
        if (ml) {
            lc.measured_instructions = ml->instructions;
            lc.measured_wavefronts = ml->wavefronts;
            lc.measured_ideal = ml->ideal;
            lc.sass = ml->sass;
        }
        bool allForwardable = p && lsu;
        if (p)
            for (int s : p->sites)
                if (k.sites[std::size_t(s)].not_analysed.empty() &&
                    !k.sites[std::size_t(s)].forwardable)
                    allForwardable = false;
        bool measuredLsu = false;
        if (ml)
            for (const auto& op : ml->sass)
                measuredLsu = measuredLsu || isLsuSass(op);
        if (unanalysed) {
            lc.status = "not analysed";
            ++c.not_analysed;
        } else if (!p || !lsu) {
            if (ml && (ml->instructions > 0 || ml->wavefronts > 0) && !measuredLsu) {
                lc.status = "not LSU";
                ++c.not_analysed;
                ++c.not_lsu;
            } else if (ml && (ml->instructions > 0 || ml->wavefronts > 0)) {
                lc.status = "measured only";
                ++c.measured_only;
            } else {
                continue; // a line with neither
            }
        } else if (allForwardable && (!ml || ml->instructions == 0)) {
            lc.status = "match (forwarded)";
            ++c.matched;
        } else if (!ml) {
            lc.status = lc.predicted_instructions ? "not measured" : "match";
            (lc.predicted_instructions ? c.not_measured : c.matched)++;
        } else if (lc.predicted_instructions == lc.measured_instructions &&
                   lc.predicted_wavefronts == lc.measured_wavefronts) {
            lc.status = "match";
            ++c.matched;
        } else {
            lc.status = "differs";
            ++c.differing;
        }
        c.lines.push_back(std::move(lc));
    }
    // Lines that differ one by one but hold the same operation inside the same loops (all but
    // each line's own innermost loop: sibling unrolled loops) are compared together: ptxas's
    // line table gives runs of identical instructions from such siblings to one line.
    // First the lines inside the same loops, then what is left by operation alone.
    for (int pass = 0; pass < 2; ++pass) {
        std::map<std::string, std::vector<std::size_t>> groups;
        for (std::size_t i = 0; i < c.lines.size(); ++i) {
            LineComparison& l = c.lines[i];
            if (l.status != "differs" && l.status != "not measured") continue;
            const LineTotal* p = predicted[l.line];
            std::string sig;
            for (int s : p->sites) {
                const Site& site = k.sites[std::size_t(s)];
                sig += site.opName() + "@";
                if (pass == 0)
                    for (std::size_t l = 0; l + 1 < site.loops.size(); ++l)
                        sig += site.loops[l].var + ",";
                sig += ";";
            }
            groups[sig].push_back(i);
        }
        for (const auto& [sig, members] : groups) {
            if (members.size() < 2) continue;
            std::int64_t pi = 0, pw = 0, mi = 0, mw = 0;
            std::vector<int> lines;
            for (std::size_t i : members) {
                pi += c.lines[i].predicted_instructions;
                pw += c.lines[i].predicted_wavefronts;
                mi += c.lines[i].measured_instructions;
                mw += c.lines[i].measured_wavefronts;
                lines.push_back(c.lines[i].line);
            }
            if (pi != mi || pw != mw) continue;
            for (std::size_t i : members) {
                (c.lines[i].status == "differs" ? c.differing : c.not_measured)--;
                c.lines[i].status = "match (line group)";
                c.lines[i].group = lines;
                ++c.matched;
                ++c.matched_in_group;
            }
        }
    }
    return c;
}

bool isLsuSass(const std::string& op) {
    for (const char* p : {"LDS", "STS", "LDSM", "STSM", "LDGSTS", "ATOMS"})
        if (op.rfind(p, 0) == 0) return true;
    return false;
}

void toJson(nlohmann::json& j, const Comparison& c) {
    j = {{"kernel", c.kernel},
         {"blocks", c.blocks},
         {"blocks_source", c.blocks_source},
         {"matched", c.matched},
         {"differing", c.differing},
         {"not_analysed", c.not_analysed},
         {"measured_only", c.measured_only},
         {"not_measured", c.not_measured},
         {"matched_in_group", c.matched_in_group},
         {"not_lsu", c.not_lsu},
         {"all_match", c.allMatch()},
         {"lines", nlohmann::json::array()}};
    for (const auto& l : c.lines)
        j["lines"].push_back({{"line", l.line},
                              {"status", l.status},
                              {"predicted",
                               {{"instructions", l.predicted_instructions},
                                {"wavefronts", l.predicted_wavefronts},
                                {"ideal", l.predicted_ideal}}},
                              {"measured",
                               {{"instructions", l.measured_instructions},
                                {"wavefronts", l.measured_wavefronts},
                                {"ideal", l.measured_ideal}}},
                              {"ops", l.ops},
                              {"sass", l.sass},
                              {"group", l.group}});
}

std::string formatComparison(const Comparison& c) {
    std::ostringstream o;
    char buf[400];
    o << "predicted vs measured (" << c.blocks << " blocks, " << c.blocks_source << ")\n";
    std::snprintf(buf, sizeof buf, "  %5s  %-18s %12s %12s %14s %14s  %s\n", "line", "status",
                  "instr pred", "instr meas", "wavefr pred", "wavefr meas", "ops / SASS");
    o << buf;
    for (const auto& l : c.lines) {
        std::string ops;
        for (const auto& s : l.ops)
            ops += (ops.empty() ? "" : ", ") + s;
        if (!l.sass.empty()) {
            ops += " |";
            for (const auto& s : l.sass)
                ops += " " + s;
        }
        if (!l.group.empty()) {
            ops += " | with lines";
            for (int g : l.group)
                ops += " " + std::to_string(g);
        }
        std::snprintf(buf, sizeof buf, "  %5d  %-18s %12lld %12lld %14lld %14lld  ", l.line,
                      l.status.c_str(), (long long)l.predicted_instructions,
                      (long long)l.measured_instructions, (long long)l.predicted_wavefronts,
                      (long long)l.measured_wavefronts);
        o << buf << ops << "\n";
    }
    o << "  " << c.matched << " lines match (" << c.matched_in_group << " as a line group), "
      << c.differing << " differ, " << c.not_analysed << " not analysed (" << c.not_lsu
      << " not LSU), " << c.measured_only << " measured only, " << c.not_measured
      << " not measured\n";
    return o.str();
}

} // namespace ts::kernel
