# SPDX-License-Identifier: Apache-2.0
"""Shared by tools/gen_cute_dsl_goldens.py and tools/gen_cute_cxx_goldens.py: the fragment table of
who holds each element, and the golden file writer (the format tools/gen_goldens.py writes)."""
from __future__ import annotations

import json

import golden_file


def fragment_table(owners, rows, cols):
    """owners: {(m, n): [(thread, register), ...]}. Threads of an element in increasing order."""
    cells, rep = [], None
    for mi in range(rows):
        for ni in range(cols):
            own = sorted(owners[(mi, ni)])
            if len({v for _, v in own}) != 1:
                raise ValueError(f"element ({mi},{ni}) in several registers: {own}")
            rep = len(own) if rep is None else rep
            if rep != len(own):
                raise ValueError("elements held by different numbers of threads")
            cells.append({"in": [mi, ni], "threads": [t for t, _ in own], "local": own[0][1]})
    return {"kind": "fragment", "input_shape": [rows, cols],
            "thread_extent": max(t for c in cells for t in c["threads"]) + 1, "replicate": rep,
            "local_size": max(c["local"] for c in cells) + 1, "cells": cells}


def dump_family(path, header, cases):
    """One cell per line (diff-friendly, compact), as tools/gen_goldens.py writes its families,
    gzipped where path ends in .gz."""
    with golden_file.writing(path) as f:
        f.write("{\n")
        for k, v in header.items():
            f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        f.write('  "cases": [\n')
        for ci, case in enumerate(cases):
            f.write("    {\n")
            for k, v in case.items():
                if k != "table":
                    f.write(f"      {json.dumps(k)}: {json.dumps(v)},\n")
            table = case["table"]
            f.write('      "table": {')
            f.write(", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in table.items() if k != "cells"))
            f.write(', "cells": [\n')
            cells = table["cells"]
            for i, cell in enumerate(cells):
                f.write(json.dumps(cell, separators=(",", ":")) + ("," if i + 1 < len(cells) else "") + "\n")
            f.write("      ]}\n")
            f.write("    }" + ("," if ci + 1 < len(cases) else "") + "\n")
        f.write("  ]\n}\n")
