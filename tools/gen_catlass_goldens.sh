#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Writes tests/data/goldens/catlass.json.gz: the zN / nZ / zZ / L0C offsets of CATLASS's own layout
# code (catlass/layout/matrix.hpp and tla/layout.hpp from the PyPI ascend-catlass-dsl wheel,
# installed into .venv-ascend at generation time, never vendored), compiled for the host by
# tools/catlass_goldens/catlass_offsets.cpp. tests/golden/test_goldens.cpp checks every cell
# against Tilescope's make_zn/nz/zz/l0c_layout.
#   bash tools/gen_catlass_goldens.sh [OUT.json.gz]   (gzipped where OUT ends in .gz: tools/golden_file.py)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-tests/data/goldens/catlass.json.gz}
bash tools/setup-ascend-venv.sh > /dev/null
INC=$(ls -d .venv-ascend/lib/python3*/site-packages/catlass/include | head -n1)
VER=$(.venv-ascend/bin/python -c "import importlib.metadata as m; print(m.version('ascend-catlass-dsl'))")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"${CXX:-g++}" -std=c++17 -O1 -I"$INC" tools/catlass_goldens/catlass_offsets.cpp -o "$TMP/catlass_offsets"
"$TMP/catlass_offsets" > "$TMP/cases.json"
CXXV=$("${CXX:-g++}" --version | head -n1)
python3 - "$TMP/cases.json" "$OUT" "$VER" "$CXXV" <<'PY'
import json, sys
sys.path.insert(0, "tools")
import golden_file
cases, out, ver, cxx = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
with open(cases) as f:
    cs = json.load(f)
with golden_file.writing(out) as f:
    f.write("{\n")
    for k, v in [("family", "catlass"), ("generator", "tools/gen_catlass_goldens.sh"),
                 ("command", "bash tools/gen_catlass_goldens.sh"),
                 ("catlass_source", "ascend-catlass-dsl " + ver + " (PyPI), catlass/include"),
                 ("compiler", cxx),
                 ("cell_format", "tilescope-cli table (product.md); int4 uses SizeOfBits = 4, as AscendC::int4b_t")]:
        f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
    f.write('  "cases": [\n')
    for i, c in enumerate(cs):
        t = c["table"]
        head = {k: c[k] for k in ("name", "spec", "source", "citation")}
        body = json.dumps(head)[1:-1]
        cells = ",".join(json.dumps(x, separators=(",", ":")) for x in t["cells"])
        f.write("    {" + body + ', "table": {"kind": "layout", "input_shape": '
                + json.dumps(t["input_shape"]) + ', "cells": [' + cells + "]}}"
                + ("," if i + 1 < len(cs) else "") + "\n")
    f.write("  ]\n}\n")
print(f"{out}: {len(cs)} cases")
PY
