#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One device call: build tilescope-probe (g++, probe sources only), then run the random held-out
# sweeps of tools/random_sweep.py (tools/random_sweep.json: seed 11, where a rule may be fitted;
# tools/random_check.json: seed 12, held out) with timing and both ncu passes, and copy the
# results to $OUT. SWEEPS="..." picks the sweeps (names of tools/NAME.json).
# Usage on the device machine, in a folder holding core/, app/probe/, tools/ and json/ (nlohmann):
#   bash tools/h200_random.sh
set -u
OUT=${OUT:-/tmp/ts-out}
mkdir -p "$OUT"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH:/opt/nvidia/nsight-compute/2025.3.1
JSON_INC=${JSON_INC:-json/include}
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  which ncu nvcc; ncu --version | tail -1; nvcc --version | tail -1; nproc
} >"$OUT/random_env.txt" 2>&1
cat "$OUT/random_env.txt"
t0=$(date +%s.%N)
PROBE=build-probe/direct/tilescope-probe
mkdir -p build-probe/direct
for f in core/banks/src/bank_model.cpp core/device/src/{kernelgen,subprocess,cuda_compile}.cpp core/support/src/errors.cpp app/probe/*.cpp; do
  g++ -std=c++20 -O2 $(printf -- "-Icore/%s/include " support lang layout notation banks trace device) -I"$JSON_INC" -Iapp/probe -c "$f" \
    -o "build-probe/direct/$(basename "$f" .cpp).o" &
done >"$OUT/random_build.log" 2>&1
wait
g++ build-probe/direct/*.o -ldl -pthread -o $PROBE >>"$OUT/random_build.log" 2>&1 ||
  { tail -40 "$OUT/random_build.log"; exit 1; }
echo "build: $(python3 -c "print(round($(date +%s.%N) - $t0, 2))") s"
for s in ${SWEEPS:-random_sweep random_check}; do
  s0=$(date +%s.%N)
  timeout ${SWEEP_TIMEOUT:-250} $PROBE --sweep "tools/$s.json" --ncu --out "$OUT/$s.json" >/dev/null
  echo "$s rc=$? wall $(python3 -c "print(round($(date +%s.%N) - $s0, 2))") s"
done
