// SPDX-License-Identifier: Apache-2.0
// Layout + dtype + access pattern -> bank_model AccessPlan (see access.h).
#include "tilescope/banks/access.h"

#include "tilescope/lang/expr.h"
#include "tilescope/layout/builtins.h"
#include "tilescope/notation/mapping.h"
#include "tilescope/support/errors.h"
#include "tilescope/support/wording.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ts {

namespace {

std::string trim(std::string s) {
    auto ws = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && ws(s.back()))
        s.pop_back();
    std::size_t b = 0;
    while (b < s.size() && ws(s[b]))
        ++b;
    return s.substr(b);
}

// Splits at top-level commas (outside (), [], {}).
std::vector<std::string> splitTopLevel(const std::string& s) {
    std::vector<std::string> out;
    int depth = 0;
    std::string cur;
    for (char c : s) {
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(trim(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
    return out;
}

bool isPow2(int v) {
    return v > 0 && (v & (v - 1)) == 0;
}

std::string coordText(const std::vector<std::int64_t>& c) {
    std::string s = "(";
    for (std::size_t k = 0; k < c.size(); ++k)
        s += (k ? ", " : "") + std::to_string(c[k]);
    return s + ")";
}

// Threads of one CUDA thread block: a fragment's replicas of a cell are that many threads at most.
constexpr std::int64_t kMaxBlockThreads = 1024;
// Instructions of a lane map (`lambda t, k`).
constexpr std::int64_t kMaxSteps = 4096;

void checkVectorBytes(int vector, int bytes) {
    const int vb = vector * bytes;
    if (vector < 1 || !isPow2(vb) || vb > 16)
        throw InputError("vector width " + std::to_string(vector) + " x " + std::to_string(bytes) +
                         " B = " + std::to_string(vb) +
                         " B is not a legal access size (1, 2, 4, 8 or 16 bytes)");
}

} // namespace

int dtypeBytes(const std::string& dtype) {
    const int bits = dtypeBits(dtype);
    if (bits % 8 != 0)
        throw InputError("dtype \"" + dtype + "\" is " + std::to_string(bits) +
                         "-bit: the bank model needs whole-byte elements");
    return bits / 8;
}

// ---- SharedTile ----

SharedTile::SharedTile(const Layout& layout, const std::string& dtype)
    : shape_(layout.inputShape()), bytes_(dtypeBytes(dtype)) {
    LayoutTable t = layout.evaluate();
    const std::int64_t n = t.cells();
    addr_.resize(std::size_t(n));
    const std::size_t r = t.outRank;
    std::int64_t words = 1;
    for (std::int64_t e : t.outputShape)
        words *= e;
    footprint_ = words * bytes_;
    // Row-major linearization as a dot product with fixed strides (vectorizes for ranks 1-3).
    std::vector<std::int64_t> stride(r, bytes_);
    for (std::size_t k = r; k-- > 1;)
        stride[k - 1] = stride[k] * t.outputShape[k];
    auto linearize = [&]<std::size_t R>(std::integral_constant<std::size_t, R>) {
        for (std::int64_t c = 0; c < n; ++c) {
            std::int64_t a = 0;
            for (std::size_t k = 0; k < R; ++k)
                a += t.out[std::size_t(c) * R + k] * stride[k];
            addr_[std::size_t(c)] = a;
        }
    };
    if (r == 1)
        linearize(std::integral_constant<std::size_t, 1>{});
    else if (r == 2)
        linearize(std::integral_constant<std::size_t, 2>{});
    else if (r == 3)
        linearize(std::integral_constant<std::size_t, 3>{});
    else
        for (std::int64_t c = 0; c < n; ++c) {
            std::int64_t a = 0;
            for (std::size_t k = 0; k < r; ++k)
                a += t.out[std::size_t(c) * r + k] * stride[k];
            addr_[std::size_t(c)] = a;
        }
    // First aliasing pair in row-major order of the second cell.
    std::vector<std::int64_t> seen(std::size_t(std::max<std::int64_t>(words, 1)), -1);
    for (std::int64_t c = 0; c < n; ++c) {
        const std::int64_t w = addr_[std::size_t(c)] / bytes_;
        if (w < 0 || w >= words) continue;
        if (seen[std::size_t(w)] >= 0) {
            aliasA_ = seen[std::size_t(w)];
            aliasB_ = c;
            break;
        }
        seen[std::size_t(w)] = c;
    }
}

std::optional<std::string> SharedTile::aliasing() const {
    if (aliasA_ < 0) return std::nullopt;
    return "the shared layout is not injective: cells " + formatCell(coordOf(aliasA_)) + " and " +
           formatCell(coordOf(aliasB_)) + " share byte offset " +
           std::to_string(addr_[std::size_t(aliasA_)]);
}

std::int64_t SharedTile::cellOf(const std::vector<std::int64_t>& coord,
                                const std::string& who) const {
    if (coord.size() != shape_.size())
        throw InputError(who + " gives " + countNoun(long(coord.size()), "coordinate") + " " +
                         coordText(coord) + " but the layout has rank " +
                         std::to_string(shape_.size()) + " " + formatShape(shape_));
    std::int64_t cell = 0;
    for (std::size_t k = 0; k < coord.size(); ++k) {
        if (coord[k] < 0 || coord[k] >= shape_[k])
            throw InputError(who + " accesses " + coordText(coord) +
                             " outside the layout's domain " + formatShape(shape_));
        cell = cell * shape_[k] + coord[k];
    }
    return cell;
}

std::vector<std::int64_t> SharedTile::coordOf(std::int64_t cell) const {
    std::vector<std::int64_t> c(shape_.size());
    for (std::size_t k = shape_.size(); k-- > 0;) {
        c[k] = cell % shape_[k];
        cell /= shape_[k];
    }
    return c;
}

// ---- fragment ----

SharedAccess fragmentAccess(const SharedTile& tile, const Fragment& frag,
                            const AccessOptions& opt) {
    // Both checks come before the evaluation, whose cost is cells x replicas thread values: a
    // fragment larger than the tile was refused at its first cell outside only after every cell
    // of it was evaluated, and a 65535-fold replication of a 32x32 tile evaluated 2^26 threads;
    // each ran over libFuzzer's 25 s in the instrumented build (fuzz-regressions/banks).
    const Shape& fs = frag.inputShape();
    if (fs.size() != tile.shape().size())
        throw InputError("the fragment's shape " + formatShape(fs) + " has rank " +
                         std::to_string(fs.size()) + " but the layout has rank " +
                         std::to_string(tile.shape().size()) + " " + formatShape(tile.shape()));
    // A fragment smaller than the tile is a partial access; a larger one reaches outside, first
    // (row-major) at the innermost dimension that is too long.
    for (std::size_t k = fs.size(); k-- > 0;)
        if (fs[k] > tile.shape()[k]) {
            std::vector<std::int64_t> outside(fs.size(), 0);
            outside[k] = tile.shape()[k];
            throw InputError("the fragment " + formatShape(fs) + " accesses " + coordText(outside) +
                             " outside the layout's domain " + formatShape(tile.shape()));
        }
    // The replicas of a cell are held by different threads of one thread block, which has at
    // most 1024 threads (CUDA's limit): a larger replication describes no kernel.
    if (frag.replicate() > kMaxBlockThreads)
        throw InputError("the fragment has " + std::to_string(frag.replicate()) +
                         " replicas of each cell, more than the " +
                         std::to_string(kMaxBlockThreads) +
                         " threads of a thread block that would hold them");
    FragmentTable ft = frag.evaluate();
    std::int64_t L = 1;
    for (std::int64_t e : ft.localShape)
        L *= e;
    const std::int64_t T = ft.threadExtent;
    if (T <= 0 || L <= 0) throw InputError("the fragment holds no elements");
    if (T * L > (std::int64_t{1} << 26))
        throw InputError("fragment too large for the bank model (threads x slots > 2^26)");
    std::vector<std::int32_t> slotCell(std::size_t(T * L), -1); // cells < 2^24
    const std::int64_t n = ft.cells();
    const bool sameShape = ft.inputShape == tile.shape();
    std::vector<std::int64_t> coord(ft.inputShape.size());
    auto clash = [&](std::int64_t t, std::int64_t slot, std::int64_t held, std::int64_t cell) {
        return InputError("thread " + std::to_string(t) + " slot " + std::to_string(slot) +
                          " holds both " + coordText(tile.coordOf(held)) + " and " +
                          coordText(tile.coordOf(cell)));
    };
    // The common case (one local index, no replicas, the tile's own shape) in a tight loop.
    const bool simple = sameShape && ft.localRank == 1 && ft.replicate == 1;
    for (std::int64_t c = 0; simple && c < n; ++c) {
        const std::int64_t t = ft.threads[std::size_t(c)];
        std::int32_t& dst = slotCell[std::size_t(t * L + ft.local[std::size_t(c)])];
        if (dst >= 0 && dst != c) [[unlikely]]
            throw clash(t, ft.local[std::size_t(c)], dst, c);
        dst = std::int32_t(c);
    }
    for (std::int64_t c = 0; !simple && c < n; ++c) {
        std::int64_t slot = 0;
        for (std::size_t k = 0; k < ft.localRank; ++k)
            slot = slot * ft.localShape[k] + ft.local[std::size_t(c) * ft.localRank + k];
        std::int64_t cell = c;
        if (!sameShape) {
            std::int64_t rest = c;
            for (std::size_t k = coord.size(); k-- > 0;) {
                coord[k] = rest % ft.inputShape[k];
                rest /= ft.inputShape[k];
            }
        }
        for (std::int64_t r = 0; r < ft.replicate; ++r) {
            const std::int64_t t = ft.threads[std::size_t(c * ft.replicate + r)];
            if (!sameShape)
                cell = tile.cellOf(coord, "thread " + std::to_string(t) + " (slot " +
                                              std::to_string(slot) + ")");
            std::int32_t& dst = slotCell[std::size_t(t * L + slot)];
            if (dst >= 0 && dst != cell) throw clash(t, slot, dst, cell);
            dst = std::int32_t(cell);
        }
    }
    const int bytes = tile.elementBytes();
    // A group of v slots is usable when, for every thread, it is empty or full, contiguous and
    // aligned to v * bytes. Returns an error text naming thread, slot and coordinate, or "".
    auto check = [&](int v) -> std::string {
        if (L % v != 0)
            return "vector width " + std::to_string(v) + " does not divide the " +
                   std::to_string(L) + " register slots per thread";
        for (std::int64_t t = 0; t < T; ++t)
            for (std::int64_t g = 0; g < L; g += v) {
                const std::int32_t* s = &slotCell[std::size_t(t * L + g)];
                int present = 0;
                for (int e = 0; e < v; ++e)
                    present += s[e] >= 0;
                if (present == 0) continue;
                auto where = [&](int e) {
                    return "thread " + std::to_string(t) + " slot " + std::to_string(g + e) +
                           (s[e] >= 0 ? " " + coordText(tile.coordOf(s[e])) : "");
                };
                if (present != v) return where(0) + ": vector group has empty slots";
                const std::int64_t a0 = tile.addressOfCell(s[0]);
                if (a0 % (std::int64_t(v) * bytes) != 0)
                    return where(0) + ": address " + std::to_string(a0) + " is not aligned to " +
                           std::to_string(v * bytes) + " bytes";
                for (int e = 1; e < v; ++e)
                    if (tile.addressOfCell(s[e]) != a0 + std::int64_t(e) * bytes)
                        return where(e) + ": not contiguous with slot " + std::to_string(g) +
                               " (address " + std::to_string(tile.addressOfCell(s[e])) +
                               ", expected " + std::to_string(a0 + e * bytes) + ")";
            }
        return {};
    };
    int v = opt.vector;
    if (v > 0) {
        checkVectorBytes(v, bytes);
        std::string err = check(v);
        if (!err.empty()) throw InputError(err);
    } else {
        v = 16 / bytes;
        while (v > 1 && !check(v).empty())
            v /= 2;
        if (v < 1) v = 1;
    }
    SharedAccess out;
    out.kind = "fragment";
    out.vector_elements = v;
    out.plan.bank_count = opt.bank_count;
    out.plan.bank_width = opt.bank_width;
    const std::int64_t warps = (T + kWarpSize - 1) / kWarpSize;
    out.plan.instructions.reserve(std::size_t(warps * ((L + v - 1) / v)));
    out.cells.reserve(std::size_t(n * ft.replicate));
    out.touches.reserve(out.plan.instructions.capacity());
    for (std::int64_t w = 0; w < warps; ++w)
        for (std::int64_t g = 0; g < L; g += v) {
            Instruction ins;
            ins.op = opt.store ? SharedOp::Store : SharedOp::Load;
            ins.bytes_per_lane = v * bytes;
            const int active = int(std::min<std::int64_t>(kWarpSize, T - w * kWarpSize));
            std::vector<LaneTouch> touch;
            touch.reserve(std::size_t(active));
            ins.lanes.reserve(std::size_t(active));
            for (int lane = 0; lane < active; ++lane) {
                const std::int64_t t = w * kWarpSize + lane;
                const std::int32_t* s = &slotCell[std::size_t(t * L + g)];
                if (s[0] < 0) continue;
                ins.lanes.push_back({lane, tile.addressOfCell(s[0]), true});
                out.addTouch(touch, lane, s, v);
            }
            if (ins.lanes.empty()) continue;
            ins.label = "warp " + std::to_string(w) + " slots " + std::to_string(g) +
                        (v > 1 ? "-" + std::to_string(g + v - 1) : "");
            out.plan.instructions.push_back(std::move(ins));
            out.touches.push_back(std::move(touch));
            out.warp.push_back(int(w));
        }
    return out;
}

// ---- lanes:lambda ----

SharedAccess laneMapAccess(const SharedTile& tile, const std::string& lambdaText,
                           const AccessOptions& opt) {
    std::string text = trim(lambdaText);
    if (text.rfind("lambda", 0) != 0)
        throw InputError(
            "a lane map is `lambda t: (row, col)` or `lambda t, k: (row, col)`, got '" + text +
            "'");
    // Read as Python reads it: `(t * 3,)` is a 1-tuple, `(t, 0)` a pair, `t if t < 16 else 0`
    // a conditional (on plain values only, as in Python).
    LambdaExprs lam;
    try {
        lam = parseLambda(text);
    } catch (const ParseError& e) {
        throw ParseError("lane map: " + e.message(), e.source(), e.column());
    }
    const std::vector<std::string>& params = lam.params;
    if (params.empty() || params.size() > 2)
        throw InputError("lane map takes 1 parameter (t) or 2 (t, k), got " +
                         std::to_string(params.size()) + " in '" + text + "'");
    const std::vector<Expr>& exprs = lam.outputs;
    if (exprs.size() != tile.shape().size())
        throw InputError("lane map returns " + countNoun(long(exprs.size()), "coordinate") +
                         " but the layout has rank " + std::to_string(tile.shape().size()) + " " +
                         formatShape(tile.shape()));
    const bool seq = params.size() == 2;
    const int bytes = tile.elementBytes();
    const int v = opt.vector > 0 ? opt.vector : 1;
    checkVectorBytes(v, bytes);

    auto coordAt = [&](int t, std::int64_t k) {
        std::vector<std::int64_t> c;
        for (const Expr& e : exprs)
            c.push_back(evaluatePoint(
                e, [&](const std::string& n) -> std::int64_t { return n == params[0] ? t : k; }));
        return c;
    };
    auto inDomain = [&](const std::vector<std::int64_t>& c) {
        for (std::size_t d = 0; d < c.size(); ++d)
            if (c[d] < 0 || c[d] + (d + 1 == c.size() ? v - 1 : 0) >= tile.shape()[d]) return false;
        return true;
    };
    std::int64_t steps = seq ? opt.steps : 1;
    if (seq && steps <= 0) {
        steps = 0;
        // More than kMaxSteps is refused below, so the search stops one step past it rather than
        // at the tile's cell count (2^24 steps of 32 lanes for the largest tile).
        const std::int64_t cap = std::min<std::int64_t>(tile.cells(), kMaxSteps + 1);
        while (steps < cap) {
            bool all = true;
            for (int t = 0; t < kWarpSize && all; ++t)
                all = inDomain(coordAt(t, steps));
            if (!all) break;
            ++steps;
        }
        if (steps == 0)
            throw InputError("lane map: step k = 0 already leaves the domain " +
                             formatShape(tile.shape()) + " (lane 0 at " + coordText(coordAt(0, 0)) +
                             ")");
    }
    if (steps > kMaxSteps)
        throw InputError("lane map: at most " + std::to_string(kMaxSteps) + " steps");
    SharedAccess out;
    out.kind = "lanes";
    out.vector_elements = v;
    out.plan.bank_count = opt.bank_count;
    out.plan.bank_width = opt.bank_width;
    for (std::int64_t k = 0; k < steps; ++k) {
        Instruction ins;
        ins.op = opt.store ? SharedOp::Store : SharedOp::Load;
        ins.bytes_per_lane = v * bytes;
        std::vector<LaneTouch> touch;
        for (int t = 0; t < kWarpSize; ++t) {
            std::vector<std::int64_t> c = coordAt(t, k);
            const std::string who =
                "lane " + std::to_string(t) + (seq ? " step " + std::to_string(k) : "");
            const std::int64_t cell = tile.cellOf(c, who);
            std::int64_t vec[16] = {cell}; // v <= 16 (checkVectorBytes)
            const std::int64_t a0 = tile.addressOfCell(cell);
            if (v > 1) {
                if (c.back() + v > tile.shape().back())
                    throw InputError(who + ": a vector of " + std::to_string(v) + " elements at " +
                                     coordText(c) + " crosses the end of the row (" +
                                     std::to_string(tile.shape().back()) + " columns)");
                if (a0 % (std::int64_t(v) * bytes) != 0)
                    throw InputError(who + ": vector of " + std::to_string(v * bytes) +
                                     " bytes at " + coordText(c) + " is misaligned (address " +
                                     std::to_string(a0) + ")");
                for (int e = 1; e < v; ++e) {
                    const std::int64_t ce = cell + e;
                    if (tile.addressOfCell(ce) != a0 + std::int64_t(e) * bytes) {
                        std::vector<std::int64_t> cc = c;
                        cc.back() += e;
                        throw InputError(who + ": vector at " + coordText(c) +
                                         " is not contiguous in the layout: " + coordText(cc) +
                                         " is at byte " + std::to_string(tile.addressOfCell(ce)) +
                                         ", expected " + std::to_string(a0 + e * bytes));
                    }
                    vec[e] = ce;
                }
            }
            ins.lanes.push_back({t, a0, true});
            out.addTouch(touch, t, vec, v);
        }
        ins.label = seq ? "k = " + std::to_string(k) : "lanes";
        out.plan.instructions.push_back(std::move(ins));
        out.touches.push_back(std::move(touch));
        out.warp.push_back(0);
    }
    return out;
}

// ---- ldmatrix / stmatrix ----

SharedAccess matrixAccess(const SharedTile& tile, const std::string& specIn, bool store,
                          const AccessOptions& opt) {
    std::string spec = trim(specIn);
    std::int64_t r0 = 0, c0 = 0;
    const std::size_t at = spec.find('@');
    if (at != std::string::npos) {
        std::vector<std::string> rc = splitTopLevel(spec.substr(at + 1));
        try {
            if (rc.size() != 2) throw 0;
            std::size_t p1 = 0, p2 = 0;
            r0 = std::stoll(rc[0], &p1);
            c0 = std::stoll(rc[1], &p2);
            if (p1 != rc[0].size() || p2 != rc[1].size()) throw 0;
        } catch (...) {
            throw InputError("matrix origin must be @row,col, got '" + spec.substr(at) + "'");
        }
        spec = trim(spec.substr(0, at));
    }
    bool trans = false;
    if (spec.size() > 6 && spec.substr(spec.size() - 6) == ".trans") {
        trans = true;
        spec = spec.substr(0, spec.size() - 6);
    }
    int m = 0;
    if (spec == "x1") m = 1;
    if (spec == "x2") m = 2;
    if (spec == "x4") m = 4;
    if (!m)
        throw InputError("matrix access is x1, x2 or x4 [.trans][@row,col], got '" + specIn + "'");
    if (tile.shape().size() != 2)
        throw InputError("ldmatrix/stmatrix need a 2-D layout, got " + formatShape(tile.shape()));
    const int bytes = tile.elementBytes();
    const int epr = 16 / bytes; // elements per 16-byte row
    std::vector<std::int64_t> addrs(kWarpSize, 0);
    std::vector<LaneTouch> touch;
    SharedAccess out;
    const char* name = store ? "stmatrix" : "ldmatrix";
    for (int t = 0; t < 8 * m; ++t) {
        const std::vector<std::int64_t> c{r0 + t % 16, c0 + std::int64_t(epr) * (t / 16)};
        const std::string who = std::string(name) + " lane " + std::to_string(t);
        const std::int64_t cell = tile.cellOf(c, who);
        if (c[1] + epr > tile.shape()[1])
            throw InputError(who + ": the 16-byte row at " + coordText(c) +
                             " crosses the end of the row (" + std::to_string(tile.shape()[1]) +
                             " columns)");
        const std::int64_t a0 = tile.addressOfCell(cell);
        if (a0 % 16 != 0)
            throw InputError(who + ": the 16-byte row at " + coordText(c) +
                             " is misaligned (address " + std::to_string(a0) + ")");
        std::int64_t row[16];
        for (int e = 0; e < epr; ++e) {
            if (tile.addressOfCell(cell + e) != a0 + std::int64_t(e) * bytes)
                throw InputError(who + ": the 16-byte row at " + coordText(c) +
                                 " is not contiguous in the layout (column " +
                                 std::to_string(c[1] + e) + ")");
            row[e] = cell + e;
        }
        addrs[std::size_t(t)] = a0;
        out.addTouch(touch, t, row, epr);
    }
    out.kind = name;
    out.vector_elements = epr;
    out.plan.bank_count = opt.bank_count;
    out.plan.bank_width = opt.bank_width;
    Instruction ins =
        matrixInstruction(store ? SharedOp::StMatrix : SharedOp::LdMatrix, m, trans, addrs);
    if (r0 || c0) ins.label += "@" + std::to_string(r0) + "," + std::to_string(c0);
    out.plan.instructions.push_back(std::move(ins));
    out.touches.push_back(std::move(touch));
    out.warp.push_back(0);
    return out;
}

SharedAccess buildAccess(const SharedTile& tile, const std::string& accessIn,
                         const AccessOptions& opt) {
    const std::string access = trim(accessIn);
    auto rest = [&](std::size_t n) { return access.substr(n); };
    if (access.rfind("fragment:", 0) == 0) {
        Mapping m = parseMapping(rest(9));
        const Fragment* f = std::get_if<Fragment>(&m);
        if (!f) throw InputError("fragment: the mapping text is a Layout, not a T.Fragment");
        return fragmentAccess(tile, *f, opt);
    }
    if (access.rfind("lanes:", 0) == 0) return laneMapAccess(tile, rest(6), opt);
    if (access.rfind("ldmatrix:", 0) == 0) return matrixAccess(tile, rest(9), opt.store, opt);
    if (access.rfind("stmatrix:", 0) == 0) return matrixAccess(tile, rest(9), true, opt);
    if (access == "ldmatrix" || access == "stmatrix")
        return matrixAccess(tile, "x4", access == "stmatrix" || opt.store, opt);
    throw InputError("unknown access '" + access +
                     "' (fragment:<mapping>, lanes:<lambda>, ldmatrix:x4[.trans][@r,c], "
                     "stmatrix:...)");
}

// ---- heat ----

CellHeat instructionHeat(const SharedTile& tile, const SharedAccess& a, const PlanCost& cost,
                         int only) {
    CellHeat h;
    h.instruction.assign(std::size_t(tile.cells()), -1);
    h.wavefronts.assign(std::size_t(tile.cells()), 0);
    for (std::size_t i = 0; i < a.touches.size(); ++i) {
        if (only >= 0 && int(i) != only) continue;
        const int w = i < cost.instructions.size() ? cost.instructions[i].wavefronts : 0;
        h.max_wavefronts = std::max(h.max_wavefronts, w);
        for (const LaneTouch& lt : a.touches[i])
            for (std::int64_t c : a.cellsOf(lt))
                if (h.instruction[std::size_t(c)] < 0) {
                    h.instruction[std::size_t(c)] = int(i);
                    h.wavefronts[std::size_t(c)] = w;
                }
    }
    return h;
}

CellHeat cellHeat(const SharedTile& tile, const SharedAccess& a, const PlanCost& cost) {
    return instructionHeat(tile, a, cost, -1);
}

// ---- output ----

void toJson(nlohmann::json& j, const SharedTile& tile, const SharedAccess& a,
            const PlanCost& cost) {
    toJson(j, cost);
    auto& arr = j["instructions"];
    for (std::size_t i = 0; i < a.plan.instructions.size() && i < arr.size(); ++i) {
        const Instruction& ins = a.plan.instructions[i];
        auto& o = arr[i];
        o["label"] = ins.label;
        o["op"] = sharedOpName(ins.op);
        o["bytes"] = ins.bytes_per_lane;
        o["warp"] = a.warp[i];
        nlohmann::json lanes = nlohmann::json::array();
        for (std::size_t k = 0; k < a.touches[i].size(); ++k) {
            const LaneTouch& lt = a.touches[i][k];
            nlohmann::json cells = nlohmann::json::array();
            for (std::int64_t c : a.cellsOf(lt))
                cells.push_back(tile.coordOf(c));
            lanes.push_back({{"lane", lt.lane},
                             {"address", tile.addressOfCell(a.cellsOf(lt).front())},
                             {"cells", std::move(cells)}});
        }
        o["lanes"] = std::move(lanes);
    }
    j["vector_elements"] = a.vector_elements;
    j["element_bytes"] = tile.elementBytes();
    j["footprint_bytes"] = tile.footprintBytes();
}

std::string formatAccessTable(const SharedAccess& a, const PlanCost& cost) {
    std::ostringstream o;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%5s  %-24s %-9s %5s %5s %10s %5s %6s  %s\n", "#", "instruction",
                  "op", "bytes", "lanes", "wavefronts", "ideal", "excess", "worst bank");
    o << buf;
    for (std::size_t i = 0; i < cost.instructions.size(); ++i) {
        const InstructionCost& c = cost.instructions[i];
        const Instruction& ins = a.plan.instructions[i];
        int active = 0;
        for (const LaneAccess& l : ins.lanes)
            active += l.active;
        if (ins.isMatrix()) active = std::min(active, 8 * ins.matrices);
        int worst = 0;
        for (std::size_t b = 0; b < c.bank_words.size(); ++b)
            if (c.bank_words[b] > c.bank_words[std::size_t(worst)]) worst = int(b);
        std::string wb = c.excess ? "bank " + std::to_string(worst) + " (" +
                                        std::to_string(c.bank_words[std::size_t(worst)]) + " words)"
                                  : "-";
        std::snprintf(buf, sizeof buf, "%5zu  %-24s %-9s %5d %5d %10d %5d %6d  %s\n", i,
                      ins.label.c_str(), sharedOpName(ins.op).c_str(), ins.bytes_per_lane, active,
                      c.wavefronts, c.ideal, c.excess, wb.c_str());
        o << buf;
    }
    std::snprintf(buf, sizeof buf, "total: %s, %s, ideal %lld, excess %lld, efficiency %.1f%%\n",
                  countNoun(long(cost.instructions.size()), "instruction").c_str(),
                  countNoun(cost.wavefronts, "wavefront").c_str(), (long long)cost.ideal,
                  (long long)cost.excess, 100.0 * cost.efficiency());
    o << buf;
    return o.str();
}

} // namespace ts
