// SPDX-License-Identifier: Apache-2.0
#include "tilescope/banks/bank_model.h"

#include "tilescope/support/errors.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ts {

namespace {

std::string where(std::size_t ins, int lane = -1) {
    std::string s = "instruction " + std::to_string(ins);
    if (lane >= 0) s += ", lane " + std::to_string(lane);
    return s;
}

bool validBytes(int b) {
    return b == 1 || b == 2 || b == 4 || b == 8 || b == 16;
}

int effectiveBytes(const Instruction& ins) {
    return ins.isMatrix() ? 16 : ins.bytes_per_lane;
}

// Lanes that supply an address: ldmatrix.xN uses lanes 0 .. 8N-1.
bool laneSupplies(const Instruction& ins, const LaneAccess& la) {
    if (!la.active) return false;
    if (ins.isMatrix()) return la.lane < 8 * ins.matrices;
    return true;
}

int lanesPerPhase(int bytes, int bank_count, int bank_width) {
    int per = bank_count * bank_width / std::max(bytes, bank_width);
    return std::clamp(per, 1, kWarpSize);
}

// The H200 serves an 8- or 16-byte load (LDS.64 / LDS.128) with twice the lanes per phase when
// the lanes pair up on equal addresses: for one k in {1, 2}, every active lane t whose partner
// t ^ k is active has the partner's address. Lanes whose partner is inactive do not spoil it.
// Measured (docs/measurements.md): stores, ldmatrix/stmatrix, and pairs t ^ 3, 4, 8 or 16 are
// never served so, and one k must hold for the whole warp. Returns k, or 0. Only the measured
// geometry (32 banks of 4 bytes) has the rule; other geometries keep plain phases.
int pairedLanes(const Instruction& ins, int bytes, int lanes_per_phase, int bank_count,
                int bank_width) {
    if (ins.op != SharedOp::Load || bank_count != 32 || bank_width != 4 || bytes <= bank_width ||
        lanes_per_phase >= kWarpSize)
        return 0;
    std::int64_t addr[kWarpSize] = {};
    std::uint32_t active = 0;
    for (const LaneAccess& la : ins.lanes) {
        if (!la.active || la.lane < 0 || la.lane >= kWarpSize) continue;
        addr[la.lane] = la.byte_address;
        active |= std::uint32_t{1} << la.lane;
    }
    if (!active) return 0;
    for (int k : {1, 2}) {
        bool paired = true;
        for (int t = 0; t < kWarpSize && paired; ++t)
            if ((active >> t & 1u) && (active >> (t ^ k) & 1u) && addr[t] != addr[t ^ k])
                paired = false;
        if (paired) return k;
    }
    return 0;
}

} // namespace

void validatePlan(const AccessPlan& plan) {
    if (plan.bank_count < 1 || plan.bank_count > 1024)
        throw InputError("bank_count must be in 1..1024, got " + std::to_string(plan.bank_count));
    if (plan.bank_width < 1 || plan.bank_width > 64 ||
        (plan.bank_width & (plan.bank_width - 1)) != 0)
        throw InputError("bank_width must be a power of two in 1..64, got " +
                         std::to_string(plan.bank_width));
    for (std::size_t i = 0; i < plan.instructions.size(); ++i) {
        const Instruction& ins = plan.instructions[i];
        if (ins.isMatrix()) {
            if (ins.matrices != 1 && ins.matrices != 2 && ins.matrices != 4)
                throw InputError(where(i) + ": ldmatrix/stmatrix needs matrices 1, 2 or 4, got " +
                                 std::to_string(ins.matrices));
        } else if (!validBytes(ins.bytes_per_lane)) {
            throw InputError(where(i) + ": bytes_per_lane must be 1, 2, 4, 8 or 16, got " +
                             std::to_string(ins.bytes_per_lane));
        }
        int bytes = effectiveBytes(ins);
        bool seen[kWarpSize] = {};
        for (const LaneAccess& la : ins.lanes) {
            if (la.lane < 0 || la.lane >= kWarpSize)
                throw InputError(where(i) + ": lane " + std::to_string(la.lane) +
                                 " is outside 0..31");
            if (seen[la.lane]) throw InputError(where(i, la.lane) + ": lane given twice");
            seen[la.lane] = true;
            if (!la.active) continue;
            if (la.byte_address < 0)
                throw InputError(where(i, la.lane) + ": negative address " +
                                 std::to_string(la.byte_address));
            if (la.byte_address % bytes != 0)
                throw InputError(where(i, la.lane) + ": address " +
                                 std::to_string(la.byte_address) + " is not aligned to " +
                                 std::to_string(bytes) + " bytes");
        }
    }
}

std::vector<int> BankCollision::lanes() const {
    std::vector<int> v;
    v.reserve(std::size_t(std::popcount(lane_mask)));
    for (std::uint32_t m = lane_mask; m; m &= m - 1)
        v.push_back(std::countr_zero(m));
    return v;
}

InstructionCost analyzeInstruction(const Instruction& ins, int bank_count, int bank_width) {
    const int bytes = effectiveBytes(ins);
    InstructionCost c;
    c.lanes_per_phase = lanesPerPhase(bytes, bank_count, bank_width);
    c.lane_pairs = pairedLanes(ins, bytes, c.lanes_per_phase, bank_count, bank_width);
    if (c.lane_pairs) c.lanes_per_phase *= 2; // two phases served as one
    c.phases = kWarpSize / c.lanes_per_phase;
    if (ins.isMatrix()) c.phases = std::min(c.phases, ins.matrices);
    c.phase_wavefronts.assign(c.phases, 0);
    c.phase_bank_words.assign(std::size_t(c.phases) * std::size_t(bank_count), 0);
    c.bank_words.assign(bank_count, 0);

    // One pass over the lanes files each word touched into its (phase, bank) bucket, keeping
    // distinct words and the lanes; then every bucket is counted. This is the hot loop of
    // whole-tile analyses: no sorting, no allocation after the first call, and shifts instead
    // of 64-bit divisions when the bank geometry is a power of two (always, in practice).
    const int wordsPerLane = (bytes + bank_width - 1) / bank_width + 1;
    const std::size_t cap = std::size_t(c.lanes_per_phase) * std::size_t(wordsPerLane);
    const std::size_t buckets = std::size_t(c.phases) * std::size_t(bank_count);
    thread_local std::vector<std::int64_t> words; // [bucket * cap + k] distinct, in arrival order
    thread_local std::vector<int> count;          // [bucket] distinct words
    thread_local std::vector<std::uint32_t> laneMask;
    if (words.size() < buckets * cap) words.resize(buckets * cap);
    count.assign(buckets, 0);
    laneMask.assign(buckets, 0);
    std::uint32_t phaseUsed = 0; // phases <= 32
    const bool pow2 = std::has_single_bit(unsigned(bank_width)) &&
                      std::has_single_bit(unsigned(bank_count)) &&
                      std::has_single_bit(unsigned(c.lanes_per_phase));
    const int widthShift = std::countr_zero(unsigned(bank_width));
    const int phaseShift = std::countr_zero(unsigned(c.lanes_per_phase));
    const std::int64_t bankMask = bank_count - 1;
    for (const LaneAccess& la : ins.lanes) {
        if (!laneSupplies(ins, la)) continue;
        if (la.lane < 0 || la.lane >= kWarpSize) continue; // validatePlan reports these
        const bool fast = pow2 && la.byte_address >= 0;
        const int ph = fast ? la.lane >> phaseShift : la.lane / c.lanes_per_phase;
        if (ph >= c.phases) continue;
        phaseUsed |= std::uint32_t{1} << ph;
        const std::int64_t last = la.byte_address + bytes - 1;
        const std::int64_t w0 = fast ? la.byte_address >> widthShift : la.byte_address / bank_width;
        const std::int64_t w1 = fast ? last >> widthShift : last / bank_width;
        for (std::int64_t w = w0; w <= w1; ++w) {
            const int bank = int(fast ? w & bankMask : w % bank_count);
            const std::size_t b = std::size_t(ph) * std::size_t(bank_count) + std::size_t(bank);
            laneMask[b] |= std::uint32_t{1} << la.lane;
            std::int64_t* list = words.data() + b * cap;
            const int n = count[b];
            if (std::find(list, list + n, w) == list + n) {
                list[n] = w;
                count[b] = n + 1;
            }
        }
    }
    std::size_t collisionWords = 0;
    for (std::size_t b = 0; b < buckets; ++b)
        collisionWords += count[b] > 1 ? std::size_t(count[b]) : 0;
    c.collision_words.reserve(collisionWords);
    c.collisions.reserve(std::size_t(std::count_if(
        count.begin(), count.begin() + std::ptrdiff_t(buckets), [](int n) { return n > 1; })));
    for (int ph = 0; ph < c.phases; ++ph) {
        if (!(phaseUsed >> ph & 1u)) continue;
        int worst = 1;
        for (int bank = 0; bank < bank_count; ++bank) {
            const std::size_t b = std::size_t(ph) * std::size_t(bank_count) + std::size_t(bank);
            const int n = count[b];
            if (n == 0) continue;
            c.phase_bank_words[b] = n;
            c.bank_words[std::size_t(bank)] += n;
            worst = std::max(worst, n);
            if (n > 1) {
                BankCollision& col = c.collisions.emplace_back();
                col.phase = ph;
                col.bank = bank;
                col.first = std::int32_t(c.collision_words.size());
                col.count = n;
                c.collision_words.insert(c.collision_words.end(), words.data() + b * cap,
                                         words.data() + b * cap + n);
                std::sort(c.collision_words.begin() + col.first, c.collision_words.end());
                col.lane_mask = laneMask[b];
            }
        }
        c.phase_wavefronts[std::size_t(ph)] = worst;
        c.wavefronts += worst;
        c.ideal += 1;
    }
    c.excess = c.wavefronts - c.ideal;
    return c;
}

namespace {
void accumulate(PlanCost& pc, const Instruction& ins, int w, int ideal) {
    pc.wavefronts += w;
    pc.ideal += ideal;
    pc.excess += w - ideal;
    if (ins.isStore()) {
        pc.store_instructions++;
        pc.store_wavefronts += w;
        pc.store_excess += w - ideal;
    } else {
        pc.load_instructions++;
        pc.load_wavefronts += w;
        pc.load_excess += w - ideal;
    }
}
} // namespace

PlanCost analyzePlan(const AccessPlan& plan) {
    validatePlan(plan);
    PlanCost pc;
    pc.instructions.reserve(plan.instructions.size());
    for (const Instruction& ins : plan.instructions) {
        InstructionCost c = analyzeInstruction(ins, plan.bank_count, plan.bank_width);
        accumulate(pc, ins, c.wavefronts, c.ideal);
        pc.instructions.push_back(std::move(c));
    }
    return pc;
}

PlanCost analyzePlanBruteForce(const AccessPlan& plan) {
    validatePlan(plan);
    PlanCost pc;
    for (const Instruction& ins : plan.instructions) {
        int bytes = ins.isMatrix() ? 16 : ins.bytes_per_lane;
        // Lanes per phase from the byte budget of one wavefront (bank_count * bank_width).
        int group = 32;
        while (group > 1 &&
               group * std::max(bytes, plan.bank_width) > plan.bank_count * plan.bank_width)
            group /= 2;
        // Paired lanes (H200, 8/16-byte loads, 32 x 4-byte banks): lane t and lane t ^ k read
        // the same address for k = 1 or k = 2 wherever both are active: twice the lanes per phase.
        if (ins.op == SharedOp::Load && plan.bank_count == 32 && plan.bank_width == 4 &&
            bytes > 4 && group < 32) {
            std::map<int, std::int64_t> addr;
            for (const LaneAccess& la : ins.lanes)
                if (la.active) addr[la.lane] = la.byte_address;
            bool pairs = false;
            for (int k = 1; k <= 2 && !addr.empty(); ++k) {
                bool all = true;
                for (const auto& [lane, a] : addr) {
                    auto partner = addr.find(lane ^ k);
                    if (partner != addr.end() && partner->second != a) all = false;
                }
                pairs = pairs || all;
            }
            if (pairs) group *= 2;
        }
        int w = 0, ideal = 0;
        for (int start = 0; start < 32; start += group) {
            if (ins.isMatrix() && start >= 8 * ins.matrices) break;
            std::set<std::int64_t> words; // every word any lane of this phase touches
            bool any = false;
            for (const LaneAccess& la : ins.lanes) {
                if (!la.active || la.lane < start || la.lane >= start + group) continue;
                if (ins.isMatrix() && la.lane >= 8 * ins.matrices) continue;
                any = true;
                for (std::int64_t b = la.byte_address; b < la.byte_address + bytes; ++b)
                    words.insert(b / plan.bank_width);
            }
            if (!any) continue;
            int worst = 0;
            for (int bank = 0; bank < plan.bank_count; ++bank) {
                int n = 0;
                for (std::int64_t word : words)
                    if (word % plan.bank_count == bank) ++n;
                worst = std::max(worst, n);
            }
            w += worst;
            ideal += 1;
        }
        InstructionCost c;
        c.wavefronts = w;
        c.ideal = ideal;
        c.excess = w - ideal;
        accumulate(pc, ins, w, ideal);
        pc.instructions.push_back(c);
    }
    return pc;
}

std::string assumptions() {
    return "NVIDIA shared memory (Volta and later; checked against Nsight Compute on an H200):\n"
           "- bank = (byte address / 4) % 32 (bank width and count configurable).\n"
           "- A warp instruction is split into phases by bytes per lane: up to 4 B one phase of "
           "32 lanes, 8 B two phases of 16, 16 B four phases of 8. ldmatrix/stmatrix .xN are "
           "served like 16-byte accesses: lanes 8m..8m+7 give the row addresses of matrix m.\n"
           "- An 8- or 16-byte LOAD whose lanes pair up on equal addresses (lane t and lane t^1 "
           "for every t, or t and t^2; inactive partners do not count) is served with twice the "
           "lanes per phase: one phase of 32 (8 B), two of 16 (16 B). Measured on an H200; "
           "stores and ldmatrix/stmatrix never are.\n"
           "- Per phase and bank, distinct 4-byte words are counted; lanes on the same word share "
           "it (broadcast; for 1- and 2-byte accesses too, whatever bytes of the word they touch, "
           "loads and stores). A phase costs the largest count (1 if it has an active lane); "
           "inactive lanes cost nothing and the active ones are not packed together (phases are "
           "fixed lane ranges). An instruction with no active lane costs 0 (not measured).\n"
           "- Wavefronts = sum over phases; ideal = phases with an active lane; excess = "
           "wavefronts - ideal = Nsight Compute's 'bank conflicts'.\n"
           "- Time is about one wavefront per clock per SM; conflicts are not the whole of time.";
}

// ---- helpers ----

SharedOp parseSharedOp(const std::string& name) {
    if (name == "ld" || name == "load") return SharedOp::Load;
    if (name == "st" || name == "store") return SharedOp::Store;
    if (name == "ldmatrix") return SharedOp::LdMatrix;
    if (name == "stmatrix") return SharedOp::StMatrix;
    throw InputError("unknown shared op '" + name + "' (ld, st, ldmatrix, stmatrix)");
}

std::string sharedOpName(SharedOp op) {
    switch (op) {
    case SharedOp::Load:
        return "ld";
    case SharedOp::Store:
        return "st";
    case SharedOp::LdMatrix:
        return "ldmatrix";
    case SharedOp::StMatrix:
        return "stmatrix";
    }
    return "?";
}

Instruction stridedInstruction(SharedOp op, int bytes, std::int64_t stride_units,
                               std::int64_t base) {
    Instruction ins;
    ins.op = op;
    ins.bytes_per_lane = bytes;
    for (int t = 0; t < kWarpSize; ++t)
        ins.lanes.push_back({t, base + t * stride_units * bytes});
    std::ostringstream os;
    os << sharedOpName(op) << " " << bytes << "B stride " << stride_units;
    ins.label = os.str();
    return ins;
}

Instruction broadcastInstruction(SharedOp op, int bytes, std::int64_t address) {
    Instruction ins = stridedInstruction(op, bytes, 0, address);
    ins.label = sharedOpName(op) + " " + std::to_string(bytes) + "B broadcast";
    return ins;
}

Instruction matrixInstruction(SharedOp op, int matrices, bool trans,
                              const std::vector<std::int64_t>& row_addresses) {
    Instruction ins;
    ins.op = op;
    ins.bytes_per_lane = 16;
    ins.matrices = matrices;
    ins.trans = trans;
    for (int t = 0; t < kWarpSize && t < int(row_addresses.size()); ++t)
        ins.lanes.push_back({t, row_addresses[t], t < 8 * matrices});
    ins.label = sharedOpName(op) + ".x" + std::to_string(matrices) + (trans ? ".trans" : "");
    return ins;
}

// ---- JSON ----

void toJson(nlohmann::json& j, const AccessPlan& plan) {
    j = nlohmann::json::object();
    j["bank_count"] = plan.bank_count;
    j["bank_width"] = plan.bank_width;
    auto& arr = j["instructions"] = nlohmann::json::array();
    for (const Instruction& ins : plan.instructions) {
        nlohmann::json o;
        o["op"] = sharedOpName(ins.op);
        o["bytes"] = ins.isMatrix() ? 16 : ins.bytes_per_lane;
        if (ins.isMatrix()) {
            o["matrices"] = ins.matrices;
            o["trans"] = ins.trans;
        }
        if (!ins.label.empty()) o["label"] = ins.label;
        nlohmann::json addrs = nlohmann::json::array();
        for (int t = 0; t < kWarpSize; ++t)
            addrs.push_back(nullptr);
        for (const LaneAccess& la : ins.lanes)
            if (la.active && la.lane >= 0 && la.lane < kWarpSize) addrs[la.lane] = la.byte_address;
        o["addresses"] = std::move(addrs);
        arr.push_back(std::move(o));
    }
}

AccessPlan planFromJson(const nlohmann::json& j) {
    AccessPlan plan;
    try {
        if (!j.is_object()) throw InputError("plan: expected an object");
        plan.bank_count = j.value("bank_count", 32);
        plan.bank_width = j.value("bank_width", 4);
        if (!j.contains("instructions") || !j["instructions"].is_array())
            throw InputError("plan.instructions: expected an array");
        const auto& arr = j["instructions"];
        for (std::size_t i = 0; i < arr.size(); ++i) {
            const auto& o = arr[i];
            std::string path = "plan.instructions[" + std::to_string(i) + "]";
            if (!o.is_object()) throw InputError(path + ": expected an object");
            Instruction ins;
            ins.op = parseSharedOp(o.value("op", std::string("ld")));
            ins.bytes_per_lane = ins.isMatrix() ? 16 : o.value("bytes", 4);
            ins.matrices = o.value("matrices", 4);
            ins.trans = o.value("trans", false);
            ins.label = o.value("label", std::string());
            if (!o.contains("addresses") || !o["addresses"].is_array())
                throw InputError(path + ".addresses: expected an array of up to 32 addresses");
            const auto& a = o["addresses"];
            if (a.size() > std::size_t(kWarpSize))
                throw InputError(path + ".addresses: more than 32 lanes");
            for (std::size_t t = 0; t < a.size(); ++t) {
                if (a[t].is_null()) continue;
                if (!a[t].is_number_integer())
                    throw InputError(path + ".addresses[" + std::to_string(t) +
                                     "]: expected an integer or null");
                ins.lanes.push_back({int(t), a[t].get<std::int64_t>(), true});
            }
            plan.instructions.push_back(std::move(ins));
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(std::string("plan: ") + e.what());
    }
    validatePlan(plan);
    return plan;
}

void toJson(nlohmann::json& j, const InstructionCost& c) {
    j = nlohmann::json::object();
    j["wavefronts"] = c.wavefronts;
    j["ideal"] = c.ideal;
    j["excess"] = c.excess;
    j["phases"] = c.phases;
    j["lane_pairs"] = c.lane_pairs;
    j["phase_wavefronts"] = c.phase_wavefronts;
    j["banks"] = c.bank_words;
    auto& phaseBanks = j["phase_banks"] = nlohmann::json::array();
    const std::size_t banks = c.bank_words.size();
    for (int ph = 0; ph < c.phases; ++ph)
        phaseBanks.push_back(std::vector<int>(
            c.phase_bank_words.begin() + std::ptrdiff_t(std::size_t(ph) * banks),
            c.phase_bank_words.begin() + std::ptrdiff_t(std::size_t(ph + 1) * banks)));
    auto& cols = j["collisions"] = nlohmann::json::array();
    for (const BankCollision& col : c.collisions) {
        const auto words = c.wordsOf(col);
        cols.push_back({{"phase", col.phase},
                        {"bank", col.bank},
                        {"words", std::vector<std::int64_t>(words.begin(), words.end())},
                        {"lanes", col.lanes()}});
    }
}

void toJson(nlohmann::json& j, const PlanCost& c) {
    j = nlohmann::json::object();
    auto& arr = j["instructions"] = nlohmann::json::array();
    for (const InstructionCost& ic : c.instructions) {
        nlohmann::json o;
        toJson(o, ic);
        arr.push_back(std::move(o));
    }
    j["total"] = {{"wavefronts", c.wavefronts},
                  {"ideal", c.ideal},
                  {"excess", c.excess},
                  {"load_instructions", c.load_instructions},
                  {"store_instructions", c.store_instructions},
                  {"load_wavefronts", c.load_wavefronts},
                  {"store_wavefronts", c.store_wavefronts},
                  {"load_excess", c.load_excess},
                  {"store_excess", c.store_excess},
                  {"efficiency", c.efficiency()}};
}

} // namespace ts
