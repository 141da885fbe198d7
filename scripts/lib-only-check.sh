#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# lib-only-check.sh — show what a library-only build needs: in a fresh Debian 12 root
# (a copy of a debootstrap minbase, see root.sh), install only a C compiler, meson,
# ninja, pkg-config, expat, libXau and xcb-proto, then configure, build and install
# libxwire with every optional part off. Run as root: scripts/lib-only-check.sh [ROOTDIR]
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$src/scripts/root.sh"
dir=${1:-/work/roots/deb-lib}
pkgs=(gcc libc6-dev meson ninja-build pkg-config libexpat1-dev libxau-dev xcb-proto)

root_make "$dir"
trap 'root_umount "$dir"' EXIT
# The committed tree only, as a fresh clone would have it.
mkdir -p "$dir/src/xwire"
git -C "$src" archive HEAD | tar -x -C "$dir/src/xwire"
root_run "$dir" "apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends ${pkgs[*]} >/dev/null"
echo "lib-only-check: installed ${pkgs[*]}"
root_run "$dir" "cd /src/xwire && meson setup build -Dtests=false -Dbench=false -Dexamples=false \
  -Dutil=false -Dlibxcb=false -Dxcb=false -Dman=false >/dev/null && ninja -C build >/dev/null \
  && DESTDIR=/tmp/inst meson install -C build >/dev/null && find /tmp/inst -type f | sort"
echo "lib-only-check: ok"
