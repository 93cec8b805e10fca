#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generate Tilescope golden tables from the real TileLang package.

Every case is evaluated by TileLang itself: the Python expression in "python" is
evaluated with TileLang's API, then every input point (and every replica) is pushed
through TileLang's own ``map_forward_index`` / ``map_forward_thread``.  Cases whose
layout is not provided by the installed TileLang are built with ``T.Layout`` /
``T.Fragment`` from the cited formula (still evaluated by TileLang) and carry
``"source": "formula"`` plus a citation.

Usage (from the repository root):
    .venv/bin/python tools/gen_goldens.py [--out tests/data/goldens] [--only FAMILY]

Output: one gzipped JSON file per family, ``tests/data/goldens/<family>.json.gz`` (tools/golden_file.py):
    {"tilelang_version": ..., "command": ..., "cases": [case, ...]}
with case = {name, spec, python, source, repr, table, tilelang_output_shape,
             [tilelang_thread_extent], [citation], [note]}.
``table`` is exactly the ``tilescope-cli table`` JSON of product.md.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time

import golden_file  # tools/golden_file.py, beside this script

# TileLang ships a package named ``math``; never run with tilelang's dir on sys.path.
import tilelang  # noqa: E402
import tilelang.language as T  # noqa: E402
from tilelang import tvm  # noqa: E402
from tvm.tirx import IndexMap  # noqa: E402
from tilelang.layout import (  # noqa: E402
    make_swizzled_layout,
    make_wgmma_swizzled_layout,
    make_full_bank_swizzled_layout,
    make_half_bank_swizzled_layout,
    make_quarter_bank_swizzled_layout,
    make_linear_layout,
    make_gemm_fragment_8x8,
    make_gemm_fragment_8x8_transposed,
    make_fully_replicated_layout_fragment,
)
import tilelang.layout as tl_layout  # noqa: E402

TL_VERSION = tilelang.__version__


# ----------------------------------------------------------------------------------------------
# helpers available to the "python" expressions
# ----------------------------------------------------------------------------------------------

def buf(shape, dtype, scope="shared.dyn"):
    """A TIR buffer standing in for TileLang's buffer argument."""
    return tvm.tirx.decl_buffer(list(shape), dtype, name="buf", scope=scope)


def frag_buf(shape, dtype="float32"):
    return tvm.tirx.decl_buffer(list(shape), dtype, name="frag", scope="local.fragment")


def make_mma_load_base_layout(dtype="float16", matrix="A", transposed=False):
    """Base (one mma atom) operand fragment, exactly as TensorCoreIntrinEmitter.make_mma_load_layout
    builds its ``base_fragment`` (tilelang/cuda/intrinsics/macro/mma_macro_generator.py), which is
    the same construction as examples/plot_layout/fragment_mma_load_a.py for fp16 A."""
    from tvm import DataType
    from tilelang.cuda.intrinsics.layout import mma_layout as ml

    bits = DataType(dtype).bits
    sr = {
        32: (ml.shared_16x8_to_mma_32x4_layout_sr_a, ml.shared_16x8_to_mma_32x4_layout_sr_b, 8),
        16: (ml.shared_16x16_to_mma_32x8_layout_sr_a, ml.shared_16x16_to_mma_32x8_layout_sr_b, 16),
        8: (ml.shared_16x32_to_mma_32x16_layout_sr_a, ml.shared_16x32_to_mma_32x16_layout_sr_b, 32),
    }[bits]
    fa, fb, micro_k = sr
    is_a = matrix == "A"
    is_sr = (is_a and not transposed) or (not is_a and transposed)
    f = fa if is_a else fb
    fn = f if is_sr else (lambda i, j: f(j, i))
    inv = IndexMap.from_func(fn, index_dtype="int32")
    micro_s, micro_r = 16, micro_k
    shape = [micro_s, micro_r] if is_sr else [micro_r, micro_s]
    return T.Fragment(
        shape,
        forward_thread_fn=lambda i, j: inv.map_indices([i, j])[0],
        forward_index_fn=lambda i, j: inv.map_indices([i, j])[1],
    )


def make_mfma_load_base_layout(dtype="float16", matrix="A", k_dim=16, transposed=False):
    """examples/plot_layout/fragment_mfma_load_a.py ``make_mfma_load_base_layout`` with the
    installed tilelang.rocm.intrinsics.mfma_layout atoms."""
    from tilelang.rocm.intrinsics import mfma_layout as fl
    from tilelang.rocm.intrinsics.utils import get_mma_micro_size

    f = {
        4: fl.shared_16x4_to_local_64x1_layout_A,
        16: fl.shared_16x16_to_local_64x4_layout_A,
        32: fl.shared_16x32_to_local_64x8_layout_A,
        64: fl.shared_16x64_to_local_64x16_layout_A,
    }[k_dim]
    is_sr = (matrix == "A" and not transposed) or (matrix == "B" and transposed)
    mx, my, mk = get_mma_micro_size(dtype)
    fn = f if is_sr else (lambda i, j: f(j, i))
    if matrix == "A":
        ms, mr = mx, mk
    else:
        ms, mr = mk, my
    inv = IndexMap.from_func(fn, index_dtype="int32")
    return T.Fragment(
        [ms, mr] if is_sr else [mr, ms],
        forward_thread_fn=lambda i, j: inv.map_indices([i, j])[0],
        forward_index_fn=lambda i, j: inv.map_indices([i, j])[1],
    )


def _mma_emitter(M, N, threads, a_dtype="float16", accum_dtype="float32", chunk=32,
                 a_transposed=False, b_transposed=False):
    from tilelang.cuda.intrinsics.macro.mma_macro_generator import TensorCoreIntrinEmitter
    from tilelang.tileop.base import GemmWarpPolicy

    m_warp, n_warp = GemmWarpPolicy.Square.compute_warp_partition(M, N, threads // 32)
    return TensorCoreIntrinEmitter(
        a_dtype=a_dtype, b_dtype=a_dtype, accum_dtype=accum_dtype,
        a_transposed=a_transposed, b_transposed=b_transposed,
        block_row_warps=m_warp, block_col_warps=n_warp,
        warp_row_tiles=M // m_warp, warp_col_tiles=N // n_warp, chunk=chunk,
    )


def gemm_c_fragment(M, N, threads, accum_dtype="float32"):
    """The T.gemm (cuda.mma, sm80) accumulator fragment: make_mma_store_layout of the emitter that
    tilelang/cuda/op/gemm/gemm_mma.py builds (Square warp partition)."""
    em = _mma_emitter(M, N, threads, accum_dtype=accum_dtype)
    return em.make_mma_store_layout(frag_buf((M, N), accum_dtype))


def gemm_operand_fragment(M, N, K, threads, matrix="A", dtype="float16", transposed=False):
    """The register-operand fragment T.gemm gives A (M x K) or B (K x N) (make_mma_load_layout)."""
    em = _mma_emitter(M, N, threads, a_dtype=dtype, chunk=K,
                      a_transposed=transposed if matrix == "A" else False,
                      b_transposed=transposed if matrix == "B" else False)
    if matrix == "A":
        shape = (K, M) if transposed else (M, K)
    else:
        shape = (N, K) if transposed else (K, N)
    return em.make_mma_load_layout(frag_buf(shape, dtype), matrix=matrix)


def _c0(dtype):
    from tvm import DataType
    return 256 // DataType(dtype).bits  # 32 bytes / sizeof(T)


def _ru(a, b):
    return (a + b - 1) // b * b


def zn_formula(shape, dtype):
    R, C = shape
    c0 = _c0(dtype)
    return T.Layout([R, C], lambda r, c: c // c0 * (_ru(R, 16) * c0) + r // 16 * (16 * c0) + r % 16 * c0 + c % c0)


def nz_formula(shape, dtype):
    R, C = shape
    c0 = _c0(dtype)
    return T.Layout([R, C], lambda r, c: r // c0 * (_ru(C, 16) * c0) + c // 16 * (16 * c0) + r % c0 + c % 16 * c0)


def zz_formula(shape, dtype):
    R, C = shape
    c0 = _c0(dtype)
    return T.Layout([R, C], lambda r, c: r // 16 * (_ru(C, c0) * 16) + c // c0 * (16 * c0) + r % 16 * c0 + c % c0)


def l0c_formula(shape, dtype="float32"):
    R, C = shape
    return T.Layout([R, C], lambda r, c: c // 16 * (_ru(R, 16) * 16) + r // 16 * 256 + r % 16 * 16 + c % 16)


NAMESPACE = dict(
    T=T, tilelang=tilelang, tl_layout=tl_layout, buf=buf, frag_buf=frag_buf,
    make_swizzled_layout=make_swizzled_layout,
    make_wgmma_swizzled_layout=make_wgmma_swizzled_layout,
    make_full_bank_swizzled_layout=make_full_bank_swizzled_layout,
    make_half_bank_swizzled_layout=make_half_bank_swizzled_layout,
    make_quarter_bank_swizzled_layout=make_quarter_bank_swizzled_layout,
    make_linear_layout=make_linear_layout,
    make_gemm_fragment_8x8=make_gemm_fragment_8x8,
    make_gemm_fragment_8x8_transposed=make_gemm_fragment_8x8_transposed,
    make_fully_replicated_layout_fragment=make_fully_replicated_layout_fragment,
    make_mma_load_base_layout=make_mma_load_base_layout,
    make_mfma_load_base_layout=make_mfma_load_base_layout,
    gemm_c_fragment=gemm_c_fragment,
    gemm_operand_fragment=gemm_operand_fragment,
    zn_formula=zn_formula, nz_formula=nz_formula, zz_formula=zz_formula, l0c_formula=l0c_formula,
)
try:
    from tilelang.cuda.intrinsics.layout.mma_layout import make_mma_swizzle_layout
    NAMESPACE["make_mma_swizzle_layout"] = make_mma_swizzle_layout
except ImportError:  # pragma: no cover
    pass
for _n in ("make_ascend_nz_layout", "make_ascend_compact_nz_layout", "make_ascend_major_k_layout",
           "make_ascend_major_mn_layout", "make_ascend_l0c_layout"):
    if hasattr(tl_layout, _n):
        NAMESPACE[_n] = getattr(tl_layout, _n)


# ----------------------------------------------------------------------------------------------
# evaluation
# ----------------------------------------------------------------------------------------------

def _ints(exprs, what):
    out = []
    for e in exprs:
        if not isinstance(e, (tvm.tirx.IntImm, int)):
            raise RuntimeError(f"{what}: non-constant result {e!r}")
        out.append(int(e))
    return out


def evaluate(layout):
    """Table in the tilescope-cli format, evaluated with TileLang's map_forward_* per point."""
    in_shape = [int(x) for x in layout.get_input_shape()]
    pts = list(itertools.product(*[range(s) for s in in_shape]))
    cells = []
    if isinstance(layout, T.Fragment):
        R = int(layout.replicate_size)
        tmax, lmax = -1, -1
        for p in pts:
            p = list(p)
            if R > 1:
                threads = [_ints(layout.map_forward_thread([r] + p), "thread")[0] for r in range(R)]
                local = _ints(layout.map_forward_index([0] + p), "index")
            else:
                threads = _ints(layout.map_forward_thread(p), "thread")
                local = _ints(layout.map_forward_index(p), "index")
            if len(local) != 1:
                raise RuntimeError(f"fragment with {len(local)} index outputs")
            tmax = max(tmax, max(threads))
            lmax = max(lmax, local[0])
            cells.append({"in": p, "threads": threads, "local": local[0]})
        table = {"kind": "fragment", "input_shape": in_shape, "thread_extent": tmax + 1,
                 "replicate": R, "local_size": lmax + 1, "cells": cells}
    else:
        omax = None
        for p in pts:
            p = list(p)
            out = _ints(layout.map_forward_index(p), "index")
            omax = list(out) if omax is None else [max(a, b) for a, b in zip(omax, out)]
            cells.append({"in": p, "out": out})
        table = {"kind": "layout", "input_shape": in_shape,
                 "output_shape": [m + 1 for m in omax], "cells": cells}
    return table


def make_case(name, spec, python, source=None, citation=None, note=None):
    layout = eval(python, dict(NAMESPACE))  # noqa: S307 - our own literal expressions
    case = {"name": name, "spec": spec, "python": python,
            "source": source or f"tilelang {TL_VERSION}"}
    if citation:
        case["citation"] = citation
    if note:
        case["note"] = note
    case["repr"] = str(layout)
    case["tilelang_output_shape"] = [int(x) for x in layout.get_output_shape()]
    if isinstance(layout, T.Fragment):
        # TileLang bounds the thread extent by interval analysis, which gives up on bitwise
        # operators and T.if_then_else ("pos_inf"); keep its text then.
        size = layout.get_thread_size()
        case["tilelang_thread_extent"] = int(size) if isinstance(size, (int, tvm.tirx.IntImm)) else str(size)
        case["tilelang_forward_thread"] = str(layout.forward_thread)
        case["tilelang_forward_index"] = [str(e) for e in layout.forward_index]
    else:
        case["tilelang_forward_index"] = [str(e) for e in layout.index]
    case["table"] = evaluate(layout)
    t = case["table"]
    if t["kind"] == "layout":
        case["output_shape_matches_tilelang"] = t["output_shape"] == case["tilelang_output_shape"]
    else:
        case["output_shape_matches_tilelang"] = [t["local_size"]] == case["tilelang_output_shape"]
        case["thread_extent_matches_tilelang"] = t["thread_extent"] == case["tilelang_thread_extent"]
    return case


# ----------------------------------------------------------------------------------------------
# cases: (name, spec, python[, extra]) ; spec == python where the mapping language is TileLang's
# ----------------------------------------------------------------------------------------------

def same(name, text, **kw):
    return dict(name=name, spec=text, python=text, **kw)  # kw: note, citation, expect_error


def builtin(name, spec, python, **kw):
    return dict(name=name, spec=spec, python=python, **kw)


BASE88 = "T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, forward_index_fn=lambda i, j: j % 2)"


def handwritten_cases():
    c = [
        same("transpose_4x4", "T.Layout([4, 4], lambda i, j: (j, i))"),
        same("transpose_8x8", "T.Layout([8, 8], lambda i, j: (j, i))"),
        same("reshape_3d_2x4x8", "T.Layout([2, 4, 8], lambda i, j, k: (k, i * 4 + j))"),
        same("interleave_8x4", "T.Layout([8, 4], lambda i, j: (i % 4 * 2 + i // 4, j))"),
        same("rowmajor_8x16", "T.Layout([8, 16], lambda i, j: i * 16 + j)"),
        same("pad33_fp32_32x32", "T.Layout([32, 32], lambda i, j: i * 33 + j)"),
        same("bitops_xor_and_shl_16x16", "T.Layout([16, 16], lambda i, j: (i << 4) + ((j ^ (i & 7)) & 15))"),
        same("bitops_or_shr_8x32", "T.Layout([8, 32], lambda i, j: (i, (j >> 3 ^ i % 4) << 3 | j & 7))"),
        dict(name="minmax_8x8", spec="T.Layout([8, 8], lambda i, j: (min(i, j), max(i, j)))",
             python="T.Layout([8, 8], lambda i, j: (T.min(i, j), T.max(i, j)))",
             note="Python min()/max() on TVM exprs raise; TileLang users write T.min/T.max"),
        same("three_outputs_16x16", "T.Layout([16, 16], lambda i, j: (j // 8, i, j % 8))"),
        # Layout.repeat (reference §7, test_tilelang_layout_repeat.py)
        same("layout_repeat_dim0_x2", "T.Layout([8, 64], lambda i, j: i * 64 + j).repeat(0, 2)"),
        same("layout_repeat_dim1_x3", "T.Layout([8, 64], lambda i, j: i * 64 + j).repeat(1, 3)"),
        same("layout_repeat_identity_dim0_x2", "T.Layout([8, 64], lambda i, j: (i, j)).repeat(0, 2)"),
        same("layout_repeat_negdim_x2", "T.Layout([4, 8], lambda i, j: j * 4 + i).repeat(-1, 2)"),
        same("layout_repeat_factor1", "T.Layout([4, 8], lambda i, j: j * 4 + i).repeat(1, 1)"),
        # Layout.expand (test_tilelang_layout_expand.py)
        same("layout_expand_4", "T.Layout([16, 128], lambda j, k: j * 128 + k).expand([4])"),
        same("layout_expand_int4_identity", "T.Layout([16, 128], lambda j, k: (j, k)).expand(4)"),
        same("layout_expand_2x3", "T.Layout([4, 8], lambda i, j: j * 4 + i).expand([2, 3])"),
        same("layout_expand_empty", "T.Layout([4, 8], lambda i, j: j * 4 + i).expand([])"),
        # Fragments
        same("fragment_8x8_thread_index", BASE88),
        same("fragment_replicate_fn_16x16_r2",
             "T.Fragment([16, 16], forward_thread_fn=lambda i, j, rep: i % 8 * 4 + j // 4 + 32 * rep, "
             "forward_index_fn=lambda i, j: i // 8 * 4 + j % 4, replicate=2)"),
        same("fragment_forward_fn_16x8", "T.Fragment([16, 8], forward_fn=lambda i, j: (i * 2 + j // 4, j % 4))"),
        same("fragment_forward_fn_rep_8x8_r2",
             "T.Fragment([8, 8], forward_fn=lambda i, j, rep: (i * 4 + j // 2 + rep * 32, j % 2), replicate=2)"),
        # thread-only: TileLang infers the index
        same("infer_128x128_t128", "T.Fragment([128, 128], forward_thread_fn=lambda i, j: i % 8 * 16 + j // 8)"),
        same("infer_64x256_t256", "T.Fragment([64, 256], forward_thread_fn=lambda i, j: i % 4 * 64 + j // 4)"),
        same("infer_16x256_fp8_t128", "T.Fragment([16, 256], forward_thread_fn=lambda i, j: i % 8 * 16 + j // 16)"),
        same("infer_rowmax_64_r32", "T.Fragment([64], forward_thread_fn=lambda i, rep: i % 4 * 32 + rep, replicate=32)"),
        same("infer_16x16_j_high", "T.Fragment([16, 16], forward_thread_fn=lambda i, j: j % 4 * 8 + i // 2)"),
        same("infer_16x16_middle_bits", "T.Fragment([16, 16], forward_thread_fn=lambda i, j: i // 2 % 4 * 8 + j % 8)"),
        same("infer_32x32_mixed", "T.Fragment([32, 32], forward_thread_fn=lambda i, j: i // 16 * 16 + j % 4 * 4 + i % 4)"),
        same("infer_8x8x4_3d", "T.Fragment([8, 8, 4], forward_thread_fn=lambda i, j, k: j * 4 + k)"),
        same("infer_rep_in_thread_16x8_r2", "T.Fragment([16, 8], forward_thread_fn=lambda i, j, rep: rep * 32 + i % 8 * 4 + j // 2, replicate=2)"),
        same("infer_fully_replicated_4x4_r8", "T.Fragment([4, 4], forward_thread_fn=lambda i, j, rep: rep, replicate=8)"),
        same("infer_fully_replicated_2_r256", "T.Fragment([2], forward_thread_fn=lambda i, rep: rep, replicate=256)"),
        # Fragment.repeat, every combination
        same("fragment_repeat_T_ldfT", BASE88 + ".repeat([2, 3], repeat_on_thread=True, lower_dim_first=True)"),
        same("fragment_repeat_T_ldfF", BASE88 + ".repeat([2, 3], repeat_on_thread=True, lower_dim_first=False)"),
        same("fragment_repeat_F_ldfT", BASE88 + ".repeat([2, 3], repeat_on_thread=False, lower_dim_first=True)"),
        same("fragment_repeat_F_ldfF", BASE88 + ".repeat([2, 3], repeat_on_thread=False, lower_dim_first=False)"),
        same("fragment_repeat_default", BASE88 + ".repeat([2, 1])"),
        # replicate
        same("fragment_replicate_2", BASE88 + ".replicate(2)"),
        same("fragment_replicate_2_of_r2",
             "T.Fragment([16, 16], forward_thread_fn=lambda i, j, rep: i % 8 * 4 + j // 4 + 32 * rep, "
             "forward_index_fn=lambda i, j: i // 8 * 4 + j % 4, replicate=2).replicate(2)"),
        same("fragment_repeat_then_replicate",
             BASE88 + ".repeat([2, 1], repeat_on_thread=True).replicate(2).repeat([1, 2], repeat_on_thread=False)"),
        # inverse
        same("layout_inverse_interleave", "T.Layout([8, 4], lambda i, j: (i % 4 * 2 + i // 4, j)).inverse()"),
        same("layout_inverse_transpose_3d", "T.Layout([2, 4, 8], lambda i, j, k: (k, i * 4 + j)).inverse()"),
        same("layout_inverse_linear_8x16", "T.Layout([8, 16], lambda i, j: i * 16 + j).inverse()"),
        same("fragment_inverse_8x8", BASE88 + ".inverse()"),
        same("fragment_inverse_r2",
             "T.Fragment([16, 16], forward_thread_fn=lambda i, j, rep: i % 8 * 4 + j // 4 + 32 * rep, "
             "forward_index_fn=lambda i, j: i // 8 * 4 + j % 4, replicate=2).inverse()"),
        same("fragment_condense_rep_var",
             "T.Fragment([8], forward_thread_fn=lambda i, rep: rep % 4 * 8 + i, replicate=8).condense_rep_var()"),
    ]
    return c + conditional_cases()


def conditional_cases():
    """Comparisons, T.if_then_else / T.Select, T.And / T.Or / T.Not, casts of truth values and
    1-tuples. TileLang's repr of each is its printed form (`_i < 4 and 1 < _i`, `T.Cast("int32",
    ...)`, `T.Select(4 <= _i, ...)`), which the dump reader must read back to the same table.
    The expect_error cases are what TileLang refuses; Tilescope must refuse them too."""
    return [
        same("cond_ite_fold_8", "T.Layout([8], lambda i: T.if_then_else(i < 4, i, 7 - i))"),
        same("cond_select_serpentine_16x16",
             "T.Layout([16, 16], lambda i, j: (i, T.Select(i % 2 == 0, j, 15 - j)))"),
        same("cond_and_or_not_8x8",
             "T.Layout([8, 8], lambda i, j: (T.if_then_else(T.And(i < 4, j >= 2), i + 4, i), "
             "T.if_then_else(T.Or(T.Not(j < 6), i == 3), 7 - j, j)))"),
        same("cond_compare_arith_8x8",
             "T.Layout([8, 8], lambda i, j: (i < 4) * 32 + (j >= 4) * 16 + i % 4 * 4 + j % 4)"),
        same("cond_bool_product_8x8", "T.Layout([8, 8], lambda i, j: (i < 4) * (j < 4) * 64 + i * 8 + j)"),
        same("cond_compare_of_compares_8",
             "T.Layout([8], lambda i: ((i < 4) == (i % 2 == 0)) * 1 + i * 2)"),
        same("cond_abs_16", "T.Layout([16], lambda i: T.abs(i - 8))"),
        same("cond_likely_8", "T.Layout([8], lambda i: T.if_then_else(T.likely(i < 2), i, 9 - i))"),
        same("cond_nested_8",
             "T.Layout([8], lambda i: T.if_then_else(i < 4, T.Select(i < 2, 0, 1), T.if_then_else(i == 7, 7, 3)))"),
        same("cond_int64_branch_8", "T.Layout([8], lambda i: T.if_then_else(i < 4, i, T.int64(3)))"),
        same("cond_mixed_branch_types_8", "T.Layout([8], lambda i: T.if_then_else(i < 4, i < 2, 5))"),
        same("cond_cast_output_8", 'T.Layout([8], lambda i: (T.Cast("int32", i < 4), i))'),
        same("cond_dead_branch_divides_by_zero_8",
             "T.Layout([8], lambda i: T.if_then_else(i < 8, i, i // (i - 7)))"),
        same("cond_python_if_on_constants_8x8", "T.Layout([8, 8], lambda i, j: (i, j) if 8 > 4 else (j, i))"),
        same("cond_python_and_on_constants_8", "T.Layout([8], lambda i: (1 and i) + (0 or 2))"),
        same("cond_1tuple_shape_and_output_8", "T.Layout((8,), lambda i: (i * 3,))"),
        same("cond_fragment_8x8",
             "T.Fragment([8, 8], forward_thread_fn=lambda i, j: T.if_then_else(i < 4, i * 8 + j, (7 - i) * 8 + j), "
             "forward_index_fn=lambda i, j: T.Select(i < 4, 0, 1))"),
        same("cond_fragment_rep_16x8_r2",
             "T.Fragment([16, 8], forward_thread_fn=lambda i, j, rep: T.if_then_else(j < 4, i * 4 + j, i * 4 + 7 - j) "
             "+ rep * 64, forward_index_fn=lambda i, j: (j >= 4) * 1, replicate=2)"),
        same("cond_fragment_forward_fn_16x16",
             "T.Fragment([16, 16], forward_fn=lambda i, j: (T.Select(j < 8, i * 2, i * 2 + 1), "
             "T.if_then_else(j < 8, j, 15 - j)))"),
        same("cond_fragment_1tuple_shape_32",
             "T.Fragment((32,), forward_thread_fn=lambda i: i // 2, forward_index_fn=lambda i: T.Select(i % 2 == 1, 1, 0))"),
        # thread map only: TileLang infers the index over a conditional thread map
        same("cond_infer_if_then_else_8x8",
             "T.Fragment([8, 8], forward_thread_fn=lambda i, j: T.if_then_else(i < 4, i * 8 + j, (7 - i) * 8 + j))"),
        same("cond_infer_select_16x16",
             "T.Fragment([16, 16], forward_thread_fn=lambda i, j: T.if_then_else(j // 8 == 0, i, j % 8 * 2 + i // 8))"),
        same("cond_infer_compare_arith_8x8",
             "T.Fragment([8, 8], forward_thread_fn=lambda i, j: (i < 4) * 32 + i % 4 * 8 + j)"),
        # refused by TileLang
        same("reject_python_if_on_expr", "T.Layout([8], lambda i: i if i < 4 else 7 - i)", expect_error=True),
        same("reject_python_and_on_expr", "T.Layout([8], lambda i: i < 4 and i > 1)", expect_error=True),
        same("reject_python_not_on_expr", "T.Layout([8], lambda i: (not (i < 4)) * 1)", expect_error=True),
        same("reject_chained_compare_on_expr", "T.Layout([8], lambda i: (1 < i < 4) * 1)", expect_error=True),
        same("reject_bool_output", "T.Layout([8], lambda i: i < 4)", expect_error=True),
        same("reject_bool_plus_bool", "T.Layout([8], lambda i: (i < 4) + (i < 2))", expect_error=True),
        same("reject_bool_negation", "T.Layout([8], lambda i: -(i < 4) + 1)", expect_error=True),
        same("reject_int_condition", "T.Layout([8], lambda i: T.if_then_else(i, 1, 0))", expect_error=True),
        same("reject_select_mixed_types", "T.Layout([8], lambda i: T.Select(i < 4, i < 2, 5))", expect_error=True),
        same("reject_and_of_ints", "T.Layout([8], lambda i: T.if_then_else(T.And(i, 1), i, 0))", expect_error=True),
        same("reject_select_untaken_branch_divides_by_zero",
             "T.Layout([8], lambda i: T.Select(i != 7, 7 // (i - 7), 0))", expect_error=True),
        same("reject_if_then_else_untaken_branch_divides_by_zero",
             "T.Layout([8], lambda i: T.if_then_else(i != 7, 7 // (i - 7), 0))", expect_error=True),
    ]


def swizzle_cases():
    c = []
    legal = {
        "float16": {"quarter": ["8x16", "8x32", "8x64", "32x64"], "half": ["8x32", "8x64", "32x64"],
                    "full": ["8x64", "32x64", "128x64"]},
        "float32": {"quarter": ["8x16", "8x32", "8x64", "32x64"], "half": ["8x16", "8x32", "8x64", "32x64"],
                    "full": ["8x32", "8x64", "32x64"]},
        "int8": {"quarter": ["8x32", "8x64", "32x64"], "half": ["8x64", "32x64"], "full": ["8x128", "16x128"]},
    }
    short = {"float16": "fp16", "float32": "fp32", "int8": "int8"}
    for dt, kinds in legal.items():
        for kind, shapes in kinds.items():
            for s in shapes:
                R, C = map(int, s.split("x"))
                fn = f"make_{kind}_bank_swizzled_layout"
                c.append(builtin(f"swizzle_{kind}_{short[dt]}_{s}", f'{fn}(({R}, {C}), "{dt}")',
                                 f'{fn}(buf(({R}, {C}), "{dt}"))'))
    for kind in ("quarter", "half", "full"):
        fn = f"make_{kind}_bank_swizzled_layout"
        c.append(builtin(f"swizzle_{kind}_fp16_2x8x64", f'{fn}((2, 8, 64), "float16")', f'{fn}(buf((2, 8, 64), "float16"))'))
    c.append(builtin("swizzle_quarter_fp16_4x16", 'make_quarter_bank_swizzled_layout((4, 16), "float16")',
                     'make_quarter_bank_swizzled_layout(buf((4, 16), "float16"))'))
    c.append(builtin("swizzle_full_fp16_4x64", 'make_full_bank_swizzled_layout((4, 64), "float16")',
                     'make_full_bank_swizzled_layout(buf((4, 64), "float16"))'))
    # make_swizzled_layout selection (incl. padded fallback, k_major=False, allow_pad=False, fp64)
    for (R, C), dt, kw in [
        ((32, 32), "float16", ""), ((64, 64), "float16", ""), ((16, 16), "float16", ""),
        ((128, 32), "float16", ""), ((16, 24), "float16", ""), ((16, 8), "float16", ""),
        ((32, 32), "float32", ""), ((32, 64), "float32", ""), ((32, 12), "float32", ""),
        ((64, 64), "int8", ""), ((32, 32), "int8", ", k_major=False"), ((32, 64), "float16", ", k_major=False"),
        ((16, 24), "float16", ", allow_pad=False"), ((32, 64), "float16", ", allow_pad=False"),
        ((16, 16), "float64", ""), ((16, 16), "float64", ", k_major=False"), ((32, 64), "bfloat16", ""),
    ]:
        nm = f"make_swizzled_{dt}_{R}x{C}" + kw.replace(", ", "_").replace("=", "_")
        c.append(builtin(nm, f'make_swizzled_layout(({R}, {C}), "{dt}"{kw})', f'make_swizzled_layout(buf(({R}, {C}), "{dt}"){kw})'))
    c.append(builtin("make_swizzled_fp16_2x32x64", 'make_swizzled_layout((2, 32, 64), "float16")',
                     'make_swizzled_layout(buf((2, 32, 64), "float16"))'))
    for (R, C), dt in [((64, 64), "float16"), ((4, 64), "float16"), ((64, 32), "float16"), ((16, 24), "float16"),
                       ((64, 32), "float32"), ((128, 64), "bfloat16"), ((64, 64), "int8")]:
        c.append(builtin(f"make_wgmma_swizzled_{dt}_{R}x{C}", f'make_wgmma_swizzled_layout(({R}, {C}), "{dt}")',
                         f'make_wgmma_swizzled_layout(buf(({R}, {C}), "{dt}"))'))
    c.append(builtin("make_wgmma_swizzled_float16_64x64_kmajor_False",
                     'make_wgmma_swizzled_layout((64, 64), "float16", k_major=False)',
                     'make_wgmma_swizzled_layout(buf((64, 64), "float16"), k_major=False)'))
    for (R, C), dt in [((16, 64), "float16"), ((32, 32), "float16"), ((64, 64), "float16"), ((16, 16), "float16"),
                       ((32, 64), "int8"), ((8, 32), "float32")]:
        c.append(builtin(f"py_mma_swizzle_{dt}_{R}x{C}", f'make_mma_swizzle_layout(({R}, {C}), "{dt}")',
                         f'make_mma_swizzle_layout(buf(({R}, {C}), "{dt}"))',
                         citation="tilelang/cuda/intrinsics/layout/mma_layout.py make_mma_swizzle_layout"))
    c.append(builtin("make_linear_fp16_8x16", 'make_linear_layout((8, 16), "float16")', 'make_linear_layout(buf((8, 16), "float16"))'))
    c.append(builtin("make_linear_fp32_2x4x8", 'make_linear_layout((2, 4, 8), "float32")', 'make_linear_layout(buf((2, 4, 8), "float32"))'))
    return c


GEMM_CITE = "src/layout/gemm_layouts.cc:36-70 (C++ atoms not exposed to Python in this version)"


def gemm_cases():
    NAMESPACE["lowered_gemm_layout"] = lowered_gemm_layout
    c = [
        builtin("gemm_fragment_8x8", "make_gemm_fragment_8x8()", "make_gemm_fragment_8x8()"),
        builtin("gemm_fragment_8x8_transposed", "make_gemm_fragment_8x8_transposed()", "make_gemm_fragment_8x8_transposed()"),
        builtin("gemm_fragment_8x4", "make_gemm_fragment_8x4()",
                "T.Fragment([8, 4], forward_thread_fn=lambda i, j: j + 4 * i, forward_index_fn=lambda i, j: 0)",
                source="formula", citation=GEMM_CITE),
        builtin("gemm_fragment_8x16", "make_gemm_fragment_8x16()",
                "T.Fragment([8, 16], forward_thread_fn=lambda i, j: j // 4 + 4 * i, forward_index_fn=lambda i, j: j % 4)",
                source="formula", citation=GEMM_CITE),
        builtin("gemm_fragment_8x8_repeat_2x1", "make_gemm_fragment_8x8().repeat([2, 1], repeat_on_thread=False)",
                "make_gemm_fragment_8x8().repeat([2, 1], repeat_on_thread=False)"),
    ]
    # What T.gemm infers, captured from a lowered kernel (never rebuilt from the Python
    # warp-policy helpers, which disagree with T.gemm's C++ partition for some shapes).
    for M, N, th in [(32, 32, 128), (128, 128, 128), (64, 128, 256), (16, 64, 128), (64, 64, 128), (16, 32, 128)]:
        c.append(builtin(f"gemm_c_{M}x{N}_t{th}", f'make_gemm_c_fragment(({M}, {N}), {th}, accum_dtype="float32")',
                         _gemm_py("C_acc", M, N, 32, th), note=GEMM_LOWER_NOTE))
    for dt, nm in [("float16", "fp16"), ("float32", "tf32"), ("int8", "int8")]:
        for mat in ("A", "B"):
            c.append(builtin(f"mma_load_base_{nm}_{mat}", f'make_mma_load_base_layout(dtype="{dt}", matrix="{mat}")',
                             f'make_mma_load_base_layout(dtype="{dt}", matrix="{mat}")',
                             citation="TensorCoreIntrinEmitter.make_mma_load_layout base_fragment"))
    c.append(builtin("mma_load_base_fp16_A_transposed", 'make_mma_load_base_layout(dtype="float16", matrix="A", transposed=True)',
                     'make_mma_load_base_layout(dtype="float16", matrix="A", transposed=True)'))
    base = 'make_mma_load_base_layout(dtype="float16", matrix="A")'
    warp = base + ".repeat([2, 1], repeat_on_thread=True).replicate(2)"
    block = warp + ".repeat([4, 2], repeat_on_thread=False, lower_dim_first=False)"
    cite = "examples/plot_layout/fragment_mma_load_a.py"
    c += [builtin("mma_load_A_base", base, base, citation=cite),
          builtin("mma_load_A_warp", warp, warp, citation=cite),
          builtin("mma_load_A_block", block, block, citation=cite)]
    # T.gemm's register operands, captured from lowered kernels; the spec is the same fragment as
    # a chain of repeats (A in registers: the rs form; B: sr), so the chain is checked against it.
    c.append(builtin("gemm_rs_A_64x32_t128",
                     base + ".repeat([2, 2], repeat_on_thread=False, lower_dim_first=False)"
                            ".repeat([2, 1], repeat_on_thread=True, lower_dim_first=True).replicate(2)",
                     _gemm_py("A_op", 64, 64, 32, 128, a_frag=True), note=GEMM_LOWER_NOTE))
    c.append(builtin("gemm_rr_B_32x64_t128",
                     'make_mma_load_base_layout(dtype="float16", matrix="B")'
                     ".repeat([2, 2], repeat_on_thread=False, lower_dim_first=True)"
                     ".replicate(2).repeat([1, 2], repeat_on_thread=True, lower_dim_first=True)",
                     _gemm_py("B_op", 64, 64, 32, 128, b_frag=True), note=GEMM_LOWER_NOTE))
    mb = 'make_mfma_load_base_layout(dtype="float16", matrix="A", k_dim=16)'
    mw = mb + ".repeat([2, 2], repeat_on_thread=False, lower_dim_first=False)"
    mk = mw + ".repeat([2, 1], repeat_on_thread=True, lower_dim_first=True).replicate(2)"
    cite = "examples/plot_layout/fragment_mfma_load_a.py (tilelang/rocm/intrinsics/mfma_layout.py atoms)"
    c += [builtin("mfma_load_A_base", mb, mb, citation=cite),
          builtin("mfma_load_A_warp", mw, mw, citation=cite),
          builtin("mfma_load_A_block", mk, mk, citation=cite)]
    s = 'make_mfma_load_base_layout(dtype="float16", matrix="B", k_dim=16)'
    c.append(builtin("mfma_load_B_base", s, s, citation=cite))
    # The raw MFMA accumulator atom, from the wheel's own function (T.gemm's is its transpose:
    # the builtin_params family captures that one from lowered gfx942 kernels).
    import tilelang.rocm.intrinsics.mfma_layout as mfma_layout
    NAMESPACE["mfma_layout"] = mfma_layout
    atom = "mfma_layout.shared_16x16_to_local_64x4_layout_C(i, j)"
    c.append(builtin("mfma_c_atom", "make_mfma_c_atom()",
                     f"T.Fragment([16, 16], forward_thread_fn=lambda i, j: {atom}[0], "
                     f"forward_index_fn=lambda i, j: {atom}[1])",
                     citation="tilelang/rocm/intrinsics/mfma_layout.py shared_16x16_to_local_64x4_layout_C"))
    for shape, th in [((2,), 4), ((4, 4), 32), ((2,), 256), ((8,), 128)]:
        sh = "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
        c.append(builtin(f"fully_replicated_{'x'.join(map(str, shape))}_t{th}",
                         f"make_fully_replicated_layout_fragment({sh}, {th})",
                         f'make_fully_replicated_layout_fragment(buf({sh}, "float32"), {th})'))
    c.append(builtin("fully_replicated_alias_2_t4", "make_fully_replicated_fragment((2,), 4)",
                     'make_fully_replicated_layout_fragment(buf((2,), "float32"), 4)',
                     note="alias spelling of make_fully_replicated_layout_fragment used by the brief"))
    return c


ASC_CITE = {
    "zN": "reference §2.4; tilelang-ascend ascend_layout.py:33 make_zn_layout; catlass zN::MakeLayout",
    "nZ": "reference §2.4; tilelang-ascend ascend_layout.py:89 make_nz_layout; catlass nZ::MakeLayout",
    "zZ": "reference §2.4; catlass tla MakeLayout<T, zZ> (checked cell by cell: tests/data/goldens/catlass.json.gz)",
    "L0C": "reference §2.4; catlass zN::MakeLayoutInL0C (16x16 fractals for every dtype)",
}


def ascend_cases():
    c = []
    shapes = [((32, 32), "float16"), ((16, 64), "float16"), ((32, 32), "float32"), ((32, 64), "int8"),
              ((20, 24), "bfloat16"), ((48, 32), "float16")]
    for fam, fn, spec_fn in [("zN", "zn_formula", "make_zn_layout"), ("nZ", "nz_formula", "make_nz_layout"),
                             ("zZ", "zz_formula", "make_zz_layout")]:
        for (R, C), dt in shapes:
            c.append(builtin(f"ascend_{fam}_{dt}_{R}x{C}", f'{spec_fn}(({R}, {C}), "{dt}")',
                             f'{fn}(({R}, {C}), "{dt}")', source="formula", citation=ASC_CITE[fam]))
    for (R, C), dt in [((32, 32), "float32"), ((16, 48), "float32"), ((20, 24), "float32"), ((32, 32), "int32")]:
        c.append(builtin(f"ascend_L0C_{dt}_{R}x{C}", f'make_l0c_layout(({R}, {C}), "{dt}")',
                         f'l0c_formula(({R}, {C}), "{dt}")', source="formula", citation=ASC_CITE["L0C"]))
    # The PyPI tilelang also ships tilelang.layout.ascend (4-output fractal layouts, C++ builders).
    for fn in ("make_ascend_nz_layout", "make_ascend_major_k_layout", "make_ascend_major_mn_layout",
               "make_ascend_l0c_layout", "make_ascend_compact_nz_layout"):
        if fn not in NAMESPACE:
            continue
        for (R, C), dt in [((32, 32), "float16"), ((32, 64), "int8"), ((16, 32), "float32"), ((20, 24), "bfloat16")]:
            if fn == "make_ascend_l0c_layout":
                dt = "float32"
            c.append(dict(name=f"{fn[5:]}_{dt}_{R}x{C}", spec=f'{fn}(({R}, {C}), "{dt}")',
                          python=f'{fn}(buf(({R}, {C}), "{dt}"))'))
        dt = "float32" if fn == "make_ascend_l0c_layout" else "float16"
        c.append(dict(name=f"{fn[5:]}_{dt}_2x32x32", spec=f'{fn}((2, 32, 32), "{dt}")',
                      python=f'{fn}(buf((2, 32, 32), "{dt}"))'))
    return c


# Index inference: fragments given only a thread map, the register index inferred by TileLang.
# Random thread maps over every construct TVM's iterator rewriter meets: affine pieces (`//`, `%`,
# scaled sums it can fuse), and what it cannot represent (`^`, shifts, `&`, `|`, min/max, products
# of variables, `%` by a non-power-of-two over a sum), 1-D to 3-D, replicated or not.
INFER_SEED = int(os.environ.get("TILESCOPE_INFER_SEED", "20261201"))
INFER_COUNT = int(os.environ.get("TILESCOPE_INFER_COUNT", "400"))


def _infer_thread_maps(rng, dims, exts, rep):
    def v():
        return rng.choice(dims)

    def atom():
        x = v()
        e = exts[dims.index(x)]
        divs = [d for d in (2, 3, 4, 8) if d < e] or [1]
        k = rng.randrange(6)
        if k == 0:
            return x
        if k == 1:
            return f"{x} % {rng.choice(divs)}"
        if k == 2:
            return f"{x} // {rng.choice(divs)}"
        if k == 3:
            return f"{x} // {rng.choice(divs)} % {rng.choice([2, 3, 4])}"
        if k == 4:
            return f"{x} * {rng.choice([2, 4, 8])}"
        return f"({x} * {rng.choice([2, 4, 8, 16])} + {v()}) % {rng.choice([2, 3, 4, 5, 6, 8])}"

    def nonaffine():
        a, b = atom(), atom()
        k = rng.randrange(9)
        return ["({a}) ^ ({b})", "({a}) << {c}", "({a}) >> {c}", "({a}) & {m}", "({a}) | ({b})",
                "T.min({a}, {b})", "T.max({a}, {b})", "({a}) * ({b})",
                "(({a}) + ({b})) % {p}"][k].format(a=a, b=b, c=rng.choice([1, 2]),
                                                      m=rng.choice([1, 3, 6, 7]),
                                                      p=rng.choice([3, 5, 6, 7]))

    terms = []
    for _ in range(rng.choice([1, 2, 2, 3])):
        t = nonaffine() if rng.random() < 0.6 else atom()
        if rng.random() < 0.4:
            t = f"({t}) * {rng.choice([2, 4, 8, 16])}"
        terms.append(f"({t})" if any(op in t for op in ("<<", ">>", "&", "|", "^")) else t)
    if rep > 1:
        terms.append(rng.choice([f"rep * {rng.choice([16, 32, 64])}", "rep % 2 * 64", f"rep * 128"]))
    return " + ".join(terms)


def infer_cases():
    import random
    rng = random.Random(INFER_SEED)
    shapes = [[8], [16], [32], [64], [4, 8], [8, 8], [16, 8], [8, 16], [12, 8], [16, 16],
              [2, 4, 8], [4, 4, 4], [2, 8, 8], [3, 4, 8]]
    names = ["i", "j", "k"]
    cases = []
    fixed = [  # the forms named where the inference differs from a value-based reading
        ([8, 8], 1, "i ^ j"), ([8, 8], 1, "(i * 8 + j) % 3"), ([16, 8], 1, "i % 4 * 2 + (i ^ j) % 2"),
        ([8, 8], 1, "T.min(i, j)"), ([8, 8], 1, "(i << 1) + (j >> 2)"), ([8, 8], 1, "(i & 3) | (j & 4)"),
        ([16, 16], 1, "(i * 16 + j) // 3 % 8"), ([8, 8], 1, "(i * 4 + j % 4) // 2"),
        ([8, 8], 1, "i * j"), ([64], 1, "i % 8 * 4 + i // 16"), ([16, 16], 1, "(i // 2 * 16 + j) % 32"),
        ([8, 16], 1, "(i * 16 + j) % 24"), ([8, 8], 2, "i ^ j + rep * 64"), ([16], 4, "(i ^ rep) % 8"),
        ([32, 8], 1, "i % 8 * 4 + j // 2 + T.max(i // 8, 1) * 32"),
    ]
    for shape, rep, th in fixed:
        rng.random()
        cases.append((shape, rep, th))
    while len(cases) < INFER_COUNT:
        shape = rng.choice(shapes)
        rep = rng.choice([1, 1, 1, 2, 4])
        cases.append((shape, rep, _infer_thread_maps(rng, names[:len(shape)], shape, rep)))
    out = []
    for n, (shape, rep, th) in enumerate(cases):
        args = ", ".join(names[:len(shape)]) + (", rep" if rep > 1 else "")
        text = (f"T.Fragment({shape}, forward_thread_fn=lambda {args}: {th}"
                + (f", replicate={rep})" if rep > 1 else ")"))
        out.append(same(f"infer_{n:03d}_{'x'.join(map(str, shape))}_r{rep}", text,
                        note="register index inferred from the thread map"))
    return out


# ----------------------------------------------------------------------------------------------
# builtin_params: every parameter TileLang honours. Fragments that T.gemm produces are captured
# from kernels lowered by the real TileLang (the layout map LayoutInference attaches to the IR),
# never rebuilt from the Python warp-policy helpers, which disagree with T.gemm for some shapes.
# ----------------------------------------------------------------------------------------------

GEMM_TARGETS = {"sm_80": {"kind": "cuda", "arch": "sm_80"}, "sm_90": {"kind": "cuda", "arch": "sm_90"},
                "gfx942": {"kind": "hip", "mcpu": "gfx942"}}
_GEMM_LOWERED = {}


def _gemm_kernel(M, N, K, threads, dtype, accum, trans_a, trans_b, a_frag, b_frag, policy):
    a_shape = (K, M) if trans_a else (M, K)
    b_shape = (N, K) if trans_b else (K, N)
    pol = getattr(T.GemmWarpPolicy, policy)

    @T.prim_func
    def gemm_kernel(A: T.Tensor(a_shape, dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), accum)):
        with T.Kernel(1, threads=threads) as bx:
            A_op = T.alloc_fragment(a_shape, dtype) if a_frag else T.alloc_shared(a_shape, dtype)
            B_op = T.alloc_fragment(b_shape, dtype) if b_frag else T.alloc_shared(b_shape, dtype)
            C_acc = T.alloc_fragment((M, N), accum)
            T.clear(C_acc)
            T.copy(A[0, 0], A_op)
            T.copy(B[0, 0], B_op)
            T.gemm(A_op, B_op, C_acc, transpose_A=trans_a, transpose_B=trans_b, policy=pol)
            T.copy(C_acc, C[0, 0])

    return gemm_kernel


class _Quiet:
    """Silences the layout-visualization dump (file descriptors 1 and 2) while a kernel lowers."""

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self.saved = [os.dup(1), os.dup(2)]
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)

    def __exit__(self, *exc):
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, saved in zip((1, 2), self.saved):
            os.dup2(saved, fd)
            os.close(saved)
        return False


def _lower_gemm(key):
    """Lowers one T.gemm kernel for the target and returns {buffer name: inferred layout}."""
    (target, M, N, K, threads, dtype, accum, trans_a, trans_b, a_frag, b_frag, policy) = key
    import tilelang.analysis
    from tvm.tirx import stmt_functor

    captured = {}
    orig = tilelang.analysis.LayoutVisual

    def wrapped(*a, **kw):
        visual = orig(*a, **kw)

        def run(mod):
            # LayoutVisual runs right after LayoutInference, on blocks annotated with the
            # inferred "layout_map".
            for _, func in mod.functions.items():
                if not hasattr(func, "body"):
                    continue

                def visit(node):
                    if isinstance(node, tvm.tirx.SBlock) and "layout_map" in node.annotations:
                        for b, lay in node.annotations["layout_map"].items():
                            captured[b.name] = lay

                stmt_functor.post_order_visit(func.body, visit)
            return visual(mod)

        return run

    tilelang.analysis.LayoutVisual = wrapped
    tgt = GEMM_TARGETS[target]
    try:
        func = _gemm_kernel(M, N, K, threads, dtype, accum, trans_a, trans_b, a_frag, b_frag, policy)
        with _Quiet():
            with tvm.transform.PassContext(opt_level=3, config={"tl.layout_visualization_enable": True}):
                with tvm.target.Target(tgt):
                    tilelang.lower(func, target=tgt)
    finally:
        tilelang.analysis.LayoutVisual = orig
    return captured


def lowered_gemm_layout(buffer, M, N, K, threads, dtype="float16", accum="float32", target="sm_80",
                        trans_a=False, trans_b=False, a_frag=False, b_frag=False, policy="Square"):
    """The layout T.gemm gave ``buffer`` ("A_op", "B_op" or "C_acc") in a kernel lowered by
    TileLang for ``target``; raises what TileLang raised when the kernel does not lower."""
    key = (target, M, N, K, threads, dtype, accum, trans_a, trans_b, a_frag, b_frag, policy)
    if key not in _GEMM_LOWERED:
        try:
            _GEMM_LOWERED[key] = _lower_gemm(key)
        except Exception as e:  # noqa: BLE001 - recorded as this case's error
            _GEMM_LOWERED[key] = e
    r = _GEMM_LOWERED[key]
    if isinstance(r, Exception):
        raise r
    return r[buffer]


def _kw(**kw):
    return "".join(f", {k}={v!r}" for k, v in kw.items()).replace("'", '"')


def _gemm_py(buffer, M, N, K, threads, **kw):
    return f'lowered_gemm_layout("{buffer}", {M}, {N}, {K}, {threads}' + _kw(**kw) + ")"


GEMM_LOWER_NOTE = ("captured from T.gemm in a kernel lowered by tilelang.lower (LayoutInference's layout_map)")


def _c_cases():
    c = []
    # sm_80 mma accumulator: warp partition for every policy, incl. non-power-of-two warp counts
    shapes = [(16, 32), (32, 32), (48, 16), (96, 8)]
    for (M, N), th, pol in itertools.product(shapes, [32, 64, 96, 128, 192, 256, 384],
                                             ["Square", "FullRow", "FullCol"]):
        c.append(builtin(f"gemm_c_sm80_{M}x{N}_t{th}_{pol}",
                         f'make_gemm_c_fragment(({M}, {N}), {th}, policy="{pol}")',
                         _gemm_py("C_acc", M, N, 32, th, policy=pol), note=GEMM_LOWER_NOTE))
    for (M, N), th in [((16, 16), 64), ((32, 32), 48), ((32, 32), 100), ((32, 32), 16), ((24, 32), 32),
                       ((32, 12), 32), ((32, 64), 512), ((64, 32), 256)]:
        c.append(builtin(f"gemm_c_sm80_{M}x{N}_t{th}_Square",
                         f'make_gemm_c_fragment(({M}, {N}), {th})',
                         _gemm_py("C_acc", M, N, 32, th), note=GEMM_LOWER_NOTE))
    # operand / accumulator dtypes (the fp64 accumulator is an m8n8k4 atom with two slots)
    for dt, acc in [("float16", "float32"), ("float16", "float16"), ("bfloat16", "float32"),
                    ("float32", "float32"), ("int8", "int32"), ("uint8", "int32"), ("float64", "float64"),
                    ("float16", "float64"), ("float8_e4m3", "float32"), ("float8_e5m2", "float32"),
                    ("bfloat16", "bfloat16"), ("int8", "float32"), ("float32", "float16"), ("float64", "float32"),
                    ("int4", "int32"), ("float16", "int32")]:
        for (M, N), th in [((16, 32), 64), ((48, 16), 96)]:
            c.append(builtin(f"gemm_c_sm80_{M}x{N}_t{th}_{dt}_{acc}",
                             f'make_gemm_c_fragment(({M}, {N}), {th}, accum_dtype="{acc}", dtype="{dt}")',
                             _gemm_py("C_acc", M, N, 32, th, dtype=dt, accum=acc), note=GEMM_LOWER_NOTE))
    # the accum_dtype default operand: float64 -> float64, int32 -> int8
    for acc, dt in [("float64", "float64"), ("int32", "int8"), ("float16", "float16")]:
        c.append(builtin(f"gemm_c_sm80_32x64_t128_accum_{acc}_default_operand",
                         f'make_gemm_c_fragment((32, 64), 128, accum_dtype="{acc}")',
                         _gemm_py("C_acc", 32, 64, 32, 128, dtype=dt, accum=acc), note=GEMM_LOWER_NOTE))
    # chunk: the accumulator builtins check K as T.gemm does
    for spec, py in [('make_gemm_c_fragment((32, 32), 128, chunk=8)', _gemm_py("C_acc", 32, 32, 8, 128)),
                     ('make_gemm_c_fragment((32, 32), 128, chunk=24)', _gemm_py("C_acc", 32, 32, 24, 128)),
                     ('make_gemm_c_fragment((32, 32), 128, dtype="float32", chunk=4)',
                      _gemm_py("C_acc", 32, 32, 4, 128, dtype="float32")),
                     ('make_mfma_c_fragment((32, 32), 64, chunk=8)',
                      _gemm_py("C_acc", 32, 32, 8, 64, target="gfx942")),
                     ('make_mfma_c_fragment((32, 32), 64, chunk=48)',
                      _gemm_py("C_acc", 32, 32, 48, 64, target="gfx942")),
                     ('make_wgmma_c_fragment((64, 16), 128, chunk=48)',
                      _gemm_py("C_acc", 64, 16, 48, 128, target="sm_90"))]:
        k = spec[spec.index("chunk=") + 6:-1]
        c.append(builtin(f"{spec[5:spec.index('(')]}_chunk{k}_" + ("fp32" if "float32" in spec else "fp16"),
                         spec, py, note=GEMM_LOWER_NOTE))
    # gfx942 MFMA accumulator (what T.gemm infers: the transpose of the raw 16x16 atom per tile)
    for (M, N), th, pol in itertools.product([(16, 16), (32, 32), (48, 16), (16, 64)],
                                             [64, 128, 192, 256], ["Square", "FullRow", "FullCol"]):
        c.append(builtin(f"mfma_c_gfx942_{M}x{N}_t{th}_{pol}",
                         f'make_mfma_c_fragment(({M}, {N}), {th}, policy="{pol}")',
                         _gemm_py("C_acc", M, N, 32, th, target="gfx942", policy=pol), note=GEMM_LOWER_NOTE))
    for dt, acc in [("bfloat16", "float32"), ("float32", "float32"), ("int8", "int32"), ("float16", "float16"),
                    ("float64", "float64"), ("float8_e4m3fnuz", "float32"), ("float8_e4m3", "float32"),
                    ("uint8", "int32"), ("float16", "int32"), ("bfloat16", "bfloat16")]:
        c.append(builtin(f"mfma_c_gfx942_32x32_t64_{dt}_{acc}",
                         f'make_mfma_c_fragment((32, 32), 64, accum_dtype="{acc}", dtype="{dt}")',
                         _gemm_py("C_acc", 32, 32, 32, 64, target="gfx942", dtype=dt, accum=acc), note=GEMM_LOWER_NOTE))
    # sm_90: WGMMA where T.gemm issues it (M >= 64, warps a multiple of 4, fp8/int8 with B
    # transposed), else mma.sync, the sm80 accumulator
    for (M, N), th, pol in itertools.product([(64, 16), (64, 24), (128, 8), (64, 48)], [128, 256, 384],
                                             ["Square", "FullRow", "FullCol"]):
        c.append(builtin(f"wgmma_c_sm90_{M}x{N}_t{th}_{pol}",
                         f'make_wgmma_c_fragment(({M}, {N}), {th}, policy="{pol}")',
                         _gemm_py("C_acc", M, N, 32, th, target="sm_90", policy=pol), note=GEMM_LOWER_NOTE))
    for dt, acc, tb in [("bfloat16", "float32", False), ("float16", "float16", False), ("int8", "int32", True),
                        ("uint8", "int32", True), ("float8_e4m3", "float32", True), ("float8_e5m2", "float16", True)]:
        c.append(builtin(f"wgmma_c_sm90_64x16_t128_{dt}_{acc}",
                         f'make_wgmma_c_fragment((64, 16), 128, accum_dtype="{acc}", dtype="{dt}")',
                         _gemm_py("C_acc", 64, 16, 32, 128, target="sm_90", dtype=dt, accum=acc, trans_b=tb),
                         note=GEMM_LOWER_NOTE + "; B transposed, as WGMMA needs for 8-bit types" if tb else GEMM_LOWER_NOTE))
    for (M, N), th, dt, acc in [((32, 32), 128, "float16", "float32"), ((64, 32), 96, "float16", "float32"),
                                ((64, 32), 128, "float32", "float32"), ((64, 32), 128, "int8", "int32"),
                                ((64, 32), 128, "float64", "float64")]:
        c.append(builtin(f"gemm_c_sm90_fallback_{M}x{N}_t{th}_{dt}_{acc}",
                         f'make_gemm_c_fragment(({M}, {N}), {th}, accum_dtype="{acc}", dtype="{dt}")',
                         _gemm_py("C_acc", M, N, 32, th, target="sm_90", dtype=dt, accum=acc),
                         note=GEMM_LOWER_NOTE + "; sm_90 without WGMMA here, so mma.sync"))
    for acc, dt in [("int32", "int8"), ("float16", "float16")]:
        c.append(builtin(f"mfma_c_gfx942_32x32_t64_accum_{acc}_default_operand",
                         f'make_mfma_c_fragment((32, 32), 64, accum_dtype="{acc}")',
                         _gemm_py("C_acc", 32, 32, 32, 64, target="gfx942", dtype=dt, accum=acc), note=GEMM_LOWER_NOTE))
    return c


def _accum_for(dt):
    return "float64" if dt == "float64" else ("int32" if dt in ("int8", "uint8", "int4") else "float32")


def _operand_cases():
    """One register operand per kernel (A in registers: the rs form; B: sr), so a rejection is the
    operand's own."""
    c = []
    sm80 = []  # (M, N, K, threads, dtype, policy)
    for dt, k in [("float16", 16), ("bfloat16", 16), ("float32", 8), ("int8", 32), ("float64", 8),
                  ("float8_e4m3", 32), ("int4", 64)]:
        sm80 += [(32, 32, k, 128, dt, "Square"), (16, 16, 2 * k, 32, dt, "Square")]
    sm80 += [(32, 32, 8, 128, "float16", "Square"), (16, 32, 48, 64, "float16", "Square"),
             (32, 32, 24, 128, "float16", "Square"), (32, 32, 12, 128, "float16", "Square"),
             (48, 16, 16, 96, "float16", "Square"), (32, 48, 16, 192, "float16", "Square"),
             (96, 16, 16, 384, "float16", "FullRow"), (32, 64, 16, 256, "float16", "FullCol"),
             (32, 32, 16, 128, "float32", "Square"), (32, 32, 4, 128, "float32", "Square"),
             (32, 32, 16, 128, "int8", "Square"), (32, 24, 16, 64, "float16", "Square")]
    for (M, N, K, th, dt, pol), (mat, tr) in itertools.product(sm80, [("A", False), ("A", True), ("B", False), ("B", True)]):
        kw = dict(dtype=dt, accum=_accum_for(dt), policy=pol)
        kw["trans_a" if mat == "A" else "trans_b"] = tr
        kw["a_frag" if mat == "A" else "b_frag"] = True
        c.append(builtin(f"mma_load_sm80_{mat}{'T' if tr else 'N'}_{M}x{N}x{K}_t{th}_{dt}_{pol}",
                         f'make_mma_load_layout(({M}, {N}), {K}, "{dt}", "{mat}", {th}, '
                         f'transposed={tr}, policy="{pol}")',
                         _gemm_py(f"{mat}_op", M, N, K, th, **kw), note=GEMM_LOWER_NOTE))
    gfx = []
    for dt, k in [("float16", 16), ("bfloat16", 16), ("float32", 4), ("int8", 32), ("float8_e4m3fnuz", 32)]:
        gfx += [(16, 16, k, 64, dt, "Square"), (32, 32, k, 256, dt, "Square") if dt == "float16" else None]
    gfx = [g for g in gfx if g]
    gfx += [(16, 64, 32, 128, "float16", "Square"), (32, 16, 16, 128, "float16", "FullRow"),
            (32, 32, 8, 64, "float16", "Square"), (32, 32, 48, 64, "float16", "Square"),
            (32, 32, 8, 64, "float32", "Square"), (48, 32, 16, 192, "float16", "FullRow"),
            (16, 16, 16, 64, "uint8", "Square")]
    for (M, N, K, th, dt, pol), (mat, tr) in itertools.product(gfx, [("A", False), ("A", True), ("B", False), ("B", True)]):
        kw = dict(dtype=dt, accum="int32" if dt == "int8" else "float32", policy=pol, target="gfx942")
        kw["trans_a" if mat == "A" else "trans_b"] = tr
        kw["a_frag" if mat == "A" else "b_frag"] = True
        c.append(builtin(f"mfma_load_gfx942_{mat}{'T' if tr else 'N'}_{M}x{N}x{K}_t{th}_{dt}_{pol}",
                         f'make_mfma_load_layout(({M}, {N}), {K}, "{dt}", "{mat}", {th}, '
                         f'transposed={tr}, policy="{pol}")',
                         _gemm_py(f"{mat}_op", M, N, K, th, **kw), note=GEMM_LOWER_NOTE))
    return c


def _swizzle_param_cases():
    c = []
    # make_wgmma_swizzled_layout / make_tcgen05mma_swizzled_layout: continuity and k_major
    for fn in ("make_wgmma_swizzled_layout", "make_tcgen05mma_swizzled_layout"):
        short = fn[5:-16]
        for (R, C), dt in [((16, 16), "float64"), ((16, 32), "float64"), ((8, 8), "float64"), ((12, 8), "float64"),
                           ((8, 64), "float16"), ((8, 24), "float16"), ((16, 32), "float32"), ((8, 128), "int8")]:
            for cont, km in ([(None, True), (None, False), (8, True), (8, False), (16, True), (16, False),
                              (32, True), (64, False)] if dt == "float64" else [(None, True), (16, False)]):
                    kw = ("" if cont is None else f", continuity={cont}") + ("" if km else ", k_major=False")
                    nm = f"{short}_{dt}_{R}x{C}" + ("" if cont is None else f"_c{cont}") + ("" if km else "_kouter")
                    c.append(builtin(nm, f'{fn}(({R}, {C}), "{dt}"{kw})', f'{fn}(buf(({R}, {C}), "{dt}"){kw})'))
        c.append(builtin(f"{short}_float64_2x8x16_c16", f'{fn}((2, 8, 16), "float64", continuity=16)',
                         f'{fn}(buf((2, 8, 16), "float64"), continuity=16)'))
    # make_volta_swizzled_layout: is_a, k_inner
    for (R, C) in [(32, 32), (32, 64), (8, 64), (16, 16), (4, 128), (32, 48)]:
        for is_a, k_inner in itertools.product((True, False), (True, False)):
            kw = ("" if is_a else ", is_a=False") + ("" if k_inner else ", k_inner=False")
            c.append(builtin(f"volta_{R}x{C}_{'a' if is_a else 'b'}_{'kin' if k_inner else 'kout'}",
                             f'make_volta_swizzled_layout(({R}, {C}), "float16"{kw})',
                             f'make_volta_swizzled_layout(buf(({R}, {C}), "float16"){kw})'))
    c.append(builtin("volta_2x4x64_b_kout", 'make_volta_swizzled_layout((2, 4, 64), "float16", is_a=False, k_inner=False)',
                     'make_volta_swizzled_layout(buf((2, 4, 64), "float16"), is_a=False, k_inner=False)'))
    # make_swizzled_layout's k_major for fp64/int8 and allow_pad=False corner cases
    for (R, C), dt, kw in [((16, 8), "float64", ", allow_pad=False"), ((12, 8), "float64", ", allow_pad=False"),
                           ((16, 16), "float64", ", allow_pad=False, k_major=False"),
                           ((32, 32), "int8", ", allow_pad=False, k_major=False"), ((4, 24), "float16", ", allow_pad=False")]:
        nm = f"swizzled_{dt}_{R}x{C}" + kw.replace(", ", "_").replace("=", "_")
        c.append(builtin(nm, f'make_swizzled_layout(({R}, {C}), "{dt}"{kw})',
                         f'make_swizzled_layout(buf(({R}, {C}), "{dt}"){kw})'))
    return c


def _ascend_param_cases():
    c = []
    for fn in ("make_ascend_major_k_layout", "make_ascend_major_mn_layout"):
        for dims, dt, ka in [((32, 32), "float16", 1), ((32, 32), "float16", 16), ((32, 32), "float16", 32),
                               ((32, 48), "float16", 32), ((32, 48), "float16", 16), ((48, 32), "float16", 16),
                               ((32, 32), "float16", 64), ((32, 32), "float16", 0), ((32, 32), "float16", -4),
                               ((32, 32), "float16", 3), ((32, 64), "int8", 64), ((16, 32), "float32", 16),
                               ((20, 24), "bfloat16", 4), ((2, 32, 32), "float16", 32)]:
            shape = "(" + ", ".join(map(str, dims)) + ")"
            c.append(builtin(f"{fn[5:]}_{dt}_{'x'.join(map(str, dims))}_kalign{ka}".replace("-", "m"),
                             f'{fn}({shape}, "{dt}", k_align={ka})', f'{fn}(buf({shape}, "{dt}"), k_align={ka})'))
    for dims, dt in [((32, 32), "uint8"), ((32, 32), "int8"), ((32, 32), "float16"), ((32, 32), "float8_e8m0fnu"),
                     ((16, 4), "uint8"), ((20, 6), "uint8"), ((2, 32, 32), "int8"), ((32, 32), "float32"),
                     ((32, 8), "int4"), ((16,), "uint8")]:
        shape = "(" + ", ".join(map(str, dims)) + ("," if len(dims) == 1 else "") + ")"
        c.append(builtin(f"ascend_sf_layout_{dt}_{'x'.join(map(str, dims))}",
                         f'make_ascend_sf_layout({shape}, "{dt}")', f'make_ascend_sf_layout(buf({shape}, "{dt}"))'))
    return c


def _method_cases():
    c = []
    # Fragment.expand: TileLang returns a Layout over [leading..., index...] (the thread map is dropped)
    for nm, arg in (("2", "[2]"), ("2x3", "[2, 3]"), ("int2", "2"), ("empty", "[]")):
        c.append(same(f"fragment_expand_{nm}", BASE88 + f".expand({arg})"))
    c.append(same("fragment_expand_replicated", BASE88 + ".replicate(2).expand([3])"))
    c.append(same("fragment_expand_zero", BASE88 + ".expand([0])"))
    # Layout.reshape / Fragment.reshape, with the element-size rescale
    TR = "T.Layout([8, 8], lambda i, j: (j, i))"
    LIN = "T.Layout([8, 8], lambda i, j: i * 8 + j)"
    for nm, text in [("layout_reshape_64", TR + ".reshape([64])"), ("layout_reshape_4x16", TR + ".reshape([4, 16])"),
                     ("layout_reshape_same", TR + ".reshape([8, 8])"),
                     ("layout_reshape_narrow_2", TR + ".reshape([8, 16], 2, 1)"),
                     ("layout_reshape_narrow_4_2", TR + ".reshape([8, 16], 4, 2)"),
                     ("layout_reshape_narrow_3", TR + ".reshape([8, 24], 3, 1)"),
                     ("layout_reshape_widen_linear", LIN + ".reshape([4, 8], 1, 2)"),
                     ("layout_reshape_widen_interleaved", TR + ".reshape([4, 8], 1, 2)"),
                     ("layout_reshape_equal_rescale", TR + ".reshape([4, 16], 2, 2)"),
                     ("layout_reshape_bad_product", TR + ".reshape([8, 9])"),
                     ("layout_reshape_keywords", TR + ".reshape(shape=[2, 32], rescale_num=1, rescale_den=1)"),
                     ("layout_reshape_swizzle_3d",
                      'make_full_bank_swizzled_layout(buf((16, 64), "float16")).reshape([2, 8, 64])'),
                     ("fragment_reshape_64", BASE88 + ".reshape([64])"),
                     ("fragment_reshape_2x32", BASE88 + ".reshape([2, 32])"),
                     ("fragment_reshape_narrow_2", BASE88 + ".reshape([8, 16], 2, 1)"),
                     ("fragment_reshape_widen", BASE88 + ".reshape([4, 8], 1, 2)"),
                     ("fragment_reshape_replicated", BASE88 + ".replicate(2).reshape([64])"),
                     ("fragment_reshape_widen_incompatible",
                      "T.Fragment([8, 8], forward_thread_fn=lambda i, j: j * 4 + i // 2, forward_index_fn=lambda i, j: i % 2)"
                      ".reshape([8, 4], 1, 2)")]:
        spec = text.replace('buf((16, 64), "float16")', '(16, 64), "float16"')
        c.append(builtin(nm, spec, text))
    # PartialFragment: the table of a fully replicated fragment (combine is not a layout property)
    for shape, th in [((4, 4), 32), ((2,), 4), ((8,), 128)]:
        sh = "(" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"
        c.append(builtin(f"fully_replicated_partial_{'x'.join(map(str, shape))}_t{th}",
                         f"make_fully_replicated_partial_fragment({sh}, {th})",
                         f"tl_layout.make_fully_replicated_partial_fragment({list(shape)}, {th})"))
    return c


# Ascend fractal layouts from the real CATLASS Python DSL (PyPI ascend-catlass-dsl): the shape and
# stride trees its make_tensor_like materializes for an on-chip tile, evaluated CuTe-style
# (colexicographic coordinates, sum of leaf coordinate x stride) by TileLang. The DSL lives in its
# own venv (it needs no NPU for this): TILESCOPE_CATLASS_PYTHON, default .venv-ascend/bin/python
# (tools/setup-ascend-venv.sh).
CATLASS_PYTHON = os.environ.get(
    "TILESCOPE_CATLASS_PYTHON",
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), ".venv-ascend/bin/python"))
CATLASS_DTYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "int8": "i8", "int32": "i32",
                  "uint8": "u8", "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2", "float4_e2m1fn": "f4e2m1"}
CATLASS_TAGS = {"make_zn_layout": "zN", "make_nz_layout": "nZ", "make_l0c_layout": "L0Clayout"}
_CATLASS = {}
_CATLASS_CHILD = """
import json, sys
import catlass
from catlass import core_api
out = []
for rows, cols, dtype, tag in json.load(sys.stdin):
    r = core_api._materialize_layout_trees_from_origin((rows, cols), dtype, tag)
    out.append(None if r is None else [r[0], r[1]])
print(json.dumps({"version": catlass.__version__, "trees": out}))
"""


def _catlass_fetch(requests):
    import subprocess
    if not os.path.exists(CATLASS_PYTHON):
        raise SystemExit(f"builtin_params needs the CATLASS DSL: {CATLASS_PYTHON} does not exist "
                         "(bash tools/setup-ascend-venv.sh, or set TILESCOPE_CATLASS_PYTHON)")
    p = subprocess.run([CATLASS_PYTHON, "-c", _CATLASS_CHILD], input=json.dumps(requests), text=True,
                       capture_output=True, cwd="/")
    if p.returncode:
        raise SystemExit("the CATLASS DSL failed: " + p.stderr.strip().splitlines()[-1])
    d = json.loads(p.stdout)
    _CATLASS["version"] = d["version"]
    for req, trees in zip(requests, d["trees"]):
        _CATLASS[tuple(req)] = trees


def _tree_offset(x, shape, stride):
    """CuTe/TLA coordinate -> offset for one mode: colexicographic split over the leaves."""
    if isinstance(shape, int):
        return x * stride
    off, rest = 0, x
    for k, (s, d) in enumerate(zip(shape, stride)):
        size = 1
        for leaf in (s if isinstance(s, list) else [s]):
            size *= leaf
        last = k == len(shape) - 1
        off = off + _tree_offset(rest if last else rest % size, s, d)
        if not last:
            rest = rest // size
    return off


def catlass_layout(rows, cols, dtype, tag):
    trees = _CATLASS[(rows, cols, dtype, tag)]
    if trees is None:
        raise ValueError(f"CATLASS has no {tag} layout for {rows}x{cols} {dtype}")
    (rs, cs), (rd, cd) = trees
    return T.Layout([rows, cols], lambda r, c: _tree_offset(r, rs, rd) + _tree_offset(c, cs, cd))


def _catlass_cases():
    c, requests = [], []
    for fn, tag in CATLASS_TAGS.items():
        for (R, C), dt in [((32, 32), "float16"), ((16, 64), "float16"), ((32, 32), "float32"), ((32, 64), "int8"),
                           ((20, 24), "bfloat16"), ((48, 32), "float16"), ((17, 40), "float8_e4m3fn"),
                           ((32, 128), "float4_e2m1fn"), ((8, 8), "int32"), ((33, 15), "uint8")]:
            if fn == "make_l0c_layout" and dt not in ("float32", "int32", "float16"):
                continue
            req = [R, C, CATLASS_DTYPES[dt], tag]
            requests.append(req)
            c.append(builtin(f"catlass_dsl_{tag}_{dt}_{R}x{C}", f'{fn}(({R}, {C}), "{dt}")',
                             f'catlass_layout({R}, {C}, "{req[2]}", "{tag}")',
                             source="ascend-catlass-dsl",
                             citation="catlass.core_api._materialize_layout_trees_from_origin "
                                      f"({tag} shape/stride trees), evaluated by TileLang"))
    _catlass_fetch(requests)
    for case in c:
        case["source"] = f"ascend-catlass-dsl {_CATLASS['version']}"
    return c


def builtin_params_cases():
    NAMESPACE["lowered_gemm_layout"] = lowered_gemm_layout
    NAMESPACE["catlass_layout"] = catlass_layout
    if hasattr(tl_layout, "make_tcgen05mma_swizzled_layout"):
        NAMESPACE["make_tcgen05mma_swizzled_layout"] = tl_layout.make_tcgen05mma_swizzled_layout
        NAMESPACE["make_volta_swizzled_layout"] = tl_layout.make_volta_swizzled_layout
        NAMESPACE["make_ascend_sf_layout"] = tl_layout.make_ascend_sf_layout
    return (_swizzle_param_cases() + _ascend_param_cases() + _catlass_cases() + _method_cases() + _c_cases()
            + _operand_cases())


FAMILIES = {
    "handwritten": handwritten_cases,
    "swizzle": swizzle_cases,
    "gemm": gemm_cases,
    "ascend": ascend_cases,
    "infer": infer_cases,
    "builtin_params": builtin_params_cases,
}


def _error_line(e):
    """The line of an exception that says what failed (TVM puts source excerpts after it)."""
    lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
    for ln in reversed(lines):
        if "Check failed" in ln or "Error" in ln or "error" in ln or "must" in ln:
            return ln
    return lines[-1] if lines else ""


def dump_family(path, header, cases):
    """Pretty header, one cell per line without indent (diff-friendly once inflated, compact: the
    tree must stay under the device tool's 64 MiB), gzipped where path ends in .gz."""
    with golden_file.writing(path) as f:
        f.write("{\n")
        for k, v in header.items():
            f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        f.write('  "cases": [\n')
        for ci, case in enumerate(cases):
            table = case["table"]
            f.write("    {\n")
            for k, v in case.items():
                if k == "table":
                    continue
                f.write(f"      {json.dumps(k)}: {json.dumps(v)},\n")
            f.write('      "table": {')
            f.write(", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in table.items() if k != "cells"))
            f.write(', "cells": [\n')
            cells = table["cells"]
            for i, cell in enumerate(cells):
                f.write(json.dumps(cell, separators=(",", ":")) + ("," if i + 1 < len(cells) else "") + "\n")
            f.write("      ]}\n")
            f.write("    }" + ("," if ci + 1 < len(cases) else "") + "\n")
        f.write("  ]\n}\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/goldens")
    ap.add_argument("--only", action="append", choices=sorted(FAMILIES))
    args = ap.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    command = "python tools/gen_goldens.py" + "".join(f" --only {o}" for o in (args.only or []))
    failures = []
    for fam, fn in FAMILIES.items():
        if args.only and fam not in args.only:
            continue
        cases = []
        skipped = []
        t0 = time.time()
        for spec in fn():
            expect_error = spec.pop("expect_error", False)
            try:
                case = make_case(**spec)
            except Exception as e:  # record, do not hide
                last = str(e).strip().splitlines()[-1] if str(e).strip() else ""
                # builtin_params lowers kernels: TVM appends source excerpts after the message.
                msg = f"{type(e).__name__}: {_error_line(e) if fam == 'builtin_params' else last}"
                entry = {"name": spec["name"], "spec": spec["spec"], "python": spec["python"], "error": msg}
                if expect_error:
                    entry["expected"] = True  # TileLang refuses it, on purpose: Tilescope must too
                else:
                    failures.append((fam, spec["name"], msg))
                skipped.append(entry)
                continue
            if expect_error:
                failures.append((fam, spec["name"], "expected TileLang to refuse it, but it did not"))
                continue
            cases.append(case)
        header = {
            "tilelang_version": TL_VERSION,
            "command": command,
            "generator": "tools/gen_goldens.py",
            "python": sys.version.split()[0],
            "family": fam,
            "cell_format": "tilescope-cli table (product.md); fragments: threads[r] for replica r, local slot",
            "errors": skipped,
        }
        path = golden_file.golden_path(args.out, fam)
        dump_family(path, header, cases)
        print(f"{path}: {len(cases)} cases, {len(skipped)} errors, {time.time() - t0:.1f}s, "
              f"{os.path.getsize(path) / 1e6:.2f} MB")
    for fam, name, msg in failures:
        print(f"  error {fam}/{name}: {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
