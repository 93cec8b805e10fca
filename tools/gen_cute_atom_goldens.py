# SPDX-License-Identifier: Apache-2.0
"""CuTe MMA_Atom prints and the lanes that hold each element, from CuTe C++ itself.

    .venv/bin/python tools/gen_cute_atom_goldens.py [--out tests/data/goldens/cute_mma_atoms.json.gz]
                                                    [--cxx g++]

Compiles a small C++ program on the host (no GPU, no nvcc: CuTe's layouts are host code) against
the CUTLASS headers TileLang 0.1.15 ships (tilelang/3rdparty/cutlass/include) and the CUDA
headers of the nvidia-cuda wheels in the same environment, runs it, and writes one golden case
per (atom, operand). The program prints each atom as CuTe prints it (`print(MMA_Atom<...>{})`:
ThrID, Shape_MNK, LayoutA_TV, LayoutB_TV, LayoutC_TV) and, for every (thread, value) of each TV
layout, the element it reaches and the lane that thread runs on, `ThrID(thread)`: the SM70
8x8x4 atoms run on a quadpair, so their logical threads 4..7 are lanes 16..19. SM80 and SM75
atoms (an identity ThrID) are the control. TiledMMAs too (`print(make_tiled_mma(atom,
Layout<Shape<AM, AN, AK>>{}))`: ThrLayoutVMNK, PermutationMNK, then the atom), with the lanes of
what each thread holds as a kernel partitions an identity tensor (get_slice(tid).partition_C /
A / B, register r the r-th element of the fragment; tid runs over the values of ThrLayoutVMNK,
the lanes); A is held by every atom along N and B by every atom along M, C by every atom along
K (replicas). (CuTe's get_layoutC_TV numbers threads 0..size-1, which for a thread layout that
does not fill them, such as two SM70 atoms side by side on lanes 0-7 and 16-23, aliases lanes.)

Specs: the whole print (Tilescope shows the accumulator, LayoutC_TV) and the print with only
LayoutA_TV or only LayoutB_TV kept (the operands). Tables: element (m, n) of the C tile (M x N),
the A tile (M x K) or the B tile (N x K), index m + rows * n as CuTe's TV layouts number them;
threads are lanes in increasing order, the register is the value index.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402
import gen_goldens as g  # noqa: E402

ATOMS = [f"SM70_8x8x4_{t}_{m}" for t in ("F16F16F16F16", "F32F16F16F32")
         for m in ("TN", "NT", "NN", "TT")] + [
    "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F16F16F16F16_TN", "SM75_16x8x8_F32F16F16F32_TN"]

# TiledMMAs (make_tiled_mma(atom, Layout<Shape<AM, AN, AK>>{})): print(tiled_mma) and what each
# thread holds as a kernel partitions it (get_slice(tid).partition_C / A / B).
TILED = [("SM70_8x8x4_F32F16F16F32_NT", 2, 2, 1), ("SM70_8x8x4_F16F16F16F16_TN", 1, 2, 1),
         ("SM70_8x8x4_F32F16F16F32_TT", 2, 1, 2), ("SM80_16x8x16_F32F16F16F32_TN", 2, 2, 1),
         ("SM80_16x8x16_F32F16F16F32_TN", 2, 1, 2), ("SM75_16x8x8_F32F16F16F32_TN", 1, 4, 1)]

PROGRAM = r"""
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cstdio>
using namespace cute;

template <class TV, class Thr>
void table(const char* which, TV tv, Thr thr, int rows, int cols) {
  printf("TABLE %s %d %d\n", which, rows, cols);
  for (int t = 0; t < int(size<0>(tv)); ++t)
    for (int v = 0; v < int(size<1>(tv)); ++v)
      printf("%d %d %d\n", int(tv(t, v)), int(thr(t)), v);
}

template <class Op>
void dump(const char* name) {
  using Traits = MMA_Traits<Op>;
  printf("ATOM %s\n", name);
  print(MMA_Atom<Op>{});
  printf("\nEND_PRINT\n");
  auto thr = typename Traits::ThrID{};
  auto mnk = typename Traits::Shape_MNK{};
  const int M = size<0>(mnk), N = size<1>(mnk), K = size<2>(mnk);
  table("C", typename Traits::CLayout{}, thr, M, N);
  table("A", typename Traits::ALayout{}, thr, M, K);
  table("B", typename Traits::BLayout{}, thr, N, K);
}

// What each thread holds, as a kernel partitions it: get_slice(tid).partition_X of an identity
// (coordinate) tensor, register r being the r-th element of the thread's fragment. The tids
// are the values of ThrLayoutVMNK (the lanes), whether or not they fill [0, size).
template <class Tiled, class Part>
void partitioned(const char* which, Tiled tiled, Part part, int rows, int cols) {
  printf("TABLE %s %d %d\n", which, rows, cols);
  auto thr = tiled.get_thr_layout_vmnk();
  for (int i = 0; i < int(size(thr)); ++i) {
    const int tid = int(thr(i));
    auto frag = part(tiled.get_slice(tid), make_identity_tensor(make_shape(rows, cols)));
    for (int r = 0; r < int(size(frag)); ++r) {
      auto c = frag(r);
      printf("%d %d %d\n", int(get<0>(c)) + rows * int(get<1>(c)), tid, r);
    }
  }
}

template <class Op, int AM, int AN, int AK>
void dump_tiled(const char* name) {
  auto tiled = make_tiled_mma(Op{}, Layout<Shape<Int<AM>, Int<AN>, Int<AK>>>{});
  printf("ATOM %s\n", name);
  print(tiled);
  printf("\nEND_PRINT\n");
  const int M = tile_size<0>(tiled), N = tile_size<1>(tiled), K = tile_size<2>(tiled);
  partitioned("C", tiled, [](auto s, auto t) { return s.partition_C(t); }, M, N);
  partitioned("A", tiled, [](auto s, auto t) { return s.partition_A(t); }, M, K);
  partitioned("B", tiled, [](auto s, auto t) { return s.partition_B(t); }, N, K);
}

int main() {
@DUMPS@
  return 0;
}
"""


def site_packages():
    import tilelang
    return os.path.dirname(os.path.dirname(tilelang.__file__))


def run_program(cxx):
    sp = site_packages()
    includes = [os.path.join(sp, "tilelang/3rdparty/cutlass/include"),
                os.path.join(sp, "nvidia/cu13/include"), os.path.join(sp, "nvidia/cu13/include/cccl")]
    dumps = [f'  dump<{a}>("{a}");' for a in ATOMS]
    dumps += [f'  dump_tiled<{a}, {m}, {n}, {k}>("tiled_{a}_{m}x{n}x{k}");' for a, m, n, k in TILED]
    src = PROGRAM.replace("@DUMPS@", "\n".join(dumps))
    with tempfile.TemporaryDirectory() as d:
        cpp, exe = os.path.join(d, "atoms.cpp"), os.path.join(d, "atoms")
        with open(cpp, "w") as f:
            f.write(src)
        subprocess.run([cxx, "-std=c++17", "-O0", "-w", *[f"-I{i}" for i in includes], cpp, "-o", exe],
                       check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    version = subprocess.run([cxx, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    return out, version


def parse(out):
    atoms, cur, lines = {}, None, iter(out.splitlines())
    for line in lines:
        if line.startswith("ATOM "):
            cur = {"print": [], "tables": {}}
            atoms[line.split()[1]] = cur
            for p in lines:
                if p == "END_PRINT":
                    break
                cur["print"].append(p)
        elif line.startswith("TABLE "):
            _, which, rows, cols = line.split()
            cur["tables"][which] = {"rows": int(rows), "cols": int(cols), "entries": []}
            tab = cur["tables"][which]
        elif line.strip():
            tab["entries"].append(tuple(int(x) for x in line.split()))
    return atoms


def fragment_table(t):
    rows, cols = t["rows"], t["cols"]
    owners = {}
    for idx, lane, v in t["entries"]:
        owners.setdefault(idx, []).append((lane, v))
    cells, rep = [], None
    for mi in range(rows):
        for ni in range(cols):
            own = sorted(owners[mi + rows * ni])
            if len({v for _, v in own}) != 1:
                raise RuntimeError(f"element ({mi},{ni}) in several registers: {own}")
            rep = len(own) if rep is None else rep
            assert rep == len(own)
            cells.append({"in": [mi, ni], "threads": [lane for lane, _ in own], "local": own[0][1]})
    return {"kind": "fragment", "input_shape": [rows, cols],
            "thread_extent": max(c for cell in cells for c in cell["threads"]) + 1, "replicate": rep,
            "local_size": max(cell["local"] for cell in cells) + 1, "cells": cells}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/goldens/cute_mma_atoms.json.gz")
    ap.add_argument("--cxx", default="g++")
    args = ap.parse_args(argv)
    out, compiler = run_program(args.cxx)
    cases = []
    for name, atom in parse(out).items():
        atom["print"] = [line.rstrip() for line in atom["print"] if line.strip()]
        text = "\n".join(atom["print"])
        keep = {"C": text,
                "A": "\n".join(l for l in atom["print"] if "LayoutB_TV" not in l and "LayoutC_TV" not in l),
                "B": "\n".join(l for l in atom["print"] if "LayoutA_TV" not in l and "LayoutC_TV" not in l)}
        for op in "CAB":
            cases.append({"name": f"cute_atom_{name}_{op}", "spec": keep[op],
                          "source": f"CuTe C++ (tilelang {g.TL_VERSION}'s CUTLASS headers, {compiler})",
                          "note": (f"print({name}) of make_tiled_mma; threads and registers from "
                                   f"get_slice(tid).partition_{op}"
                                   if name.startswith("tiled_") else
                                   f"print(MMA_Atom<{name}>{{}}); threads are ThrID(thread)")
                                  + ("" if op == "C" else f", only Layout{op}_TV kept"),
                          "table": fragment_table(atom["tables"][op])})
    header = {"tilelang_version": g.TL_VERSION,
              "command": f"python tools/gen_cute_atom_goldens.py --out {args.out}",
              "generator": "tools/gen_cute_atom_goldens.py", "compiler": compiler,
              "family": golden_file.family_of(args.out),
              "cell_format": "tilescope-cli table (product.md); fragments: threads[r] for replica r, local slot",
              "errors": []}
    g.dump_family(args.out, header, cases)
    print(f"{args.out}: {len(cases)} cases")


if __name__ == "__main__":
    sys.exit(main())
