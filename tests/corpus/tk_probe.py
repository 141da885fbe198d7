# SPDX-License-Identifier: MIT
"""tk_probe.py — a Tk client for the corpus (python3-tk, Debian's /usr/bin/python3):
opens a window with a label and a button, puts text on the CLIPBOARD and reads it,
asks the screen's geometry and the font families, and quits."""
import tkinter as tk


def main():
    root = tk.Tk(className="corpus-tk")
    root.title("corpus-tk")
    tk.Label(root, text="hello from tk").pack()
    tk.Button(root, text="quit", command=root.destroy).pack()

    def step():
        root.clipboard_clear()
        root.clipboard_append("tk clipboard text")
        print("clipboard:", root.clipboard_get())
        print("screen", root.winfo_screenwidth(), root.winfo_screenheight(), root.winfo_depth())
        print("fonts", len(root.tk.call("font", "families")) > 0)
        print("pointer", root.winfo_pointerxy())
        root.destroy()

    root.after(200, step)
    root.mainloop()
    print("done")


main()
