#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `tilescope A B C` (what the desktop entry's Exec=tilescope %F runs for several files) opens every
# file: A in this window, B and C each in a new window (`tilescope --new-window -- FILE`, a process
# of its own). Then, with a window running, `tilescope D E` hands D to it and opens E in a new
# window. Checked through the single-instance socket's status request (which file the window
# shows) and the new windows' processes (alive, their arguments). --screenshot with two projects is
# refused, and --version/--help need no display.
#   test_gui_files.sh TILESCOPE SOURCE_DIR
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  # SIGTERM is a clean quit (app/gui/termination.h): a window still writes its settings under
  # $tmp/home after the signal, so the directory goes only once every window has ended.
  for p in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  [ -f "$tmp/out1" ] && sed 's/^/  first: /' "$tmp/out1" >&2
  exit 1
}
mkdir -p "$tmp/home" "$tmp/xdg" "$tmp/files"
chmod 700 "$tmp/xdg"
export HOME=$tmp/home XDG_RUNTIME_DIR=$tmp/xdg XDG_CONFIG_HOME=$tmp/home/.config \
  XDG_DATA_HOME=$tmp/home/.local/share QT_QPA_PLATFORM=offscreen TILESCOPE_SOCKET=$tmp/sock
unset TILESCOPE_SAMPLES_DIR
for n in a b c d e; do cp "$src/samples/transpose.tilescope.json" "$tmp/files/$n.tilescope.json"; done
f=$tmp/files

status() {
  python3 - "$TILESCOPE_SOCKET" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(sys.argv[1])
s.sendall(b'{"status": true}\n')
buf = b""
while not buf.endswith(b"\n"):
    chunk = s.recv(65536)
    if not chunk:
        break
    buf += chunk
print(json.loads(buf)["file"])
PY
}
# Waits for FILE to have N lines matching PATTERN.
wait_lines() {
  for _ in $(seq 300); do
    [ "$(grep -c "$2" "$1" 2>/dev/null || true)" -ge "$3" ] && return 0
    sleep 0.1
  done
  return 1
}
# The new windows a run announced: "tilescope: opening FILE in a new window (process PID)".
check_new_windows() {
  local out=$1
  shift
  for want in "$@"; do
    line=$(grep -F "tilescope: opening $want in a new window (process " "$out") ||
      fail "no new window for $want: $(cat "$out")"
    pid=$(echo "$line" | sed 's/.*(process \([0-9]*\))$/\1/')
    pids+=("$pid")
    sleep 1
    [ -r "/proc/$pid/cmdline" ] || fail "the window for $want (process $pid) is not running"
    args=$(tr '\0' ' ' <"/proc/$pid/cmdline")
    [[ "$args" == *"--new-window -- $want "* ]] || fail "process $pid runs: $args"
  done
}

# 1. Three files, no window running.
"$bin" "$f/a.tilescope.json" "$f/b.tilescope.json" "$f/c.tilescope.json" >"$tmp/out1" 2>&1 &
pids+=($!)
wait_lines "$tmp/out1" "in a new window" 2 || fail "the further files were not opened"
for _ in $(seq 300); do [ -S "$TILESCOPE_SOCKET" ] && break; sleep 0.1; done
[ "$(status)" = "$f/a.tilescope.json" ] || fail "the first window shows $(status)"
check_new_windows "$tmp/out1" "$f/b.tilescope.json" "$f/c.tilescope.json"
echo "tilescope a b c: a in the window, b and c in new windows"

# 2. Two files handed over while that window runs.
"$bin" "$f/d.tilescope.json" "$f/e.tilescope.json" >"$tmp/out2" 2>&1 || fail "hand-over: $(cat "$tmp/out2")"
grep -q "handed to the running window" "$tmp/out2" || fail "not handed over: $(cat "$tmp/out2")"
[ "$(status)" = "$f/d.tilescope.json" ] || fail "the running window shows $(status), not d"
check_new_windows "$tmp/out2" "$f/e.tilescope.json"
echo "tilescope d e with a window running: d handed to it, e in a new window"
# Every window opened its file: a window that could not says "tilescope: <why>" on the stderr it
# shares with the first.
sleep 1
errors=$(cat "$tmp/out1" "$tmp/out2" | grep '^tilescope: ' | grep -v 'in a new window\|handed to the running' || true)
[ -z "$errors" ] || fail "a window could not open its file: $errors"

# 3. --screenshot draws one window.
if "$bin" --screenshot "$tmp/x.png" "$f/a.tilescope.json" "$f/b.tilescope.json" >"$tmp/out3" 2>&1; then
  fail "--screenshot with two projects succeeded"
fi
grep -q "takes one PROJECT" "$tmp/out3" || fail "--screenshot with two projects: $(cat "$tmp/out3")"

# 4. --version and --help with no display at all (DISPLAY names none; Qt's xcb would abort).
for a in --version -v --help -h --help-all; do
  # (The sanitizers' settings stay: under the ASan preset they carry LSan's suppressions.)
  env -i HOME="$tmp/home" PATH=/usr/bin:/bin DISPLAY=:97 ${ASAN_OPTIONS+"ASAN_OPTIONS=$ASAN_OPTIONS"} \
    ${LSAN_OPTIONS+"LSAN_OPTIONS=$LSAN_OPTIONS"} ${UBSAN_OPTIONS+"UBSAN_OPTIONS=$UBSAN_OPTIONS"} \
    "$bin" "$a" >"$tmp/o" 2>"$tmp/e" ||
    fail "tilescope $a exits $? with no display: $(cat "$tmp/e")"
  [ -s "$tmp/o" ] && [ ! -s "$tmp/e" ] || fail "tilescope $a: stdout '$(cat "$tmp/o")', stderr '$(cat "$tmp/e")'"
done
echo "tilescope --version/--help: exit 0 with no display"
echo PASS
