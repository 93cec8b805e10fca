// How many threads a parallel loop should use.
#pragma once

#include <cstddef>

namespace ts {

// The cores this process may run on (taskset, container cpusets), at most TILESCOPE_THREADS when
// that is set; at least 1. Computed once.
std::size_t usableCores();

} // namespace ts
