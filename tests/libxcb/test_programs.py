# SPDX-License-Identifier: MIT
"""Unmodified Debian programs, on libxcb alone and on Xlib (libX11 over libxcb, through
the socket hand-off xcb_take_socket/xcb_writev), run by xwire-run on
xwire's libxcb family and directly on Debian's, one after the other on one Xvfb: the
same output (stdout and stderr) and exit status, also when the server refuses the
connection, and the dynamic loader's own log (LD_DEBUG=libs) shows
which libxcb.so.1 each run initialised. Also xwire-run's usage and XWIRE_XCB_DIR.
usage: test_programs.py XWIRE_RUN SHIM_DIR"""
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from xwrun import Xvfb, check, main, run  # noqa: E402

# meson puts the libraries a test depends on (this family) on LD_LIBRARY_PATH: never
# for Xvfb, which links libxcb, nor for a run meant to be on Debian's libxcb.
os.environ.pop("LD_LIBRARY_PATH", None)

PROGRAMS = [
    ["xlsatoms"],
    ["xlsclients", "-l"],
    ["xwininfo", "-root", "-tree"],
    ["xwininfo", "-root", "-shape"],  # libxcb-shape
    ["xwininfo", "-id", "0x1234567"],  # an X error, printed by the program
    # Xlib
    ["xdpyinfo", "-queryExtensions"],
    ["xprop", "-root"],
    ["xrandr", "--query"],
    ["xset", "q"],
    ["xmodmap", "-pke"],
    ["xkbcomp", "{display}", "-"],  # XKB through Xlib
    ["xprop", "-id", "0x1234567"],  # an X error, through Xlib's error handler
]


def loaded(err):
    """The libxcb*.so files the loader initialised (LD_DEBUG=libs)."""
    return sorted(set(re.findall(r"calling init: (\S*libxcb[^\s/]*\.so\.\d)", err)))


def program_stderr(err):
    """What the program and the loader printed on stderr, without LD_DEBUG's log (a
    copy-relocation size warning, for one, stays in)."""
    return [line for line in err.splitlines() if not re.match(r"\s*\d+:", line)]


def xauth_entry(number, cookie):
    """One Xauthority entry: any address (FamilyWild), MIT-MAGIC-COOKIE-1."""
    def field(b):
        return len(b).to_bytes(2, "big") + b
    return ((0xFFFF).to_bytes(2, "big") + field(b"") + field(number.encode()) + field(b"MIT-MAGIC-COOKIE-1")
            + field(cookie))


def refused(xwire_run, tmp):
    """A server that refuses the connection: libxcb writes the server's reason to
    stderr before the program's own message, so xwire's libxcb.so.1 must too. Also a
    display whose protocol reaches no local socket ("tcp/:N"), which libxcb refuses."""
    server_auth, client_auth = os.path.join(tmp, "server.auth"), os.path.join(tmp, "client.auth")
    with open(server_auth, "wb") as f:
        f.write(xauth_entry("0", bytes(range(16))))
    with Xvfb("-auth", server_auth) as x:
        with open(client_auth, "wb") as f:
            f.write(xauth_entry(str(x.number), bytes(range(1, 17))))
        cases = [("wrong cookie", x.name, client_auth), ("no cookie", x.name, os.path.join(tmp, "none")),
                 ("tcp/ to a local display", "tcp/" + x.name, client_auth)]
        for what, display, auth in cases:
            env = dict(os.environ, DISPLAY=display, XAUTHORITY=auth)
            ds, dout, derr = run(["xdpyinfo"], env=env)
            xs, xout, xerr = run([xwire_run, "xdpyinfo"], env=env)
            check(ds != 0 and xs == ds, "%s: exit %d on xwire, %d on libxcb" % (what, xs, ds))
            check((xout, xerr) == (dout, derr),
                  "%s: xwire printed %r %r, libxcb %r %r" % (what, xout, xerr, dout, derr))
            print("refused, %-24s exit %d, stderr the same: %r" % (what, xs, xerr.splitlines()[0]))


def programs():
    xwire_run, shim = sys.argv[1], os.path.realpath(sys.argv[2])
    status, _, err = run([xwire_run])
    check(status == 2 and "usage" in err, "xwire-run without a program: %d %s" % (status, err))
    with Xvfb() as x:
        env = x.env(LD_DEBUG="libs")
        for args in PROGRAMS:
            args = [a.format(display=x.name) for a in args]
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
    with tempfile.TemporaryDirectory() as tmp:
        refused(xwire_run, tmp)


main(programs)
