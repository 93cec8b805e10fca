#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages Tilescope builds and tests with; does nothing when all are present.
#   install-deps.sh            everything: build, tests, sanitizers, fuzzing, packaging checks
#   install-deps.sh --build    only what building the programs and packages needs (`make package`)
set -euo pipefail
build_pkgs=(build-essential cmake ninja-build pkg-config ccache file
            qt6-base-dev qt6-charts-dev libqt6opengl6-dev qt6-svg-dev libqt6svg6
            nlohmann-json3-dev libcli11-dev libdeflate-dev
            libfreetype-dev libfontconfig-dev zlib1g-dev libgl1-mesa-dev libxkbcommon-dev)
test_pkgs=(libgtest-dev libbenchmark-dev mold poppler-utils
           xvfb xauth imagemagick fonts-dejavu-core
           clang libclang-rt-14-dev python3 python3-venv
           python3-pytest python3-setuptools python3-wheel desktop-file-utils appstream
           lintian shared-mime-info man-db groff-base)
pkgs=("${build_pkgs[@]}")
[ "${1:-}" = "--build" ] || pkgs+=("${test_pkgs[@]}")
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
