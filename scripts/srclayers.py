#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layering of a folder's C sources read from the sources themselves, where object
files cannot see it: which file includes which ("..." includes of the folder's own
files), and which file calls into which through the bodies of functions, the static
inline functions of headers included (a header whose inline function calls another
file's function depends on that file). A .c file and the header of the same name are
one node of the call graph (one subsystem); a header without a .c is a node of its own.
Calls through the transport table (tp->slot(...)) are listed with the functions the
folder's tables put in that slot, but they are no edge: the caller depends on the
table's type (transport.h), which each implementation fills in, so such a call never
makes a loop of layers however far the implementation reaches.

usage: srclayers.py FOLDER | --self-test
Prints the edges and every loop among them (files that reach each other, directly or
round a circle), in includes and in calls; exits 1 when there is one.
"""
import collections
import os
import re
import sys
import tempfile

IDENT = re.compile(r"(?<![\w.>])([A-Za-z_]\w*)\s*\(")  # not a member: ->f( or .f(
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
TP_CALL = re.compile(r"\btp->(\w+)\s*\(")
SLOT = re.compile(r"\.(\w+)\s*=\s*&?(\w+)\s*[,}]")


def strip(text, strings=True):
    """The text without comments and (strings) string and character literals, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'" and strings:
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching(text, i, open_, close):
    """Index just past the bracket that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def functions(text):
    """(name, body) of each function defined at file scope, and the file-scope
    initializers (for the tables of function pointers)."""
    funcs, inits = [], []
    i, start = 0, 0
    # preprocessor lines are not declarations: blank them (keeps offsets)
    text = re.sub(r"^\s*#.*$", lambda m: " " * len(m.group(0)), text, flags=re.M)
    while i < len(text):
        c = text[i]
        if c in ";}":
            start = i + 1
        elif c == "(":
            i = matching(text, i, "(", ")")
            continue
        elif c == "{":
            end = matching(text, i, "{", "}")
            head = re.sub(r"__attribute__\s*\(\(.*?\)\)\s*$", "", text[start:i].strip(), flags=re.S).rstrip()
            if head.endswith(")"):
                # the parameter list is the bracket that closes at the head's end
                depth, k = 0, len(head) - 1
                while k >= 0:
                    depth += {")": 1, "(": -1}.get(head[k], 0)
                    if depth == 0:
                        break
                    k -= 1
                m = re.search(r"(\w+)\s*$", head[:k])
                if m and "=" not in head[:k]:
                    funcs.append((m.group(1), text[i:end], re.search(r"\bstatic\b", head) is not None))
            elif head.endswith("="):
                inits.append(text[i:end])
            i, start = end, end
            continue
        i += 1
    return funcs, inits


def node(f):
    """A file's node in the call graph: its name without .c or .h, since a .c and the
    header of the same name are one subsystem (its inline functions and the rest)."""
    return f[:-2]


def scan(folder):
    files = sorted(f for f in os.listdir(folder) if f.endswith((".c", ".h")))
    raw = {f: open(os.path.join(folder, f), encoding="utf-8").read() for f in files}
    includes = {}
    for f in files:
        found = INCLUDE.findall(strip(raw[f], strings=False))
        includes[f] = sorted(set(i for i in found if i in raw and i != f))
    src = {f: strip(raw[f]) for f in files}
    # a static function of a .c is seen from its own file only; a header's inline
    # ones from every file that includes it
    defs, local, bodies, slots = {}, {}, collections.defaultdict(list), collections.defaultdict(set)
    parsed = {f: functions(src[f]) for f in files}
    for f in files:
        for name, body, static in parsed[f][0]:
            if static and f.endswith(".c"):
                local[(f, name)] = f
            else:
                defs.setdefault(name, f)
            bodies[f].append(body)
    for f in files:
        for init in parsed[f][1]:
            for slot, fn in SLOT.findall(init):
                if (f, fn) in local or fn in defs:
                    slots[slot].add((fn, f if (f, fn) in local else defs[fn]))
    calls = collections.defaultdict(lambda: collections.defaultdict(set))
    seam = collections.defaultdict(lambda: collections.defaultdict(set))
    for f in files:
        for body in bodies[f]:
            for n in IDENT.findall(body):
                if (f, n) not in local and n in defs and node(defs[n]) != node(f):
                    calls[node(f)][node(defs[n])].add(n)
            for s in TP_CALL.findall(body):
                for fn, g in slots.get(s, ()):
                    seam[node(f)][node(g)].add("tp->%s=%s" % (s, fn))
    return files, includes, calls, seam


def loops(nodes, edges):
    """Every strongly connected set of two files or more (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in nodes:
        if v not in index:
            visit(v)
    return found


def check(folder, out=sys.stdout):
    files, includes, calls, seam = scan(folder)
    for f in files:
        for g in includes[f]:
            print("%s includes %s" % (f, g), file=out)
    for f in sorted(calls):
        for g in sorted(calls[f]):
            print("%s -> %s: %s" % (f, g, " ".join(sorted(calls[f][g]))), file=out)
    for f in sorted(seam):
        for g in sorted(seam[f]):
            print("%s -> %s through the table: %s" % (f, g, " ".join(sorted(seam[f][g]))), file=out)
    inc_loops = loops(files, includes)
    call_loops = loops(sorted(set(node(f) for f in files)), {f: sorted(calls[f]) for f in calls})
    for c in inc_loops:
        print("INCLUDE LOOP: " + " ".join(c), file=out)
    for c in call_loops:
        print("CALL LOOP: " + " ".join(c), file=out)
    print("%d files, %d include loops, %d call loops" % (len(files), len(inc_loops), len(call_loops)), file=out)
    return len(inc_loops), len(call_loops)


# A small tree per case: (files, include loops, call loops) it must report.
SELF_TEST = [
    ({"a.h": '#include "b.h"\n', "b.h": '#include "a.h"\n'}, 1, 0),
    ({"a.h": '#include "b.h"\n', "b.h": "/* #include \"a.h\" */\n"}, 0, 0),
    # an inline function of a.h calls b.c, whose function calls a.h's inline one
    ({"a.h": "static inline int f(void)\n{\n    return g();\n}\n",
      "b.c": '#include "a.h"\nint g(void)\n{\n    return 0;\n}\nint h(void)\n{\n    return f();\n}\n'}, 0, 1),
    # the same call in a comment or a prototype is no call
    ({"a.h": "int g(void);\nstatic inline int f(void)\n{\n    return 1; /* g() */\n}\n",
      "b.c": '#include "a.h"\nint g(void)\n{\n    return f();\n}\n'}, 0, 0),
    # a call through the transport table is no edge (the implementation fills in the seam)
    ({"t.h": "static inline int w(struct c *c)\n{\n    return c->tp->wait(c);\n}\n",
      "own.c": '#include "t.h"\nstatic int own_wait(struct c *c)\n{\n    return w(c);\n}\n'
               "const struct tab own = {\n    .wait = own_wait,\n};\n"}, 0, 0),
    # a static function of one file is not another file's function of the same name
    ({"a.c": "static int take(void)\n{\n    return 0;\n}\nint f(void)\n{\n    return g();\n}\n",
      "b.c": "static int take(void)\n{\n    return 1;\n}\nint g(void)\n{\n    return take();\n}\n"}, 0, 0),
    # a .c and its own header are one subsystem: no loop between them
    ({"p.h": "int slow(void);\nstatic inline int fast(void)\n{\n    return slow();\n}\n",
      "p.c": '#include "p.h"\nint slow(void)\n{\n    return 0;\n}\nint use(void)\n{\n    return fast();\n}\n'}, 0, 0),
]


def self_test():
    bad = 0
    for i, (tree, want_inc, want_call) in enumerate(SELF_TEST):
        with tempfile.TemporaryDirectory() as d:
            for name, text in tree.items():
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            with open(os.devnull, "w") as null:
                got = check(d, null)
        if got != (want_inc, want_call):
            print("self-test case %d: %s loops, expected %s" % (i, got, (want_inc, want_call)))
            bad += 1
    print("self-test: %d of %d cases right" % (len(SELF_TEST) - bad, len(SELF_TEST)))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    inc, call = check(argv[1])
    return 1 if inc or call else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
