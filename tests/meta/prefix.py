#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A runtime function's prefix names its file, so a reader finds xw__out_flush in out.c
and never has to search the tree.

usage: prefix.py SRC_DIR | --self-test
Every function whose name starts with xw__ that a file of SRC_DIR defines or declares
is checked. Its prefix is the word after xw__, up to the next underscore (xw__out_flush:
out; xw__send: send). The function must be defined in <prefix>.c, in a file of the same
family (<prefix>_<part>.c, such as trace_fmt.c for trace), or, inline, in <prefix>.h;
and declared only there or in <prefix>.h. Lists each offender with the files that hold
it and exits 1 when there is one.
Two kinds of names are not checked:
- base.h's helpers (xw__rd16, xw__div, xw__widen_below): the shared basics belong to no
  subsystem, which is why they sit in base.h.
- generated code: xwgen writes its xw__ functions (xw__iov_sum, a description's
  xw__register) into the generated files of the build directory, never into SRC_DIR,
  and names them after the module they serve.
"""
import os
import re
import sys
import tempfile

EXEMPT_FILES = {"base.h"}
NAME = re.compile(r"\b(xw__[a-z0-9]+(?:_\w+)?)\s*\(")


def strip(text):
    """The text without comments and string literals (newlines kept)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)


def declared(text):
    """Names of functions the file defines or declares at file scope: a name followed by
    its parameter list at brace depth 0, outside an initializer or a macro."""
    found, depth, i = set(), 0, 0
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0:
            m = NAME.match(text, i)
            if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
                # a call at file scope happens only in an initializer: skip those
                line = text[max(text.rfind(ch, 0, i) for ch in ";{}") + 1:i]
                if "=" not in line:
                    found.add(m.group(1))
                i = m.end()
                continue
        i += 1
    return found


def allowed(name, fname):
    prefix = name[4:].split("_", 1)[0]
    stem = fname.rsplit(".", 1)[0]
    return stem == prefix or (fname.endswith(".c") and stem.startswith(prefix + "_"))


def check(folder, out=sys.stdout):
    where = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith((".c", ".h")) and f not in EXEMPT_FILES:
            with open(os.path.join(folder, f), encoding="utf-8") as fh:
                for name in declared(strip(fh.read())):
                    where.setdefault(name, []).append(f)
    bad = 0
    for name in sorted(where):
        wrong = [f for f in where[name] if not allowed(name, f)]
        if wrong:
            bad += 1
            print("%s (prefix %s) is defined or declared in %s" % (name, name[4:].split("_", 1)[0],
                                                                   ", ".join(wrong)), file=out)
    print("%d xw__ functions, %d whose prefix does not name their file" % (len(where), bad), file=out)
    return bad


SELF_TEST = [
    # a function in its own file and header; a call of another file's function is no declaration
    ({"out.c": '#include "out.h"\nint xw__out_flush(void)\n{\n    int a = 1;\n    return xw__in_wait(a);\n}\n'
               "int xw__out_sync(void)\n{\n    return 0;\n}\n",
      "out.h": "int xw__out_flush(void);\nstatic inline int xw__out_fast(void)\n{\n    return 0;\n}\n"}, 0),
    # the case: an xw__in_ function defined in claim.c and declared in in.h
    ({"claim.c": "int xw__in_reply(int s)\n{\n    return s;\n}\n", "in.h": "int xw__in_reply(int s);\n"}, 1),
    # a definition after a function whose body holds an assignment is still seen
    ({"claim.c": "int f(void)\n{\n    int a = 1;\n    return a;\n}\nint xw__in_reply(void)\n{\n    return 0;\n}\n"}, 1),
    # declared in the wrong header though defined in the right file
    ({"lend.c": "void xw__lend_keep(void)\n{\n}\n", "stash.h": "void xw__lend_keep(void);\n"}, 1),
    # a file family, base.h's helpers, names in comments, strings and initializers
    ({"trace_fmt.c": "void xw__trace_field(void)\n{\n}\n/* xw__in_x() */\n",
      "base.h": "static inline int xw__rd16(void)\n{\n    return 0;\n}\n",
      "own.c": 'const char *s = "xw__x_y()";\nint (*f)(void) = xw__out_f;\nint t = xw__in_g(1);\n'}, 0),
]


def self_test():
    bad = 0
    for i, (tree, want) in enumerate(SELF_TEST):
        with tempfile.TemporaryDirectory() as d:
            for name, text in tree.items():
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write(text)
            with open(os.devnull, "w") as null:
                got = check(d, null)
        if got != want:
            print("self-test case %d: %d offenders, expected %d" % (i, got, want))
            bad += 1
    print("self-test: %d of %d cases right" % (len(SELF_TEST) - bad, len(SELF_TEST)))
    return 1 if bad else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return 1 if check(argv[1]) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
