#!/usr/bin/env python3
"""Times TileLang's plot_layout against `tilescope-cli render` on the NxN accumulator fragment (PNG).

Usage: .venv/bin/python tools/bench_plot_layout.py [N] [OUTDIR]   (128 threads; 32 for N < 32)
Prints plot_layout's time (the call alone), the median whole-process time of 5 default
`tilescope-cli render` runs of the same fragment to PNG, and the ratio (figures in BENCHMARKS.md).
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
# 4 warps tile accumulators from 32x32 up; a 16x16 one is a single warp's.
THREADS = 128 if N >= 32 else 32
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.environ.get("TILESCOPE_CLI", os.path.join(ROOT, "build-gui/app/cli/tilescope-cli"))

import matplotlib

matplotlib.use("Agg")
import tilelang.language as T  # noqa: E402
from tilelang.tools import plot_layout  # noqa: E402

# The fragment's exact TileLang code, as Tilescope prints it (same expressions TileLang builds).
code = subprocess.check_output(
    [CLI, "print", f"make_gemm_c_fragment(({N}, {N}), {THREADS})", "--format", "code"], text=True
).strip()
print("fragment:", code)
env = {"T": T}
frag = eval(code, env)  # noqa: S307 - our own CLI output
t0 = time.perf_counter()
plot_layout(frag, save_directory=OUT, name=f"c_{N}x{N}", formats="png")
dt = time.perf_counter() - t0
print(f"plot_layout {N}x{N} png: {dt:.2f} s")

# The same fragment through Tilescope: whole process (start-up, evaluation, drawing, PNG), default
# options, median of 5 runs after one warm-up.
spec = f"make_gemm_c_fragment(({N}, {N}), {THREADS})"
env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
runs = []
for k in range(6):
    t0 = time.perf_counter()
    subprocess.run([CLI, "render", spec, "-o", os.path.join(OUT, f"ts_{N}x{N}.png")], check=True,
                   env=env)
    if k:
        runs.append(time.perf_counter() - t0)
ts = sorted(runs)[len(runs) // 2]
print(f"tilescope-cli render {N}x{N} png (whole process, median of {len(runs)}): {ts * 1000:.1f} ms")
print(f"ratio: {dt / ts:.0f}x")
