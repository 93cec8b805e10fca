# SPDX-License-Identifier: Apache-2.0
"""MFMA operand base layouts as the released TileLang lowers them for gfx942.

    .venv/bin/python tools/gen_mfma_goldens.py [--out tests/data/goldens/mfma_base.json.gz]

`make_mfma_load_base_layout(dtype, matrix, k_dim, transposed)` is one wavefront's register
operand tile of an MFMA. TileLang 0.1.15 has no function of that name (the plot_layout example
that defines one imports modules the wheel does not ship); what it does have is the MFMA emitter
T.gemm lowers through (tilelang/rocm/intrinsics/mfma_macro_generator.py,
MatrixCoreIntrinEmitter.make_mfma_load_layout): its base fragment is (16, k) for a spatial x
reduction operand and (k, 16) for a transposed one, on 64 lanes, where k = the type's micro K
(4 for float32, 16 for float16/bfloat16, 32 for int8/fp8) times k_pack (the ROCm T.gemm's
`k_pack`, 1 or 2).

Every case here is captured from a T.gemm kernel lowered by `tilelang.lower` for gfx942 (CPU
only): for the base, one 64-thread block, a 16 x 16 accumulator, K = k, the operand under test in
registers
(T.alloc_fragment) and the other in shared memory, so that the layout LayoutInference gives
the operand is the base fragment itself. Its spec is the builtin call with k_dim = k. Kernels
TileLang does not lower (float32 with k_pack 2: no 16x8 MFMA operand layout) are `errors`
entries with TileLang's message, which Tilescope must refuse too. Whole-block operands with
k_pack 2 (`make_mfma_load_layout(..., k_pack=2)`) are captured the same way from larger blocks. The header lists, for the
record, the k_dim values T.gemm cannot reach for each type (k_pack is 1 or 2): Tilescope refuses
them as well rather than invent a layout.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402
import gen_goldens as g  # noqa: E402

T = g.T
tvm = g.tvm

MICRO_K = {"float32": 4, "float16": 16, "bfloat16": 16, "int8": 32, "float8_e4m3fnuz": 32}
ACCUM = {"float32": "float32", "float16": "float32", "bfloat16": "float32", "int8": "int32",
         "float8_e4m3fnuz": "float32"}


def mfma_kernel(dtype, matrix, k, k_pack, transposed, M=16, N=16, threads=64):
    """A T.gemm (M x N x k; one wavefront by default) with the operand under test in registers."""
    from tilelang.rocm.language import gemm as rocm_gemm

    a_frag, b_frag = matrix == "A", matrix == "B"
    trans_a = transposed if matrix == "A" else False
    trans_b = transposed if matrix == "B" else False
    a_shape = (k, M) if trans_a else (M, k)
    b_shape = (N, k) if trans_b else (k, N)
    accum = ACCUM[dtype]

    @T.prim_func
    def kernel(A: T.Tensor(a_shape, dtype), B: T.Tensor(b_shape, dtype), C: T.Tensor((M, N), accum)):
        with T.Kernel(1, threads=threads) as bx:
            A_op = T.alloc_fragment(a_shape, dtype) if a_frag else T.alloc_shared(a_shape, dtype)
            B_op = T.alloc_fragment(b_shape, dtype) if b_frag else T.alloc_shared(b_shape, dtype)
            C_acc = T.alloc_fragment((M, N), accum)
            T.clear(C_acc)
            T.copy(A[0, 0], A_op)
            T.copy(B[0, 0], B_op)
            rocm_gemm(A_op, B_op, C_acc, transpose_A=trans_a, transpose_B=trans_b, k_pack=k_pack)
            T.copy(C_acc, C[0, 0])

    return kernel


def lowered_operand(dtype, matrix, k, k_pack, transposed, M=16, N=16, threads=64):
    """The layout LayoutInference gave the register operand, from the lowered kernel."""
    import tilelang.analysis
    from tvm.tirx import stmt_functor

    captured = {}
    orig = tilelang.analysis.LayoutVisual

    def wrapped(*a, **kw):
        visual = orig(*a, **kw)

        def run(mod):
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
    tgt = g.GEMM_TARGETS["gfx942"]
    try:
        func = mfma_kernel(dtype, matrix, k, k_pack, transposed, M, N, threads)
        with g._Quiet():
            with tvm.transform.PassContext(opt_level=3, config={"tl.layout_visualization_enable": True}):
                with tvm.target.Target(tgt):
                    g.tilelang.lower(func, target=tgt)
    finally:
        tilelang.analysis.LayoutVisual = orig
    return captured["A_op" if matrix == "A" else "B_op"]


# (dtype, matrix, transposed, M, N, K chunk, threads) for whole-block operands with k_pack 2.
BLOCKS = [("float16", "A", False, 32, 32, 64, 256), ("float16", "B", False, 32, 32, 64, 256),
          ("float16", "A", True, 64, 32, 32, 128), ("bfloat16", "B", True, 32, 64, 64, 128),
          ("int8", "A", False, 32, 32, 128, 256), ("int8", "B", True, 64, 64, 64, 256),
          ("float16", "A", False, 16, 16, 48, 64), ("float32", "A", False, 32, 32, 16, 256)]


def spec_of(dtype, matrix, k, transposed):
    return (f'make_mfma_load_base_layout(dtype="{dtype}", matrix="{matrix}", k_dim={k}'
            + (", transposed=True)" if transposed else ")"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="tests/data/goldens/mfma_base.json.gz")
    args = ap.parse_args(argv)
    t0 = time.time()
    cases, errors = [], []
    for dtype, micro in MICRO_K.items():
        for k_pack in (1, 2):
            k = micro * k_pack
            for matrix in ("A", "B"):
                for transposed in (False, True):
                    name = f"mfma_base_{dtype}_{matrix}{'_t' if transposed else ''}_k{k}"
                    spec = spec_of(dtype, matrix, k, transposed)
                    python = (f'lowered_mfma_operand("{dtype}", "{matrix}", {k}, k_pack={k_pack}, '
                              f'transposed={transposed})')
                    try:
                        layout = lowered_operand(dtype, matrix, k, k_pack, transposed)
                    except Exception as e:  # noqa: BLE001 - TileLang's refusal is the case
                        errors.append({"name": name, "spec": spec, "python": python,
                                       "error": g._error_line(e), "expected": True})
                        print(f"{name}: TileLang refuses: {g._error_line(e)[:100]}")
                        continue
                    case = {"name": name, "spec": spec, "python": python,
                            "source": f"tilelang {g.TL_VERSION}",
                            "note": f"T.gemm lowered for gfx942 with k_pack={k_pack} (the ROCm "
                                    "dialect's tilelang.rocm.language.gemm), the operand in "
                                    "registers; LayoutInference's layout of it",
                            "repr": str(layout),
                            "tilelang_output_shape": [int(x) for x in layout.get_output_shape()],
                            "tilelang_thread_extent": int(layout.get_thread_size()),
                            "tilelang_forward_thread": str(layout.forward_thread),
                            "tilelang_forward_index": [str(e) for e in layout.forward_index],
                            "table": g.evaluate(layout)}
                    t = case["table"]
                    case["output_shape_matches_tilelang"] = [t["local_size"]] == case["tilelang_output_shape"]
                    case["thread_extent_matches_tilelang"] = t["thread_extent"] == case["tilelang_thread_extent"]
                    cases.append(case)
                    print(f"{name}: {t['input_shape']} on {t['thread_extent']} lanes, "
                          f"{t['local_size']} registers")
    # Whole-block register operands with k_pack 2 (make_mfma_load_layout(..., k_pack=2)): the
    # base repeated over the warp's tiles and K chunks and over the block's wavefronts.
    for dtype, matrix, transposed, M, N, chunk, threads in BLOCKS:
        k_pack = 2
        name = f"mfma_block_{dtype}_{matrix}{'_t' if transposed else ''}_{M}x{N}x{chunk}_{threads}_kp2"
        spec = (f'make_mfma_load_layout(({M}, {N}), {chunk}, "{dtype}", "{matrix}", {threads}, '
                f'transposed={transposed}, k_pack={k_pack})')
        python = (f'lowered_mfma_operand("{dtype}", "{matrix}", {chunk}, k_pack={k_pack}, '
                  f'transposed={transposed}, M={M}, N={N}, threads={threads})')
        try:
            layout = lowered_operand(dtype, matrix, chunk, k_pack, transposed, M, N, threads)
        except Exception as e:  # noqa: BLE001 - TileLang's refusal is the case
            errors.append({"name": name, "spec": spec, "python": python,
                           "error": g._error_line(e), "expected": True})
            print(f"{name}: TileLang refuses: {g._error_line(e)[:100]}")
            continue
        t = g.evaluate(layout)
        cases.append({"name": name, "spec": spec, "python": python,
                      "source": f"tilelang {g.TL_VERSION}",
                      "note": "T.gemm lowered for gfx942 with k_pack=2, the operand in registers",
                      "repr": str(layout),
                      "tilelang_output_shape": [int(x) for x in layout.get_output_shape()],
                      "tilelang_thread_extent": int(layout.get_thread_size()),
                      "tilelang_forward_thread": str(layout.forward_thread),
                      "tilelang_forward_index": [str(e) for e in layout.forward_index],
                      "table": t,
                      "output_shape_matches_tilelang": [t["local_size"]] == [int(x) for x in layout.get_output_shape()],
                      "thread_extent_matches_tilelang": t["thread_extent"] == int(layout.get_thread_size())})
        print(f"{name}: {t['input_shape']} on {t['thread_extent']} threads, {t['local_size']} registers")
    unreachable = {d: sorted({4, 16, 32, 64} - {m, 2 * m}) for d, m in MICRO_K.items()}
    header = {"tilelang_version": g.TL_VERSION,
              "command": f"python tools/gen_mfma_goldens.py --out {args.out}",
              "generator": "tools/gen_mfma_goldens.py", "python": sys.version.split()[0],
              "family": golden_file.family_of(args.out),
              "cell_format": "tilescope-cli table (product.md); fragments: threads[r] for replica r, local slot",
              "k_dim_unreachable_with_k_pack_1_or_2": unreachable,
              "errors": errors}
    g.dump_family(args.out, header, cases)
    print(f"{args.out}: {len(cases)} cases, {len(errors)} errors, {time.time() - t0:.0f}s")


if __name__ == "__main__":
    sys.exit(main())
