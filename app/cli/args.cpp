#include "cli.h"

#include "tilescope/layout/slot_collisions.h"
#include "tilescope/support/errors.h"

#include <iostream>

namespace cli {

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

} // namespace cli
