# SPDX-License-Identifier: MIT
"""xwdraw under Xvfb: the picture is on the screen (xwd takes the screenshot,
xwd.py reads the pixels), it follows a resize, a key press redraws the text, q
quits, WM_DELETE_WINDOW quits, and a bad font is reported as X error text."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xwd  # noqa: E402
from xwrun import Client, Xvfb, check, main, poke, run  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--xwdraw", required=True)
ap.add_argument("--xwpoke", required=True)
ap.add_argument("--outdir", required=True)
args = ap.parse_args()

RED, GREEN, BLUE, MAGENTA = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 0, 255)
BLACK, WHITE = (0, 0, 0), (255, 255, 255)


def screenshot(x, win, name):
    path = os.path.join(args.outdir, name + ".xwd")
    status, out, err = run(["xwd", "-id", win, "-silent", "-out", path], env=x.env())
    check(status == 0, "xwd failed: %s" % err)
    image = xwd.read(path)
    xwd.write_png(image, os.path.join(args.outdir, name + ".png"))
    return image


def expect_pixels(image, expected, what):
    wrong = ["(%d,%d) is %s, not %s" % (px, py, image.rgb(px, py), rgb)
             for (px, py), rgb in expected.items() if image.rgb(px, py) != rgb]
    check(not wrong, "%s: %s" % (what, "; ".join(wrong)))
    print("%s: %d pixels as expected" % (what, len(expected)))


def text_box(image):
    """The pixels of the text line, to see that the text changed."""
    return [image.pixel(px, py) for py in range(186, 204) for px in range(120, 400)]


def drawing_resize_keys_q():
    with Xvfb() as x, Client([args.xwdraw], env=x.env()) as app:
        win = app.expect(r"^window (0x[0-9a-f]+)$").group(1)
        app.expect(r"^drawn 400x300$")
        first = screenshot(x, win, "xwdraw-400x300")
        check((first.width, first.height) == (400, 300), "screenshot is %dx%d" % (first.width, first.height))
        expect_pixels(first, {
            (80, 60): RED,          # inside the filled rectangle
            (160, 60): BLUE,        # on the 3-pixel outline
            (220, 60): WHITE,       # inside the outline
            (200, 130): GREEN,      # on the 5-pixel line
            (60, 200): MAGENTA,     # centre of the filled circle
            (60, 154): BLACK,       # the arc at 90 degrees
            (93, 233): WHITE,       # the arc's gap (270..360 degrees)
            (0, 150): BLACK, (399, 150): BLACK,  # the frame on the border
            (5, 5): WHITE,          # background
        }, "400x300 screenshot")
        black_text = sum(1 for p in text_box(first) if p == 0)
        check(black_text > 50, "the text line has %d black pixels" % black_text)

        poke(args.xwpoke, x, "resize", win, 520, 360)
        app.expect(r"^resize 520x360$")
        app.expect(r"^drawn 520x360$")
        big = screenshot(x, win, "xwdraw-520x360")
        expect_pixels(big, {
            (80, 60): RED, (490, 130): GREEN,   # the line now reaches w - 20
            (519, 200): BLACK, (260, 359): BLACK,  # the frame moved to the new border
            (399, 150): WHITE,                  # where the old frame was
        }, "520x360 screenshot after the resize")

        poke(args.xwpoke, x, "key", win, "a")
        app.expect(r"^key a$")
        app.expect(r"^drawn 520x360$")
        after_key = screenshot(x, win, "xwdraw-key-a")
        check(text_box(after_key) != text_box(big), "the text did not change after the key press")
        print("key a: the text line was redrawn")

        poke(args.xwpoke, x, "key", win, "q")
        app.expect(r"^quit: q$")
        app.exits_cleanly("q")


def wm_delete_window():
    with Xvfb() as x, Client([args.xwdraw], env=x.env()) as app:
        win = app.expect(r"^window (0x[0-9a-f]+)$").group(1)
        app.expect(r"^drawn ")
        poke(args.xwpoke, x, "close", win)
        app.expect(r"^quit: WM_DELETE_WINDOW$")
        app.exits_cleanly("WM_DELETE_WINDOW", quiet=False)
        print("WM_DELETE_WINDOW: clean exit")


def bad_font():
    with Xvfb() as x:
        status, out, err = run([args.xwdraw, "-fn", "no-such-font-xw"], env=x.env())
        check(status == 1, "xwdraw -fn no-such-font-xw exited with %d" % status)
        want = r'xwdraw: font "no-such-font-xw": BadName (15) in OpenFont (major 45, minor 0), resource 0x'
        check(err.startswith(want), "stderr was %r" % err)
        print("bad font:", err.strip())


main(lambda: (drawing_resize_keys_q(), wm_delete_window(), bad_font()))
