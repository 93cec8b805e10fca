#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One device call: the headless path of a GPU box without the GUI. Builds tilescope-cli (no Qt)
# and tilescope-probe with g++, writes probe requests with `tilescope-cli probe-request` (one
# request and a sweep over a whole project file), runs them with `tilescope-probe --devices all`
# and copies requests, results and the environment to $OUT (data/h200/e2e/ holds a run).
# Usage on the device machine, in a folder holding core/, app/, tools/, data/, json/include
# (nlohmann) and cli11/include (CLI11, for tilescope-cli): bash tools/h200_e2e.sh
set -u
OUT=${OUT:-/tmp/ts-out}
mkdir -p "$OUT"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH:/opt/nvidia/nsight-compute/2025.3.1
JSON_INC=${JSON_INC:-json/include}
CLI11_INC=${CLI11_INC:-cli11/include}
PROJECT=${PROJECT:-data/h200/e2e/layouts.tilescope.json}
{
  nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm --format=csv
  which ncu nvcc; ncu --version | tail -1; nvcc --version | tail -1; nproc; date -u +%FT%TZ
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"
t0=$(date +%s.%N)
mkdir -p build-e2e/core build-e2e/probe build-e2e/cli
compile() { # src objdir
  g++ -std=c++20 -O2 $(printf -- "-Icore/%s/include " support lang layout notation banks trace device) -I"$JSON_INC" -I"$CLI11_INC" -Iapp/probe -Iapp/cli -c "$1" \
    -o "$2/$(basename "$1" .cpp).o"
}
export -f compile
export JSON_INC CLI11_INC
{ ls core/*/src/*.cpp | sed 's|$| build-e2e/core|'
  ls app/probe/*.cpp | sed 's|$| build-e2e/probe|'
  ls app/cli/*.cpp | sed 's|$| build-e2e/cli|'; } |
  xargs -P "$(nproc)" -n 2 bash -c 'compile "$0" "$1"' >"$OUT/build.log" 2>&1
g++ build-e2e/core/*.o build-e2e/probe/*.o -ldl -pthread -o build-e2e/tilescope-probe \
  >>"$OUT/build.log" 2>&1 &&
g++ build-e2e/cli/*.o build-e2e/core/*.o -ldl -pthread -o build-e2e/tilescope-cli \
  >>"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "build: $(python3 -c "print(round($(date +%s.%N) - $t0, 2))") s"
CLI=build-e2e/tilescope-cli PROBE=build-e2e/tilescope-probe
run() { echo "\$ $*" | tee -a "$OUT/commands.txt"; "$@"; echo "rc=$?" | tee -a "$OUT/commands.txt"; }
# One request, as the GUI's Run button would send it for the swizzled layout.
run $CLI probe-request "$PROJECT:full-bank 128B swizzle 16x64 fp16" --access ldmatrix:x4 \
  --dtype float16 -o "$OUT/request.json"
s0=$(date +%s.%N)
run $PROBE --devices all --out "$OUT/result.json" "$OUT/request.json" >/dev/null
echo "single request wall: $(python3 -c "print(round($(date +%s.%N) - $s0, 2))") s" |
  tee -a "$OUT/commands.txt"
# The whole project: every shared layout x two accesses (the fragment is skipped, and said so).
run $CLI probe-request --sweep "$PROJECT" --access ldmatrix:x4 --access stmatrix:x4 \
  --access 'lanes:lambda t: (t % 16, 8 * (t // 16))' --dtype float16 -o "$OUT/sweep_request.json"
s0=$(date +%s.%N)
run $PROBE --sweep "$OUT/sweep_request.json" --devices all --out "$OUT/sweep_result.json" >/dev/null
echo "sweep wall: $(python3 -c "print(round($(date +%s.%N) - $s0, 2))") s" | tee -a "$OUT/commands.txt"
python3 - "$OUT/sweep_result.json" <<'PY' | tee "$OUT/table.md"
import json, sys
r = json.load(open(sys.argv[1]))
print("devices:", [(d["index"], d.get("name"), d["patterns"], round(d["seconds_run"], 2))
                   for d in r.get("devices", [])])
print("| pattern | device | predicted wf/instr | measured (ncu, 1 warp/SM) | agree | round trip |")
print("|---|---|---|---|---|---|")
for p in r["patterns"]:
    n = p.get("ncu_1warp", {})
    print(f"| {p['name']} | {p.get('device_index', r.get('devices', [{}])[0].get('index'))} | "
          f"{n.get('predicted_wavefronts_per_instruction')} | "
          f"{n.get('measured_wavefronts_per_instruction')} | {n.get('agree')} | "
          f"{p.get('roundtrip', {}).get('pass')} |")
PY
