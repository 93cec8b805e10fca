// SPDX-License-Identifier: Apache-2.0
// Reading what `msprof op` writes: the kernel's task duration (OpBasicInfo.csv) and the UB
// conflict ratios (ResourceConflictRatio.csv), the hardware figures the UB bank model is set
// against.
//
// Format, from the CANN msProf documentation ("msprof op" performance data files, CANN 8.0 to
// 9.0, hiascend.com atlasopdev_16_0098 / _0100, and the msopprof user guide): `msprof op
// --output=DIR app` makes DIR/OPPROF_{timestamp}_XXX/ holding CSV files with a header row;
//   OpBasicInfo.csv            Op Name, Op Type, Task Duration(us), Block Dim, Mix Block Dim,
//                              Device Id (or Device ID), Pid, Current Freq, Rated Freq;
//   ResourceConflictRatio.csv  one row per block_id / sub_block_id with aic_time(us),
//                              aic_total_cycles, aiv_time(us), aiv_total_cycles and ratios,
//                              among them aiv_vec_bankgroup_cflt_ratio (vector cycles blocked by
//                              bank-group conflicts / all cycles) and aiv_vec_bank_cflt_ratio
//                              (blocked by bank conflicts), aiv_vec_total_cflt_ratio, ...
// The ratio columns carry no "(%)" in their names (percentages in msprof files do, e.g.
// aic_total_hit_rate(%)), so they are read as fractions in [0, 1]; a value with a trailing '%'
// or a column named "(%)" is divided by 100; anything else outside [0, 1] is an error.
// `msprof op simulator` writes OPPROF_*/simulator/core*.veccore*/ instruction files and
// trace.json instead; they are listed, not parsed.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ts {

struct MsprofOpBasicInfo {
    std::string op_name, op_type, block_dim, mix_block_dim, device_id, current_freq, rated_freq;
    std::optional<double> task_duration_us;
};

struct MsprofConflictRow {
    std::string block_id, sub_block_id;
    std::optional<double> bank, bankgroup, total, resc, mte; // fractions in [0, 1]
};

struct MsprofOpResult {
    std::string basic_file, conflict_file; // where they were read from
    std::vector<MsprofOpBasicInfo> ops;
    std::vector<MsprofConflictRow> conflicts;
    std::vector<std::string> simulator_files; // simulator output found (not parsed)
    // Over the rows that report the ratio (vector cores; cube-only rows leave it empty).
    std::optional<double> bankMax() const, bankMean() const, bankgroupMax() const,
        bankgroupMean() const;
    std::string summary() const;
};

// Parses the two CSV texts; `*_name` names them in error messages. Either text may be empty.
MsprofOpResult parseMsprofOp(const std::string& basic_csv, const std::string& basic_name,
                             const std::string& conflict_csv, const std::string& conflict_name);
// Finds the newest OPPROF_* directory under `dir` (or `dir` itself when it holds the CSVs) and
// parses its files. Throws InputError saying what is missing.
MsprofOpResult readMsprofOpDir(const std::string& dir);

} // namespace ts
