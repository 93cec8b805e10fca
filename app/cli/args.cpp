// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#include "tilescope/layout/slot_collisions.h"
#include "tilescope/support/errors.h"

#include <algorithm>
#include <iostream>
#include <set>

namespace cli {

namespace {

std::set<const CLI::Option*>& neededOptions() {
    static std::set<const CLI::Option*> s;
    return s;
}

// The first name as declared ("-o" of "-o,--out"); a positional's name.
std::string firstName(const CLI::Option* o) {
    if (o->get_positional()) return o->get_name();
    const std::string names = o->get_name(false, true);
    return names.substr(0, names.find(','));
}

} // namespace

CLI::Option* shownAsNeeded(CLI::Option* o) {
    neededOptions().insert(o);
    return o;
}

std::string missingArgument(const CLI::App& sub) {
    for (const CLI::Option* o : sub.get_options()) {
        if (!o->get_required()) continue;
        const auto& given = o->results();
        if (std::all_of(given.begin(), given.end(), [](const std::string& v) { return v.empty(); }))
            return firstName(o);
    }
    return {};
}

std::string usage(const CLI::App& sub) {
    std::string u = sub.get_name();
    for (const CLI::Option* o : sub.get_options()) {
        if (o == sub.get_help_ptr()) continue;
        std::string item = firstName(o);
        if (!o->get_positional() && o->get_expected_max() > 0) item += " " + o->get_type_name();
        if (o->get_expected_max() > 1) item += "...";
        const bool plain = o->get_required() || neededOptions().count(o);
        u += " " + (plain ? item : "[" + item + "]");
    }
    return u;
}

void badUsage(const CLI::App& sub, const std::string& what) {
    throw ts::InputError(what + " (usage: " + usage(sub) + ")");
}

int parseCount(const std::string& flag, const std::string& value) {
    try {
        std::size_t end = 0;
        const long long n = std::stoll(value, &end);
        if (end == value.size() && n >= 0 && n <= (1 << 20)) return int(n);
    } catch (const std::exception&) {
    }
    throw ts::InputError(flag + " expects a non-negative integer, got '" + value + "'");
}

bool warnSlotCollisions(const ts::Mapping& m, bool strict, const std::string& what) {
    const auto* f = std::get_if<ts::Fragment>(&m);
    if (!f) return false;
    const ts::SlotCollisions c = ts::findSlotCollisions(f->evaluate());
    if (!c.any()) return false;
    std::cerr << "tilescope-cli: " << (strict ? "error" : "warning") << ": " << what
              << "two elements share a register: " << c.summary() << "\n";
    return true;
}

void sayNotes(const ts::Mapping& m, const std::string& what) {
    for (const std::string& note : ts::mappingNotes(m))
        std::cerr << "tilescope-cli: note: " << what << note << "\n";
}

} // namespace cli
