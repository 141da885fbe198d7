# SPDX-License-Identifier: MIT
"""xwinfo and xdpyinfo on the same Xvfb (two screens, 24 and 16 bits deep): every
line xwinfo prints is one of xdpyinfo's, in the same order, and the lines the
issue names (display, version, vendor, release, maximum request size, screens,
dimensions, root window, depths, visuals, extensions) are all there."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwrun import Xvfb, check, main, run  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--xwinfo", required=True)
ap.add_argument("--outdir", required=True)
args = ap.parse_args()

REQUIRED = ["name of display:", "version number:", "vendor string:", "vendor release number:",
            "maximum request size:", "number of screens:", "number of extensions:", "screen #0:", "screen #1:",
            "  dimensions:", "  root window id:", "  depths (", "  depth of root window:", "  number of visuals:",
            "  default visual id:", "    visual id:", "    class:", "    red, green, blue masks:"]


def compare():
    with Xvfb(screens=("640x480x24", "320x240x16")) as x:
        status, ours, err = run([args.xwinfo, "-display", x.name])
        check(status == 0 and err == "", "xwinfo exited with %d: %s" % (status, err))
        status, theirs, err = run(["xdpyinfo", "-display", x.name])
        check(status == 0, "xdpyinfo exited with %d: %s" % (status, err))
    for name, text in (("xwinfo", ours), ("xdpyinfo", theirs)):
        with open(os.path.join(args.outdir, name + ".txt"), "w") as f:
            f.write(text)
    a, b = ours.splitlines(), theirs.splitlines()

    # Every xwinfo line in xdpyinfo's output, in order.
    j = 0
    for n, line in enumerate(a):
        k = j
        while k < len(b) and b[k] != line:
            k += 1
        check(k < len(b), "xwinfo line %d is not in xdpyinfo's output (after its line %d): %r" % (n + 1, j, line))
        j = k + 1
    for prefix in REQUIRED:
        check(any(line.startswith(prefix) for line in a), "xwinfo printed no %r line" % prefix)
    for key in ("    visual id:", "    "):  # every visual, and every indented line (extensions, formats)
        na, nb = sum(line.startswith(key) for line in a), sum(line.startswith(key) for line in b)
        check(na == nb, "%r lines: xwinfo %d, xdpyinfo %d" % (key, na, nb))
    print("xwinfo: %d lines, all in xdpyinfo's %d lines in order%s" % (
        len(a), len(b), "; the outputs are identical" if a == b else ""))
    for line in a[:8]:
        print("  " + line)


main(compare)
