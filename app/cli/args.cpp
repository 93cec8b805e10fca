#include "cli.h"

#include "tilescope/errors.h"

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

} // namespace cli
