// SPDX-License-Identifier: Apache-2.0
// The Ascend Unified Buffer (UB) bank model: which bank a 32-byte block lives in and what one
// vector step costs. Two UBs, and two kinds of statement about each, kept apart:
//
// STATED by the CANN Ascend C best-practices guide ("Avoiding Bank Conflicts in the Unified
// Buffer", CANN 8.x for A2/A3; the CANN 9.0 overview for both):
//   Atlas A2/A3 (NPU architecture 220x): 192 KB, 48 banks of 128 rows x 32 B (4 KB), 16 bank
//     groups of 3 banks (bank 15, 31, 47 form one group); the vector unit reads one row from and
//     writes one row to each bank group per cycle; read/write conflict = one bank read and
//     written, write/write and read/read = one bank group; worked addresses 0x10000 -> bank 16,
//     0x10020 -> bank 17, 0x20020 -> bank 33, 0x10E20 -> bank 17; a write of 8 blocks from
//     0x1FE00 with block stride 16 takes 8 cycles, with stride 8 takes 4.
//   Atlas 350 card (NPU architecture 3510, the Ascend 950): 256 KB, 8 bank groups of 2 banks of
//     512 rows x 32 B (16 KB), low-order interleaving UB_ADDR[17:0] = {BANK_DEPTH[8:0], BANK[0],
//     BG[2:0], BANK_WIDTH[4:0]}; two read ports per group, so read/read conflicts are two reads of
//     one bank or more than two of one group; write/write = one group; read/write = one bank;
//     0x10000 is in bank 0. Usable size 248 KB: CATLASS Arch::Ascend950::UB_SIZE.
// INFERRED by Tilescope (not in any source read; not checked on hardware):
//   A2/A3 address -> bank: bank = 16 * (addr / 64 KB) + (addr / 32) % 16, row =
//     (addr / 512) % 128 (it reproduces the four worked addresses; the guide gives no formula);
//   950 bank numbering: bank = BANK[0] * 8 + BG (the guide numbers no banks besides bank 0);
//   the cycle counts below (the guide says conflicting accesses queue, not how long).
#pragma once

#include <algorithm>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace ts {

enum class UbArch { A2A3, Ascend950 };

struct UbConfig {
    UbArch arch = UbArch::A2A3;
    int groups = 16;
    int banks_per_group = 3;
    int row_bytes = 32;
    int rows_per_bank = 128;
    int read_ports_per_group = 1;
    std::int64_t usable_bytes = 0; // 0: the whole buffer
    int banks() const { return groups * banks_per_group; }
    std::int64_t capacity() const { return std::int64_t(banks()) * rows_per_bank * row_bytes; }
    std::int64_t usable() const { return usable_bytes ? usable_bytes : capacity(); }
    static UbConfig atlasA2A3() { return {}; }
    static UbConfig ascend950() {
        UbConfig c;
        c.arch = UbArch::Ascend950;
        c.groups = 8, c.banks_per_group = 2, c.rows_per_bank = 512, c.read_ports_per_group = 2;
        c.usable_bytes = 248 * 1024;
        return c;
    }
};
std::string ubArchName(UbArch a); // "Atlas A2/A3 (220x)" / "Ascend 950 (3510)"

struct UbBlock {
    std::int64_t byte_address = 0; // any byte of the 32-byte block
    bool write = false;
};

struct UbStepCost {
    // A2/A3: max over groups of distinct rows read. 950: max over groups of
    // max(ceil(distinct rows read in the group / 2), distinct rows read in one bank).
    int read_cycles = 0;
    int write_cycles = 0;          // max over groups of distinct rows written
    int read_group_conflicts = 0;  // sum over groups of (their read cycles - 1) where > 1
    int write_group_conflicts = 0; // likewise for writes
    int read_write_conflicts = 0;  // banks both read and written
    int cycles = 0; // max(read_cycles, write_cycles) + (read_write_conflicts > 0 ? 1 : 0)
    std::vector<int> bank_reads, bank_writes; // [bank] distinct rows
    // The model's counterparts of msprof op's ratios: conflict cycles / cycles.
    double groupConflictShare() const {
        return cycles ? double(std::max(read_cycles, write_cycles) - 1) / cycles : 0.0;
    }
    double bankConflictShare() const { return cycles && read_write_conflicts ? 1.0 / cycles : 0.0; }
};

int ubBankOf(std::int64_t byte_address, const UbConfig& cfg = {});
int ubGroupOfBank(int bank, const UbConfig& cfg = {});
int ubRowOf(std::int64_t byte_address, const UbConfig& cfg = {});
// Throws InputError for addresses outside the usable buffer.
UbStepCost analyzeUbStep(const std::vector<UbBlock>& blocks, const UbConfig& cfg = {});
// What the CANN guide states about this UB, and what Tilescope infers, as two texts.
std::string ubStatedFacts(const UbConfig& cfg = {});
std::string ubInferred(const UbConfig& cfg = {});
std::string ubAssumptions(const UbConfig& cfg = {}); // both, labelled
void toJson(nlohmann::json& j, const UbStepCost& cost);

} // namespace ts
