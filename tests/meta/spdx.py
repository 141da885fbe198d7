#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every source file xwire wrote carries an SPDX licence line (TAG below) near its top.

usage: spdx.py [--fix] SOURCE_ROOT | --self-test
Lists each source file without the line and exits 1; --fix inserts it instead (after a
shebang or a man page's preprocessor line), in the comment syntax of the file's kind.
The files are git's tracked ones when SOURCE_ROOT is a checkout and git is installed,
else every file under it but .git and build dirs (a `meson dist` tarball holds only
tracked files).
"""
import fnmatch
import os
import shutil
import subprocess
import sys

TAG = "SPDX-License-Identifier: MIT"
# How far down the tag may sit: after a shebang and a line or two of header.
HEAD_LINES = 5

# Which files are sources, and the comment that carries the tag in each.
C_LIKE = "/* " + TAG + " */"
HASH = "# " + TAG
ROFF = '.\\" ' + TAG
KINDS = [
    ("*.c", C_LIKE), ("*.h", C_LIKE), ("*.inc", C_LIKE), ("*.map", C_LIKE),
    ("*.c.in", C_LIKE), ("*.h.in", C_LIKE),
    ("meson.build", HASH), ("meson_options.txt", HASH), ("*.py", HASH), ("*.sh", HASH),
    ("*.supp", HASH), ("*.in", HASH),
    ("*.[1-8]", ROFF),
]

# Not ours, or not free to change, each with its reason.
EXCEPTIONS = [
    # Vendored from wmutils (ISC), kept as they came (tests/ported/wmutils-core/LICENSE).
    "tests/ported/wmutils-core/*",
    # xwgen's golden output, compared byte for byte with what it generates.
    "tests/gen/good/*.c", "tests/gen/good/*.h", "tests/gen/man/*",
]

# Scripts without a suffix are sources too when they start with a shebang.
SHEBANG = HASH


def tracked(root):
    # A fresh machine may have a clone but no git: then every file but build dirs counts.
    if os.path.exists(os.path.join(root, ".git")) and shutil.which("git"):
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             stdout=subprocess.PIPE).stdout.decode()
        return [p for p in out.split("\0") if p]
    files = []
    for top, dirs, names in os.walk(root):
        # A build dir inside the tree (meson-private marks it) holds generated files,
        # and a nested checkout or worktree (its own .git) is another tree.
        dirs[:] = [d for d in dirs if d != ".git"
                   and not os.path.isdir(os.path.join(top, d, "meson-private"))
                   and not os.path.exists(os.path.join(top, d, ".git"))]
        files += [os.path.relpath(os.path.join(top, n), root) for n in names]
    return files


def comment_for(path, first_line):
    name = os.path.basename(path)
    for pattern, comment in KINDS:
        if fnmatch.fnmatch(name, pattern):
            return comment
    if first_line.startswith("#!"):
        return SHEBANG
    return None


def insert(lines, comment):
    """The tag goes first, or after a line that must stay first."""
    at = 1 if lines and (lines[0].startswith("#!") or lines[0].startswith("'\\\"")) else 0
    return lines[:at] + [comment + "\n"] + lines[at:]


def self_test():
    """The check must see a missing line, and --fix must put it where the check looks."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        files = {"a.c": "int a;\n", "b.sh": "#!/bin/sh\ntrue\n", "ok.h": C_LIKE + "\n",
                 "tests/ported/wmutils-core/x.c": "int x;\n", "data.txt": "x\n"}
        for path, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        if main([root]) != 1:
            print("self-test: files without the line were not reported")
            return 1
        if main(["--fix", root]) != 0 or main([root]) != 0:
            print("self-test: --fix left a file without the line")
            return 1
        with open(os.path.join(root, "b.sh")) as f:
            if f.readline() != "#!/bin/sh\n":
                print("self-test: --fix moved the shebang")
                return 1
    print("self-test passed")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    fix = "--fix" in argv
    args = [a for a in argv if a != "--fix"]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = args[0]
    missing, checked = [], 0
    for path in sorted(tracked(root)):
        if any(fnmatch.fnmatch(path, e) for e in EXCEPTIONS):
            continue
        full = os.path.join(root, path)
        if os.path.islink(full) or not os.path.isfile(full):
            continue
        # latin-1 maps every byte to one character and back: --fix changes nothing else.
        with open(full, encoding="latin-1", newline="") as f:
            lines = f.readlines()
        comment = comment_for(path, lines[0] if lines else "")
        if comment is None:
            continue
        checked += 1
        if any(TAG in line for line in lines[:HEAD_LINES]):
            continue
        if fix:
            with open(full, "w", encoding="latin-1", newline="") as f:
                f.writelines(insert(lines, comment))
            print("added: " + path)
        else:
            missing.append(path)
    for path in missing:
        print("no '%s' in the first %d lines: %s" % (TAG, HEAD_LINES, path))
    print("%d source files, %d without the licence line" % (checked, len(missing)))
    if checked == 0:
        print("no source files found under " + root)
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
