#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every C++, CMake, shell and Python source of the project starts with its licence line (after a
# shebang, if any): "// SPDX-License-Identifier: Apache-2.0" or "# SPDX-License-Identifier:
# Apache-2.0". Data (data/, tests/data/: corpora, kernels written as test inputs, fuzz
# reproducers) is not source. A new file without it fails here, naming it.
#   test_spdx.sh SOURCE_DIR
set -euo pipefail
cd "$1"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.cpp' '*.h' '*.py' '*.sh' '*.cmake' '*CMakeLists.txt' Makefile .ci/run)
else
  files=$(find . -path ./tests/data -prune -o -path ./data -prune -o -path './build*' -prune -o -path './.*' -prune -o \
    -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.py' -o -name '*.sh' -o -name '*.cmake' \
    -o -name CMakeLists.txt \) -print | sed 's|^\./||')
fi
bad=0
n=0
for f in $files; do
  case $f in tests/data/* | data/*) continue ;; esac
  [ -f "$f" ] || continue
  n=$((n + 1))
  case $f in *.cpp | *.h) want='// SPDX-License-Identifier: Apache-2.0' ;;
  *) want='# SPDX-License-Identifier: Apache-2.0' ;;
  esac
  first=$(head -1 "$f")
  [[ "$first" == '#!'* ]] && first=$(sed -n 2p "$f")
  if [ "$first" != "$want" ]; then
    echo "no licence line: $f (its first line should be: $want)"
    bad=1
  fi
done
[ $bad = 0 ] || exit 1
echo "all $n sources start with the SPDX-License-Identifier line"
