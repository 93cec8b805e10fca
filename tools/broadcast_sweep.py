#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the broadcast sweep for tilescope-probe: shared-memory accesses in which lanes repeat
addresses, systematically, plus seeded random ones.

  python3 tools/broadcast_sweep.py tools/broadcast_sweep.json            # the fit sweep
  python3 tools/broadcast_sweep.py --check tools/broadcast_check.json    # held-out random check
  python3 tools/broadcast_sweep.py --pairs tools/broadcast_pairs.json    # lane-pair patterns

Every pattern is one warp instruction; its name encodes how it was made, so that the H200 result
(data/h200/broadcast_sweep.json) can be read without this script:

  bc <op> <bytes>B D<d> <assign> <arrange>      ld/st, d distinct addresses over the 32 lanes
  bc ldmatrix.x<n> D<d> <assign> <arrange>       row addresses of lanes 0 .. 8n-1
  bc rnd<seed> <op> ...                          random: d addresses from a small pool

assign (which distinct address lane t uses, index i in 0..d-1):
  contig   i = t / (L / d)           runs of equal addresses: quarters/halves see few distinct ones
  inter    i = t % d                 every quarter (8 lanes) holds the same addresses, lane for lane
  rot      i = t' % d, t' = lane t with its position inside its quarter rotated by the quarter
           number: every quarter holds the same set as with inter, in another lane order
  pairq    quarters 0 and 1 share one set of d/2 addresses, quarters 2 and 3 another
arrange (the byte address of distinct address i, for w bytes per lane):
  adj      i * w             consecutive: no two share a bank while they fit in 128 bytes
  bank     i * 128           every one in the same bank(s), other words: all conflict
  diag     i * (128 + w)     other 128-byte rows and other banks
"""
import json
import random
import sys

LANES = 32


def assign_index(assign, t, d, lanes):
    if assign == "contig":
        return t // (lanes // d)
    if assign == "inter":
        return t % d
    if assign == "rot":
        q = t // 8
        return (q * 8 + (t % 8 + q) % 8) % d
    if assign == "pairq":
        half = d // 2
        return (t % 8) % half + (t // 16) * half
    raise ValueError(assign)


def arrange_address(arrange, i, w):
    return {"adj": i * w, "bank": i * 128, "diag": i * (128 + w)}[arrange]


def instruction(op, w, addrs, matrices=None):
    ins = {"op": op, "bytes": w, "addresses": addrs}
    if matrices:
        ins["matrices"] = matrices
        ins["trans"] = False
    return ins


def pattern(name, ins):
    return {"name": name, "plan": {"instructions": [ins]}}


def systematic():
    out, seen = [], set()

    def add(name, ins):
        key = (ins["op"], ins["bytes"], ins.get("matrices"), tuple(ins["addresses"]))
        if key in seen:
            return
        seen.add(key)
        out.append(pattern(name, ins))

    for op in ("ld", "st"):
        for w in (4, 8, 16):
            add(f"bc {op} {w}B D1", instruction(op, w, [0] * LANES))
            for d in (2, 4, 8, 16, 32):
                assigns = ("contig", "inter") if w == 4 else ("contig", "inter", "rot", "pairq")
                for assign in assigns:
                    for arrange in ("adj", "bank", "diag"):
                        addrs = [arrange_address(arrange, assign_index(assign, t, d, LANES), w)
                                 for t in range(LANES)]
                        add(f"bc {op} {w}B D{d} {assign} {arrange}", instruction(op, w, addrs))
    for op, counts in (("ldmatrix", (1, 2, 4)), ("stmatrix", (1, 4))):
        for n in counts:
            lanes = 8 * n
            add(f"bc {op}.x{n} D1", instruction(op, 16, [0] * lanes + [None] * (LANES - lanes), n))
            d = 2
            while d <= lanes:
                assigns = ["contig", "inter"] + (["rot"] if n > 1 else []) + \
                          (["pairq"] if n == 4 and op == "ldmatrix" else [])
                arranges = ("adj", "bank", "diag") if op == "ldmatrix" else ("adj", "bank")
                for assign in assigns:
                    for arrange in arranges:
                        addrs = [arrange_address(arrange, assign_index(assign, t, d, lanes), 16)
                                 for t in range(lanes)] + [None] * (LANES - lanes)
                        add(f"bc {op}.x{n} D{d} {assign} {arrange}", instruction(op, 16, addrs, n))
                d *= 2
    return out


def randoms(seed, per_kind):
    """Random repeats: d addresses drawn from the w-aligned slots of 1 KB (so that distinct ones
    often share banks), lanes given a random one of them."""
    rng = random.Random(seed)
    out = []
    kinds = [("ld", 4), ("st", 4), ("ld", 8), ("st", 8), ("ld", 16), ("st", 16), ("ldmatrix", 16),
             ("stmatrix", 16)]
    for op, w in kinds:
        for k in range(per_kind):
            d = rng.choice((1, 2, 3, 4, 5, 6, 8, 12, 16))
            pool = rng.sample(range(0, 1024, w), d)
            n = rng.choice((1, 2, 4)) if op.endswith("matrix") else None
            lanes = 8 * n if n else LANES
            addrs = [rng.choice(pool) for _ in range(lanes)] + [None] * (LANES - lanes)
            mat = f".x{n}" if n else f" {w}B"
            out.append(pattern(f"bc rnd{seed}-{k} {op}{mat} D{d}", instruction(op, w, addrs, n)))
    return out


def from_letters(letters, w, arrange="adj", inactive=""):
    """32 lane letters (spaces ignored, '.' = inactive lane): equal letters, equal address; the
    k-th distinct letter gets address arrange_address(arrange, k, w), or the explicit byte
    address when arrange is a dict {letter: address}."""
    letters = letters.replace(" ", "")
    assert len(letters) == LANES, letters
    order = []
    for c in letters:
        if c != "." and c not in order:
            order.append(c)
    if isinstance(arrange, dict):
        return [None if c == "." else arrange[c] for c in letters]
    return [None if c == "." else arrange_address(arrange, order.index(c), w) for c in letters]


def pairs():
    """The lane-pair patterns: which lanes must share an address for two phases of an 8- or
    16-byte load to be served together, at what granularity, and what the merged phase costs."""
    out = []

    def add(name, op, w, addrs):
        out.append(pattern(f"bcp {op} {w}B {name}", instruction(op, w, addrs)))

    fresh = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    letters = list("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    def quads(*kinds):
        """one 4-lane template per quad ('xxyy' pairs t^1, 'xyxy' t^2, 'xyyx' t^3, 'xxxy',
        'xyzw', 'xxxx'), with fresh addresses per quad; 8 templates, cycled"""
        s, k = "", 0
        for q in range(8):
            t = kinds[q % len(kinds)]
            m = {}
            for c in t:
                if c not in m:
                    m[c] = letters[k]
                    k += 1
            s += "".join(m[c] for c in t)
        return s

    for op in ("ld", "st"):
        for w in (8, 16):
            for tmpl in ("xxyy", "xyxy", "xyyx", "xxxy", "xyzw", "xxxx"):
                add(f"quads {tmpl} adj", op, w, from_letters(quads(tmpl), w))
            if op == "st":
                continue
            for tmpl in ("xxyy", "xyxy", "xyyx"):
                add(f"quads {tmpl} bank", op, w, from_letters(quads(tmpl), w, "bank"))
            # mixed templates inside one merged phase (16 lanes for 16 B, 32 for 8 B)
            add("quads xxyy,xyxy adj", op, w, from_letters(quads("xxyy", "xyxy"), w))
            add("quads xxyy,xyyx adj", op, w, from_letters(quads("xxyy", "xyyx"), w))
            add("quads xxxx,xxyy adj", op, w, from_letters(quads("xxxx", "xxyy"), w))
            add("quads xxxx,xyxy adj", op, w, from_letters(quads("xxxx", "xyxy"), w))
            # one half of the warp paired, the other not, or paired another way
            h = 4  # quads per half warp
            add("halves xxyy|xyxy adj", op, w,
                from_letters(quads(*(["xxyy"] * h + ["xyxy"] * h)), w))
            add("halves xxyy|xyzw adj", op, w,
                from_letters(quads(*(["xxyy"] * h + ["xyzw"] * h)), w))
            add("halves xyzw|xxyy adj", op, w,
                from_letters(quads(*(["xyzw"] * h + ["xxyy"] * h)), w))
            add("halves xxyy|xxxy adj", op, w,
                from_letters(quads(*(["xxyy"] * h + ["xxxy"] * h)), w))
            add("halves xxxx|xyzw adj", op, w,
                from_letters(quads(*(["xxxx"] * h + ["xyzw"] * h)), w))
            # neighbours share, but not as aligned pairs: lanes (1,2), (3,4), ..., (31,0)
            add("shifted pairs adj", op, w,
                [arrange_address("adj", ((t + 1) % LANES) // 2, w) for t in range(LANES)])
            # merged cost: the union of the two phases, not the larger of them. Pairs t^1; the
            # first phase in one 128-byte row, the second in the next (same banks).
            lpp = 128 // w
            addrs = []
            for t in range(LANES):
                ph, j = t // lpp, (t % lpp) // 2
                addrs.append((ph % 2) * 128 + j * w + (ph // 2) * 256)
            add("pairs rows", op, w, addrs)
            # one phase conflicted (2-way), its partner phase not: union 2, separate 3
            addrs = []
            for t in range(LANES):
                ph, j = t // lpp, (t % lpp) // 2
                if ph % 2 == 0:
                    addrs.append(128 if j == 1 else j * w)
                else:
                    addrs.append(64 + j * w if w == 16 else 64 + j * w)
            add("pairs one phase conflicted", op, w, addrs)
            # inactive lanes: partners of active lanes switched off
            add("odd lanes off, one address", op, w, [0 if t % 2 == 0 else None for t in range(LANES)])
            add("odd lanes off, own addresses", op, w,
                [arrange_address("adj", t // 2, w) if t % 2 == 0 else None for t in range(LANES)])
            add("xxyy pairs, lane 31 off", op, w,
                [arrange_address("adj", t // 2, w) if t != 31 else None for t in range(LANES)])
            add("xxyy pairs, lanes 30 31 off", op, w,
                [arrange_address("adj", t // 2, w) if t < 30 else None for t in range(LANES)])
            add("lanes 1-3 of each quad off", op, w,
                [arrange_address("adj", t // 4, w) if t % 4 == 0 else None for t in range(LANES)])
    # ldmatrix rows paired the same ways (controls: ldmatrix showed no merging)
    for n in (2, 4):
        lanes = 8 * n
        for tmpl in ("xxyy", "xyxy"):
            a = from_letters(quads(tmpl), 16)[:lanes] + [None] * (LANES - lanes)
            out.append(pattern(f"bcp ldmatrix.x{n} quads {tmpl} adj", instruction("ldmatrix", 16, a, n)))
    return out


def random_pairs(seed, per_kind):
    """Random quads built from the lane-pair templates, with addresses that often conflict."""
    rng = random.Random(seed)
    out = []
    for w in (8, 16):
        for k in range(per_kind):
            addrs = []
            pool = rng.sample(range(0, 2048, w), 24)
            for q in range(8):
                t = rng.choice(("xxyy", "xyxy", "xyyx", "xxxx", "xxxy", "xxyy", "xyxy"))
                m = {}
                for c in t:
                    if c not in m:
                        m[c] = rng.choice(pool)
                    addrs.append(m[c])
            if rng.random() < 0.25:
                addrs[rng.randrange(LANES)] = None
            out.append(pattern(f"bcp rnd{seed}-{k} ld {w}B", instruction("ld", w, addrs)))
    return out


def main():
    args = sys.argv[1:]
    mode = next((a for a in args if a.startswith("--")), "")
    args = [a for a in args if not a.startswith("--")]
    if len(args) != 1 or mode not in ("", "--check", "--pairs"):
        sys.exit("usage: broadcast_sweep.py [--check|--pairs] OUT.json")
    if mode == "--check":
        pats = randoms(2, 12)
    elif mode == "--pairs":
        pats = pairs() + random_pairs(3, 20)
    else:
        pats = systematic() + randoms(1, 12)
    sweep = {"ncu": True, "iterations": 1024, "repetitions": 5, "warmup": 1,
             "ncu_iterations": 64, "patterns": pats}
    with open(args[0], "w") as f:
        json.dump(sweep, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(pats)} patterns -> {args[0]}", file=sys.stderr)


if __name__ == "__main__":
    main()
