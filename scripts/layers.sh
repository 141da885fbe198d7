#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# layers.sh — which source files of a folder call into which, read from a build's object files
# (nm: the functions and data each object defines and those it takes from another), and every
# loop among them: files that call each other, directly or round a circle. Exit status 1 when
# there is a loop. usage: scripts/layers.sh [--hand-written] BUILDDIR FOLDER... (e.g. build gen bench)
# --hand-written leaves out the objects of generated sources: src/'s runtime reads two tables of
# the generated code (the core's request descriptions, BIG-REQUESTS' key) whose senders call the
# runtime, a loop through data that says nothing of how the hand-written files depend on each other.
# Then srclayers.py reads the folder's sources for what objects cannot show: the includes among
# its files and the calls its headers' inline functions make; a loop there fails too.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
generated=1
if [[ ${1-} == --hand-written ]]; then
  generated=0
  shift
fi
build=$1
shift
status=0
for folder in "$@"; do
  echo "== $folder"
  find "$build/$folder" -name '*.o' -path '*.p/*' |
    { if ((generated)); then cat; else grep -v '/meson-generated_'; fi; } |
    python3 -c '
import collections, os, re, subprocess, sys
defs, uses = {}, collections.defaultdict(set)
objs = sorted(set(sys.stdin.read().split()))
out = subprocess.run(["nm", "-A"] + objs, capture_output=True, text=True, check=True).stdout if objs else ""
for line in out.splitlines():
    obj, sym = line.split(".o:", 1)  # nm -A: "file.o:[value] type name"
    obj += ".o"
    # meson names an object after its source: foo.c.o (.._tests_lib_x.c.o for ../tests/lib/x.c)
    src = re.sub(r"^(\.\._)+", "", os.path.basename(obj)[:-2])
    f = sym.split()
    if len(f) == 3 and f[1] in "TDBR":
        defs[f[2]] = src
    elif len(f) == 2 and f[0] == "U":
        uses[src].add(f[1])
calls = collections.defaultdict(lambda: collections.defaultdict(set))
for src, names in uses.items():
    for n in names:
        if n in defs and defs[n] != src:
            calls[src][defs[n]].add(n)
for a in sorted(calls):
    for b in sorted(calls[a]):
        print("%s -> %s: %s" % (a, b, " ".join(sorted(calls[a][b]))))
# Tarjan: every strongly connected set of two files or more is a loop
index, low, stack, on, loops = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index); stack.append(v); on.add(v)
    for w in calls[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            loops.append(sorted(comp))
for v in list(calls):
    if v not in index:
        visit(v)
for c in loops:
    print("LOOP: " + " ".join(c))
print("%d files, %d loops" % (len(set(defs.values()) | set(uses)), len(loops)))
sys.exit(1 if loops else 0)
' || status=1
  python3 "$here/srclayers.py" "$here/../$folder" || status=1
done
exit $status
