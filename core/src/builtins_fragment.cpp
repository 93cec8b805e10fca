// Register fragments: GEMM atoms (gemm_layouts.cc:36-70), the T.gemm accumulator and operand
// loads of the sm80 MMA emitter (mma_macro_generator.py, mma_layout.py), and AMD MFMA layouts
// (mfma_layout.py). Formulas are written in the canonical order TileLang prints.
#include "builtins_impl.h"

#include <cmath>

namespace ts::builtin {

namespace {

const Expr I = var("_i"), J = var("_j");

Fragment frag(Shape s, Expr thread, Expr index) {
    return Fragment(std::move(s), std::move(thread), {std::move(index)});
}

struct WarpPartition {
    std::int64_t m, n;
};

// ComputeDefaultWarpPartition, Square policy (src/cuda/op/gemm.cc:170-240).
WarpPartition squarePartition(std::int64_t M, std::int64_t N, std::int64_t warps) {
    WarpPartition best{0, 0};
    double bestScore = 0;
    for (std::int64_t m = 1; m <= warps; ++m) {
        if (warps % m) continue;
        std::int64_t n = warps / m;
        if (M % (16 * m) || N % (8 * n)) continue;
        double score =
            std::abs((double(M) / (16 * m)) / (double(N) / (8 * n)) - double(M) / double(N));
        if (best.m == 0 || score < bestScore) {
            best = {m, n};
            bestScore = score;
        }
    }
    if (best.m == 0)
        throw InputError("no warp partition of " + std::to_string(warps) + " warps tiles a " +
                         std::to_string(M) + "x" + std::to_string(N) +
                         " accumulator (needs M % 16m == 0 and N % 8n == 0)");
    return best;
}

// The accumulator layout TensorCoreIntrinEmitter.make_mma_store_layout gives T.gemm's C.
Fragment gemmC(std::int64_t M, std::int64_t N, std::int64_t threads) {
    if (threads <= 0 || threads % 32) throw InputError("threads must be a positive multiple of 32");
    WarpPartition p = squarePartition(M, N, threads / 32);
    const std::int64_t wrt = M / p.m, wct = N / p.n;
    const std::int64_t nd = wct % 16 == 0 ? 16 : 8;
    const std::int64_t warpRows = wrt / 16, warpCols = wct / nd, lso = 16 * nd / 32;
    Expr r = floormod(I, 16), c = floormod(J, nd);
    Expr lane = floormod(r, 8) * 4 + floordiv(floormod(c, 8), 2);
    Expr local = floordiv(c, 8) * 4 + floordiv(r, 8) * 2 + floormod(c, 2);
    Expr bi = floordiv(floordiv(I, 16), warpRows), bj = floordiv(floordiv(J, nd), warpCols);
    Expr wi = floormod(floordiv(I, 16), warpRows), wj = floormod(floordiv(J, nd), warpCols);
    Expr thread = bj * (p.m * 32) + bi * 32 + lane;
    Expr index = wi * (warpCols * lso) + wj * lso + local;
    return frag({M, N}, thread, index);
}

// sr ("spatial x reduction") thread/local maps of one mma.sync operand tile (mma_layout.py).
struct Atom {
    std::int64_t rows, cols;
    Expr thread, local;
};

Atom srAtom(int bits, bool isA) {
    Expr i = I, j = J;
    switch (bits) {
    case 32:
        return isA ? Atom{16, 8, floormod(i, 8) * 4 + floormod(j, 4),
                          floordiv(j, 4) * 2 + floordiv(i, 8)}
                   : Atom{16, 8, floormod(i, 8) * 4 + floormod(j, 4),
                          floordiv(i, 8) * 2 + floordiv(j, 4)};
    case 16:
        return isA ? Atom{16, 16, floormod(i, 8) * 4 + floordiv(floormod(j, 8), 2),
                          floordiv(j, 8) * 4 + floordiv(i, 8) * 2 + floormod(j, 2)}
                   : Atom{16, 16, floormod(i, 8) * 4 + floordiv(floormod(j, 8), 2),
                          floordiv(i, 8) * 4 + floordiv(j, 8) * 2 + floormod(j, 2)};
    case 8:
        return isA ? Atom{16, 32, floormod(i, 8) * 4 + floordiv(floormod(j, 16), 4),
                          floordiv(j, 16) * 8 + floordiv(i, 8) * 4 + floormod(j, 4)}
                   : Atom{16, 32, floormod(i, 8) * 4 + floordiv(floormod(j, 16), 4),
                          floordiv(i, 8) * 8 + floordiv(j, 16) * 4 + floormod(j, 4)};
    default:
        throw InputError("mma operand layouts exist for 8-, 16- and 32-bit types, not " +
                         std::to_string(bits) + "-bit");
    }
}

Fragment mmaLoadBase(int bits, bool isA, bool transposed) {
    Atom a = srAtom(bits, isA);
    bool sr = (isA && !transposed) || (!isA && transposed);
    if (sr) return frag({a.rows, a.cols}, a.thread, a.local);
    auto swap = [](const Expr& e) {
        return substitute(e, [](const std::string& n) -> Expr {
            if (n == "_i") return var("_j");
            if (n == "_j") return var("_i");
            return nullptr;
        });
    };
    return frag({a.cols, a.rows}, swap(a.thread), swap(a.local));
}

// MFMA operand atoms (mfma_layout.py): A 16 x k, thread = i + 16 * (j // (k/4)), local = j % (k/4).
Fragment mfmaLoadBase(int bits, bool isA, std::int64_t kDim) {
    (void)bits;
    if (kDim != 4 && kDim != 16 && kDim != 32 && kDim != 64)
        throw InputError("k_dim must be 4, 16, 32 or 64, got " + std::to_string(kDim));
    std::int64_t per = kDim / 4;
    Expr i = isA ? I : J, j = isA ? J : I;
    Expr thread = kDim == 4 ? j * 16 + i : floordiv(j, per) * 16 + i;
    Expr local = kDim == 4 ? constant(0) : floormod(j, per);
    Shape s = isA ? Shape{16, kDim} : Shape{kDim, 16};
    return frag(s, thread, local);
}

} // namespace

void registerFragments(std::vector<Builtin>& out) {
    auto atom = [&](const char* name, Expr thread, Expr local, Shape s, const char* doc) {
        out.push_back(
            {name, {}, doc, [=](const BuiltinArgs&) -> Mapping { return frag(s, thread, local); }});
    };
    atom("make_gemm_fragment_8x8", I * 4 + floordiv(J, 2), floormod(J, 2), {8, 8},
         "8x8 mma atom: 32 lanes x 2 (ldmatrix/stmatrix granule)");
    atom("make_gemm_fragment_8x8_transposed", J * 4 + floordiv(I, 2), floormod(I, 2), {8, 8},
         "transposed 8x8 atom");
    atom("make_gemm_fragment_8x4", I * 4 + J, constant(0), {8, 4}, "8x4 atom: 32 lanes x 1");
    atom("make_gemm_fragment_8x16", I * 4 + floordiv(J, 4), floormod(J, 4), {8, 16},
         "8x16 atom: 32 lanes x 4");

    out.push_back(
        {"make_gemm_c_fragment",
         {{"shape", ParamKind::Shape, std::nullopt, "(M, N) of the block accumulator"},
          {"threads", ParamKind::Int, "128", "threads per block"},
          {"accum_dtype", ParamKind::Dtype, "\"float32\"", "accumulator type"}},
         "the accumulator fragment T.gemm gives (sm80 mma, default Square warp partition)",
         [](const BuiltinArgs& a) -> Mapping {
             const Shape& s = a.shape("shape");
             if (s.size() != 2) throw InputError("shape must be (M, N)");
             return gemmC(s[0], s[1], a.integer("threads"));
         }});
    const BuiltinParam dtype{"dtype", ParamKind::Dtype, "\"float16\"", "operand type"};
    const BuiltinParam matrix{"matrix", ParamKind::String, "\"A\"", "\"A\" or \"B\""};
    auto isA = [](const BuiltinArgs& a) {
        const std::string& m = a.string("matrix");
        if (m != "A" && m != "B")
            throw InputError("matrix must be \"A\" or \"B\", got \"" + m + "\"");
        return m == "A";
    };
    out.push_back(
        {"make_mma_load_base_layout",
         {dtype, matrix, {"transposed", ParamKind::Bool, "False", "operand stored transposed"}},
         "one warp's mma.sync operand tile (examples/plot_layout/fragment_mma_load_a.py)",
         [isA](const BuiltinArgs& a) -> Mapping {
             return mmaLoadBase(a.dtypeBits("dtype"), isA(a), a.boolean("transposed"));
         }});
    out.push_back({"make_mma_load_layout",
                   {{"shape", ParamKind::Shape, std::nullopt, "(M, N) of the block's C tile"},
                    {"chunk", ParamKind::Int, std::nullopt, "K extent of the operand tile"},
                    dtype,
                    matrix,
                    {"threads", ParamKind::Int, "128", "threads per block"},
                    {"transposed", ParamKind::Bool, "False", "operand stored transposed"}},
                   "a block's register operand layout as "
                   "TensorCoreIntrinEmitter.make_mma_load_layout builds it",
                   [isA](const BuiltinArgs& a) -> Mapping {
                       const Shape& s = a.shape("shape");
                       if (s.size() != 2) throw InputError("shape must be (M, N)");
                       const bool A = isA(a);
                       const std::int64_t threads = a.integer("threads");
                       if (threads <= 0 || threads % 32)
                           throw InputError("threads must be a positive multiple of 32");
                       WarpPartition p = squarePartition(s[0], s[1], threads / 32);
                       const int bits = a.dtypeBits("dtype");
                       const bool transposed = a.boolean("transposed");
                       Fragment base = mmaLoadBase(bits, A, transposed);
                       const bool sr = (A && !transposed) || (!A && transposed);
                       const std::int64_t wrt = s[0] / p.m, wct = s[1] / p.n;
                       const std::int64_t nd = wct % 16 == 0 ? 16 : 8;
                       const std::int64_t warpS = A ? wrt / 16 : wct / nd;
                       const std::int64_t microR = sr ? base.inputShape()[1] : base.inputShape()[0];
                       const std::int64_t chunk = a.integer("chunk");
                       if (chunk <= 0 || chunk % microR)
                           throw InputError("chunk must be a positive multiple of " +
                                            std::to_string(microR));
                       const std::int64_t warpR = chunk / microR;
                       const std::int64_t blockS = A ? p.m : p.n, rep = A ? p.n : p.m;
                       if (sr) {
                           Fragment f = base.repeat({warpS, warpR}, false, false);
                           if (A) return f.repeat({blockS, 1}, true, true).replicateBy(rep);
                           return f.replicateBy(rep).repeat({blockS, 1}, true, true);
                       }
                       Fragment f = base.repeat({warpR, warpS}, false, true);
                       if (A) return f.repeat({1, blockS}, true, true).replicateBy(rep);
                       return f.replicateBy(rep).repeat({1, blockS}, true, true);
                   }});
    out.push_back({"make_mfma_load_base_layout",
                   {dtype, matrix, {"k_dim", ParamKind::Int, "16", "MFMA K (4, 16, 32 or 64)"}},
                   "one wavefront's MFMA operand tile (64 lanes)",
                   [isA](const BuiltinArgs& a) -> Mapping {
                       return mfmaLoadBase(a.dtypeBits("dtype"), isA(a), a.integer("k_dim"));
                   }});
    out.push_back({"make_mfma_c_fragment",
                   {},
                   "MFMA 16x16 accumulator atom: thread j + 16 * (i // 4), local i % 4",
                   [](const BuiltinArgs&) -> Mapping {
                       return frag({16, 16}, floordiv(I, 4) * 16 + J, floormod(I, 4));
                   }});
    for (const char* name :
         {"make_fully_replicated_fragment", "make_fully_replicated_layout_fragment"})
        out.push_back({name,
                       {{"shape", ParamKind::Shape, std::nullopt, "buffer shape"},
                        {"threads", ParamKind::Int, std::nullopt, "threads holding every element"}},
                       "every thread holds every element (thread = _rep, row-major index)",
                       [](const BuiltinArgs& a) -> Mapping {
                           return Fragment::fullyReplicated(a.shape("shape"), a.integer("threads"));
                       }});
}

} // namespace ts::builtin
