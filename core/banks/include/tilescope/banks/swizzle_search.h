// SPDX-License-Identifier: Apache-2.0
// Shared-memory swizzles: TileLang's XOR tables per dtype, and a search that scores candidate
// layouts of an R x C tile (row-major, padded rows, quarter/half/full bank swizzles where legal,
// make_swizzled_layout's choice) against a write pattern and a read pattern together, proposing
// the cheapest (total wavefronts of both; ties by memory footprint, then list order).
#pragma once

#include "tilescope/banks/access.h"

#include <optional>
#include <string>
#include <vector>

namespace ts {

// TileLang's 32B/64B/128B swizzle (gemm_layouts.cc): within each 8-row period, row s stores its
// 16-byte chunk c at chunk position c ^ f(s), f = s / 4 (32B, k = 2), s / 2 (64B, k = 4),
// s (128B, k = 8). table[s][c] = physical chunk of logical chunk c in row s.
struct XorTable {
    int swizzle_bytes = 128; // 32, 64, 128
    int k = 8;               // chunks per swizzle row
    int element_bytes = 2;
    int elements_per_chunk = 8;          // 16 / element bytes
    int columns = 64;                    // k * elements_per_chunk: the smallest legal column count
    std::vector<std::vector<int>> table; // [8][k]
};
XorTable xorTable(int swizzleBytes, const std::string& dtype);
std::string formatXorTable(const XorTable& t);

struct SwizzleCandidate {
    std::string name; // "row-major", "pad 16 B", "32B swizzle", ...
    std::string code; // mapping-language text that builds it
    bool legal = true;
    std::string problem; // why it is not legal / not bijective
    std::optional<Layout> layout;
    std::int64_t write_wavefronts = 0, write_ideal = 0;
    std::int64_t read_wavefronts = 0, read_ideal = 0;
    std::int64_t footprint_bytes = 0;
    bool bijective = false; // onto [0, output shape) without holes (padding is injective only)
    std::int64_t total() const { return write_wavefronts + read_wavefronts; }
};

struct SwizzleSearch {
    std::vector<SwizzleCandidate> candidates; // all, in a fixed order
    int best = -1;                            // index of the proposal (-1: none legal)
};

// The candidate layouts of an R x C tile of `dtype` (not yet scored).
std::vector<SwizzleCandidate> swizzleCandidates(std::int64_t rows, std::int64_t cols,
                                                const std::string& dtype);
// Scores every legal candidate with both access patterns (ACCESS texts as in access.h; an empty
// pattern is skipped). A pattern that fails on a candidate (e.g. a vector that is not contiguous
// there) makes that candidate illegal with the error as its problem.
SwizzleSearch searchSwizzle(std::int64_t rows, std::int64_t cols, const std::string& dtype,
                            const std::string& writeAccess, const std::string& readAccess,
                            const AccessOptions& writeOpt = {}, const AccessOptions& readOpt = {});

} // namespace ts
