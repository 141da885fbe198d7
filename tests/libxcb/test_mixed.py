# SPDX-License-Identifier: MIT
"""Mixed sets of Debian's libxcb family and xwire's, with probe.c (built against
Debian's headers and libraries) on a private Xvfb:
- Debian's libxcb-randr on xwire's libxcb.so.1 alone works and prints what it prints
  on Debian's libxcb (it uses only libxcb's public functions);
- xwire's libxcb-randr on Debian's libxcb.so.1 fails at load, before main, naming
  XWIRE_PRIVATE, and a dlopen() of it, lazy binding asked, fails the same way;
- all of xwire's family prints the same again;
- libxcb's forms of the three functions whose xwire form differs answer as Debian's;
- a connection error libxcb has no code for reads as libxcb's XCB_CONN_ERROR;
- a refused setup shows on stderr what Debian's shows (the reason field alone, never
  the rest of the reply), and a status the protocol does not define connects on both.
usage: test_mixed.py PROBE SHIM_DIR"""
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from xwrun import Xvfb, check, main, run  # noqa: E402

# meson puts the libraries a test depends on (this family) on LD_LIBRARY_PATH: never
# for Xvfb, which links libxcb, nor for a run meant to be on Debian's libxcb.
os.environ.pop("LD_LIBRARY_PATH", None)


def origins(out):
    """what => directory of the library it came from, and the lines without them."""
    where, rest = {}, []
    for line in out.splitlines():
        m = re.match(r"(\S+) from (.*)$", line)
        if m:
            where[m.group(1)] = os.path.dirname(os.path.realpath(m.group(2)))
        else:
            rest.append(line)
    return where, rest


def probe(args, env, shim, want):
    """Runs the probe; checks each library came from where want says ('shim' or
    'debian'); returns its other lines."""
    status, out, err = run(args, env=env)
    check(status == 0, "%s: exit %d\n%s%s" % (" ".join(args[1:]), status, out, err))
    where, rest = origins(out)
    for what, side in want.items():
        got = where.get(what)
        check((got == shim) == (side == "shim"), "%s: %s came from %s, not the %s" % (args[1], what, got, side))
    return rest


def one_lib_dir(tmp, shim, soname):
    d = tempfile.mkdtemp(dir=tmp)
    os.symlink(os.path.join(shim, soname), os.path.join(d, soname))
    return d


def xvfb_setup(x):
    """The setup reply of a real server: a fake server replays it."""
    s = socket.socket(socket.AF_UNIX)
    s.connect("/tmp/.X11-unix/X%d" % x.number)
    s.sendall(b"l\0\x0b\0\0\0\0\0\0\0\0\0")
    head = s.recv(8, socket.MSG_WAITALL)
    body = s.recv(4 * int.from_bytes(head[6:8], "little"), socket.MSG_WAITALL)
    s.close()
    check(head[0] == 1, "Xvfb refused the setup")
    return head + body


def lying_server(sock, setup):
    """Answers the setup, then the first request with a reply 16 GiB long."""
    sock.recv(12, socket.MSG_WAITALL)
    sock.sendall(setup)
    sock.recv(4, socket.MSG_WAITALL)
    sock.sendall(bytes([1, 0, 1, 0]) + b"\xff\xff\xff\xff" + bytes(24))
    sock.recv(64)


BOTH = {"xcb_connect": "debian", "xcb_randr_get_screen_resources": "debian"}


def foreign(exe, shim, tmp, env, debian):
    core = one_lib_dir(tmp, shim, "libxcb.so.1")
    on_core = probe([exe, "randr"], dict(env, LD_LIBRARY_PATH=core), shim, dict(BOTH, xcb_connect="shim"))
    check(on_core == debian, "Debian's libxcb-randr on xwire's core:\n%s\nvs Debian:\n%s" % (on_core, debian))
    print("Debian's libxcb-randr on xwire's libxcb.so.1: %d lines as on Debian's" % len(debian))


def load(exe, shim, x, tmp, env, debian):
    foreign(exe, shim, tmp, env, debian)

    randr = one_lib_dir(tmp, shim, "libxcb-randr.so.0")
    status, out, err = run([exe, "randr"], env=dict(env, LD_LIBRARY_PATH=randr))
    check(status != 0 and "main" not in out, "xwire's libxcb-randr on Debian's core ran: %d %s" % (status, out))
    check("XWIRE_PRIVATE" in err and "libxcb-randr.so.0" in err, "load failure says: %s" % err)
    print("xwire's libxcb-randr on Debian's libxcb.so.1: exit %d before main: %s" % (
        status, err.strip().splitlines()[-1]))

    lazy = probe([exe, "dlopen", os.path.join(shim, "libxcb-randr.so.0")], env, shim, {"xcb_connect": "debian"})
    check("dlopen failed" in lazy and any("XWIRE_PRIVATE" in line for line in lazy), "dlopen: %s" % lazy)
    print("dlopen(RTLD_LAZY) of it there: %s" % lazy[-1])

    ours = dict(env, LD_LIBRARY_PATH=shim)
    all_xwire = probe([exe, "randr"], ours, shim, {k: "shim" for k in BOTH})
    check(all_xwire == debian, "xwire's family:\n%s\nvs Debian:\n%s" % (all_xwire, debian))
    print("xwire's libxcb and libxcb-randr: %d lines as on Debian's" % len(debian))

    fns = ["xcb_present_redirect_notify_sizeof", "xcb_input_device_time_coord_axisvalues",
           "xcb_dri3_buffers_from_pixmap_sizeof"]
    want = probe([exe, "compat"], env, shim, {f: "debian" for f in fns})
    got = probe([exe, "compat"], ours, shim, {f: "shim" for f in fns})
    check(got == want, "libxcb's forms:\n%s\nvs Debian:\n%s" % (got, want))
    print("\n".join(want[1:]))

    a, b = socket.socketpair()
    server = threading.Thread(target=lying_server, args=(a, xvfb_setup(x)), daemon=True)
    server.start()
    p = subprocess.run([exe, "conn-error", str(b.fileno())], env=ours, pass_fds=(b.fileno(),),
                       capture_output=True, text=True, timeout=60)
    b.close()
    server.join(10)
    a.close()
    where, rest = origins(p.stdout)
    check(where.get("xcb_connection_has_error") == shim, "conn-error ran on %s" % where)
    check(rest[1:] == ["after setup: 0", "after the reply: 1"], "a 16 GiB reply: %s %s" % (rest, p.stderr))
    print("a reply claiming 16 GiB: xcb_connection_has_error %s (XCB_CONN_ERROR)" % rest[-1].split()[-1])


def setup_server(sock, setup):
    """Answers the setup with the given bytes, then, if the client goes on, its
    first request (GetInputFocus) with a reply."""
    sock.recv(12, socket.MSG_WAITALL)
    sock.sendall(setup)
    if setup[0] in (0, 2):
        return
    if len(sock.recv(4, socket.MSG_WAITALL)) == 4:
        sock.sendall(bytes([1, 0, 1, 0]) + bytes(28))
    sock.recv(64)


def setup_answer(exe, env, setup):
    """The probe's lines and stderr after a setup answered with setup."""
    a, b = socket.socketpair()
    server = threading.Thread(target=setup_server, args=(a, setup), daemon=True)
    server.start()
    p = subprocess.run([exe, "setup", str(b.fileno())], env=env, pass_fds=(b.fileno(),),
                       capture_output=True, timeout=60)
    b.close()
    server.join(10)
    a.close()
    where, rest = origins(p.stdout.decode("latin-1"))
    return where.get("xcb_connect_to_fd"), rest, p.stderr


def setup_statuses(exe, shim, x, env):
    """Failed with a 4-byte reason and 2 KiB after it, Authenticate, and status 3 on
    Xvfb's real setup: xwire's libxcb writes and answers as Debian's does."""
    junk = bytes(range(256)) * 8
    failed = bytes([0, 4, 11, 0, 0, 0]) + ((4 + len(junk)) // 4).to_bytes(2, "little") + b"Nope" + junk
    auth = bytes([2, 0, 0, 0, 0, 0, 2, 0]) + b"Go away\0"
    odd = bytes([3]) + xvfb_setup(x)[1:]
    ours = dict(env, LD_LIBRARY_PATH=shim)
    for name, setup in (("failed", failed), ("authenticate", auth), ("status 3", odd)):
        debian_lib, want, want_err = setup_answer(exe, env, setup)
        xwire_lib, got, got_err = setup_answer(exe, ours, setup)
        check(xwire_lib == shim and debian_lib != shim, "setup %s ran on %s and %s" % (name, xwire_lib, debian_lib))
        check((got, got_err) == (want, want_err), "setup %s: xwire %r %r vs Debian %r %r" % (
            name, got, got_err, want, want_err))
        print("setup %s: %s, stderr %r, as on Debian's libxcb" % (name, ", ".join(want[1:]), want_err))


def mixed():
    exe, shim = sys.argv[1], os.path.realpath(sys.argv[2])
    with Xvfb() as x, tempfile.TemporaryDirectory() as tmp:
        env = x.env()
        debian = probe([exe, "randr"], env, shim, BOTH)
        check("RANDR present 1" in debian, "no RandR on Xvfb: %s" % debian)
        load(exe, shim, x, tmp, env, debian)
        setup_statuses(exe, shim, x, env)


main(mixed)
