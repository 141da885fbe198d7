#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# package-check.sh — install xwire's .debs in a fresh Debian 12 root and use them as a
# user would: build the README's hello.c with pkg-config and run it on Xvfb, compare
# `xwire-run xdpyinfo` with `xdpyinfo`, open `man xw_intern_atom`, switch the system's
# libxcb to xwire's and back (xwire-system-libxcb), then purge and check that nothing
# is left behind. Run as root after scripts/package.sh:
#   scripts/package-check.sh [DEBDIR [ROOTDIR]]
# The root is a copy of a debootstrap minbase (root.sh, XW_ROOT_BASE); it is kept
# afterwards for inspection (remove it before the next run).
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$src/scripts/root.sh"
debs=$(realpath "${1:-$src/build-deb}")
dir=${2:-/work/roots/deb-pkg}
# What a user has before installing xwire: a compiler, pkg-config, man, Xvfb, xdpyinfo.
prereq=(gcc libc6-dev pkgconf man-db xvfb x11-utils)
pkgs=(libxwire1 libxwire-dev libxwire-util1 libxwire-util-dev libxwire-xcb1 libxwire-xcb-dev
      xwire-libxcb xwire-doc xwire-examples)
fails=0
step() { # step NAME COMMAND...: run one step in the root, report its result
  local name=$1; shift
  if root_run "$dir" "$*"; then
    echo "package-check: $name: ok"
  else
    echo "package-check: $name: FAILED"; fails=$((fails + 1))
  fi
}
# Every file in the root but the volatile ones (logs, caches, apt lists, backups).
snapshot() {
  root_run "$dir" "find / -xdev \\( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /run \
    -o -path /var/log -o -path /var/cache -o -path /var/lib/apt/lists -o -path /root \\) -prune \
    -o -print | grep -v -e '-old\$' -e '^/var/lib/dpkg/triggers/' | sort"
}

root_make "$dir"
trap 'root_kill_x; root_umount "$dir"' EXIT
root_kill_x() { root_run "$dir" "[ ! -f /tmp/xvfb.pid ] || kill \$(cat /tmp/xvfb.pid) 2>/dev/null || true" || true; }
mkdir -p "$dir/tmp/debs"
cp "$debs"/*.deb "$dir/tmp/debs/"
sed -n '/^## Quick start/,/^## /p' "$src/README.md" | sed -n '/^```c$/,/^```$/p' | sed '1d;$d' > "$dir/tmp/hello.c"
[[ -s $dir/tmp/hello.c ]] || { echo "package-check: no hello.c in README.md's Quick start" >&2; exit 1; }

step "prerequisites (${prereq[*]})" "apt-get update -q >/dev/null && \
  apt-get install -y -q --no-install-recommends ${prereq[*]} >/dev/null"
snapshot > "$dir/tmp/before.txt"
step "apt-get install ./*.deb" "apt-get install -y -q --no-install-recommends /tmp/debs/*.deb >/dev/null"
root_run "$dir" "dpkg-query -W -f='\${Package} \${Version} \${Installed-Size} KiB\n' ${pkgs[*]}" || fails=$((fails + 1))
# One Xvfb for the steps that need a display.
root_run "$dir" "Xvfb :7 -nolisten tcp >/tmp/xvfb.log 2>&1 & echo \$! > /tmp/xvfb.pid; \
  for i in \$(seq 50); do [ -e /tmp/.X11-unix/X7 ] && exit 0; sleep 0.1; done; exit 1"
step "hello.c with pkg-config --cflags --libs xwire, run on Xvfb" \
  "cd /tmp && cc -o hello hello.c \$(pkg-config --cflags --libs xwire) && DISPLAY=:7 ./hello | tee hello.out && \
    grep -q '^exposed' hello.out"
step "xwire-run xdpyinfo prints what xdpyinfo prints" \
  "cd /tmp && DISPLAY=:7 xdpyinfo > xdpyinfo.system && DISPLAY=:7 xwire-run xdpyinfo > xdpyinfo.xwire && \
    diff xdpyinfo.system xdpyinfo.xwire && wc -l < xdpyinfo.xwire"
step "xwire-run loads xwire's libxcb" \
  "DISPLAY=:7 LD_DEBUG=libs xwire-run xdpyinfo 2>/tmp/ld.log >/dev/null && \
    grep 'calling init: .*/xwire/xcb/libxcb' /tmp/ld.log"
step "man xw_intern_atom" "man -P cat xw_intern_atom > /tmp/man.txt && grep -c xw_intern_atom_reply /tmp/man.txt && \
  man -w xw_intern_atom"
step "man xwire-system-libxcb" "man -w xwire-system-libxcb"
step "xwire-system-libxcb enable" \
  "xwire-system-libxcb enable && xwire-system-libxcb status && \
    grep -q 'xwire/xcb/libxcb.so.1' <(ldd /usr/bin/xdpyinfo) && cd /tmp && \
    DISPLAY=:7 xdpyinfo | diff xdpyinfo.system -"
step "xwire-system-libxcb disable" \
  "xwire-system-libxcb disable && ! grep -q xwire/xcb <(ldd /usr/bin/xdpyinfo) && xwire-system-libxcb status"
step "enable again, then purge" \
  "xwire-system-libxcb enable >/dev/null && apt-get purge -y -q --autoremove ${pkgs[*]} >/dev/null && \
    ! grep -q xwire <(ldd /usr/bin/xdpyinfo) && [ ! -e /etc/ld.so.conf.d/00-xwire-libxcb.conf ]"
root_kill_x
snapshot > "$dir/tmp/after.txt"
if diff "$dir/tmp/before.txt" "$dir/tmp/after.txt"; then
  echo "package-check: purge leaves nothing behind ($(wc -l < "$dir/tmp/before.txt") paths before and after): ok"
else
  echo "package-check: purge leaves nothing behind: FAILED (diff above)"; fails=$((fails + 1))
fi
echo "package-check: $fails failed"
exit $((fails > 0))
