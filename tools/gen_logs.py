#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Produce REAL TileLang compile logs (layout-inference dumps and conflict errors).

Each kernel is lowered on the CPU with ``tilelang.lower`` for an explicit CUDA target
(``{"kind": "cuda", "arch": "sm_80"}``; no GPU, driver or nvcc is needed for lowering) under
``PassContext(config={"tl.layout_visualization_enable": True})``.  Every kernel runs in its own
child process whose stdout+stderr (one merged stream, unbuffered) is saved verbatim to
``samples/logs/<name>.log`` and copied to ``tests/data/logs/<name>.log``.

While the child runs, ``tilelang.transform.LayoutInference`` is wrapped so that the layout maps
it attaches to the IR are captured as real Layout/Fragment objects; the sidecar
``tests/data/logs/<name>.expected.json`` lists the events an importer must find, and for every
inferred fragment the table evaluated by TileLang itself (tools/gen_goldens.evaluate).

Usage (repository root):  .venv/bin/python tools/gen_logs.py [--only NAME ...]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET = {"kind": "cuda", "arch": "sm_80"}


# ----------------------------------------------------------------------------------------------
# kernels (built lazily so the orchestrator does not import tilelang)
# ----------------------------------------------------------------------------------------------

def k_gemm(T):
    """examples/visual_layout_inference/visual_layout_inference.py: fp16 M=N=K=128, 32x32x32, 128 thr."""
    M = N = K = 128
    block_M, block_N, block_K = 32, 32, 32
    dtype, accum_dtype = "float16", "float"

    @T.prim_func
    def gemm(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=3):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return gemm


def _flash(T, block_M, block_N, dim, threads, name="flash_attn"):
    seq = 256
    dtype, accum = "float16", "float"
    scale = 0.125

    @T.prim_func
    def flash_attn(Q: T.Tensor((seq, dim), dtype), K: T.Tensor((seq, dim), dtype),
                   V: T.Tensor((seq, dim), dtype), Output: T.Tensor((seq, dim), dtype)):
        with T.Kernel(T.ceildiv(seq, block_M), threads=threads) as bx:
            Q_shared = T.alloc_shared((block_M, dim), dtype)
            K_shared = T.alloc_shared((block_N, dim), dtype)
            V_shared = T.alloc_shared((block_N, dim), dtype)
            acc_s = T.alloc_fragment((block_M, block_N), accum)
            acc_s_cast = T.alloc_fragment((block_M, block_N), dtype)
            acc_o = T.alloc_fragment((block_M, dim), accum)
            scores_max = T.alloc_fragment((block_M,), accum)
            scores_max_prev = T.alloc_fragment((block_M,), accum)
            scores_scale = T.alloc_fragment((block_M,), accum)
            scores_sum = T.alloc_fragment((block_M,), accum)
            logsum = T.alloc_fragment((block_M,), accum)

            T.copy(Q[bx * block_M, 0], Q_shared)
            T.fill(acc_o, 0)
            T.fill(logsum, 0)
            T.fill(scores_max, -T.infinity(accum))
            for k in T.Pipelined(T.ceildiv(seq, block_N), num_stages=1):
                T.copy(K[k * block_N, 0], K_shared)
                T.clear(acc_s)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(scores_max, scores_max_prev)
                T.reduce_max(acc_s, scores_max, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    scores_scale[i] = T.exp2(scores_max_prev[i] * scale - scores_max[i] * scale)
                for i, j in T.Parallel(block_M, dim):
                    acc_o[i, j] *= scores_scale[i]
                for i, j in T.Parallel(block_M, block_N):
                    acc_s[i, j] = T.exp2(acc_s[i, j] * scale - scores_max[i] * scale)
                T.reduce_sum(acc_s, scores_sum, dim=1)
                for i in T.Parallel(block_M):
                    logsum[i] = logsum[i] * scores_scale[i] + scores_sum[i]
                T.copy(acc_s, acc_s_cast)
                T.copy(V[k * block_N, 0], V_shared)
                T.gemm(acc_s_cast, V_shared, acc_o, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                acc_o[i, j] /= logsum[i]
            T.copy(acc_o, Output[bx * block_M, 0])

    return flash_attn


def k_flash_attn(T):
    """flash-attention forward (FullRow warp policy as in TileLang's examples): reduce_max/reduce_sum,
    replicated row vectors, 2 gemms."""
    return _flash(T, 64, 64, 64, 128)


def k_softmax(T):
    """row softmax over a 64x128 tile: reductions into replicated (64,) fragments."""
    M, N = 64, 128
    dtype, accum = "float16", "float"

    @T.prim_func
    def softmax(X: T.Tensor((1024, N), dtype), Y: T.Tensor((1024, N), dtype)):
        with T.Kernel(T.ceildiv(1024, M), threads=128) as bx:
            x = T.alloc_fragment((M, N), accum)
            row_max = T.alloc_fragment((M,), accum)
            row_sum = T.alloc_fragment((M,), accum)
            T.copy(X[bx * M, 0], x)
            T.reduce_max(x, row_max, dim=1)
            for i, j in T.Parallel(M, N):
                x[i, j] = T.exp(x[i, j] - row_max[i])
            T.reduce_sum(x, row_sum, dim=1)
            for i, j in T.Parallel(M, N):
                x[i, j] = x[i, j] / row_sum[i]
            T.copy(x, Y[bx * M, 0])

    return softmax


def k_elementwise(T):
    """C = A + B on 64x64 fp16 tiles through fragments, 128 threads."""
    M = N = 64
    dtype = "float16"

    @T.prim_func
    def add(A: T.Tensor((512, 512), dtype), B: T.Tensor((512, 512), dtype), C: T.Tensor((512, 512), dtype)):
        with T.Kernel(T.ceildiv(512, N), T.ceildiv(512, M), threads=128) as (bx, by):
            A_local = T.alloc_fragment((M, N), dtype)
            B_local = T.alloc_fragment((M, N), dtype)
            C_local = T.alloc_fragment((M, N), dtype)
            T.copy(A[by * M, bx * N], A_local)
            T.copy(B[by * M, bx * N], B_local)
            for i, j in T.Parallel(M, N):
                C_local[i, j] = A_local[i, j] + B_local[i, j]
            T.copy(C_local, C[by * M, bx * N])

    return add


def k_conflict_gemm_transpose(T):
    """One fragment used as A and as A^T in two T.gemm calls -> "Get different layout for ..."."""
    M = N = K = 64
    dtype, accum = "float16", "float"

    @T.prim_func
    def two_gemms(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), C: T.Tensor((M, N), accum),
                  D: T.Tensor((M, N), accum)):
        with T.Kernel(1, threads=128) as bx:
            A_frag = T.alloc_fragment((M, K), dtype)
            B_shared = T.alloc_shared((K, N), dtype)
            C_local = T.alloc_fragment((M, N), accum)
            D_local = T.alloc_fragment((M, N), accum)
            T.copy(A[0, 0], A_frag)
            T.copy(B[0, 0], B_shared)
            T.clear(C_local)
            T.clear(D_local)
            T.gemm(A_frag, B_shared, C_local)
            T.gemm(A_frag, B_shared, D_local, transpose_A=True)
            T.copy(C_local, C[0, 0])
            T.copy(D_local, D[0, 0])

    return two_gemms


def k_conflict_parallel(T):
    """flash attention with block_M=16: acc_s (gemm C layout) and acc_s_cast (gemm A-operand layout,
    replicated over the N-warps) meet in one T.Parallel -> "Layout infer conflict ... in T.Parallel loop"."""
    M, N, dim = 16, 32, 64
    dtype, accum = "float16", "float"

    @T.prim_func
    def attn_cast(Q: T.Tensor((M, dim), dtype), K: T.Tensor((N, dim), dtype), V: T.Tensor((N, dim), dtype),
                  O: T.Tensor((M, dim), accum)):
        with T.Kernel(1, threads=128) as bx:
            Q_shared = T.alloc_shared((M, dim), dtype)
            K_shared = T.alloc_shared((N, dim), dtype)
            V_shared = T.alloc_shared((N, dim), dtype)
            acc_s = T.alloc_fragment((M, N), accum)
            acc_s_cast = T.alloc_fragment((M, N), dtype)
            acc_o = T.alloc_fragment((M, dim), accum)
            T.copy(Q[0, 0], Q_shared)
            T.copy(K[0, 0], K_shared)
            T.copy(V[0, 0], V_shared)
            T.clear(acc_s)
            T.clear(acc_o)
            T.gemm(Q_shared, K_shared, acc_s, transpose_B=True)
            for i, j in T.Parallel(M, N):
                acc_s_cast[i, j] = T.exp2(acc_s[i, j])
            T.gemm(acc_s_cast, V_shared, acc_o)
            T.copy(acc_o, O[0, 0])

    return attn_cast


def k_conflict_parallel_transposed(T):
    """two T.Parallel loops over a gemm accumulator C and a fragment y: the second reads C[j, i]
    (transposed) while it writes y[i, j] -> "Layout infer conflict between C and y in T.Parallel
    loop" with a loop and a fragment layout that print identically (TileLang's check compares the
    threads at the access indices, which the log does not print)."""
    M = N = K = 32

    @T.prim_func
    def two_loops(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
                  Y: T.Tensor((M, N), "float")):
        with T.Kernel(1, threads=128) as bx:
            A_s = T.alloc_shared((M, K), "float16")
            B_s = T.alloc_shared((K, N), "float16")
            C = T.alloc_fragment((M, N), "float")
            y = T.alloc_fragment((M, N), "float")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.clear(C)
            T.gemm(A_s, B_s, C)
            for i, j in T.Parallel(M, N):
                y[i, j] = C[i, j]
            for i, j in T.Parallel(M, N):
                y[i, j] = y[i, j] + C[j, i]
            T.copy(y, Y[0, 0])

    return two_loops


def _reduce_kernel(T, annotate_src):
    M, N = 32, 64
    accum = "float"

    @T.prim_func
    def reduce_fixed(X: T.Tensor((M, N), accum), Y: T.Tensor((M,), accum)):
        with T.Kernel(1, threads=128) as bx:
            x = T.alloc_fragment((M, N), accum)
            m = T.alloc_fragment((M,), accum)
            if annotate_src:
                T.annotate_layout({
                    m: T.Fragment([M], forward_thread_fn=lambda i: i, forward_index_fn=lambda i: 0),
                    x: T.Fragment([M, N], forward_thread_fn=lambda i, j: i % 8 * 16 + j // 4,
                                  forward_index_fn=lambda i, j: i // 8 * 4 + j % 4),
                })
            else:
                T.annotate_layout({m: T.Fragment([M], forward_thread_fn=lambda i: i, forward_index_fn=lambda i: 0)})
            T.copy(X[0, 0], x)
            T.reduce_max(x, m, dim=1)
            T.copy(m, Y[0])

    return reduce_fixed


def k_conflict_reduce(T):
    """reduce_max(x -> m, dim=1) with both layouts annotated: m one row per thread (thread=_i), x rows
    spread over 16 threads -> "Layout may conflict with ReduceOp for buffer m vs. x"."""
    return _reduce_kernel(T, True)


def k_error_no_layout(T):
    """only the reduce destination annotated (thread=_i): free-mode search finds nothing ->
    "no available layout found"."""
    return _reduce_kernel(T, False)


KERNELS = {
    "gemm_visual_layout_inference": k_gemm,
    "flash_attn_fwd": k_flash_attn,
    "softmax_rows": k_softmax,
    "elementwise_add": k_elementwise,
    "conflict_gemm_transpose_A": k_conflict_gemm_transpose,
    "conflict_parallel_cast": k_conflict_parallel,
    "conflict_parallel_transposed": k_conflict_parallel_transposed,
    "conflict_reduce": k_conflict_reduce,
    "error_no_layout": k_error_no_layout,
}


# ----------------------------------------------------------------------------------------------
# child: lower one kernel, capture layout maps
# ----------------------------------------------------------------------------------------------

def run_child(name, capture_path):
    import tilelang
    import tilelang.language as T
    from tilelang import tvm
    from tvm.tirx import stmt_functor

    sys.path.insert(0, HERE)
    captured = []

    import tilelang.analysis

    orig = tilelang.analysis.LayoutVisual

    def collect(mod):
        for gv, func in mod.functions.items():
            if not hasattr(func, "body"):
                continue

            def visit(node):
                if isinstance(node, tvm.tirx.SBlock) and "layout_map" in node.annotations:
                    for buf, lay in node.annotations["layout_map"].items():
                        captured.append((buf.name, lay))

            stmt_functor.post_order_visit(func.body, visit)

    def wrapped(*a, **kw):
        p = orig(*a, **kw)

        def run(mod):
            collect(mod)
            return p(mod)

        return run

    # pipeline_utils.LayoutVisual calls tilelang.analysis.LayoutVisual(formats=...)(mod) right after
    # LayoutInference, on the module whose blocks carry the inferred "layout_map" annotations.
    tilelang.analysis.LayoutVisual = wrapped
    try:
        func = KERNELS[name](T)
        with tvm.transform.PassContext(opt_level=3, config={"tl.layout_visualization_enable": True}):
            with tvm.target.Target(TARGET):
                tilelang.lower(func, target=TARGET)
    finally:
        from gen_goldens import evaluate  # tools/ is on sys.path

        recs = []
        for bname, lay in captured:
            rec = {"buffer": bname, "type": type(lay).__name__, "repr": str(lay),
                   "input_shape": [int(x) for x in lay.get_input_shape()],
                   "output_shape": [int(x) for x in lay.get_output_shape()]}
            if isinstance(lay, T.Fragment):
                rec.update({"thread": str(lay.forward_thread), "index": str(lay.forward_index),
                            "replicate": int(lay.replicate_size),
                            "text": "\n".join([f"{bname} inferred layout:",
                                               f"  Shape: {lay.get_input_shape()} -> {lay.get_output_shape()}",
                                               f"  Thread: {lay.forward_thread}",
                                               f"  Index:  {lay.forward_index}",
                                               f"  Replicate:  {lay.replicate_size}"]),
                            "table": evaluate(lay)})
            recs.append(rec)
        with open(capture_path, "w") as f:
            json.dump(recs, f)


# ----------------------------------------------------------------------------------------------
# parent: run children, write logs and sidecars
# ----------------------------------------------------------------------------------------------

RE_DIFF = re.compile(r"Get different layout for (\S+)\n current layout: (.*)\n previous layout: (.*)")
RE_PAR = re.compile(r"Layout infer conflict between (\S+) and (\S+) in T\.Parallel loop:\n\s+loop (.*)\n\s+fragment (.*)")
RE_RED = re.compile(r"Layout may conflict with ReduceOp for buffer (\S+) vs\. (\S+)")
RE_ERR = re.compile(r"^(tvm\.error\.\w+|\w+Error): (.*)$", re.M)


def events_from(log, captured):
    ev = []
    # inferred: only fragments the visual pass printed (it prints every Fragment in each layout_map)
    seen = set()
    for rec in captured:
        if rec["type"] not in ("Fragment", "PartialFragment") or (rec["buffer"], rec["text"]) in seen:
            continue
        seen.add((rec["buffer"], rec["text"]))
        n = log.count(rec["text"] + "\n")
        if n:
            ev.append({"kind": "inferred", "buffer": rec["buffer"], "occurrences": n, "text": rec["text"],
                       "repr": rec["repr"], "table": rec["table"]})
    for rx, kind, keys in ((RE_DIFF, "conflict", ("buffer", "current", "previous")),
                           (RE_PAR, "parallel_conflict", ("buffer", "source_buffer", "loop", "fragment"))):
        found = {}
        for m in rx.finditer(log):
            found.setdefault(m.groups(), 0)
            found[m.groups()] += 1
        for g, n in found.items():
            e = {"kind": kind}
            e.update(dict(zip(keys, g)))
            e["occurrences"] = n
            ev.append(e)
    found = {}
    for m in RE_RED.finditer(log):
        found[m.group(0)] = found.get(m.group(0), 0) + 1
        if found[m.group(0)] == 1:
            blk = log[m.end():]
            e = {"kind": "reduce_conflict", "buffer": m.group(1), "source_buffer": m.group(2)}
            for key in ("src_layout", "reducer_layout", "orig_dst_layout"):
                mm = re.search(r"^" + key + r" = (.*)$", blk, re.M)
                if mm:
                    e[key] = mm.group(1)
            ev.append(e)
    for e in ev:
        if e["kind"] == "reduce_conflict":
            e["occurrences"] = found[f"Layout may conflict with ReduceOp for buffer {e['buffer']} vs. {e['source_buffer']}"]
    for m in RE_ERR.finditer(log):
        ev.append({"kind": "error", "type": m.group(1), "message": m.group(2)})
    return ev


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", action="append", choices=sorted(KERNELS))
    ap.add_argument("--run", choices=sorted(KERNELS), help=argparse.SUPPRESS)
    ap.add_argument("--capture", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.run:
        run_child(args.run, args.capture)
        return 0

    import importlib.metadata as md
    version = md.version("tilelang")
    samples = os.path.join(ROOT, "samples", "logs")
    tests = os.path.join(ROOT, "tests", "data", "logs")
    os.makedirs(samples, exist_ok=True)
    os.makedirs(tests, exist_ok=True)
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for name in KERNELS:
        if args.only and name not in args.only:
            continue
        with tempfile.TemporaryDirectory() as td:
            cap = os.path.join(td, "cap.json")
            cmd = [sys.executable, os.path.abspath(__file__), "--run", name, "--capture", cap]
            # run in a scratch dir: plot outputs (if any) land in ./tmp there, not in the repo
            p = subprocess.run(cmd, cwd=td, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            log = p.stdout.decode("utf-8", "replace")
            captured = json.load(open(cap)) if os.path.exists(cap) else []
        log_path = os.path.join(samples, f"{name}.log")
        with open(log_path, "w") as f:
            f.write(log)
        shutil.copyfile(log_path, os.path.join(tests, f"{name}.log"))
        events = events_from(log, captured)
        sidecar = {
            "log": f"{name}.log",
            "tilelang_version": version,
            "command": f"python tools/gen_logs.py --only {name}",
            "lowering": f"tilelang.lower(kernel, target={json.dumps(TARGET)}) under "
                        "PassContext(config={'tl.layout_visualization_enable': True}), CPU only",
            "kernel_doc": (KERNELS[name].__doc__ or "").strip(),
            "exit_code": p.returncode,
            "events": events,
            "all_layouts_captured": [{k: v for k, v in r.items() if k != "table"} for r in captured],
        }
        with open(os.path.join(tests, f"{name}.expected.json"), "w") as f:
            json.dump(sidecar, f, indent=1)
            f.write("\n")
        kinds = {}
        for e in events:
            kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
        print(f"{name}: rc={p.returncode} lines={log.count(chr(10))} events={kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
