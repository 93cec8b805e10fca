#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every libFuzzer target (fuzz/fuzz_*.cpp) for SECONDS each and prints a summary:
# executions, time and findings per target. Exit status 1 when anything was found.
#   tools/fuzz.sh [SECONDS=60]        (make fuzz SECONDS_PER_TARGET=N)
# FUZZ_RUNS=N FUZZ_SEED=S: a reproducible smoke instead (N inputs per target from seed S, still
# capped at SECONDS): CI uses it so that a red run is a regression anyone can replay, not luck.
# Builds build-fuzz (preset "fuzz": clang, -fsanitize=fuzzer-no-link,address,undefined).
# Working corpora persist in build-fuzz/corpus/<target>; crash/leak/timeout reproducers go to
# build-fuzz/findings/<target>/ (add them to tests/data/fuzz-regressions/<target>/ once fixed).
set -uo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-60}
JOBS=${JOBS:-$(nproc)}
B=build-fuzz
TARGETS=${FUZZ_TARGETS:-"expr mapping dump document banks notation kernel"}

if [ ! -f $B/CMakeCache.txt ]; then cmake --preset fuzz >/dev/null || exit 2; fi
cmake --build $B -j "$JOBS" >/dev/null || { cmake --build $B -j 1; exit 2; }
python3 tools/fuzz_seeds.py $B/seeds >/dev/null || exit 2

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
printf '%-10s %12s %8s %10s %9s  %s\n' target executions seconds exec/s findings log
for t in $TARGETS; do
    mkdir -p $B/corpus/$t $B/findings/$t
    log=$B/fuzz-$t.log
    # -timeout: one input taking > 25 s is a hang; -rss_limit_mb: bounded memory (the largest
    # accepted layout, 2^24 cells, stays well below); inputs up to 64 KiB (logs are chunked).
    repro=()
    [ -n "${FUZZ_RUNS:-}" ] && repro=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
    # The target's dictionary (fuzz/dict, tools/fuzz_dicts.py): keywords, builtins, log markers,
    # JSON keys and CuTe/Triton tokens that random byte mutations rarely spell.
    dict=()
    [ -f fuzz/dict/$t.dict ] && dict=(-dict=fuzz/dict/$t.dict)
    $B/fuzz/fuzz_$t $B/corpus/$t $B/seeds/$t -max_total_time="$SECS" "${repro[@]}" "${dict[@]}" -timeout=25 \
        -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix=$B/findings/$t/ >"$log" 2>&1
    rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' | tail -1)
    found=$(find $B/findings/$t -type f | wc -l)
    [ "$rc" -ne 0 ] && [ "$found" -eq 0 ] && found="rc=$rc"
    [ "$found" != 0 ] && status=1
    secs=${secs:-$SECS}
    printf '%-10s %12s %8s %10s %9s  %s\n' "$t" "${runs:-?}" "$secs" \
        "$(( ${runs:-0} / (secs > 0 ? secs : 1) ))" "$found" "$log"
done
exit $status
