#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One device call: every kernel of data/kernels/ built for the H200 with nvcc -lineinfo against
# TileLang's headers (carried compressed: .deps/tl_headers.tar.xz, made by tools/kernel_headers.sh),
# launched once by a generated harness (tools/kernel_harness.py), disassembled with inline line
# information (nvdisasm -gi) and profiled by Nsight Compute: the SourceCounters section's per-SASS
# table and the kernel's shared-memory totals. Everything raw comes back in one tarball;
# tools/kernel_measured.py turns it into measured.json files (run here by the script too: on a GPU
# box of your own each KERNEL_DIR gets its measured.json, for `tilescope-cli kernel --measured` or
# the Kernel panel's Import measured).
# Usage (repo root): bash tools/h200_kernels.sh [KERNEL_DIR...]   (default data/kernels/*/)
# A KERNEL_DIR holds kernel.cu and meta.json: `tilescope-cli kernel K.py --emit-source DIR/kernel.cu
# --emit-meta DIR/meta.json` makes them for a kernel of your own. KERNEL_ARCH overrides the target
# (default: the GPU's compute capability, with the "a" features on 9.0 for wgmma and TMA).
set -u
OUT=${OUT:-/tmp/ts-out}
mkdir -p "$OUT"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH:$(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | tail -1)
W=/tmp/kx
rm -rf "$W" && mkdir -p "$W/inc"
tar -C "$W/inc" -xJf .deps/tl_headers.tar.xz || { echo "no .deps/tl_headers.tar.xz"; exit 1; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  which ncu nvcc nvdisasm; ncu --version | tail -1; nvcc --version | tail -1
} >"$W/env.txt" 2>&1
cat "$W/env.txt"
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(data/kernels/*/)
INC="-I$W/inc/src -I$W/inc/3rdparty/cutlass/include"
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '.')
ARCH=${KERNEL_ARCH:-sm_${cc:-90}}
[ "$ARCH" = sm_90 ] && ARCH=sm_90a
echo "arch: $ARCH"
# Build every kernel in parallel (cubin + harness).
build_one() {
  d=${1%/}; n=$(basename "$d"); o=$W/$n; mkdir -p "$o"
  cp "$d/kernel.cu" "$d/meta.json" "$o/"
  k=$(python3 -c "import json,sys; print(json.load(open('$d/meta.json'))['kernels'][0]['name'])")
  echo "$k" >"$o/name.txt"
  nvcc -cubin -O3 -lineinfo -arch=$ARCH -std=c++20 -w $INC "$o/kernel.cu" -o "$o/kernel.cubin" \
    >"$o/nvcc.log" 2>&1 || { echo "$n: nvcc failed: $(grep -m1 -E 'error' "$o/nvcc.log")"; return; }
  python3 tools/kernel_harness.py "$d/meta.json" "$k" >"$o/harness.cu" 2>"$o/harness.err" &&
    nvcc -O2 -o "$o/harness" "$o/harness.cu" -lcuda >>"$o/harness.err" 2>&1 ||
    { echo "$n: harness failed"; return; }
  nvdisasm -gi -c "$o/kernel.cubin" >"$o/kernel.sass" 2>"$o/nvdisasm.err"
  echo "$n: built"
}
export -f build_one
export W INC ARCH
t0=$(date +%s)
printf '%s\n' "${dirs[@]}" | xargs -P 16 -I{} bash -c 'build_one {}'
echo "build: $(( $(date +%s) - t0 )) s"
# The kernel-level counters this ncu knows (an unknown name makes ncu refuse the whole run).
ncu --query-metrics >"$W/query.txt" 2>&1
want="l1tex__data_pipe_lsu_wavefronts_mem_shared l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st l1tex__data_bank_conflicts_pipe_lsu_mem_shared
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st smsp__inst_executed_op_ldsm
smsp__inst_executed_op_ldgsts smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_ldgsts smsp__sass_inst_executed_op_shared
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm smsp__sass_inst_executed_op_stsm
smsp__inst_executed_op_stsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm"
list=""
for m in $want; do grep -q "^$m " "$W/query.txt" && list="$list,$m.sum"; done
list=${list#,}
echo "metrics: $list"
for d in "${dirs[@]}"; do
  n=$(basename "${d%/}"); o=$W/$n
  [ -x "$o/harness" ] || continue
  timeout 60 "$o/harness" "$o/kernel.cubin" >"$o/run.log" 2>&1
  rc=$?
  if [ $rc -eq 124 ]; then
    echo "$n: the kernel did not finish in 60 s: stopped, not profiled"; continue
  elif [ $rc -ne 0 ]; then
    echo "$n: the launch failed: $(grep -m1 TILESCOPE_HARNESS "$o/run.log")"; continue
  fi
  echo "$n: ran"
  timeout 240 ncu --clock-control none --section SourceCounters -f -o "$o/rep" "$o/harness" \
    "$o/kernel.cubin" >"$o/ncu.log" 2>&1
  rc=$?
  [ $rc -eq 124 ] && echo "$n: ncu did not finish in 240 s: stopped" || echo "$n: ncu rc=$rc"
  ncu -i "$o/rep.ncu-rep" --page source --csv --print-source sass >"$o/source.csv" 2>"$o/source.err" ||
    ncu -i "$o/rep.ncu-rep" --page source --csv >"$o/source.csv" 2>>"$o/source.err"
  [ -n "$list" ] && timeout 240 ncu --clock-control none --metrics "$list" --csv "$o/harness" \
    "$o/kernel.cubin" >"$o/metrics.csv" 2>"$o/metrics.err"
  # Keep the report only where no table came out of it (to read it again here).
  [ -s "$o/source.csv" ] && rm -f "$o/rep.ncu-rep"
done
rm -rf "$W/inc" "$W"/*/harness
# measured.json beside each kernel (and in the tarball).
python3 tools/kernel_measured.py "$W" || echo "kernel_measured.py failed: the raw files are in the tarball"
for d in "${dirs[@]}"; do
  n=$(basename "${d%/}")
  [ -f "$W/$n/source.csv" ] && python3 tools/kernel_measured.py "$W" --only "$n" --into "$(dirname "${d%/}")" >/dev/null
done
grep -E "^(lu|l1|sm)" "$W/query.txt" | grep -E "shared|ldsm|ldgsts|stsm" >"$W/query_shared.txt"
rm -f "$W/query.txt"
tar -C "$W" -czf "$OUT/kernels_raw.tar.gz" .
ls -la "$OUT"
