// SPDX-License-Identifier: Apache-2.0
// msprof op output files (see msprof_op.h for the format and its source).
#include "tilescope/device/msprof_op.h"

#include "tilescope/support/errors.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace fs = std::filesystem;

namespace ts {

namespace {

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.pop_back();
    std::size_t b = 0;
    while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    return s.substr(b);
}

// RFC 4180 rows: quoted fields may hold commas, doubled quotes and newlines. Returns the rows
// with the 1-based line each starts on.
std::vector<std::pair<int, std::vector<std::string>>> readCsv(const std::string& text,
                                                              const std::string& name) {
    std::vector<std::pair<int, std::vector<std::string>>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, any = false;
    int line = 1, rowLine = 1;
    std::size_t i = 0;
    if (text.rfind("\xEF\xBB\xBF", 0) == 0) i = 3; // UTF-8 BOM
    auto endRow = [&] {
        row.push_back(trim(field));
        field.clear();
        bool blank = true;
        for (const auto& f : row)
            blank = blank && f.empty();
        if (!blank) rows.emplace_back(rowLine, std::move(row));
        row.clear();
        any = false;
    };
    for (; i < text.size(); ++i) {
        const char ch = text[i];
        if (quoted) {
            if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += '"', ++i;
            else if (ch == '"')
                quoted = false;
            else {
                if (ch == '\n') ++line;
                field += ch;
            }
            continue;
        }
        if (ch == '"' && trim(field).empty()) {
            quoted = true, any = true;
            field.clear();
        } else if (ch == ',') {
            row.push_back(trim(field));
            field.clear();
            any = true;
        } else if (ch == '\n') {
            endRow();
            rowLine = ++line;
        } else if (ch != '\r') {
            field += ch;
            any = true;
        }
    }
    if (quoted)
        throw InputError(name + ": a quoted field opened on line " + std::to_string(rowLine) +
                         " is never closed");
    if (any || !field.empty()) endRow();
    return rows;
}

std::string lower(std::string s) {
    for (char& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Column index by name, case-insensitively; -1 when absent.
int column(const std::vector<std::string>& header, std::initializer_list<const char*> names) {
    for (const char* n : names)
        for (std::size_t i = 0; i < header.size(); ++i)
            if (lower(header[i]) == lower(n)) return int(i);
    return -1;
}

bool missingValue(const std::string& v) {
    const std::string l = lower(v);
    return v.empty() || l == "n/a" || l == "na" || l == "-" || l == "nan";
}

double number(const std::string& v, const std::string& where) {
    std::size_t used = 0;
    double d = 0;
    try {
        d = std::stod(v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != v.size() || !std::isfinite(d))
        throw InputError(where + ": '" + v + "' is not a number");
    return d;
}

std::optional<double> ratio(const std::vector<std::string>& row, int col,
                            const std::vector<std::string>& header, const std::string& where) {
    if (col < 0 || std::size_t(col) >= row.size() || missingValue(row[std::size_t(col)]))
        return std::nullopt;
    std::string v = row[std::size_t(col)];
    const std::string at = where + ", column " + header[std::size_t(col)];
    bool percent = header[std::size_t(col)].find("(%)") != std::string::npos;
    if (!v.empty() && v.back() == '%') {
        percent = true;
        v = trim(v.substr(0, v.size() - 1));
    }
    double d = number(v, at);
    if (percent) d /= 100.0;
    if (d < 0 || d > 1)
        throw InputError(at + ": " + row[std::size_t(col)] +
                         " is not a ratio in [0, 1] (no '%' and the column is not named (%))");
    return d;
}

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw InputError("cannot read " + p.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

template <class F>
std::optional<double> over(const std::vector<MsprofConflictRow>& rows, F f, bool mean) {
    double acc = 0;
    int n = 0;
    for (const auto& r : rows)
        if (auto v = f(r)) {
            acc = mean ? acc + *v : std::max(acc, *v);
            ++n;
        }
    if (!n) return std::nullopt;
    return mean ? acc / n : acc;
}

} // namespace

std::optional<double> MsprofOpResult::bankMax() const {
    return over(
        conflicts, [](const MsprofConflictRow& r) { return r.bank; }, false);
}
std::optional<double> MsprofOpResult::bankMean() const {
    return over(
        conflicts, [](const MsprofConflictRow& r) { return r.bank; }, true);
}
std::optional<double> MsprofOpResult::bankgroupMax() const {
    return over(
        conflicts, [](const MsprofConflictRow& r) { return r.bankgroup; }, false);
}
std::optional<double> MsprofOpResult::bankgroupMean() const {
    return over(
        conflicts, [](const MsprofConflictRow& r) { return r.bankgroup; }, true);
}

MsprofOpResult parseMsprofOp(const std::string& basic_csv, const std::string& basic_name,
                             const std::string& conflict_csv, const std::string& conflict_name) {
    MsprofOpResult res;
    res.basic_file = basic_csv.empty() ? std::string() : basic_name;
    res.conflict_file = conflict_csv.empty() ? std::string() : conflict_name;
    if (!basic_csv.empty()) {
        const auto rows = readCsv(basic_csv, basic_name);
        if (rows.empty()) throw InputError(basic_name + ": no header row");
        const auto& h = rows[0].second;
        const int dur = column(h, {"Task Duration(us)"});
        if (dur < 0)
            throw InputError(basic_name + ": no 'Task Duration(us)' column in the header (" +
                             std::to_string(h.size()) + " columns)");
        const int name = column(h, {"Op Name"}), type = column(h, {"Op Type"}),
                  bd = column(h, {"Block Dim"}), mbd = column(h, {"Mix Block Dim"}),
                  dev = column(h, {"Device Id", "Device ID"}), cf = column(h, {"Current Freq"}),
                  rf = column(h, {"Rated Freq"});
        for (std::size_t k = 1; k < rows.size(); ++k) {
            const auto& r = rows[k].second;
            auto get = [&](int c) {
                return c >= 0 && std::size_t(c) < r.size() ? r[std::size_t(c)] : std::string();
            };
            MsprofOpBasicInfo b;
            b.op_name = get(name), b.op_type = get(type), b.block_dim = get(bd);
            b.mix_block_dim = get(mbd), b.device_id = get(dev), b.current_freq = get(cf);
            b.rated_freq = get(rf);
            if (!missingValue(get(dur))) {
                const double d =
                    number(get(dur), basic_name + " line " + std::to_string(rows[k].first) +
                                         ", column Task Duration(us)");
                if (d < 0)
                    throw InputError(basic_name + " line " + std::to_string(rows[k].first) +
                                     ": negative task duration " + get(dur));
                b.task_duration_us = d;
            }
            res.ops.push_back(b);
        }
    }
    if (!conflict_csv.empty()) {
        const auto rows = readCsv(conflict_csv, conflict_name);
        if (rows.empty()) throw InputError(conflict_name + ": no header row");
        const auto& h = rows[0].second;
        const int bank = column(h, {"aiv_vec_bank_cflt_ratio", "aiv_vec_bank_cflt_ratio(%)"}),
                  group = column(
                      h, {"aiv_vec_bankgroup_cflt_ratio", "aiv_vec_bankgroup_cflt_ratio(%)"});
        if (bank < 0 && group < 0)
            throw InputError(conflict_name +
                             ": neither aiv_vec_bank_cflt_ratio nor aiv_vec_bankgroup_cflt_ratio "
                             "is in the header");
        const int total = column(h, {"aiv_vec_total_cflt_ratio"}),
                  resc = column(h, {"aiv_vec_resc_cflt_ratio"}),
                  mte = column(h, {"aiv_vec_mte_cflt_ratio"}), blk = column(h, {"block_id"}),
                  sub = column(h, {"sub_block_id"});
        for (std::size_t k = 1; k < rows.size(); ++k) {
            const auto& r = rows[k].second;
            const std::string where = conflict_name + " line " + std::to_string(rows[k].first);
            MsprofConflictRow c;
            if (blk >= 0 && std::size_t(blk) < r.size()) c.block_id = r[std::size_t(blk)];
            if (sub >= 0 && std::size_t(sub) < r.size()) c.sub_block_id = r[std::size_t(sub)];
            c.bank = ratio(r, bank, h, where);
            c.bankgroup = ratio(r, group, h, where);
            c.total = ratio(r, total, h, where);
            c.resc = ratio(r, resc, h, where);
            c.mte = ratio(r, mte, h, where);
            res.conflicts.push_back(c);
        }
    }
    return res;
}

MsprofOpResult readMsprofOpDir(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw InputError(dir + " is not a directory");
    // The run's directory holds OPPROF_* folders (the newest wins); a folder holding the CSVs
    // directly is taken as it is. Files may sit one or two levels deeper (per-kernel folders).
    fs::path root = dir;
    if (!fs::exists(root / "OpBasicInfo.csv") && !fs::exists(root / "ResourceConflictRatio.csv")) {
        std::vector<fs::path> runs;
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.is_directory() && e.path().filename().string().rfind("OPPROF_", 0) == 0)
                runs.push_back(e.path());
        if (!runs.empty()) {
            std::sort(runs.begin(), runs.end()); // OPPROF_{timestamp}_...: newest last
            root = runs.back();
        }
    }
    fs::path basic, conflict;
    std::vector<std::string> sim;
    for (auto it = fs::recursive_directory_iterator(root, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (it.depth() > 4) {
            it.disable_recursion_pending();
            continue;
        }
        const std::string f = it->path().filename().string();
        if (f == "OpBasicInfo.csv" && basic.empty()) basic = it->path();
        if (f == "ResourceConflictRatio.csv" && conflict.empty()) conflict = it->path();
        if (it->path().parent_path().filename() == "simulator" && f == "trace.json")
            sim.push_back(it->path().string());
    }
    if (basic.empty() && conflict.empty()) {
        if (!sim.empty()) {
            MsprofOpResult r;
            r.simulator_files = sim;
            return r;
        }
        throw InputError("no OpBasicInfo.csv or ResourceConflictRatio.csv under " + root.string() +
                         " (run msprof op --output=" + dir + " ...)");
    }
    MsprofOpResult r =
        parseMsprofOp(basic.empty() ? std::string() : readFile(basic), basic.string(),
                      conflict.empty() ? std::string() : readFile(conflict), conflict.string());
    r.simulator_files = sim;
    return r;
}

std::string MsprofOpResult::summary() const {
    std::ostringstream os;
    os.setf(std::ios::fixed);
    for (const auto& o : ops) {
        os << (o.op_name.empty() ? std::string("kernel") : o.op_name) << ": task duration ";
        if (o.task_duration_us)
            os << std::setprecision(3) << *o.task_duration_us << " us";
        else
            os << "not reported";
        if (!o.block_dim.empty()) os << ", block dim " << o.block_dim;
        os << "\n";
    }
    auto pct = [](std::optional<double> v) {
        std::ostringstream s;
        s.setf(std::ios::fixed);
        s << std::setprecision(2) << *v * 100 << "%";
        return s.str();
    };
    if (auto b = bankMax())
        os << "UB bank conflicts (aiv_vec_bank_cflt_ratio): max " << pct(b) << ", mean "
           << pct(bankMean()) << "\n";
    if (auto g = bankgroupMax())
        os << "UB bank-group conflicts (aiv_vec_bankgroup_cflt_ratio): max " << pct(g) << ", mean "
           << pct(bankgroupMean()) << "\n";
    if (!conflict_file.empty() && !bankMax() && !bankgroupMax())
        os << "no vector core reported UB conflict ratios\n";
    if (!simulator_files.empty())
        os << simulator_files.size() << " simulator trace file(s) (open them in MindStudio "
           << "Insight; not read here)\n";
    return os.str();
}

} // namespace ts
