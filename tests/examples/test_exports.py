# SPDX-License-Identifier: MIT
"""The shared library exports only xw_/XW_ names (nm -D --defined-only), none that
libxcb also defines, and carries the soname libxwire.so.1: a process can load
both libraries without one's symbols standing in for the other's."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwrun import check, main  # noqa: E402


def defined(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def exports():
    lib = sys.argv[1]
    names = defined(lib)
    check(len(names) > 1000, "only %d exported names" % len(names))
    strays = sorted(n for n in names if not n.startswith(("xw_", "XW_")))
    check(not strays, "exported without the xw_ prefix: %s" % ", ".join(strays[:20]))
    internal = sorted(n for n in names if n.startswith("xw__"))
    check(not internal, "internal names exported: %s" % ", ".join(internal[:20]))
    print("%s: %d exported names, all xw_" % (os.path.basename(lib), len(names)))

    dyn = subprocess.run(["readelf", "-d", lib], capture_output=True, text=True, check=True).stdout
    soname = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", dyn)
    check(soname and soname.group(1) == "libxwire.so.1", "soname: %s" % (soname and soname.group(1)))
    print("soname:", soname.group(1))

    xcb = next((p for p in ("/usr/lib/x86_64-linux-gnu/libxcb.so.1", "/usr/lib/libxcb.so.1") if os.path.exists(p)),
               None)
    if xcb:
        both = names & defined(xcb)
        check(not both, "defined by both libxwire and libxcb: %s" % ", ".join(sorted(both)[:20]))
        print("no name in common with", xcb)


main(exports)
