# SPDX-License-Identifier: Apache-2.0
"""Index inference after TVM's simplifications, swept against the real TileLang.

    .venv/bin/python tools/infer_sweep.py [--grammar tvm|wide|infer] [--seed S] [--count N]
                                          [--cli build/app/cli/tilescope-cli] [--save FILE.json.gz]
                                          [--verify K] [--show N]

Draws fragments given only ``forward_thread_fn`` and compares the cells of ``tilescope-cli table``
with TileLang's. The ``tvm`` grammar aims at the rewrites TVM's simplifier applies before TileLang
infers the register index (``Analyzer::Simplify``: canonical, rewrite, canonical): ``T.truncdiv`` /
``T.truncmod`` of sums, shifts by 0, ``T.max(x, y) + T.min(x, y)``, products that cancel or factor
(``i * (j + 1) - i * j``, ``x * a + x * b``, ``v * 4 + v * q``), min/max and selects its bounds
decide, comparisons, bitwise operators with 0, all mixed into affine sums under ``//`` and ``%``.
``wide`` and ``infer`` are tools/infer_check.py's grammars.

TileLang builds each fragment (``T.Fragment``, CPU only); its simplified thread map and inferred
index (TVM PrimExprs) are then evaluated over the whole grid here with numpy, node by node, with
TVM's semantics (floor ``//`` and ``%``, ``T.Div``/``T.truncmod`` truncating, both branches of a
select evaluated, a shift count outside 0..31 an error). That is thousands of times faster than
TileLang's per-cell ``map_forward_*``; ``--verify K`` checks the first K cases against
``map_forward_*`` as well, so the fast evaluation is itself checked. ``--save`` writes the cases
in the golden format, each table evaluated by TileLang's own ``map_forward_*`` (gen_goldens.py's
``make_case``).

Outcomes per case: same cells; both refuse; Tilescope refuses naming what it does not reproduce
("beyond what Tilescope reproduces"); anything else (different cells, or only one side refusing)
is printed and makes the exit status 1.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import golden_file  # noqa: E402
import gen_goldens as g  # noqa: E402
import infer_check  # noqa: E402

T = g.T
tir = g.tvm.tirx


# ----------------------------------------------------------------------------------------------
# the tvm grammar
# ----------------------------------------------------------------------------------------------

def tvm_thread_map(rng, names, rep):
    """One thread map, as Python text TileLang and Tilescope both read."""

    def v():
        return rng.choice(names)

    def c(choices=(2, 3, 4, 8)):
        return rng.choice(choices)

    def affine(depth=0):
        k = rng.randrange(9)
        x = v()
        if k == 0:
            return x
        if k == 1:
            return f"{x} % {c((2, 3, 4, 6, 8))}"
        if k == 2:
            return f"{x} // {c()}"
        if k == 3:
            return f"{x} * {c((2, 3, 4, 8, 16))}"
        if k == 4:
            return f"{x} // {c((2, 4))} % {c((2, 3, 4))}"
        if k == 5:
            return f"({x} + {v()} * {c((2, 4, 8, 16))})"
        if k == 6:
            return f"({x} * {c((2, 4, 8))} + {rng.randrange(0, 9)})"
        if k == 7 and depth < 2:
            return f"({affine(depth + 1)}) * {c((2, 4, 8))}"
        return f"({x} + {rng.randrange(1, 9)})"

    def special(depth=0):
        a, b = affine(depth + 1), affine(depth + 1)
        if depth < 1 and rng.random() < 0.2:
            a = f"({special(depth + 1)})"
        x, y = v(), v()
        q = c((2, 3, 4, 8))
        forms = [
            # truncating division and modulo of non-negative (and sometimes signed) operands
            f"T.truncdiv({a}, {q})",
            f"T.truncmod({a}, {q})",
            f"T.truncdiv({a} + {b} * {c((2, 4, 8))}, {q})",
            f"T.truncmod({a} * {c((2, 4))} + {b}, {q})",
            f"T.truncdiv({a} - {rng.randrange(1, 5)}, {q})",
            f"T.truncmod({x} - {y}, {q})",
            # shifts by 0 and by small constants, both spellings
            f"({a}) >> 0",
            f"({a}) << 0",
            f"T.shift_left({a}, 0)",
            f"T.shift_right({a}, {rng.choice([0, 0, 1, 2])})",
            f"({a}) << {rng.choice([1, 2, 3])}",
            # min and max
            f"T.max({a}, {b}) + T.min({a}, {b})",
            f"T.min({a}, {b}) + T.max({b}, {a})",
            f"T.max({a}, {b}) - ({b})",
            f"T.min({x}, {y}) - {y}",
            f"T.min({a}, {rng.choice([64, 100, 1000])})",
            f"T.max({a}, 0)",
            f"T.max({a}, {b})",
            f"T.min({a} + {rng.randrange(1, 4)}, {b}) - {rng.randrange(1, 4)}",
            # products that cancel or factor
            f"{x} * ({y} + 1) - {x} * {y}",
            f"{x} * {y} + {x}",
            f"{x} * {y} + {x} * {v()}",
            f"{x} * {c((2, 4))} + {x} * {y}",
            f"{x} * {y} - {x} * {y} + {a}",
            f"({x} + {rng.randrange(1, 4)}) * {y}",
            f"{x} * {y} - {x}",
            f"T.min({x}, {y}) * T.max({x}, {y})",
            # selects whose condition bounds decide or not
            f"T.if_then_else({x} < {rng.choice([1, 2, 4, 100])}, {a}, {b})",
            f"T.Select({x} >= 0, {a}, {b})",
            f"T.if_then_else({x} < {y}, {a}, {a})",
            # comparisons and bitwise operators meeting constants
            f"T.Cast('int32', {x} < {rng.choice([2, 4, 1000])})",
            f"({a}) ^ 0",
            f"({a}) | 0",
            f"({a}) & {rng.choice([0, 1, 3, 7, 15, 255])}",
            f"({a}) ^ ({b})",
            # cancellations the canonical form or the rewrite rules make
            f"({a}) - ({a}) + {x}",
            f"({x} + {y}) - {y}",
            f"{x} // {q} * {q} + {x} % {q}",
            f"({x} // {q}) * {q * 2} + {x} % {q} * 2",
            f"({x} + 1) % 2 + {x} % 2",
            f"{x} % 2 + {x} // 2",
            f"({x} % {q} + {rng.randrange(1, 4)}) // {q} + {x} // {q}",
            f"{x} - {x} // {q} * {q}",
        ]
        # Shifts TVM refuses for int32 (a count outside 0..31, constant or reached at a cell),
        # now and then: TileLang and Tilescope must both refuse them.
        if rng.random() < 0.05:
            forms = [f"({a}) << {rng.choice([31, 32, 33, 40])}", f"({a}) >> {rng.choice([32, 64])}",
                     f"T.shift_right({a}, -1)", f"{x} << ({y} * 4)", f"T.shift_left({a}, {y} + 28)"]
        return rng.choice(forms)

    def term():
        t = special() if rng.random() < 0.6 else affine()
        r = rng.random()
        if r < 0.25:
            t = f"({t}) * {c((2, 4, 8, 16, 3))}"
        elif r < 0.35:
            t = f"({t}) // {c((2, 4))}"
        elif r < 0.45:
            t = f"({t}) % {c((2, 4, 8, 16))}"
        return f"({t})"

    terms = [term() for _ in range(rng.choice([1, 2, 2, 3]))]
    out = " + ".join(terms)
    r = rng.random()
    if r < 0.15:
        out = f"({out}) % {c((8, 16, 32, 64, 12))}"
    elif r < 0.25:
        out = f"({out}) // {c((2, 4))}"
    if rep > 1:
        out += " + " + rng.choice([f"rep * {rng.choice([16, 32, 64])}", "rep % 2 * 64",
                                   f"rep * {rng.choice([3, 5])}"])
    return out


def draw_tvm(seed, count):
    rng = random.Random(seed)
    shapes = [[8], [12], [16], [32], [4, 4], [4, 6], [4, 8], [6, 4], [8, 4], [8, 8], [6, 8],
              [16, 4], [2, 4, 4], [2, 3, 4], [4, 2, 8]]
    names = ["i", "j", "k"]
    out = []
    for n in range(count):
        shape = rng.choice(shapes)
        rep = rng.choice([1, 1, 1, 1, 2, 4])
        th = tvm_thread_map(rng, names[:len(shape)], rep)
        args = ", ".join(names[:len(shape)]) + (", rep" if rep > 1 else "")
        text = (f"T.Fragment({shape}, forward_thread_fn=lambda {args}: {th}"
                + (f", replicate={rep})" if rep > 1 else ")"))
        out.append(g.same(f"tvm_{seed}_{n:04d}_{'x'.join(map(str, shape))}_r{rep}", text,
                          note="register index inferred after TVM's simplification"))
    return out


# ----------------------------------------------------------------------------------------------
# TVM expressions evaluated over the grid
# ----------------------------------------------------------------------------------------------

class EvalFailure(Exception):
    pass


def _trunc_div(a, b):
    if np.any(b == 0):
        raise EvalFailure("division by zero")
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def _floor_div(a, b):
    if np.any(b == 0):
        raise EvalFailure("division by zero")
    return a // b


def _shift(a, b, left):
    if np.any((b < 0) | (b >= 32)):
        raise EvalFailure("shift count outside 0..31")
    r = (a << b) if left else (a >> b)
    # The shift builders make an IntImm of the folded value, which must fit int32.
    if np.any((r < -(1 << 31)) | (r >= (1 << 31))):
        raise EvalFailure("Literal value exceeds maximum of int32")
    return r


def _wrap32(v):
    # TVM folds + - * of int32 constants with wrap-around (GetFoldResultInt64Repr).
    return ((v + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


_BINARY = {
    "Add": lambda a, b: _wrap32(a + b), "Sub": lambda a, b: _wrap32(a - b),
    "Mul": lambda a, b: _wrap32(a * b),
    "FloorDiv": _floor_div,
    "FloorMod": lambda a, b: a - _floor_div(a, b) * b,
    "Div": _trunc_div,
    "Mod": lambda a, b: a - _trunc_div(a, b) * b,
    "Min": np.minimum, "Max": np.maximum,
    "LT": lambda a, b: (a < b).astype(np.int64), "LE": lambda a, b: (a <= b).astype(np.int64),
    "GT": lambda a, b: (a > b).astype(np.int64), "GE": lambda a, b: (a >= b).astype(np.int64),
    "EQ": lambda a, b: (a == b).astype(np.int64), "NE": lambda a, b: (a != b).astype(np.int64),
    "And": lambda a, b: ((a != 0) & (b != 0)).astype(np.int64),
    "Or": lambda a, b: ((a != 0) | (b != 0)).astype(np.int64),
}
_CALLS = {
    "tirx.bitwise_xor": lambda a, b: a ^ b, "tirx.bitwise_and": lambda a, b: a & b,
    "tirx.bitwise_or": lambda a, b: a | b,
    "tirx.shift_left": lambda a, b: _shift(a, b, True),
    "tirx.shift_right": lambda a, b: _shift(a, b, False),
    "tirx.bitwise_not": lambda a: ~a,
    "tirx.if_then_else": lambda c, t, f: np.where(c != 0, t, f),
    "tirx.likely": lambda a: a,
}


def tvm_eval(e, env):
    """The value of a TVM PrimExpr at every point: env maps variable names to int64 arrays."""
    kind = type(e).__name__
    if kind == "IntImm":
        return np.int64(int(e.value))
    if kind == "Var":
        return env[e.name]
    if kind in _BINARY:
        return _BINARY[kind](tvm_eval(e.a, env), tvm_eval(e.b, env))
    if kind == "Not":
        return (tvm_eval(e.a, env) == 0).astype(np.int64)
    if kind == "Cast":
        return tvm_eval(e.value, env)
    if kind == "Select":
        c, t, f = (tvm_eval(x, env) for x in (e.condition, e.true_value, e.false_value))
        return np.where(c != 0, t, f)
    if kind == "Call" and e.op.name in _CALLS:
        return _CALLS[e.op.name](*[tvm_eval(a, env) for a in e.args])
    raise EvalFailure(f"no numpy evaluation for {kind} {e}")


def fast_table(layout):
    """tilescope-cli's table JSON of a TileLang fragment, from its TVM expressions."""
    shape = [int(x) for x in layout.get_input_shape()]
    R = int(layout.replicate_size)
    grids = np.meshgrid(*[np.arange(s, dtype=np.int64) for s in shape], indexing="ij")
    # TileLang's placeholders are _i, _j, _k, ... (InputPlaceholder) and _rep.
    env = {"_" + "ijklmnop"[k]: x.ravel() for k, x in enumerate(grids)}
    n = env["_i"].size
    ones = np.ones(n, dtype=np.int64)
    env["_rep"] = 0 * ones
    local = np.broadcast_to(tvm_eval(layout.forward_index[0], env), (n,))
    threads = []
    for r in range(R):
        env["_rep"] = r * ones
        threads.append(np.broadcast_to(tvm_eval(layout.forward_thread, env), (n,)))
    th = np.stack(threads, axis=1)
    pts = np.stack([x.ravel() for x in grids], axis=1)
    cells = [{"in": p, "threads": t, "local": int(lv)}
             for p, t, lv in zip(pts.tolist(), th.tolist(), local.tolist())]
    return {"kind": "fragment", "input_shape": shape, "thread_extent": int(th.max()) + 1,
            "replicate": R, "local_size": int(local.max()) + 1, "cells": cells}


# ----------------------------------------------------------------------------------------------
# the sweep
# ----------------------------------------------------------------------------------------------

def tilescope(cli, args):
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr.strip()


def error_line(e):
    s = str(e).strip()
    return f"{type(e).__name__}: {s.splitlines()[-1] if s else ''}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grammar", choices=["tvm", "wide", "infer"], default="tvm")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--cli", default="build/app/cli/tilescope-cli")
    ap.add_argument("--save", help="write the drawn cases in the golden format")
    ap.add_argument("--verify", type=int, default=0,
                    help="check the numpy evaluation of the first K cases against map_forward_*")
    ap.add_argument("--show", type=int, default=40, help="print at most N disagreements")
    args = ap.parse_args(argv)
    t0 = time.time()
    if args.grammar == "tvm":
        specs = draw_tvm(args.seed, args.count)
    elif args.grammar == "wide":
        specs = infer_check.draw(args.seed, args.count)
    else:
        g.INFER_SEED, g.INFER_COUNT = args.seed, args.count
        specs = g.infer_cases()
        for sp in specs:
            sp["name"] = f"heldout_{args.seed}_{sp['name']}"
    stats = {"drawn": 0, "match": 0, "both_refuse": 0, "tilescope_refuses_by_name": 0,
             "tilescope_refuses_negative_thread": 0, "tilescope_refuses_limit": 0, "mismatch": 0, "tilescope_refuses_other": 0,
             "tilelang_refuses_only": 0, "tilelang_cannot_evaluate": 0}
    cases, errors, not_reproduced, negative, unevaluated = [], [], [], [], []
    reasons = collections.Counter()  # named refusals, by their wording with the quoted parts elided
    shown = 0
    for n, spec in enumerate(specs):
        stats["drawn"] += 1
        tl_error, layout, want = None, None, None
        try:
            layout = eval(spec["python"], dict(g.NAMESPACE))  # noqa: S307 - our own drawn text
            want = fast_table(layout)
        except EvalFailure as e:
            # TileLang fails on a cell too (a shift count or a literal out of int32): its own
            # message, from its own per-cell evaluation, is what is recorded.
            try:
                g.evaluate(layout)
            except Exception as real:
                tl_error = error_line(real)
            else:
                raise SystemExit(f"numpy evaluation fails ({e}) where map_forward_* does not: "
                                 f"{spec['spec']}")
        except Exception as e:  # TileLang refuses to build it
            tl_error = error_line(e)
        if want is not None and n < args.verify:
            # The fast evaluation must give TileLang's own map_forward_* cells; if it does not,
            # the sweep itself is wrong, which is never a verdict on Tilescope. TileLang may
            # also fail to give a number for a cell (its simplifier leaves `T.bitwise_or(1, 0)`
            # unfolded): that case is set aside.
            try:
                slow = g.evaluate(layout)
            except Exception as e:
                stats["tilelang_cannot_evaluate"] += 1
                unevaluated.append({"spec": spec["spec"], "tilelang": error_line(e)})
                continue
            if slow["cells"] != want["cells"]:
                raise SystemExit(f"numpy evaluation differs from map_forward_* on {spec['spec']}")
        rc, out, err = tilescope(args.cli, ["table", spec["spec"]])
        ours = json.loads(out) if rc == 0 else None
        if tl_error is not None:
            if ours is None:
                stats["both_refuse"] += 1
                errors.append({"name": spec["name"], "spec": spec["spec"], "python": spec["python"],
                               "error": tl_error, "expected": True})
            else:
                stats["tilelang_refuses_only"] += 1
                not_reproduced.append({"spec": spec["spec"], "tilelang": tl_error,
                                       "tilescope": "accepts"})
                if shown < args.show:
                    shown += 1
                    print(f"TILELANG REFUSES, TILESCOPE ACCEPTS {spec['spec']}\n    {tl_error}")
            continue
        if ours is None and re.search(r"thread \d+ is negative", err):
            # Tilescope's own limit (a thread is a lane number), not an index it could get
            # wrong: TileLang builds such maps. Counted apart, listed in the header.
            stats["tilescope_refuses_negative_thread"] += 1
            negative.append(spec["spec"])
            continue
        if ours is None and "exceeds the limit" in err:
            # a thread beyond Tilescope's limits (README: Limits), said so
            stats["tilescope_refuses_limit"] += 1
            negative.append(spec["spec"])
            continue
        if ours is None:
            named = "beyond what Tilescope reproduces" in err
            stats["tilescope_refuses_by_name" if named else "tilescope_refuses_other"] += 1
            if named:
                cases.append((spec, err.split("error: ", 1)[-1]))
                reasons[re.sub(r"`[^`]*`", "`...`", err.split("error: ", 1)[-1])[:160]] += 1
            else:
                not_reproduced.append({"spec": spec["spec"], "tilescope": err})
                if shown < args.show:
                    shown += 1
                    print(f"TILESCOPE REFUSES {spec['spec']}\n    {err}")
            continue
        if ours["cells"] == want["cells"] and ours["replicate"] == want["replicate"]:
            stats["match"] += 1
            cases.append((spec, None))
            continue
        stats["mismatch"] += 1
        not_reproduced.append({"spec": spec["spec"], "tilescope": "different cells"})
        if shown < args.show:
            shown += 1
            _, mine, _ = tilescope(args.cli, ["print", spec["spec"], "--format", "repr"])
            diff = next(((a, b) for a, b in zip(ours["cells"], want["cells"]) if a != b), None)
            print(f"MISMATCH {spec['spec']}\n    TileLang  thread {layout.forward_thread}"
                  f"\n              index  {list(layout.forward_index)}"
                  f"\n    Tilescope {mine.strip()}\n    first cell: ours {diff[0] if diff else None}"
                  f" TileLang's {diff[1] if diff else None}")
    for reason, n in reasons.most_common():
        print(f"refused by name {n}x: {reason}")
    print(json.dumps(stats), f"{time.time() - t0:.0f}s")
    if args.save:
        saved = []
        for spec, refused in cases:
            try:
                case = g.make_case(**spec)  # every cell again through TileLang's map_forward_*
            except Exception as e:
                unevaluated.append({"spec": spec["spec"], "tilelang": error_line(e)})
                continue
            if any(t < 0 for cell in case["table"]["cells"] for t in cell["threads"]):
                # refused by name, but a cell's thread is negative too, which Tilescope cannot
                # show even from TileLang's own printed form: set aside with the others
                negative.append(spec["spec"])
                continue
            if refused:
                case["tilescope_refused"] = refused
            saved.append(case)
        header = {"tilelang_version": g.TL_VERSION,
                  "command": f"python tools/infer_sweep.py --grammar {args.grammar} --seed {args.seed} "
                             f"--count {args.count} --save {args.save}",
                  "generator": "tools/infer_sweep.py", "python": sys.version.split()[0],
                  "family": golden_file.family_of(args.save),
                  "cell_format": "tilescope-cli table (product.md); fragments: threads[r] for replica r, local slot",
                  "stats": stats, "errors": errors, "not_reproduced": not_reproduced,
                  # thread maps with negative threads or threads beyond Tilescope's limits, which
                  # TileLang builds and Tilescope refuses with that reason
                  "refused_for_threads": negative,
                  # built by TileLang, but a cell it cannot evaluate to a number
                  "tilelang_cannot_evaluate": unevaluated}
        g.dump_family(args.save, header, saved)
    bad = stats["mismatch"] + stats["tilescope_refuses_other"] + stats["tilelang_refuses_only"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
