#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Packs the TileLang and CUTLASS headers that the kernels of data/kernels*/ (or the KERNEL_DIRs given)
# include (their nvcc -M
# closure, from the tilelang wheel in .venv) into .deps/tl_headers.tar.xz: about 120 KB, which
# the device tool carries (the whole CUTLASS include tree would not fit its 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
SP=$(realpath .venv/lib/python3*/site-packages/tilelang)
mkdir -p .deps
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(data/kernels/*/ data/kernels_heldout/*/ data/kernels_bench/*/)
for d in "${dirs[@]}"; do
  nvcc -M -arch=sm_90a -std=c++20 -I"$SP/src" -I"$SP/3rdparty/cutlass/include" "$d/kernel.cu"
done | tr ' \\' '\n\n' | grep -E "tilelang/(src|3rdparty)" | xargs realpath | sed "s|^$SP/||" |
  sort -u >/tmp/tl_headers.txt
tar -C "$SP" -cJf .deps/tl_headers.tar.xz -T /tmp/tl_headers.txt
echo "$(wc -l </tmp/tl_headers.txt) headers -> .deps/tl_headers.tar.xz ($(stat -c %s .deps/tl_headers.tar.xz) bytes)"
