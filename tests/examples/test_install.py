# SPDX-License-Identifier: MIT
"""meson install into a staging directory, then two examples built out of tree
the way a user builds against an installed xwire: `pkg-config --cflags --libs
xwire` (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR pointing into the staging
copy) with the shared library, and `pkg-config --static` with libxwire.a. Both
programs run against Xvfb, the first loading the staged libxwire.so.1, and so does
the quick start program copied out of README.md."""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwrun import Xvfb, check, main, run  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--meson", required=True)
ap.add_argument("--builddir", required=True)
ap.add_argument("--examples", required=True, help="the examples' source directory")
ap.add_argument("--cc", required=True, help="the compiler command, as meson runs it")
ap.add_argument("--readme", required=True)
ap.add_argument("--sanitize", default="none", help="meson's b_sanitize")
ap.add_argument("--libxcb", default="false", help="meson's libxcb option: the libxcb family and xwire-run")
args = ap.parse_args()

work = os.path.join(args.builddir, "tests", "examples", "install-test")
stage = os.path.join(work, "stage")


def sh(argv, env=None):
    p = subprocess.run(argv, env=env, capture_output=True, text=True)
    check(p.returncode == 0, "%s failed (%d):\n%s%s" % (" ".join(argv), p.returncode, p.stdout, p.stderr))
    return p.stdout


def install():
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sh([args.meson, "install", "-C", args.builddir, "--destdir", stage, "--no-rebuild", "--quiet"])
    pcs = glob.glob(os.path.join(stage, "**", "pkgconfig", "xwire.pc"), recursive=True)
    check(len(pcs) == 1, "xwire.pc installed %d times" % len(pcs))
    libdir = os.path.dirname(os.path.dirname(pcs[0]))
    incdir = glob.glob(os.path.join(stage, "**", "include", "xw"), recursive=True)
    check(len(incdir) == 1, "include/xw found %d times" % len(incdir))
    # libxwire's own headers, and libxwire-util's (named xw_<helper>.h after xcb-util's).
    everything = sorted(os.listdir(incdir[0]))
    util = [h for h in everything if h.startswith("xw_")]
    # libxwire-xcb's one header
    headers = [h for h in everything if h not in util and h != "xw-xcb.h"]
    check("xw-xcb.h" in everything, "include/xw/xw-xcb.h (libxwire-xcb) is not installed")
    check(os.path.exists(os.path.join(os.path.dirname(pcs[0]), "xwire-xcb.pc")), "no xwire-xcb.pc")
    for h in ("xw.h", "xwext.h", "xwborrow.h", "xproto.h", "xinput.h", "xtest.h", "randr.h"):
        check(h in headers, "include/xw/%s is not installed" % h)
    check(len(headers) == 35, "%d headers in include/xw (want 32 generated + 3)" % len(headers))
    # the generated private headers (walkers and putters) stay in the build tree
    check(not [h for h in headers if h.endswith("_priv.h")], "a private header is installed")
    check("xw_aux.h" in util, "include/xw/xw_aux.h (libxwire-util) is not installed")
    check(os.path.exists(os.path.join(os.path.dirname(pcs[0]), "xwire-util.pc")), "no xwire-util.pc")
    # man pages: the generated ones (a page or a .so alias per function) and the helper families'
    man3 = glob.glob(os.path.join(stage, "**", "man", "man3"), recursive=True)
    check(len(man3) == 1, "share/man/man3 found %d times" % len(man3))
    pages = set(os.listdir(man3[0]))
    built = set(os.listdir(os.path.join(args.builddir, "xproto", "man3")))
    check(built <= pages, "%d generated man pages are not installed" % len(built - pages))
    check({"xw_intern_atom.3", "xw_intern_atom_reply.3", "xw_aux.3", "xw_ewmh.3"} <= pages, "man pages missing")
    print("installed: %d man pages in share/man/man3" % len(pages))
    check(os.readlink(os.path.join(libdir, "libxwire.so")) == "libxwire.so.1", "libxwire.so symlink")
    check(os.path.exists(os.path.join(libdir, "libxwire.a")), "no libxwire.a")
    print("installed: %d headers in include/xw, libxwire.so -> libxwire.so.1, libxwire.a, xwire.pc; "
          "%d libxwire-util headers, xwire-util.pc" % (len(headers), len(util)))
    return os.path.dirname(pcs[0]), libdir


def libxcb_family(libdir):
    """xwire's libxcb family in <libdir>/xwire/xcb (nothing named libxcb in libdir
    itself), and xwire-run in bindir pointing there; run on the stage through
    XWIRE_XCB_DIR, a libxcb program loads the staged libxcb.so.1."""
    shim = os.path.join(libdir, "xwire", "xcb")
    check(os.path.exists(os.path.join(shim, "libxcb.so.1")), "no xwire/xcb/libxcb.so.1 in %s" % libdir)
    libs = sorted(f for f in os.listdir(shim) if re.match(r"libxcb.*\.so\.\d+$", f))
    check(len(libs) == 24, "%d libraries in xwire/xcb: %s" % (len(libs), libs))
    check(not glob.glob(os.path.join(libdir, "libxcb*")), "something named libxcb installed in %s" % libdir)
    runs = glob.glob(os.path.join(stage, "**", "bin", "xwire-run"), recursive=True)
    check(len(runs) == 1 and os.access(runs[0], os.X_OK), "xwire-run installed: %s" % runs)
    with open(runs[0]) as f:
        check("XWIRE_XCB_DIR:-%s}" % shim[len(stage):] in f.read(), "xwire-run does not point at %s" % shim)
    print("installed: %d libxcb libraries in %s, xwire-run" % (len(libs), shim[len(stage):]))
    if args.sanitize != "none":
        return
    with Xvfb() as x:
        status, out, err = run([runs[0], "xlsatoms", "-range", "1-1"], env=x.env(XWIRE_XCB_DIR=shim, LD_DEBUG="libs"))
        check(status == 0 and out == "1\tPRIMARY\n", "staged xwire-run xlsatoms: %d %r" % (status, out))
        check("calling init: %s" % os.path.join(shim, "libxcb.so.1") in err, "the staged libxcb.so.1 not loaded")
    print("staged xwire-run xlsatoms loads the staged libxcb.so.1")


def pkg_config(pcdir, *what, package="xwire"):
    env = dict(os.environ, PKG_CONFIG_PATH=pcdir, PKG_CONFIG_SYSROOT_DIR=stage)
    env.pop("PKG_CONFIG_LIBDIR", None)
    return shlex.split(sh(["pkg-config"] + list(what) + [package], env=env))


# A user of libxwire-util: the root visual's depth through xw_aux.h, then a sync.
UTIL_PROGRAM = r"""
#include <stdio.h>
#include <xw/xw_aux.h>
int main(void)
{
    xw_connection_t *c = xw_connect(NULL, NULL);
    xw_screen_t *s = xw_aux_get_screen(c, 0);
    if (xw_connection_has_error(c) || !s)
        return 1;
    xw_aux_sync(c);
    printf("depth %u, visual %s\n", xw_aux_get_depth(c, s),
           xw_aux_find_visual_by_id(s, s->root_visual) ? "found" : "missing");
    xw_disconnect(c);
    return 0;
}
"""


def compile_and_run(pcdir, libdir):
    cc = shlex.split(args.cc)
    flags = ["-std=c11", "-D_GNU_SOURCE", "-Wall", "-Wextra", "-Werror", "-O1", "-g"]
    if args.sanitize not in ("", "none"):
        flags.append("-fsanitize=" + args.sanitize)
    ex = args.examples
    cflags_libs = pkg_config(pcdir, "--cflags", "--libs")
    check(any(f.startswith("-I" + stage) for f in cflags_libs), "pkg-config gave no -I into the stage: %s" %
          cflags_libs)
    shared = os.path.join(work, "xwev-installed")
    sh(cc + flags + ["-o", shared, os.path.join(ex, "xwev.c"), os.path.join(ex, "exutil.c")] + cflags_libs)
    needed = sh(["readelf", "-d", shared])
    check("[libxwire.so.1]" in needed, "xwev-installed does not need libxwire.so.1")

    # Static: the archive in place of -lxwire, the rest (-pthread, -lXau) from --static.
    static_libs = [os.path.join(libdir, "libxwire.a") if f == "-lxwire" else f
                   for f in pkg_config(pcdir, "--cflags", "--static", "--libs")]
    static = os.path.join(work, "xwinfo-static")
    sh(cc + flags + ["-o", static, os.path.join(ex, "xwinfo.c"), os.path.join(ex, "exutil.c")] + static_libs)
    check("libxwire" not in sh(["readelf", "-d", static]), "xwinfo-static still needs libxwire")
    # The quick start program, as the README shows it.
    with open(args.readme) as f:
        readme = f.read()
    code = re.search(r"## Quick start\n+```c\n(.*?)```", readme, re.S)
    check(code, "no C block under \"## Quick start\" in the README")
    hello = os.path.join(work, "hello.c")
    with open(hello, "w") as f:
        f.write(code.group(1))
    quick = os.path.join(work, "hello")
    sh(cc + flags + ["-o", quick, hello] + cflags_libs)
    util_src = os.path.join(work, "util.c")
    with open(util_src, "w") as f:
        f.write(UTIL_PROGRAM)
    util_prog = os.path.join(work, "util")
    sh(cc + flags + ["-o", util_prog, util_src] + pkg_config(pcdir, "--cflags", "--libs", package="xwire-util"))
    check("[libxwire-util.so.1]" in sh(["readelf", "-d", util_prog]), "util does not need libxwire-util.so.1")
    print("built out of tree: xwev (shared), xwinfo (static), the README's hello.c, a libxwire-util user")

    env_shared = dict(os.environ, LD_LIBRARY_PATH=libdir)
    trace = sh([shared], env=dict(env_shared, LD_TRACE_LOADED_OBJECTS="1"))
    loaded = [line for line in trace.splitlines() if "libxwire.so.1" in line]
    check(loaded and os.path.join(libdir, "libxwire.so.1") in loaded[0], "loads: %s" % loaded)
    print("xwev-installed loads", loaded[0].split("=>")[1].split("(")[0].strip())
    with Xvfb() as x:
        status, out, err = run([static], env=x.env())
        check(status == 0 and out.startswith("name of display:    %s\n" % x.name), "xwinfo-static: %d %r" %
              (status, err))
        status, out, err = run([shared, "-id", "0x7654321"], env=x.env(LD_LIBRARY_PATH=libdir))
        check(status == 1 and "BadWindow (3) in ChangeWindowAttributes" in err, "xwev-installed: %d %r" %
              (status, err))
        status, out, err = run([quick], env=x.env(LD_LIBRARY_PATH=libdir))
        want = ("WM_CLASS is atom 67\nexposed\n"
                "BadWindow (3) in MapWindow (major 8, minor 0), resource 0x123\n")
        check(status == 0 and out == want, "README's hello.c: %d %r %r" % (status, out, err))
        status, out, err = run([util_prog], env=x.env(LD_LIBRARY_PATH=libdir))
        check(status == 0 and out == "depth 24, visual found\n", "libxwire-util user: %d %r %r" % (status, out, err))
    print("both run against Xvfb, and so does the README's quick start program")


def test():
    pcdir, libdir = install()
    if args.libxcb == "true":
        libxcb_family(libdir)
    compile_and_run(pcdir, libdir)


main(test)
