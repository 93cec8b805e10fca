#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Times TileLang's plot_layout against `tilescope-cli render` on the NxN accumulator fragment (PNG).

Usage: TILESCOPE_CLI=build/app/cli/tilescope-cli .venv/bin/python tools/bench_plot_layout.py [N] [OUTDIR]
(128 threads; 32 for N < 32; the CLI defaults to build-gui/app/cli/tilescope-cli.)

Tilescope first: 5 default `tilescope-cli render` runs of the fragment to PNG after one warm-up,
whole process, median wall and median user+sys CPU (os.wait4). Then TileLang 0.1.15: the fragment
built from the code `tilescope-cli print --format code` prints (the same thread/index expressions
T.gemm's accumulator has), and plot_layout(frag, formats="png") timed: wall and CPU of the call
alone, the process's CPU so far (imports included) and its peak RSS (getrusage of this process).
Tilescope's lines come first so that they are there even if a long plot_layout run is killed.
Ratios: plot_layout call wall / Tilescope wall, and plot_layout CPU (call; whole process) /
Tilescope CPU. Figures in BENCHMARKS.md, "Render at any size".
"""
import os
import resource
import subprocess
import sys
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 128
OUT = sys.argv[2] if len(sys.argv) > 2 else "/tmp/plot_layout_bench"
# 4 warps tile accumulators from 32x32 up; a 16x16 one is a single warp's.
THREADS = 128 if N >= 32 else 32
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.environ.get("TILESCOPE_CLI", os.path.join(ROOT, "build-gui/app/cli/tilescope-cli"))
SPEC = f"make_gemm_c_fragment(({N}, {N}), {THREADS})"
os.makedirs(OUT, exist_ok=True)


def cpu(ru):
    return ru.ru_utime + ru.ru_stime


def median(xs):
    return sorted(xs)[len(xs) // 2]


# Tilescope: whole process (start-up, evaluation, drawing, PNG), default options.
env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
walls, cpus, rss = [], [], []
for k in range(6):
    t0 = time.perf_counter()
    p = subprocess.Popen([CLI, "render", SPEC, "-o", os.path.join(OUT, f"ts_{N}x{N}.png")], env=env,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        sys.exit(f"tilescope-cli render failed ({p.returncode})")
    if k:  # the first run warms the caches
        walls.append(wall)
        cpus.append(cpu(ru))
        rss.append(ru.ru_maxrss)
ts_wall, ts_cpu = median(walls), median(cpus)
print(f"tilescope-cli render {N}x{N} png (whole process, median of {len(walls)}): "
      f"wall {ts_wall * 1000:.0f} ms, CPU {ts_cpu * 1000:.0f} ms, peak RSS {max(rss) / 1024:.0f} MB",
      flush=True)

# TileLang: the same fragment from its exact TileLang code.
code = subprocess.check_output([CLI, "print", SPEC, "--format", "code"], text=True,
                               stderr=subprocess.DEVNULL).strip()
print("fragment:", code, flush=True)

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import tilelang.language as T  # noqa: E402
from tilelang.tools import plot_layout  # noqa: E402

frag = eval(code, {"T": T})  # noqa: S307 - our own CLI output
ru0 = resource.getrusage(resource.RUSAGE_SELF)
t0 = time.perf_counter()
plot_layout(frag, save_directory=OUT, name=f"c_{N}x{N}", formats="png")
pl_wall = time.perf_counter() - t0
ru1 = resource.getrusage(resource.RUSAGE_SELF)
pl_cpu, proc_cpu = cpu(ru1) - cpu(ru0), cpu(ru1)
print(f"plot_layout {N}x{N} png: wall {pl_wall:.1f} s, CPU {pl_cpu:.1f} s (call alone); "
      f"process CPU {proc_cpu:.1f} s, peak RSS {ru1.ru_maxrss / 1024 ** 2:.2f} GB")
print(f"ratio: wall {pl_wall / ts_wall:.0f}x, CPU {pl_cpu / ts_cpu:.0f}x "
      f"(whole process {proc_cpu / ts_cpu:.0f}x)")
