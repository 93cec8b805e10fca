// SPDX-License-Identifier: Apache-2.0
// How many threads a parallel loop should use, and a loop over pieces on that many threads.
#pragma once

#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace ts {

// The cores this process may run on (taskset, container cpusets), at most TILESCOPE_THREADS when
// that is set; at least 1. Computed once.
std::size_t usableCores();

// Runs piece(0) .. piece(k - 1) at once, piece 0 on the calling thread; once all have finished,
// rethrows the exception of the lowest piece that threw (the first in their order).
template <class Piece> void runPieces(std::size_t k, const Piece& piece) {
    std::vector<std::exception_ptr> errors(k);
    auto run = [&](std::size_t p) {
        try {
            piece(p);
        } catch (...) {
            errors[p] = std::current_exception();
        }
    };
    std::vector<std::thread> workers;
    for (std::size_t p = 1; p < k; ++p)
        workers.emplace_back(run, p);
    if (k > 0) run(0);
    for (auto& t : workers)
        t.join();
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

} // namespace ts
