# SPDX-License-Identifier: MIT
"""trace_vs_xtrace.py — xwire's tracer checked against an outside decoder: Debian X
programs run on xwire's libxcb through xtrace with XWIRE_TRACE on at the same time, so
both see the same bytes. Per connection, the requests must be the same, in the same
order, under the same sequence numbers and names; wherever xtrace decodes a field that
xwire names alike (after a normaliser: lower case, '-' and ' ' as '_'), the values must
be equal. Requests xtrace leaves UNKNOWN are listed: what xwire decodes that xtrace
cannot.

  trace_vs_xtrace.py --shim DIR [CASE...]      (default: every case below)

Exit status 0 when everything compared agrees. Standard library only."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from tracecmp import Result, compare_files, trace_env

CASES = {
    "xdpyinfo": ["xdpyinfo", "-ext", "all"],
    "xwininfo": ["xwininfo", "-root", "-tree", "-all"],
    "xlsatoms": ["xlsatoms"],
    "xprop": ["xprop", "-root"],
    "xlsfonts": ["xlsfonts", "-l"],
    "xrandr": ["xrandr", "--query"],
    "xset": ["xset", "q"],
    "xmodmap": ["xmodmap", "-pke"],
    "xinput": ["xinput", "list", "--long"],
    "xvinfo": ["xvinfo"],
}


def run_case(case, argv, shim, display, workdir, report):
    xt_path = os.path.join(workdir, case + ".xtrace")
    xw_path = os.path.join(workdir, case + ".xwire")
    fake = 4700 + os.getpid() % 500
    while os.path.exists("/tmp/.X11-unix/X%d" % fake) or os.path.exists("/tmp/.X%d-lock" % fake):
        fake += 1
    env = dict(os.environ)
    env.update(trace_env(xw_path))
    subprocess.run(["xtrace", "-n", "-d", display, "-D", ":%d" % fake, "-o", xt_path, "--", "env",
                    "LD_LIBRARY_PATH=" + shim] + argv, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    report.append((case, compare_files(xt_path, xw_path)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    cases = a.cases or list(CASES)
    d = 4600 + os.getpid() % 90
    while os.path.exists("/tmp/.X11-unix/X%d" % d):
        d += 1
    xvfb = subprocess.Popen([os.environ.get("XVFB") or "Xvfb", ":%d" % d, "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    report = []
    try:
        for _ in range(100):
            if os.path.exists("/tmp/.X11-unix/X%d" % d):
                break
            time.sleep(0.05)
        with tempfile.TemporaryDirectory(prefix="trace-vs-xtrace-") as w:
            for case in cases:
                run_case(case, CASES[case], os.path.abspath(a.shim), ":%d" % d, w, report)
    finally:
        xvfb.terminate()
        xvfb.wait()
    bad = 0
    total = Result()
    for case, r in report:
        print(r.summary(case))
        for p in r.problems[:10]:
            print("    " + p)
        bad += len(r.problems)
        total.add(r)
    for line in total.notes("all"):
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
