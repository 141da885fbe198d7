# SPDX-License-Identifier: MIT
"""corpus_wait.py NAME SECONDS — prints the id of the viewable top-level window
whose WM_NAME is NAME, waiting for it at most SECONDS. A corpus driver: runs on
Debian's libxcb (python3-xcffib) and interns no atom (WM_NAME is predefined), so
the programs under test see the same atom numbers in every run."""
import sys
import time

import xcffib
import xcffib.xproto as xp


def find(conn, root, name):
    for w in conn.core.QueryTree(root).reply().children:
        attrs = conn.core.GetWindowAttributes(w).reply()
        if attrs.map_state != xp.MapState.Viewable:
            continue
        prop = conn.core.GetProperty(False, w, xp.Atom.WM_NAME, xp.Atom.STRING, 0, 256).reply()
        if bytes(prop.value.buf()).decode(errors="replace") == name:
            return w
    return None


def main():
    name, deadline = sys.argv[1], time.monotonic() + float(sys.argv[2])
    conn = xcffib.connect()
    root = conn.get_setup().roots[0].root
    while time.monotonic() < deadline:
        w = find(conn, root, name)
        if w is not None:
            print(hex(w))
            return 0
        time.sleep(0.05)
    print("corpus_wait: no viewable window named %r" % name, file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
