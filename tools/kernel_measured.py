#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turns what tools/h200_kernels.sh brought back into one measured.json per kernel.

    kernel_measured.py RAW_DIR [--into data/kernels] [--only NAME]

RAW_DIR holds one folder per kernel with kernel.sass (nvdisasm -gi: every SASS instruction's
source line, through inlined calls) and source.csv (Nsight Compute's SourceCounters table, one
row per SASS instruction). Each shared-memory instruction (Address Space names Shared) is mapped
to the line of kernel.cu it was generated for: its own line when that is in kernel.cu, else the
innermost `inlined at` line in kernel.cu (the call in the kernel of a tl_templates helper). Per
line: instructions executed (warp level, every block), L1 wavefronts shared, their ideal, and
the SASS opcodes. Instructions predicated on !PT (never executed: ptxas's placeholders beside
cp.async) issue but access nothing, so they are left out and counted apart.
"""
import csv
import json
import os
import re
import sys

LINE_RE = re.compile(r'//## File "([^"]+)", line (\d+)(.*)')
INLINED_RE = re.compile(r'inlined at "([^"]+)", line (\d+)')
INSN_RE = re.compile(r'/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;')


def sass_lines(path, source_name="kernel.cu"):
    """Offset -> line of kernel.cu for every instruction of the (single) kernel."""
    out = {}
    current = None
    for raw in open(path):
        m = LINE_RE.search(raw)
        if m:
            f, line, rest = m.group(1), int(m.group(2)), m.group(3)
            chain = [(f, line)] + [(a, int(b)) for a, b in INLINED_RE.findall(rest)]
            current = None
            for cf, cl in chain:  # innermost first: the first frame in kernel.cu
                if os.path.basename(cf) == source_name:
                    current = cl
                    break
            continue
        m = INSN_RE.search(raw)
        if m:
            out[int(m.group(1), 16)] = (current, m.group(2))
    return out


def number(s):
    s = (s or "").replace(",", "").strip()
    if not s:
        return 0
    return int(float(s))


def measure(folder):
    name = open(os.path.join(folder, "name.txt")).read().strip()
    meta = json.load(open(os.path.join(folder, "meta.json")))
    kern = next(k for k in meta["kernels"] if k["name"] == name)
    lines_of = sass_lines(os.path.join(folder, "kernel.sass"))
    rows = list(csv.reader(open(os.path.join(folder, "source.csv"))))
    hdr_at = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    hdr = rows[hdr_at]
    ix = {h: i for i, h in enumerate(hdr)}
    body = [r for r in rows[hdr_at + 1:] if len(r) >= len(hdr) and r[0].startswith("0x")]
    base = int(body[0][ix["Address"]], 16)
    per_line = {}
    placeholders = 0
    unmapped = []
    for r in body:
        space = r[ix["Address Space"]]
        if "Shared" not in space:
            continue
        off = int(r[ix["Address"]], 16) - base
        src = r[ix["Source"]].strip()
        line, text = lines_of.get(off, (None, None))
        if text is None or text.split()[-1:] == [] or src.split()[-1] not in text + " " + src:
            pass
        mnemonic = [w for w in src.split() if not w.startswith("@")][0]
        if text is not None and mnemonic not in text:
            raise SystemExit(f"{folder}: SASS at 0x{off:x} is '{src}' in ncu but '{text}' in nvdisasm")
        ie = number(r[ix["Instructions Executed"]])
        wf = number(r[ix["L1 Wavefronts Shared"]])
        ideal = number(r[ix["L1 Wavefronts Shared Ideal"]])
        if src.startswith("@!PT"):
            placeholders += ie
            if wf:
                raise SystemExit(f"{folder}: a !PT placeholder at 0x{off:x} has {wf} wavefronts")
            continue
        if line is None:
            unmapped.append({"offset": off, "sass": src, "instructions": ie, "wavefronts": wf})
            continue
        e = per_line.setdefault(line, {"line": line, "instructions": 0, "wavefronts": 0,
                                       "ideal": 0, "sass": []})
        e["instructions"] += ie
        e["wavefronts"] += wf
        e["ideal"] += ideal
        if mnemonic not in e["sass"]:
            e["sass"].append(mnemonic)
    return {
        "name": name,
        "grid": kern["grid"],
        "block": kern["block"],
        "lines": [per_line[k] for k in sorted(per_line)],
        "placeholder_instructions": placeholders,
        "unmapped": unmapped,
    }


def totals(folder):
    path = os.path.join(folder, "metrics.csv")
    out = {}
    if not os.path.exists(path):
        return out
    rows = list(csv.reader(open(path)))
    hdr_at = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    if hdr_at is None:
        return out
    ix = {h: i for i, h in enumerate(rows[hdr_at])}
    for r in rows[hdr_at + 1:]:
        if len(r) > ix["Metric Value"]:
            out[r[ix["Metric Name"]]] = number(r[ix["Metric Value"]])
    return out


def main():
    raw = sys.argv[1]
    into = sys.argv[sys.argv.index("--into") + 1] if "--into" in sys.argv else None
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    env = open(os.path.join(raw, "env.txt")).read().splitlines()
    gpu = env[1].split(",")[0] if len(env) > 1 else ""
    tool = next((l for l in env if l.startswith("Version")), "")
    for n in sorted(os.listdir(raw)):
        folder = os.path.join(raw, n)
        if not os.path.exists(os.path.join(folder, "source.csv")) or (only and n != only):
            continue
        k = measure(folder)
        doc = {"tool": "ncu " + tool.split()[1] if tool else "ncu", "gpu": gpu,
               "source": "kernel.cu", "command": "bash tools/h200_kernels.sh; "
               "python3 tools/kernel_measured.py RAW --into data/kernels",
               "kernel_totals": totals(folder), "kernels": [k]}
        text = json.dumps(doc, indent=1) + "\n"
        if into:
            open(os.path.join(into, n, "measured.json"), "w").write(text)
        print(f"{n}: {len(k['lines'])} lines, {k['placeholder_instructions']} placeholder "
              f"instructions, {len(k['unmapped'])} unmapped")


if __name__ == "__main__":
    main()
