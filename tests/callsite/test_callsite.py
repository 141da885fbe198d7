# SPDX-License-Identifier: MIT
"""test_callsite.py — XWIRE_ERRORS=callsite names the line of the bad call, for an xcb
program on xwire's libxcb.so.1, the same built without debug information
(function+offset), and an Xlib program on xwire's libxcb; and prints nothing while
off. Standard library only."""
import argparse
import os
import re
import subprocess
import sys


def marked_line(path, mark="BAD CALL"):
    """The line number of the call marked mark in path."""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if "/* %s */" % mark in line:
                return n
    raise SystemExit("%s: no BAD CALL marker" % path)


def run(prog, display, libdir, callsite):
    env = dict(os.environ, DISPLAY=display, LD_LIBRARY_PATH=libdir)
    env.pop("XWIRE_ERRORS", None)
    if callsite:
        env["XWIRE_ERRORS"] = "callsite"
    p = subprocess.run([prog], env=env, capture_output=True, text=True, timeout=60)
    sys.stdout.write("$ %s%s\n%s%s" % ("XWIRE_ERRORS=callsite " if callsite else "", os.path.basename(prog),
                                        p.stdout, p.stderr))
    if p.returncode != 0:
        raise SystemExit("%s exited with %d" % (prog, p.returncode))
    return p.stdout, p.stderr


def bad_request(stdout, fn="map_missing"):
    m = re.search(fn + r": request (\d+)", stdout)
    if not m:
        raise SystemExit("the program did not say which request was bad")
    return int(m.group(1))


def check_site(name, stderr, seq, want, error="BadWindow \\(3\\) in MapWindow", count=1, index=0):
    """count error lines; the index-th is error for request seq, naming want (a regular expression)."""
    lines = [l for l in stderr.splitlines() if l.startswith("xwire: X error")]
    if len(lines) != count:
        raise SystemExit("%s: expected %d error lines, got %r" % (name, count, lines))
    line = lines[index]
    if not re.search(r"%s .*request %d, sent from " % (error, seq), line):
        raise SystemExit("%s: the error line does not name %s, request %d: %s" % (name, error, seq, line))
    if not re.search(want, line):
        raise SystemExit("%s: the call site is not %s: %s" % (name, want, line))


def main():
    ap = argparse.ArgumentParser()
    for a in ("--source", "--xcb", "--xcb-nodebug", "--xlib", "--xw", "--libxcb-dir", "--xwrun"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    sys.path.insert(0, args.xwrun)
    import xwrun

    xcb_line = marked_line(os.path.join(args.source, "cs_xcb.c"))
    xlib_line = marked_line(os.path.join(args.source, "cs_xlib.c"))
    xlib_line2 = marked_line(os.path.join(args.source, "cs_xlib.c"), "BAD CALL 2")
    xw_line = marked_line(os.path.join(args.source, "cs_xw.c"))
    with xwrun.Xvfb() as x:
        for prog in (args.xcb, args.xlib, args.xw):
            out, err = run(prog, x.name, args.libxcb_dir, False)
            if "xwire:" in err or "sent from" in out:
                raise SystemExit("%s gave call sites while off: %s%s" % (prog, out, err))
        out, err = run(args.xcb, x.name, args.libxcb_dir, True)
        check_site("xcb", err, bad_request(out), r"sent from map_missing \(\S*cs_xcb\.c:%d\)$" % xcb_line)
        out, err = run(args.xcb_nodebug, x.name, args.libxcb_dir, True)
        check_site("xcb without debug information", err, bad_request(out),
                   r"sent from map_missing(\.\w+)*\+0x[0-9a-f]+ \(cs_xcb_nodebug\)$")
        out, err = run(args.xlib, x.name, args.libxcb_dir, True)
        check_site("Xlib", err, bad_request(out), r"sent from map_missing \(\S*cs_xlib\.c:%d\)$" % xlib_line,
                   count=2)
        check_site("Xlib, a call that waits", err, bad_request(out, "geometry_of_missing"),
                   r"sent from geometry_of_missing \(\S*cs_xlib\.c:%d\)$" % xlib_line2,
                   error=r"BadDrawable \(9\) in GetGeometry", count=2, index=1)
        out, err = run(args.xw, x.name, args.libxcb_dir, True)
        check_site("xwire", err, bad_request(out), r"sent from map_missing \(\S*cs_xw\.c:%d\)$" % xw_line)
        # xw_error_text: the same call site after the error's own text
        want = r"^cs_xw: BadWindow \(3\) in MapWindow .*, sent from map_missing \(\S*cs_xw\.c:%d\)$" % xw_line
        if not re.search(want, out, re.M):
            raise SystemExit("xw_error_text does not end with the call site: %s" % out)
    print("ok")


if __name__ == "__main__":
    main()
