"""Unmodified Debian programs that use libxcb alone (no Xlib), run by xwire-run on
xwire's libxcb family and directly on Debian's, one after the other on one Xvfb: the
same output (stdout and stderr) and exit status, and the dynamic loader's own log (LD_DEBUG=libs) shows
which libxcb.so.1 each run initialised. Also xwire-run's usage and XWIRE_XCB_DIR.
usage: test_programs.py XWIRE_RUN SHIM_DIR"""
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from xwrun import Xvfb, check, main, run  # noqa: E402

PROGRAMS = [
    ["xlsatoms"],
    ["xlsclients", "-l"],
    ["xwininfo", "-root", "-tree"],
    ["xwininfo", "-root", "-shape"],  # libxcb-shape
    ["xwininfo", "-id", "0x1234567"],  # an X error, printed by the program
]


def loaded(err):
    """The libxcb*.so files the loader initialised (LD_DEBUG=libs)."""
    return sorted(set(re.findall(r"calling init: (\S*libxcb[^\s/]*\.so\.\d)", err)))


def program_stderr(err):
    """What the program itself printed on stderr: without the loader's LD_DEBUG log and
    its copy-relocation size warning (the data sizes are test_exports.py's to check)."""
    return [line for line in err.splitlines()
            if not re.match(r"\s*\d+:", line) and "has different size in shared object" not in line]


def programs():
    xwire_run, shim = sys.argv[1], os.path.realpath(sys.argv[2])
    status, _, err = run([xwire_run])
    check(status == 2 and "usage" in err, "xwire-run without a program: %d %s" % (status, err))
    with Xvfb() as x:
        env = x.env(LD_DEBUG="libs")
        env.pop("LD_LIBRARY_PATH", None)
        for args in PROGRAMS:
            if not shutil.which(args[0]):
                check(False, "%s is not installed (x11-utils)" % args[0])
            ds, dout, derr = run(args, env=env)
            xs, xout, xerr = run([xwire_run] + args, env=env)
            theirs, ours = loaded(derr), loaded(xerr)
            check(ours and all(os.path.dirname(os.path.realpath(p)) == shim for p in ours),
                  "%s on xwire-run loaded %s" % (args[0], ours))
            check(theirs and not any(os.path.dirname(os.path.realpath(p)) == shim for p in theirs),
                  "%s alone loaded %s" % (args[0], theirs))
            check(xs == ds, "%s: exit %d on xwire, %d on libxcb" % (" ".join(args), xs, ds))
            check(xout == dout, "%s prints differently on xwire:\n%s\non libxcb:\n%s" % (" ".join(args), xout, dout))
            check(program_stderr(xerr) == program_stderr(derr), "%s: stderr on xwire:\n%s\non libxcb:\n%s" % (
                " ".join(args), program_stderr(xerr), program_stderr(derr)))
            print("%-26s exit %d, %4d lines the same, on %s" % (
                " ".join(args), xs, len(dout.splitlines()), " ".join(os.path.basename(p) for p in ours)))
        status, _, err = run([xwire_run, "xlsatoms"], env=dict(env, XWIRE_XCB_DIR="/nonexistent"))
        check(status == 0 and not any(os.path.dirname(os.path.realpath(p)) == shim for p in loaded(err)),
              "XWIRE_XCB_DIR=/nonexistent still loaded %s" % loaded(err))
        print("XWIRE_XCB_DIR elsewhere: the system's libxcb")


main(programs)
