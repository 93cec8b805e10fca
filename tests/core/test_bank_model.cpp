#include "tilescope/bank_model.h"
#include "tilescope/errors.h"

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
