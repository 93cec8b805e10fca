// SPDX-License-Identifier: Apache-2.0
#include "tilescope/support/cores.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif

namespace ts {

std::size_t usableCores() {
    static const std::size_t n = [] {
        long c = std::max(1u, std::thread::hardware_concurrency());
#ifdef __linux__
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0) c = std::max(1, CPU_COUNT(&set));
#endif
        if (const char* env = std::getenv("TILESCOPE_THREADS"))
            if (const long v = std::strtol(env, nullptr, 10); v >= 1) c = std::min(c, v);
        return std::size_t(c);
    }();
    return n;
}

} // namespace ts
