#!/bin/sh
# SPDX-License-Identifier: MIT
# rename.sh — turn a libxcb program into its xwire twin: rename.sh IN.c OUT.c.
# Porting to xwire is a rename, so this is the whole port: xcb_ -> xw_,
# XCB_ -> XW_, <xcb/...> -> <xw/...>, and the two header names that carry the
# library's own name (xcb.h -> xw.h, xcbext.h -> xwext.h). A bare xcb -> xw
# covers all of these. Nothing else may change, or the test would be checking
# this script rather than the library.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 IN.c OUT.c" >&2
    exit 2
fi
# Write a temporary file first so a failed run never leaves a half-written
# output that ninja would take as up to date.
sed -e 's/xcb/xw/g' -e 's/XCB/XW/g' "$1" > "$2.tmp"
mv "$2.tmp" "$2"
