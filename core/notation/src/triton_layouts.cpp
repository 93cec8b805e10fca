// SPDX-License-Identifier: Apache-2.0
// Gluon layouts that Triton converts to linear layouts for a tensor shape, built here the way
// Triton's LinearLayoutConversions.cpp builds them (blocked, NVIDIA MMA v2/v3 and their dot
// operands, FMA dot operands, slices, NVMMA and swizzled shared layouts), so their constructor
// text can be pasted directly. Arguments are bound as Gluon's Python dataclasses take them.
#include "gluon_args.h"
#include "interop_value.h"
#include "triton_ll_build.h"

#include <algorithm>
#include <numeric>

namespace ts::interop {

namespace {

using tll::Built;
using Shape64 = std::vector<std::int64_t>;
using Order = std::vector<std::size_t>;

const std::string kReg = "register", kLane = "lane", kWarp = "warp", kBlock = "block",
                  kOffset = "offset";

// Layout parameters (sizes per thread, threads, warps, k_width, swizzle periods) far past any
// GPU's are refused, which also keeps every product of them well inside int64.
constexpr std::int64_t kMaxParam = 4096;

bool pow2(std::int64_t n) {
    return n > 0 && (n & (n - 1)) == 0;
}

void checkParam(Cursor& c, std::size_t column, const std::string& what, std::int64_t v) {
    if (v > kMaxParam)
        c.failAt(column, what + " " + std::to_string(v) + " is too large (at most " +
                             std::to_string(kMaxParam) + ")");
}

// A list of positive powers of two, one per dim.
Shape64 pow2List(Cursor& c, const Value& v, const char* what, std::size_t rank) {
    Shape64 out = asIntList(c, v, what);
    if (out.size() != rank)
        c.failAt(v.column, std::string(what) + " has " + std::to_string(out.size()) +
                               " entries but the layout has rank " + std::to_string(rank));
    for (std::size_t k = 0; k < out.size(); ++k)
        if (!pow2(out[k]))
            c.failAt(v.items[k].column, std::string(what) + " entries must be powers of two, not " +
                                            std::to_string(out[k]));
        else
            checkParam(c, v.items[k].column, what, out[k]);
    return out;
}

Order permutation(Cursor& c, const Value& v, const char* what, std::size_t rank) {
    Shape64 raw = asIntList(c, v, what);
    if (raw.size() != rank)
        c.failAt(v.column, std::string(what) + " has " + std::to_string(raw.size()) +
                               " entries but the layout has rank " + std::to_string(rank));
    Order out;
    for (std::size_t k = 0; k < raw.size(); ++k) {
        if (raw[k] < 0 || raw[k] >= static_cast<std::int64_t>(rank) ||
            std::find(out.begin(), out.end(), static_cast<std::size_t>(raw[k])) != out.end())
            c.failAt(v.items[k].column, std::string(what) + " must list each dim 0.." +
                                            std::to_string(rank - 1) + " once");
        out.push_back(static_cast<std::size_t>(raw[k]));
    }
    return out;
}

// Tilescope shows one CTA, so a CGA layout (bases over several CTAs) is refused here rather
// than dropped.
void noCga(Cursor& c, const GluonArgs& a, const char* key) {
    const Value* v = a.get(key);
    if (v && !(v->kind == Value::List && v->items.empty()) &&
        !(v->kind == Value::Name && v->name == "None"))
        c.failAt(v->column, std::string(key) +
                                " spreads the layout over several CTAs; Tilescope shows one "
                                "thread block (leave it empty)");
}

// getMatrixOrder: the last dim fastest (row major) or the last two swapped.
Order matrixOrder(std::size_t rank, bool rowMajor) {
    Order o(rank);
    std::iota(o.rbegin(), o.rend(), std::size_t{0});
    if (!rowMajor && rank >= 2) std::swap(o[0], o[1]);
    return o;
}

// combineCtaCgaWithShape for a single CTA: fit to the shape, add an empty block dim.
Built fitToShape(Cursor& c, std::size_t column, Built l, const Shape64& shape) {
    l = tll::notSmallerThan(std::move(l), shape);
    l = tll::notLargerThan(std::move(l), shape, false);
    l = l * tll::zeros1D(l.rank, 1, kBlock, 0);
    Order standard(l.rank);
    std::iota(standard.begin(), standard.end(), std::size_t{0});
    l = tll::transposeOuts(std::move(l), standard);
    for (std::size_t o = 0; o < l.rank; ++o)
        if (l.outSize[o] != shape[o])
            c.failAt(column, "the layout does not tile dim " + std::to_string(o) + " (size " +
                                 std::to_string(shape[o]) + ")");
    return l;
}

// nvidiaMmaTile: kWidth registers, 4 lanes along the inner dim, 8 lanes along the outer one,
// then register repeats to fill the tile.
Built mmaTile(Cursor& c, std::size_t column, const Shape64& tile, std::int64_t kWidth,
              const Order& order, const Order& repOrder) {
    const std::size_t rank = repOrder.size();
    Built l = tll::identityND(rank, kReg, Shape64(rank, 1), repOrder);
    const std::size_t inner = order[0], outer = order[1];
    const std::int64_t m = tile[outer], n = tile[inner];
    if (m % 8 != 0 || n % (kWidth * 4) != 0)
        c.failAt(column, "the MMA tile " + std::to_string(m) + "x" + std::to_string(n) +
                             " is not a multiple of 8 x (4 * k_width)");
    return l * tll::identity1D(rank, kWidth, kReg, inner) * tll::identity1D(rank, 4, kLane, inner) *
           tll::identity1D(rank, 8, kLane, outer) * tll::identity1D(rank, m / 8, kReg, outer) *
           tll::identity1D(rank, n / (kWidth * 4), kReg, inner);
}

struct Mma {
    int version = 2;
    Shape64 warps, instr;
    std::size_t column = 0, instrColumn = 0;
};

Mma readMma(Cursor& c, const Value& call) {
    GluonArgs a(c, call, {"version", "warps_per_cta", "instr_shape", "cga_layout"}, 3);
    noCga(c, a, "cga_layout");
    Mma m;
    m.column = call.column;
    const Value& ver = *a.get("version");
    Shape64 v = asIntList(c, ver, "version");
    if (v.empty() || (v[0] != 2 && v[0] != 3))
        c.failAt(ver.column, "Tilescope converts MMA versions [2, 0] (Ampere) and [3, 0] (Hopper)");
    m.version = static_cast<int>(v[0]);
    const Value& w = *a.get("warps_per_cta");
    if (w.kind != Value::List || w.items.size() < 2)
        c.failAt(w.column, "warps_per_cta needs one entry per dim (rank 2 or more)");
    const std::size_t rank = w.items.size();
    m.warps = pow2List(c, w, "warps_per_cta", rank);
    const Value& in = *a.get("instr_shape");
    if (m.version == 3 && rank != 2)
        c.failAt(w.column, "an MMA v3 layout has rank 2 (warps_per_cta=[w0, w1])");
    if (m.version == 3) {
        // Hopper's wgmma has N = 8, 16, 24, ..., 256; Triton's linear-layout conversion of the
        // accumulator asserts on an N that is not a power of two, but its dot operands (which
        // do not use N) convert, so N is checked where the accumulator is built.
        m.instr = asIntList(c, in, "instr_shape");
        if (m.instr.size() != 3)
            c.failAt(in.column, "instr_shape of an MMA v3 layout has 3 entries [M, N, K]");
        for (std::size_t k = 0; k < 3; ++k)
            if (k == 1 ? (m.instr[k] <= 0 || m.instr[k] % 8 != 0 || m.instr[k] > 256)
                       : !pow2(m.instr[k]))
                c.failAt(in.items[k].column,
                         k == 1 ? "instr_shape N of an MMA v3 layout is a multiple of 8 up to 256"
                                : "instr_shape entries must be powers of two, not " +
                                      std::to_string(m.instr[k]));
        m.instrColumn = in.items[1].column;
    } else {
        m.instr = pow2List(c, in, "instr_shape", rank);
    }
    return m;
}

Built mmaLayout(Cursor& c, const Mma& m, const Shape64& shape) {
    const std::size_t rank = m.warps.size();
    Shape64 tile = m.instr;
    if (m.version == 3) tile.resize(2);
    if (!pow2(tile.back()))
        c.failAt(m.instrColumn,
                 "instr_shape N = " + std::to_string(tile.back()) +
                     " is not a power of two: Triton 3.9 has no linear layout for this Hopper "
                     "accumulator (its conversion asserts in LinearLayout::strided1D), so there "
                     "is nothing to show; its dot operands convert");

    const Order order = matrixOrder(rank, true);
    Built l = mmaTile(c, m.column, tile, 2, order, order);
    l = l *
        tll::transposeOuts(tll::identityND(rank, kWarp, m.warps, matrixOrder(rank, m.version != 3)),
                           l.outOrder);
    return fitToShape(c, m.column, std::move(l), shape);
}

Built distributed(Cursor& c, const Value& v, const Shape64& shape, std::size_t depth);

Built blocked(Cursor& c, const Value& call, const Shape64& shape) {
    GluonArgs a(c, call,
                {"size_per_thread", "threads_per_warp", "warps_per_cta", "order", "cga_layout"}, 4);
    noCga(c, a, "cga_layout");
    const Value& spt = *a.get("size_per_thread");
    if (spt.kind != Value::List || spt.items.empty())
        c.failAt(spt.column, "size_per_thread needs one entry per dim");
    const std::size_t rank = spt.items.size();
    if (shape.size() != rank)
        c.failAt(call.column, "the layout has rank " + std::to_string(rank) +
                                  " but the shape has " + std::to_string(shape.size()) + " dims");
    Shape64 s = pow2List(c, spt, "size_per_thread", rank);
    // Triton gives a thread no more registers along a dim than the dim has elements.
    for (std::size_t d = 0; d < rank; ++d)
        s[d] = std::min(s[d], shape[d]);
    Shape64 t = pow2List(c, *a.get("threads_per_warp"), "threads_per_warp", rank);
    Shape64 w = pow2List(c, *a.get("warps_per_cta"), "warps_per_cta", rank);
    Order order = permutation(c, *a.get("order"), "order", rank);
    Built l = tll::identityND(rank, kReg, s, order) * tll::identityND(rank, kLane, t, order) *
              tll::identityND(rank, kWarp, w, order);
    return fitToShape(c, call.column, std::move(l), shape);
}

Built dotOperand(Cursor& c, const Value& call, const Shape64& shape, std::size_t depth) {
    GluonArgs a(c, call, {"operand_index", "parent", "k_width"}, 3);
    const Value& opv = *a.get("operand_index");
    const std::int64_t op = asInt(c, opv, "operand_index");
    if (op != 0 && op != 1) c.failAt(opv.column, "operand_index is 0 (A, the LHS) or 1 (B)");
    const Value& kv = *a.get("k_width");
    const std::int64_t kWidth = asInt(c, kv, "k_width");
    const Value& parent = *a.get("parent");
    if (parent.kind != Value::Call) c.failAt(parent.column, "parent must be a layout");
    const std::size_t rank = shape.size();
    if (rank < 2) c.failAt(call.column, "a dot operand has rank 2 or more");
    const std::size_t kDim = op == 0 ? rank - 1 : rank - 2;
    if (parent.name == "BlockedLayout") {
        if (kWidth != 0)
            c.failAt(kv.column, "k_width must be 0 for a BlockedLayout parent (it is for MMA "
                                "parents)");
        GluonArgs p(c, parent,
                    {"size_per_thread", "threads_per_warp", "warps_per_cta", "order", "cga_layout"},
                    4);
        noCga(c, p, "cga_layout");
        if (p.get("size_per_thread")->kind != Value::List ||
            p.get("size_per_thread")->items.size() != rank)
            c.failAt(parent.column, "the parent's rank differs from the shape's");
        Shape64 s = pow2List(c, *p.get("size_per_thread"), "size_per_thread", rank);
        Shape64 t = pow2List(c, *p.get("threads_per_warp"), "threads_per_warp", rank);
        Shape64 w = pow2List(c, *p.get("warps_per_cta"), "warps_per_cta", rank);
        Order order = permutation(c, *p.get("order"), "order", rank);
        s[kDim] = shape[kDim];
        Built l = tll::transposeOuts(tll::identityND(rank, kReg, s, order), order) *
                  tll::transposeOuts(tll::broadcastND(rank, kLane, t, order, kDim), order) *
                  tll::transposeOuts(tll::broadcastND(rank, kWarp, w, order, kDim), order);
        return fitToShape(c, call.column, std::move(l), shape);
    }
    if (parent.name != "NVMMADistributedLayout")
        c.failAt(parent.column, "Tilescope converts dot operands of NVMMADistributedLayout and "
                                "BlockedLayout parents, not of " +
                                    parent.name);
    (void)depth;
    Mma m = readMma(c, parent);
    if (m.warps.size() != rank)
        c.failAt(parent.column, "the parent's rank differs from the shape's");
    if (kWidth <= 0 || !pow2(kWidth))
        c.failAt(kv.column,
                 "k_width must be a power of two (elements per 32 bits) for an MMA parent");
    checkParam(c, kv.column, "k_width", kWidth);
    if (m.version == 3 && op != 0)
        c.failAt(opv.column,
                 "an MMA v3 (Hopper) dot operand is operand 0: wgmma reads B from shared "
                 "memory");
    Shape64 tile(rank, 1);
    tile[rank - 2] = op == 0 ? 16 : kWidth * 8;
    tile[rank - 1] = op == 0 ? kWidth * 8 : 8;
    const Order order = matrixOrder(rank, op == 0);
    Built l = mmaTile(c, call.column, tile, kWidth, order, order);
    l = l * tll::transposeOuts(
                tll::broadcastND(rank, kWarp, m.warps, matrixOrder(rank, m.version != 3), kDim),
                l.outOrder);
    return fitToShape(c, call.column, std::move(l), shape);
}

// Triton converts the parent for the shape with a 1 at `dim`, drops that dim and the register
// bases left all zero.
Built slice(Cursor& c, const Value& call, const Shape64& shape, std::size_t depth) {
    GluonArgs a(c, call, {"dim", "parent"}, 2);
    const Value& dv = *a.get("dim");
    const std::int64_t dim = asInt(c, dv, "dim");
    if (dim < 0 || dim > static_cast<std::int64_t>(shape.size()))
        c.failAt(dv.column,
                 "dim must name a dim of the parent (0.." + std::to_string(shape.size()) + ")");
    Shape64 parentShape = shape;
    parentShape.insert(parentShape.begin() + dim, 1);
    Built p = distributed(c, *a.get("parent"), parentShape, depth + 1);
    Built r = tll::empty(shape.size());
    r.ins = p.ins;
    const auto d = static_cast<std::size_t>(dim);
    for (std::size_t o = 0; o < shape.size(); ++o) {
        r.outOrder.push_back(o);
        r.outSize[o] = p.outSize[o < d ? o : o + 1];
    }
    for (std::size_t k = 0; k < p.ins.size(); ++k) {
        std::vector<std::vector<std::int64_t>> bs;
        for (std::vector<std::int64_t> b : p.bases[k]) {
            b.erase(b.begin() + dim);
            if (p.ins[k] == kReg && std::all_of(b.begin(), b.end(), [](auto x) { return x == 0; }))
                continue;
            bs.push_back(std::move(b));
        }
        r.bases.push_back(std::move(bs));
    }
    return r;
}

[[noreturn]] void notConverted(Cursor& c, const Value& v) {
    if (v.name == "AutoLayout" || v.name == "CoalescedLayout")
        c.failAt(v.column, v.name +
                               " is not a layout yet: the compiler chooses one later; paste the "
                               "layout it chose");
    c.failAt(v.column, "'" + v.name +
                           "' is not converted by Tilescope (it reads BlockedLayout, "
                           "NVMMADistributedLayout, DotOperandLayout, SliceLayout, "
                           "NVMMASharedLayout, SwizzledSharedLayout)");
}

Built distributed(Cursor& c, const Value& v, const Shape64& shape, std::size_t depth) {
    if (depth > 8) c.failAt(v.column, "layouts nested too deeply");
    if (v.kind != Value::Call)
        c.failAt(v.column, "expected a Gluon layout, e.g. BlockedLayout(...)");
    if (v.name == "BlockedLayout") return blocked(c, v, shape);
    if (v.name == "NVMMADistributedLayout") {
        Mma m = readMma(c, v);
        if (m.warps.size() != shape.size())
            c.failAt(v.column, "the layout has rank " + std::to_string(m.warps.size()) +
                                   " but the shape has " + std::to_string(shape.size()) + " dims");
        return mmaLayout(c, m, shape);
    }
    if (v.name == "DotOperandLayout") return dotOperand(c, v, shape, depth);
    if (v.name == "SliceLayout") return slice(c, v, shape, depth);
    if (v.name == "NVMMASharedLayout" || v.name == "SwizzledSharedLayout")
        c.failAt(v.column, v.name + " is a shared layout, not a distributed one");
    notConverted(c, v);
}

// getCoreMatrixLinearLayout: an 8-row tile of swizzle-width bytes whose rows XOR their 16-byte
// chunks with the row's phase.
Built nvmmaShared(Cursor& c, const Value& call, const Shape64& shape) {
    GluonArgs a(c, call,
                {"swizzle_byte_width", "element_bitwidth", "rank", "transposed", "fp4_padded",
                 "cga_layout"},
                2);
    noCga(c, a, "cga_layout");
    const Value& swv = *a.get("swizzle_byte_width");
    const std::int64_t swizzle = asInt(c, swv, "swizzle_byte_width");
    if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
        c.failAt(swv.column, "swizzle_byte_width is 0, 32, 64 or 128");
    const Value& bv = *a.get("element_bitwidth");
    const std::int64_t bits = asInt(c, bv, "element_bitwidth");
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        c.failAt(bv.column, "element_bitwidth is 8, 16, 32 or 64");
    std::int64_t rank = 2;
    if (const Value* rv = a.get("rank")) {
        rank = asInt(c, *rv, "rank");
        if (rank != static_cast<std::int64_t>(shape.size()))
            c.failAt(rv->column, "rank=" + std::to_string(rank) + " but the shape has " +
                                     std::to_string(shape.size()) + " dims");
    } else if (shape.size() != 2) {
        c.failAt(call.column, "the layout has rank 2 (the default) but the shape has " +
                                  std::to_string(shape.size()) + " dims");
    }
    const bool transposed = a.get("transposed") && asBool(c, *a.get("transposed"), "transposed");
    if (a.get("fp4_padded") && asBool(c, *a.get("fp4_padded"), "fp4_padded"))
        c.failAt(a.get("fp4_padded")->column,
                 "fp4_padded maps two offsets to each element; Tilescope shows a shared layout as "
                 "a one-to-one map");
    const std::size_t r = shape.size();
    // getTMABlockShape: every dim at most 256, the contiguous one exactly the swizzle width.
    Shape64 tma = shape;
    for (auto& s : tma)
        s = std::min<std::int64_t>(s, 256);
    const std::size_t contig = transposed ? 0 : r - 1;
    if (swizzle != 0) {
        const std::int64_t width = 8 * swizzle / bits;
        if (tma[contig] < width)
            c.failAt(call.column, "dim " + std::to_string(contig) + " (size " +
                                      std::to_string(shape[contig]) + ") is narrower than the " +
                                      std::to_string(swizzle) + "-byte swizzle (" +
                                      std::to_string(width) + " elements)");
        tma[contig] = width;
    }
    Order standard(r);
    std::iota(standard.begin(), standard.end(), std::size_t{0});
    if (swizzle == 0) {
        // Row major over the box; a transposed one (dim 0 contiguous) is built on the box
        // rotated left and its dims moved back, as Triton 3.9 does: its goldens pin the order.
        Shape64 box = tma;
        if (transposed) std::rotate(box.begin(), box.begin() + 1, box.end());
        Built l = tll::identity1D(r, box[r - 1], kOffset, r - 1);
        for (std::size_t i = r - 1; i-- > 0;)
            l = l * tll::identity1D(r, box[i], kOffset, i);
        l = tll::transposeOuts(std::move(l), standard);
        if (transposed) {
            Order back;
            for (std::size_t i = 1; i <= r; ++i)
                back.push_back(i % r);
            l = tll::permuteDims(l, back);
        }
        return fitToShape(c, call.column, tll::notSmallerThan(std::move(l), shape), shape);
    }
    if (r < 2) c.failAt(call.column, "a swizzled NVMMASharedLayout has rank 2 or more");
    Shape64 collapsed = {1, tma.back()};
    for (std::size_t i = 0; i + 1 < r; ++i)
        collapsed[0] *= tma[i];
    if (transposed) std::swap(collapsed[0], collapsed[1]);
    const std::int64_t vec = 128 / bits, perPhase = 128 / swizzle, maxPhase = swizzle / 16;
    const std::int64_t tileRows = 8, tileCols = 8 * std::max<std::int64_t>(16, swizzle) / bits;
    if (collapsed[1] < tileCols || collapsed[0] < tileRows)
        c.failAt(call.column, "the shape is smaller than one " + std::to_string(tileRows) + "x" +
                                  std::to_string(tileCols) + " swizzle tile");
    Built tile = tll::empty(2);
    tile.ins = {kOffset};
    tile.bases.resize(1);
    for (std::int64_t col = 1; col < tileCols; col *= 2)
        tile.bases[0].push_back({0, col});
    for (std::int64_t row = 1; row < tileRows; row *= 2)
        tile.bases[0].push_back({row, vec * ((row / perPhase) % maxPhase)});
    tile.outOrder = {0, 1};
    tile.outSize = {tileRows, tileCols};
    Built l = tll::notSmallerThan(std::move(tile), collapsed);
    Shape64 target = tma;
    if (transposed) std::rotate(target.begin(), target.begin() + 1, target.end());
    l = tll::reshape(l, target);
    if (transposed) {
        Order order = {r - 1};
        for (std::size_t i = 0; i + 1 < r; ++i)
            order.push_back(i);
        l = tll::permuteDims(l, order);
    }
    return fitToShape(c, call.column, tll::notSmallerThan(std::move(l), shape), shape);
}

// swizzledSharedToLinearLayout: the column of each row XORed with vec * its phase.
Built swizzledShared(Cursor& c, const Value& call, const Shape64& shape) {
    GluonArgs a(c, call, {"vec", "per_phase", "max_phase", "order", "cga_layout"}, 4);
    noCga(c, a, "cga_layout");
    const std::size_t r = shape.size();
    std::int64_t p[3];
    const char* names[3] = {"vec", "per_phase", "max_phase"};
    for (int k = 0; k < 3; ++k) {
        const Value& v = *a.get(names[k]);
        p[k] = asInt(c, v, names[k]);
        if (!pow2(p[k]))
            c.failAt(v.column, std::string(names[k]) +
                                   " must be a power of two (the swizzle is then linear over F2)");
        checkParam(c, v.column, names[k], p[k]);
    }
    Order order = permutation(c, *a.get("order"), "order", r);
    if (r == 1) return fitToShape(c, call.column, tll::identity1D(1, shape[0], kOffset, 0), shape);
    const std::size_t colDim = order[0], rowDim = order[1];
    const std::int64_t cols = shape[colDim], rows = shape[rowDim];
    Built l = tll::empty(r);
    l.ins = {kOffset};
    l.bases.resize(1);
    for (std::int64_t col = 1; col < cols; col *= 2) {
        std::vector<std::int64_t> b(r, 0);
        b[colDim] = col;
        l.bases[0].push_back(b);
    }
    for (std::int64_t row = 1; row < rows; row *= 2) {
        std::vector<std::int64_t> b(r, 0);
        b[rowDim] = row;
        b[colDim] = (p[0] * ((row / p[1]) % p[2])) % cols;
        l.bases[0].push_back(b);
    }
    l.outOrder = {rowDim, colDim};
    l.outSize[rowDim] = rows;
    l.outSize[colDim] = cols;
    for (std::size_t i = 2; i < r; ++i)
        l = l * tll::identity1D(r, shape[order[i]], kOffset, order[i]);
    return fitToShape(c, call.column, std::move(l), shape);
}

} // namespace

namespace {

// to_linear_layout of a layout that is already linear: Triton fits a distributed one to the
// shape as it fits its own conversions (registers repeat up to the shape, coordinates past
// it wrap), and asserts unless a shared one has exactly the shape its bases span.
linear::LinearLayout linearToShape(Cursor& c, const Value& call, const Shape64& shape,
                                   std::size_t shapeColumn) {
    linear::LinearLayout l = linearLayoutCall(c, call);
    if (l.outSizes.size() != shape.size())
        c.failAt(shapeColumn, "the layout has rank " + std::to_string(l.outSizes.size()) +
                                  " but the shape has " + std::to_string(shape.size()) + " dims");
    const bool shared = call.name == "SharedLinearLayout";
    if (shared) {
        if (l.outSizes != shape)
            c.failAt(shapeColumn, "the SharedLinearLayout's bases span a different shape than "
                                  "this one; Triton 3.9 asserts on that (SharedLinearEncodingAttr"
                                  "::toLinearLayout: size == llSize)");
        return l;
    }
    // Triton 3.9 makes a LinearEncodingAttr of it, whose verifier (or its order inference)
    // aborts unless the non-zero bases are distinct single bits: broadcast is a zero basis.
    std::vector<std::vector<std::int64_t>> seen;
    for (const linear::InDim& d : l.ins)
        for (const auto& basis : d.bases) {
            int dims = 0;
            bool single = true;
            for (std::int64_t x : basis) {
                dims += x != 0;
                single = single && (x & (x - 1)) == 0;
            }
            if (dims == 0) continue;
            if (dims > 1 || !single || std::find(seen.begin(), seen.end(), basis) != seen.end())
                c.failAt(call.column,
                         "Triton 3.9 converts a DistributedLinearLayout only when its non-zero "
                         "bases are distinct single bits (LinearEncodingAttr requires a "
                         "permutation matrix after removing broadcast bases; it aborts on this "
                         "one's '" +
                             d.name + "' bases)");
            seen.push_back(basis);
        }
    Built b = tll::empty(shape.size());
    for (const linear::InDim& d : l.ins) {
        b.ins.push_back(d.name);
        b.bases.push_back(d.bases);
    }
    // Triton repeats registers along the last dim first (its goldens pin this order).
    for (std::size_t o = shape.size(); o-- > 0;) {
        b.outOrder.push_back(o);
        b.outSize[o] = l.outSizes[o];
    }
    // As fitToShape, but a register basis past the shape is dropped (Triton's goldens).
    b = tll::notSmallerThan(std::move(b), shape);
    b = tll::notLargerThan(std::move(b), shape, true);
    Order standard(b.rank);
    std::iota(standard.begin(), standard.end(), std::size_t{0});
    return tll::finish(tll::transposeOuts(std::move(b), standard));
}

} // namespace

linear::LinearLayout gluonLayout(Cursor& c, const Value& call,
                                 const std::vector<std::int64_t>& shape, std::size_t shapeColumn) {
    if (shape.empty() || shape.size() > 8) c.failAt(shapeColumn, "the shape needs 1 to 8 dims");
    for (std::int64_t s : shape)
        if (!pow2(s))
            c.failAt(shapeColumn, "shape dims must be powers of two (Triton's layouts tile only "
                                  "those), not " +
                                      std::to_string(s));
    if (call.kind == Value::Call &&
        (call.name == "DistributedLinearLayout" || call.name == "SharedLinearLayout"))
        return linearToShape(c, call, shape, shapeColumn);
    if (call.kind == Value::Call && call.name == "NVMMASharedLayout")
        return tll::finish(nvmmaShared(c, call, shape));
    if (call.kind == Value::Call && call.name == "SwizzledSharedLayout")
        return tll::finish(swizzledShared(c, call, shape));
    return tll::finish(distributed(c, call, shape, 0));
}

} // namespace ts::interop

namespace ts::interop {

bool isGluonLayoutName(std::string_view name) {
    for (std::string_view n :
         {"BlockedLayout", "NVMMADistributedLayout", "DotOperandLayout", "SliceLayout",
          "NVMMASharedLayout", "SwizzledSharedLayout", "AutoLayout", "CoalescedLayout",
          "PaddedSharedLayout", "AMDMFMALayout", "AMDWMMALayout"})
        if (name == n) return true;
    return false;
}

} // namespace ts::interop
