#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Source-based coverage of the core per fuzz target: each target's corpus run once (-runs=0)
# through a build with clang's -fprofile-instr-generate -fcoverage-mapping (preset
# fuzz-coverage), merged with llvm-profdata, reported by llvm-cov over core/ sources only.
#   tools/fuzz_coverage.sh [CORPUS_DIR=build-fuzz/long/corpus]
# Prints one line per target (line, region and function coverage of the core code linked into
# that target: the core is static libraries, so a target links the objects it reaches) and a line
# for all targets together (the union of their profiles over the union of their code);
# llvm-cov's per-file reports go to build-fuzz-coverage/report/<target>.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
CORPUS=${1:-build-fuzz/long/corpus}
TARGETS=${FUZZ_TARGETS:-"expr mapping dump document banks notation"}
B=build-fuzz-coverage
JOBS=${JOBS:-$(nproc)}
# Debian names them llvm-profdata-14; take the unversioned ones where present.
PROFDATA=$(command -v llvm-profdata || ls /usr/bin/llvm-profdata-* 2>/dev/null | tail -1)
COV=$(command -v llvm-cov || ls /usr/bin/llvm-cov-* 2>/dev/null | tail -1)

# Everything but core/: the fuzz targets themselves, system and fetched headers.
NOT_CORE='^/usr/|/fuzz/[^/]*$|/\.deps/'

[ -f $B/CMakeCache.txt ] || cmake --preset fuzz-coverage >/dev/null || exit 2
cmake --build $B -j "$JOBS" --target $(printf 'fuzz_%s ' $TARGETS) >/dev/null || exit 2
mkdir -p $B/profiles $B/report
rm -f $B/profiles/*
pct() { # the TOTAL line's percentages: regions, functions, lines
    awk '/^TOTAL/ {print $4, $7, $10}' "$1"
}
printf '%-10s %8s %8s %10s %9s\n' target inputs lines regions functions
objs=()
for t in $TARGETS; do
    [ -d "$CORPUS/$t" ] || continue
    # %m: one raw profile per binary, merged across the processes of a run.
    LLVM_PROFILE_FILE="$B/profiles/$t-%m.profraw" $B/fuzz/fuzz_$t -runs=0 -timeout=25 \
        -rss_limit_mb=3072 "$CORPUS/$t" >$B/report/run-$t.log 2>&1
    "$PROFDATA" merge -sparse $B/profiles/$t-*.profraw -o $B/profiles/$t.profdata || exit 2
    "$COV" report $B/fuzz/fuzz_$t -instr-profile=$B/profiles/$t.profdata \
        -ignore-filename-regex="$NOT_CORE" >$B/report/$t.txt 2>/dev/null || exit 2
    read -r regions functions lines < <(pct $B/report/$t.txt)
    printf '%-10s %8s %8s %10s %9s\n' "$t" "$(find "$CORPUS/$t" -type f | wc -l)" \
        "$lines" "$regions" "$functions"
    objs+=(-object "$B/fuzz/fuzz_$t")
done
# All targets together: the union of their profiles over the same core sources.
"$PROFDATA" merge -sparse $B/profiles/*.profdata -o $B/all.profdata || exit 2
"$COV" report "${objs[@]:1}" -instr-profile=$B/all.profdata -ignore-filename-regex="$NOT_CORE" \
    >$B/report/all.txt 2>/dev/null &&
    read -r regions functions lines < <(pct $B/report/all.txt) &&
    printf '%-10s %8s %8s %10s %9s\n' all - "$lines" "$regions" "$functions"
