#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fresh-check.sh — run the README's two commands as a new user meets them: as root, in a
# brand-new Debian 12 root (debootstrap minbase), in a fresh clone of this repository.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: scripts/fresh-check.sh [options]          (as root: debootstrap, mount, chroot)
  --commit REF    what to clone into the root (default: HEAD of this checkout;
                  uncommitted changes are not part of a clone)
  --base DIR      copy this pristine debootstrap root (cp -a) instead of running
                  debootstrap; DIR itself is never touched
  --root DIR      build the root here (default: a new /var/tmp/xwire-fresh.XXXXXX);
                  it must not exist yet
  --mirror URL    Debian mirror for debootstrap (default: http://deb.debian.org/debian)
  --test          run only scripts/test.sh
  --bench         run only scripts/bench.sh
  --quick         pass --quick to each command (test.sh: plain build only;
                  bench.sh: xwbench's short run)
  --logs DIR      where the commands' output goes (default: results/fresh-check/ here)
  --keep          leave the root on disk afterwards (it is unmounted either way)
  -h, --help      this text
Each command's exit status, wall time and test counts are printed at the end;
the script exits 0 only when every command it ran exited 0.
USAGE
}

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ref=HEAD base= root= mirror=http://deb.debian.org/debian
run_test=1 run_bench=1 quick=0 keep=0 logs=$src/results/fresh-check
while (($#)); do
  case $1 in
    --commit) ref=${2:?--commit needs a ref}; shift ;;
    --base) base=${2:?--base needs a directory}; shift ;;
    --root) root=${2:?--root needs a directory}; shift ;;
    --mirror) mirror=${2:?--mirror needs a URL}; shift ;;
    --test) run_test=1 run_bench=0 ;;
    --bench) run_bench=1 run_test=0 ;;
    --quick) quick=1 ;;
    --logs) logs=${2:?--logs needs a directory}; shift ;;
    --keep) keep=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "fresh-check: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

die() { echo "fresh-check: $*" >&2; exit 1; }
((EUID == 0)) || die "needs root (debootstrap, mount and chroot)"
sha=$(git -C "$src" rev-parse --verify "$ref^{commit}") || die "no commit '$ref' in $src"
if [[ -n $base ]]; then
  [[ -x $base/bin/bash && -d $base/etc/apt ]] || die "$base does not look like a debootstrap root"
else
  command -v debootstrap >/dev/null || die "no cached --base and no debootstrap (apt-get install debootstrap)"
fi
if [[ -n $root ]]; then
  [[ ! -e $root ]] || die "$root exists already; give a new path"
  mkdir -p "$root"
else
  root=$(mktemp -d /var/tmp/xwire-fresh.XXXXXX)
fi
root=$(cd "$root" && pwd)
mkdir -p "$logs"

# Mounts are undone in reverse order on every exit. Processes a test left inside the
# root (an Xvfb, say) hold its mounts busy: they are ended first, by pid.
mounted=()
cleanup() {
  local rc=$? p i
  for p in /proc/[0-9]*; do
    [[ $(readlink "$p/root" 2>/dev/null) == "$root" ]] && kill -KILL "${p#/proc/}" 2>/dev/null
  done
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true
  done
  if ((keep)); then
    echo "fresh-check: root kept at $root" >&2
  elif findmnt -rn -o TARGET | grep -q "^$root/"; then
    echo "fresh-check: $root still has mounts; not removing it" >&2
  else
    rm -rf --one-file-system "$root"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mnt() {  # mnt TARGET mount-args...: mount and remember it for cleanup
  local target=$root/$1; shift
  mkdir -p "$target"
  mount "$@" "$target"
  mounted+=("$target")
}

echo "fresh-check: root $root, commit $sha" >&2
if [[ -n $base ]]; then
  cp -a "$base/." "$root/"
else
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$logs/debootstrap.log" 2>&1 \
    || die "debootstrap failed (see $logs/debootstrap.log)"
fi
# apt inside the root needs name resolution; services must not start in a chroot.
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"

git clone -q --no-hardlinks "$src" "$root/root/xwire"
git -C "$root/root/xwire" checkout -q --detach "$sha"

mnt proc -t proc proc
mnt sys -t sysfs sysfs
mnt dev/pts -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts
mnt dev/shm -t tmpfs -o mode=1777 tmpfs
mnt tmp -t tmpfs -o mode=1777 tmpfs

results=()
final=0
# run_cmd NAME ARGS...: one README command in the clone, as root, with a clean environment.
run_cmd() {
  local name=$1 log=$logs/$1.log start end rc counts; shift
  echo "== fresh-check: $name $*" >&2
  start=$(date +%s)
  set +e
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c 'cd /root/xwire && exec "$@"' fresh-check "scripts/$name" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  end=$(date +%s)
  counts=$(grep -ao 'test\.sh: [0-9]* passed, [0-9]* failed, [0-9]* skipped' "$log" | tail -1 || true)
  results+=("$(printf '%s %s: exit %d, %dm%02ds%s' "$name" "${*:-(no options)}" "$rc" $(((end - start) / 60)) \
    $(((end - start) % 60)) "${counts:+, ${counts#test.sh: }}")")
  ((rc == 0)) || final=1
}

q=()
((quick)) && q=(--quick)
((run_bench)) && run_cmd bench.sh "${q[@]}"
((run_test)) && run_cmd test.sh "${q[@]}"

echo "fresh-check: Debian $(cat "$root/etc/debian_version"), commit $sha, logs in $logs"
printf 'fresh-check: %s\n' "${results[@]}"
exit "$final"
