#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The long fuzzing campaign (`make fuzz-long`): EXECS executions per libFuzzer target on every
# core, with the dictionaries (fuzz/dict) and persistent corpora, then every corpus input replayed
# through the ASan build and the coverage report per target (tools/fuzz_coverage.sh).
#   tools/fuzz_long.sh [EXECS=10000000]       (make fuzz-long EXECS=N)
# Environment:
#   JOBS=N          fuzzing processes per target (libFuzzer -fork=N; default: nproc)
#   FUZZ_TARGETS    the targets, in order (default: all six)
#   FUZZ_BUDGET=S   wall seconds for the whole campaign: each target gets what is left divided by
#                   the targets still to run, so one that reaches EXECS early leaves its time to
#                   the next (default 0: no limit, every target runs to EXECS)
#   FUZZ_DIR=DIR    corpora, findings and logs (default build-fuzz/long; kept between campaigns)
#   FUZZ_BIN=DIR    use the fuzz_<target> binaries in DIR instead of building (a machine without
#                   clang: build them elsewhere with preset fuzz-campaign, which links libstdc++
#                   statically)
#   FUZZ_REPLAY=0   skip the ASan replay; FUZZ_COVERAGE=0 skip the coverage report
# The campaign build (preset fuzz-campaign) is libFuzzer + UBSan at -O2 without ASan: several
# times the executions per second. ASan then runs over every input the campaign kept (each one
# covers something new, so memory errors on the paths found are still caught), with leak checks.
# Crash/timeout/OOM reproducers: FUZZ_DIR/findings/<target>/. Exit status 1 when anything was
# found, by the campaign or by the replay.
set -uo pipefail
cd "$(dirname "$0")/.."
EXECS=${1:-10000000}
JOBS=${JOBS:-$(nproc)}
TARGETS=${FUZZ_TARGETS:-"expr banks notation mapping document dump"}
DIR=${FUZZ_DIR:-build-fuzz/long}
BUDGET=${FUZZ_BUDGET:-0}

# Longest input per target: long inputs mostly measure the size limits (tested on their own in
# tests/core and the malformed corpus) and cost executions; these hold the longest real seeds
# (golden specs and reprs, sample logs, projects of eight layouts) and let an expression reach
# the parser's height limit (1024) and nesting limit (256).
maxlen() {
    case $1 in
    expr | notation) echo 1024 ;; mapping) echo 2048 ;; dump) echo 4096 ;;
    document) echo 8192 ;; banks) echo 512 ;; *) echo 4096 ;;
    esac
}

if [ -z "${FUZZ_BIN:-}" ]; then
    [ -f build-fuzz-campaign/CMakeCache.txt ] || cmake --preset fuzz-campaign >/dev/null || exit 2
    cmake --build build-fuzz-campaign -j "$JOBS" --target $(printf 'fuzz_%s ' $TARGETS) >/dev/null ||
        exit 2
    FUZZ_BIN=build-fuzz-campaign/fuzz
fi
python3 tools/fuzz_seeds.py "$DIR/seeds" >/dev/null || exit 2

export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
start=$(date +%s)
set -- $TARGETS
left=$#
summary="$DIR/summary.txt"
mkdir -p "$DIR"
printf '%-10s %12s %8s %10s %8s %9s\n' target executions seconds exec/s corpus findings | tee "$summary"
for t in $TARGETS; do
    mkdir -p "$DIR/corpus/$t" "$DIR/findings/$t"
    log="$DIR/fuzz-$t.log"
    limit=()
    if [ "$BUDGET" -gt 0 ]; then
        secs=$(( (BUDGET - ($(date +%s) - start)) / left ))
        [ "$secs" -lt 10 ] && secs=10
        limit=(-max_total_time="$secs")
    fi
    t0=$(date +%s)
    # -fork: JOBS child processes fuzzing subsets of the corpus, merged back into corpus/<t>;
    # ignore_*: a finding is saved and the campaign goes on. A child stops at -timeout=25 s per
    # input or 3 GiB (the largest accepted layout stays well below).
    "$FUZZ_BIN/fuzz_$t" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -runs="$EXECS" "${limit[@]}" -dict="fuzz/dict/$t.dict" -max_len="$(maxlen "$t")" \
        -timeout=25 -rss_limit_mb=3072 -artifact_prefix="$DIR/findings/$t/" \
        "$DIR/corpus/$t" "$DIR/seeds/$t" >"$log" 2>&1
    secs=$(( $(date +%s) - t0 ))
    left=$((left - 1))
    # The fork parent's progress lines: "#RUNS: cov: ... exec/s: ... time: ..." (runs of the
    # children it has merged; the last line is the total).
    runs=$(grep -o '^#[0-9]*:' "$log" | tail -1 | tr -dc 0-9)
    corpus=$(find "$DIR/corpus/$t" -type f | wc -l)
    found=$(find "$DIR/findings/$t" -type f | wc -l)
    [ "$found" != 0 ] && status=1
    printf '%-10s %12s %8s %10s %8s %9s\n' "$t" "${runs:-?}" "$secs" \
        "$(( ${runs:-0} / (secs > 0 ? secs : 1) ))" "$corpus" "$found" | tee -a "$summary"
done

if [ "${FUZZ_REPLAY:-1}" != 0 ]; then
    # Every corpus input once through the ASan+UBSan+LSan build (preset fuzz).
    [ -f build-fuzz/CMakeCache.txt ] || cmake --preset fuzz >/dev/null || exit 2
    cmake --build build-fuzz -j "$JOBS" --target $(printf 'fuzz_%s ' $TARGETS) >/dev/null || exit 2
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
    for t in $TARGETS; do
        mkdir -p "$DIR/findings/$t"
        if build-fuzz/fuzz/fuzz_$t -runs=0 -timeout=25 -rss_limit_mb=3072 \
            -artifact_prefix="$DIR/findings/$t/asan-" "$DIR/corpus/$t" >"$DIR/replay-$t.log" 2>&1; then
            echo "asan replay $t: $(find "$DIR/corpus/$t" -type f | wc -l) inputs, clean" | tee -a "$summary"
        else
            echo "asan replay $t: FINDING, see $DIR/replay-$t.log" | tee -a "$summary"
            status=1
        fi
    done
fi
if [ "${FUZZ_COVERAGE:-1}" != 0 ]; then
    bash tools/fuzz_coverage.sh "$DIR/corpus" | tee -a "$summary"
fi
exit $status
