# SPDX-License-Identifier: MIT
"""Each library of the libxcb family built from xwire against Debian's: the same
soname, the same exported xcb_ functions, the same exported xcb_ data objects with the
same sizes (programs hold copy relocations on them), and nothing else but the
XWIRE_PRIVATE entry points of libxcb.so.1. Known differences are listed, each with
its reason, in exceptions.txt; one that no longer happens fails too, so the list
cannot go stale.
usage: test_exports.py SHIM_DIR DEBIAN_LIBDIR EXCEPTIONS"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from libs import FAMILY  # noqa: E402

# What the linker defines in every shared object; not part of either API.
LINKER = {"_edata", "_end", "__bss_start"}
PRIVATE = "XWIRE_PRIVATE"


def dynsyms(lib):
    """name => (type, size, version) of each defined dynamic symbol."""
    out = subprocess.run(["readelf", "--dyn-syms", "-W", lib], capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0][:-1].isdigit() or f[6] == "UND":
            continue
        name, _, version = f[7].partition("@")
        syms[name] = (f[3], int(f[2], 0), version.lstrip("@"))
    return syms


def soname(lib):
    out = subprocess.run(["readelf", "-d", lib], capture_output=True, text=True, check=True).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", out)
    return m.group(1) if m else None


def nodelete(lib):
    out = subprocess.run(["readelf", "-d", lib], capture_output=True, text=True, check=True).stdout
    return re.search(r"\(FLAGS_1\)\s+Flags:.*\bNODELETE\b", out) is not None


def differences(so, ours, theirs):
    """The differences of one library, as lines 'SONAME KIND NAME [DETAIL]'."""
    diffs = []
    if soname(ours) != so:
        diffs.append("%s soname %s" % (so, soname(ours)))
    # an extension library registers its description with the core: it must never be
    # unmapped under the connections that point at it (libxcb/meson.build)
    if so != "libxcb.so.1" and not nodelete(ours):
        diffs.append("%s flags not NODELETE" % so)
    mine, deb = dynsyms(ours), dynsyms(theirs)
    for name in sorted(set(deb) - set(mine) - LINKER):
        diffs.append("%s missing %s" % (so, name))
    for name in sorted(set(mine) - set(deb) - LINKER):
        kind, _, version = mine[name]
        private = so == "libxcb.so.1" and name.startswith("xwire_private_") and version == PRIVATE
        if not private and name != PRIVATE:
            diffs.append("%s extra %s" % (so, name))
    for name in sorted(set(mine) & set(deb) - LINKER):
        (mt, ms, mv), (dt, ds, dv) = mine[name], deb[name]
        if mt != dt:
            diffs.append("%s type %s %s/%s" % (so, name, mt, dt))
        elif mt == "OBJECT" and ms != ds:
            diffs.append("%s size %s %d/%d" % (so, name, ms, ds))
        if mv != dv:
            diffs.append("%s version %s %s/%s" % (so, name, mv or "-", dv or "-"))
    return mine, deb, diffs


def count(syms, kind):
    return sum(1 for n, s in syms.items() if n.startswith("xcb_") and s[0] == kind)


def main():
    shim, libdir, exc_file = sys.argv[1:4]
    expected = {}
    with open(exc_file) as f:
        for line in f:
            text, _, why = line.partition("#")
            if text.strip():
                expected[" ".join(text.split())] = why.strip()
    print("%-24s %-22s %-13s %-9s %s" % ("library", "soname", "functions", "data", "differences"))
    seen, failures, tf, td = set(), [], 0, 0
    for so in FAMILY:
        mine, deb, diffs = differences(so, os.path.join(shim, so), os.path.join(libdir, so))
        tf += count(mine, "FUNC")
        td += count(mine, "OBJECT")
        listed = [d for d in diffs if d in expected]
        seen.update(listed)
        failures += [d for d in diffs if d not in expected]
        print("%-24s %-22s %5d / %-5d %3d / %-3d %s" % (
            so, soname(os.path.join(shim, so)), count(mine, "FUNC"), count(deb, "FUNC"), count(mine, "OBJECT"),
            count(deb, "OBJECT"), "none" if not diffs else
            "%d (%d listed): %s" % (len(diffs), len(listed), ", ".join(d.split(" ", 1)[1] for d in diffs[:4]))))
    print("total: %d functions, %d data objects in %d libraries" % (tf, td, len(FAMILY)))
    for d in sorted(set(expected) - seen):
        failures.append("listed in %s but no longer a difference: %s" % (os.path.basename(exc_file), d))
    for d in sorted(seen):
        print("listed difference: %s (%s)" % (d, expected[d]))
    for d in failures:
        print("FAIL:", d)
    sys.exit(1 if failures else 0)


main()
