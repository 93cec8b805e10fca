#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Markdown table of a tilescope-probe sweep result: predicted vs ncu wavefronts, timing."""
import json
import sys

d = json.load(open(sys.argv[1]))
dev = d.get("device", {})
print(f"device: {dev.get('name', '?')}, {dev.get('sm_count', '?')} SMs, clock attribute "
      f"{dev.get('clock_khz', 0) / 1e3:.0f} MHz; ok={d.get('ok')} exit={d.get('exit_code')}"
      + (f"; error: {d['error']}" if d.get("error") else ""))
print()
print("| pattern | instr | predicted wf/instr | ncu wf/instr (1 warp/SM) | ncu wf/instr (full) "
      "| predicted excess/instr | ncu conflicts/instr (1 warp/SM) | agree | round trip "
      "| cycles/instr/SM | cycles/wavefront/SM | TB/s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
bad = 0


def f(x, k=2):
    return "n/a" if x is None else (f"{x:.{k}f}" if isinstance(x, float) else str(x))


for p in d.get("patterns", []):
    n1 = p.get("ncu_1warp", {})
    nf = p.get("ncu", {})
    t = p.get("timing", {})
    pred = p["predicted"]["total"]
    ninstr = len(p["predicted"]["instructions"])
    pw = pred["wavefronts"] / max(ninstr, 1)
    planned = n1.get("planned_instructions") or 1
    c1 = n1.get("measured_conflicts")
    agree = n1.get("agree")
    if not agree:
        bad += 1
    rt = p.get("roundtrip", {}).get("pass")
    print(f"| {p['name']} | {ninstr} | {pw:g} | {f(n1.get('measured_wavefronts_per_instruction'), 3)} "
          f"| {f(nf.get('measured_wavefronts_per_instruction'), 3)} | {pred['excess'] / max(ninstr, 1):g} "
          f"| {f(c1 / planned if c1 is not None else None, 3)} | {agree} | {rt} "
          f"| {f(t.get('cycles_per_instruction_per_sm'))} | {f(t.get('cycles_per_wavefront_per_sm'), 3)} "
          f"| {f(t.get('bandwidth_tb_s'))} |")
print()
print(f"disagreements (1 warp/SM, exact): {bad} of {len(d.get('patterns', []))}; "
      f"probe seconds {f(d.get('seconds_total'))}")
