# SPDX-License-Identifier: Apache-2.0
"""TTGIR text goldens (tests/data/goldens/triton_mlir.json.gz): the types and attributes Triton 3.9
prints, read back by Triton itself, with every cell from Triton's LinearLayout.apply.

    /work/main/.venv/bin/python tools/gen_triton_mlir_goldens.py   # about 40 s

Also every type in the TTGIR of small kernels compiled on the CPU for sm_80/90/100 and gfx942
(tools/triton_kernels_for_goldens.py), pasted after the dump's alias definitions.

For each seeded random Gluon layout (blocked of rank 1-3, MMA v2/v3, dot operands, slices,
DistributedLinearLayout with and without register broadcast, NVMMA / swizzled / linear shared
layouts) a worker process builds the tensor or memdesc type with Triton and takes the text Triton
prints: the type alone (`tensor<64x16xf16, #ttg.blocked<{...}>>`, attributes inline) or a module's
alias definitions followed by the type as the module's signature prints it (`#blocked = ...` then
`tensor<128x64xf16, #blocked>`). The worker then parses that module text with Triton
(`ir.parse_mlir_module`), takes the layout of the argument (`get_gluon_layout_from_tensor` /
`_memdesc`) and converts it with `GluonOpBuilder.to_linear_layout` for the type's shape: the truth
is what Triton makes of the printed text. Cells come from `LinearLayout.apply` over every
(register, lane, warp) or offset. Triton asserts (aborts) on some input, so the worker is
restarted after an abort and the case is recorded as refused with Triton's last line.

`errors` holds what Tilescope must refuse: texts Triton refuses or aborts on, Triton's prints of
layouts Tilescope does not read yet (AMD MFMA/WMMA, padded shared), and layouts Triton converts
that a fragment cannot show (the register holding an element differs between the threads holding
it), with the reason.
"""
from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_gluon_cases as G  # noqa: E402
import golden_file  # noqa: E402

MAX_ELEMENTS = 1024
ELEMENT_TYPES = ["f16", "bf16", "f32", "i8", "ptr_f16"]


# ---------------------------------------------------------------------------------------------
# The worker: one JSON line in, one out.
# ---------------------------------------------------------------------------------------------

def worker():
    from triton._C.libtriton import ir, gluon_ir
    import triton.experimental.gluon.language as ttgl
    import triton.experimental.gluon.language.amd as amd

    ctx = ir.context()
    ir.load_dialects(ctx)

    class Both:  # ttgl. and gl. prefixes reach the AMD layouts too
        def __getattr__(self, n):
            return getattr(ttgl, n) if hasattr(ttgl, n) else getattr(amd, n)

    ns = {n: getattr(ttgl, n) for n in dir(ttgl) if not n.startswith("_")}
    ns.update({n: getattr(amd, n) for n in dir(amd) if "Layout" in n})
    ns.update(ttgl=Both(), gl=Both())
    tmp = tempfile.mkdtemp()

    def bases(r):
        if hasattr(r, "offset_bases"):
            return {"offset": r.offset_bases, "block": r.block_bases}
        return {"register": r.reg_bases, "lane": r.lane_bases, "warp": r.warp_bases,
                "block": r.block_bases}

    def emit(obj):
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        req = json.loads(line)
        # A fresh builder per request: a builder keeps its insertion point in the last module.
        b = gluon_ir.GluonOpBuilder(ctx)
        elem = {"f16": b.get_half_ty(), "bf16": b.get_bf16_ty(), "f32": b.get_float_ty(),
                "i8": b.get_int8_ty()}
        elem["ptr_f16"] = b.get_ptr_ty(elem["f16"], "global")
        out = {}
        printed = False
        try:
            layout = eval(req["layout"], ns) if "layout" in req else None  # noqa: S307 - our own text
            shape = req["shape"]
            if req["form"] == "text":
                # A type from a compiled kernel's dump, with the dump's alias definitions.
                mod = req["defs"] + "\nmodule {\n  tt.func public @k(%arg0: " + req["type"] + \
                    ") {\n    tt.return\n  }\n}\n"
                path = os.path.join(tmp, "m.mlir")
                with open(path, "w") as fh:
                    fh.write(mod)
                m2 = ir.parse_mlir_module(path, ctx)
                arg = m2.get_function("k").args(0)
                back = (b.get_gluon_layout_from_memdesc(arg) if req["memdesc"]
                        else b.get_gluon_layout_from_tensor(arg))
                if isinstance(back, ttgl.DistributedLinearLayout):
                    emit({"parsed": {"bases": bases(back), "shape": list(back.shape)}})
                else:
                    emit({})
                printed = True
                r = b.to_linear_layout(back._to_ir(b), shape)
                out = {"bases": bases(r), "printed": str(r)}
            elif req["form"] == "to_linear_layout":
                r = b.to_linear_layout(layout._to_ir(b), shape)
                out = {"bases": bases(r), "printed": str(r)}
            else:
                attr = layout._to_ir(b)
                et = elem[req["elem"]]
                if req["memdesc"]:
                    ty = b.get_shared_mem_desc_ty(et, shape, attr, shape)
                else:
                    ty = b.get_distributed_ty(et, shape, attr)
                inline = str(ty)
                m = b.create_module()
                f = b.get_or_insert_function(m, "k", b.get_function_ty([ty], []), "public", False)
                m.push_back(f)
                b.set_insertion_point_to_start(f.add_entry_block())
                b.ret([])
                mod = m.str_nodebug()
                defs = [x for x in mod.splitlines() if x.startswith(("#", "!"))]
                sig = mod[mod.index("%arg0: ") + len("%arg0: "):mod.index(") attributes")]
                # The truth: Triton's reading of the text it printed.
                path = os.path.join(tmp, "m.mlir")
                with open(path, "w") as fh:
                    fh.write(mod)
                m2 = ir.parse_mlir_module(path, ctx)
                arg = m2.get_function("k").args(0)
                back = (b.get_gluon_layout_from_memdesc(arg) if req["memdesc"]
                        else b.get_gluon_layout_from_tensor(arg))
                first = {"inline": inline, "aliased": "\n".join(defs + [sig])}
                if isinstance(back, ttgl.DistributedLinearLayout):
                    # What Triton parsed a linear attribute into (for #ttg.generic_linear,
                    # whose to_linear_layout aborts: Gluon rebuilds it as a #ttg.linear).
                    first["parsed"] = {"bases": bases(back), "shape": list(back.shape)}
                # The text first, on a line of its own: the conversion may abort the process.
                emit(first)
                printed = True
                r = b.to_linear_layout(back._to_ir(b), shape)
                out.update({"bases": bases(r), "printed": str(r)})
        except Exception as e:  # Triton's own refusal, in its words
            msg = (str(e).strip().splitlines() or [type(e).__name__])[-1]
            out["error"] = f"{type(e).__name__}: {msg}"
        if req["form"] != "to_linear_layout" and not printed:
            emit({"error": out["error"]})  # nothing printed: the type could not be built
        else:
            emit(out)


class Triton:
    """Runs the worker, restarting it when Triton aborts on an input."""

    def __init__(self):
        self.proc = None

    def ask(self, **req):
        if self.proc is None:
            self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if line and req["form"] != "to_linear_layout":
            first = json.loads(line)
            if "error" in first:
                return first
            line = self.proc.stdout.readline()
            if line:
                return {**first, **json.loads(line)}
            return {**first, **self._died()}
        if line:
            return json.loads(line)
        return self._died()

    def _died(self):
        err = self.proc.stderr.read().strip().splitlines()
        self.proc.wait()
        self.proc = None
        last = [x for x in err if x.strip() and "leaked" not in x and "nanobind" not in x][-1:]
        return {"error": "Triton aborts: " + (last[0].strip() if last else "no message")}

    def close(self):
        if self.proc:
            self.proc.stdin.close()
            self.proc.wait()


# ---------------------------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------------------------

def shape_under(rng, rank, lo, hi, limit=MAX_ELEMENTS):
    while True:
        s = [G.pow2(rng, lo, hi) for _ in range(rank)]
        n = 1
        for x in s:
            n *= x
        if n <= limit:
            return s


def random_linear(rng, rank, shape, broadcast):
    """A DistributedLinearLayout over `shape` (register, lane, warp bases); with `broadcast`, zero
    or repeated register bases (a thread holds an element in several registers)."""
    bits = [(d, 1 << k) for d in range(rank) for k in range((shape[d] - 1).bit_length())]
    rng.shuffle(bits)

    def basis(d, v):
        b = [0] * rank
        b[d] = v
        return b

    n = len(bits)
    lanes = min(5, n)
    nlane = rng.randint(max(0, lanes - 2), lanes)
    nwarp = rng.randint(0, min(3, n - nlane))
    lane = [basis(*x) for x in bits[:nlane]]
    warp = [basis(*x) for x in bits[nlane:nlane + nwarp]]
    reg = [basis(*x) for x in bits[nlane + nwarp:]]
    # Lanes or warps that hold the same elements (thread replicas).
    while len(lane) < 5:
        lane.insert(rng.randrange(len(lane) + 1), [0] * rank)
    if broadcast:
        for _ in range(rng.randint(1, 2)):
            pick = rng.random()
            if pick < 0.5 or not reg:
                extra = [0] * rank
            elif pick < 0.8:
                extra = list(rng.choice(reg))
            else:  # the XOR of two register bases
                a, c = rng.choice(reg), rng.choice(reg)
                extra = [x ^ y for x, y in zip(a, c)]
            reg.insert(rng.randrange(len(reg) + 1), extra)
        if rng.random() < 0.15 and lane:
            # A register that repeats a lane's element: the register holding an element then
            # depends on the thread, which a fragment cannot say.
            reg.append(list(rng.choice([x for x in lane if any(x)] or [[0] * rank])))
    return G.Ctor("DistributedLinearLayout", reg_bases=reg, lane_bases=lane, warp_bases=warp,
                  block_bases=[], shape=shape)


def random_shared_linear(rng, rank, shape):
    bits = [(d, 1 << k) for d in range(rank) for k in range((shape[d] - 1).bit_length())]
    rng.shuffle(bits)
    out = []
    for k, (d, v) in enumerate(bits):
        b = [0] * rank
        b[d] = v
        # XOR in a lower basis now and then (a swizzle), keeping the map a bijection.
        if out and rng.random() < 0.3:
            b = [x ^ y for x, y in zip(b, rng.choice(out))]
        out.append(b)
    return G.Ctor("SharedLinearLayout", offset_bases=out, block_bases=[])


G.FIELDS.setdefault("DistributedLinearLayout",
                    ["reg_bases", "lane_bases", "warp_bases", "block_bases", "shape"])
G.FIELDS.setdefault("SharedLinearLayout", ["offset_bases", "block_bases"])
G.FIELDS.setdefault("AMDMFMALayout", ["version", "instr_shape", "transposed", "warps_per_cta"])
G.FIELDS.setdefault("AMDWMMALayout", ["version", "transposed", "warp_bases", "reg_bases", "instr_shape"])


def cases(seed=39):
    """(name, Ctor, shape, memdesc) drawn at random, then fixed ones."""
    rng = random.Random(seed)
    out = []

    def add(name, ctor, shape, memdesc=False):
        out.append((f"{name}_{len(out):03d}", ctor, shape, memdesc))

    for _ in range(70):
        rank = rng.choice([1, 2, 2, 2, 3])
        add("blocked", G.blocked(rng, rank), shape_under(rng, rank, 0, 6))
    for _ in range(30):
        rank = rng.choice([2, 2, 3])
        s = shape_under(rng, rank, 3, 6)
        if rank == 3:
            s[0] = G.pow2(rng, 0, 1)
        add("mma_v2", G.mma(rng, 2, rank), s)
    for _ in range(20):
        m = G.mma(rng, 3)
        m.args["instr_shape"][1] = min(m.args["instr_shape"][1], 32)
        m.args["warps_per_cta"] = rng.choice([[4, 1], [1, 1]])
        add("mma_v3", m, [64 if m.args["warps_per_cta"][0] == 4 else 16, m.args["instr_shape"][1]])
    for _ in range(40):
        rank = rng.choice([2, 2, 2, 3])
        op, kw = rng.randint(0, 1), rng.choice([1, 2, 4, 8])
        s = shape_under(rng, rank, 3, 6)
        if rank == 3:
            s[0] = G.pow2(rng, 0, 1)
        add(f"dot_v2_op{op}_k{kw}", G.Ctor("DotOperandLayout", operand_index=op, parent=G.mma(rng, 2, rank),
                                           k_width=kw), s)
    for _ in range(10):
        kw = rng.choice([1, 2, 4])
        p = G.mma(rng, 3)
        p.args["warps_per_cta"] = [4, 1]
        add(f"dot_v3_op0_k{kw}", G.Ctor("DotOperandLayout", operand_index=0, parent=p, k_width=kw),
            [64, 8 * kw])
    for _ in range(15):
        op = rng.randint(0, 1)
        add(f"dot_fma_op{op}", G.Ctor("DotOperandLayout", operand_index=op, parent=G.blocked(rng, 2),
                                      k_width=0), shape_under(rng, 2, 2, 5))
    for _ in range(25):
        kind = rng.choice(["blocked", "blocked", "mma"])
        rank = rng.choice([2, 3]) if kind == "blocked" else 2
        parent = G.blocked(rng, rank) if kind == "blocked" else G.mma(rng, 2)
        add(f"slice_{kind}", G.Ctor("SliceLayout", dim=rng.randrange(rank), parent=parent),
            shape_under(rng, rank - 1, 3 if kind != "blocked" else 0, 6))
    for _ in range(50):
        rank = rng.choice([1, 2, 2, 3])
        s = shape_under(rng, rank, 0, 5)
        add("linear_broadcast" if _ % 2 else "linear", random_linear(rng, rank, s, _ % 2 == 1), s)
    for sw in [0, 32, 64, 128]:
        for bits in [8, 16, 32]:
            for transposed in [False, True]:
                width = max(8, 8 * sw // bits)
                s = [16, width] if not transposed else [width, 16]
                if width * 16 > MAX_ELEMENTS:
                    s = [8, width] if not transposed else [width, 8]
                args = dict(swizzle_byte_width=sw, element_bitwidth=bits, rank=2)
                if transposed:
                    args["transposed"] = True
                add(f"nvmma_shared_{sw}B_{bits}bit" + ("_t" if transposed else ""),
                    G.Ctor("NVMMASharedLayout", **args), s, True)
    for _ in range(25):
        rank = rng.choice([1, 2, 2, 3])
        order = list(range(rank))
        rng.shuffle(order)
        add("swizzled_shared", G.Ctor("SwizzledSharedLayout", vec=G.pow2(rng, 0, 3),
                                      per_phase=G.pow2(rng, 0, 2), max_phase=G.pow2(rng, 0, 3), order=order),
            shape_under(rng, rank, 0, 6), True)
    for _ in range(15):
        rank = rng.choice([1, 2, 2, 3])
        s = shape_under(rng, rank, 0, 5)
        add("shared_linear", random_shared_linear(rng, rank, s), s, True)
    # Hopper wgmma N that is not a power of two, accumulator and A operand.
    for n in [24, 48, 96]:
        acc = G.Ctor("NVMMADistributedLayout", version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, n, 16])
        add(f"mma_v3_n{n}", acc, [64, 64])
        add(f"dot_v3_n{n}_op0", G.Ctor("DotOperandLayout", operand_index=0, parent=acc, k_width=2), [64, 16])
    # What Triton prints but Tilescope does not read yet.
    add("amd_mfma", G.Ctor("AMDMFMALayout", version=3, instr_shape=[32, 32, 8], transposed=True,
                           warps_per_cta=[2, 2]), [64, 64])
    add("amd_mfma_16", G.Ctor("AMDMFMALayout", version=4, instr_shape=[16, 16, 16], transposed=False,
                              warps_per_cta=[4, 1]), [64, 32])
    add("amd_wmma", G.Ctor("AMDWMMALayout", version=2, transposed=True, warp_bases=[[1, 0], [2, 0]],
                           reg_bases=[], instr_shape=[16, 16, 16]), [64, 64])
    add("dot_amd_mfma", G.Ctor("DotOperandLayout", operand_index=0, parent=G.Ctor(
        "AMDMFMALayout", version=3, instr_shape=[32, 32, 8], transposed=True, warps_per_cta=[2, 2]),
        k_width=4), [64, 64])
    return rng, out


def to_linear_cases(rng):
    """`to_linear_layout(DistributedLinearLayout(...) | SharedLinearLayout(...), shape)`."""
    out = []
    for k in range(30):
        rank = rng.choice([1, 2, 2])
        s = shape_under(rng, rank, 0, 5)
        ctor = random_linear(rng, rank, s, k % 3 == 0)
        target = [max(1, x * rng.choice([1, 1, 2, 4])) for x in s]
        if rng.random() < 0.3:
            d = rng.randrange(rank)
            target[d] = max(1, target[d] // 2)
        n = 1
        for x in target:
            n *= x
        if n > MAX_ELEMENTS:
            target = s
        out.append((f"to_linear_dll_{k:03d}", ctor, target))
    for k in range(10):
        rank = rng.choice([1, 2])
        s = shape_under(rng, rank, 0, 5)
        target = s if k % 3 else [x * 2 for x in s]
        out.append((f"to_linear_sll_{k:03d}", random_shared_linear(rng, rank, s), target))
    return out


def compiled_types():
    """(name, defs, type text, shape, memdesc) of every distinct layout-carrying type in the TTGIR
    of small kernels compiled on the CPU for sm_80, sm_90, sm_100 and gfx942."""
    import re
    import triton_kernels_for_goldens as K

    out, skipped = [], 0
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "triton_kernels_for_goldens.py")
    for kname in K.KERNELS:
        for backend, arch, warp in K.TARGETS:
            r = subprocess.run([sys.executable, here, kname, backend, arch, str(warp)], capture_output=True,
                               text=True)
            if r.returncode != 0:
                print(f"{kname} {backend} {arch}: does not compile: {r.stderr.strip().splitlines()[-1:]}")
                continue
            text = r.stdout
            defs = "\n".join(x for x in text.splitlines()
                             if re.match(r"^[#!]\w+ = ", x) and " = loc(" not in x)
            seen = set()
            for m in re.finditer(r"tensor<\d|!ttg\.memdesc<", text):
                start, depth, k = m.start(), 0, m.start()
                while True:
                    if text[k] == "<":
                        depth += 1
                    elif text[k] == ">" and text[k - 1] != "-":
                        depth -= 1
                        if depth == 0:
                            break
                    k += 1
                ty = text[start:k + 1]
                if ty in seen or "," not in ty:
                    continue
                seen.add(ty)
                dims = re.match(r"(?:tensor|!ttg\.memdesc)<((?:\d+x)+)", ty).group(1)
                shape = [int(x) for x in dims.strip("x").split("x")]
                n = 1
                for x in shape:
                    n *= x
                if n > 4 * MAX_ELEMENTS:
                    skipped += 1
                    continue
                out.append((f"ttgir_{kname}_{backend}{arch}_{len(seen):02d}", defs, ty, shape,
                            ty.startswith("!ttg.memdesc")))
    return out, skipped


def table(bases, shape):
    """Cells from Triton's LinearLayout.apply, in the tilescope-cli table format."""
    from triton._C.libtriton import linear_layout as LLm

    outs = [f"dim{k}" for k in range(len(shape))]
    if "offset" in bases:
        ll = LLm.LinearLayout.from_bases([("offset", bases["offset"]), ("block", bases["block"])], outs)
        where = {}
        for off in range(1 << len(bases["offset"])):
            o = dict(ll.apply({"offset": off, "block": 0}))
            p = tuple(int(o[x]) for x in outs)
            if p in where:
                return None, f"offsets {where[p]} and {off} hold the same element"
            where[p] = off
        cells, omax = [], 0
        for p in itertools.product(*[range(s) for s in shape]):
            if p not in where:
                return None, f"no offset holds element {list(p)}"
            cells.append({"in": list(p), "out": [where[p]]})
            omax = max(omax, where[p])
        return {"kind": "layout", "input_shape": list(shape), "output_shape": [omax + 1], "cells": cells}, None
    if any(any(x) for x in bases["block"]):
        return None, "non-zero block bases"
    ll = LLm.LinearLayout.from_bases([(n, bases[n]) for n in ["register", "lane", "warp", "block"]], outs)
    nr, nl, nw = (len(bases[n]) for n in ["register", "lane", "warp"])
    owners = {}
    for w in range(1 << nw):
        for lane in range(1 << nl):
            for r in range(1 << nr):
                o = dict(ll.apply({"register": r, "lane": lane, "warp": w, "block": 0}))
                owners.setdefault(tuple(int(o[x]) for x in outs), {}).setdefault(lane + (w << nl), []).append(r)
    cells, tmax, lmax, rep, broadcast = [], 0, 0, None, False
    for p in itertools.product(*[range(s) for s in shape]):
        if p not in owners:
            return None, f"no thread holds element {list(p)}"
        regs = {t: min(rs) for t, rs in owners[p].items()}
        broadcast = broadcast or any(len(rs) > 1 for rs in owners[p].values())
        if len(set(regs.values())) != 1:
            return None, (f"element {list(p)} is in register {regs[min(regs)]} of thread {min(regs)} but "
                          f"register {regs[max(regs)]} of thread {max(regs)}")
        threads = sorted(regs)
        rep = len(threads) if rep is None else rep
        local = regs[threads[0]]
        tmax, lmax = max(tmax, threads[-1]), max(lmax, local)
        cells.append({"in": list(p), "threads": threads, "local": local})
    return {"kind": "fragment", "input_shape": list(shape), "thread_extent": tmax + 1, "replicate": rep,
            "local_size": lmax + 1, "cells": cells, "register_broadcast": broadcast}, None


def main():
    import re
    import triton

    rng, drawn = cases()
    triton_ = Triton()
    good, errors, unread = [], [], []
    stats = {"tables": 0, "register_broadcast": 0, "triton_refuses": 0, "not_shown": 0}
    src = f"triton {triton.__version__} (type printed by Triton, parsed back by ir.parse_mlir_module, " \
          "GluonOpBuilder.to_linear_layout, LinearLayout.apply)"
    src_generic = f"triton {triton.__version__} (type printed by Triton as #ttg.generic_linear, parsed back " \
                  "by ir.parse_mlir_module and get_gluon_layout_from_tensor, LinearLayout.apply of its bases)"
    for name, ctor, shape, memdesc in drawn:
        layout = ctor.text(rng)
        res = triton_.ask(layout=layout, shape=shape, memdesc=memdesc, form="type",
                          elem=rng.choice(ELEMENT_TYPES) if not memdesc else rng.choice(["f16", "bf16", "f32", "i8"]))
        forms = []
        if "inline" in res:
            forms.append(("inline", res["inline"]))
            if rng.random() < 0.5 or "#" in res["aliased"].split("\n")[0]:
                forms.append(("alias", res["aliased"]))
        if "error" in res:
            # Triton printed it (or not) but cannot convert the text it printed.
            spec = forms[-1][1] if forms else None
            if spec is None:
                # Triton refused to build the type: record the constructor only (no TTGIR text).
                print(f"{name}: Triton refuses {layout}: {res['error']}")
                continue
            if "#ttg.generic_linear<" in res["inline"] and "parsed" in res and \
                    res["parsed"]["shape"] == shape:
                # Triton's own reading of the text: the bases it parsed, over the tensor's shape.
                t, why = table(res["parsed"]["bases"], shape)
                for form, text in forms:
                    if t is None:
                        errors.append({"name": f"{name}_{form}", "spec": text, "layout": layout,
                                       "shape": shape, "error": f"a fragment cannot show it: {why}",
                                       "why": "not_shown"})
                        continue
                    good.append({"name": f"{name}_{form}", "spec": text, "source": src_generic,
                                 "layout": layout, "note": f"{form} form of {layout} for shape {shape}",
                                 "triton_printed": json.dumps(res["parsed"]), "table": t})
                    stats["register_broadcast"] += bool(t.get("register_broadcast"))
                continue
            kind = "unread" if ctor.cls.startswith("AMD") or "AMD" in layout else "triton"
            for form, text in forms:
                errors.append({"name": f"{name}_{form}", "spec": text, "layout": layout, "shape": shape,
                               "error": res["error"], "why": kind})
            stats["triton_refuses"] += kind == "triton"
            continue
        t, why = table(res["bases"], shape)
        if "AMD" in layout:
            # Triton converts it; Tilescope does not read AMD's layouts yet and must say so.
            for form, text in forms:
                errors.append({"name": f"{name}_{form}", "spec": text, "layout": layout, "shape": shape,
                               "error": f"Triton converts it ({res['printed']}); Tilescope does not read "
                                        "AMD layouts yet", "why": "unread"})
            continue
        for form, text in forms:
            if t is None:
                errors.append({"name": f"{name}_{form}", "spec": text, "layout": layout, "shape": shape,
                               "error": f"Triton converts it ({res['printed']}); a fragment cannot show it: {why}",
                               "why": "not_shown"})
                stats["not_shown"] += 1
                continue
            stats["register_broadcast"] += bool(t.get("register_broadcast"))
            good.append({"name": f"{name}_{form}", "spec": text, "source": src, "layout": layout,
                         "note": f"{form} form of {layout} for shape {shape}", "triton_printed": res["printed"],
                         "table": t})
            stats["tables"] += 1
        # The bare attribute, where it carries its own sizes.
        if t is not None and ctor.cls in ("DistributedLinearLayout", "SharedLinearLayout"):
            inline = res["inline"]
            attr = inline[inline.index("#"):inline.index(", #ttg.shared_memory")] if memdesc else \
                inline[inline.index("#"):-1]
            good.append({"name": f"{name}_bare", "spec": attr, "source": src, "layout": layout,
                         "note": f"bare attribute of {layout}", "triton_printed": res["printed"], "table": t})
    for name, ctor, shape in to_linear_cases(rng):
        layout = ctor.text(rng)
        spec = f"ttgl.to_linear_layout({layout}, {G.lit(shape)})"
        res = triton_.ask(layout=layout, shape=shape, memdesc=False, form="to_linear_layout", elem="f16")
        if "error" in res:
            errors.append({"name": name, "spec": spec, "layout": layout, "shape": shape, "error": res["error"],
                           "why": "triton"})
            continue
        t, why = table(res["bases"], shape)
        if t is None:
            errors.append({"name": name, "spec": spec, "layout": layout, "shape": shape,
                           "error": f"Triton converts it ({res['printed']}); a fragment cannot show it: {why}",
                           "why": "not_shown"})
            continue
        good.append({"name": name, "spec": spec, "source": src.replace("type printed by Triton, parsed back by "
                                                                      "ir.parse_mlir_module, ", ""),
                     "layout": layout, "note": f"for shape {shape}", "triton_printed": res["printed"], "table": t})
    compiled, compiled_skipped = compiled_types()
    for name, defs, ty, shape, memdesc in compiled:
        spec = defs + "\n" + ty
        res = triton_.ask(form="text", defs=defs, type=ty, shape=shape, memdesc=memdesc)
        if "error" in res and "parsed" in res and "#ttg.generic_linear<" in spec:
            res = {"bases": res["parsed"]["bases"], "printed": json.dumps(res["parsed"])}
        if res.get("error", "").endswith("SharedLinearLayout offset_bases must not be empty") and \
                all(x == 1 for x in shape):
            # One element (an mbarrier): Triton's conversion has no offset bases, which Gluon's
            # Python wrapper will not hold; the layout is offset 0 at element 0.
            res = {"bases": {"offset": [], "block": []}, "printed": res["error"]}
        if "error" in res:
            errors.append({"name": name, "spec": spec, "shape": shape, "error": res["error"],
                           "why": "triton"})
            continue
        t, why = table(res["bases"], shape)
        # An AMD layout (inline or through an alias the type uses): Triton converts it, Tilescope
        # does not read it yet.
        aliases = {x.split(" = ")[0]: x for x in defs.splitlines()}
        used = [v for k, v in aliases.items() if re.search(re.escape(k) + r"\b", ty)]
        if "#ttg.amd_" in ty or any("#ttg.amd_" in v for v in used):
            errors.append({"name": name, "spec": spec, "shape": shape,
                           "error": f"Triton converts it ({res['printed']}); Tilescope does not read AMD "
                                    "layouts yet", "why": "unread"})
            continue
        if t is None:
            errors.append({"name": name, "spec": spec, "shape": shape,
                           "error": f"Triton converts it ({res['printed']}); a fragment cannot show it: {why}",
                           "why": "not_shown"})
            continue
        good.append({"name": name, "spec": spec, "source": src.replace("type printed by Triton", "type from a "
                     "compiled kernel's TTGIR"), "note": f"{ty} from a TTGIR dump", "triton_printed": res["printed"],
                     "table": t})
        stats["compiled"] = stats.get("compiled", 0) + 1
    triton_.close()
    header = {
        "versions": {"triton": triton.__version__},
        "command": "python tools/gen_triton_mlir_goldens.py",
        "generator": "tools/gen_triton_mlir_goldens.py",
        "python": sys.version.split()[0],
        "family": "triton_mlir",
        "seed": 39,
        "cell_format": "tilescope-cli table; fragments: the threads holding an element in increasing order, "
                       "and the lowest register holding it in each of them (the same in all, or the case is "
                       "in errors)",
        "counts": {"cases": len(good), "errors": len(errors),
                   "errors_by_reason": {k: sum(1 for e in errors if e["why"] == k)
                                        for k in ("triton", "unread", "not_shown")},
                   "register_broadcast_cases": stats["register_broadcast"],
                   "compiled_kernel_types": stats.get("compiled", 0),
                   "compiled_kernel_types_over_4096_elements_not_stored": compiled_skipped},
    }
    with golden_file.writing(golden_file.golden_path(golden_file.GOLDEN_DIR, "triton_mlir")) as f:
        f.write("{\n")
        for k, v in header.items():
            f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        f.write('  "errors": [\n')
        for i, e in enumerate(errors):
            f.write("    " + json.dumps(e) + ("," if i + 1 < len(errors) else "") + "\n")
        f.write('  ],\n  "cases": [\n')
        for i, c in enumerate(good):
            f.write("    " + json.dumps(c, separators=(",", ":")) + ("," if i + 1 < len(good) else "") + "\n")
        f.write("  ]\n}\n")
    print(json.dumps(header["counts"]))


if __name__ == "__main__":
    if "--worker" in sys.argv:
        worker()
    else:
        main()
