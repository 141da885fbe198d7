# SPDX-License-Identifier: MIT
"""gtk_probe.py — a GTK 3 client for the corpus (python3-gi, Debian's /usr/bin/python3):
opens a window, puts text on the CLIPBOARD selection and reads it back through the
server, grabs a pixel of the root window, prints what it saw and quits."""
import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402


def main():
    win = Gtk.Window(title="corpus-gtk")
    win.set_default_size(200, 100)
    win.add(Gtk.Label(label="hello from gtk"))
    win.show_all()

    def got(clipboard, text):
        print("clipboard:", text)
        screen = Gdk.Screen.get_default()
        print("screen", screen.get_root_window().get_width(), screen.get_root_window().get_height(),
              screen.get_system_visual().get_depth())
        pix = Gdk.pixbuf_get_from_window(screen.get_root_window(), 600, 400, 4, 4)
        print("root pixel", list(pix.get_pixels()[:3]))
        Gtk.main_quit()

    def step():
        clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
        clipboard.set_text("gtk clipboard text", -1)
        clipboard.request_text(got)
        return False

    GLib.timeout_add(200, step)
    Gtk.main()
    win.destroy()
    print("done")


main()
