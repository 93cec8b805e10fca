#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate golden tables for CuTe and Triton layout text from the real libraries.

- cute.json.gz: every cell evaluated by pycute (CUTLASS's Python CuTe layout algebra, from the
  nvidia-cutlass wheel) or by TileLang 0.1.15's CuTe bridge (``tilelang.layout.cute``, for basis
  strides and for the text the bridge prints for TileLang layouts). Thread-value layouts are the
  SM80 MMA atoms' A/B/C layouts read from CUTLASS's own header (cute/atom/mma_traits_sm80.hpp in
  the wheel), evaluated by pycute at every (thread, value) and inverted here by brute force.
- gluon.json.gz: Triton's bases (``GluonOpBuilder.to_linear_layout``) for several hundred random
  Gluon layout constructors (tools/gen_gluon_cases.py, seeded), with their text as Gluon users
  write it, and the constructors Triton refuses (its checks, verifiers or assertions).
- triton.json.gz: Triton's own conversions to linear layouts (``GluonOpBuilder.to_linear_layout``,
  CPU only) of blocked, MMA v2/v3, dot-operand and NVMMA shared layouts, printed as Gluon prints
  them, every cell evaluated by Triton's ``LinearLayout.apply``.

Usage (from the repository root; /work/main/.venv has tilelang, nvidia-cutlass and triton):
    .venv/bin/python tools/gen_interop_goldens.py [--out tests/data/goldens] [--only gluon]

The case format is tools/gen_goldens.py's: spec (the CuTe/Triton text), table (the
``tilescope-cli table`` JSON). Fragment cells list the threads of an element in increasing order.
"""
from __future__ import annotations

import argparse
import ast
import itertools
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402
from gen_goldens import dump_family  # noqa: E402

import pycute  # noqa: E402
from pycute import Layout as PyLayout, Swizzle as PySwizzle, ComposedLayout as PyComposed  # noqa: E402


def version(pkg):
    from importlib.metadata import version as v
    return v(pkg)


# ---------------------------------------------------------------------------------------------
# CuTe
# ---------------------------------------------------------------------------------------------

def cute_tuple(text):
    """CuTe/pycute tuple text (`((_2,4),8)`) -> Python nested tuples."""
    # A trailing comma in every tuple keeps CuTe's one-mode tuples `((2,2))` tuples in Python.
    return ast.literal_eval(re.sub(r"_(\d)", r"\1", text).replace(")", ",)").replace(",,", ","))


def split_layout(text):
    shape, stride = text.split(":")
    return cute_tuple(shape), cute_tuple(stride)


def top_modes(shape):
    return list(shape) if isinstance(shape, tuple) else [shape]


def size(t):
    if isinstance(t, tuple):
        n = 1
        for x in t:
            n *= size(x)
        return n
    return t


def layout_table(fn, grid):
    cells, omax = [], None
    for p in itertools.product(*[range(s) for s in grid]):
        v = fn(p)
        out = list(v) if isinstance(v, (tuple, list)) else [v]
        out = [int(x) for x in out]
        omax = list(out) if omax is None else [max(a, b) for a, b in zip(omax, out)]
        cells.append({"in": list(p), "out": out})
    return {"kind": "layout", "input_shape": list(grid), "output_shape": [m + 1 for m in omax],
            "cells": cells}


def pycute_layout_case(name, text):
    shape, stride = split_layout(text)
    lay = PyLayout(shape, stride)
    grid = [size(m) for m in top_modes(shape)]
    # pycute takes one coordinate per top-level mode and splits it colexicographically.
    fn = (lambda p: lay(*p)) if isinstance(shape, tuple) else (lambda p: lay(p[0]))
    return {"name": name, "spec": text, "source": f"pycute (nvidia-cutlass {version('nvidia-cutlass')})",
            "table": layout_table(fn, grid)}


def pycute_swizzle_case(name, b, m, s, offset, text):
    shape, stride = split_layout(text)
    comp = PyComposed(PySwizzle(b, m, s), offset, PyLayout(shape, stride))
    spec = str(comp)  # pycute's own print: SW_B_M_S o OFF o (shape):(stride)
    grid = [size(x) for x in top_modes(shape)]
    return {"name": name, "spec": spec, "source": f"pycute (nvidia-cutlass {version('nvidia-cutlass')})",
            "table": layout_table(lambda p: comp(*p), grid)}


def pycute_composition_case(name, a, b):
    res = pycute.composition(PyLayout(*split_layout(a)), PyLayout(*split_layout(b)))
    text = str(res)
    case = pycute_layout_case(name, text)
    case["note"] = f"pycute composition({a}, {b}) printed as {text}"
    return case


def tilelang_bridge_cases():
    import tilelang  # noqa: F401
    from tilelang import tvm
    import tilelang.language as T
    import tilelang.layout as L
    from tilelang.layout import cute as C

    src = f"tilelang {version('tilelang')} (tilelang.layout.cute)"
    cases = []

    def parsed(name, text):
        lay = C.Layout.parse(text)
        grid = [int(C.size(lay[i])) for i in range(C.rank(lay))]
        cases.append({"name": name, "spec": str(lay), "source": src,
                      "table": layout_table(lambda p: lay(tuple(p)), grid)})

    parsed("bridge_basis_transpose", "(8,8):(1@1,1@0)")
    parsed("bridge_basis_nested", "((8,2),16):((1@0,128@0),8@0)")
    parsed("bridge_identity_4x8", str(C.make_identity_layout((4, 8))))
    parsed("bridge_basis_3d", "(2,(4,2),8):(1@2,(1@0,8@1),2@2)")

    def from_tilelang(name, layout):
        lay = C.Layout.from_tilelang(layout)
        if lay is None:
            raise RuntimeError(f"{name}: the bridge returns None")
        grid = [int(C.size(lay[i])) for i in range(C.rank(lay))]
        cases.append({"name": name, "spec": str(lay), "source": src,
                      "note": "Layout.from_tilelang of a TileLang layout, evaluated by the bridge",
                      "table": layout_table(lambda p: lay(tuple(p)), grid)})

    from_tilelang("bridge_from_tilelang_colmajor", T.Layout([8, 16], lambda i, j: j * 8 + i))
    from_tilelang("bridge_from_tilelang_blocked", T.Layout([16, 16], lambda i, j: i // 8 * 128 + j * 8 + i % 8))

    def composed(name, shape, dtype, maker, to_bytes):
        buf = tvm.tirx.decl_buffer(list(shape), dtype, name="b", scope="shared.dyn")
        comp = C.ComposedLayout.from_tilelang(maker(buf), buf if to_bytes else None)
        text = str(comp)
        sw, off, lay = [x.strip() for x in text.split(" o ")]
        b, m, s = [int(x) for x in re.match(r"Sw<(\d+),(\d+),(-?\d+)>", sw).groups()]
        sh, st = split_layout(lay)
        pc = PyComposed(PySwizzle(b, m, s), int(off), PyLayout(sh, st))
        grid = [size(x) for x in top_modes(sh)]
        cases.append({"name": name, "spec": text, "source": src + " printed; pycute evaluated",
                      "note": "ComposedLayout.from_tilelang" + (" recast to bytes" if to_bytes else ""),
                      "table": layout_table(lambda p: pc(*p), grid)})

    composed("bridge_swizzled_64x64_f16", (64, 64), "float16", L.make_swizzled_layout, False)
    composed("bridge_swizzled_64x64_f16_bytes", (64, 64), "float16", L.make_swizzled_layout, True)
    composed("bridge_half_bank_32x32_f16", (32, 32), "float16", L.make_half_bank_swizzled_layout, False)
    return cases


SM80_HEADER = "cutlass_library/source/include/cute/atom/mma_traits_sm80.hpp"


def sm80_layouts():
    """The SM80 atoms' TV layouts, as written in CUTLASS's header (C++ types -> CuTe text)."""
    import cutlass_library
    path = os.path.join(os.path.dirname(os.path.dirname(cutlass_library.__file__)), SM80_HEADER)
    src = open(path).read()

    def cxx_to_text(cxx):
        t = re.sub(r"\s+", "", cxx)
        t = re.sub(r"(Shape|Stride)<", "(", t).replace(">", ")")
        t = re.sub(r"_(\d+)", r"\1", t)
        return t

    named = {}
    for m in re.finditer(r"using (SM80_\w+)\s*=\s*Layout<(Shape\s*<.*?>),\s*(Stride\s*<.*?>)>;", src, re.S):
        named[m.group(1)] = cxx_to_text(m.group(2)) + ":" + cxx_to_text(m.group(3))
    atoms = {}
    for m in re.finditer(r"struct MMA_Traits<(SM80_\w+)>\s*(?::\s*MMA_Traits<(SM80_\w+)>)?\s*\{(.*?)\};", src, re.S):
        atom, base, body = m.groups()
        info = dict(atoms.get(base, {})) if base else {}
        mnk = re.search(r"using Shape_MNK\s*=\s*Shape<([^>]*)>", body)
        if mnk:
            info["mnk"] = [int(x.strip().lstrip("_")) for x in mnk.group(1).split(",")]
        for op in "ABC":
            lm = re.search(rf"using {op}Layout\s*=\s*(SM80_\w+|Layout<(Shape\s*<.*?>),\s*(Stride\s*<.*?>)>);", body, re.S)
            if lm:
                info[op] = named[lm.group(1)] if lm.group(1).startswith("SM80_") else \
                    cxx_to_text(lm.group(2)) + ":" + cxx_to_text(lm.group(3))
        atoms[atom] = info
    return atoms, SM80_HEADER


def tv_fragment_table(tv_text, m, n):
    shape, stride = split_layout(tv_text)
    tv = PyLayout(shape, stride)
    nt, nv = size(shape[0]), size(shape[1])
    owners = {}
    for t in range(nt):
        for v in range(nv):
            idx = tv(t, v)
            owners.setdefault(idx, []).append((t, v))
    cells, tmax, lmax, rep = [], 0, 0, None
    for mi in range(m):
        for ni in range(n):
            own = sorted(owners[mi + m * ni])
            locs = {v for _, v in own}
            if len(locs) != 1:
                raise RuntimeError(f"element ({mi},{ni}) in several registers: {own}")
            rep = len(own) if rep is None else rep
            assert rep == len(own)
            threads = [t for t, _ in own]
            tmax, lmax = max(tmax, max(threads)), max(lmax, own[0][1])
            cells.append({"in": [mi, ni], "threads": threads, "local": own[0][1]})
    return {"kind": "fragment", "input_shape": [m, n], "thread_extent": tmax + 1, "replicate": rep,
            "local_size": lmax + 1, "cells": cells}


def cute_cases():
    src = f"pycute (nvidia-cutlass {version('nvidia-cutlass')})"
    cases = [
        pycute_layout_case("cute_nested_2x4_8", "((2,4),8):((1,16),2)"),
        pycute_layout_case("cute_static_rowmajor_8x16", "(_8,_16):(_16,_1)"),
        pycute_layout_case("cute_colmajor_4x8", "(4,8):(1,4)"),
        pycute_layout_case("cute_rank1_nested", "((2,2,2)):((4,1,2))"),
        pycute_layout_case("cute_rank1_leaf", "32:2"),
        pycute_layout_case("cute_broadcast_stride0", "(4,(2,4)):(2,(0,8))"),
        pycute_layout_case("cute_rank3", "(2,3,(2,2)):(1,2,(6,12))"),
        pycute_layout_case("cute_pycute_spaces", "((2, 4), (3, 2)):((1, 12), (2, 48))"),
        pycute_layout_case("cute_non_power_of_two", "(6,(5,3)):(15,(1,5))"),
        pycute_swizzle_case("cute_sw333_8x64", 3, 3, 3, 0, "(8,64):(64,1)"),
        pycute_swizzle_case("cute_sw333_64x64", 3, 3, 3, 0, "(64,64):(64,1)"),
        pycute_swizzle_case("cute_sw233_16x32", 2, 3, 3, 0, "(16,32):(32,1)"),
        pycute_swizzle_case("cute_sw343_nested", 3, 4, 3, 0, "((8,2),(64,2)):((64,4096),(1,512))"),
        pycute_swizzle_case("cute_sw122_offset", 1, 2, 2, 16, "(4,8):(8,1)"),
        pycute_composition_case("cute_composition_tile", "(8,64):(64,1)", "(4,16):(2,1)"),
        pycute_composition_case("cute_composition_nested", "((4,8),(2,8)):((2,8),(1,64))", "(8,4):(1,8)"),
    ]
    atoms, header = sm80_layouts()
    want = [("SM80_16x8x16_F32F16F16F32_TN", "ABC"), ("SM80_16x8x8_F16F16F16F16_TN", "AB"),
            ("SM80_8x8x4_F64F64F64F64_TN", "ABC"), ("SM80_16x8x4_F32TF32TF32F32_TN", "AB"),
            ("SM80_8x8x16_S32S8S8S32_TN", "A")]
    for atom, ops in want:
        info = atoms[atom]
        M, N, K = info["mnk"]
        for op in ops:
            tile = {"A": (M, K), "B": (N, K), "C": (M, N)}[op]
            text = info[op]
            spec = f"Shape_MNK: ({M},{N},{K})\nLayout{op}_TV: {text}"
            cases.append({"name": f"cute_tv_{atom}_{op}", "spec": spec,
                          "source": src + " evaluated; layout from " + header,
                          "citation": f"{header}: MMA_Traits<{atom}>::{op}Layout",
                          "table": tv_fragment_table(text, *tile)})
    # A TiledCopy print with a thread mode of stride 0: two threads hold each element.
    tv = "((2,4,8),(2,2)):((0,32,1),(16,8))"
    cases.append({"name": "cute_tv_tiledcopy_replicated", "spec": f"Tiler_MN: (16,8)\nTiledLayout_TV: {tv}",
                  "source": src, "table": tv_fragment_table(tv, 16, 8)})
    cases += tilelang_bridge_cases()
    return cases


# ---------------------------------------------------------------------------------------------
# CuTe, drawn at random (seed TILESCOPE_CUTE_SEED, TILESCOPE_CUTE_COUNT cases): layouts no one
# picked, printed by pycute and evaluated by pycute.
# ---------------------------------------------------------------------------------------------

CUTE_SEED = int(os.environ.get("TILESCOPE_CUTE_SEED", "20261202"))
CUTE_COUNT = int(os.environ.get("TILESCOPE_CUTE_COUNT", "240"))


def _random_mode(rng, depth):
    """A mode's (shape, stride): a leaf, or a tuple of up to three sub-modes."""
    if depth >= 2 or rng.random() < 0.55:
        n = rng.choice([1, 2, 2, 3, 4, 4, 5, 6, 8, 8, 16])
        st = rng.choice([0, 1, 1, 2, 3, 4, 8, 16, 32, 64, 5, 12])
        return n, st
    parts = [_random_mode(rng, depth + 1) for _ in range(rng.choice([2, 2, 3]))]
    return tuple(p[0] for p in parts), tuple(p[1] for p in parts)


def _compact_tv(rng):
    """A TV layout that is a bijection (thread, value) -> [0, M*N), with a replicated thread mode
    now and then: the factors of M*N dealt to thread and value modes, strides in a random order."""
    factors = [rng.choice([2, 2, 2, 4, 4, 8]) for _ in range(rng.choice([3, 4, 5]))]
    order = list(range(len(factors)))
    rng.shuffle(order)
    stride, strides = 1, [0] * len(factors)
    for k in order:
        strides[k] = stride
        stride *= factors[k]
    total = stride
    cut = rng.randrange(1, len(factors))
    thr = list(zip(factors[:cut], strides[:cut]))
    val = list(zip(factors[cut:], strides[cut:]))
    if rng.random() < 0.3:
        thr.insert(rng.randrange(len(thr) + 1), (rng.choice([2, 4]), 0))  # replicas
    def mode(ms):
        if len(ms) == 1:
            return ms[0]
        return tuple(m[0] for m in ms), tuple(m[1] for m in ms)
    (ts, tst), (vs, vst) = mode(thr), mode(val)
    m = rng.choice([d for d in (2, 4, 8, 16, 32) if total % d == 0 and d <= total])
    return PyLayout((ts, vs), (tst, vst)), m, total // m


def cute_random_cases():
    import random
    rng = random.Random(CUTE_SEED)
    src = f"pycute (nvidia-cutlass {version('nvidia-cutlass')}), seed {CUTE_SEED}"
    cases = []
    while len(cases) < CUTE_COUNT:
        kind = rng.random()
        n = len(cases)
        if kind < 0.55:
            modes = [_random_mode(rng, 0) for _ in range(rng.choice([1, 2, 2, 2, 3]))]
            if len(modes) == 1 and rng.random() < 0.5:
                lay = PyLayout(modes[0][0], modes[0][1])
            else:
                lay = PyLayout(tuple(m[0] for m in modes), tuple(m[1] for m in modes))
            if size(lay.shape) > 4096:
                continue
            case = pycute_layout_case(f"cute_random_{n:03d}", str(lay))
        elif kind < 0.75:
            b, mm = rng.choice([1, 2, 3]), rng.choice([0, 1, 2, 3, 4])
            sft = rng.choice([x for x in (1, 2, 3, 4) if x >= b] or [b])
            rows, cols = rng.choice([(8, 64), (16, 32), (4, 128), (32, 32), (8, 16)])
            text = f"({rows},{cols}):({cols},1)" if rng.random() < 0.7 else f"({rows},{cols}):(1,{rows})"
            case = pycute_swizzle_case(f"cute_random_{n:03d}", b, mm, sft, rng.choice([0, 0, 0, 8, 64]), text)
        else:
            tv, m, nn = _compact_tv(rng)
            text = str(tv)
            spec = f"Tiler_MN: ({m},{nn})\nTiledLayout_TV: {text}"
            case = {"name": f"cute_random_{n:03d}", "spec": spec, "source": src,
                    "table": tv_fragment_table(text, m, nn)}
        case["source"] = src
        cases.append(case)
    return cases


# ---------------------------------------------------------------------------------------------
# Triton
# ---------------------------------------------------------------------------------------------

CONSTRUCTOR_TABLE_CASES = [
    ("gluon_blocked_32x32", "ttgl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])", [32, 32]),
    ("gluon_blocked_3d", "ttgl.BlockedLayout(size_per_thread=[1, 2, 2], threads_per_warp=[2, 4, 4], "
     "warps_per_cta=[2, 1, 2], order=[0, 2, 1])", [4, 16, 16]),
    ("gluon_mma_v2_acc", "ttgl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], "
     "instr_shape=[16, 8])", [64, 32]),
    ("gluon_mma_v3_acc", "ttgl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], "
     "instr_shape=[16, 32, 16])", [64, 32]),
    ("gluon_dot_a_k2", "ttgl.DotOperandLayout(operand_index=0, parent=ttgl.NVMMADistributedLayout("
     "version=[2, 0], warps_per_cta=[1, 1], instr_shape=[16, 8]), k_width=2)", [16, 16]),
    ("gluon_dot_b_k4", "ttgl.DotOperandLayout(1, ttgl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 4)",
     [64, 32]),
    ("gluon_dot_v3_a_k2", "ttgl.DotOperandLayout(operand_index=0, parent=ttgl.NVMMADistributedLayout("
     "version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]), k_width=2)", [64, 32]),
    ("gluon_slice_blocked", "ttgl.SliceLayout(1, ttgl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0]))", [64]),
    ("gluon_nvmma_shared_128B_f16", "ttgl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, "
     "rank=2)", [32, 64]),
    ("gluon_nvmma_shared_64B_f16_t", "ttgl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, "
     "rank=2, transposed=True)", [32, 16]),
    ("gluon_swizzled_shared", "ttgl.SwizzledSharedLayout(vec=4, per_phase=2, max_phase=4, order=[1, 0])",
     [16, 32]),
]


def triton_cases():
    from triton._C.libtriton import ir, gluon_ir, linear_layout as LLm
    import triton.experimental.gluon.language as ttgl

    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    src = f"triton {version('triton')} (GluonOpBuilder.to_linear_layout, LinearLayout.apply)"
    cases = []

    def ll_of(bases, names):
        return LLm.LinearLayout.from_bases(bases, names)

    def distributed(name, layout, shape, note, spec=None):
        d = builder.to_linear_layout(layout._to_ir(builder), shape)
        outs = [f"dim{k}" for k in range(len(shape))]
        ll = ll_of([("register", d.reg_bases), ("lane", d.lane_bases), ("warp", d.warp_bases),
                    ("block", d.block_bases)], outs)
        nr, nl, nw = len(d.reg_bases), len(d.lane_bases), len(d.warp_bases)
        owners = {}
        for r in range(1 << nr):
            for lane in range(1 << nl):
                for w in range(1 << nw):
                    out = ll.apply({"register": r, "lane": lane, "warp": w, "block": 0})
                    cell = tuple(int(dict(out)[o]) for o in outs)
                    owners.setdefault(cell, []).append((lane + (w << nl), r))
        cells, tmax, lmax, rep = [], 0, 0, None
        for p in itertools.product(*[range(s) for s in shape]):
            own = sorted(owners[p])
            if len({r for _, r in own}) != 1:
                raise RuntimeError(f"{name}: element {p} in several registers")
            rep = len(own) if rep is None else rep
            threads = [t for t, _ in own]
            tmax, lmax = max(tmax, max(threads)), max(lmax, own[0][1])
            cells.append({"in": list(p), "threads": threads, "local": own[0][1]})
        cases.append({"name": name, "spec": spec or str(d), "source": src, "note": f"{note} for shape {shape}",
                      "table": {"kind": "fragment", "input_shape": list(shape), "thread_extent": tmax + 1,
                                "replicate": rep, "local_size": lmax + 1, "cells": cells}})

    def shared(name, layout, shape, note, spec=None):
        s = builder.to_linear_layout(layout._to_ir(builder), shape)
        outs = [f"dim{k}" for k in range(len(shape))]
        ll = ll_of([("offset", s.offset_bases), ("block", s.block_bases)], outs)
        where = {}
        for off in range(1 << len(s.offset_bases)):
            out = dict(ll.apply({"offset": off, "block": 0}))
            where[tuple(int(out[o]) for o in outs)] = off
        grid = [1 << max(1, 0) for _ in shape]
        grid = list(s.shape) if hasattr(s, "shape") else list(shape)
        t = layout_table(lambda p: where[tuple(p)], grid)
        cases.append({"name": name, "spec": spec or str(s), "source": src, "note": f"{note} for shape {shape}",
                      "table": t})

    B = ttgl.BlockedLayout
    distributed("triton_blocked_1x4_4x8_4x1", B([1, 4], [4, 8], [4, 1], [1, 0]), [32, 32], "BlockedLayout")
    distributed("triton_blocked_2x2_8x4_2x2_colmajor", B([2, 2], [8, 4], [2, 2], [0, 1]), [64, 32], "BlockedLayout")
    distributed("triton_blocked_broadcast", B([1, 4], [4, 8], [4, 1], [1, 0]), [8, 32], "BlockedLayout (warps broadcast)")
    mma2 = ttgl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    distributed("triton_mma_v2_acc_32x32", mma2, [32, 32], "NVMMADistributedLayout v2 accumulator")
    distributed("triton_mma_v2_acc_16x8_1warp",
                ttgl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[1, 1], instr_shape=[16, 8]), [16, 8],
                "NVMMADistributedLayout v2 accumulator, one warp (the SM80 m16n8 atom)")
    distributed("triton_mma_v2_dot_a_32x32", ttgl.DotOperandLayout(operand_index=0, parent=mma2, k_width=2),
                [32, 32], "DotOperandLayout(0, mma v2, k_width=2)")
    distributed("triton_mma_v2_dot_b_32x32", ttgl.DotOperandLayout(operand_index=1, parent=mma2, k_width=2),
                [32, 32], "DotOperandLayout(1, mma v2, k_width=2)")
    distributed("triton_mma_v2_dot_a_16x16_1warp",
                ttgl.DotOperandLayout(operand_index=0, parent=ttgl.NVMMADistributedLayout(
                    version=[2, 0], warps_per_cta=[1, 1], instr_shape=[16, 8]), k_width=2),
                [16, 16], "DotOperandLayout(0, mma v2 one warp, k_width=2)")
    distributed("triton_mma_v3_acc_64x64",
                ttgl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16]),
                [64, 64], "NVMMADistributedLayout v3 accumulator")
    for sw, bits, shape in [(128, 16, [16, 64]), (64, 16, [16, 32]), (32, 16, [16, 16]), (128, 32, [8, 32])]:
        shared(f"triton_nvmma_shared_{sw}B_{bits}bit", ttgl.NVMMASharedLayout(
            swizzle_byte_width=sw, element_bitwidth=bits, rank=2), shape,
            f"NVMMASharedLayout(swizzle_byte_width={sw}, element_bitwidth={bits})")
    # The constructors themselves as the spec (Tilescope converts them): Triton's cells.
    ns = {n: getattr(ttgl, n) for n in dir(ttgl) if not n.startswith("_")}
    ns.update(ttgl=ttgl, gl=ttgl)
    for name, text, shape in CONSTRUCTOR_TABLE_CASES:
        layout = eval(text, ns)  # noqa: S307 - the constructor text listed below
        fn = shared if "Shared" in text else distributed
        fn(name, layout, shape, "constructor text converted by Tilescope", spec=f"{text}, {shape}")
    # LinearLayout::toString() as Triton prints it.
    ll = ll_of([("register", [[0, 1], [0, 2]]), ("lane", [[1, 0], [2, 0], [0, 4]]), ("warp", [[4, 0]])],
               ["dim0", "dim1"])
    text = str(ll).strip("\n")
    owners = {}
    for r in range(4):
        for lane in range(8):
            for w in range(2):
                out = dict(ll.apply({"register": r, "lane": lane, "warp": w}))
                owners.setdefault((int(out["dim0"]), int(out["dim1"])), []).append((lane + (w << 3), r))
    cells = []
    for p in itertools.product(range(8), range(8)):
        own = sorted(owners[p])
        cells.append({"in": list(p), "threads": [t for t, _ in own], "local": own[0][1]})
    cases.append({"name": "triton_tostring_8x8", "spec": text, "source": src + " (LinearLayout::toString)",
                  "table": {"kind": "fragment", "input_shape": [8, 8], "thread_extent": 16, "replicate": 1,
                            "local_size": 4, "cells": cells}})
    return cases


# ---------------------------------------------------------------------------------------------
# Gluon constructors (gluon.json.gz): Triton's bases for many random constructor instances, and
# the constructors Triton refuses.
# ---------------------------------------------------------------------------------------------

def gluon_family(path):
    import gen_gluon_cases as G

    triton = G.Triton()
    rng, generated = G.random_cases()
    constructors, errors = [], []
    for name, ctor, shape in generated + G.refused_cases():
        layout = ctor.text(rng)
        spec = G.spec_text(layout, shape, rng)
        res = triton.ask(layout, shape)
        if "bases" in res:
            if name.startswith("refused_"):
                raise RuntimeError(f"{name}: Triton accepts {layout} for {shape}")
            constructors.append({"name": name, "spec": spec, "layout": layout, "shape": shape,
                                 "bases": res["bases"], "triton_printed": res["printed"]})
        else:
            errors.append({"name": name, "spec": spec, "error": res["error"]})
    triton.close()
    header = {
        "versions": {"triton": version("triton")},
        "command": "python tools/gen_interop_goldens.py --only gluon",
        "generator": "tools/gen_interop_goldens.py",
        "python": sys.version.split()[0],
        "family": "gluon",
        "source": f"triton {version('triton')} GluonOpBuilder.to_linear_layout of the constructor (layout) "
                  "for the shape; bases per input dim as Triton returns them",
        "seed": 2026,
    }
    with golden_file.writing(path) as f:
        f.write("{\n")
        for k, v in header.items():
            f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        for key, rows in [("constructors", constructors), ("errors", errors)]:
            f.write(f'  "{key}": [\n')
            for i, row in enumerate(rows):
                f.write("    " + json.dumps(row) + ("," if i + 1 < len(rows) else "") + "\n")
            f.write("  ],\n")
        f.write('  "cases": []\n}\n')
    kinds = {}
    for c in constructors:
        k = c["name"].rsplit("_", 1)[0]
        kinds[k] = kinds.get(k, 0) + 1
    print(f"{path}: {len(constructors)} constructors Triton converts, {len(errors)} it refuses")
    print("  " + ", ".join(f"{k}: {n}" for k, n in sorted(kinds.items())))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/goldens")
    ap.add_argument("--only", choices=["cute", "cute_random", "triton", "gluon"], help="one family")
    args = ap.parse_args(argv)
    if args.only in (None, "gluon"):
        gluon_family(golden_file.golden_path(args.out, "gluon"))
    for fam, fn, libs in [("cute", cute_cases, ["nvidia-cutlass", "tilelang"]),
                          ("cute_random", cute_random_cases, ["nvidia-cutlass"]),
                          ("triton", triton_cases, ["triton"])]:
        if args.only not in (None, fam):
            continue
        cases = fn()
        header = {
            "versions": {lib: version(lib) for lib in libs},
            "command": "python tools/gen_interop_goldens.py" + (f" --only {fam}" if args.only else ""),
            "generator": "tools/gen_interop_goldens.py",
            "python": sys.version.split()[0],
            "family": fam,
            "cell_format": "tilescope-cli table (product.md); fragments: threads of an element in increasing order, local slot",
            "errors": [],
        }
        path = golden_file.golden_path(args.out, fam)
        dump_family(path, header, cases)
        print(f"{path}: {len(cases)} cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
