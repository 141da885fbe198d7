#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# abi.sh — the ABI guard of libxwire and libxwire-util (libabigail's abidw/abidiff).
#   abi.sh check LIB BASELINE   compare a built library with its baseline:
#       exit 0 when compatible (additions allowed), 1 on an incompatible change, 77 (skip)
#       when abidiff is not installed.
#   abi.sh update BUILDDIR                   rewrite abi/*.abi.xz from BUILDDIR's libraries
#       (a build with debug info, e.g. -Dbuildtype=debugoptimized) after a release that
#       changed the ABI on purpose; an incompatible change also moves the soname.
# The baseline keeps only the types the public headers declare (--drop-private-types),
# without source locations or paths, so it changes only when the ABI does.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

case ${1:-} in
check)
  [[ $# -eq 3 ]] || { echo "usage: abi.sh check LIB BASELINE" >&2; exit 2; }
  lib=$2 base=$3
  command -v abidiff >/dev/null || { echo "abi.sh: abidiff not installed (abigail-tools); skipped"; exit 77; }
  # The baselines are kept xz-compressed (abidw's XML is ~10x larger than the archive).
  if [[ $base == *.xz ]]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    xz -dc "$base" > "$tmp/$(basename "${base%.xz}")"
    base=$tmp/$(basename "${base%.xz}")
  fi
  # The library side keeps all its types: with --drop-private-types there, libabigail
  # also drops public structs and misses a changed layout. Added functions are
  # compatible (--no-added-syms); anything abidiff still reports is not.
  rc=0
  abidiff --no-added-syms "$base" "$lib" || rc=$?
  # abidiff's status is a bit set: 1 error, 2 usage, 4 a change, 8 an incompatible change.
  if (( rc & 3 )); then
    echo "abi.sh: abidiff failed (status $rc)" >&2; exit 1
  elif (( rc & 12 )); then
    echo "abi.sh: $(basename "$lib") breaks the ABI of $base:" \
         "restore it, or bump the soname and run scripts/abi.sh update" >&2
    exit 1
  fi
  echo "abi.sh: $(basename "$lib"): compatible with $base"
  ;;
update)
  [[ $# -eq 2 ]] || { echo "usage: abi.sh update BUILDDIR" >&2; exit 2; }
  b=$2
  dump() {
    local out=$1 lib=$2; shift 2
    local hd=() d
    for d in "$@"; do hd+=(--headers-dir "$d"); done
    abidw --no-corpus-path --no-comp-dir-path --no-show-locs --drop-private-types --drop-undefined-syms \
      "${hd[@]}" --out-file "${out%.xz}" "$lib"
    xz -9 -f "${out%.xz}"
    echo "abi.sh: wrote $out"
  }
  dump "$root/abi/libxwire.abi.xz" "$b/src/libxwire.so.1" "$root/src/xw" "$b/xproto/xw"
  dump "$root/abi/libxwire-util.abi.xz" "$b/util/libxwire-util.so.1" "$root/util/xw" "$root/src/xw" "$b/xproto/xw"
  ;;
*)
  echo "usage: abi.sh check LIB BASELINE | abi.sh update BUILDDIR" >&2; exit 2 ;;
esac
