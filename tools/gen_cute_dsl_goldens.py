# SPDX-License-Identifier: Apache-2.0
"""CuTe DSL prints (Python `cutlass.cute`) and their cells, from the CuTe DSL itself, on the CPU.

    python3 -m venv /tmp/venv-cute && /tmp/venv-cute/bin/pip install nvidia-cutlass-dsl
    /tmp/venv-cute/bin/python tools/gen_cute_dsl_goldens.py [--out tests/data/goldens/cute_dsl.json.gz]
                                                            [--seed 20261203] [--count 60]

Everything runs inside one `@cute.jit` function traced on the CPU (no GPU: the layouts are static,
so the DSL computes them while tracing). Each object is printed with Python's `print`, as a user
would in a kernel, and the text captured is the case's spec, verbatim. The cells come from the DSL:
- layouts and composed (swizzled) layouts: `layout(coord)` at every coordinate of the grid (one
  1-D coordinate per top-level mode, which CuTe splits colexicographically); a basis-stride layout
  gives a (nested) coordinate, flattened in order;
- MMA atoms, TiledMMAs: `tiled_mma.get_slice(tid).partition_C/A/B(make_identity_tensor(tile))`
  for every thread, register r being the r-th element of the thread's fragment (an atom alone is
  `make_tiled_mma(op)`); the threads that hold an element are its replicas (A is held by every
  atom along N, B along M, C along K);
- TiledCopies: `tiled_copy.get_slice(tid).partition_D(make_identity_tensor(tiler))` (the layout
  a TiledCopy prints, `TV Layout tiled`, is its destination's for a load; for a store, stmatrix,
  it is the source's, and `partition_S` gives the cells).
Random cases are drawn with `--seed`; `unread` lists DSL prints Tilescope does not read, with the
words its refusal must contain (checked by core_tests, CuteDslGoldens.*).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import json
import os
import platform
import random
import sys
from importlib import metadata

import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import warp, warpgroup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402
from cute_golden_io import dump_family, fragment_table  # noqa: E402

DSL_VERSION = metadata.version("nvidia-cutlass-dsl")
SOURCE = f"CuTe DSL (nvidia-cutlass-dsl {DSL_VERSION}, CPU)"


def printed(obj):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(obj)
    return buf.getvalue().rstrip("\n")


def flat(v):
    if isinstance(v, tuple):
        return [x for e in v for x in flat(e)]
    return [int(v)]


def size_of(shape):
    if isinstance(shape, tuple):
        n = 1
        for s in shape:
            n *= size_of(s)
        return n
    return shape


def layout_table(fn, grid):
    cells = []
    for idx in itertools.product(*[range(g) for g in grid]):
        out = flat(fn(idx if len(grid) > 1 else idx[0]))
        cells.append({"in": list(idx), "out": out})
    rank = len(cells[0]["out"])
    return {"kind": "layout", "input_shape": list(grid),
            "output_shape": [max(c["out"][k] for c in cells) + 1 for k in range(rank)], "cells": cells}


def copy_partition(store):
    """The side of a TiledCopy its `TV Layout tiled` describes (the atom's reference layout): the
    destination registers of a load (ldmatrix, universal copies), the source registers of a store
    (stmatrix)."""
    if store:
        return lambda s, t: s.partition_S(t)
    return lambda s, t: s.partition_D(t)


def partition_owners(tiled, nthreads, part, rows, cols):
    owners = {}
    ident = cute.make_identity_tensor((rows, cols))
    for tid in range(nthreads):
        frag = part(tiled.get_slice(tid), ident)
        for r in range(cute.size(frag)):
            m, n = flat(frag[r])
            owners.setdefault((m, n), []).append((tid, r))
    missing = [(m, n) for m in range(rows) for n in range(cols) if (m, n) not in owners]
    if missing:
        raise ValueError(f"{len(missing)} elements held by no thread")
    return owners


# ---------------------------------------------------------------------------------------------
# Random shapes


def random_mode(rng, depth):
    if depth < 2 and rng.random() < 0.3:
        return tuple(random_mode(rng, depth + 1) for _ in range(rng.randint(2, 3)))
    return rng.choice([1, 2, 2, 3, 4, 4, 5, 8])


def random_strides(rng, shape, big):
    if isinstance(shape, tuple):
        return tuple(random_strides(rng, s, big) for s in shape)
    r = rng.random()
    if r < 0.1:
        return 0
    if big and r < 0.25:
        return rng.choice([1 << 31, (1 << 32) + 7, 3 << 33, 1 << 40])
    return rng.choice([1, 2, 3, 4, 7, 8, 16, 32, 64, 96, 128])


def compact_strides(shape, order_rng):
    """Column- or row-major compact strides for a rank-2 shape of plain ints."""
    m, n = shape
    return (n, 1) if order_rng.random() < 0.5 else (1, m)


# ---------------------------------------------------------------------------------------------


def build(seed, count):
    rng = random.Random(seed)
    cases, unread = [], []

    def case(name, spec, table, note):
        cases.append({"name": name, "spec": spec, "source": SOURCE, "note": note, "table": table})

    # The DSL rewrites the loops of a @cute.jit function into IR loops; the cases are built by
    # plain Python called from inside the traced function instead.
    def body():
        # Layouts: nested shapes, zero strides, strides past 2^31.
        for k in range(count):
            rank = rng.choice([1, 1, 2, 2, 2, 3])
            shape = tuple(random_mode(rng, 1) for _ in range(rank))
            stride = random_strides(rng, shape, big=k % 4 == 3)
            lay = cute.make_layout(shape if rank > 1 else shape[0], stride=stride if rank > 1 else stride[0])
            # A rank-1 draw whose mode is a tuple makes a layout of that tuple's rank.
            top = shape if rank > 1 or not isinstance(shape[0], tuple) else shape[0]
            grid = [size_of(s) for s in top]
            case(f"dsl_layout_{k:03d}", printed(lay), layout_table(lambda c: lay(c), grid),
                 f"cute.make_layout({shape if rank > 1 else shape[0]}, stride={stride if rank > 1 else stride[0]})")
        # Identity layouts: basis strides, nested ones (1@0@1) for nested shapes.
        for k, shape in enumerate([(8, 4), ((4, 2), 8), (4, (2, 4)), ((2, 2), (2, 4)), (4, 2, 2),
                                   ((2, 4), (2, 2), 2)]):
            lay = cute.make_identity_layout(shape)
            case(f"dsl_identity_{k}", printed(lay), layout_table(lambda c: lay(c), [size_of(s) for s in shape]),
                 f"cute.make_identity_layout({shape})")
        # Swizzles composed with a layout, positive and negative shifts, with offsets.
        for k in range(count):
            b = rng.randint(1, 3)
            s = rng.randint(b, b + 3) * rng.choice([1, 1, -1])
            m = rng.randint(0, 4)
            rows, cols = rng.choice([(8, 64), (16, 32), (32, 32), (8, 128), (64, 16), (16, 16)])
            if rng.random() < 0.25:
                shape, stride = ((rows // 2, 2), cols), ((cols, rows * cols // 2), 1)
            else:
                shape = (rows, cols)
                stride = compact_strides(shape, rng)
            off = rng.choice([0, 0, 0, 8, 64])
            comp = cute.make_composed_layout(cute.make_swizzle(b, m, s), off,
                                             cute.make_layout(shape, stride=stride))
            case(f"dsl_swizzle_{k:03d}", printed(comp), layout_table(lambda c: comp(c), [rows, cols]),
                 f"cute.make_composed_layout(cute.make_swizzle({b}, {m}, {s}), {off}, "
                 f"cute.make_layout({shape}, stride={stride}))")
        # Hopper GMMA shared-memory atoms as the DSL makes them (in elements), and tiled to a shape.
        kinds = [warpgroup.SmemLayoutAtomKind.K_INTER, warpgroup.SmemLayoutAtomKind.K_SW32,
                 warpgroup.SmemLayoutAtomKind.K_SW64, warpgroup.SmemLayoutAtomKind.K_SW128,
                 warpgroup.SmemLayoutAtomKind.MN_INTER, warpgroup.SmemLayoutAtomKind.MN_SW32,
                 warpgroup.SmemLayoutAtomKind.MN_SW64, warpgroup.SmemLayoutAtomKind.MN_SW128]
        for kind in kinds:
            for dt in (cutlass.Float16, cutlass.Float32, cutlass.Float8E4M3FN):
                atom = warpgroup.make_smem_layout_atom(kind, dt)
                name = f"dsl_smem_{kind.name}_{dt.__name__}"
                grid = [cute.size(atom, mode=[0]), cute.size(atom, mode=[1])]
                case(name, printed(atom), layout_table(lambda c: atom(c), grid),
                     f"warpgroup.make_smem_layout_atom({kind}, {dt.__name__})")
                tiled = cute.tile_to_shape(atom, (grid[0] * 2, grid[1] * 2), (0, 1))
                case(name + "_tiled", printed(tiled),
                     layout_table(lambda c: tiled(c), [grid[0] * 2, grid[1] * 2]),
                     f"cute.tile_to_shape(make_smem_layout_atom({kind}, {dt.__name__}), "
                     f"({grid[0] * 2}, {grid[1] * 2}), (0, 1))")
        # MMA atoms and TiledMMAs: C, A, B.
        ops = [("f16_f32_16x8x16", lambda: warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16))),
               ("f16_f16_16x8x16", lambda: warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float16, (16, 8, 16))),
               ("bf16_f32_16x8x8", lambda: warp.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (16, 8, 8))),
               ("tf32_f32_16x8x8", lambda: warp.MmaTF32Op((16, 8, 8))),
               ("fp8_f32_16x8x32", lambda: warp.MmaFP8Op(cutlass.Float8E4M3FN, cutlass.Float32, (16, 8, 32)))]
        atom_layouts = [(1, 1, 1), (2, 2, 1), (2, 1, 1), (1, 2, 1), (4, 1, 1), (1, 4, 1), (2, 1, 2), (1, 2, 2),
                        (2, 2, 2)]
        for opname, mk in ops:
            try:
                op = mk()
            except Exception as e:  # an op this DSL version does not build on the CPU
                print(f"skipped {opname}: {e}", file=sys.stderr)
                continue
            for al in atom_layouts:
                if al != (1, 1, 1) and rng.random() < 0.4:
                    continue
                tiled = cute.make_tiled_mma(op, cute.make_layout(al))
                text = printed(cute.make_mma_atom(op) if al == (1, 1, 1) else tiled)
                lines = text.splitlines()
                keep = {"C": text,
                        "A": "\n".join(l for l in lines if "TV Layout B" not in l and "TV Layout C" not in l),
                        "B": "\n".join(l for l in lines if "TV Layout A" not in l and "TV Layout C" not in l)}
                M, N, K = (tiled.get_tile_size(i) for i in range(3))
                dims = {"C": (M, N), "A": (M, K), "B": (N, K)}
                part = {"C": lambda s, t: s.partition_C(t), "A": lambda s, t: s.partition_A(t),
                        "B": lambda s, t: s.partition_B(t)}
                base = f"dsl_mma_{opname}" if al == (1, 1, 1) else f"dsl_tiled_mma_{opname}_{al[0]}x{al[1]}x{al[2]}"
                for opnd in "CAB":
                    rows, cols = dims[opnd]
                    owners = partition_owners(tiled, cute.size(tiled), part[opnd], rows, cols)
                    case(f"{base}_{opnd}", keep[opnd], fragment_table(owners, rows, cols),
                         ("print(cute.make_mma_atom(op))" if al == (1, 1, 1) else
                          f"print(cute.make_tiled_mma(op, cute.make_layout({al})))")
                         + f"; cells from get_slice(tid).partition_{opnd}"
                         + ("" if opnd == "C" else f", only TV Layout {opnd} kept"))
            # A TiledMMA whose Permutation MNK is a whole-tile identity (printed as layouts).
            tiled = cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)))
            M, N, K = (tiled.get_tile_size(i) for i in range(3))
            permuted = cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)), permutation_mnk=(M, N, K))
            owners = partition_owners(permuted, cute.size(permuted), lambda s, t: s.partition_C(t), M, N)
            case(f"dsl_tiled_mma_{opname}_perm_identity_C", printed(permuted), fragment_table(owners, M, N),
                 f"print(cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)), permutation_mnk=({M}, {N}, {K})))")
            # A permutation wider than the atoms: they repeat over it, in further registers.
            wide = cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)), permutation_mnk=(2 * M, 2 * N, 2 * K))
            for opnd, (rows, cols) in (("C", (2 * M, 2 * N)), ("A", (2 * M, 2 * K)), ("B", (2 * N, 2 * K))):
                text = printed(wide)
                lines = text.splitlines()
                drop = [l for l in ("TV Layout A", "TV Layout B", "TV Layout C") if l != f"TV Layout {opnd}"]
                spec = text if opnd == "C" else "\n".join(l for l in lines if not any(d in l for d in drop))
                part = {"C": lambda s, t: s.partition_C(t), "A": lambda s, t: s.partition_A(t),
                        "B": lambda s, t: s.partition_B(t)}[opnd]
                owners = partition_owners(wide, cute.size(wide), part, rows, cols)
                case(f"dsl_tiled_mma_{opname}_perm_wide_{opnd}", spec, fragment_table(owners, rows, cols),
                     f"print(cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)), permutation_mnk=({2 * M}, "
                     f"{2 * N}, {2 * K}))); cells from get_slice(tid).partition_{opnd}")
            # A permutation that reorders rows: not read (refused by name).
            perm = cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)),
                                       permutation_mnk=(M, cute.make_layout((4, 4, N // 16), stride=(1, 8, 4)), K))
            unread.append({"name": f"dsl_tiled_mma_{opname}_permuted", "spec": printed(perm),
                           "expect": "print of a TiledMMA with PermutationMNK"})
            # TiledCopies of the TiledMMA's operands and accumulator (universal copy; ldmatrix for A/B).
            for cname, catom, which in [
                    ("universal_C", cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32), "C"),
                    ("universal_A", cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16), "A"),
                    ("ldmatrix_x4_A", cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 4), cutlass.Float16), "A"),
                    ("ldmatrix_x2_B", cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 2), cutlass.Float16), "B"),
                    ("ldmatrix_x4_B", cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 4), cutlass.Float16), "B"),
                    ("ldmatrix_t_x2_B", cute.make_copy_atom(warp.LdMatrix8x8x16bOp(True, 2), cutlass.Float16), "B"),
                    ("stmatrix_x4_C", cute.make_copy_atom(warp.StMatrix8x8x16bOp(False, 4), cutlass.Float16), "C"),
                    ("stmatrix_x2_C", cute.make_copy_atom(warp.StMatrix8x8x16bOp(False, 2), cutlass.Float16), "C")]:
                if opname not in ("f16_f32_16x8x16", "bf16_f32_16x8x8"):
                    continue
                for al in [(2, 2, 1), (1, 4, 1), (2, 1, 2), "wide"]:
                    if al == "wide":  # a permutation twice the atoms' tile along N
                        tm = cute.make_tiled_mma(op, cute.make_layout((2, 2, 1)), permutation_mnk=(M, 2 * N, K))
                        al = (2, 2, 1, "wideN")
                    else:
                        tm = cute.make_tiled_mma(op, cute.make_layout(al))
                    try:
                        maker = {"A": cute.make_tiled_copy_A, "B": cute.make_tiled_copy_B,
                                 "C": cute.make_tiled_copy_C}[which]
                        tc = maker(catom, tm)
                    except Exception as e:
                        print(f"skipped {cname} {al}: {e}", file=sys.stderr)
                        continue
                    rows, cols = cute.size(tc.tiler_mn[0]), cute.size(tc.tiler_mn[1])
                    owners = partition_owners(tc, cute.size(tc), copy_partition(cname.startswith("stmatrix")),
                                              rows, cols)
                    name = f"dsl_tiled_copy_{opname}_{cname}_{'x'.join(str(a) for a in al)}"
                    try:
                        table = fragment_table(owners, rows, cols)
                    except ValueError as e:
                        # One element in two registers of a thread (the TV layout's value mode
                        # repeats it): no fragment shows that; Tilescope must say so.
                        print(f"{name}: {e}", file=sys.stderr)
                        unread.append({"name": name, "spec": printed(tc),
                                       "expect": "one element in several registers of a thread"})
                        continue
                    case(name, printed(tc), table,
                         f"print(cute.make_tiled_copy_{which}(copy atom, make_tiled_mma(op, {al}))); "
                         "cells from get_slice(tid).partition_D (partition_S for stmatrix)")
        # TiledCopies from thread and value layouts.
        for k in range(count // 2):
            tm, tn = rng.choice([(8, 4), (4, 8), (16, 2), (32, 4), (8, 8), (2, 16), (32, 1)])
            vm, vn = rng.choice([(1, 4), (4, 1), (2, 2), (1, 1), (1, 8), (2, 4)])
            thr = cute.make_layout((tm, tn), stride=(tn, 1) if rng.random() < 0.5 else (1, tm))
            val = cute.make_layout((vm, vn), stride=(vn, 1) if rng.random() < 0.5 else (1, vm))
            dt = rng.choice([cutlass.Float16, cutlass.Float32])
            catom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), dt)
            tc = cute.make_tiled_copy_tv(catom, thr, val)
            rows, cols = cute.size(tc.tiler_mn[0]), cute.size(tc.tiler_mn[1])
            owners = partition_owners(tc, cute.size(tc), copy_partition(False), rows, cols)
            case(f"dsl_tiled_copy_tv_{k:03d}", printed(tc), fragment_table(owners, rows, cols),
                 f"print(cute.make_tiled_copy_tv(copy atom, {printed(thr)}, {printed(val)})); "
                 "cells from get_slice(tid).partition_D")
        # Prints Tilescope does not read: each must be refused by name.
        catom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16, num_bits_per_copy=64)
        unread.append({"name": "dsl_copy_atom_universal", "spec": printed(catom),
                       "expect": "the CuTe DSL's print of a Copy Atom"})
        ld = cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 4), cutlass.Float16)
        unread.append({"name": "dsl_copy_atom_ldmatrix", "spec": printed(ld),
                       "expect": "the CuTe DSL's print of a Copy Atom"})
        unread.append({"name": "dsl_identity_tensor", "spec": printed(cute.make_identity_tensor((8, 4))),
                       "expect": "the CuTe DSL's print of a tensor"})
        ptr = cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem, assumed_align=1024)
        unread.append({"name": "dsl_smem_tensor", "spec": printed(cute.make_tensor(
            ptr, warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.K_SW128, cutlass.Float16))),
            "expect": "the CuTe DSL's print of a tensor"})
        unread.append({"name": "dsl_pointer", "spec": printed(ptr), "expect": "the CuTe DSL's print of a tensor or pointer"})
        # SM100 tcgen05 atoms: one thread issues the MMA for the CTA, the accumulator in tensor
        # memory (the DSL's default arch is sm_100a).
        from cutlass.cute.nvgpu import tcgen05, OperandMajorMode
        umma = tcgen05.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (128, 128, 16), tcgen05.CtaGroup.ONE,
                                    tcgen05.OperandSource.SMEM, OperandMajorMode.K, OperandMajorMode.K)
        unread.append({"name": "dsl_tcgen05_atom", "spec": printed(cute.make_mma_atom(umma)),
                       "expect": "tensor memory"})
        unread.append({"name": "dsl_tcgen05_tiled_mma", "spec": printed(cute.make_tiled_mma(umma)),
                       "expect": "tensor memory"})
        # A TiledCopy whose tiler permutes the tile's rows.
        tv = cute.make_layout((32, 4), stride=(4, 1))
        tc = cute.make_tiled_copy(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float16), tv,
                                  (cute.make_layout((4, 8), stride=(8, 1)), cute.make_layout(4)))
        unread.append({"name": "dsl_tiled_copy_permuted_tiler", "spec": printed(tc),
                       "expect": "that is not the identity on its extent"})

    @cute.jit
    def run():
        body()

    run()

    def dynamic_body(n):
        unread.append({"name": "dsl_dynamic_layout",
                       "spec": printed(cute.make_layout((n, 64), stride=(64, 1))),
                       "expect": "dynamic extents or strides"})
        unread.append({"name": "dsl_dynamic_swizzle",
                       "spec": printed(cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0,
                                                                 cute.make_layout((8, n), stride=(n, 1)))),
                       "expect": "dynamic extents or strides"})

    @cute.jit
    def dynamic(n: cutlass.Int32):
        dynamic_body(n)

    dynamic(cutlass.Int32(64))
    return cases, unread


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/goldens/cute_dsl.json.gz")
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--count", type=int, default=60)
    args = ap.parse_args(argv)
    cases, unread = build(args.seed, args.count)
    header = {"versions": {"nvidia-cutlass-dsl": DSL_VERSION},
              "command": f"python tools/gen_cute_dsl_goldens.py --seed {args.seed} --count {args.count}",
              "generator": "tools/gen_cute_dsl_goldens.py", "python": platform.python_version(),
              "family": golden_file.family_of(args.out),
              "cell_format": "tilescope-cli table (product.md); fragments: threads of an element in increasing "
                             "order, local slot = the register's index in the thread's partition",
              "unread": unread, "errors": []}
    dump_family(args.out, header, cases)
    print(f"{args.out}: {len(cases)} cases, {len(unread)} unread prints")


if __name__ == "__main__":
    sys.exit(main())
