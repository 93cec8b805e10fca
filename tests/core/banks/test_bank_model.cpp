// SPDX-License-Identifier: Apache-2.0
#include "tilescope/banks/bank_model.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>

using namespace ts;

namespace {

int wavefronts(const Instruction& ins) {
    AccessPlan p;
    p.instructions.push_back(ins);
    return int(analyzePlan(p).wavefronts);
}

// fp16 tile, `pitch` elements per row; lane t supplies row (t % 16), column chunk t / 16 of the
// 16x16 sub-tile at the origin (TileLang's ldmatrix addressing). `swizzle`: 128B XOR.
Instruction ldmatrixX4(int pitch, bool swizzle) {
    std::vector<std::int64_t> rows;
    for (int t = 0; t < 32; ++t) {
        int row = t % 16, chunk = t / 16;
        if (swizzle) chunk ^= row % 8;
        rows.push_back(std::int64_t(row) * pitch * 2 + chunk * 16);
    }
    return matrixInstruction(SharedOp::LdMatrix, 4, false, rows);
}

} // namespace

// Every measured row of bank-model.md (H200, ncu wavefronts per instruction).
TEST(BankModel, MeasuredRows4Byte) {
    struct Row {
        std::int64_t stride;
        int w;
    };
    for (Row r : {Row{1, 1}, Row{3, 1}, Row{33, 1}, Row{2, 2}, Row{4, 4}, Row{8, 8}, Row{16, 16},
                  Row{32, 32}})
        EXPECT_EQ(wavefronts(stridedInstruction(SharedOp::Load, 4, r.stride)), r.w)
            << "stride " << r.stride;
    EXPECT_EQ(wavefronts(broadcastInstruction(SharedOp::Load, 4, 64)), 1);
}

TEST(BankModel, MeasuredRows8Byte) {
    struct Row {
        std::int64_t stride;
        int w;
    };
    for (Row r : {Row{1, 2}, Row{2, 4}, Row{4, 8}, Row{16, 32}})
        EXPECT_EQ(wavefronts(stridedInstruction(SharedOp::Load, 8, r.stride)), r.w)
            << "stride " << r.stride;
}

TEST(BankModel, MeasuredRows16Byte) {
    struct Row {
        std::int64_t stride;
        int w;
    };
    for (Row r : {Row{1, 4}, Row{2, 8}, Row{8, 32}})
        EXPECT_EQ(wavefronts(stridedInstruction(SharedOp::Load, 16, r.stride)), r.w)
            << "stride " << r.stride;
}

TEST(BankModel, IdealAndExcessMatchNcuConvention) {
    AccessPlan p;
    p.instructions.push_back(stridedInstruction(SharedOp::Load, 16, 1)); // LDS.128, no conflict
    p.instructions.push_back(stridedInstruction(SharedOp::Store, 4, 2)); // 2-way
    PlanCost c = analyzePlan(p);
    EXPECT_EQ(c.instructions[0].wavefronts, 4);
    EXPECT_EQ(c.instructions[0].ideal, 4);
    EXPECT_EQ(c.instructions[0].excess, 0);
    EXPECT_EQ(c.instructions[1].wavefronts, 2);
    EXPECT_EQ(c.instructions[1].excess, 1);
    EXPECT_EQ(c.wavefronts, 6);
    EXPECT_EQ(c.load_wavefronts, 4);
    EXPECT_EQ(c.store_wavefronts, 2);
    EXPECT_EQ(c.store_excess, 1);
    EXPECT_EQ(c.load_instructions, 1);
    EXPECT_EQ(c.store_instructions, 1);
}

TEST(BankModel, BroadcastAndPartialBroadcast) {
    // 16 lanes read word 0, 16 lanes read word 32 (same bank, other word): 2-way.
    Instruction ins;
    for (int t = 0; t < 32; ++t)
        ins.lanes.push_back({t, t < 16 ? 0 : 128});
    InstructionCost c = analyzeInstruction(ins);
    EXPECT_EQ(c.wavefronts, 2);
    ASSERT_EQ(c.collisions.size(), 1u);
    EXPECT_EQ(c.collisions[0].bank, 0);
    EXPECT_EQ(c.collisions[0].lanes().size(), 32u);
    const auto words = c.wordsOf(c.collisions[0]);
    EXPECT_EQ(std::vector<std::int64_t>(words.begin(), words.end()),
              (std::vector<std::int64_t>{0, 32}));
    EXPECT_EQ(c.bank_words[0], 2);
    // Sub-word accesses to one word: broadcast, 1 wavefront.
    Instruction bytes = stridedInstruction(SharedOp::Load, 1, 1); // 32 bytes = 8 words
    EXPECT_EQ(wavefronts(bytes), 1);
    Instruction halves = stridedInstruction(SharedOp::Load, 2, 64); // lanes 128 B apart
    EXPECT_EQ(wavefronts(halves), 32);
}

TEST(BankModel, InactiveLanesAndPhases) {
    Instruction ins = stridedInstruction(SharedOp::Load, 16, 1);
    for (auto& la : ins.lanes)
        la.active = la.lane < 8; // only phase 0
    InstructionCost c = analyzeInstruction(ins);
    EXPECT_EQ(c.wavefronts, 1);
    EXPECT_EQ(c.ideal, 1);
    Instruction none = stridedInstruction(SharedOp::Load, 4, 1);
    for (auto& la : none.lanes)
        la.active = false;
    EXPECT_EQ(analyzeInstruction(none).wavefronts, 0);
}

TEST(BankModel, LdmatrixUnswizzledConflictsSwizzledNot) {
    InstructionCost plain = analyzeInstruction(ldmatrixX4(64, false));
    EXPECT_EQ(plain.phases, 4);
    EXPECT_EQ(plain.wavefronts, 32); // 8 rows of one 128-byte pitch share banks 0-3
    EXPECT_EQ(plain.ideal, 4);
    EXPECT_EQ(plain.excess, 28);
    EXPECT_FALSE(plain.collisions.empty());
    EXPECT_EQ(plain.collisions[0].lanes(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));

    InstructionCost sw = analyzeInstruction(ldmatrixX4(64, true));
    EXPECT_EQ(sw.wavefronts, 4);
    EXPECT_EQ(sw.excess, 0);
    EXPECT_TRUE(sw.collisions.empty());

    InstructionCost pad = analyzeInstruction(ldmatrixX4(72, false)); // pitch 64 + 8
    EXPECT_EQ(pad.wavefronts, 4);

    // .x1 uses lanes 0-7 only; .x2 lanes 0-15.
    Instruction x1 = ldmatrixX4(64, false);
    x1.matrices = 1;
    EXPECT_EQ(analyzeInstruction(x1).wavefronts, 8);
    EXPECT_EQ(analyzeInstruction(x1).ideal, 1);
    Instruction x2 = ldmatrixX4(64, true);
    x2.matrices = 2;
    x2.trans = true;
    x2.op = SharedOp::StMatrix;
    EXPECT_EQ(analyzeInstruction(x2).wavefronts, 2);
}

TEST(BankModel, BadInputNamesTheLane) {
    AccessPlan p;
    Instruction ins = stridedInstruction(SharedOp::Load, 8, 1);
    ins.lanes[5].byte_address = 12; // misaligned for 8 bytes
    p.instructions.push_back(ins);
    try {
        analyzePlan(p);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("lane 5"), std::string::npos) << e.what();
    }
    p.instructions[0] = stridedInstruction(SharedOp::Load, 3, 1);
    EXPECT_THROW(analyzePlan(p), InputError);
    p.instructions[0] = stridedInstruction(SharedOp::Load, 4, 1);
    p.instructions[0].lanes[3].lane = 40;
    EXPECT_THROW(analyzePlan(p), InputError);
}

TEST(BankModel, RandomPatternsMatchBruteForce) {
    std::mt19937 rng(12345);
    const int sizes[] = {1, 2, 4, 8, 16};
    for (int cfg = 0; cfg < 3; ++cfg) {
        AccessPlan p;
        if (cfg == 1) {
            p.bank_count = 16;
            p.bank_width = 8;
        }
        if (cfg == 2) {
            p.bank_count = 32;
            p.bank_width = 8;
        }
        for (int n = 0; n < 400; ++n) {
            Instruction ins;
            int kind = int(rng() % 6);
            if (kind == 5) {
                ins.op = rng() % 2 ? SharedOp::LdMatrix : SharedOp::StMatrix;
                ins.matrices = 1 << (rng() % 3);
                ins.bytes_per_lane = 16;
            } else {
                ins.op = rng() % 2 ? SharedOp::Load : SharedOp::Store;
                ins.bytes_per_lane = sizes[kind];
            }
            int bytes = ins.isMatrix() ? 16 : ins.bytes_per_lane;
            std::int64_t span = 1 << (6 + rng() % 8); // 64 B .. 8 KB: many collisions
            for (int t = 0; t < 32; ++t) {
                std::int64_t a = std::int64_t(rng() % span) / bytes * bytes;
                ins.lanes.push_back({t, a, rng() % 8 != 0});
            }
            p.instructions.push_back(ins);
        }
        PlanCost fast = analyzePlan(p), ref = analyzePlanBruteForce(p);
        ASSERT_EQ(fast.instructions.size(), ref.instructions.size());
        for (std::size_t i = 0; i < fast.instructions.size(); ++i) {
            EXPECT_EQ(fast.instructions[i].wavefronts, ref.instructions[i].wavefronts)
                << "cfg " << cfg << " instruction " << i;
            EXPECT_EQ(fast.instructions[i].ideal, ref.instructions[i].ideal) << i;
        }
        EXPECT_EQ(fast.wavefronts, ref.wavefronts);
        EXPECT_EQ(fast.excess, ref.excess);
        EXPECT_EQ(fast.store_wavefronts, ref.store_wavefronts);
    }
}

namespace {

// 32 lanes from a 4-letter quad template repeated 8 times, each quad with fresh addresses: the
// k-th distinct (quad, letter) of the warp reads k * bytes (consecutive, so no bank conflicts
// while they fit in 128 bytes).
Instruction quadInstruction(SharedOp op, int bytes, const char* tmpl) {
    Instruction ins;
    ins.op = op;
    ins.bytes_per_lane = bytes;
    const int letters = *std::max_element(tmpl, tmpl + 4) - 'a' + 1;
    for (int t = 0; t < 32; ++t)
        ins.lanes.push_back({t, std::int64_t(letters * (t / 4) + (tmpl[t % 4] - 'a')) * bytes});
    return ins;
}

} // namespace

// The H200 rule for loads whose lanes repeat addresses (docs/measurements.md): pairs t, t^1 or
// t, t^2 on equal addresses double the lanes per phase of an 8- or 16-byte load.
TEST(BankModel, PairedLanesDoubleVectorLoadPhases) {
    InstructionCost b16 = analyzeInstruction(broadcastInstruction(SharedOp::Load, 16, 0));
    EXPECT_EQ(b16.wavefronts, 2); // measured 2, not the 4 of plain quarter-warp phases
    EXPECT_EQ(b16.ideal, 2);
    EXPECT_EQ(b16.phases, 2);
    EXPECT_EQ(b16.lanes_per_phase, 16);
    EXPECT_EQ(b16.lane_pairs, 1);
    EXPECT_EQ(wavefronts(broadcastInstruction(SharedOp::Load, 8, 0)), 1);
    // Stores, ldmatrix and 4-byte loads are never paired.
    EXPECT_EQ(wavefronts(broadcastInstruction(SharedOp::Store, 16, 0)), 4);
    EXPECT_EQ(wavefronts(broadcastInstruction(SharedOp::Store, 8, 0)), 2);
    EXPECT_EQ(analyzeInstruction(broadcastInstruction(SharedOp::Load, 4, 0)).lane_pairs, 0);
    EXPECT_EQ(wavefronts(matrixInstruction(SharedOp::LdMatrix, 4, false,
                                           std::vector<std::int64_t>(32, 0))),
              4);
    // Pairs t^1 (aabb) and t^2 (abab): 8 distinct 16-byte addresses per half warp, 128
    // consecutive bytes, one wavefront per half instead of one per quarter.
    EXPECT_EQ(wavefronts(quadInstruction(SharedOp::Load, 16, "aabb")), 2);
    EXPECT_EQ(analyzeInstruction(quadInstruction(SharedOp::Load, 16, "abab")).lane_pairs, 2);
    EXPECT_EQ(wavefronts(quadInstruction(SharedOp::Load, 8, "abab")), 1);
    // t^3 (abba) and three-to-one (aaab) do not pair: plain phases.
    EXPECT_EQ(wavefronts(quadInstruction(SharedOp::Load, 16, "abba")), 4);
    EXPECT_EQ(wavefronts(quadInstruction(SharedOp::Load, 16, "aaab")), 4);
    EXPECT_EQ(wavefronts(quadInstruction(SharedOp::Store, 16, "aabb")), 4);
    // One pairing for the whole warp: aabb in one half and abab in the other is not paired.
    Instruction mixed = quadInstruction(SharedOp::Load, 16, "aabb");
    Instruction other = quadInstruction(SharedOp::Load, 16, "abab");
    for (int t = 16; t < 32; ++t)
        mixed.lanes[std::size_t(t)] = other.lanes[std::size_t(t)];
    EXPECT_EQ(wavefronts(mixed), 4);
    // The two half warps reading the same addresses lane for lane (t^16) is not a pair either.
    Instruction halves = stridedInstruction(SharedOp::Load, 8, 1);
    for (auto& la : halves.lanes)
        la.byte_address = (la.lane % 16) * 8;
    EXPECT_EQ(wavefronts(halves), 2);
    // An inactive partner does not spoil a pair: even lanes alone, 16 distinct 8-byte words.
    Instruction even = stridedInstruction(SharedOp::Load, 8, 1);
    for (auto& la : even.lanes) {
        la.byte_address = (la.lane / 2) * 8;
        la.active = la.lane % 2 == 0;
    }
    EXPECT_EQ(wavefronts(even), 1);
    // The merged phase costs its union: rows 0 and 1 (same banks) in the two halves -> 2-way.
    Instruction rows = stridedInstruction(SharedOp::Load, 8, 1);
    for (auto& la : rows.lanes)
        la.byte_address = (la.lane / 16) * 128 + (la.lane % 16) / 2 * 8;
    InstructionCost rc = analyzeInstruction(rows);
    EXPECT_EQ(rc.wavefronts, 2);
    EXPECT_EQ(rc.ideal, 1);
    EXPECT_EQ(rc.excess, 1);
    // The rule is the measured geometry's only: 32 banks of 8 bytes keep plain phases.
    InstructionCost wide = analyzeInstruction(broadcastInstruction(SharedOp::Load, 16, 0), 32, 8);
    EXPECT_EQ(wide.lane_pairs, 0);
    EXPECT_EQ(wide.wavefronts, 2);
}

TEST(BankModel, RandomPairedPatternsMatchBruteForce) {
    // Quads built from pair templates (and some that do not pair), addresses from a small pool
    // so that they conflict, an inactive lane now and then: the fast path against the reference.
    std::mt19937 rng(777);
    const char* templates[] = {"aabb", "abab", "abba", "aaaa", "aaab", "abcd"};
    AccessPlan p;
    int paired = 0;
    for (int n = 0; n < 600; ++n) {
        Instruction ins;
        ins.op = rng() % 4 ? SharedOp::Load : SharedOp::Store;
        ins.bytes_per_lane = rng() % 2 ? 8 : 16;
        const bool uniform = rng() % 2; // one template for the warp: pairs more often
        const char* fixed = templates[rng() % 6];
        std::int64_t pool[24];
        for (auto& a : pool)
            a = std::int64_t(rng() % (2048 / ins.bytes_per_lane)) * ins.bytes_per_lane;
        for (int q = 0; q < 8; ++q) {
            const char* tmpl = uniform ? fixed : templates[rng() % 6];
            std::int64_t letter[4];
            for (auto& a : letter)
                a = pool[rng() % 24];
            for (int j = 0; j < 4; ++j)
                ins.lanes.push_back({4 * q + j, letter[tmpl[j] - 'a'], rng() % 16 != 0});
        }
        paired += analyzeInstruction(ins).lane_pairs != 0;
        p.instructions.push_back(ins);
    }
    EXPECT_GT(paired, 50); // 97 with this seed
    PlanCost fast = analyzePlan(p), ref = analyzePlanBruteForce(p);
    ASSERT_EQ(fast.instructions.size(), ref.instructions.size());
    for (std::size_t i = 0; i < fast.instructions.size(); ++i) {
        EXPECT_EQ(fast.instructions[i].wavefronts, ref.instructions[i].wavefronts) << i;
        EXPECT_EQ(fast.instructions[i].ideal, ref.instructions[i].ideal) << i;
    }
}

TEST(BankModel, JsonRoundTrip) {
    AccessPlan p;
    p.instructions.push_back(stridedInstruction(SharedOp::Load, 8, 2));
    p.instructions.push_back(ldmatrixX4(64, true));
    p.instructions.back().lanes[3].active = false;
    nlohmann::json j;
    toJson(j, p);
    AccessPlan q = planFromJson(j);
    nlohmann::json j2;
    toJson(j2, q);
    EXPECT_EQ(j, j2);
    nlohmann::json cost;
    toJson(cost, analyzePlan(q));
    EXPECT_EQ(cost["total"]["wavefronts"], analyzePlan(p).wavefronts);
    EXPECT_EQ(cost["instructions"][0]["wavefronts"], 4);
    nlohmann::json bad = {{"instructions", {{{"op", "ld"}, {"addresses", {0, "x"}}}}}};
    try {
        planFromJson(bad);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("addresses[1]"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(assumptions().empty());
}

TEST(AscendUb, MappingMatchesGuideExamples) {
    EXPECT_EQ(ubBankOf(0x10000), 16);
    EXPECT_EQ(ubBankOf(0x10020), 17);
    EXPECT_EQ(ubBankOf(0x20020), 33);
    EXPECT_EQ(ubBankOf(0x10E20), 17);
    EXPECT_EQ(ubGroupOfBank(15), ubGroupOfBank(31));
    EXPECT_EQ(ubGroupOfBank(31), ubGroupOfBank(47));
    EXPECT_NE(ubGroupOfBank(16), ubGroupOfBank(17));
    EXPECT_EQ(ubRowOf(0x10E20), (0x10E20 / 512) % 128);
}

TEST(AscendUb, ConflictsFromTheGuide) {
    // Read/write: src 0x10020, dst 0x10000 -> different banks, no conflict.
    UbStepCost a = analyzeUbStep({{0x10020, false}, {0x10000, true}});
    EXPECT_EQ(a.read_write_conflicts, 0);
    EXPECT_EQ(a.cycles, 1);
    UbStepCost b = analyzeUbStep({{0x10020, false}, {0x10E20, true}});
    EXPECT_EQ(b.read_write_conflicts, 1);
    EXPECT_EQ(b.cycles, 2);
    // Write/write: 8 blocks from 0x1FE00 with a block stride of 16 (512 B): all in one group,
    // 8 cycles; stride 8 (256 B): two groups of 4, 4 cycles.
    std::vector<UbBlock> w16, w8;
    for (int k = 0; k < 8; ++k) {
        w16.push_back({0x1FE00 + k * 512, true});
        w8.push_back({0x1FE00 + k * 256, true});
    }
    EXPECT_EQ(analyzeUbStep(w16).write_cycles, 8);
    EXPECT_EQ(analyzeUbStep(w16).write_group_conflicts, 7);
    EXPECT_EQ(analyzeUbStep(w8).write_cycles, 4);
    // Contiguous 512 B read: one row per group, 1 cycle.
    std::vector<UbBlock> r;
    for (int k = 0; k < 16; ++k)
        r.push_back({k * 32, false});
    EXPECT_EQ(analyzeUbStep(r).cycles, 1);
    EXPECT_THROW(analyzeUbStep({{192 * 1024, false}}), InputError);
    EXPECT_NE(ubAssumptions().find("ASSUMED"), std::string::npos);
}
