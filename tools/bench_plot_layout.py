#!/usr/bin/env python3
"""Times TileLang's plot_layout on the 128x128 accumulator fragment (PNG), for docs/benchmarks-gui.md.

Usage: .venv/bin/python tools/bench_plot_layout.py [N] [OUTDIR]
Builds make_gemm_c_fragment((N, N), 128) the way T.gemm does (tilelang.layout.make_mma_store_layout
is not reachable without a buffer, so the fragment is the C accumulator from TileLang's own
TensorCoreIntrinEmitter-equivalent: thread/index exprs identical to `tilescope-cli print`), then
calls tilelang.tools.plot_layout(..., formats="png") and prints the wall time.
"""
import os
import subprocess
import sys
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 128
OUT = sys.argv[2] if len(sys.argv) > 2 else "/tmp/plot_layout_bench"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.environ.get("TILESCOPE_CLI", os.path.join(ROOT, "build-gui/app/cli/tilescope-cli"))

import matplotlib

matplotlib.use("Agg")
import tilelang.language as T  # noqa: E402
from tilelang.tools import plot_layout  # noqa: E402

# The fragment's exact TileLang code, as Tilescope prints it (same expressions TileLang builds).
code = subprocess.check_output(
    [CLI, "print", f"make_gemm_c_fragment(({N}, {N}), 128)", "--format", "code"], text=True
).strip()
print("fragment:", code)
env = {"T": T}
frag = eval(code, env)  # noqa: S307 - our own CLI output
t0 = time.perf_counter()
plot_layout(frag, save_directory=OUT, name=f"c_{N}x{N}", formats="png")
dt = time.perf_counter() - t0
print(f"plot_layout {N}x{N} png: {dt:.2f} s")
