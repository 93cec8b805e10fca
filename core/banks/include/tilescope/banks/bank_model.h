// SPDX-License-Identifier: Apache-2.0
// Shared-memory bank models at the ADDRESS level: what a warp instruction costs given the byte
// address each lane touches. Independent of how a layout is expressed (see layout.h for that).
//
// NVIDIA (Volta and later, checked against Nsight Compute on an H200, sm_90), the per-phase
// wavefront model of docs/reference bank-model.md:
//   * bank = (byte_address / bank_width) % bank_count   (defaults: 32 banks x 4 bytes)
//   * the warp's 32 lanes are split into phases by the bytes each lane accesses:
//       <= bank_width bytes: one phase of 32 lanes; 8 B: two phases of 16 lanes (0-15, 16-31);
//       16 B: four phases of 8 lanes (0-7, 8-15, 16-23, 24-31).
//     In general lanes_per_phase = min(32, bank_count * bank_width / max(bytes, bank_width)).
//   * ldmatrix / stmatrix .x1/.x2/.x4 (with or without .trans, which changes only the register
//     arrangement, not the addresses) are served like 16-byte accesses: lanes 8m..8m+7 give the
//     eight 16-byte row addresses of matrix m; lanes >= 8 * matrices supply no address.
//   * paired lanes (H200): an 8- or 16-byte LOAD in which, for one k in {1, 2}, every active
//     lane t has the address of its partner t ^ k (where the partner is active too) is served
//     with twice the lanes per phase: 8 B one phase of 32 lanes, 16 B two phases of 16 (0-15,
//     16-31). Stores, ld/stmatrix and other pairings (t ^ 3, 4, 8, 16) are not; the rule holds
//     only for the measured geometry, 32 banks of 4 bytes (docs/measurements.md, "Lanes that
//     repeat addresses").
//   * in each phase, for each bank, count the DISTINCT words the phase's active lanes touch in
//     that bank (lanes touching the same word share it: broadcast). A phase with any active lane
//     costs max over banks of that count; a phase with no active lane costs nothing.
//   * wavefronts = sum over phases; ideal = number of phases holding at least one active lane
//     (a conflict-free LDS.128 is 4 wavefronts, ideal 4); excess = wavefronts - ideal, which is
//     what Nsight Compute calls "bank conflicts".
//
// The Ascend Unified Buffer model is in ub_bank_model.h (included here for its users).
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>

#include "tilescope/banks/ub_bank_model.h"
#include <span>
#include <string>
#include <vector>

namespace ts {

constexpr int kWarpSize = 32;

struct LaneAccess {
    int lane = 0;                  // 0..31
    std::int64_t byte_address = 0; // shared-memory byte offset of the first byte accessed
    bool active = true;
};

enum class SharedOp { Load, Store, LdMatrix, StMatrix };

struct Instruction {
    SharedOp op = SharedOp::Load;
    int bytes_per_lane = 4;        // 1, 2, 4, 8 or 16 (forced to 16 for ld/stmatrix)
    int matrices = 4;              // ld/stmatrix only: 1, 2 or 4 (.x1/.x2/.x4)
    bool trans = false;            // ld/stmatrix only: does not change addresses
    std::vector<LaneAccess> lanes; // at most one entry per lane; missing lanes are inactive
    std::string label;

    bool isStore() const { return op == SharedOp::Store || op == SharedOp::StMatrix; }
    bool isMatrix() const { return op == SharedOp::LdMatrix || op == SharedOp::StMatrix; }
};

struct AccessPlan {
    int bank_count = 32;
    int bank_width = 4; // bytes per bank word
    std::vector<Instruction> instructions;
};

// Lanes of one phase that hit `bank` at `words` distinct words (more than one: a conflict).
// Its words are InstructionCost::collision_words[first, first + count) (one pool per
// instruction: a conflicted whole-tile plan has thousands of collisions).
struct BankCollision {
    int phase = 0;
    int bank = 0;
    std::int32_t first = 0, count = 0; // distinct word indices (byte_address / bank_width)
    std::uint32_t lane_mask = 0;       // bit l: active lane l touches this bank in this phase
    std::vector<int> lanes() const;    // the lanes of lane_mask, ascending
};

struct InstructionCost {
    int phases = 0; // phases the warp is split into (1, 2, 4; or matrices for ldmatrix)
    int lanes_per_phase = 0;
    int lane_pairs = 0; // k when lanes t and t ^ k pair up (k = 1, 2): phases doubled; else 0
    int wavefronts = 0;
    int ideal = 0;
    int excess = 0;
    std::vector<int> phase_wavefronts;         // [phase]
    std::vector<int> phase_bank_words;         // [phase * bank_count + bank] distinct words
    std::vector<int> bank_words;               // [bank], summed over phases
    std::vector<BankCollision> collisions;     // every (phase, bank) with > 1 word
    std::vector<std::int64_t> collision_words; // the collisions' words, ascending per one

    std::span<const std::int64_t> wordsOf(const BankCollision& c) const {
        return {collision_words.data() + c.first, std::size_t(c.count)};
    }
};

struct PlanCost {
    std::vector<InstructionCost> instructions;
    std::int64_t wavefronts = 0, ideal = 0, excess = 0;
    std::int64_t load_instructions = 0, store_instructions = 0;
    std::int64_t load_wavefronts = 0, store_wavefronts = 0;
    std::int64_t load_excess = 0, store_excess = 0;
    double efficiency() const { return wavefronts ? double(ideal) / double(wavefronts) : 1.0; }
};

// Throws InputError naming the instruction and lane on bad input: lane outside 0..31, duplicate
// lane, bytes_per_lane not in {1,2,4,8,16}, a misaligned or negative address, bad bank config.
void validatePlan(const AccessPlan& plan);
InstructionCost analyzeInstruction(const Instruction& ins, int bank_count = 32, int bank_width = 4);
PlanCost analyzePlan(const AccessPlan& plan);

// Brute-force reference: enumerates every byte each lane touches, a separate code path kept
// deliberately simple. Returns only wavefronts/ideal/excess per instruction and totals.
PlanCost analyzePlanBruteForce(const AccessPlan& plan);

// The model's assumptions, as text for the UI and the docs.
std::string assumptions();

// ---- Pattern helpers (used by tests, the sweep and the CLI) ----
SharedOp parseSharedOp(const std::string& name); // "ld", "st", "ldmatrix", "stmatrix"
std::string sharedOpName(SharedOp op);
// Lane t accesses base + t * stride_units * bytes (stride in units of the access size).
Instruction stridedInstruction(SharedOp op, int bytes, std::int64_t stride_units,
                               std::int64_t base = 0);
// All 32 lanes read the same address.
Instruction broadcastInstruction(SharedOp op, int bytes, std::int64_t address = 0);
// ldmatrix/stmatrix from explicit per-lane row addresses (lanes >= 8 * matrices ignored).
Instruction matrixInstruction(SharedOp op, int matrices, bool trans,
                              const std::vector<std::int64_t>& row_addresses);

// JSON (nlohmann) views: plans round-trip; costs are output only.
//   instruction: {"op":"ld","bytes":4,"matrices":4,"trans":false,"label":"",
//                 "addresses":[32 byte addresses, null = inactive lane]}
void toJson(nlohmann::json& j, const AccessPlan& plan);
AccessPlan planFromJson(const nlohmann::json& j); // throws InputError with the JSON path
void toJson(nlohmann::json& j, const InstructionCost& cost);
void toJson(nlohmann::json& j, const PlanCost& cost);

} // namespace ts
