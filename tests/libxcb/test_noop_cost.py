# SPDX-License-Identifier: MIT
"""What libxcb's names cost on xwire's libxcb.so.1: instructions per NoOperation
(callgrind, inside the loop that sends them) of one program built against Debian's
<xcb/xcb.h> and run on xwire's libxcb family, against the same program built with
xwire's own names on libxwire. Issue 15 allows 3 more per request. Debian's libxcb
is measured too, for scale. Each figure is the difference of two runs (N2 and N1
requests) over N2 - N1, so the connection's fixed costs cancel.
usage: test_noop_cost.py NOOP_XCB NOOP_XW SHIM_DIR"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from xwrun import Xvfb, check, main  # noqa: E402

# meson puts the libraries a test depends on (this family) on LD_LIBRARY_PATH: never
# for Xvfb, which links libxcb, nor for a run meant to be on Debian's libxcb.
os.environ.pop("LD_LIBRARY_PATH", None)

N1, N2 = 20000, 120000
ALLOWED = 3.0


def instructions(exe, n, env, tmp):
    out = os.path.join(tmp, "callgrind.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--toggle-collect=noop_flood", exe, str(n)],
                       env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, "%s %d under callgrind: exit %d\n%s" % (exe, n, p.returncode, p.stderr[-2000:]))
    with open(out) as f:
        m = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M)
    check(m, "no totals in %s" % out)
    return int(m.group(1))


def per_request(exe, env, tmp):
    return (instructions(exe, N2, env, tmp) - instructions(exe, N1, env, tmp)) / (N2 - N1)


def cost():
    noop_xcb, noop_xw, shim = sys.argv[1:4]
    with Xvfb() as x, tempfile.TemporaryDirectory() as tmp:
        env = x.env()
        xw = per_request(noop_xw, env, tmp)
        on_shim = per_request(noop_xcb, dict(env, LD_LIBRARY_PATH=shim), tmp)
        libxcb = per_request(noop_xcb, env, tmp)
    print("instructions per NoOperation: xw_ names on libxwire %.2f, xcb_ names on xwire's libxcb.so.1 %.2f "
          "(%+.2f), Debian's libxcb %.2f" % (xw, on_shim, on_shim - xw, libxcb))
    check(on_shim - xw <= ALLOWED, "libxcb's names cost %.2f instructions more per request (at most %.0f)" % (
        on_shim - xw, ALLOWED))
    check(on_shim < libxcb, "xwire's libxcb.so.1 is no cheaper than Debian's: %.2f vs %.2f" % (on_shim, libxcb))


main(cost)
