#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the .deb, its -dbgsym .ddeb and the .tar.gz with CPack, unpacks each into a temporary root
# (never the system) and checks them as Debian checks its own packages (docs/packaging.md):
#   - control: a real maintainer address, description lines within 80 columns, no maintainer
#     scripts, Depends from dpkg-shlibdeps;
#   - the files users reach for: copyright (machine-readable, naming the compiled-in licences),
#     changelog, man pages for every program (tilescope-cli's naming every command and option its
#     --help has, the hand-written ones every option of theirs), the MIME type and a desktop entry
#     that claims it and not all of JSON (checked in a MIME and desktop database built from them),
#     the samples and logs, docs/ with every picture and page the README links, the Python bridge;
#   - the binaries: PIE, BIND_NOW, stack protector, fortified calls, no RPATH/RUNPATH, stripped with
#     their debug information in the .ddeb under their build ids, no .comment, and no path of the
#     source or build tree in them (as UTF-8 or UTF-16);
#   - what the installed programs do with nothing of the build or source tree in reach: every
#     binary answers --version and --help with no display, the CLI renders and reads the installed
#     samples and logs, the GUI opens the installed default sample, the bridge imports from the
#     installed tree;
#   - lintian: no error and no warning (LINTIAN=path; TILESCOPE_REQUIRE_LINTIAN=1 fails when it is
#     not installed instead of saying so and going on). TILESCOPE_APT_SIMULATE=1 also asks apt to
#     resolve the package's Depends against the archive (a simulation: nothing is installed).
#   test_package.sh BUILD_DIR [VERSION]
# No pipefail: `producer | grep -q` must be the grep's answer, not the producer's SIGPIPE.
set -eu
build=$(cd "$1" && pwd)
version=${2:-$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")}
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}

cpack --config "$build/CPackConfig.cmake" -G "DEB;TGZ" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack failed"; }
deb=$(ls "$tmp"/pkg/tilescope_"$version"_*.deb) || fail "no .deb made"
ddeb=$(ls "$tmp"/pkg/tilescope-dbgsym_"$version"_*.ddeb) || fail "no -dbgsym .ddeb made"
tgz=$(ls "$tmp"/pkg/tilescope-"$version"-*.tar.gz) || fail "no .tar.gz made"
for f in "$deb" "$ddeb" "$tgz"; do echo "made $(basename "$f") ($(stat -c %s "$f") bytes)"; done

# ------------------------------------------------------------------------------------ control
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for p in libqt6core6 libqt6network6 libqt6gui6 libqt6widgets6 libqt6svg6 libqt6charts6 libstdc++6; do
  [[ ",$depends" == *", $p "* || ",$depends" == *",$p "* || ",$depends" == *", $p" ]] ||
    fail "Depends lacks $p"
done
maintainer=$(dpkg-deb -f "$deb" Maintainer)
[[ "$maintainer" =~ ^[^\<]+\ \<[^@\>]+@[a-z0-9.-]+\.[a-z]+\>$ ]] || fail "Maintainer '$maintainer'"
[[ "$maintainer" == *@localhost* ]] && fail "Maintainer is at localhost"
dpkg-deb -f "$deb" Description | awk -v max=80 'length($0) > max { bad = 1; print "too long: " $0 }
  END { exit bad }' || fail "description lines over 80 columns"
scripts=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t | sed 's|^\./||' | grep -vxE 'control|md5sums|' || true)
[ -z "$scripts" ] || fail "maintainer scripts in the package: $scripts"
echo "control: Maintainer $maintainer; description within 80 columns; no maintainer scripts"

mkdir -p "$tmp/deb" "$tmp/dbg" "$tmp/tgz"
dpkg-deb -x "$deb" "$tmp/deb"
dpkg-deb -x "$ddeb" "$tmp/dbg"
tar -xzf "$tgz" -C "$tmp/tgz"
root=$tmp/deb/usr
doc=$root/share/doc/tilescope

# ------------------------------------------------------------------- copyright and changelog
cr=$doc/copyright
[ -f "$cr" ] || fail "no /usr/share/doc/tilescope/copyright"
head -1 "$cr" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
  fail "copyright is not machine-readable (DEP-5)"
for l in Apache-2.0 Expat BSD-3-clause; do
  grep -qx "License: $l" "$cr" || fail "copyright has no '$l' licence paragraph"
done
grep -q '^Files: \*$' "$cr" || fail "copyright has no 'Files: *' paragraph"
grep -q 'nlohmann' "$cr" && grep -q 'CLI11' "$cr" || fail "copyright does not name nlohmann/json and CLI11"
grep -q '@TILESCOPE' "$cr" && fail "copyright has an unfilled @TILESCOPE..@"
zcat "$doc/changelog.gz" >"$tmp/changelog" || fail "no changelog.gz"
head -1 "$tmp/changelog" | grep -q "^tilescope ($version) " ||
  fail "the changelog's newest entry is not $version: $(head -1 "$tmp/changelog")"
grep -q "^ -- $maintainer  " "$tmp/changelog" || fail "the changelog's entry is not signed by the Maintainer"
echo "copyright: DEP-5, Apache-2.0 with Expat (nlohmann/json) and BSD-3-clause (CLI11); changelog: $version"

# Runs an installed program with nothing of the build or source tree in reach.
run_in() {
  local r=$1
  shift
  (cd "$tmp/cwd" && env -u TILESCOPE_SAMPLES_DIR -u TILESCOPE_SOCKET HOME="$tmp/home" \
    XDG_RUNTIME_DIR="$tmp/xdg" QT_QPA_PLATFORM=offscreen \
    PATH="$r/bin:/usr/bin:/bin" LD_LIBRARY_PATH="$r/lib" "$@")
}
# With no display at all and no XDG_RUNTIME_DIR (ssh, a container, a script). DISPLAY names a
# display that does not exist: Qt's default platform (xcb) would abort on it.
run_bare() {
  local r=$1
  shift
  (cd "$tmp/cwd" && env -i HOME="$tmp/home" PATH="$r/bin:/usr/bin:/bin" DISPLAY=:97 "$@")
}
fresh_dirs() {
  rm -rf "$tmp/home" "$tmp/cwd" "$tmp/xdg"
  mkdir -p "$tmp/home" "$tmp/cwd" "$tmp/xdg"
  chmod 700 "$tmp/xdg"
}
fresh_dirs

# Groff's text of a man page (ASCII: '\-' is '-'), one long line per paragraph.
man_text() { zcat "$1" | groff -man -Tascii -rLL=400n -P-c -P-b -P-o -P-u 2>/dev/null; }
# Every --option a --help text names.
help_options() { grep -oE '(^|[ ,[|])--[a-z][a-z0-9-]*' | sed 's/^.*--/--/' | sort -u; }

# ------------------------------------------------------------------------------- man pages
man1=$root/share/man/man1
for p in tilescope tilescope-cli tilescope-probe; do
  [ -f "$man1/$p.1.gz" ] || fail "no man page $p.1.gz"
  gzip -t "$man1/$p.1.gz" || fail "$p.1.gz is not gzip"
  warn=$(zcat "$man1/$p.1.gz" | groff -man -ww -z 2>&1) || true
  [ -z "$warn" ] || fail "groff warns on $p.1: $warn"
  zcat "$man1/$p.1.gz" | grep -q '@[A-Z_]*@' && fail "$p.1 has an unfilled @VAR@"
  man_text "$man1/$p.1.gz" | grep -q "^NAME" || fail "$p.1 renders no NAME section"
done
# tilescope-cli(1): every command of the installed CLI's --help, and every option of each.
cli_man=$(man_text "$man1/tilescope-cli.1.gz")
commands=$(run_in "$root" tilescope-cli --help | sed -n 's/^  tilescope-cli \([a-z][a-z0-9-]*\).*/\1/p')
[ "$(echo "$commands" | wc -l)" -ge 9 ] || fail "tilescope-cli --help lists only: $commands"
for c in $commands; do
  # A subsection heading (.SS, indented by three columns) that starts with the command.
  grep -qE "^   $c( |$)" <<<"$cli_man" || fail "tilescope-cli.1 has no section for '$c'"
  for o in $(run_in "$root" tilescope-cli "$c" --help | help_options); do
    [ "$o" = --help ] && continue
    grep -qE -- "(^|[^a-z-])$o([^a-z0-9-]|$)" <<<"$cli_man" ||
      fail "tilescope-cli.1 does not document $c $o"
  done
done
echo "tilescope-cli.1: all $(echo "$commands" | wc -w) commands ($(echo $commands)) with every option"
for p in tilescope tilescope-probe; do
  text=$(man_text "$man1/$p.1.gz")
  opts=$(run_bare "$root" "$p" --help | help_options)
  [ -n "$opts" ] || fail "$p --help names no option"
  for o in $opts; do
    grep -qE -- "(^|[^a-z-])$o([^a-z0-9-]|$)" <<<"$text" ||
      fail "$p.1 does not document $o (from $p --help)"
  done
  echo "$p.1: documents all $(echo "$opts" | wc -w) options of $p --help"
done

# ---------------------------------------------------------------- MIME type and desktop entry
mimexml=$root/share/mime/packages/org.tilescope.Tilescope.xml
desktop=$root/share/applications/org.tilescope.Tilescope.desktop
[ -f "$mimexml" ] || fail "no MIME type (share/mime/packages/org.tilescope.Tilescope.xml)"
grep -qx 'MimeType=application/x-tilescope+json;' "$desktop" || fail "desktop entry: $(grep MimeType "$desktop")"
grep -qx 'Exec=tilescope %F' "$desktop" || fail "desktop entry: $(grep ^Exec "$desktop")"
if command -v update-mime-database >/dev/null && [ -f /usr/share/mime/packages/freedesktop.org.xml ]; then
  # A MIME database of the freedesktop.org types and this package's, as the trigger builds it.
  mkdir -p "$tmp/mime/packages"
  cp /usr/share/mime/packages/freedesktop.org.xml "$mimexml" "$tmp/mime/packages/"
  update-mime-database "$tmp/mime" >"$tmp/umd.log" 2>&1 ||
    fail "update-mime-database rejects the MIME type: $(cat "$tmp/umd.log")"
  # shared-mime-info's rule: the highest weight, then the longest matching glob.
  mime_of() {
    awk -F: -v f="$1" '!/^#/ {
        g = $3; re = g; gsub(/\./, "\\.", re); gsub(/\*/, ".*", re); gsub(/\?/, ".", re)
        if (f ~ ("^" re "$") && ($1 > w || ($1 == w && length(g) > l))) { w = $1; l = length(g); t = $2 }
      } END { print t }' "$tmp/mime/globs2"
  }
  [ "$(mime_of layout.tilescope.json)" = application/x-tilescope+json ] ||
    fail "layout.tilescope.json is $(mime_of layout.tilescope.json)"
  [ "$(mime_of package.json)" = application/json ] || fail "package.json is $(mime_of package.json)"
  grep -q 'application/x-tilescope+json application/json' "$tmp/mime/subclasses" ||
    fail "application/x-tilescope+json is not a sub-class of application/json"
  echo "MIME: layout.tilescope.json is application/x-tilescope+json, package.json application/json"
else
  echo "MIME database check: not run (no update-mime-database; apt install shared-mime-info)"
fi
if command -v update-desktop-database >/dev/null; then
  mkdir -p "$tmp/apps"
  cp "$desktop" "$tmp/apps/"
  update-desktop-database "$tmp/apps"
  grep -qx 'application/x-tilescope+json=org.tilescope.Tilescope.desktop;' "$tmp/apps/mimeinfo.cache" ||
    fail "mimeinfo.cache: $(cat "$tmp/apps/mimeinfo.cache")"
  grep -q '^application/json=' "$tmp/apps/mimeinfo.cache" && fail "the entry still opens all of application/json"
  echo "desktop database: Tilescope opens application/x-tilescope+json and not application/json"
fi

# ---------------------------------------------------------------- samples, docs, the bridge
samples=$root/share/tilescope/samples
for f in "$src"/samples/*.tilescope.json "$src"/samples/logs/*.log; do
  rel=${f#"$src"/samples/}
  cmp -s "$f" "$samples/$rel" || fail "sample $rel not installed in share/tilescope/samples"
done
echo "samples: $(ls "$samples"/*.tilescope.json | wc -l) projects and $(ls "$samples"/logs/*.log | wc -l) logs in /usr/share/tilescope/samples"
[ -f "$doc/README.md" ] && [ -f "$doc/docs/probe.md" ] || fail "README.md or docs/probe.md not installed"
# Every page and picture the installed README and docs link to (relative links) is installed.
missing=0
for md in "$doc"/README.md "$doc"/docs/*.md; do
  for link in $(grep -oE '\]\([^)# ]+' "$md" | sed 's/^](//' | grep -vE '^[a-z]+:' |
    grep -E '\.(md|png|svg|jpg)$' || true); do
    [ -f "$(dirname "$md")/$link" ] || { echo "  $md links $link, not installed"; missing=1; }
  done
done
[ $missing = 0 ] || fail "the installed docs link files that are not installed"
echo "docs: README, BENCHMARKS and $(ls "$doc"/docs/*.md | wc -l) pages with every picture they link"
pydir=$root/lib/python3/dist-packages
[ -f "$pydir/tilescope/__init__.py" ] || fail "the Python bridge is not in lib/python3/dist-packages"

# ------------------------------------------------------------------------------- binaries
elfs=()
for f in $(find "$tmp/deb" -type f); do
  [ "$(head -c4 "$f" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ] && elfs+=("$f")
done
[ ${#elfs[@]} -ge 4 ] || fail "only ${#elfs[@]} ELF files in the .deb"
srcdir=$(cd "$src" && pwd -P)
for f in "${elfs[@]}"; do
  n=${f#"$tmp/deb"}
  dyn=$(readelf -d "$f" 2>/dev/null)
  grep -qE '\(FLAGS\).*BIND_NOW|\(FLAGS_1\).*NOW' <<<"$dyn" || fail "$n: no BIND_NOW"
  grep -qE '\((RPATH|RUNPATH)\)' <<<"$dyn" && fail "$n: $(grep -E 'RPATH|RUNPATH' <<<"$dyn")"
  readelf -lW "$f" 2>/dev/null | grep -q GNU_RELRO || fail "$n: no RELRO"
  readelf -hW "$f" 2>/dev/null | grep -q 'Type:.*DYN' || fail "$n: not position-independent"
  syms=$(readelf --dyn-syms -W "$f" 2>/dev/null)
  grep -q '__stack_chk_fail' <<<"$syms" || fail "$n: no stack protector"
  # Fortified calls (_FORTIFY_SOURCE=2): every program makes some; the render module may have no
  # call whose buffer size the compiler knows, so it is not required there.
  if [[ "$n" == */bin/* ]]; then
    grep -qE '__[a-z]+_chk(@|$| )' <<<"$syms" || fail "$n: no fortified call"
  fi
  sections=$(readelf -SW "$f" 2>/dev/null)
  grep -qE ' \.(symtab|debug_info) ' <<<"$sections" && fail "$n: not stripped"
  grep -q ' .comment ' <<<"$sections" && fail "$n: has a .comment section"
  id=$(readelf -n "$f" 2>/dev/null | sed -n 's/.*Build ID: \([0-9a-f]*\)/\1/p')
  [ -n "$id" ] || fail "$n: no build id"
  dbg=$tmp/dbg/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
  [ -f "$dbg" ] && readelf -SW "$dbg" 2>/dev/null | grep -q ' .debug_info ' ||
    fail "$n: no debug information in the .ddeb (${dbg#"$tmp/dbg"})"
  # The source and build directories, as UTF-8 and as UTF-16 (QStringLiteral's form).
  for s in "$srcdir" "$build"; do
    strings -a "$f" | grep -qF "$s" && fail "$n contains the path $s"
    strings -a -el "$f" | grep -qF "$s" && fail "$n contains the path $s (UTF-16)"
  done
  [[ "$n" == */bin/* ]] && { [ -x "$f" ] || fail "$n is not executable"; }
done
for dbg in $(find "$tmp/dbg" -name '*.debug'); do
  strings -a "$dbg" | grep -qF "$srcdir/" && fail "${dbg#"$tmp/dbg"} names files under $srcdir"
done
dpkg-deb -f "$ddeb" Depends | grep -qx "tilescope (= $version)" || fail "the .ddeb's Depends: $(dpkg-deb -f "$ddeb" Depends)"
# Both packages' md5sums list their files, by the paths dpkg installs them to.
for pair in "$deb:$tmp/deb" "$ddeb:$tmp/dbg"; do
  dpkg-deb --ctrl-tarfile "${pair%%:*}" | tar -xO ./md5sums >"$tmp/md5sums"
  (cd "${pair#*:}" && md5sum --quiet -c "$tmp/md5sums") || fail "$(basename "${pair%%:*}"): md5sums do not match its files"
  [ "$(wc -l <"$tmp/md5sums")" = "$(cd "${pair#*:}" && find . -type f | wc -l)" ] ||
    fail "$(basename "${pair%%:*}"): md5sums does not list every file"
done
[ "$(readlink "$tmp/dbg/usr/share/doc/tilescope-dbgsym")" = tilescope ] ||
  fail "the .ddeb's /usr/share/doc/tilescope-dbgsym is not a link to tilescope's"
echo "binaries: ${#elfs[@]} ELF files PIE, BIND_NOW, RELRO, stack protector, fortify, no RPATH," \
  "stripped (debug information in $(basename "$ddeb")), no source or build path"

# ------------------------------------------------------------------ the installed programs
check_root() {
  local r=$1 what=$2
  fresh_dirs
  for f in bin/tilescope bin/tilescope-cli bin/tilescope-probe \
    share/applications/org.tilescope.Tilescope.desktop \
    share/metainfo/org.tilescope.Tilescope.metainfo.xml \
    share/icons/hicolor/scalable/apps/org.tilescope.Tilescope.svg; do
    [ -f "$r/$f" ] || fail "$what: $f not installed"
  done
  for n in 16 22 24 32 48 64 128 256 512; do
    png=$r/share/icons/hicolor/${n}x${n}/apps/org.tilescope.Tilescope.png
    [ -f "$png" ] || fail "$what: ${n}x${n} icon not installed"
    # PNG header: width and height are the big-endian words at bytes 16 and 20.
    wh=$(od -An -tu1 -j16 -N8 "$png" | awk '{print $3*256+$4 "x" $7*256+$8}')
    [ "$wh" = "${n}x${n}" ] || fail "$what: ${n}x${n} icon is $wh"
  done

  # --version and --help: exit 0, on stdout, nothing on stderr, with no display.
  for p in tilescope tilescope-cli tilescope-probe; do
    for a in --version --help; do
      run_bare "$r" "$p" "$a" >"$tmp/out" 2>"$tmp/err" || fail "$what: $p $a exits $? with no display: $(cat "$tmp/err")"
      [ -s "$tmp/out" ] || fail "$what: $p $a printed nothing"
      [ -s "$tmp/err" ] && fail "$what: $p $a wrote to stderr: $(cat "$tmp/err")"
    done
  done
  [ "$(run_bare "$r" tilescope --version)" = "Tilescope $version" ] || fail "$what: tilescope --version"
  [ "$(run_bare "$r" tilescope-cli --version)" = "tilescope-cli $version" ] || fail "$what: tilescope-cli --version"
  [ "$(run_bare "$r" tilescope-probe --version)" = "tilescope-probe $version" ] || fail "$what: tilescope-probe --version"
  echo "$what: tilescope, tilescope-cli and tilescope-probe answer --version ($version) and --help with no display"

  run_in "$r" tilescope-cli render \
    'T.Fragment([8, 8], forward_thread_fn=lambda i, j: 4 * i + j // 2, forward_index_fn=lambda i, j: j % 2)' \
    -o "$tmp/cwd/grid.svg" || fail "$what: render failed"
  grep -q '<svg' "$tmp/cwd/grid.svg" || fail "$what: render wrote no SVG"
  grep -q '>T31<' "$tmp/cwd/grid.svg" || fail "$what: the rendered 8x8 fragment has no thread T31"
  grep -q '>T32<' "$tmp/cwd/grid.svg" && fail "$what: the rendered 32-thread fragment shows T32"
  # An SVG loads Qt's GUI library: with no XDG_RUNTIME_DIR, Qt's warning about it stays off stderr.
  run_bare "$r" tilescope-cli render 'make_gemm_fragment_8x8()' -o "$tmp/cwd/bare.svg" 2>"$tmp/err" ||
    fail "$what: render with no XDG_RUNTIME_DIR: $(cat "$tmp/err")"
  [ -s "$tmp/err" ] && fail "$what: render wrote to stderr: $(cat "$tmp/err")"
  echo "$what: render wrote a grid with threads T0..T31; no warning on stderr without XDG_RUNTIME_DIR"

  local s=$r/share/tilescope/samples
  run_in "$r" tilescope-cli render "$s/mma_operand_a.tilescope.json" -o "$tmp/cwd/mma.png" ||
    fail "$what: the CLI cannot render the installed sample"
  run_in "$r" tilescope-cli import-dump "$s/logs/conflict_reduce.log" >"$tmp/cwd/dump.json" ||
    fail "$what: the CLI cannot read the installed sample log"
  grep -q conflict "$tmp/cwd/dump.json" || fail "$what: import-dump found no conflict in conflict_reduce.log"

  out=$(run_in "$r" tilescope --screenshot "$tmp/cwd/shot.png" --size 800x600 2>&1) ||
    fail "$what: GUI screenshot failed: $out"
  want=$(cd "$s" && pwd -P)/default.tilescope.json
  grep -qF "(project $want)" <<<"$out" ||
    fail "$what: the GUI did not open the installed default sample ($want): $out"
  wh=$(od -An -tu1 -j16 -N8 "$tmp/cwd/shot.png" | awk '{print $3*256+$4 "x" $7*256+$8}')
  [ "$wh" = "800x600" ] || fail "$what: screenshot is $wh, not 800x600"
  echo "$what: the CLI reads the installed samples and logs; the GUI opens the installed default sample"

  out=$(run_in "$r" tilescope --screenshot "$tmp/cwd/shot2.png" --size 800x600 \
    :/tilescope/samples/swizzles.tilescope.json 2>&1) || fail "$what: GUI on an embedded sample: $out"
  grep -q "(project :/tilescope/samples/swizzles.tilescope.json)" <<<"$out" ||
    fail "$what: the GUI did not open the embedded swizzles sample: $out"
}
check_root "$root" ".deb"
check_root "$(ls -d "$tmp"/tgz/tilescope-"$version"-*)" ".tar.gz"

# The bridge from the installed tree, with Debian's python3 and no pip.
py=$(command -v python3 || true)
if [ -n "$py" ]; then
  out=$(cd "$tmp/cwd" && env -u PYTHONHOME PYTHONPATH="$pydir" PATH="$root/bin:/usr/bin:/bin" \
    LD_LIBRARY_PATH="$root/lib" "$py" -c '
import tilescope, sys
t = tilescope.table("T.Layout([4, 4], lambda i, j: (j, i))")
assert t["kind"] == "layout" and len(t["cells"]) == 16, t
print(tilescope.__file__)') || fail "the installed bridge: $out"
  [[ "$out" == "$pydir/tilescope/__init__.py" ]] || fail "imported tilescope from $out"
  echo "python: import tilescope from the installed tree works (table() through the installed CLI)"
fi

# -------------------------------------------------------------------------------- lintian
lintian=${LINTIAN:-$(command -v lintian || true)}
if [ -n "$lintian" ]; then
  # Every tag is shown (info and pedantic too); errors and warnings fail. Both packages.
  "$lintian" --display-info --pedantic --fail-on error,warning --tag-display-limit 0 "$deb" "$ddeb" \
    >"$tmp/lintian.log" 2>&1 || { cat "$tmp/lintian.log"; fail "lintian reports errors or warnings"; }
  grep -E '^[EW]: ' "$tmp/lintian.log" && fail "lintian: errors or warnings"
  echo "lintian $("$lintian" --version | awk '{print $2}'): no error, no warning" \
    "($(grep -c '^I: ' "$tmp/lintian.log" || true) info, $(grep -c '^P: ' "$tmp/lintian.log" || true) pedantic)"
  sed 's/^/  /' "$tmp/lintian.log"
elif [ "${TILESCOPE_REQUIRE_LINTIAN:-0}" = 1 ]; then
  fail "lintian is not installed (apt install lintian)"
else
  echo "lintian: not installed, not run (apt install lintian)"
fi

if [ "${TILESCOPE_APT_SIMULATE:-0}" = 1 ]; then
  # What apt would do on this machine, resolved against the archive; nothing is installed.
  apt-get install --simulate --no-install-recommends "$deb" >"$tmp/apt.log" 2>&1 ||
    { cat "$tmp/apt.log"; fail "apt cannot install the package's Depends"; }
  grep -E '^(Inst|Conf) tilescope ' "$tmp/apt.log" || fail "apt's simulation does not install tilescope"
fi
echo "PASS"
