#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One device call: build tilescope-probe, run the builtin sweep (timing + ncu), copy results to $OUT.
# Usage on the device machine (repo root): bash tools/h200_sweep.sh
set -u
OUT=${OUT:-/tmp/ts-out}
mkdir -p "$OUT"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH:/opt/nvidia/nsight-compute/2025.3.1
t0=$(date +%s.%N)
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  which ncu nvcc; ncu --version | tail -1; nvcc --version | tail -1
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
# Build only the probe's own sources with g++ (others' targets in tscore may be half-written);
# TS_CMAKE=1 builds the CMake target tilescope-probe instead.
PROBE=build-probe/direct/tilescope-probe
if [ "${TS_CMAKE:-0}" = 1 ]; then
  PROBE=build-probe/app/probe/tilescope-probe
  { cmake -S . -B build-probe -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_GUI=OFF \
      -DTILESCOPE_TESTS=OFF -DTILESCOPE_BENCH=OFF &&
    cmake --build build-probe --target tilescope-probe -j 16; } >"$OUT/build.log" 2>&1 ||
    { tail -40 "$OUT/build.log"; exit 1; }
else
  mkdir -p build-probe/direct
  for f in core/banks/src/bank_model.cpp core/device/src/{kernelgen,subprocess,cuda_compile}.cpp core/support/src/errors.cpp app/probe/*.cpp; do
    g++ -std=c++20 -O2 $(printf -- "-Icore/%s/include " support lang layout notation banks trace device) -I.deps/json/include -Iapp/probe -c "$f" \
      -o "build-probe/direct/$(basename "$f" .cpp).o" &
  done >"$OUT/build.log" 2>&1
  wait
  g++ build-probe/direct/*.o -ldl -o $PROBE >>"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
fi
t1=$(date +%s.%N)
echo "build: $(python3 -c "print(round($t1 - $t0, 2))") s"
# Single request round trip (generate + compile + run), timed from outside too.
s0=$(date +%s.%N)
$PROBE --no-ncu --out "$OUT/single.json" tools/sweep_single.json >/dev/null; echo "single rc=$?"
s1=$(date +%s.%N)
echo "single request wall: $(python3 -c "print(round($s1 - $s0, 2))") s" | tee "$OUT/single_wall.txt"
$PROBE --sweep builtin --ncu --out "$OUT/sweep.json" >/dev/null; echo "sweep rc=$?"
python3 tools/sweep_table.py "$OUT/sweep.json" | tee "$OUT/table.md"
