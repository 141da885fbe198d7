# SPDX-License-Identifier: MIT
"""xwev under Xvfb: input made with XTEST (pointer motion, a click, a key) and
plain requests (a property, a resize, WM_DELETE_WINDOW) come out as decoded
lines; the raw XI2 events with them, since Xvfb has XInput 2; a bad -id is
reported as X error text."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwrun import Client, Xvfb, check, main, poke, run  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--xwev", required=True)
ap.add_argument("--xwpoke", required=True)
args = ap.parse_args()


def show(m):
    print("  " + m.string)


def events():
    with Xvfb() as x, Client([args.xwev], env=x.env()) as ev:
        show(ev.expect(r"^XInput 2\.\d+: raw events from all master devices$"))
        win = ev.expect(r"^window (0x[0-9a-f]+)$").group(1)
        w = "window " + win
        show(ev.expect(r"^PropertyNotify %s atom 0x[0-9a-f]+ \(WM_NAME\) NewValue" % w))
        show(ev.expect(r"^MapNotify event %s %s$" % (win, w)))
        show(ev.expect(r"^Expose %s \(0,0\) 300x200 count 0$" % w))

        # The window is at (10,10) with a 1-pixel border: (50,40) inside is (61,51) on the root.
        poke(args.xwpoke, x, "motion", win, 50, 40)
        show(ev.expect(r"^EnterNotify %s \(50,40\) root \(61,51\) mode Normal detail (Ancestor|Nonlinear)$" % w))
        show(ev.expect(r"^MotionNotify %s state 0x0 \(50,40\) root \(61,51\) time \d+$" % w))

        poke(args.xwpoke, x, "click", win, 1, 60, 50)
        show(ev.expect(r"^XI_RawButtonPress device \d+ source \d+ detail 1 time \d+$"))
        show(ev.expect(r"^ButtonPress %s button 1 state 0x0 \(60,50\) root \(71,61\)" % w))
        # Button1Mask (0x100) is in the state of the release: the button was down.
        show(ev.expect(r"^ButtonRelease %s button 1 state 0x100 \(60,50\)" % w))

        poke(args.xwpoke, x, "key", win, "a")
        raw = ev.expect(r"^XI_RawKeyPress device \d+ source \d+ detail (\d+) time \d+$")
        show(raw)
        m = ev.expect(r"^KeyPress %s keycode (\d+) \(keysym 0x61, a\) state 0x0 \(5,5\) root \(16,16\)" % w)
        show(m)
        check(m.group(1) == raw.group(1), "KeyPress keycode %s, raw detail %s" % (m.group(1), raw.group(1)))
        show(ev.expect(r"^KeyRelease %s keycode %s \(keysym 0x61, a\)" % (w, m.group(1))))

        poke(args.xwpoke, x, "prop", win, "XW_TEST_PROPERTY", "hello")
        show(ev.expect(r"^PropertyNotify %s atom 0x[0-9a-f]+ \(XW_TEST_PROPERTY\) NewValue time \d+$" % w))

        poke(args.xwpoke, x, "resize", win, 320, 240)
        show(ev.expect(r"^ConfigureNotify %s \(10,10\) 320x240 border 1 above 0x0 override NO$" % w))

        poke(args.xwpoke, x, "close", win)
        show(ev.expect(r"^\(sent\) ClientMessage %s type 0x[0-9a-f]+ \(WM_PROTOCOLS\) format 32$" % w))
        ev.exits_cleanly("WM_DELETE_WINDOW")


def bad_window():
    with Xvfb() as x:
        status, out, err = run([args.xwev, "-id", "0x7654321"], env=x.env())
        check(status == 1, "xwev -id 0x7654321 exited with %d" % status)
        want = ("xwev: select events: BadWindow (3) in ChangeWindowAttributes (major 2, minor 0), "
                "resource 0x7654321\n")
        check(err == want, "stderr was %r" % err)
        print("bad -id:", err.strip())


main(lambda: (events(), bad_window()))
