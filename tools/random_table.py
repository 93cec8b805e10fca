#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads the raw H200 results of the random sweeps (data/h200/random_runs/NAME.json.gz, as
tilescope-probe wrote them) and writes

  data/h200/random_ncu.json   per pattern, what ncu counted with one warp per SM (load and store
                              wavefronts, bank conflicts, executed passes) and whether the data
                              round trip passed: the file tests/core/banks/test_h200_agreement.cpp
                              reads (the raw files are gzipped; the tests have no zlib)
  data/h200/random_table.md   every pattern: predicted (the probe's model) and measured
                              wavefronts and conflicts per instruction, by class

and prints the per-class summary for docs/measurements.md.

  python3 tools/random_table.py            # random_sweep, random_check, random_extra
"""
import collections
import gzip
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWEEPS = (("random_sweep", "fit: seed 11"), ("random_check", "held out: seed 12"),
          ("random_extra", "held out: seed 13, far, unused"))


def dump_slim(slim):
    """JSON with one pattern per line: small, and a re-measurement diffs line by line."""
    c = (",", ":")
    out = ["{", f'"about":{json.dumps(slim["about"])},', '"sweeps":{']
    for i, (name, s) in enumerate(slim["sweeps"].items()):
        head = {k: v for k, v in s.items() if k != "patterns"}
        out.append(f'{json.dumps(name)}:{json.dumps(head, separators=c)[:-1]},"patterns":[')
        rows = [json.dumps(r, separators=c) for r in s["patterns"]]
        out.append(",\n".join(rows))
        out.append("]}" + ("," if i + 1 < len(slim["sweeps"]) else ""))
    out += ["}}", ""]
    return "\n".join(out)


def main():
    slim = {"about": "tools/random_table.py from data/h200/random_runs/*.json.gz: ncu, one warp "
                     "per SM; wavefronts and conflicts are totals over `passes` executions of "
                     "the plan (passes = executed warp-plans: SMs x iterations x unroll)",
            "sweeps": {}}
    table = ["# Random sweeps on the H200: predicted vs ncu (one warp per SM), per instruction",
             "", "Written by `tools/random_table.py`; patterns from `tools/random_sweep.py`.", ""]
    summary = collections.OrderedDict()
    for name, role in SWEEPS:
        with gzip.open(os.path.join(ROOT, "data/h200/random_runs", name + ".json.gz"), "rt") as f:
            raw = json.load(f)
        rows = []
        table += [f"## {name} ({role}): {len(raw['patterns'])} patterns", "",
                  "| pattern | predicted wf | ncu wf | predicted conflicts | ncu conflicts | "
                  "agree | round trip |", "|---|---|---|---|---|---|---|"]
        for p in raw["patterns"]:
            m = p["ncu_1warp"]
            n = len(p["predicted"]["instructions"])
            passes = m["planned_instructions"] / n
            row = {"name": p["name"],
                   "instructions": n,
                   "passes": passes,
                   "ld_wavefronts": m["measured_ld_wavefronts"],
                   "st_wavefronts": m["measured_st_wavefronts"],
                   "conflicts": m["measured_conflicts"],
                   "roundtrip": p["roundtrip"]["pass"]}
            rows.append(row)
            pw = p["predicted"]["total"]["wavefronts"] / n
            pc = p["predicted"]["total"]["excess"] / n
            mw = (row["ld_wavefronts"] + row["st_wavefronts"]) / m["planned_instructions"]
            mc = row["conflicts"] / m["planned_instructions"]
            agree = m["exact"] and mc == pc
            cls = p["name"].split()[1]
            s = summary.setdefault(cls, collections.Counter())
            s[name] += 1
            s[name + " agree"] += agree
            s["roundtrip fail"] += not row["roundtrip"]
            table.append(f"| {p['name']} | {pw:g} | {mw:g} | {pc:g} | {mc:g} | "
                         f"{'yes' if agree else 'NO'} | {'pass' if row['roundtrip'] else 'FAIL'} |")
        table.append("")
        slim["sweeps"][name] = {"role": role, "device": raw["device"],
                                "ncu_version": raw.get("ncu_version", ""),
                                "seconds_total": raw["seconds_total"], "patterns": rows}
    with open(os.path.join(ROOT, "data/h200/random_ncu.json"), "w") as f:
        f.write(dump_slim(slim))
    with open(os.path.join(ROOT, "data/h200/random_table.md"), "w") as f:
        f.write("\n".join(table))
    print("| class | " + " | ".join(n for n, _ in SWEEPS) + " | agree |")
    print("|---|" + "---|" * (len(SWEEPS) + 1))
    for cls, s in summary.items():
        total = sum(s[n] for n, _ in SWEEPS)
        agree = sum(s[n + " agree"] for n, _ in SWEEPS)
        print(f"| {cls} | " + " | ".join(str(s[n]) for n, _ in SWEEPS) + f" | {agree}/{total} |")
    if any(s["roundtrip fail"] for s in summary.values()):
        print("round trip failures!", file=sys.stderr)


if __name__ == "__main__":
    main()
