// SPDX-License-Identifier: Apache-2.0
// `import-dump` (events of a TileLang log) and `diff` (cell-by-cell comparison of two layouts).
#include "cli.h"

#include "tilescope/layout/layout_diff.h"
#include "tilescope/layout/table_json.h"
#include "tilescope/notation/document.h"
#include "tilescope/support/errors.h"
#include "tilescope/trace/dump.h"

#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace {

using nlohmann::json;

std::string dumpJson(const json& j) {
    // Logs may hold invalid UTF-8: replace it rather than fail.
    return j.dump(1, ' ', false, json::error_handler_t::replace);
}

json diffJson(const ts::LayoutDiff& d) {
    return {{"kind", d.fragments ? "fragment" : "layout"},
            {"grid", {d.rows, d.cols}},
            {"grid_a", {d.rowsA, d.colsA}},
            {"grid_b", {d.rowsB, d.colsB}},
            {"counts",
             {{"cells", d.counts.cells},
              {"same", d.counts.same},
              {"differing", d.counts.differing()},
              {"thread", d.counts.thread},
              {"slot", d.counts.slot},
              {"replica", d.counts.replica},
              {"shape", d.counts.shape}}},
            {"relations", d.relations},
            {"summary", d.summary}};
}

std::optional<ts::LayoutDiff> conflictDiff(const ts::dump::Event& e) {
    auto [a, b] = e.comparedLayouts();
    if (!a || !b || !a->value || !b->value) return std::nullopt;
    try {
        return ts::diffLayouts(*a->value, *b->value, a->role, b->role);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

struct ImportArgs {
    std::string path;
    bool asJson = false, tables = false, strict = false, repeats = false;
};

int importDump(const ImportArgs& a) {
    const std::string& path = a.path;
    const bool tables = a.tables, asJson = a.asJson || a.tables, repeats = a.repeats;
    const bool strict = a.strict;
    std::vector<ts::dump::Event> events = ts::dump::parseFile(path);

    std::size_t problems = 0;
    std::map<std::string, int> counts;
    json jevents = json::array();
    for (const auto& e : events) {
        if (!e.ok()) {
            ++problems;
            std::cerr << "tilescope-cli: warning: " << path << ":" << e.line << ": "
                      << ts::dump::kindName(e.kind) << ": " << e.problem << "\n";
        }
        if (e.repeatOf && !repeats) continue;
        ++counts[ts::dump::kindName(e.kind)];
        if (asJson) {
            json j{{"index", e.index},
                   {"kind", ts::dump::kindName(e.kind)},
                   {"line", e.line},
                   {"end_line", e.endLine}};
            if (!e.buffer.empty()) j["buffer"] = e.buffer;
            if (!e.other.empty()) j["other"] = e.other;
            if (!e.message.empty()) j["message"] = e.message;
            if (!e.span.empty()) j["span"] = e.span;
            if (!e.spanSource.empty()) j["span_source"] = e.spanSource;
            if (!e.location.empty()) j["location"] = e.location;
            if (!e.problem.empty()) j["problem"] = e.problem;
            if (e.repeatOf) j["repeat_of"] = *e.repeatOf;
            json ls = json::array();
            for (const auto& l : e.layouts) {
                json jl{{"role", l.role}, {"line", l.line}, {"text", l.raw}};
                if (l.value) {
                    jl["kind"] =
                        std::holds_alternative<ts::Fragment>(*l.value) ? "fragment" : "layout";
                    jl["mapping"] = l.mapping;
                    jl["repr"] = ts::tilelangRepr(*l.value);
                    if (tables) jl["table"] = ts::tableJson(*l.value);
                }
                if (!l.error.empty()) jl["error"] = l.error;
                if (!l.note.empty()) jl["note"] = l.note;
                ls.push_back(std::move(jl));
            }
            if (!ls.empty()) j["layouts"] = std::move(ls);
            if (auto d = conflictDiff(e)) j["diff"] = diffJson(*d);
            jevents.push_back(std::move(j));
        } else {
            std::cout << "line " << e.line << ": " << ts::dump::kindName(e.kind);
            if (!e.buffer.empty()) std::cout << " " << e.buffer;
            if (!e.other.empty()) std::cout << " / " << e.other;
            if (!e.span.empty()) std::cout << "  (--> " << e.span << ")";
            std::cout << "\n";
            if ((e.kind == ts::dump::EventKind::Error || e.kind == ts::dump::EventKind::Warning) &&
                !e.message.empty())
                std::cout << "    " << e.message << "\n";
            if (!e.location.empty()) std::cout << "    raised at " << e.location << "\n";
            for (const auto& l : e.layouts) {
                std::cout << "    " << l.role << ": "
                          << (l.value ? l.mapping : "<unparsed> " + l.raw) << "\n";
                if (!l.note.empty()) std::cout << "      note: " << l.note << "\n";
            }
            if (auto d = conflictDiff(e)) std::cout << "    diff: " << d->summary << "\n";
            if (!e.ok()) std::cout << "    problem: " << e.problem << "\n";
        }
    }
    if (asJson) {
        json out{{"log", path},
                 {"events", std::move(jevents)},
                 {"counts", counts},
                 {"problems", problems},
                 {"total_events", events.size()}};
        std::cout << dumpJson(out) << "\n";
    } else {
        std::cout << events.size() << " events";
        for (const auto& [k, n] : counts)
            std::cout << ", " << k << " " << n;
        std::cout << "; " << problems << " problems\n";
    }
    return (strict && problems) ? cli::kBadInput : cli::kOk;
}

cli::Run declareImportDump(CLI::App& sub) {
    auto a = std::make_shared<ImportArgs>();
    sub.add_option("LOG", a->path, "a TileLang compiler log")->required();
    sub.add_flag("--json", a->asJson, "the events as JSON");
    sub.add_flag("--tables", a->tables, "JSON with each layout's evaluated cells");
    sub.add_flag("--all", a->repeats, "keep repeated events");
    sub.add_flag("--strict", a->strict, "exit 2 when any event has a problem");
    return [a] { return importDump(*a); };
}

struct DiffArgs {
    std::vector<std::string> specs{2};
    bool asJson = false, grid = false;
};

int diff(const DiffArgs& a) {
    const std::vector<std::string>& specs = a.specs;
    const bool asJson = a.asJson, grid = a.grid;
    std::vector<ts::Mapping> m;
    for (std::size_t k = 0; k < 2; ++k) {
        try {
            m.push_back(ts::dump::parseAnyLayoutText(ts::resolveSpecText(specs[k])));
        } catch (const ts::ParseError& e) {
            throw ts::ParseError(std::string(k ? "SPEC_B" : "SPEC_A") + ": " + e.message(),
                                 e.source(), e.column());
        } catch (const ts::InputError& e) {
            throw ts::InputError(std::string(k ? "SPEC_B: " : "SPEC_A: ") + e.what(), e.column());
        }
    }
    cli::warnSlotCollisions(m[0], false, "SPEC_A: ");
    cli::warnSlotCollisions(m[1], false, "SPEC_B: ");
    cli::sayNotes(m[0], "SPEC_A: ");
    cli::sayNotes(m[1], "SPEC_B: ");
    ts::LayoutDiff d = ts::diffLayouts(m[0], m[1], "A", "B");
    if (asJson) {
        json j = diffJson(d);
        if (grid) {
            json rows = json::array();
            for (std::int64_t r = 0; r < d.rows; ++r) {
                json row = json::array();
                for (std::int64_t c = 0; c < d.cols; ++c)
                    row.push_back(d.at(r, c));
                rows.push_back(std::move(row));
            }
            j["cells"] = std::move(rows);
        }
        std::cout << dumpJson(j) << "\n";
        return cli::kOk;
    }
    std::cout << "cells " << d.counts.cells << ", same " << d.counts.same << ", differing "
              << d.counts.differing() << "\n"
              << "  thread " << d.counts.thread << "\n  slot " << d.counts.slot << "\n  replica "
              << d.counts.replica << "\n  shape " << d.counts.shape << "\n"
              << d.summary << "\n";
    if (grid) {
        // . same, t thread, s slot, r replica, # shape, * several
        for (std::int64_t r = 0; r < d.rows; ++r) {
            for (std::int64_t c = 0; c < d.cols; ++c) {
                std::uint8_t b = d.at(r, c);
                char ch = b == 0                  ? '.'
                          : b == ts::kDiffThread  ? 't'
                          : b == ts::kDiffSlot    ? 's'
                          : b == ts::kDiffReplica ? 'r'
                          : b == ts::kDiffShape   ? '#'
                                                  : '*';
                std::cout << ch;
            }
            std::cout << "\n";
        }
    }
    return cli::kOk;
}

cli::Run declareDiff(CLI::App& sub) {
    auto a = std::make_shared<DiffArgs>();
    const char* what = "a layout or fragment: mapping text, FILE.json[:NAME] or a TileLang repr";
    sub.add_option("SPEC_A", a->specs[0], what)->required();
    sub.add_option("SPEC_B", a->specs[1], what)->required();
    sub.add_flag("--json", a->asJson, "counts, relations and summary as JSON");
    sub.add_flag("--grid", a->grid, "the differences cell by cell as well");
    return [a] { return diff(*a); };
}

cli::Register r1({"import-dump",
                  "layout events of a TileLang log (inferred layouts, conflicts, errors) with "
                  "their layouts as mapping text; --tables adds the evaluated cells; --all keeps "
                  "repeated events; problems go to stderr (--strict: exit 2 when any)",
                  declareImportDump});
cli::Register r2({"diff",
                  "compare two layouts or fragments cell by cell: counts by kind of difference "
                  "(thread, slot, replica, shape) and a plain summary; a SPEC may also be a "
                  "TileLang repr such as 'Fragment((16, 32) -> (4,), ...)'",
                  declareDiff});

} // namespace
