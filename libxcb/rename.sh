#!/bin/sh
# SPDX-License-Identifier: MIT
# rename.sh — one library of the libxcb family from xwire's objects: renames xw_ symbols to libxcb's
# names and archives the result.
# usage: rename.sh NM OBJCOPY AR KEEP_LIST OUT.a OBJECT...
# The build names the objects (the runtime's, or one description's bindings); this only renames.
# Every symbol xw_NAME (defined or referenced) becomes xcb_NAME, so the code is the same machine
# code under libxcb's name and costs nothing per call; names listed in KEEP_LIST (xwire-only API,
# and functions whose libxcb form libxcb/ provides by hand) stay xw_ and the version script makes
# them local. Internal xw__ names are left alone: the extension libraries reach the core's through
# libxcb/ext.c.
set -eu
nm=$1 objcopy=$2 ar=$3 keep=$4 out=$5
shift 5
[ $# -gt 0 ] || { echo "rename.sh: no objects for $out" >&2; exit 1; }
tmp=$(mktemp -d "${out}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

n=0
for m in "$@"; do
    n=$((n + 1))
    "$nm" "$m" | awk '{print $NF}' | grep -E '^xw_[a-z0-9]' | sort -u |
        awk -v keep="$keep" '
            BEGIN { while ((getline k < keep) > 0) if (k !~ /^#/ && k != "") kept["xw_" k] = 1 }
            !($1 in kept) { print $1, "xcb_" substr($1, 4) }' >"$tmp/map"
    "$objcopy" --redefine-syms="$tmp/map" "$m" "$tmp/$n.o"
done
rm -f "$out"
"$ar" rcs "$out" "$tmp"/*.o
