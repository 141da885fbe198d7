# SPDX-License-Identifier: MIT
"""xcffib_probe.py — a python3-xcffib client for the corpus, run with Debian's
/usr/bin/python3: interns atoms, creates windows, writes and reads properties,
waits for the events that follow, and provokes errors both checked and as events.
Prints what it sees; the corpus compares the two sides' prints."""
import sys

import xcffib
import xcffib.xproto as xp


def main():
    conn = xcffib.connect()
    setup = conn.get_setup()
    screen = setup.roots[0]
    print("screens", len(setup.roots), "size", screen.width_in_pixels, screen.height_in_pixels)

    names = ["CORPUS_A", "CORPUS_B", "WM_NAME", "UTF8_STRING"]
    cookies = [conn.core.InternAtom(False, len(n), n) for n in names]
    atoms = [c.reply().atom for c in cookies]
    print("atoms", [a >= 1 for a in atoms], atoms[2])
    only = conn.core.InternAtom(True, 14, "CORPUS_MISSING").reply().atom
    print("only_if_exists", only)

    win = conn.generate_id()
    conn.core.CreateWindow(screen.root_depth, win, screen.root, 5, 6, 70, 40, 0, xp.WindowClass.InputOutput,
                           screen.root_visual, xp.CW.BackPixel | xp.CW.EventMask,
                           [screen.white_pixel, xp.EventMask.PropertyChange | xp.EventMask.StructureNotify])
    child = conn.generate_id()
    conn.core.CreateWindow(screen.root_depth, child, win, 1, 2, 10, 10, 0, xp.WindowClass.InputOutput,
                           screen.root_visual, 0, [])
    conn.core.MapWindow(win)
    data = "corpus probe"
    conn.core.ChangeProperty(xp.PropMode.Replace, win, atoms[0], xp.Atom.STRING, 8, len(data), data)
    conn.core.ChangeProperty(xp.PropMode.Replace, win, atoms[1], xp.Atom.CARDINAL, 32, 3, [7, 8, 9])
    conn.flush()

    seen = []
    while len(seen) < 3:
        ev = conn.wait_for_event()
        seen.append(type(ev).__name__)
        if isinstance(ev, xp.PropertyNotifyEvent):
            seen[-1] += "(%s)" % ("A" if ev.atom == atoms[0] else "B" if ev.atom == atoms[1] else ev.atom)
    print("events", seen)

    r = conn.core.GetProperty(False, win, atoms[0], xp.Atom.STRING, 0, 100).reply()
    print("prop A", r.format, r.type == xp.Atom.STRING, bytes(r.value.buf()).decode())
    r = conn.core.GetProperty(False, win, atoms[1], xp.Atom.CARDINAL, 0, 100).reply()
    print("prop B", r.format, list(r.value.to_atoms()))
    r = conn.core.GetProperty(False, win, atoms[1], xp.Atom.CARDINAL, 1, 1).reply()
    print("prop B part", list(r.value.to_atoms()), r.bytes_after)
    tree = conn.core.QueryTree(win).reply()
    print("tree", tree.parent == screen.root, [c == child for c in tree.children])
    geo = conn.core.GetGeometry(child).reply()
    print("geometry", geo.x, geo.y, geo.width, geo.height)

    try:
        conn.core.GetGeometry(0x1234567).reply()
        print("no error")
    except xp.DrawableError as e:
        print("checked error", type(e).__name__, hex(e.args[0].bad_value))
    try:
        conn.core.MapWindowChecked(0x7654321).check()
    except xp.WindowError as e:
        print("checked void error", type(e).__name__, hex(e.args[0].bad_value))
    conn.core.DestroyWindow(0x7654322)
    conn.core.GetInputFocus().reply()
    try:
        ev = conn.poll_for_event()
        print("event after error", type(ev).__name__)
    except xp.WindowError as e:
        print("unchecked error", type(e).__name__, hex(e.args[0].bad_value))

    conn.core.DestroyWindow(win)
    conn.flush()
    ev = conn.wait_for_event()
    while not isinstance(ev, xp.DestroyNotifyEvent):
        ev = conn.wait_for_event()
    print("destroyed", ev.window == child or ev.window == win)
    conn.disconnect()
    return 0


if __name__ == "__main__":
    sys.exit(main())
