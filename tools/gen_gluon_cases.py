# SPDX-License-Identifier: Apache-2.0
"""Random Gluon layout constructors for tools/gen_interop_goldens.py, and the worker that asks
the real Triton for their linear layouts.

Triton asserts (aborts the process) on some inputs it does not accept, so every constructor is
converted in a worker process: when it dies, the case is recorded as refused ("Triton aborts")
with the last line it printed, and a fresh worker takes the next case.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys

# ---------------------------------------------------------------------------------------------
# Constructor text in the forms Gluon users write: keyword or positional arguments, with the
# ttgl./gl. prefix or none.
# ---------------------------------------------------------------------------------------------

FIELDS = {
    "BlockedLayout": ["size_per_thread", "threads_per_warp", "warps_per_cta", "order"],
    "NVMMADistributedLayout": ["version", "warps_per_cta", "instr_shape"],
    "DotOperandLayout": ["operand_index", "parent", "k_width"],
    "SliceLayout": ["dim", "parent"],
    "NVMMASharedLayout": ["swizzle_byte_width", "element_bitwidth", "rank", "transposed"],
    "SwizzledSharedLayout": ["vec", "per_phase", "max_phase", "order"],
}


def lit(v):
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, list):
        return "[" + ", ".join(lit(x) for x in v) + "]"
    return str(v)


class Ctor:
    """A constructor call: its class, its arguments, and how to write it."""

    def __init__(self, cls, **args):
        self.cls, self.args = cls, args

    def text(self, rng):
        prefix = rng.choice(["ttgl.", "ttgl.", "gl.", ""])
        names = [f for f in FIELDS[self.cls] if f in self.args]
        positional = rng.random() < 0.35
        parts = []
        for k, f in enumerate(names):
            v = self.args[f]
            s = v.text(rng) if isinstance(v, Ctor) else lit(v)
            # Positional only while every earlier field is given, as Python requires.
            if positional and names[: k + 1] == FIELDS[self.cls][: k + 1]:
                parts.append(s)
            else:
                parts.append(f"{f}={s}")
        return f"{prefix}{self.cls}(" + ", ".join(parts) + ")"


def spec_text(layout_text, shape, rng):
    form = rng.random()
    if form < 0.45:
        return f"ttgl.to_linear_layout({layout_text}, {lit(shape)})"
    if form < 0.55:
        return f"gl.to_linear_layout(layout={layout_text}, shape={lit(shape)})"
    return f"{layout_text}, {lit(shape)}"


def split_bits(rng, bits, rank):
    """2**bits spread over rank dims as powers of two."""
    out = [1] * rank
    for _ in range(bits):
        out[rng.randrange(rank)] *= 2
    return out


def pow2(rng, lo, hi):
    return 1 << rng.randint(lo, hi)


def blocked(rng, rank, threads_bits=5):
    order = list(range(rank))
    rng.shuffle(order)
    return Ctor("BlockedLayout", size_per_thread=[pow2(rng, 0, 2) for _ in range(rank)],
                threads_per_warp=split_bits(rng, threads_bits, rank),
                warps_per_cta=split_bits(rng, rng.randint(0, 3), rank), order=order)


def mma(rng, version, rank=2):
    if version == 2:
        warps = split_bits(rng, rng.randint(0, 3), rank)
        instr = [16, 8] if rank == 2 else [1, 16, 8]
        return Ctor("NVMMADistributedLayout", version=[2, 0], warps_per_cta=warps, instr_shape=instr)
    warps = rng.choice([[4, 1], [4, 2], [8, 1], [4, 4], [8, 2], [1, 1]])
    instr = [16, pow2(rng, 3, 8), rng.choice([8, 16, 32])]
    return Ctor("NVMMADistributedLayout", version=[3, 0], warps_per_cta=warps, instr_shape=instr)


def random_cases(seed=2026):
    """(name, Ctor, shape, expect) with expect 'ok' or 'maybe' (random params Triton may refuse)."""
    rng = random.Random(seed)
    out = []

    def add(name, ctor, shape):
        out.append((f"{name}_{len(out):03d}", ctor, shape))

    for _ in range(120):
        rank = rng.choice([1, 2, 2, 2, 3])
        add("blocked", blocked(rng, rank), [pow2(rng, 0, 7) for _ in range(rank)])
    for _ in range(10):  # 16- and 64-thread warps: Triton builds them, with 4 or 6 lane bases
        rank = rng.choice([2, 3])
        add("blocked_warp", blocked(rng, rank, rng.choice([4, 6])), [pow2(rng, 2, 6) for _ in range(rank)])
    for _ in range(50):
        rank = rng.choice([2, 2, 2, 3])
        shape = [pow2(rng, 3, 7) for _ in range(rank)]
        if rank == 3:
            shape[0] = pow2(rng, 0, 2)
        add("mma_v2", mma(rng, 2, rank), shape)
    for _ in range(40):
        add("mma_v3", mma(rng, 3), [pow2(rng, 4, 8), pow2(rng, 3, 8)])
    for _ in range(90):
        rank = rng.choice([2, 2, 2, 3])
        op, kw = rng.randint(0, 1), rng.choice([1, 2, 4, 8])
        shape = [pow2(rng, 3, 7) for _ in range(rank)]
        if rank == 3:
            shape[0] = pow2(rng, 0, 2)
        add(f"dot_v2_op{op}_k{kw}", Ctor("DotOperandLayout", operand_index=op, parent=mma(rng, 2, rank),
                                         k_width=kw), shape)
    for _ in range(30):
        kw = rng.choice([1, 2, 4, 8])
        add(f"dot_v3_op0_k{kw}", Ctor("DotOperandLayout", operand_index=0, parent=mma(rng, 3), k_width=kw),
            [pow2(rng, 4, 8), pow2(rng, 3, 7)])
    for _ in range(20):
        op = rng.randint(0, 1)
        add(f"dot_fma_op{op}", Ctor("DotOperandLayout", operand_index=op, parent=blocked(rng, 2), k_width=0),
            [pow2(rng, 2, 6), pow2(rng, 2, 6)])
    for _ in range(40):
        kind = rng.choice(["blocked", "blocked", "mma", "dot"])
        if kind == "blocked":
            rank = rng.choice([2, 3])
            parent = blocked(rng, rank)
        elif kind == "mma":
            rank, parent = 2, mma(rng, 2)
        else:
            rank = 2
            parent = Ctor("DotOperandLayout", operand_index=rng.randint(0, 1), parent=mma(rng, 2),
                          k_width=rng.choice([1, 2, 4]))
        dim = rng.randrange(rank)
        add(f"slice_{kind}", Ctor("SliceLayout", dim=dim, parent=parent),
            [pow2(rng, 3 if kind != "blocked" else 0, 7) for _ in range(rank - 1)])
    for sw in [0, 32, 64, 128]:
        for bits in [8, 16, 32, 64]:
            for transposed in [False, True]:
                for _ in range(3):
                    rank = rng.choice([2, 2, 3])
                    width = max(1, 8 * sw // bits)
                    shape = [pow2(rng, 3, 7) for _ in range(rank)]
                    contig = 0 if transposed else rank - 1
                    shape[contig] = max(shape[contig], width) * rng.choice([1, 1, 2, 4])
                    if rank == 3:
                        shape[1 if contig == 0 else 0] = pow2(rng, 0, 2)
                    args = dict(swizzle_byte_width=sw, element_bitwidth=bits)
                    if rank != 2 or rng.random() < 0.5:
                        args["rank"] = rank
                    if transposed or rng.random() < 0.3:
                        args["transposed"] = transposed
                    add(f"nvmma_shared_{sw}B_{bits}bit" + ("_t" if transposed else ""),
                        Ctor("NVMMASharedLayout", **args), shape)
    for _ in range(6):  # beyond 256 (a TMA box dim's limit), the layout repeats
        add("nvmma_shared_large", Ctor("NVMMASharedLayout", swizzle_byte_width=rng.choice([0, 128]),
                                       element_bitwidth=16, rank=2),
            [pow2(rng, 8, 10), pow2(rng, 6, 9)])
    for _ in range(40):
        rank = rng.choice([1, 2, 2, 3])
        order = list(range(rank))
        rng.shuffle(order)
        add("swizzled_shared", Ctor("SwizzledSharedLayout", vec=pow2(rng, 0, 3), per_phase=pow2(rng, 0, 3),
                                    max_phase=pow2(rng, 0, 3), order=order),
            [pow2(rng, 0, 7) for _ in range(rank)])
    return rng, out


def refused_cases():
    """Constructors Triton refuses (its Python checks, its verifiers, or its assertions)."""
    mma2 = Ctor("NVMMADistributedLayout", version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    mma3 = Ctor("NVMMADistributedLayout", version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])
    B = lambda *a: Ctor("BlockedLayout", **dict(zip(FIELDS["BlockedLayout"], a)))  # noqa: E731
    return [
        ("refused_blocked_spt_not_pow2", B([1, 3], [4, 8], [4, 1], [1, 0]), [32, 32]),
        ("refused_blocked_rank_mismatch", B([1, 4], [4, 8], [4, 1], [1]), [32, 32]),
        ("refused_blocked_shape_not_pow2", B([1, 4], [4, 8], [4, 1], [1, 0]), [32, 24]),
        ("refused_blocked_threads_not_pow2", B([1, 4], [4, 6], [4, 1], [1, 0]), [32, 32]),
        ("refused_blocked_warps_not_pow2", B([1, 4], [4, 8], [3, 1], [1, 0]), [32, 32]),
        ("refused_dot_v3_operand_b", Ctor("DotOperandLayout", operand_index=1, parent=mma3, k_width=2), [64, 64]),
        ("refused_dot_v2_k_width_0", Ctor("DotOperandLayout", operand_index=0, parent=mma2, k_width=0), [32, 32]),
        ("refused_dot_fma_k_width_2", Ctor("DotOperandLayout", operand_index=0,
                                           parent=B([1, 4], [4, 8], [4, 1], [1, 0]), k_width=2), [32, 32]),
        ("refused_nvmma_shared_swizzle_48", Ctor("NVMMASharedLayout", swizzle_byte_width=48,
                                                 element_bitwidth=16), [64, 64]),
        ("refused_nvmma_shared_bitwidth_12", Ctor("NVMMASharedLayout", swizzle_byte_width=128,
                                                  element_bitwidth=12), [64, 64]),
        ("refused_nvmma_shared_too_narrow", Ctor("NVMMASharedLayout", swizzle_byte_width=128,
                                                 element_bitwidth=16), [8, 32]),
        ("refused_nvmma_shared_too_few_rows", Ctor("NVMMASharedLayout", swizzle_byte_width=128,
                                                   element_bitwidth=16), [4, 64]),
        ("refused_nvmma_shared_shape_not_pow2", Ctor("NVMMASharedLayout", swizzle_byte_width=64,
                                                     element_bitwidth=16), [48, 64]),
        ("refused_mma_v2_shape_not_pow2", mma2, [48, 32]),
    ]


# ---------------------------------------------------------------------------------------------
# The worker: one JSON line in ({"layout": text, "shape": [...]}), one out (bases or error).
# ---------------------------------------------------------------------------------------------

def worker():
    from triton._C.libtriton import ir, gluon_ir
    import triton.experimental.gluon.language as ttgl

    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    ns = {n: getattr(ttgl, n) for n in dir(ttgl) if not n.startswith("_")}
    ns.update(ttgl=ttgl, gl=ttgl)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            layout = eval(req["layout"], ns)  # noqa: S307 - our own generated constructor text
            r = builder.to_linear_layout(layout._to_ir(builder), req["shape"])
            if hasattr(r, "offset_bases"):
                res = {"offset": r.offset_bases, "block": r.block_bases}
            else:
                res = {"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases,
                       "block": r.block_bases}
            out = {"bases": res, "printed": str(r)}
        except Exception as e:  # Triton's own refusal, in its words
            msg = (str(e).strip().splitlines() or [type(e).__name__])[-1]
            out = {"error": f"{type(e).__name__}: {msg}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


class Triton:
    """Runs the worker, restarting it when Triton aborts on an input."""

    def __init__(self, python=sys.executable, script=None):
        self.cmd = [python, script or __file__, "--worker"]
        self.proc = None

    def ask(self, layout, shape):
        if self.proc is None:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True)
        self.proc.stdin.write(json.dumps({"layout": layout, "shape": shape}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if line:
            return json.loads(line)
        err = self.proc.stderr.read().strip().splitlines()
        self.proc.wait()
        self.proc = None
        last = [x for x in err if x.strip()][-1:] or ["no message"]
        return {"error": "Triton aborts: " + last[0].strip()}

    def close(self):
        if self.proc:
            self.proc.stdin.close()
            self.proc.wait()


if __name__ == "__main__" and "--worker" in sys.argv:
    worker()
