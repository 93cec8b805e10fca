// SPDX-License-Identifier: Apache-2.0
// Register fragments that stand alone: the GEMM atoms (gemm_layouts.cc:36-70) and fully
// replicated fragments. T.gemm's fragments are in builtins_gemm.cpp. Formulas are written in the
// canonical order TileLang prints.
#include "builtins_impl.h"

namespace ts::builtin {

namespace {

const Expr I = var("_i"), J = var("_j");

Fragment frag(Shape s, Expr thread, Expr index) {
    return Fragment(std::move(s), std::move(thread), {std::move(index)});
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

    for (const char* name :
         {"make_fully_replicated_fragment", "make_fully_replicated_layout_fragment"})
        out.push_back({name,
                       {{"shape", ParamKind::Shape, std::nullopt, "buffer shape"},
                        {"threads", ParamKind::Int, std::nullopt, "threads holding every element"}},
                       "every thread holds every element (thread = _rep, row-major index)",
                       [](const BuiltinArgs& a) -> Mapping {
                           return Fragment::fullyReplicated(a.shape("shape"), a.integer("threads"));
                       }});
    // A PartialFragment's combine/copy split says how replicas are reduced, not where elements
    // live: its cells are those of the fully replicated fragment.
    out.push_back(
        {"make_fully_replicated_partial_fragment",
         {{"shape", ParamKind::Shape, std::nullopt, "buffer shape"},
          {"thread_extent", ParamKind::Int, std::nullopt, "threads holding every element"}},
         "PartialFragment: every thread holds a partial value of every element "
         "(cells as make_fully_replicated_layout_fragment)",
         [](const BuiltinArgs& a) -> Mapping {
             return Fragment::fullyReplicated(a.shape("shape"), a.integer("thread_extent"));
         }});
}

} // namespace ts::builtin
