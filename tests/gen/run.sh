#!/bin/sh
# SPDX-License-Identifier: MIT
# Generator tests: golden output for good/*.xml (.h, .c and _priv.h) and man/*.xml (byte-for-byte,
# and the same on a second run) and the exact "file:line: error:" diagnostic for each bad/*.xml.
# usage: run.sh XWGEN TESTDIR OUTDIR PROTODIR
set -u
xwgen=$1 dir=$2 out=$3 proto=$4
case $xwgen in /*) ;; *) xwgen=$(pwd)/$xwgen ;; esac
pass=0 failed=0
ok() { pass=$((pass + 1)); }
ko() { failed=$((failed + 1)); echo "FAIL: $*"; }
rm -rf "$out" && mkdir -p "$out/a" "$out/b"
cd "$dir" || exit 1
for x in good/*.xml; do
    n=$(basename "$x" .xml)
    if "$xwgen" -I "$proto" -o "$out/a" "$x" && "$xwgen" -I "$proto" -o "$out/b" "$x"; then
        for f in "$n.h" "$n.c" "${n}_priv.h"; do
            if cmp -s "good/$f" "$out/a/$f"; then
                ok
            else
                ko "$f differs from the golden file"
                diff -u "good/$f" "$out/a/$f" | head -20
            fi
            if cmp -s "$out/a/$f" "$out/b/$f"; then ok; else ko "$f differs between two runs"; fi
        done
    else
        ko "xwgen failed on $x"
    fi
done
# The core-style description keeps a golden inline sender (the unlocked write-buffer path).
if grep -q 'xw__out_reserve' good/coredemo.c; then ok; else ko "good/coredemo.c has no inline sender path"; fi
for x in bad/*.xml; do
    want=$(cat "${x%.xml}.err")
    got=$("$xwgen" -I "$proto" -o "$out/a" "$x" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" = 1 ] && [ "$got" = "$want" ]; then ok; else ko "$x: exit $rc, said '$got', expected '$want'"; fi
done
# Man pages: man/<name>.xml against the golden pages in man/<name>/, and the same on a
# second run; man/bad*.xml against their diagnostic.
for x in man/[!b]*.xml; do
    n=$(basename "$x" .xml)
    if "$xwgen" -I "$proto" --man "$out/a/man-$n" "$x" && "$xwgen" -I "$proto" --man "$out/b/man-$n" "$x"; then
        if diff -r "man/$n" "$out/a/man-$n" >/dev/null; then
            ok
        else
            ko "man pages of $n differ from the golden ones"
            diff -ru "man/$n" "$out/a/man-$n" | head -20
        fi
        if diff -r "$out/a/man-$n" "$out/b/man-$n" >/dev/null; then
            ok
        else
            ko "man pages of $n differ between two runs"
        fi
    else
        ko "xwgen --man failed on $x"
    fi
done
for x in man/bad*.xml; do
    want=$(cat "${x%.xml}.err")
    got=$("$xwgen" -I "$proto" --man "$out/a/man-bad" "$x" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" = 1 ] && [ "$got" = "$want" ]; then ok; else ko "$x: exit $rc, said '$got', expected '$want'"; fi
done
echo "$pass passed, $failed failed"
[ "$failed" = 0 ]
