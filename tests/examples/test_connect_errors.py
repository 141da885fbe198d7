# SPDX-License-Identifier: MIT
"""A failed connection prints xwire's connection error string, for every example:
no display at all, a display whose socket is missing, and a server that refuses
the client's authorization (none, or a wrong cookie). The right cookie connects,
so the refusals are the server's verdict on the cookie and nothing else."""
import argparse
import os
import re
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwrun import Xvfb, check, main, run  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--example", action="append", required=True, help="NAME=PATH")
args = ap.parse_args()
EXAMPLES = dict(e.split("=", 1) for e in args.example)


def expect_refusal(name, argv, env, reason):
    status, out, err = run(argv, env=env)
    check(status == 1, "%s exited with %d (want 1); stderr %r" % (name, status, err))
    check(re.fullmatch(r'%s: cannot connect( to "[^"]*")?: %s\n' % (name, re.escape(reason)), err),
          "%s: stderr %r, want the reason %r" % (name, err, reason))
    return err.strip()


def xauth_entry(family, address, number, data):
    """One Xauthority record: four counted strings after the family."""
    def counted(b):
        return struct.pack(">H", len(b)) + b
    return (struct.pack(">H", family) + counted(address) + counted(number) + counted(b"MIT-MAGIC-COOKIE-1") +
            counted(data))


def no_display_and_missing_socket():
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    free = next(n for n in range(4700, 4800) if not os.path.exists("/tmp/.X11-unix/X%d" % n))
    for name, path in sorted(EXAMPLES.items()):
        print(expect_refusal(name, [path], env, "no display name given and $DISPLAY is not set"))
        print(expect_refusal(name, [path], dict(env, DISPLAY=":%d" % free),
                             "connect to /tmp/.X11-unix/X%d: No such file or directory" % free))


def authorization():
    with tempfile.TemporaryDirectory() as tmp:
        cookie, wrong = os.urandom(16), os.urandom(16)
        server_auth = os.path.join(tmp, "server")
        with open(server_auth, "wb") as f:  # the server takes every cookie in its file
            f.write(xauth_entry(0xFFFF, b"", b"0", cookie))
        with Xvfb("-auth", server_auth) as x:
            files = {}
            for label, data in (("right", cookie), ("wrong", wrong)):
                files[label] = os.path.join(tmp, label)
                with open(files[label], "wb") as f:  # FamilyWild: any host, our display number
                    f.write(xauth_entry(0xFFFF, b"", str(x.number).encode(), data))
            status, out, err = run([EXAMPLES["xwinfo"]], env=x.env(XAUTHORITY=files["right"]))
            check(status == 0, "xwinfo with the right cookie: status %d, %s" % (status, err))
            print("right cookie: xwinfo connects")
            for name, path in sorted(EXAMPLES.items()):
                print(expect_refusal(name, [path], x.env(XAUTHORITY=os.path.join(tmp, "none")),
                                     "server refused: Authorization required, but no authorization protocol "
                                     "specified"))
                print(expect_refusal(name, [path], x.env(XAUTHORITY=files["wrong"]),
                                     "server refused: Invalid MIT-MAGIC-COOKIE-1 key"))


main(lambda: (no_display_and_missing_socket(), authorization()))
