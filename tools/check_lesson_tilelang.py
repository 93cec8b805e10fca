#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check a lesson's layouts cell for cell against the real TileLang.

For every step of a lesson project file whose text TileLang can evaluate, compares the
``tilescope-cli table`` JSON with TileLang's own forward_thread / forward_index over all cells
(``evaluate`` and ``NAMESPACE`` of tools/gen_goldens.py, so a step is read exactly as a golden
case is).  The swizzles take a buffer in TileLang, so ``f((R, C), "dt")`` is called as
``f(buf((R, C), "dt"))``; Ascend's nZ is not in TileLang's CUDA package and is checked against
gen_goldens' cited formula; ``make_padded_layout`` has no TileLang function here and is left to
its golden family.

Usage (from the repository root):
    .venv/bin/python tools/check_lesson_tilelang.py samples/lesson_storage_layout.tilescope.json \
        [--cli build/app/cli/tilescope-cli]
Exit status 1 when a step differs.
"""
import argparse
import json
import re
import subprocess
import sys

import gen_goldens  # tools/gen_goldens.py, beside this script


SWIZZLE = re.compile(r"^(make_(?:quarter|half|full)_bank_swizzled_layout)\((\(.*\)), (.*)\)$")


def as_tilelang(text):
    """The Python TileLang evaluates for a step's text, or None when there is none."""
    if text.startswith("T.") or text.startswith("make_gemm_fragment"):
        return text
    m = SWIZZLE.match(text)
    if m:
        return f"{m[1]}(buf({m[2]}, {m[3]}))"
    if text.startswith("make_nz_layout("):
        return "nz_formula" + text[len("make_nz_layout"):]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lesson")
    ap.add_argument("--cli", default="build/app/cli/tilescope-cli")
    args = ap.parse_args()
    steps = json.load(open(args.lesson))["layouts"]
    bad = checked = 0
    for s in steps:
        text = s["text"]
        python = as_tilelang(text)
        if python is None:
            print(f"-   {s['name']}: covered by its golden family")
            continue
        ours = json.loads(subprocess.run([args.cli, "table", text], check=True,
                                         capture_output=True, text=True).stdout)
        theirs = gen_goldens.evaluate(eval(python, dict(gen_goldens.NAMESPACE)))
        keys = ["input_shape", "cells"] + (["thread_extent", "replicate", "local_size"]
                                           if theirs["kind"] == "fragment" else ["output_shape"])
        diff = [k for k in keys if ours.get(k) != theirs.get(k)]
        checked += 1
        cells = len(theirs["cells"])
        if diff:
            bad += 1
            print(f"FAIL {s['name']}: {', '.join(diff)} differ")
        else:
            print(f"ok  {s['name']}: {cells} cells agree")
    print(f"{checked - bad} of {checked} steps agree with TileLang {gen_goldens.TL_VERSION}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
