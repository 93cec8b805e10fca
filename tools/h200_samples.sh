#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One device call: build tilescope-probe, run it over the sample layouts' access
# patterns (tools/samples_sweep.json, generated on the CPU by tools/samples_sweep.cpp from
# samples/*.tilescope.json through core's prepareRun) with ncu, then time GUI-style round trips
# (one request: generate + compile + run + report) and copy everything to $OUT.
# Usage on the device machine (repo root, carry .deps): bash tools/h200_samples.sh
set -u
OUT=${OUT:-/tmp/ts-out}
mkdir -p "$OUT"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH:/opt/nvidia/nsight-compute/2025.3.1
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  which ncu nvcc; ncu --version | tail -1; nvcc --version | tail -1
} >"$OUT/samples_env.txt" 2>&1
t0=$(date +%s.%N)
PROBE=build-probe/direct/tilescope-probe
mkdir -p build-probe/direct
for f in core/banks/src/bank_model.cpp core/device/src/{kernelgen,subprocess,cuda_compile}.cpp core/support/src/errors.cpp app/probe/*.cpp; do
  g++ -std=c++20 -O2 $(printf -- "-Icore/%s/include " support lang layout notation banks trace device) -I.deps/json/include -Iapp/probe -c "$f" \
    -o "build-probe/direct/$(basename "$f" .cpp).o" &
done >"$OUT/samples_build.log" 2>&1
wait
g++ build-probe/direct/*.o -ldl -o $PROBE >>"$OUT/samples_build.log" 2>&1 || { tail -40 "$OUT/samples_build.log"; exit 1; }
echo "build: $(python3 -c "print(round($(date +%s.%N) - $t0, 2))") s"
# Round trips as the GUI's Run button does them: the request on stdin, ncu off, 5 times.
python3 - "$PROBE" "$OUT/samples_roundtrip.json" <<'PY'
import json, subprocess, sys, time
probe, out = sys.argv[1], sys.argv[2]
sweep = json.load(open("tools/samples_sweep.json"))
res = []
for idx in (0, 8):  # gemm C fragment on fp32 row-major; ldmatrix.x4 on the full-bank swizzle
    req = dict(sweep["patterns"][idx]); req.update(iterations=4096, repetitions=20, warmup=3, ncu=False)
    for k in range(5):
        t = time.time()
        p = subprocess.run([probe], input=json.dumps(req).encode(), capture_output=True, timeout=300)
        wall = time.time() - t
        r = json.loads(p.stdout or b"{}")
        res.append({"name": req["name"], "rep": k, "exit": p.returncode, "wall_s": wall,
                    "seconds": r.get("seconds"), "seconds_total": r.get("seconds_total"),
                    "roundtrip": r.get("roundtrip", {}).get("pass")})
        print(f"{req['name'][:60]:60s} rep {k} exit {p.returncode} wall {wall:.3f} s {r.get('seconds')}")
json.dump(res, open(out, "w"), indent=1)
PY
s0=$(date +%s.%N)
$PROBE --sweep tools/samples_sweep.json --ncu --out "$OUT/samples_sweep.json" >/dev/null; echo "sweep rc=$?"
echo "sweep wall: $(python3 -c "print(round($(date +%s.%N) - $s0, 2))") s"
python3 tools/sweep_table.py "$OUT/samples_sweep.json" | tee "$OUT/samples_table.md"
