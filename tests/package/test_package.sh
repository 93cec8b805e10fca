#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the .deb and .tar.gz with CPack, unpacks each into a temporary root (never the system) and
# runs what it installed: tilescope-cli --version, a render, and the GUI's --screenshot of the
# default sample, which must come from the copy embedded in the binary. The installed programs see
# only the temporary root: PATH and LD_LIBRARY_PATH point into it, HOME and the working directory
# are temporary, and TILESCOPE_SAMPLES_DIR is unset.
#   test_package.sh BUILD_DIR VERSION
set -euo pipefail
build=$1
version=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack failed"; }
deb=$(ls "$tmp"/pkg/tilescope_"$version"_*.deb) || fail "no .deb made"
tgz=$(ls "$tmp"/pkg/tilescope-"$version"-*.tar.gz) || fail "no .tar.gz made"
echo "made $(basename "$deb") ($(stat -c %s "$deb") bytes), $(basename "$tgz") ($(stat -c %s "$tgz") bytes)"

# Depends: the Qt 6 runtime packages the binaries link, as dpkg-shlibdeps found them.
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for p in libqt6core6 libqt6network6 libqt6gui6 libqt6widgets6 libqt6svg6 libqt6charts6 libstdc++6; do
  [[ ",$depends" == *", $p "* || ",$depends" == *",$p "* ]] || fail "Depends lacks $p"
done

# Runs an installed program with nothing of the build or source tree in reach.
run_in() {
  local root=$1
  shift
  (cd "$tmp/cwd" && env -u TILESCOPE_SAMPLES_DIR -u TILESCOPE_SOCKET HOME="$tmp/home" \
    XDG_RUNTIME_DIR="$tmp/xdg" QT_QPA_PLATFORM=offscreen \
    PATH="$root/bin:/usr/bin:/bin" LD_LIBRARY_PATH="$root/lib" "$@")
}

check_root() {
  local root=$1 what=$2
  rm -rf "$tmp/home" "$tmp/cwd" "$tmp/xdg"
  mkdir -p "$tmp/home" "$tmp/cwd" "$tmp/xdg"
  chmod 700 "$tmp/xdg"
  for f in bin/tilescope bin/tilescope-cli bin/tilescope-probe \
    share/applications/org.tilescope.Tilescope.desktop \
    share/metainfo/org.tilescope.Tilescope.metainfo.xml \
    share/icons/hicolor/scalable/apps/org.tilescope.Tilescope.svg; do
    [ -f "$root/$f" ] || fail "$what: $f not installed"
  done
  for n in 16 22 24 32 48 64 128 256 512; do
    png=$root/share/icons/hicolor/${n}x${n}/apps/org.tilescope.Tilescope.png
    [ -f "$png" ] || fail "$what: ${n}x${n} icon not installed"
    # PNG header: width and height are the big-endian words at bytes 16 and 20.
    wh=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $3*256+$4 "x" $7*256+$8}')
    [ "$wh" = "${n}x${n}" ] || fail "$what: ${n}x${n} icon is $wh"
  done

  out=$(run_in "$root" tilescope-cli --version)
  [ "$out" = "tilescope-cli $version" ] || fail "$what: tilescope-cli --version said '$out'"
  echo "$what: $out"

  run_in "$root" tilescope-cli render \
    'T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, forward_index_fn=lambda i, j: j % 2)' \
    -o "$tmp/cwd/grid.svg" || fail "$what: render failed"
  grep -q '<svg' "$tmp/cwd/grid.svg" || fail "$what: render wrote no SVG"
  grep -q '>T31<' "$tmp/cwd/grid.svg" || fail "$what: the rendered 8x8 fragment has no thread T31"
  grep -q '>T32<' "$tmp/cwd/grid.svg" && fail "$what: the rendered 32-thread fragment shows T32"
  echo "$what: render wrote a grid with threads T0..T31"

  out=$(run_in "$root" tilescope --screenshot "$tmp/cwd/shot.png" --size 800x600 2>&1) ||
    fail "$what: GUI screenshot failed: $out"
  echo "$out" | grep -q "(project :/tilescope/samples/default.tilescope.json)" ||
    fail "$what: the GUI did not open the embedded default sample: $out"
  wh=$(od -An -tu1 -j16 -N8 "$tmp/cwd/shot.png" | awk '{print $3*256+$4 "x" $7*256+$8}')
  [ "$wh" = "800x600" ] || fail "$what: screenshot is $wh, not 800x600"
  echo "$what: GUI screenshot of the embedded default sample, $wh"

  out=$(run_in "$root" tilescope --screenshot "$tmp/cwd/shot2.png" --size 800x600 \
    :/tilescope/samples/swizzles.tilescope.json 2>&1) || fail "$what: GUI on a bundled sample: $out"
  echo "$out" | grep -q "(project :/tilescope/samples/swizzles.tilescope.json)" ||
    fail "$what: the GUI did not open the bundled swizzles sample: $out"
}

mkdir -p "$tmp/deb" "$tmp/tgz"
dpkg-deb -x "$deb" "$tmp/deb"
check_root "$tmp/deb/usr" ".deb"
tar -xzf "$tgz" -C "$tmp/tgz"
check_root "$(ls -d "$tmp"/tgz/tilescope-"$version"-*)" ".tar.gz"
echo "PASS"
