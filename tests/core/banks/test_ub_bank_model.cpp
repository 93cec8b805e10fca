// SPDX-License-Identifier: Apache-2.0
// The Ascend 950 UB (CANN 9.0 guide, Atlas 350 card / NPU arch 3510) and the split between what
// the guide states and what Tilescope infers. The A2/A3 worked examples: test_bank_model.cpp.
#include "tilescope/banks/ub_bank_model.h"
#include "tilescope/support/errors.h"

#include <gtest/gtest.h>

using namespace ts;

TEST(AscendUb950, AddressBitsFromTheGuide) {
    const UbConfig c = UbConfig::ascend950();
    EXPECT_EQ(c.capacity(), 256 * 1024);
    EXPECT_EQ(c.usable(), 248 * 1024);
    EXPECT_EQ(c.banks(), 16);
    // UB_ADDR = {BANK_DEPTH[8:0], BANK[0], BG[2:0], BANK_WIDTH[4:0]}.
    EXPECT_EQ(ubBankOf(0x10000, c), 0); // "0x10000 is in bank 0" on the Atlas 350
    EXPECT_EQ(ubBankOf(0x0, c), 0);
    EXPECT_EQ(ubGroupOfBank(ubBankOf(0x20, c), c), 1); // BG = bits 5..7
    EXPECT_EQ(ubGroupOfBank(ubBankOf(0xE0, c), c), 7);
    EXPECT_EQ(ubBankOf(0x100, c), 8); // BANK[0] = bit 8, same group as 0x0
    EXPECT_EQ(ubGroupOfBank(8, c), ubGroupOfBank(0, c));
    EXPECT_EQ(ubRowOf(0x200, c), 1); // BANK_DEPTH = bits 9..17
    EXPECT_EQ(ubRowOf(0x3FE00, c), 511);
}

TEST(AscendUb950, ConflictRulesFromTheGuide) {
    const UbConfig c = UbConfig::ascend950();
    // Read 0x0 and write 0x10000: bank 0 both, a read/write conflict on 3510 (none on 220x).
    EXPECT_EQ(analyzeUbStep({{0x0, false}, {0x10000, true}}, c).read_write_conflicts, 1);
    EXPECT_EQ(analyzeUbStep({{0x0, false}, {0x10000, true}}).read_write_conflicts, 0);
    // Two reads of the two banks of one group: two read ports, no conflict.
    EXPECT_EQ(analyzeUbStep({{0x0, false}, {0x100, false}}, c).read_cycles, 1);
    // Two reads of one bank: conflict.
    EXPECT_EQ(analyzeUbStep({{0x0, false}, {0x200, false}}, c).read_cycles, 2);
    // More than two reads of one group: conflict.
    EXPECT_EQ(analyzeUbStep({{0x0, false}, {0x100, false}, {0x200, false}}, c).read_cycles, 2);
    // Two writes to one group: conflict.
    EXPECT_EQ(analyzeUbStep({{0x0, true}, {0x100, true}}, c).write_cycles, 2);
    // Beyond the 248 KB usable: refused, naming the buffer.
    try {
        analyzeUbStep({{248 * 1024, false}}, c);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("253952-byte Ascend 950"), std::string::npos)
            << e.what();
    }
}

TEST(AscendUb, StatedAndInferredAreSeparate) {
    for (const UbConfig& c : {UbConfig::atlasA2A3(), UbConfig::ascend950()}) {
        const std::string stated = ubStatedFacts(c), inferred = ubInferred(c);
        EXPECT_EQ(stated.find("formula"), std::string::npos) << stated;
        EXPECT_NE(inferred.find("cycle counts"), std::string::npos) << inferred;
        EXPECT_NE(ubAssumptions(c).find("INFERRED"), std::string::npos);
    }
    EXPECT_NE(ubStatedFacts().find("192 KB in 48 banks"), std::string::npos);
    EXPECT_NE(ubStatedFacts().find("0x10E20 -> 17"), std::string::npos);
    EXPECT_NE(ubInferred().find("16 * (addr / 64 KB)"), std::string::npos);
    EXPECT_NE(ubStatedFacts(UbConfig::ascend950()).find("248 KB"), std::string::npos);
}

TEST(AscendUb, ConflictSharesMirrorTheProfilerRatios) {
    // The guide's stride-16 write: 8 cycles, 7 of them group conflicts.
    std::vector<UbBlock> w16;
    for (int k = 0; k < 8; ++k)
        w16.push_back({0x1FE00 + k * 512, true});
    const UbStepCost w = analyzeUbStep(w16);
    EXPECT_DOUBLE_EQ(w.groupConflictShare(), 7.0 / 8.0);
    EXPECT_DOUBLE_EQ(w.bankConflictShare(), 0.0);
    const UbStepCost rw = analyzeUbStep({{0x10020, false}, {0x10E20, true}});
    EXPECT_EQ(rw.cycles, 2);
    EXPECT_DOUBLE_EQ(rw.bankConflictShare(), 0.5);
    EXPECT_DOUBLE_EQ(rw.groupConflictShare(), 0.0);
}
