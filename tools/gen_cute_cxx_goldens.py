# SPDX-License-Identifier: Apache-2.0
"""CuTe C++ prints and their cells, from CuTe C++ itself compiled on the host with g++.

    python3 -m venv /tmp/venv-cute && /tmp/venv-cute/bin/pip install nvidia-cutlass nvidia-cuda-cccl
    /tmp/venv-cute/bin/python tools/gen_cute_cxx_goldens.py [--out tests/data/goldens/cute_cxx.json.gz]
                                                            [--cxx g++] [--seed 20261204]

Compiles one program (no GPU, no nvcc: CuTe's layouts are host code) against the CuTe headers of
the nvidia-cutlass wheel (cutlass_library/source/include) and the CCCL headers of the
nvidia-cuda-cccl wheel, runs it, and writes one golden case per print. The spec is what
`cute::print` writes, verbatim; the cells come from CuTe:
- Hopper GMMA shared-memory atoms (`GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`, printed
  `Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)`) and `tile_to_shape` of them: the element
  offset CuTe addresses, `&tensor(m, n) - base` for a tensor made on a shared-memory pointer
  (`make_tensor(make_smem_ptr(base), layout)`, base aligned to 1024 bytes), so the swizzle acts on
  byte addresses exactly as a kernel's would;
- identity layouts with nested basis strides (`make_identity_layout` of a nested shape) and layouts
  with 64-bit strides past 2^31: `layout(m, n)`, a nested coordinate flattened in order;
- TiledCopies (`make_tiled_copy`, `make_tiled_copy_A/B/C` of TiledMMAs, one with a permutation):
  `get_slice(tid).partition_D(make_identity_tensor(tile))` (`partition_S` for a store, whose
  reference layout, the one TiledLayout_TV is written in, is its source), register r the r-th
  element;
- TiledMMAs whose PermutationMNK is the tile itself, and Hopper GMMA atoms: `partition_C/A`.
`unread` lists real prints Tilescope does not read, with the words its refusal must contain.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from importlib import metadata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402
from cute_golden_io import dump_family, fragment_table  # noqa: E402

PROGRAM = r"""
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm90.hpp>
#include <cstdio>
using namespace cute;

alignas(1024) static unsigned char smem[1 << 18];

template <class L>
void print_case(const char* name, const char* kind, L const& l) {
  printf("CASE %s %s\n", name, kind);
  print(l);
  printf("\nEND_PRINT\n");
}

// Element offsets a kernel addresses through a tensor on a shared-memory pointer.
template <class T, class L>
void smem_case(const char* name, L const& l) {
  print_case(name, "layout", l);
  T* base = reinterpret_cast<T*>(smem);
  auto t = make_tensor(make_smem_ptr(base), l);
  printf("GRID %d %d\n", int(size<0>(l)), int(size<1>(l)));
  for (int m = 0; m < int(size<0>(l)); ++m)
    for (int n = 0; n < int(size<1>(l)); ++n)
      printf("%d %d %ld\n", m, n, long(&t(m, n) - make_smem_ptr(base).get()));
}

template <class T>
void gmma_atoms(const char* tname) {
  char name[128];
#define ATOM(K)                                                                     \
  {                                                                                 \
    using A = GMMA::Layout_##K##_Atom<T>;                                           \
    snprintf(name, sizeof name, "cxx_gmma_%s_%s", #K, tname);                       \
    smem_case<T>(name, A{});                                                        \
    snprintf(name, sizeof name, "cxx_gmma_%s_%s_tiled", #K, tname);                 \
    auto s = make_shape(Int<2 * size<0>(A{})>{}, Int<2 * size<1>(A{})>{});         \
    smem_case<T>(name, tile_to_shape(A{}, s));                                      \
    snprintf(name, sizeof name, "cxx_gmma_%s_%s_tiled_colfirst", #K, tname);        \
    smem_case<T>(name, tile_to_shape(A{}, s, Step<_2, _1>{}));                      \
  }
  ATOM(K_INTER) ATOM(K_SW32) ATOM(K_SW64) ATOM(K_SW128)
  ATOM(MN_INTER) ATOM(MN_SW32) ATOM(MN_SW64) ATOM(MN_SW128)
#undef ATOM
}

// layout(m, n) (or layout(m)) printed, a nested coordinate as CuTe prints it.
template <class L>
void coord_case(const char* name, L const& l) {
  print_case(name, "layout", l);
  if constexpr (L::rank == 1) {
    printf("GRID %d\n", int(size(l)));
    for (int m = 0; m < int(size(l)); ++m) { printf("%d : ", m); print(l(m)); printf("\n"); }
  } else if constexpr (L::rank == 2) {
    printf("GRID %d %d\n", int(size<0>(l)), int(size<1>(l)));
    for (int m = 0; m < int(size<0>(l)); ++m)
      for (int n = 0; n < int(size<1>(l)); ++n) { printf("%d %d : ", m, n); print(l(m, n)); printf("\n"); }
  } else {
    printf("GRID %d %d %d\n", int(size<0>(l)), int(size<1>(l)), int(size<2>(l)));
    for (int m = 0; m < int(size<0>(l)); ++m)
      for (int n = 0; n < int(size<1>(l)); ++n)
        for (int k = 0; k < int(size<2>(l)); ++k) { printf("%d %d %d : ", m, n, k); print(l(m, n, k)); printf("\n"); }
  }
}

// What each thread holds: get_slice(tid).partition_X of an identity tensor over the tile.
template <class Tiled, class Part>
void frag_case(const char* name, Tiled const& tiled, Part part, int rows, int cols, int threads) {
  print_case(name, "fragment", tiled);
  printf("FRAG %d %d\n", rows, cols);
  for (int tid = 0; tid < threads; ++tid) {
    auto frag = part(tiled.get_slice(tid), make_identity_tensor(make_shape(rows, cols)));
    for (int r = 0; r < int(size(frag)); ++r) {
      auto c = frag(r);
      printf("%d %d %d %d\n", int(get<0>(c)), int(get<1>(c)), tid, r);
    }
  }
}

template <class Tiled>
void mma_cases(const char* base, Tiled const& tiled, const char* ops) {
  char name[160];
  const int M = tile_size<0>(tiled), N = tile_size<1>(tiled), K = tile_size<2>(tiled);
  const int T = size(tiled);
  for (const char* o = ops; *o; ++o) {
    snprintf(name, sizeof name, "%s_%c", base, *o);
    if (*o == 'C') frag_case(name, tiled, [](auto s, auto t) { return s.partition_C(t); }, M, N, T);
    if (*o == 'A') frag_case(name, tiled, [](auto s, auto t) { return s.partition_A(t); }, M, K, T);
    if (*o == 'B') frag_case(name, tiled, [](auto s, auto t) { return s.partition_B(t); }, N, K, T);
  }
}

// A TiledCopy's TiledLayout_TV is its atom's reference side: the destination registers of a
// load (ldmatrix, universal copies), the source registers of a store (stmatrix, Ref = Src).
template <class TC>
void copy_case(const char* name, TC const& tc) {
  const int rows = int(size<0>(typename TC::Tiler_MN{})), cols = int(size<1>(typename TC::Tiler_MN{}));
  if constexpr (std::is_same_v<typename TC::ValLayoutRef, typename TC::ValLayoutDst>)
    frag_case(name, tc, [](auto s, auto t) { return s.partition_D(t); }, rows, cols, int(size(tc)));
  else
    frag_case(name, tc, [](auto s, auto t) { return s.partition_S(t); }, rows, cols, int(size(tc)));
}

int main() {
  gmma_atoms<uint4_t>("u4");
  gmma_atoms<uint8_t>("u8");
  gmma_atoms<half_t>("half");
  gmma_atoms<float>("float");
  gmma_atoms<double>("double");
  coord_case("cxx_identity_nested_0", make_identity_layout(make_shape(make_shape(4, 2), 8)));
  coord_case("cxx_identity_nested_1", make_identity_layout(make_shape(4, make_shape(2, 4))));
  coord_case("cxx_identity_nested_2", make_identity_layout(make_shape(make_shape(2, 2), make_shape(2, 4))));
  coord_case("cxx_identity_nested_3", make_identity_layout(make_shape(make_shape(2, 4), make_shape(2, 2), 2)));
  coord_case("cxx_identity_static", make_identity_layout(Shape<Shape<_4, _2>, _8>{}));
  coord_case("cxx_basis_nested_partial", make_layout(make_shape(4, 8), make_stride(E<0, 1>{}, E<1>{} * 2)));
  coord_case("cxx_basis_nested_deep", make_layout(make_shape(4, 2, 2), make_stride(E<1, 0>{}, E<1, 1>{}, E<0>{})));
@LAYOUTS@
  auto sm80 = SM80_16x8x16_F32F16F16F32_TN{};
  auto mma = make_tiled_mma(sm80, Layout<Shape<_2, _2, _1>>{});
  auto mma_perm = make_tiled_mma(sm80, Layout<Shape<_2, _2, _1>>{}, Tile<_32, Layout<Shape<_4, _4, _2>, Stride<_1, _8, _4>>, _16>{});
  auto mma_same = make_tiled_mma(sm80, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _16, _16>{});
  auto mma_wide = make_tiled_mma(sm80, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
  mma_cases("cxx_tiled_mma_perm_same", mma_same, "CAB");
  // Permutations wider than the atoms: the atoms repeat over the tile, in further registers.
  mma_cases("cxx_tiled_mma_wide_n", mma_wide, "CAB");
  mma_cases("cxx_tiled_mma_wide_mnk", make_tiled_mma(sm80, Layout<Shape<_2, _2, _1>>{}, Tile<_64, _32, _32>{}), "CAB");
  mma_cases("cxx_tiled_mma_wide_m_1x4", make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_1, _4, _1>>{}, Tile<_32, _32, _8>{}), "CAB");
  mma_cases("cxx_tiled_mma_wide_sm70", make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _4>{}), "CAB");
  copy_case("cxx_tiled_copy_C_universal", make_tiled_copy_C(Copy_Atom<UniversalCopy<float>, float>{}, mma));
  copy_case("cxx_tiled_copy_A_ldsm_x4", make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma));
  copy_case("cxx_tiled_copy_B_ldsm_x2", make_tiled_copy_B(Copy_Atom<SM75_U32x2_LDSM_N, half_t>{}, mma));
  copy_case("cxx_tiled_copy_C_permuted_mma", make_tiled_copy_C(Copy_Atom<UniversalCopy<float>, float>{}, mma_perm));
  copy_case("cxx_tiled_copy_A_permuted_mma", make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma_perm));
  copy_case("cxx_tiled_copy_C_wide_mma", make_tiled_copy_C(Copy_Atom<UniversalCopy<float>, float>{}, mma_wide));
  copy_case("cxx_tiled_copy_B_ldsm_t_wide_mma", make_tiled_copy_B(Copy_Atom<SM75_U16x8_LDSM_T, half_t>{}, mma_wide));
  copy_case("cxx_tiled_copy_C_stsm_wide_mma", make_tiled_copy_C(Copy_Atom<SM90_U32x4_STSM_N, half_t>{}, mma_wide));
  mma_cases("cxx_mma_sm80_f64_8x8x4", make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}), "CAB");
@COPIES@
  auto gmma = make_tiled_mma(SM90_64x64x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{});
  mma_cases("cxx_gmma_64x64x16_ss", gmma, "C");
  auto gmma_rs = make_tiled_mma(SM90_64x32x16_F16F16F16_RS<GMMA::Major::K, GMMA::Major::K>{});
  mma_cases("cxx_gmma_64x32x16_rs", gmma_rs, "CA");
  auto gmma2 = make_tiled_mma(SM90_64x16x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2, _1, _1>>{});
  mma_cases("cxx_tiled_gmma_64x16x16_2x1x1", gmma2, "C");
  mma_cases("cxx_tiled_gmma_64x8x16_2x2x1", make_tiled_mma(SM90_64x8x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{}, Layout<Shape<_2, _2, _1>>{}), "C");
  // Not read: each print below is refused by name.
  print_case("cxx_copy_atom", "unread", Copy_Atom<SM75_U32x4_LDSM_N, half_t>{});
  print_case("cxx_gmem_tensor", "unread", make_tensor(make_gmem_ptr(reinterpret_cast<half_t*>(smem)), make_layout(make_shape(4, 8))));
  print_case("cxx_smem_tensor", "unread", make_tensor(make_smem_ptr(reinterpret_cast<half_t*>(smem)), GMMA::Layout_K_SW128_Atom<half_t>{}));
  print_case("cxx_identity_tensor", "unread", make_identity_tensor(make_shape(4, 8)));
  print_case("cxx_negative_stride", "unread", make_layout(make_shape(4, 2), make_stride(1, -8)));
  print_case("cxx_negative_static_stride", "unread", Layout<Shape<_4, _2>, Stride<_1, Int<-8>>>{});
  print_case("cxx_tiled_mma_permuted", "unread", mma_perm);
  print_case("cxx_tiled_mma_not_multiple", "unread", make_tiled_mma(sm80, Layout<Shape<_2, _2, _1>>{}, Tile<_48, _16, _16>{}));
  return 0;
}
"""

UNREAD_EXPECT = {
    "cxx_copy_atom": "CuTe's print of a Copy_Atom",
    "cxx_gmem_tensor": "CuTe's print of a Tensor",
    "cxx_smem_tensor": "CuTe's print of a Tensor",
    "cxx_identity_tensor": "CuTe's print of a Tensor",
    "cxx_negative_stride": "negative stride -8",
    "cxx_negative_static_stride": "negative stride -8",
    "cxx_tiled_mma_permuted": "print of a TiledMMA with PermutationMNK",
    "cxx_tiled_mma_not_multiple": "print of a TiledMMA with PermutationMNK",
}


def random_layouts(rng, count):
    """Dynamic layouts with 64-bit strides, some past 2^31."""
    out = []
    for k in range(count):
        rank = rng.choice([1, 2, 2, 3])
        shape = [rng.choice([2, 3, 4, 8]) for _ in range(rank)]
        stride = [rng.choice([1, 2, 64, 1 << 31, (1 << 33) + 5, 3 << 40]) for _ in range(rank)]
        sh = ", ".join(str(s) for s in shape)
        st = ", ".join(f"int64_t({s})" for s in stride)
        out.append(f'  coord_case("cxx_wide_stride_{k:02d}", make_layout(make_shape({sh}), make_stride({st})));')
    return out


def random_copies(rng, count):
    out = []
    for k in range(count):
        tm, tn = rng.choice([(8, 4), (4, 8), (16, 2), (32, 4), (8, 8), (32, 1)])
        vm, vn = rng.choice([(1, 4), (4, 1), (2, 2), (1, 1), (1, 8)])
        thr = f"Layout<Shape<_{tm}, _{tn}>, Stride<_{tn}, _1>>{{}}" if rng.random() < 0.5 else \
            f"Layout<Shape<_{tm}, _{tn}>>{{}}"
        val = f"Layout<Shape<_{vm}, _{vn}>>{{}}" if rng.random() < 0.5 else \
            f"Layout<Shape<_{vm}, _{vn}>, Stride<_{vn}, _1>>{{}}"
        atom = rng.choice(["Copy_Atom<UniversalCopy<half_t>, half_t>{}", "Copy_Atom<UniversalCopy<float>, float>{}"])
        out.append(f'  copy_case("cxx_tiled_copy_{k:02d}", make_tiled_copy({atom}, {thr}, {val}));')
    return out


def run_program(cxx, seed):
    import cutlass_library
    root = os.path.dirname(cutlass_library.__file__)
    sp = os.path.dirname(root)
    includes = [os.path.join(root, "source/include"), os.path.join(sp, "nvidia/cu13/include"),
                os.path.join(sp, "nvidia/cu13/include/cccl")]
    rng = random.Random(seed)
    src = PROGRAM.replace("@LAYOUTS@", "\n".join(random_layouts(rng, 12))).replace(
        "@COPIES@", "\n".join(random_copies(rng, 16)))
    with tempfile.TemporaryDirectory() as d:
        cpp, exe = os.path.join(d, "cute_prints.cpp"), os.path.join(d, "cute_prints")
        with open(cpp, "w") as f:
            f.write(src)
        subprocess.run([cxx, "-std=c++17", "-O1", "-w", *[f"-I{i}" for i in includes], cpp, "-o", exe], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    version = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return out, version


def parse(out):
    items, lines = [], iter(out.splitlines())
    cur = None
    for line in lines:
        if line.startswith("CASE "):
            _, name, kind = line.split()
            text = []
            for p in lines:
                if p == "END_PRINT":
                    break
                text.append(p.rstrip())
            cur = {"name": name, "kind": kind, "print": "\n".join(t for t in text if t.strip()), "rows": []}
            items.append(cur)
        elif line.startswith("GRID ") or line.startswith("FRAG "):
            cur["grid"] = [int(x) for x in line.split()[1:]]
        elif line.strip():
            cur["rows"].append(line)
    return items


def table_of(item):
    if item["kind"] == "fragment":
        rows, cols = item["grid"]
        owners = {}
        for r in item["rows"]:
            m, n, tid, reg = (int(x) for x in r.split())
            owners.setdefault((m, n), []).append((tid, reg))
        return fragment_table(owners, rows, cols)
    grid = item["grid"]
    cells = []
    for r in item["rows"]:
        if ":" in r:
            left, right = r.split(":", 1)
            idx = [int(x) for x in left.split()]
            out = [int(x) for x in re.findall(r"-?\d+", right)]
        else:
            m, n, off = (int(x) for x in r.split())
            idx, out = [m, n], [off]
        cells.append({"in": idx, "out": out})
    rank = len(cells[0]["out"])
    return {"kind": "layout", "input_shape": grid,
            "output_shape": [max(c["out"][k] for c in cells) + 1 for k in range(rank)], "cells": cells}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/goldens/cute_cxx.json.gz")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--seed", type=int, default=20261204)
    args = ap.parse_args(argv)
    out, compiler = run_program(args.cxx, args.seed)
    version = metadata.version("nvidia-cutlass")
    source = f"CuTe C++ (nvidia-cutlass {version} headers, {compiler})"
    cases, unread = [], []
    for item in parse(out):
        if item["kind"] == "unread":
            unread.append({"name": item["name"], "spec": item["print"], "expect": UNREAD_EXPECT[item["name"]]})
            continue
        text = item["print"]
        spec = text
        name = item["name"]
        # The operands of a TiledMMA print: only their own TV line kept (Tilescope shows C otherwise).
        if name.endswith("_A") or name.endswith("_B"):
            op = name[-1]
            drop = [l for l in ("LayoutA_TV", "LayoutB_TV", "LayoutC_TV") if l != f"Layout{op}_TV"]
            spec = "\n".join(l for l in text.splitlines() if not any(d in l for d in drop))
        cases.append({"name": name, "spec": spec, "source": source, "table": table_of(item)})
    header = {"versions": {"nvidia-cutlass": version}, "compiler": compiler,
              "command": f"python tools/gen_cute_cxx_goldens.py --seed {args.seed}",
              "generator": "tools/gen_cute_cxx_goldens.py",
              "family": golden_file.family_of(args.out),
              "cell_format": "tilescope-cli table (product.md); fragments: threads of an element in increasing "
                             "order, local slot = the register's index in the thread's partition",
              "unread": unread, "errors": []}
    dump_family(args.out, header, cases)
    print(f"{args.out}: {len(cases)} cases, {len(unread)} unread prints")


if __name__ == "__main__":
    sys.exit(main())
