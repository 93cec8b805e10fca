# SPDX-License-Identifier: Apache-2.0
"""Which layout inverses TileLang builds, swept against the real TileLang.

    .venv/bin/python tools/inverse_sweep.py [--seed S] [--count N]
                                            [--cli build/app/cli/tilescope-cli] [--save FILE.json]

Tilescope inverts any bijective layout from its table; TileLang's ``Layout.inverse()`` rewrites
the forward map with TVM's DetectIterMap first and raises ("Layout ... has errors") where part of
it is not a sum of iterator splits. Tilescope then shows the inverse with a note saying TileLang
would not build it. This draws layouts (permutations of iterator pieces, which TileLang inverts;
xor swizzles and rotations under ``%``, which it does not; random affine maps, often not
bijective), asks TileLang to build each inverse (CPU only) and ``tilescope-cli table --summary``
for Tilescope's, and compares:

- TileLang builds it: Tilescope gives it with no note (and, checked cell by cell for the first
  ``--cells`` cases, the same inverse as TileLang's ``map_forward_index``);
- TileLang raises: Tilescope gives it with the note, or refuses it too (not bijective).

Anything else is printed and makes the exit status 1. ``--save`` writes the cases with TileLang's
outcome (tests/data/tilelang_inverse.json; tests/core/layout/test_tilelang_inverse.cpp reads it).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_goldens as g  # noqa: E402

T = g.T

POW2 = [2, 4, 8, 16, 32]


def pieces_of(rng, var, extent):
    """Split `var` (extent a power of two) into (text, extent) pieces, lowest first."""
    out, lower = [], 1
    while lower < extent:
        ext = rng.choice([e for e in POW2 + [extent // lower] if e <= extent // lower])
        if lower == 1 and ext == extent:
            text = var
        elif lower == 1:
            text = f"{var} % {ext}"
        elif lower * ext == extent:
            text = f"{var} // {lower}"
        else:
            text = f"{var} // {lower} % {ext}"
        out.append((text, ext))
        lower *= ext
    return out


def fuse(pieces):
    """One output: the pieces fused, the first most significant."""
    terms, scale = [], 1
    for text, ext in reversed(pieces):
        terms.append(f"({text})" if scale == 1 else f"({text}) * {scale}")
        scale *= ext
    return " + ".join(reversed(terms)), scale


def draw(rng):
    kind = rng.choice(["permute", "permute", "fusedsplit", "xor", "rotate", "swizzled", "product",
                       "random"])
    rank = rng.choice([1, 2, 2, 2, 3])
    shape = [rng.choice(POW2[:4] if rank == 3 else POW2) for _ in range(rank)]
    names = ["i", "j", "k"][:rank]
    if kind == "permute":
        pieces = []
        for n, e in zip(names, shape):
            pieces += pieces_of(rng, n, e)
        rng.shuffle(pieces)
        if len(pieces) > 1 and rng.random() < 0.5:
            cut = rng.randrange(1, len(pieces))
            outs = [fuse(pieces[:cut])[0], fuse(pieces[cut:])[0]]
        else:
            outs = [fuse(pieces)[0]]
    elif kind == "fusedsplit":
        # Outputs that split one fused sum again: TVM fuses, then splits the fused iterator.
        pieces = []
        for n, e in zip(names, shape):
            pieces += pieces_of(rng, n, e)
        rng.shuffle(pieces)
        fused, total = fuse(pieces)
        d = rng.choice([e for e in POW2 if e < total] or [1])
        outs = [f"({fused}) // {d}", f"({fused}) % {d}"]
    elif kind == "product" and rank >= 2:
        # A product of two variables: no iterator sum (bijective only by accident).
        outs = [f"{names[0]} * {names[1]} + {names[0]} * {shape[1]} + {names[1]}",
                f"{names[1]} * {shape[0]} + {names[0]}"][rng.randrange(2):][:1]
    elif kind in ("xor", "rotate", "swizzled") and rank >= 2:
        r, c = shape[0], shape[1]
        v = rng.choice([e for e in [1, 2, 4, 8] if e <= c])
        groups = c // v
        s = rng.choice([e for e in [1, 2, 4, 8, 16] if e <= min(r, groups)])
        i, j = names[0], names[1]
        if kind == "xor":
            mix = f"(({j} // {v}) ^ ({i} % {s}))"
        elif kind == "rotate":
            mix = f"(({j} // {v} + {i} % {s}) % {groups})"
        else:  # make_swizzled_layout's form: one bit at a time
            mix = f"(({j} // {v} + {i} // {max(s // 2, 1)} % 2) % {groups})"
        lo = f" + {j} % {v}" if v > 1 else ""
        out = f"{i} * {c} + {mix} * {v}{lo}"
        if rank == 3:
            out = f"{names[2]} * {r * c} + " + out if rng.random() < 0.5 else out
            if "k" not in out:
                out = f"k * {r * c} + " + out
        outs = [out]
    else:
        terms = []
        for n, e in zip(names, shape):
            terms.append(f"{n} * {rng.choice([1, 2, 3, 4, 8, 16, 32, 64])}")
            if rng.random() < 0.3:
                terms.append(f"{n} // {rng.choice([2, 4])} * {rng.choice([1, 5, 7])}")
        outs = [" + ".join(terms)]
        if rng.random() < 0.3:
            outs.append(f"{names[-1]} % {rng.choice([2, 4])}")
    body = outs[0] if len(outs) == 1 else "[" + ", ".join(outs) + "]"
    return kind, f"T.Layout({shape}, lambda {', '.join(names)}: {body})"


def tilelang_inverse(text):
    """(ok, message, inverse layout or None) for TileLang's `text`.inverse()."""
    layout = eval(text, {"T": T})  # noqa: S307 -- our own generated text
    try:
        inv = layout.inverse()
    except Exception as e:  # TVM raises InternalError (a RuntimeError subclass) or TVMError
        lines = [ln for ln in str(e).strip().splitlines() if ln.strip()]
        return False, (lines[-1] if lines else type(e).__name__)[:300], None
    return True, "", inv


def tilescope(cli, text):
    p = subprocess.run([cli, "table", text + ".inverse()"], capture_output=True, text=True)
    if p.returncode != 0:
        return "refuses", p.stderr.strip(), None
    j = json.loads(p.stdout)
    return ("note" if j.get("notes") else "builds"), "; ".join(j.get("notes", [])), j


def same_cells(inv, j):
    """Tilescope's inverse table against TileLang's map_forward_index, cell by cell."""
    for cell in j["cells"]:
        want = [int(x) for x in inv.map_forward_index([int(c) for c in cell["in"]])]
        if want != cell["out"]:
            return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--cli", default="build/app/cli/tilescope-cli")
    ap.add_argument("--cells", type=int, default=200, help="cases checked cell by cell")
    ap.add_argument("--save")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    stats, cases, bad, seen = {}, [], 0, set()
    while len(cases) < a.count:
        kind, text = draw(rng)
        if text in seen:
            continue
        seen.add(text)
        ok, msg, inv = tilelang_inverse(text)
        ts, why, j = tilescope(a.cli, text)
        if ok and ts == "builds":
            outcome = "both_build"
            if len(cases) < a.cells and not same_cells(inv, j):
                outcome = "mismatch_cells"
        elif not ok and ts == "note":
            outcome = "tilelang_refuses_tilescope_notes"
        elif not ok and ts == "refuses":
            outcome = "both_refuse"
        else:
            outcome = f"mismatch_{'tilelang_builds' if ok else 'tilelang_refuses'}_tilescope_{ts}"
        stats[outcome] = stats.get(outcome, 0) + 1
        if outcome.startswith("mismatch"):
            bad += 1
            print(f"{outcome}: {text}\n  TileLang: {msg or 'builds'}\n  Tilescope: {why}",
                  file=sys.stderr)
        cases.append({"kind": kind, "text": text, "tilelang_builds_inverse": ok,
                      "tilelang_message": msg})
    print(json.dumps(stats, sort_keys=True))
    if a.save:
        with open(a.save, "w") as f:
            json.dump({"tilelang_version": g.tilelang.__version__,
                       "command": " ".join(["python", "tools/inverse_sweep.py"] + sys.argv[1:]),
                       "stats": stats, "cases": cases}, f, indent=1)
            f.write("\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
