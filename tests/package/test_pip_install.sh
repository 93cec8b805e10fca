#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `pip install ./python` as a user does it, into a fresh virtual environment, then the bridge
# used from outside the source tree: the package's files, not python/ on sys.path, must work.
#   test_pip_install.sh SOURCE_DIR TILESCOPE_CLI
set -euo pipefail
src=$1
cli=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# --system-site-packages: Debian's setuptools and wheel build it (no index needed).
# Debian's Python, which the packages above belong to (a pyenv python3 on PATH has neither).
"${TILESCOPE_VENV_PYTHON:-/usr/bin/python3}" -m venv --system-site-packages "$work/venv"
# --no-build-isolation: with those, not with ones fetched from an index.
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation \
    --no-deps "$src/python"
cd "$work"
TILESCOPE_CLI="$cli" "$work/venv/bin/python" - "$src" <<'PY'
import os
import sys

import tilescope

src = os.path.realpath(sys.argv[1])
where = os.path.realpath(tilescope.__file__)
assert where.startswith(os.path.realpath(sys.prefix)), f"imported from {where}, not the venv"
assert not where.startswith(src), f"imported from the source tree: {where}"
svg = tilescope.render("make_gemm_fragment_8x8()", fmt="svg")
assert "<svg" in svg._repr_svg_() and "T31" in svg._repr_svg_()
table = tilescope.table("T.Layout([4, 4], lambda i, j: (j, i))")
assert table["kind"] == "layout" and len(table["cells"]) == 16
try:
    tilescope.table("T.Layout([4], lambda i: i +)")
except tilescope.TilescopeError as e:
    assert "column" in str(e), e
else:
    raise AssertionError("a bad spec did not raise")
print("installed", tilescope.__name__, "from", where)
PY
