// SPDX-License-Identifier: Apache-2.0
// The register fragments T.gemm infers, as TileLang 0.1.15 builds them: the sm80 mma.sync path
// (cuda/op/gemm/gemm_mma.py with TensorCoreIntrinEmitter) and the gfx942 MFMA path
// (rocm/op/gemm/gemm_mfma.py with MatrixCoreIntrinEmitter). Warp partitions follow the C++
// GemmWarpPolicy (src/cuda/op/gemm.cc, src/rocm/op/gemm.cc), which is what T.gemm calls; the
// Python GemmWarpPolicy helper disagrees with it for some shapes and warp counts.
#include "builtins_impl.h"
#include "layout_eval.h"
#include "tilescope/support/wording.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ts::builtin {

namespace {

const Expr I = var("_i"), J = var("_j");

enum class Policy { Square, FullRow, FullCol };

Policy parsePolicy(const std::string& s) {
    for (const char* prefix : {"T.GemmWarpPolicy.", "GemmWarpPolicy."})
        if (s.rfind(prefix, 0) == 0) return parsePolicy(s.substr(std::string(prefix).size()));
    if (s == "Square") return Policy::Square;
    if (s == "FullRow") return Policy::FullRow;
    if (s == "FullCol") return Policy::FullCol;
    throw InputError("policy must be \"Square\", \"FullRow\" or \"FullCol\", got \"" + s + "\"");
}

const char* policyName(Policy p) {
    return p == Policy::Square ? "Square" : p == Policy::FullRow ? "FullRow" : "FullCol";
}

struct Partition {
    std::int64_t m = 1, n = 1;
};

std::string mn(std::int64_t M, std::int64_t N) {
    return std::to_string(M) + "x" + std::to_string(N);
}

// ComputeDefaultWarpPartition for CUDA mma (src/cuda/op/gemm.cc): every warp owns a multiple of
// 16 rows and 8 columns. The Square score is computed in float, as TileLang does, so ties break
// the same way.
Partition cudaPartition(std::int64_t M, std::int64_t N, std::int64_t threads, Policy policy) {
    const std::int64_t warps = threads / 32;
    if (M % 16) throw InputError("T.gemm needs M divisible by 16, got M = " + std::to_string(M));
    if (N % 8) throw InputError("T.gemm needs N divisible by 8, got N = " + std::to_string(N));
    auto valid = [&](std::int64_t m, std::int64_t n) {
        return m * n == warps && M % (m * 16) == 0 && N % (n * 8) == 0;
    };
    Partition best;
    bool found = false;
    if (policy == Policy::FullRow) {
        for (std::int64_t m = warps; m >= 1 && !found; --m)
            if (warps % m == 0 && valid(m, warps / m)) best = {m, warps / m}, found = true;
    } else if (policy == Policy::FullCol) {
        for (std::int64_t n = warps; n >= 1 && !found; --n)
            if (warps % n == 0 && valid(warps / n, n)) best = {warps / n, n}, found = true;
    } else {
        const float ideal = static_cast<float>(M) / static_cast<float>(N);
        float bestBalance = std::numeric_limits<float>::max();
        for (std::int64_t m = 1; m <= warps; ++m) {
            if (warps % m) continue;
            const std::int64_t n = warps / m;
            if (!valid(m, n)) continue;
            const float mPer = static_cast<float>(M) / static_cast<float>(m * 16);
            const float nPer = static_cast<float>(N) / static_cast<float>(n * 8);
            const float balance = std::abs(mPer / nPer - ideal);
            if (balance < bestBalance) {
                bestBalance = balance;
                best = {m, n};
                found = true;
            }
        }
    }
    if (!found)
        throw InputError("no warp partition for T.gemm: " + mn(M, N) + " cannot be covered by " +
                         std::to_string(warps) + " warps (" + std::to_string(threads) +
                         " threads, policy " + policyName(policy) +
                         "); each warp needs a multiple of 16 rows and 8 columns");
    return best;
}

// ComputeDefaultWarpPartition for ROCm (src/rocm/op/gemm.cc): 64-lane wavefronts, 16x16 per
// wavefront; FullRow/FullCol fall back to splitting the other dimension.
Partition rocmPartition(std::int64_t M, std::int64_t N, std::int64_t threads, Policy policy) {
    if (threads < 64)
        throw InputError("T.gemm on gfx942 needs at least one full 64-lane wavefront, got " +
                         countNoun(threads, "thread"));
    const std::int64_t warps = threads / 64;
    if (M % 16) throw InputError("T.gemm needs M divisible by 16, got M = " + std::to_string(M));
    if (N % 16)
        throw InputError("T.gemm on gfx942 needs N divisible by 16, got N = " + std::to_string(N));
    Partition p;
    if (policy == Policy::FullRow) {
        p = {warps, 1};
        if (M % (warps * 16)) {
            p.m = M / 16;
            p.n = std::max<std::int64_t>(warps / p.m, 1);
        }
    } else if (policy == Policy::FullCol) {
        p = {1, warps};
        if (N % (warps * 16)) {
            p.n = N / 16;
            p.m = std::max<std::int64_t>(warps / p.n, 1);
        }
    } else {
        const float ideal = static_cast<float>(M) / static_cast<float>(N);
        float bestBalance = std::numeric_limits<float>::max();
        for (std::int64_t m = 1; m <= M / 16 && m <= warps; ++m) {
            const std::int64_t n = warps / m;
            const float mPer = static_cast<float>(M) / static_cast<float>(m * 16);
            const float nPer = static_cast<float>(N) / static_cast<float>(n * 16);
            if (mPer < 1 || nPer < 1 || m * n != warps) continue;
            const float balance = std::abs(mPer / nPer - ideal);
            if (balance < bestBalance) {
                bestBalance = balance;
                p = {m, n};
            }
        }
    }
    if (p.m * p.n != warps)
        throw InputError("no warp partition for T.gemm on gfx942: " + mn(M, N) +
                         " cannot be covered by " + countNoun(warps, "wavefront") + " (" +
                         countNoun(threads, "thread") + ", policy " + policyName(policy) +
                         ", TileLang picks " + std::to_string(p.m) + "x" + std::to_string(p.n) +
                         ")");
    return p;
}

// The emitters divide by the number of instruction tiles per warp; TileLang's ROCm partition can
// leave a warp less than one tile, and then T.gemm fails with a division by zero.
void requireWarpTiles(std::int64_t warpRows, std::int64_t warpCols, Partition p, const char* atom) {
    if (warpRows > 0 && warpCols > 0) return;
    throw InputError("TileLang's warp partition " + std::to_string(p.m) + "x" +
                     std::to_string(p.n) + " leaves a warp less than one " + atom +
                     " tile; T.gemm fails (division by zero)");
}

// T.gemm's fragments are copied to and from memory through their inverse; one that is not a
// one-to-one map onto [0, slots) x [0, threads) makes TileLang fail ("Could not normalize
// iterators"), though layout inference produced it.
Fragment lowerable(Fragment f, const std::string& what) {
    if (auto problem = f.asLayout().bijectivityProblem())
        throw InputError(what +
                         " as T.gemm builds it here is not one-to-one onto its threads and "
                         "register slots, so TileLang fails to lower it (\"Could not "
                         "normalize iterators\"): " +
                         *problem);
    return f;
}

// ComputeWgmmaWarpPartition (src/cuda/op/gemm.cc): warps along M come in warpgroups of 4.
Partition wgmmaPartition(std::int64_t M, std::int64_t N, std::int64_t threads, Policy policy) {
    const std::int64_t warps = threads / 32;
    if (warps % 4 || warps == 0)
        throw InputError("WGMMA needs a multiple of 128 threads, got " + std::to_string(threads) +
                         " (T.gemm uses mma.sync then: make_gemm_c_fragment)");
    if (M % 16) throw InputError("T.gemm needs M divisible by 16, got M = " + std::to_string(M));
    if (N % 8) throw InputError("T.gemm needs N divisible by 8, got N = " + std::to_string(N));
    auto valid = [&](std::int64_t m, std::int64_t n) {
        return m * n == warps && m % 4 == 0 && M % (m * 16) == 0 && N % (n * 8) == 0;
    };
    Partition best;
    bool found = false;
    if (policy == Policy::FullRow) {
        for (std::int64_t m = warps; m >= 4 && !found; m -= 4)
            if (warps % m == 0 && valid(m, warps / m)) best = {m, warps / m}, found = true;
    } else if (policy == Policy::FullCol) {
        for (std::int64_t n = warps / 4; n >= 1 && !found; --n)
            if (warps % n == 0 && valid(warps / n, n)) best = {warps / n, n}, found = true;
    } else {
        const float ideal = static_cast<float>(M) / static_cast<float>(N);
        float bestScore = std::numeric_limits<float>::max();
        for (std::int64_t m = 4; m <= warps; m += 4) {
            if (warps % m) continue;
            const std::int64_t n = warps / m;
            if (!valid(m, n)) continue;
            const float mPer = static_cast<float>(M) / static_cast<float>(m * 16);
            const float nPer = static_cast<float>(N) / static_cast<float>(n * 8);
            const float score = std::abs(mPer / nPer - ideal);
            if (score < bestScore) {
                bestScore = score;
                best = {m, n};
                found = true;
            }
        }
    }
    if (!found)
        throw InputError("no warp partition for T.gemm (WGMMA): " + mn(M, N) +
                         " cannot be covered by " + countNoun(warps, "warp") + " (" +
                         countNoun(threads, "thread") + ", policy " + policyName(policy) +
                         "); each warp needs a multiple of 16 rows and 8 columns, and the warps "
                         "along M come in groups of 4");
    return best;
}

// Canonical TileLang spelling of a dtype given in any spelling Tilescope accepts.
std::string canonicalDtype(const std::string& d) {
    static const std::map<std::string, std::string> alias{{"fp64", "float64"},
                                                          {"fp32", "float32"},
                                                          {"fp16", "float16"},
                                                          {"half", "float16"},
                                                          {"float", "float32"},
                                                          {"bf16", "bfloat16"},
                                                          {"e4m3_float8", "float8_e4m3"},
                                                          {"e5m2_float8", "float8_e5m2"},
                                                          {"fp8", "float8_e4m3"}};
    auto it = alias.find(d);
    return it == alias.end() ? d : it->second;
}

bool oneOf(const std::string& s, std::initializer_list<const char*> set) {
    for (const char* x : set)
        if (s == x) return true;
    return false;
}

Shape matrixShape(const BuiltinArgs& a) {
    const Shape& s = a.shape("shape");
    if (s.size() != 2)
        throw InputError("shape must be the (M, N) of the accumulator, got " + formatShape(s));
    return s;
}

// The block-level accumulator: micro tiles of mx x my, warp w of the partition holding warpRows x
// warpCols of them (thread = bj * (m * warp) + bi * warp + lane, as make_mma_store_layout and
// make_mfma_store_layout write it).
struct Store {
    std::int64_t mx, my, warpRows, warpCols, slots, warpSize;
    Partition p;
    std::function<std::pair<Expr, Expr>(const Expr&, const Expr&)> atom; // (lane, local)
};

Fragment storeFragment(const Shape& s, const Store& st) {
    Expr mi = floormod(I, st.mx), mj = floormod(J, st.my);
    auto [lane, local] = st.atom(mi, mj);
    Expr bi = floordiv(floordiv(I, st.mx), st.warpRows);
    Expr bj = floordiv(floordiv(J, st.my), st.warpCols);
    Expr wi = floormod(floordiv(I, st.mx), st.warpRows);
    Expr wj = floormod(floordiv(J, st.my), st.warpCols);
    Expr thread = bj * (st.p.m * st.warpSize) + bi * st.warpSize + lane;
    Expr index = wi * (st.warpCols * st.slots) + wj * st.slots + local;
    return Fragment(s, thread, {index});
}

// ------------------------------------------------------------------ sm80 mma.sync

struct MmaDtypes {
    std::string a, acc;
    int aBits;
};

// The operand type T.gemm pairs with an accumulator when none is given.
std::string defaultOperand(const std::string& acc) {
    if (acc == "float64") return "float64";
    if (acc == "int32") return "int8";
    return "float16";
}

// TensorCoreIntrinEmitter.dtype_abbrv: the types its mma.sync path knows.
void requireMmaDtype(const std::string& d, const char* role) {
    if (!oneOf(d, {"float16", "bfloat16", "float32", "float64", "int4", "int8", "uint8", "int32",
                   "float8_e4m3", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
                   "float8_e5m2fnuz", "float4_e2m1fn"}))
        throw InputError(std::string("T.gemm's sm80 mma path has no ") + role + " type " + d +
                         " (TileLang: \"Unsupported dtype\")");
}

MmaDtypes mmaDtypes(const BuiltinArgs& a) {
    MmaDtypes d;
    d.acc = canonicalDtype(a.string("accum_dtype"));
    d.a = a.has("dtype") ? canonicalDtype(a.string("dtype")) : defaultOperand(d.acc);
    requireMmaDtype(d.acc, "accumulator");
    requireMmaDtype(d.a, "operand");
    d.aBits = dtypeBits(d.a);
    return d;
}

// The sm80 mma.sync shape T.gemm's emitter picks: m16n{8,16}k*, or m8n8k4 for 64-bit operands.
struct MmaTile {
    std::int64_t mDim, nDim, kDim, warpRows, warpCols, slots;
};

MmaTile mmaTile(std::int64_t wrt, std::int64_t wct, int aBits, std::int64_t chunk) {
    MmaTile t{};
    t.kDim = std::min<std::int64_t>(256 / aBits, chunk);
    if (aBits == 64) {
        t.mDim = 8;
        t.nDim = 8;
    } else {
        if (t.kDim == 4)
            throw InputError("a K chunk of " + std::to_string(chunk) +
                             " gives k_dim 4, which only the 64-bit m8n8k4 mma has");
        t.mDim = 16;
        t.nDim = wct % 16 == 0 ? 16 : 8;
    }
    if (t.kDim != 4 && t.kDim != 8 && t.kDim != 16 && t.kDim != 32 && t.kDim != 64 &&
        t.kDim != 128 && t.kDim != 256)
        throw InputError("no mma.sync instruction has k = " + std::to_string(t.kDim) +
                         " (the K chunk " + std::to_string(chunk) + " is smaller than the " +
                         std::to_string(256 / aBits) + " of one instruction)");
    t.warpRows = wrt / t.mDim;
    t.warpCols = wct / t.nDim;
    t.slots = t.mDim * t.nDim / 32;
    return t;
}

// An accumulator builtin's optional K: T.gemm checks it (None: a K it accepts).
std::optional<std::int64_t> optionalChunk(const BuiltinArgs& a) {
    if (!a.has("chunk")) return std::nullopt;
    const std::int64_t k = a.integer("chunk");
    if (k <= 0) throw InputError("chunk (the K extent) must be positive");
    return k;
}

void requireWholeK(std::int64_t chunk, std::int64_t kDim);

Fragment gemmC(const Shape& s, std::int64_t threads, const MmaDtypes& d, Policy policy,
               std::optional<std::int64_t> chunk) {
    if (d.aBits < 8)
        throw InputError("T.gemm on sm80 cannot load " + d.a +
                         " operands from shared memory (its ldmatrix path has no " +
                         std::to_string(d.aBits) + "-bit case: \"Unsupported dtype\")");
    Partition p = cudaPartition(s[0], s[1], threads, policy);
    // The accumulator does not depend on K, but T.gemm rejects a K it cannot issue.
    if (chunk) requireWholeK(*chunk, mmaTile(s[0] / p.m, s[1] / p.n, d.aBits, *chunk).kDim);
    MmaTile t = mmaTile(s[0] / p.m, s[1] / p.n, d.aBits, 256);
    const bool fp64Map = dtypeBits(d.acc) == 64 || t.slots == 2;
    if (fp64Map && d.aBits != 64)
        throw InputError("a " + d.acc + " accumulator needs 64-bit operands on sm80 mma (got " +
                         d.a + "); TileLang fails with \"Could not normalize iterators\"");
    Store st{t.mDim, t.nDim, t.warpRows, t.warpCols, t.slots, 32, p, nullptr};
    if (fp64Map) // mma_store_32x2_to_shared_8x8_layout_fp64, inverted
        st.atom = [](const Expr& i, const Expr& j) {
            return std::make_pair(i * 4 + floordiv(j, 2), floormod(j, 2));
        };
    else // mma_store_32x8_to_shared_16x16_layout, inverted
        st.atom = [](const Expr& i, const Expr& j) {
            return std::make_pair(floormod(i, 8) * 4 + floordiv(floormod(j, 8), 2),
                                  floordiv(j, 8) * 4 + floordiv(i, 8) * 2 + floormod(j, 2));
        };
    return lowerable(storeFragment(s, st), "this accumulator");
}

// ------------------------------------------------------------------ sm90 WGMMA

bool isFp8(const std::string& d) {
    return d.rfind("float8_e4m3", 0) == 0 || d.rfind("float8_e5m2", 0) == 0;
}

// CheckWgmma (src/cuda/op/gemm.cc): the operand/accumulator pairs T.gemm issues as WGMMA.
void requireWgmmaTypes(const std::string& a, const std::string& acc) {
    const bool ok = (acc == "float16" && (a == "float16" || isFp8(a))) ||
                    (acc == "float32" && (a == "float16" || a == "bfloat16" || isFp8(a))) ||
                    (acc == "int32" && (a == "int8" || a == "uint8"));
    if (!ok)
        throw InputError("T.gemm does not issue WGMMA for " + a + " operands with a " + acc +
                         " accumulator; it uses mma.sync (make_gemm_c_fragment)");
}

// TensorCoreIntrinEmitter (wgmma_macro_generator.py) make_mma_store_layout: the mma store atom
// repeated over a warp's N tiles, 4 warps of a warpgroup along M, the 64-row WGMMA atoms as
// register slots, then warpgroups along M and warps along N.
Fragment wgmmaC(const BuiltinArgs& a) {
    const Shape s = matrixShape(a);
    MmaDtypes d = mmaDtypes(a);
    requireWgmmaTypes(d.a, d.acc);
    if (s[0] < 64)
        throw InputError("WGMMA needs M >= 64, got M = " + std::to_string(s[0]) +
                         " (T.gemm uses mma.sync then: make_gemm_c_fragment)");
    if (auto k = optionalChunk(a); k && *k % (d.aBits == 16 ? 16 : 32))
        throw InputError("T.gemm issues WGMMA for " + d.a + " only when K is a multiple of " +
                         std::to_string(d.aBits == 16 ? 16 : 32) + ", got K = " +
                         std::to_string(*k) + " (it uses mma.sync then: make_gemm_c_fragment)");
    Partition p = wgmmaPartition(s[0], s[1], a.integer("threads"), parsePolicy(a.string("policy")));
    const std::int64_t wrt = s[0] / p.m, wct = s[1] / p.n;
    // A K x N B (MN-major) gets a swizzle atom only when each warp's WGMMA N spans 32 bytes of
    // 16-bit elements; otherwise its descriptor is not canonical and TileLang fails to lower.
    if (d.aBits == 16 && wct % 16)
        throw InputError("each warp's N extent (" + std::to_string(wct) +
                         ") is not a multiple of 16, so T.gemm cannot describe a K x N B tile "
                         "to WGMMA (\"Not a canonical GMMA_MN layout\")");
    const std::int64_t nd = wct % 16 == 0 ? 16 : 8;
    const std::int64_t warpRows = wrt / 16, warpCols = wct / nd;
    Expr lane = floormod(I, 8) * 4 + floordiv(floormod(J, 8), 2);
    Expr local = floordiv(J, 8) * 4 + floordiv(I, 8) * 2 + floormod(J, 2);
    Fragment base({16, nd}, lane, {local});
    Fragment f = base.repeat({1, warpCols}, false, false)
                     .repeat({4, 1}, true, false)
                     .repeat({warpRows, 1}, false, false)
                     .repeat({p.m / 4, 1}, true, false)
                     .repeat({1, p.n}, true, false);
    return lowerable(f, "this accumulator");
}

// ------------------------------------------------------------------ sm80 operand loads

// sr ("spatial x reduction") maps of one mma.sync operand atom (mma_layout.py).
struct SrAtom {
    std::int64_t spatial, reduction;
    Expr thread, local;
};

SrAtom srAtom(int bits, bool isA) {
    const Expr i = I, j = J;
    switch (bits) {
    case 32:
        return isA ? SrAtom{16, 8, floormod(i, 8) * 4 + floormod(j, 4),
                            floordiv(j, 4) * 2 + floordiv(i, 8)}
                   : SrAtom{16, 8, floormod(i, 8) * 4 + floormod(j, 4),
                            floordiv(i, 8) * 2 + floordiv(j, 4)};
    case 16:
        return isA ? SrAtom{16, 16, floormod(i, 8) * 4 + floordiv(floormod(j, 8), 2),
                            floordiv(j, 8) * 4 + floordiv(i, 8) * 2 + floormod(j, 2)}
                   : SrAtom{16, 16, floormod(i, 8) * 4 + floordiv(floormod(j, 8), 2),
                            floordiv(i, 8) * 4 + floordiv(j, 8) * 2 + floormod(j, 2)};
    case 8:
        return isA ? SrAtom{16, 32, floormod(i, 8) * 4 + floordiv(floormod(j, 16), 4),
                            floordiv(j, 16) * 8 + floordiv(i, 8) * 4 + floormod(j, 4)}
                   : SrAtom{16, 32, floormod(i, 8) * 4 + floordiv(floormod(j, 16), 4),
                            floordiv(i, 8) * 8 + floordiv(j, 16) * 4 + floormod(j, 4)};
    case 4: // m16n8k64 e2m1 atoms
        return isA ? SrAtom{16, 64, floormod(i, 8) * 4 + floordiv(floormod(j, 32), 8),
                            floordiv(i, 8) * 16 + floordiv(j, 32) * 8 + floormod(j, 8)}
                   : SrAtom{8, 64, i * 4 + floordiv(floormod(j, 32), 8),
                            floordiv(j, 32) * 8 + floormod(j, 8)};
    default:
        throw InputError("mma operand layouts exist for 4-, 8-, 16- and 32-bit types, not " +
                         std::to_string(bits) + "-bit (TileLang: Unsupported dtype)");
    }
}

Expr swapIJ(const Expr& e) {
    return substitute(e, [](const std::string& n) -> Expr {
        if (n == "_i") return var("_j");
        if (n == "_j") return var("_i");
        return nullptr;
    });
}

// The base fragment of a register operand: the atom restricted to micro_s x micro_r, in sr order
// or transposed (rs) when the operand is stored K-major the other way.
Fragment operandBase(const Expr& thread, const Expr& local, bool sr, std::int64_t microS,
                     std::int64_t microR) {
    if (sr) return Fragment({microS, microR}, thread, {local});
    return Fragment({microR, microS}, swapIJ(thread), {swapIJ(local)});
}

// The repeats make_mma_load_layout / make_mfma_load_layout apply to the base fragment.
Fragment blockOperand(const Fragment& base, bool isA, bool sr, std::int64_t warpS,
                      std::int64_t warpR, Partition p) {
    const std::int64_t blockS = isA ? p.m : p.n, rep = isA ? p.n : p.m;
    if (sr) {
        Fragment w = base.repeat({warpS, warpR}, false, false);
        if (isA) return w.repeat({blockS, 1}, true, true).replicateBy(rep);
        return w.replicateBy(rep).repeat({blockS, 1}, true, true);
    }
    Fragment w = base.repeat({warpR, warpS}, false, true);
    if (isA) return w.repeat({1, blockS}, true, true).replicateBy(rep);
    return w.replicateBy(rep).repeat({1, blockS}, true, true);
}

bool matrixIsA(const BuiltinArgs& a) {
    const std::string& m = a.string("matrix");
    if (m != "A" && m != "B") throw InputError("matrix must be \"A\" or \"B\", got \"" + m + "\"");
    return m == "A";
}

std::int64_t positiveChunk(const BuiltinArgs& a) {
    const std::int64_t chunk = a.integer("chunk");
    if (chunk <= 0) throw InputError("chunk (the K extent) must be positive");
    return chunk;
}

// A chunk that is not a whole number of instructions: T.gemm lowers only whole instructions.
void requireWholeK(std::int64_t chunk, std::int64_t kDim) {
    if (chunk % kDim)
        throw InputError("the K chunk " + std::to_string(chunk) + " is not a multiple of the " +
                         std::to_string(kDim) + " of one instruction");
}

Fragment mmaLoad(const BuiltinArgs& a) {
    const Shape s = matrixShape(a);
    const bool isA = matrixIsA(a);
    const std::int64_t threads = a.integer("threads"), chunk = positiveChunk(a);
    const std::string dtype = canonicalDtype(a.string("dtype"));
    requireMmaDtype(dtype, "operand");
    const int bits = dtypeBits(dtype);
    const bool transposed = a.boolean("transposed");
    Partition p = cudaPartition(s[0], s[1], threads, parsePolicy(a.string("policy")));
    if (isA && bits < 8)
        throw InputError("a " + dtype +
                         " A operand in registers: T.gemm then loads B from shared "
                         "memory, which its ldmatrix path does not do for " +
                         std::to_string(bits) + "-bit types (\"Unsupported dtype\")");
    MmaTile t = mmaTile(s[0] / p.m, s[1] / p.n, bits, chunk);
    SrAtom atom = srAtom(bits, isA);
    requireWholeK(chunk, t.kDim);
    const bool sr = isA != transposed;
    // The atom's formula is applied over micro_s x k even where the tile is larger than the atom
    // (4-bit B), as the emitter does.
    const std::int64_t microS = isA ? t.mDim : t.nDim;
    Fragment base = operandBase(atom.thread, atom.local, sr, microS, t.kDim);
    return lowerable(blockOperand(base, isA, sr, isA ? t.warpRows : t.warpCols, chunk / t.kDim, p),
                     "this " + dtype + " " + (isA ? "A" : "B") + " operand");
}

// ------------------------------------------------------------------ gfx942 MFMA

// MatrixCoreIntrinEmitter on gfx942: 16x16 tiles, k by operand type.
std::int64_t mfmaK(const std::string& a) {
    if (oneOf(a, {"float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "int8"}))
        return 32;
    if (!oneOf(a, {"float16", "bfloat16", "float32"}))
        throw InputError("MFMA (gfx942) takes float16, bfloat16, float32, int8 or fp8 (e4m3fn, "
                         "e4m3fnuz, e5m2, e5m2fnuz) operands, not " +
                         a);
    return a == "float32" ? 4 : 16;
}

void requireMfmaAccum(const std::string& acc) {
    if (!oneOf(acc, {"float16", "float32", "int8", "int32"}))
        throw InputError("MFMA (gfx942) accumulates in float16, float32, int8 or int32, not " +
                         acc);
}

std::string defaultMfmaOperand(const std::string& acc) {
    return acc == "int32" ? "int8" : "float16";
}

// make_mfma_store_layout: 16x16 tiles, each the transpose of the raw atom
// (thread_id_shared_access_64x4_to_16x16_layout_C_n_m, inverted). Every T.gemm on gfx942 has one,
// and a kernel whose accumulator TileLang cannot lower fails whatever its operands.
Fragment mfmaStore(const Shape& s, Partition p) {
    Store st{16, 16, (s[0] / p.m) / 16, (s[1] / p.n) / 16, 4, 64, p, nullptr};
    requireWarpTiles(st.warpRows, st.warpCols, p, "16x16 MFMA");
    st.atom = [](const Expr& i, const Expr& j) {
        return std::make_pair(floordiv(j, 4) * 16 + i, floormod(j, 4));
    };
    return lowerable(storeFragment(s, st), "the accumulator of this T.gemm");
}

Fragment mfmaC(const BuiltinArgs& a) {
    const Shape s = matrixShape(a);
    const std::string acc = canonicalDtype(a.string("accum_dtype"));
    const std::string dt =
        a.has("dtype") ? canonicalDtype(a.string("dtype")) : defaultMfmaOperand(acc);
    const std::int64_t k = mfmaK(dt);
    requireMfmaAccum(acc);
    if (auto chunk = optionalChunk(a)) requireWholeK(*chunk, k);
    return mfmaStore(
        s, rocmPartition(s[0], s[1], a.integer("threads"), parsePolicy(a.string("policy"))));
}

// The K of one MFMA operand tile: the type's micro K times the ROCm T.gemm's k_pack, which
// TileLang takes as 1 or 2 and whose emitter has layouts for a K of 4, 16, 32 or 64 only.
std::int64_t mfmaPackedK(const std::string& dtype, std::int64_t kPack) {
    const std::int64_t k = mfmaK(dtype) * kPack;
    if (kPack != 1 && kPack != 2)
        throw InputError("T.gemm's k_pack is 1 or 2 (\"T.gemm k_pack must be an int equal to 1 "
                         "or 2\"), not " +
                         std::to_string(kPack));
    if (k != 4 && k != 16 && k != 32 && k != 64)
        throw InputError("TileLang's MFMA emitter has no " + std::to_string(k) +
                         "-wide operand layout (\"k_dim must be 4 or 16 or 32 or 64 "
                         "currently\"): T.gemm on " +
                         dtype + " operands with k_pack=" + std::to_string(kPack) +
                         " does not lower on gfx942");
    return k;
}

Fragment mfmaLoad(const BuiltinArgs& a) {
    const Shape s = matrixShape(a);
    const bool isA = matrixIsA(a);
    const std::int64_t chunk = positiveChunk(a);
    const std::string dtype = canonicalDtype(a.string("dtype"));
    // A packed operand (k_pack 2) is one (16, 2K) base per MFMA pair, as the emitter builds it.
    const std::int64_t k = mfmaPackedK(dtype, a.integer("k_pack"));
    const bool transposed = a.boolean("transposed");
    Partition p = rocmPartition(s[0], s[1], a.integer("threads"), parsePolicy(a.string("policy")));
    const std::int64_t warpRows = (s[0] / p.m) / 16, warpCols = (s[1] / p.n) / 16;
    mfmaStore(s, p);
    requireWholeK(chunk, k);
    const std::int64_t per = std::max<std::int64_t>(k / 4, 1);
    // shared_16xK_to_local_64x(K/4)_layout_A, used for both operands in sr order.
    Expr thread = k == 4 ? J * 16 + I : I + floordiv(J, per) * 16;
    Expr local = k == 4 ? constant(0) : floormod(J, per);
    const bool sr = isA != transposed;
    Fragment base = operandBase(thread, local, sr, 16, k);
    return lowerable(blockOperand(base, isA, sr, isA ? warpRows : warpCols, chunk / k, p),
                     "this " + dtype + " " + (isA ? "A" : "B") + " operand");
}

// One wavefront's MFMA operand tile as T.gemm lowers it on gfx942 (MatrixCoreIntrinEmitter's
// base fragment in make_mfma_load_layout): (16, k) spatial x reduction, or (k, 16) transposed,
// on 64 lanes with k / 4 registers each (shared_16xK_to_local_64x(K/4)_layout_A), where k is the
// type's micro K times the ROCm T.gemm's k_pack (1 or 2). The plot_layout example's function of
// the same name drew the k_dim formula over a tile of the micro K alone (16 x 16 on 32 lanes for
// float16 with k_dim 32), which no TileLang kernel lowers; tests/data/goldens/mfma_base.json.gz has
// every reachable k captured from kernels lowered by tilelang 0.1.15.
Fragment mfmaLoadBase(const std::string& dtype, bool isA, std::int64_t kDim, bool transposed) {
    const std::int64_t microK = mfmaK(dtype);
    if (kDim != microK && kDim != 2 * microK)
        throw InputError("T.gemm on gfx942 gives an MFMA operand of type " + dtype + " a K of " +
                         std::to_string(microK) + " (k_pack=1) or " + std::to_string(2 * microK) +
                         " (k_pack=2), not k_dim=" + std::to_string(kDim));
    mfmaPackedK(dtype, kDim / microK);
    const std::int64_t per = kDim / 4;
    Expr thread = kDim == 4 ? J * 16 + I : I + floordiv(J, per) * 16;
    Expr local = kDim == 4 ? constant(0) : floormod(J, per);
    return operandBase(thread, local, isA != transposed, 16, kDim);
}

// The note for a fragment whose cells sit on threads at or beyond `threads`, the block's count;
// nothing when every thread is below it. The extent comes from per-coordinate bounds where the
// thread map allows (no cell visited), else from evaluating a fragment of up to 2^20 cells.
std::optional<std::string> threadsBeyondKernel(const Fragment& f, std::int64_t threads) {
    std::int64_t top = -1;
    if (f.replicate() == 1) {
        const detail::Bounds b = detail::tabulatedBounds(f.inputShape(), {f.thread()}, 0);
        if (!b.empty()) top = b.front().second;
    }
    if (top < 0 && cellCount(f.inputShape()) * f.replicate() <= (std::int64_t{1} << 20))
        top = f.evaluate().threadExtent - 1;
    if (top < threads) return std::nullopt;
    return "this fragment uses threads " + std::to_string(threads) + "-" + std::to_string(top) +
           ", beyond the block's " + std::to_string(threads) +
           ": TileLang builds it so, "
           "and those cells belong to threads the kernel does not have";
}

} // namespace

void registerGemm(std::vector<Builtin>& out) {
    const BuiltinParam shape{"shape", ParamKind::Shape, std::nullopt,
                             "(M, N) of the block's accumulator"};
    const BuiltinParam policy{"policy", ParamKind::String, "\"Square\"",
                              "T.gemm warp policy: Square, FullRow or FullCol"};
    const BuiltinParam kChunk{"chunk", ParamKind::Int, "None",
                              "K of the T.gemm, checked as T.gemm checks it; None: a K it accepts"};
    const BuiltinParam operand{"dtype", ParamKind::Dtype, "None",
                               "A/B type; None: float64 for a float64 accumulator, int8 for int32, "
                               "else float16"};
    out.push_back({"make_gemm_c_fragment",
                   {shape,
                    {"threads", ParamKind::Int, "128", "threads per block"},
                    {"accum_dtype", ParamKind::Dtype, "\"float32\"", "accumulator type"},
                    operand,
                    policy,
                    kChunk},
                   "the accumulator T.gemm gives on sm80 (mma.sync; float64 uses m8n8k4)",
                   [](const BuiltinArgs& a) -> Mapping {
                       return gemmC(matrixShape(a), a.integer("threads"), mmaDtypes(a),
                                    parsePolicy(a.string("policy")), optionalChunk(a));
                   }});
    out.push_back(
        {"make_wgmma_c_fragment",
         {shape,
          {"threads", ParamKind::Int, "128", "threads per block (a multiple of 128)"},
          {"accum_dtype", ParamKind::Dtype, "\"float32\"", "accumulator type"},
          {"dtype", ParamKind::Dtype, "None",
           "A/B type; None: float64 for a float64 accumulator, int8 for int32, else float16. "
           "8-bit A/B get WGMMA only with B stored transposed (N x K): with B stored K x N, "
           "T.gemm on sm90 falls back to mma.sync, whose accumulator is make_gemm_c_fragment's"},
          policy,
          kChunk},
         "the accumulator T.gemm gives on sm90 when it issues WGMMA (M >= 64, warps a multiple of "
         "4, B in shared memory: K x N for 16-bit types, transposed for fp8/int8)",
         [](const BuiltinArgs& a) -> Mapping { return wgmmaC(a); }});
    const BuiltinParam dtype{"dtype", ParamKind::Dtype, "\"float16\"", "operand type"};
    const BuiltinParam matrix{"matrix", ParamKind::String, "\"A\"", "\"A\" or \"B\""};
    const BuiltinParam chunk{"chunk", ParamKind::Int, std::nullopt, "K extent of the operand tile"};
    const BuiltinParam threads{"threads", ParamKind::Int, "128", "threads per block"};
    const BuiltinParam transposed{"transposed", ParamKind::Bool, "False",
                                  "operand stored transposed (T.gemm transpose_A / transpose_B)"};
    out.push_back({"make_mma_load_layout",
                   {shape, chunk, dtype, matrix, threads, transposed, policy},
                   "a register operand (A: M x K, B: K x N) as T.gemm gives it on sm80",
                   [](const BuiltinArgs& a) -> Mapping { return mmaLoad(a); }});
    out.push_back(
        {"make_mfma_c_fragment",
         {shape,
          {"threads", ParamKind::Int, "256", "threads per block (64-lane wavefronts)"},
          {"accum_dtype", ParamKind::Dtype, "\"float32\"", "accumulator type"},
          {"dtype", ParamKind::Dtype, "None", "A/B type; None: int8 for int32, else float16"},
          policy,
          kChunk},
         "the accumulator T.gemm gives on gfx942 (MFMA 16x16; each tile is the "
         "transpose of make_mfma_c_atom)",
         [](const BuiltinArgs& a) -> Mapping { return mfmaC(a); }});
    out.push_back({"make_mfma_load_layout",
                   {shape,
                    chunk,
                    dtype,
                    matrix,
                    {"threads", ParamKind::Int, "256", "threads per block (64-lane wavefronts)"},
                    transposed,
                    policy,
                    {"k_pack", ParamKind::Int, "1",
                     "T.gemm's k_pack on ROCm (1 or 2): MFMAs packed along K, the operand base "
                     "twice as wide"}},
                   "a register operand as T.gemm gives it on gfx942 (MFMA)",
                   [](const BuiltinArgs& a) -> Mapping { return mfmaLoad(a); }});
    out.push_back(
        {"make_mma_load_base_layout",
         {dtype, matrix, {"transposed", ParamKind::Bool, "False", "operand stored transposed"}},
         "one warp's mma.sync operand tile (examples/plot_layout/fragment_mma_load_a.py)",
         [](const BuiltinArgs& a) -> Mapping {
             const bool isA = matrixIsA(a);
             SrAtom atom = srAtom(dtypeBits(canonicalDtype(a.string("dtype"))), isA);
             return operandBase(atom.thread, atom.local, isA != a.boolean("transposed"),
                                atom.spatial, atom.reduction);
         }});
    out.push_back(
        {"make_mfma_load_base_layout",
         {dtype,
          matrix,
          {"k_dim", ParamKind::Int, "16",
           "K of the tile: the type's MFMA K (4 float32, 16 float16/bfloat16, 32 int8/fp8) times "
           "T.gemm's k_pack (1 or 2)"},
          {"transposed", ParamKind::Bool, "False", "operand stored transposed"}},
         "one wavefront's MFMA operand tile as T.gemm lowers it on gfx942: 16 x k_dim (k_dim x 16 "
         "transposed) on 64 lanes, k_dim / 4 registers each",
         [](const BuiltinArgs& a) -> Mapping {
             return mfmaLoadBase(canonicalDtype(a.string("dtype")), matrixIsA(a),
                                 a.integer("k_dim"), a.boolean("transposed"));
         }});
    out.push_back({"make_mfma_c_atom",
                   {},
                   "the raw MFMA 16x16 accumulator atom of mfma_layout.py "
                   "(shared_16x16_to_local_64x4_layout_C: thread j + 16 * (i // 4), local i % 4); "
                   "T.gemm's accumulator is its transpose, see make_mfma_c_fragment",
                   [](const BuiltinArgs&) -> Mapping {
                       return Fragment({16, 16}, floordiv(I, 4) * 16 + J, {floormod(I, 4)});
                   }});
    // T.gemm builds its fragments for the block's thread count, and a warp partition that
    // does not divide the tile puts cells on threads beyond it (gfx942: a 64x96 accumulator on
    // 192 threads uses threads 192-255): the fragment is shown as TileLang builds it, with a note.
    for (Builtin& b : out) {
        const bool takesThreads = std::any_of(b.params.begin(), b.params.end(),
                                              [](const auto& p) { return p.name == "threads"; });
        if (!takesThreads || b.name.find("gemm") == std::string::npos &&
                                 b.name.find("mfma") == std::string::npos &&
                                 b.name.find("wgmma") == std::string::npos)
            continue;
        b.make = [make = b.make](const BuiltinArgs& a) -> Mapping {
            Mapping m = make(a);
            if (auto* f = std::get_if<Fragment>(&m))
                if (auto note = threadsBeyondKernel(*f, a.integer("threads")))
                    m = f->withNote(*note);
            return m;
        };
    }
}

} // namespace ts::builtin
