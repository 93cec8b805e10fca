#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A sweep over several GPU machines through an existing batch system (no scheduler here).

  fleet_sweep.py split SWEEP.json --parts N --dir DIR [--dry-run] [--probe PATH]
      writes DIR/part-0.json .. part-(N-1).json (sweep files, patterns spread round robin, each
      pattern tagged with its index in SWEEP.json) and DIR/job.sbatch, a Slurm job array whose
      task K runs `tilescope-probe --sweep DIR/part-K.json --devices all --out DIR/result-K.json`.
      --dry-run prints what would be written and the sbatch command, and writes nothing.
  fleet_sweep.py merge RESULT.json... --out MERGED.json
      puts the patterns of every part's result back in SWEEP.json's order (by the tag the probe
      echoes in each pattern's "request"); "parts" keeps each file's devices, date and exit code.

Submit with `sbatch DIR/job.sbatch` (one task per machine; each task uses every GPU of its machine
through --devices all), then merge the result files. Each part is an ordinary probe sweep file: any
batch system that runs one command per input file works the same way.
"""
import argparse
import json
import os
import sys

TAG = "fleet_index"
TOTAL = "fleet_patterns"


def split(args):
    with open(args.sweep) as f:
        sweep = json.load(f)
    pats = sweep.get("patterns")
    if not isinstance(pats, list) or not pats:
        sys.exit(f"fleet_sweep: {args.sweep}: no \"patterns\" array (not a sweep file)")
    if args.parts < 1:
        sys.exit("fleet_sweep: --parts must be at least 1")
    n = min(args.parts, len(pats))
    shared = {k: v for k, v in sweep.items() if k != "patterns"}
    shared[TOTAL] = len(pats)  # the probe copies top-level keys into each pattern's request
    parts = [dict(shared, patterns=[]) for _ in range(n)]
    for i, p in enumerate(pats):
        parts[i % n]["patterns"].append(dict(p, **{TAG: i}))
    d = os.path.abspath(args.dir)
    job = "\n".join([
        "#!/bin/bash",
        f"#SBATCH --job-name=tilescope-sweep",
        f"#SBATCH --array=0-{n - 1}",
        "#SBATCH --nodes=1",
        "#SBATCH --exclusive",
        f"#SBATCH --output={d}/task-%a.log",
        "set -u",
        f"exec {args.probe} --sweep {d}/part-$SLURM_ARRAY_TASK_ID.json --devices all "
        f"--out {d}/result-$SLURM_ARRAY_TASK_ID.json",
        "",
    ])
    files = {f"part-{k}.json": json.dumps(parts[k]) + "\n" for k in range(n)}
    files["job.sbatch"] = job
    for name, text in files.items():
        path = os.path.join(d, name)
        if args.dry_run:
            extra = f" ({len(parts[int(name[5:-5])]['patterns'])} patterns)" if name.startswith("part-") else ""
            print(f"would write {path}{extra}")
        else:
            os.makedirs(d, exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
    if args.dry_run:
        print(job, end="")
    print(f"then: sbatch {d}/job.sbatch; when done: {sys.argv[0]} merge {d}/result-*.json "
          f"--out merged.json")


def merge(args):
    out = {"ok": True, "patterns": [], "parts": []}
    seen = {}
    for path in args.results:
        with open(path) as f:
            r = json.load(f)
        if "patterns" not in r:
            sys.exit(f"fleet_sweep: {path}: not a probe sweep result (no \"patterns\")")
        out["ok"] = out["ok"] and bool(r.get("ok"))
        out["parts"].append({"file": os.path.basename(path), "exit_code": r.get("exit_code"),
                             "error": r.get("error"), "date": r.get("date"),
                             "driver": r.get("driver"), "ncu_version": r.get("ncu_version"),
                             "devices": r.get("devices", [r.get("device")])})
        for k in ("date", "driver", "ncu_version", "device"):
            if k in r and k not in out:
                out[k] = r[k]
        for p in r["patterns"]:
            i = p.get("request", {}).get(TAG)
            if not isinstance(i, int):
                sys.exit(f"fleet_sweep: {path}: pattern '{p.get('name')}' has no {TAG} "
                         "(not split by fleet_sweep.py)")
            if i in seen:
                sys.exit(f"fleet_sweep: pattern {i} is in {seen[i]} and {path}")
            seen[i] = path
            p = dict(p, part=os.path.basename(path))
            out["patterns"].append(p)
    out["patterns"].sort(key=lambda p: p["request"][TAG])
    totals = {p["request"].get(TOTAL) for p in out["patterns"]}
    total = max(t for t in totals if isinstance(t, int)) if totals - {None} else len(seen)
    missing = sorted(set(range(total)) - set(seen))
    if missing:
        out["ok"] = False
        out["error"] = f"{len(missing)} of {total} patterns have no result (a part is missing " \
                       f"or failed): {missing[:20]}"
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"merged {len(out['patterns'])} patterns from {len(args.results)} files into {args.out}"
          + ("" if out["ok"] else f" (not ok: {out.get('error', 'a part failed')})"))
    return 0 if out["ok"] else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("split")
    s.add_argument("sweep")
    s.add_argument("--parts", type=int, required=True)
    s.add_argument("--dir", required=True)
    s.add_argument("--probe", default="tilescope-probe")
    s.add_argument("--dry-run", action="store_true")
    m = sub.add_parser("merge")
    m.add_argument("results", nargs="+")
    m.add_argument("--out", required=True)
    a = ap.parse_args()
    sys.exit(split(a) if a.cmd == "split" else merge(a))


if __name__ == "__main__":
    main()
