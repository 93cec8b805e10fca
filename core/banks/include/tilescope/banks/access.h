// SPDX-License-Identifier: Apache-2.0
// From a shared-memory Layout, an element type and an access pattern to a bank_model AccessPlan.
//
// The physical byte address of logical cell (row, col, ...) is the layout's output linearized
// row-major over its exact output shape (TileLang's get_linearized_forward_index) times the
// element size. Access patterns (the ACCESS text of `tilescope-cli banks`):
//   fragment:<mapping text>   a T.Fragment over the layout's shape reads (or writes) the tile:
//                             each thread visits its register slots in order; consecutive slots
//                             are grouped into vectors when every thread's addresses are
//                             contiguous and aligned (up to 16 bytes, or forced by `vector`);
//                             one instruction per (warp, vector step), lanes = threads of the warp.
//                             A fragment smaller than the tile reads part of it; one larger, of
//                             another rank or with more than 1024 replicas (a thread block's
//                             threads) is refused before it is evaluated.
//   lanes:lambda t: (r, c)    one instruction: lane t accesses (r, c) (`vector` elements from it)
//   lanes:lambda t, k: (r, c) instructions k = 0..steps-1 (steps given, or inferred: k runs
//                             while every lane's coordinate stays in the domain)
//   ldmatrix:x1|x2|x4[.trans][@row,col]   (and stmatrix:...) on the sub-tile at (row, col):
//                             lane t gives the 16-byte row starting at (row + t % 16,
//                             col + (16 / element bytes) * (t / 16)); x1/x2 use lanes 0-7/0-15.
// Bad input throws InputError naming the lane (thread) and coordinate.
#pragma once

#include "tilescope/banks/bank_model.h"
#include "tilescope/layout/layout.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ts {

// Element size in bytes (1..16) of a dtype name; sub-byte types are refused (InputError).
int dtypeBytes(const std::string& dtype);

// Byte addresses of the cells of a shared tile.
class SharedTile {
public:
    SharedTile(const Layout& layout, const std::string& dtype);
    const Shape& shape() const { return shape_; }
    int elementBytes() const { return bytes_; }
    std::int64_t cells() const { return std::int64_t(addr_.size()); }
    std::int64_t addressOfCell(std::int64_t cell) const { return addr_[std::size_t(cell)]; }
    // Throws InputError "<who> accesses (r, c) outside the layout's domain [R, C]".
    std::int64_t cellOf(const std::vector<std::int64_t>& coord, const std::string& who) const;
    std::int64_t footprintBytes() const { return footprint_; } // prod(output shape) * size
    std::vector<std::int64_t> coordOf(std::int64_t cell) const;
    // Two logical cells at one address: the layout is not injective, so a bank analysis would
    // count one shared-memory element as two. "cells (0, 1) and (1, 0) share byte offset 4".
    std::optional<std::string> aliasing() const;

private:
    Shape shape_;
    int bytes_ = 2;
    std::vector<std::int64_t> addr_;
    std::int64_t footprint_ = 0;
    std::int64_t aliasA_ = -1, aliasB_ = -1; // first two cells sharing an address
};

struct AccessOptions {
    int vector = 0;     // elements per lane access; 0 = widest contiguous (fragment) or 1 (lanes)
    bool store = false; // st / stmatrix instead of ld / ldmatrix
    int steps = 0;      // lanes:lambda t, k: number of k steps (0 = infer)
    int bank_count = 32, bank_width = 4;
};

// Which logical cells each active lane of an instruction touches (for overlays and tests):
// `count` row-major cell indices of SharedAccess::cells from `first` (one pool for the whole
// access: a per-lane inline list made a 128x128 analysis allocate and fault ~600 KB).
struct LaneTouch {
    int lane = 0;
    std::int32_t first = 0; // cells < 2^24 (limits::kMaxCells)
    std::int32_t count = 0;
};

struct SharedAccess {
    AccessPlan plan;
    std::vector<std::vector<LaneTouch>> touches; // [instruction]
    std::vector<std::int32_t> cells;             // every LaneTouch's cells, back to back
    std::vector<int> warp;                       // [instruction] warp index
    int vector_elements = 1;
    std::string kind; // "fragment", "lanes", "ldmatrix", "stmatrix"

    std::span<const std::int32_t> cellsOf(const LaneTouch& t) const {
        return {cells.data() + t.first, std::size_t(t.count)};
    }
    // Appends a touch of `lane` over cells c[0..n) to `touch`.
    template <class Cell>
    void addTouch(std::vector<LaneTouch>& touch, int lane, const Cell* c, int n) {
        touch.push_back({lane, std::int32_t(cells.size()), n});
        for (int e = 0; e < n; ++e)
            cells.push_back(std::int32_t(c[e]));
    }
};

SharedAccess buildAccess(const SharedTile& tile, const std::string& access,
                         const AccessOptions& opt = {});
SharedAccess fragmentAccess(const SharedTile& tile, const Fragment& frag,
                            const AccessOptions& opt = {});
SharedAccess laneMapAccess(const SharedTile& tile, const std::string& lambdaText,
                           const AccessOptions& opt = {});
// spec: "x4", "x2.trans@16,0", ...
SharedAccess matrixAccess(const SharedTile& tile, const std::string& spec, bool store,
                          const AccessOptions& opt = {});

// An access pattern that fits the tile, for a panel that has to show something before the user
// chooses: `ldmatrix:x4` (the mma operand load) when the tile has 16-bit elements and at least
// 16 x 16 of them, `ldmatrix:x1` (eight 16-byte rows: what a swizzle is for) when it has 8 x 8,
// otherwise one element per lane in row-major order (`lanes:...`, wrapping over tiles smaller
// than a warp). `why` receives one line saying which and why.
std::string defaultAccess(const SharedTile& tile, std::string* why = nullptr);

// Per logical cell (row-major): the first instruction touching it (-1: none) and its wavefronts.
struct CellHeat {
    std::vector<int> instruction;
    std::vector<int> wavefronts;
    int max_wavefronts = 0;
};
CellHeat cellHeat(const SharedTile& tile, const SharedAccess& a, const PlanCost& cost);
// The cells of one instruction only (others -1/0).
CellHeat instructionHeat(const SharedTile& tile, const SharedAccess& a, const PlanCost& cost,
                         int instruction);

// JSON for the CLI: plan costs plus per instruction "lanes": [{lane, address, cells:[[r,c]..]}]
// and "label"/"warp".
void toJson(nlohmann::json& j, const SharedTile& tile, const SharedAccess& a, const PlanCost& cost);
// A readable table (one line per instruction, then the totals).
std::string formatAccessTable(const SharedAccess& a, const PlanCost& cost);

} // namespace ts
