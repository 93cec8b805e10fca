// SPDX-License-Identifier: Apache-2.0
// Large result tables (a 1024x1024 fragment is 16 MB) are written once, right after allocation:
// on Linux with transparent huge pages in "madvise" mode (Debian's and Ubuntu's default) each
// 4 KiB first touch is a page fault, which cost as much as the evaluation itself. Advising the
// reserved capacity as huge pages turns ~4000 faults into a handful.
//
// Only up to kMaxAdvisedBytes: the kernel finds huge pages by compacting memory, synchronously
// in that mode, and for the hundreds of megabytes of a 16M-cell table that stalled the first
// evaluation of a process for about a second (measured: 256 MB touched in 1.1 s advised, 0.15 s
// in 4 KiB pages), where the 4 KiB faults cost a steady fraction of that.
#pragma once

#include <cstddef>
#include <vector>

namespace ts::detail {

inline constexpr std::size_t kMaxAdvisedBytes = std::size_t{64} << 20;

// Advises the 2 MiB-aligned interior of [p, p + bytes) as huge pages; a no-op elsewhere, for
// small ranges, or when the kernel refuses (the hint is only about speed).
void adviseHugePages(void* p, std::size_t bytes);

// reserve(n) then advise; the vector stays empty, so pages are first touched by the writes.
template <class T> void reserveHuge(std::vector<T>& v, std::size_t n) {
    v.reserve(n);
    adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

} // namespace ts::detail
