#!/bin/sh
# rename.sh — one library of the libxcb family from xwire's objects: picks members of
# the runtime archive, renames xw_ symbols to libxcb's names and archives the result.
# usage: rename.sh NM OBJCOPY AR ARCHIVE KEEP_LIST OUT.a core|EXT...
#   core: the runtime's own objects plus the xproto, bigreq and xc_misc bindings;
#   EXT:  the bindings of that description (randr, xkb, ...).
# The trace decoders of every description (xproto/xw/*_trace.c) go into the core.
# Every symbol xw_NAME (defined or referenced) becomes xcb_NAME, so the code is the
# same machine code under libxcb's name and costs nothing per call; names listed in
# KEEP_LIST (xwire-only API, and functions whose libxcb form compat.c provides) stay
# xw_ and the version script makes them local. Internal xw__ names are left alone: the
# extension libraries reach the core's through libxcb/ext.c.
set -eu
nm=$1 objcopy=$2 ar=$3 archive=$4 keep=$5 out=$6
shift 6
tmp=$(mktemp -d "${out}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Meson's internal archives are thin: members are named by their paths (relative to
# here); a regular archive is unpacked first.
if [ "$(head -c 7 "$archive")" = '!<thin>' ]; then
    src=.
else
    src="$tmp/src"
    mkdir "$src"
    case $archive in /*) a=$archive ;; *) a=$PWD/$archive ;; esac
    (cd "$src" && "$ar" x "$a")
fi
members=$("$ar" t "$archive")
pick() { # the archive members of one library, one per line
    for want in "$@"; do
        if [ "$want" = core ]; then
            printf '%s\n' "$members" | grep -v 'meson-generated_' || true
            pick xproto bigreq xc_misc
            printf '%s\n' "$members" | grep -E "_xproto_xw_[a-z0-9_]+_trace\.c\.o\$"
        else
            printf '%s\n' "$members" | grep "_xproto_xw_$want\.c\.o\$"
        fi
    done
}

n=0
for m in $(pick "$@"); do
    n=$((n + 1))
    o="$tmp/$n.o"
    "$nm" "$src/$m" | awk '{print $NF}' | grep -E '^xw_[a-z0-9]' | sort -u |
        awk -v keep="$keep" '
            BEGIN { while ((getline k < keep) > 0) if (k !~ /^#/ && k != "") kept["xw_" k] = 1 }
            !($1 in kept) { print $1, "xcb_" substr($1, 4) }' >"$tmp/map"
    "$objcopy" --redefine-syms="$tmp/map" "$src/$m" "$o"
done
[ "$n" -gt 0 ] || { echo "rename.sh: no objects for $*" >&2; exit 1; }
rm -f "$out"
"$ar" rcs "$out" "$tmp"/*.o
