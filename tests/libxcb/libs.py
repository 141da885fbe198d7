# SPDX-License-Identifier: MIT
"""libs.py — Debian 12's libxcb family, as the libxcb/ build reproduces it: each
library's soname, and the descriptions whose bindings it carries."""

# soname => descriptions (libxcb.so.1 is the runtime plus these three)
FAMILY = {"libxcb.so.1": ["xproto", "bigreq", "xc_misc"]}
for _name in ["composite", "damage", "dpms", "dri2", "dri3", "glx", "present", "randr", "record", "render",
              "res", "screensaver", "shape", "shm", "xf86dri", "xfixes", "xinerama", "xinput", "xtest", "xv",
              "xvmc"]:
    FAMILY["libxcb-%s.so.0" % _name] = [_name]
FAMILY["libxcb-sync.so.1"] = ["sync"]
FAMILY["libxcb-xkb.so.1"] = ["xkb"]
