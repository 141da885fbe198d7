# SPDX-License-Identifier: MIT
"""Xlib's message when the connection breaks, on Debian's libxcb.so.1 and on xwire's:
xlib_io (real libX11) talks to Xvfb through a proxy, which, once the program is
ready, either closes the connection or sends a reply claiming 2^32-1 words. Xlib
prints its message from errno: after a close both must say "X connection to :N
broken (explicit kill or server shutdown)"; after the malformed reply xwire's says
"Protocol error" (libxcb leaves whatever errno its last system call left).
usage: test_xlib_io.py XLIB_IO SHIM_DIR"""
import os
import socket
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from xwrun import Xvfb, check, main  # noqa: E402

os.environ.pop("LD_LIBRARY_PATH", None)  # Xvfb and the Debian run stay on Debian's libxcb


def listen():
    """A listening socket on the first free display number from 600: its number."""
    for n in range(600, 700):
        s = socket.socket(socket.AF_UNIX)
        try:
            s.bind("/tmp/.X11-unix/X%d" % n)
        except OSError:
            s.close()
            continue
        s.listen(1)
        return s, n
    check(False, "no free display number for the proxy")


def pump(src, dst):
    try:
        while True:
            b = src.recv(65536)
            if not b:
                break
            dst.sendall(b)
    except OSError:
        pass


def one_run(x, env, act):
    """Xlib's message (display name as :N) after the proxy's act."""
    ls, n = listen()
    try:
        p = subprocess.Popen([sys.argv[1]], env=dict(env, DISPLAY=":%d" % n), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        ls.settimeout(30)
        cl, _ = ls.accept()
        sv = socket.socket(socket.AF_UNIX)
        sv.connect("/tmp/.X11-unix/X%d" % x.number)
        threading.Thread(target=pump, args=(cl, sv), daemon=True).start()
        down = threading.Thread(target=pump, args=(sv, cl), daemon=True)
        down.start()
        check(p.stdout.readline() == b"ready\n", "xlib_io did not get ready")
        sv.shutdown(socket.SHUT_RDWR)  # no more from the server
        down.join(10)
        if act == "malformed":
            cl.sendall(bytes([1, 0, 0, 0]) + b"\xff\xff\xff\xff" + bytes(24))
        else:
            cl.shutdown(socket.SHUT_RDWR)
        p.stdin.write(b"go\n")
        p.stdin.flush()
        try:
            _, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            return "(hung)"
        cl.close()
        sv.close()
    finally:
        os.unlink("/tmp/.X11-unix/X%d" % n)
        ls.close()
    lines = [line for line in err.decode("latin-1").replace("\r", "").splitlines() if line.strip()]
    first = lines[0] if lines else "(nothing)"
    return first.replace(":%d" % n, ":N").split(" on X server")[0]


def xlib_io():
    shim = sys.argv[2]
    with Xvfb() as x:
        env = dict(os.environ)
        ours = dict(env, LD_LIBRARY_PATH=shim)
        closed = one_run(x, ours, "closed")
        want = one_run(x, env, "closed")
        check(closed == want == "X connection to :N broken (explicit kill or server shutdown).",
              "server closed: xwire %r, Debian's libxcb %r" % (closed, want))
        print("server closed: %r on both" % closed)
        bad = one_run(x, ours, "malformed")
        check(bad == "XIO:  fatal IO error 71 (Protocol error)", "malformed reply: xwire %r" % bad)
        print("malformed reply: xwire %r, Debian's libxcb %r" % (bad, one_run(x, env, "malformed")))


main(xlib_io)
