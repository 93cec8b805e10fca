#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerate the real-kernel corpus under data/kernels/ (or, with --heldout, the held-out set under
# data/kernels_heldout/): for every <dir>/<name>/kernel.py, lower it with
# resources/kernel/lower_kernel.py (the real TileLang, CPU only, no GPU needed) and write, beside it,
#   kernel.cu   the device CUDA source TileLang generated (kernel_source)
#   meta.json   the script's JSON without kernel_source and log (launch configuration, parameters)
#   lower.log   everything TileLang printed while lowering (layout-visualization output included)
#
#   tools/gen_kernels.sh [NAME...]        (default: every directory of data/kernels/)
#   tools/gen_kernels.sh --heldout [NAME...]   (the same for data/kernels_heldout/)
#   tools/gen_kernels.sh --dir DIR [NAME...]   (the same for any directory of <name>/kernel.py)
#   PYTHON=/path/to/python tools/gen_kernels.sh   (default: .venv/bin/python, with tilelang==0.1.15)
#
# The architecture of each kernel is in ARCH below (default sm_80). Lowerings run one at a time.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
LOWER="$ROOT/resources/kernel/lower_kernel.py"
DIR="$ROOT/data/kernels"

while [ "$#" -gt 0 ]; do
  case "$1" in
    --heldout) DIR="$ROOT/data/kernels_heldout"; shift ;;
    --dir)
      [ "$#" -ge 2 ] || { echo "gen_kernels: --dir needs a directory" >&2; exit 1; }
      DIR="$(cd "$2" && pwd)"; shift 2 ;;
    --) shift; break ;;
    -*) echo "gen_kernels: unknown option $1" >&2; exit 1 ;;
    *) break ;;
  esac
done

# name -> arch (anything not listed: sm_80); names are looked up in whichever directory is lowered
# (the held-out kernels of data/kernels_heldout/ are all sm_80)
declare -A ARCH=(
  [flash_attn_fwd_sm90]=sm_90
  [gemm_fp16_sm90]=sm_90
  [gemm_fp16_sm90_smem_epilogue]=sm_90
  [gemm_fp8_e4m3]=sm_89
)

if [ ! -x "$PYTHON" ]; then
  echo "gen_kernels: no Python at $PYTHON (make it with: python3 -m venv .venv && .venv/bin/pip install tilelang==0.1.15)" >&2
  exit 1
fi

if [ "$#" -gt 0 ]; then
  names=("$@")
else
  names=()
  for d in "$DIR"/*/; do
    [ -f "$d/kernel.py" ] && names+=("$(basename "$d")")
  done
fi

status=0
for name in "${names[@]}"; do
  src="$DIR/$name/kernel.py"
  if [ ! -f "$src" ]; then
    echo "gen_kernels: $src not found" >&2
    status=1
    continue
  fi
  arch="${ARCH[$name]:-sm_80}"
  tmp="$(mktemp)"
  set +e
  "$PYTHON" "$LOWER" "$src" --arch "$arch" >"$tmp" 2>"$tmp.err"
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    echo "gen_kernels: $name ($arch) failed (exit $rc): $(grep -h '^TILESCOPE_KERNEL_ERROR' "$tmp" || true)" >&2
    tail -n 20 "$tmp.err" >&2
    rm -f "$tmp" "$tmp.err"
    status=1
    continue
  fi
  "$PYTHON" - "$tmp" "$DIR/$name" <<'EOF'
import json
import sys

path, out = sys.argv[1], sys.argv[2]
tag = "TILESCOPE_KERNEL_JSON "
lines = [ln for ln in open(path, encoding="utf-8").read().splitlines() if ln.startswith(tag)]
if len(lines) != 1:
    sys.exit("expected one %sline, got %d" % (tag.strip(), len(lines)))
data = json.loads(lines[0][len(tag):])
with open(out + "/kernel.cu", "w", encoding="utf-8", newline="\n") as f:
    f.write(data.pop("kernel_source"))
with open(out + "/lower.log", "w", encoding="utf-8", newline="\n") as f:
    f.write(data.pop("log"))
with open(out + "/meta.json", "w", encoding="utf-8", newline="\n") as f:
    json.dump(data, f, indent=2)
    f.write("\n")
k = data["kernels"]
print("%-28s %-6s %s" % (data["source"] and out.rsplit("/", 1)[-1], data["arch"],
      "; ".join("%s grid %s block %s smem %d+%d%s" % (x["name"], x["grid"], x["block"],
                x["dynamic_smem_bytes"] or 0, x["static_smem_bytes"],
                (" CHECKS: " + " | ".join(x["checks"])) if x["checks"] else "") for x in k)))
EOF
  rm -f "$tmp" "$tmp.err"
done
exit "$status"
