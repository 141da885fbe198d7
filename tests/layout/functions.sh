#!/bin/sh
# SPDX-License-Identifier: MIT
# Every function libxcb's headers declare for a description has an xw_ twin in the
# generated header: a port is a rename. Prints each one missing, then the counts.
# usage: functions.sh XCB_INCLUDE_DIR XW_HEADER_DIR NAME...
set -u
xcb=$1 xw=$2
shift 2
total=0 missing=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for n in "$@"; do
    # libxcb puts each declared function's name at the start of a line
    grep -ohE '^xcb_[a-z0-9_]+ *\(' "$xcb/xcb/$n.h" | sed 's/ *($//; s/^xcb_//' | sort -u >"$tmp/xcb"
    grep -ohE '\bxw_[a-z0-9_]+ *\(' "$xw/$n.h" | sed 's/ *($//; s/^xw_//' | sort -u >"$tmp/xw"
    total=$((total + $(wc -l <"$tmp/xcb")))
    for f in $(comm -23 "$tmp/xcb" "$tmp/xw"); do
        echo "missing: xw_$f (libxcb's xcb_$f in $n.h)"
        missing=$((missing + 1))
    done
done
echo "$# descriptions, $total libxcb functions, $missing without an xw_ twin"
echo "$((total - missing)) passed, $missing failed"
[ "$total" -gt 0 ] && [ "$missing" = 0 ]
