# SPDX-License-Identifier: MIT
# root.sh — sourced by the fresh-root checks: make a throwaway Debian 12 root from a
# pristine debootstrap (minbase), run commands in it, and take it down again.
# XW_ROOT_BASE names the pristine root (never modified); roots are copied beside it.
XW_ROOT_BASE=${XW_ROOT_BASE:-/work/roots/base}

# root_make DIR: a copy of the base with proc, sys, dev and dev/pts mounted.
root_make() {
  local dir=$1
  [[ -d $XW_ROOT_BASE/usr ]] || { echo "root.sh: no base root at $XW_ROOT_BASE" >&2; return 1; }
  [[ ! -e $dir ]] || { echo "root.sh: $dir exists; remove it first" >&2; return 1; }
  cp -a "$XW_ROOT_BASE" "$dir"
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  mount -t proc proc "$dir/proc"
  mount -t sysfs sys "$dir/sys"
  mount --bind /dev "$dir/dev"
  mount --bind /dev/pts "$dir/dev/pts"
}

# root_run DIR COMMAND: run a bash command line as root inside DIR.
root_run() {
  local dir=$1; shift
  chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive bash -euo pipefail -c "$*"
}

# root_umount DIR: undo root_make's mounts (the tree stays for inspection).
root_umount() {
  local dir=$1 m
  for m in dev/pts dev sys proc; do
    mountpoint -q "$dir/$m" && umount "$dir/$m"
  done
  return 0
}
