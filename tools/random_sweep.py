#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes seeded random shared-memory sweeps for tilescope-probe: the classes of access that the
earlier sweeps (builtin, samples, broadcast_*) cover thinly or not at all, drawn at random so that
the bank model is checked on patterns nobody picked by hand.

  python3 tools/random_sweep.py tools/random_sweep.json            # fit: seed 11
  python3 tools/random_sweep.py --check tools/random_check.json    # held out: seed 12
  python3 tools/random_sweep.py --extra tools/random_extra.json    # held out: seed 13, plus
                                                                    # `far` and `unused`
  python3 tools/random_sweep.py --seed N --scale S OUT.json         # any seed; S x patterns/class

The fit and the held-out files are drawn by the same generators with different seeds: a rule is
found on the fit file alone and then has to hold on the held-out one. Every pattern is one warp
(one instruction unless its class is `multi`); its name encodes its class and how it was drawn,
so that the H200 result (data/h200/random_*.json) can be read without this script:

  rs<seed>-<n> <class> <op> <w>B <detail>

classes (w = bytes per lane, "units" = multiples of w):
  subword   1- and 2-byte ld/st where several lanes hit different bytes of one 4-byte word, or the
            same byte: g lanes per word (g = 2, 4 for 1 B; 2 for 2 B; or `same` g lanes on one
            byte), the words `adj` (consecutive), `bank` (128 B apart), `stride` s words apart or
            `rnd` (random words of a window); lanes given their word in order or shuffled
  stride    lane t at base + t * s * w, s drawn odd / even / power of two / large (up to 16 KB
            footprint), every width, ld and st
  perm      a random permutation of 32 consecutive w-byte slots (`block`), of a strided block, or
            32 slots drawn at random from a window of 1-16 KB (`window`, repeats allowed or not)
  mask      inactive lanes: first n, last n, one quarter/half off, every other quarter, half of
            each quarter, even or odd lanes, one lane per quarter, random masks of density
            0.1-0.9; addresses contiguous, strided, random or in one bank
  sparse    8- and 16-byte ld/st with structured masks (even/odd lanes, halves of quads or
            quarters, one lane per quarter, ...) and sparse random ones: tells apart fixed phases,
            paired lanes with inactive partners, and active lanes packed into phases
  dup       8- and 16-byte loads (stores as controls) with repeated addresses: pairs t ^ k
            (k = 1, 2, 3, 4, 8, 16) over the whole warp, some pairs spoiled (other address, or
            the lane switched off), quads (t ^ 1 and t ^ 2), pairs on conflicting addresses
  matrix    ldmatrix / stmatrix .x1/.x2/.x4, with and without .trans, row addresses 16-byte
            aligned at random in a window, some rows repeated, or strided by a pitch
  multi     2-6 instructions of mixed kinds in one plan (ncu reports the kernel's sum)
  far       (--extra) a 1-16 KB window at a random base anywhere in the 227 KB of an sm_90 block
  unused    (--extra) ldmatrix/stmatrix .x1/.x2 whose address-less lanes hold conflicting addresses
"""
import json
import random
import sys

LANES = 32
WIDTHS = (1, 2, 4, 8, 16)


def instruction(op, w, addrs, matrices=None, trans=False):
    ins = {"op": op, "bytes": w, "addresses": addrs}
    if matrices:
        ins["matrices"] = matrices
        ins["trans"] = trans
    return ins


class Gen:
    """Collects the patterns of one seed; drops a pattern whose plan another already has."""

    def __init__(self, seed):
        self.seed = seed
        self.rng = random.Random(seed)
        self.out = []
        self.seen = set()

    def add(self, cls, what, instructions):
        key = json.dumps(instructions, sort_keys=True)
        if key in self.seen:
            return False
        self.seen.add(key)
        first = instructions[0]
        kind = f"{first['op']}.x{first['matrices']}" if "matrices" in first else \
            f"{first['op']} {first['bytes']}B"
        if cls == "multi":
            kind = f"{len(instructions)} instr"
        name = f"rs{self.seed}-{len(self.out)} {cls} {kind} {what}"
        self.out.append({"name": name, "plan": {"instructions": instructions}})
        return True

    # -- helpers --
    def stride_units(self):
        """A random stride in units of the access: odd, even, power of two or large."""
        kind = self.rng.choice(("odd", "even", "pow2", "large"))
        if kind == "odd":
            return self.rng.randrange(1, 66, 2), kind
        if kind == "even":
            return self.rng.randrange(2, 66, 2), kind
        if kind == "pow2":
            return 1 << self.rng.randrange(0, 8), kind
        return self.rng.randrange(65, 513), kind

    def window(self):
        return self.rng.choice((1024, 2048, 4096, 8192, 16384))

    def base(self, w, limit=4096):
        return self.rng.randrange(0, limit, max(w, 1)) // w * w


def subword(g, n):
    """1- and 2-byte loads and stores sharing 4-byte words between lanes."""
    rng = g.rng
    made = 0
    while made < n:
        op = rng.choice(("ld", "st"))
        w = rng.choice((1, 2))
        share = rng.choice(("bytes", "bytes", "same", "mixed"))
        if share == "bytes":  # `per` lanes per word, each on its own byte
            per = rng.choice((2, 4)) if w == 1 else 2
        elif share == "same":  # `per` lanes on one byte
            per = rng.choice((2, 4, 8, 32))
        else:  # each lane a random byte of a random word of a small pool
            per = rng.choice((2, 4, 8))
        nwords = (LANES + per - 1) // per
        arrange = rng.choice(("adj", "bank", "stride", "rnd"))
        if arrange == "adj":
            words = list(range(nwords))
        elif arrange == "bank":
            words = [32 * i for i in range(nwords)]
        elif arrange == "stride":
            s = rng.choice((2, 3, 4, 5, 8, 16, 17, 31, 33, 64))
            words = [s * i for i in range(nwords)]
            arrange = f"stride{s}"
        else:
            win = g.window()
            words = rng.sample(range(win // 4), nwords)
            arrange = f"rnd{win // 1024}KB"
        base_word = rng.randrange(0, 256)
        shuffled = rng.random() < 0.5
        slots = list(range(LANES))
        if shuffled:
            rng.shuffle(slots)
        # the byte of each group: distinct per lane ("bytes") or one per group ("same")
        group_bytes = {i: rng.sample(range(0, 4, w), 4 // w) for i in range(nwords)}
        addrs = []
        for t in range(LANES):
            j = slots[t]
            if share == "mixed":
                word = base_word + rng.choice(words)
                byte = rng.choice(range(0, 4, w))
            else:
                word = base_word + words[j // per]
                byte = group_bytes[j // per][j % per if share == "bytes" else 0]
            addrs.append(4 * word + byte)
        detail = f"{share} per{per} {arrange}{' shuffled' if shuffled else ''}"
        if g.add("subword", detail, [instruction(op, w, addrs)]):
            made += 1


def strides(g, n):
    rng = g.rng
    made = 0
    while made < n:
        op = rng.choice(("ld", "st"))
        w = WIDTHS[made % len(WIDTHS)]
        s, kind = g.stride_units()
        # keep the footprint within 16 KB + base
        while 31 * s * w + w > 16384:
            s //= 2
        b = g.base(w, 1024)
        addrs = [b + t * s * w for t in range(LANES)]
        if g.add("stride", f"s{s} {kind} base{b}", [instruction(op, w, addrs)]):
            made += 1


def perms(g, n):
    rng = g.rng
    made = 0
    while made < n:
        op = rng.choice(("ld", "st"))
        w = WIDTHS[made % len(WIDTHS)]
        kind = rng.choice(("block", "sblock", "window", "window-rep"))
        b = g.base(w, 2048)
        if kind == "block":
            slots = list(range(LANES))
            rng.shuffle(slots)
            addrs = [b + i * w for i in slots]
            detail = f"block base{b}"
        elif kind == "sblock":
            s, _ = g.stride_units()
            while 31 * s * w + w > 16384:
                s //= 2
            slots = list(range(LANES))
            rng.shuffle(slots)
            addrs = [b + i * s * w for i in slots]
            detail = f"strided block s{s} base{b}"
        else:
            win = g.window()
            pool = range(0, win, w)
            picks = rng.sample(pool, LANES) if kind == "window" else \
                [rng.choice(pool) for _ in range(LANES)]
            addrs = [b + a for a in picks]
            detail = f"{kind} {win // 1024}KB base{b}"
        if g.add("perm", detail, [instruction(op, w, addrs)]):
            made += 1


def random_mask(rng, density):
    return sum(1 << t for t in range(LANES) if rng.random() < density)


MASKS = {
    "first": lambda rng: (1 << rng.randrange(1, 32)) - 1,
    "last": lambda rng: ((1 << 32) - 1) ^ ((1 << rng.randrange(1, 32)) - 1),
    "quarter-off": lambda rng: 0xFFFFFFFF ^ (0xFF << 8 * rng.randrange(4)),
    "half-off": lambda rng: 0xFFFFFFFF ^ (0xFFFF << 16 * rng.randrange(2)),
    "alt-quarters": lambda rng: rng.choice((0x00FF00FF, 0xFF00FF00)),
    "half-of-quarters": lambda rng: rng.choice((0x0F0F0F0F, 0xF0F0F0F0, 0x33333333, 0xCCCCCCCC)),
    "even": lambda rng: 0x55555555,
    "odd": lambda rng: 0xAAAAAAAA,
    "lane-per-quarter": lambda rng: sum(1 << (8 * q + rng.randrange(8)) for q in range(4)),
    "random": lambda rng: random_mask(rng, rng.choice((0.1, 0.3, 0.5, 0.7, 0.9))),
}


def masks(g, n):
    rng = g.rng
    made = 0
    names = list(MASKS)
    while made < n:
        op = rng.choice(("ld", "st"))
        w = WIDTHS[made % len(WIDTHS)]
        mname = names[(made // len(WIDTHS)) % len(names)] if made < 2 * len(names) * len(
            WIDTHS) else rng.choice(names)
        m = MASKS[mname](rng)
        if m == 0:
            continue
        arr = rng.choice(("adj", "stride", "rnd", "bank", "perm"))
        b = g.base(w, 1024)
        if arr == "adj":
            addrs = [b + t * w for t in range(LANES)]
        elif arr == "stride":
            s, _ = g.stride_units()
            while 31 * s * w + w > 16384:
                s //= 2
            addrs = [b + t * s * w for t in range(LANES)]
            arr = f"stride{s}"
        elif arr == "bank":
            addrs = [b + t * 128 for t in range(LANES)]
        elif arr == "perm":
            slots = list(range(LANES))
            rng.shuffle(slots)
            addrs = [b + i * w for i in slots]
        else:
            win = g.window()
            addrs = [b + a for a in rng.sample(range(0, win, w), LANES)]
            arr = f"rnd{win // 1024}KB"
        addrs = [a if m >> t & 1 else None for t, a in enumerate(addrs)]
        if g.add("mask", f"{mname} {m:08x} {arr} base{b}", [instruction(op, w, addrs)]):
            made += 1


def sparse(g, n):
    """8- and 16-byte loads and stores with structured masks that tell apart how inactive lanes
    are served: by lane position (phases of fixed lanes), with an inactive partner not spoiling a
    pair (even lanes only, lanes 0-1 of each quad, ...), or as if the active lanes were packed."""
    rng = g.rng
    made = 0
    fixed = (0x55555555, 0xAAAAAAAA, 0x33333333, 0xCCCCCCCC, 0x0F0F0F0F, 0xF0F0F0F0, 0x11111111,
             0x01010101, 0x00FF00FF, 0xFF00FF00, 0x0000FFFF, 0xFFFF0000, 0x000000FF, 0x0000FF00,
             0x00FFFF00, 0x5555AAAA, 0x3333CCCC, 0x0303C0C0, 0x80000001, 0x00010001)
    while made < n:
        op = "st" if rng.random() < 0.3 else "ld"
        w = rng.choice((8, 16))
        m = fixed[made % len(fixed)] if made < 2 * len(fixed) else \
            random_mask(rng, rng.choice((0.1, 0.2, 0.3, 0.5)))
        if m == 0:
            continue
        arr = rng.choice(("adj", "adj", "rnd", "bank", "row2"))
        b = g.base(w, 1024)
        if arr == "adj":
            addrs = [b + t * w for t in range(LANES)]
        elif arr == "bank":
            addrs = [b + t * 128 for t in range(LANES)]
        elif arr == "row2":  # lane t at row t % 2, so lanes of one parity share banks
            addrs = [b + (t % 2) * 128 + (t // 2) * w for t in range(LANES)]
        else:
            win = g.window()
            addrs = [b + a for a in rng.sample(range(0, win, w), LANES)]
            arr = f"rnd{win // 1024}KB"
        addrs = [a if m >> t & 1 else None for t, a in enumerate(addrs)]
        if g.add("sparse", f"{m:08x} {arr} base{b}", [instruction(op, w, addrs)]):
            made += 1


def dups(g, n):
    """8/16-byte loads (and some stores) whose lanes repeat addresses in pairs t ^ k."""
    rng = g.rng
    made = 0
    while made < n:
        w = rng.choice((8, 16))
        op = "st" if rng.random() < 0.15 else "ld"
        kind = rng.choice(("pair", "pair", "pair-spoiled", "pair-off", "quad", "quad-spoiled",
                           "pair-mask", "xor-mix"))
        k = rng.choice((1, 2, 1, 2, 3, 4, 8, 16))
        # the distinct addresses: lane t uses representative min(t, t ^ k)
        arrange = rng.choice(("adj", "rnd", "bank", "diag", "rnd"))
        win = g.window()
        pool = rng.sample(range(0, win, w), LANES)
        b = g.base(w, 1024)

        def place(i):
            if arrange == "adj":
                return b + i * w
            if arrange == "bank":
                return b + i * 128
            if arrange == "diag":
                return b + i * (128 + w)
            return b + pool[i]

        if kind.startswith("quad"):
            addrs = [place(t & ~3) for t in range(LANES)]
            detail = f"{kind} {arrange}"
        elif kind == "xor-mix":
            # two different k in the two halves of the warp
            k2 = rng.choice([x for x in (1, 2, 4, 8) if x != k and x < 16] or [1])
            k = k if k < 16 else 4
            addrs = [place(min(t, t ^ (k if t < 16 else k2))) for t in range(LANES)]
            detail = f"{kind} k{k}|k{k2} {arrange}"
        else:
            addrs = [place(min(t, t ^ k)) for t in range(LANES)]
            detail = f"{kind} k{k} {arrange}"
        spoiled = []
        if kind.endswith("spoiled"):
            for _ in range(rng.choice((1, 1, 2, 4))):
                t = rng.randrange(LANES)
                addrs[t] = place(LANES - 1 - (t % 8)) + (w if arrange == "adj" else 0)
                spoiled.append(t)
            detail += " spoiled" + ",".join(map(str, sorted(set(spoiled))))
        elif kind == "pair-off":
            off = sorted(set(rng.randrange(LANES) for _ in range(rng.choice((1, 2, 5)))))
            for t in off:
                addrs[t] = None
            detail += " off" + ",".join(map(str, off))
        elif kind == "pair-mask":
            m = MASKS[rng.choice(list(MASKS))](rng)
            if m == 0:
                continue
            addrs = [a if m >> t & 1 else None for t, a in enumerate(addrs)]
            detail += f" mask{m:08x}"
        if all(a is None for a in addrs):
            continue
        if g.add("dup", detail, [instruction(op, w, addrs)]):
            made += 1


def matrices(g, n):
    rng = g.rng
    made = 0
    while made < n:
        op = rng.choice(("ldmatrix", "ldmatrix", "stmatrix"))
        x = rng.choice((1, 2, 4))
        trans = rng.random() < 0.4
        lanes = 8 * x
        kind = rng.choice(("rnd", "rnd-rep", "pitch", "pitch-swz", "bank"))
        win = g.window()
        if kind == "rnd":
            rows = [16 * r for r in rng.sample(range(win // 16), lanes)]
            detail = f"rnd {win // 1024}KB"
        elif kind == "rnd-rep":
            d = rng.choice((1, 2, 3, 4, 6, 8, 12, 16))
            pool = [16 * r for r in rng.sample(range(win // 16), min(d, lanes))]
            rows = [rng.choice(pool) for _ in range(lanes)]
            detail = f"rnd-rep D{len(pool)} {win // 1024}KB"
        elif kind in ("pitch", "pitch-swz"):
            pitch = rng.choice((16, 32, 48, 64, 80, 96, 128, 144, 256, 272, 512))
            rows = []
            for t in range(lanes):
                r, c = t % 8 + 8 * (t // 16), (t // 8) % 2
                chunk = c ^ (r % 8) if kind == "pitch-swz" else c
                rows.append(r * pitch + 16 * chunk)
            detail = f"{kind} {pitch}"
        else:
            # every row at the start of a 128-byte line: all in banks 0-3
            rows = [128 * rng.randrange(win // 128) for _ in range(lanes)]
            detail = f"bank {win // 1024}KB"
        b = 16 * rng.randrange(64)
        addrs = [b + a for a in rows] + [None] * (LANES - lanes)
        if g.add("matrix", f"{'trans ' if trans else ''}{detail} base{b}",
                 [instruction(op, 16, addrs, x, trans)]):
            made += 1


def multi(g, n):
    """Plans of several instructions: ncu reports their sum, split into loads and stores."""
    rng = g.rng
    made = 0
    while made < n:
        count = rng.randrange(2, 7)
        ins = []
        for _ in range(count):
            if rng.random() < 0.2:
                x = rng.choice((1, 2, 4))
                rows = [16 * rng.randrange(256) for _ in range(8 * x)]
                ins.append(instruction(rng.choice(("ldmatrix", "stmatrix")), 16,
                                       rows + [None] * (LANES - 8 * x), x, rng.random() < 0.5))
                continue
            op = rng.choice(("ld", "st"))
            w = rng.choice(WIDTHS)
            s, _ = g.stride_units()
            while 31 * s * w + w > 8192:
                s //= 2
            b = g.base(w, 1024)
            addrs = [b + t * s * w for t in range(LANES)]
            if rng.random() < 0.3:
                rng.shuffle(addrs)
            if rng.random() < 0.3:
                m = MASKS[rng.choice(list(MASKS))](rng)
                if m:
                    addrs = [a if m >> t & 1 else None for t, a in enumerate(addrs)]
            ins.append(instruction(op, w, addrs))
        if g.add("multi", "mixed", ins):
            made += 1


SMEM_MAX = 227 * 1024  # sm_90 opt-in shared memory per block


def far(g, n):
    """Addresses anywhere in the 227 KB an sm_90 block may use: a random 1-16 KB window at a
    random base, every width and ld/stmatrix. The round-trip tile is one element (the tile only
    feeds the data check; the timed loop uses the plan's own footprint)."""
    rng = g.rng
    made = 0
    while made < n:
        kind = rng.choice(("ld", "st", "ld", "st", "ldmatrix", "stmatrix"))
        w = 16 if kind.endswith("matrix") else WIDTHS[made % len(WIDTHS)]
        win = g.window()
        b = rng.randrange(0, SMEM_MAX - win, 16)
        x = rng.choice((1, 2, 4)) if kind.endswith("matrix") else None
        lanes = 8 * x if x else LANES
        shape = rng.choice(("rnd", "stride", "dup"))
        if shape == "rnd":
            addrs = [b + a for a in rng.sample(range(0, win, w), lanes)]
        elif shape == "stride":
            s, _ = g.stride_units()
            while 31 * s * w + w > win:
                s //= 2
            addrs = [b + t * s * w for t in range(lanes)]
        else:
            pool = [b + a for a in rng.sample(range(0, win, w), rng.choice((2, 4, 8, 16)))]
            addrs = [rng.choice(pool) for _ in range(lanes)]
        if x:
            addrs += [None] * (LANES - lanes)
        ins = instruction(kind, w, addrs, x, rng.random() < 0.3) if x else \
            instruction(kind, w, addrs)
        if g.add("far", f"{shape} {win // 1024}KB base{b}", [ins]):
            g.out[-1]["tile"] = {"elem_bytes": 4, "elements": 1}
            made += 1


def unused(g, n):
    """ldmatrix/stmatrix .x1/.x2 whose lanes 8x..31 (which give no row address) hold addresses
    that would conflict with the real rows if the hardware read them."""
    rng = g.rng
    made = 0
    while made < n:
        op = rng.choice(("ldmatrix", "stmatrix"))
        x = rng.choice((1, 2))
        trans = rng.random() < 0.3
        lanes = 8 * x
        pitch = rng.choice((128, 256, 144, 16))
        rows = [t * pitch for t in range(lanes)]
        # the unused lanes: other 16-byte rows in the same banks as the used ones, or random
        junk = rng.choice(("bank", "rnd"))
        if junk == "bank":
            rest = [4096 + 128 * t + rows[t % lanes] % 128 for t in range(LANES - lanes)]
        else:
            rest = [16 * r for r in rng.sample(range(1024), LANES - lanes)]
        if g.add("unused", f"pitch{pitch} junk-{junk}{' trans' if trans else ''}",
                 [instruction(op, 16, rows + rest, x, trans)]):
            made += 1


# patterns per class at scale 1
CLASSES = (("subword", subword, 70), ("stride", strides, 70), ("perm", perms, 60),
           ("mask", masks, 100), ("sparse", sparse, 60),
           ("dup", dups, 90), ("matrix", matrices, 60), ("multi", multi, 15))


def sweep(seed, scale):
    g = Gen(seed)
    for _, fn, count in CLASSES:
        fn(g, max(1, round(count * scale)))
    return g.out


def main():
    args = sys.argv[1:]
    seed, scale, outs, extra = 11, 1.0, [], False
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--check":
            seed, scale = 12, 0.4
        elif a == "--extra":
            seed, scale, extra = 13, 0.3, True
        elif a == "--seed":
            i += 1
            seed = int(args[i])
        elif a == "--scale":
            i += 1
            scale = float(args[i])
        elif a.startswith("--"):
            sys.exit("usage: random_sweep.py [--check|--extra] [--seed N] [--scale S] OUT.json")
        else:
            outs.append(a)
        i += 1
    if len(outs) != 1:
        sys.exit("usage: random_sweep.py [--check|--extra] [--seed N] [--scale S] OUT.json")
    pats = sweep(seed, scale)
    if extra:
        g = Gen(seed * 1000)
        far(g, 70)
        unused(g, 24)
        pats += g.out
    doc = {"ncu": True, "iterations": 256, "repetitions": 3, "warmup": 1, "ncu_iterations": 64,
           "patterns": pats}
    with open(outs[0], "w") as f:
        json.dump(doc, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(pats)} patterns (seed {seed}) -> {outs[0]}", file=sys.stderr)


if __name__ == "__main__":
    main()
