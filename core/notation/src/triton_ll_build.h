// SPDX-License-Identifier: Apache-2.0
// The few operations of Triton's LinearLayout class that its layout conversions are written in
// (identity1D, zeros1D, operator*, transposeOuts, the shape fitting of LayoutUtils), on a form
// that keeps what the result depends on: the order of the output dims (a product extends a
// dim's size, and "not smaller than" adds registers dim by dim in that order) and the order of
// the input dims. triton_layouts.cpp builds Gluon's layouts from them.
#pragma once

#include "tilescope/notation/linear_layout.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::interop::tll {

// Output dims are numbered 0..rank-1 (Triton's dim0, dim1, ...); every basis has `rank`
// coordinates, 0 on dims the layout does not have yet.
struct Built {
    std::size_t rank = 0;
    std::vector<std::string> ins;                              // input dims, in order
    std::vector<std::vector<std::vector<std::int64_t>>> bases; // per input dim
    std::vector<std::size_t> outOrder;                         // output dims present, in order
    std::vector<std::int64_t> outSize;                         // per dim; 1 when absent

    std::vector<std::vector<std::int64_t>>* find(const std::string& in);
    const std::vector<std::vector<std::int64_t>>* find(const std::string& in) const;
};

Built empty(std::size_t rank);
// `size` (a power of two) inputs of `in` onto dim `out` one to one, or all onto 0.
Built identity1D(std::size_t rank, std::int64_t size, const std::string& in, std::size_t out);
Built zeros1D(std::size_t rank, std::int64_t size, const std::string& in, std::size_t out);
// Triton's `inner * outer`: outer's bases follow inner's, scaled past inner's extent.
Built operator*(const Built& inner, const Built& outer);
// The output dims in this order (a permutation of those present).
Built transposeOuts(Built l, const std::vector<std::size_t>& order);
// identityStandardND: one identity per dim, order[0] (the fastest) first.
Built identityND(std::size_t rank, const std::string& in, const std::vector<std::int64_t>& shape,
                 const std::vector<std::size_t>& order);
// Like identityND, but the inputs along dim `kDim` are broadcast (all map to 0).
Built broadcastND(std::size_t rank, const std::string& in, const std::vector<std::int64_t>& shape,
                  const std::vector<std::size_t>& order, std::size_t kDim);
// Grows each dim smaller than shape by repeating the first input dim (registers or offsets),
// dim by dim in output order.
Built notSmallerThan(Built l, const std::vector<std::int64_t>& shape);
// Clears every basis coordinate that reaches past shape (the elements wrap onto others); with
// dropRegisters, a register basis that reaches past it is removed instead (a thread holds each
// element once), as Triton does when it fits a distributed layout to a shape.
Built notLargerThan(Built l, const std::vector<std::int64_t>& shape, bool dropRegisters);
// LayoutUtils' reshapeLayout: the outputs read row-major in output order, split row-major into
// `shape`, dims in standard order.
Built reshape(const Built& l, const std::vector<std::int64_t>& shape);
// LayoutUtils' transposeLinearLayout: new dim i is old dim order[i].
Built permuteDims(const Built& l, const std::vector<std::size_t>& order);

// The result, dims in standard order and named dim0, dim1, ...; in dims in Triton's order.
linear::LinearLayout finish(const Built& l);

} // namespace ts::interop::tll
