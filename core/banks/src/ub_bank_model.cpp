// SPDX-License-Identifier: Apache-2.0
// The Ascend Unified Buffer bank model (see ub_bank_model.h for what is stated and inferred).
#include "tilescope/banks/ub_bank_model.h"

#include "tilescope/support/errors.h"

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ts {

std::string ubArchName(UbArch a) {
    return a == UbArch::A2A3 ? "Atlas A2/A3 (NPU arch 220x)" : "Ascend 950 (NPU arch 3510)";
}

int ubBankOf(std::int64_t a, const UbConfig& cfg) {
    const std::int64_t block = a / cfg.row_bytes;
    if (cfg.arch == UbArch::Ascend950) {
        // UB_ADDR = {BANK_DEPTH, BANK[0], BG[2:0], BANK_WIDTH[4:0]}: group from the block's low
        // bits, the bank inside the group from the next bit.
        const std::int64_t group = block % cfg.groups;
        const std::int64_t inGroup = (block / cfg.groups) % cfg.banks_per_group;
        return int(inGroup * cfg.groups + group);
    }
    const std::int64_t region_bytes = std::int64_t(cfg.groups) * cfg.rows_per_bank * cfg.row_bytes;
    return int((a / region_bytes) * cfg.groups + block % cfg.groups);
}

int ubGroupOfBank(int bank, const UbConfig& cfg) {
    return bank % cfg.groups;
}

int ubRowOf(std::int64_t a, const UbConfig& cfg) {
    const std::int64_t perRow = std::int64_t(cfg.row_bytes) * cfg.groups *
                                (cfg.arch == UbArch::Ascend950 ? cfg.banks_per_group : 1);
    return int((a / perRow) % cfg.rows_per_bank);
}

UbStepCost analyzeUbStep(const std::vector<UbBlock>& blocks, const UbConfig& cfg) {
    UbStepCost c;
    const int nb = cfg.banks();
    c.bank_reads.assign(std::size_t(nb), 0);
    c.bank_writes.assign(std::size_t(nb), 0);
    std::vector<std::set<std::int64_t>> rd(static_cast<std::size_t>(cfg.groups)),
        wr(static_cast<std::size_t>(cfg.groups));
    std::vector<std::set<std::int64_t>> brd(static_cast<std::size_t>(nb)),
        bwr(static_cast<std::size_t>(nb));
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const std::int64_t a = blocks[i].byte_address;
        if (a < 0 || a >= cfg.usable())
            throw InputError("UB block " + std::to_string(i) + ": address " + std::to_string(a) +
                             " is outside the " + std::to_string(cfg.usable()) + "-byte " +
                             ubArchName(cfg.arch) + " buffer");
        const int bank = ubBankOf(a, cfg);
        const std::int64_t blk = a / cfg.row_bytes;
        (blocks[i].write ? wr : rd)[std::size_t(ubGroupOfBank(bank, cfg))].insert(blk);
        (blocks[i].write ? bwr : brd)[std::size_t(bank)].insert(blk);
    }
    for (int b = 0; b < nb; ++b) {
        c.bank_reads[std::size_t(b)] = int(brd[std::size_t(b)].size());
        c.bank_writes[std::size_t(b)] = int(bwr[std::size_t(b)].size());
        if (c.bank_reads[std::size_t(b)] && c.bank_writes[std::size_t(b)]) c.read_write_conflicts++;
    }
    for (int g = 0; g < cfg.groups; ++g) {
        int r = int(rd[std::size_t(g)].size());
        if (cfg.read_ports_per_group > 1) {
            // Several read ports: a group serves that many rows per cycle, one per bank.
            int perBank = 0;
            for (int k = 0; k < cfg.banks_per_group; ++k)
                perBank = std::max(perBank, c.bank_reads[std::size_t(k * cfg.groups + g)]);
            r = std::max((r + cfg.read_ports_per_group - 1) / cfg.read_ports_per_group, perBank);
        }
        const int w = int(wr[std::size_t(g)].size());
        c.read_cycles = std::max(c.read_cycles, r);
        c.write_cycles = std::max(c.write_cycles, w);
        if (r > 1) c.read_group_conflicts += r - 1;
        if (w > 1) c.write_group_conflicts += w - 1;
    }
    c.cycles = std::max(c.read_cycles, c.write_cycles) + (c.read_write_conflicts > 0 ? 1 : 0);
    return c;
}

std::string ubStatedFacts(const UbConfig& cfg) {
    std::ostringstream os;
    if (cfg.arch == UbArch::Ascend950) {
        os << "Atlas 350 card (NPU arch 3510, Ascend 950), CANN 9.0 guide: 256 KB in 8 bank "
              "groups of 2 banks, each 512 rows x 32 B (16 KB); low-order interleaving "
              "UB_ADDR[17:0] = {BANK_DEPTH[8:0], BANK[0], BG[2:0], BANK_WIDTH[4:0]}; two read "
              "ports per group: a read/read conflict is two reads of one bank or more than two of "
              "one group; write/write: one group; read/write: one bank; 0x10000 is in bank 0. "
              "Usable: 248 KB (CATLASS Arch::Ascend950::UB_SIZE).";
        return os.str();
    }
    os << "Atlas A2/A3 (NPU arch 220x), CANN guide: " << cfg.capacity() / 1024 << " KB in "
       << cfg.banks() << " banks of " << cfg.rows_per_bank << " rows x " << cfg.row_bytes << " B, "
       << cfg.groups << " bank groups of " << cfg.banks_per_group
       << " (bank 15, 31, 47 form one group); per cycle the vector unit reads one row from and "
          "writes one row to each group; read/write conflict: one bank; read/read and "
          "write/write: one group. Worked addresses: 0x10000 -> bank 16, 0x10020 -> 17, "
          "0x20020 -> 33, 0x10E20 -> 17; 8 blocks written from 0x1FE00 with block stride 16 take "
          "8 cycles, with stride 8 take 4.";
    return os.str();
}

std::string ubInferred(const UbConfig& cfg) {
    if (cfg.arch == UbArch::Ascend950)
        return "Bank numbering bank = BANK[0] * 8 + group (the guide names only bank 0), and the "
               "cycle counts: a group serves 2 read rows per cycle, one per bank, and 1 write row; "
               "+1 cycle when a bank is read and written. Not checked on hardware.";
    return "The address -> bank formula bank = 16 * (addr / 64 KB) + (addr / 32) % 16 (it "
           "reproduces the four worked addresses; the guide gives no formula), and the cycle "
           "counts: max over groups of distinct rows read (or written), +1 cycle when a bank is "
           "read and written. Not checked on hardware; msprof op reports only ratios "
           "(aiv_vec_bank_cflt_ratio, aiv_vec_bankgroup_cflt_ratio).";
}

std::string ubAssumptions(const UbConfig& cfg) {
    return "STATED: " + ubStatedFacts(cfg) +
           "\nINFERRED by Tilescope (ASSUMED): " + ubInferred(cfg);
}

void toJson(nlohmann::json& j, const UbStepCost& c) {
    j = {{"cycles", c.cycles},
         {"read_cycles", c.read_cycles},
         {"write_cycles", c.write_cycles},
         {"read_group_conflicts", c.read_group_conflicts},
         {"write_group_conflicts", c.write_group_conflicts},
         {"read_write_conflicts", c.read_write_conflicts},
         {"bank_reads", c.bank_reads},
         {"bank_writes", c.bank_writes}};
}

} // namespace ts
