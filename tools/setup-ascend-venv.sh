#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the real Ascend tools Tilescope checks its Ascend path with, from PyPI, into
# .venv-ascend (git-ignored; never vendored: the CATLASS headers are under the CANN Open Software
# License). The app builds and runs without them; tests/CMakeLists.txt builds the tests that need
# them only where this venv exists.
#   ascendnpu-ir 1.2.0        bishengir-compile (HIVM legality checks on a CPU; stops at hivmc)
#   ascend-catlass-dsl 2.1.0  CATLASS's catlass/ and tla/ layout headers (cp311 wheel)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv-ascend/bin/python ]; then
    "$PY" -m venv .venv-ascend
fi
.venv-ascend/bin/python -m pip install --quiet --disable-pip-version-check \
    "ascendnpu-ir==1.2.0" "ascend-catlass-dsl==2.1.0"
ls .venv-ascend/lib/python3*/site-packages/ascendnpuir/bin/bishengir-compile
ls -d .venv-ascend/lib/python3*/site-packages/catlass/include/catlass
