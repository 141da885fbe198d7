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
import json
import os
import re
import subprocess
import sys
import tempfile
import time

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

# xtrace: "000:<:0001: 20: Request(98): QueryExtension name='BIG-REQUESTS'"
XT_REQ = re.compile(r"^(\d+):<:([0-9a-f]{4}):\s*(\d+): (?:(.+?)-)?Request\((\d+)(?:,(\d+))?\): (\S+) ?(.*)$")
XT_FIELD = re.compile(r"(?:^| )([A-Za-z][A-Za-z0-9 _-]*?)=('(?:[^'\\]|\\.)*'|\{[^}]*\}|[^ ]+)")


def norm_key(k):
    return re.sub(r"[ -]", "_", k).lower()


def xt_value(v):
    """A number (or a string) from xtrace's spelling of a value, None for lists."""
    if v.startswith("'"):
        return v[1:-1]
    if v.startswith("{"):
        return None
    m = re.match(r"^[A-Za-z_][\w]*\((0x[0-9a-f]+|-?\d+)\)$", v)  # name(0x01)
    if m:
        return int(m.group(1), 0)
    m = re.match(r"^(0x[0-9a-f]+|-?\d+)", v)  # 0x17("NAME"), 12, -3
    if m:
        return int(m.group(1), 0)
    return None


def read_xtrace(path):
    conns = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = XT_REQ.match(line.rstrip("\n"))
            if not m:
                continue
            conn, seq, _, ext, _, _, name, rest = m.groups()
            fields = {norm_key(k): xt_value(v) for k, v in XT_FIELD.findall(rest)}
            conns.setdefault(conn, []).append((int(seq, 16), ext, name, fields))
    return [conns[k] for k in sorted(conns)]


def read_xwire(path):
    conns = {}
    with open(path) as f:
        for line in f:
            o = json.loads(line)
            if o["kind"] != "request":
                continue
            name = o["name"].split(":")[-1]
            fields = {norm_key(k): v for k, v in o["fields"].items()}
            conns.setdefault(o["conn"], []).append((o["seq"] & 0xFFFF, name, fields))
    return [conns[k] for k in sorted(conns)]


def compare(case, xt, xw, report):
    problems, compared, unmatched, unknown = [], 0, 0, {}
    if len(xt) != len(xw):
        problems.append("connections: xtrace %d, xwire %d" % (len(xt), len(xw)))
    for a, b in zip(xt, xw):
        if len(a) != len(b):
            problems.append("requests: xtrace %d, xwire %d" % (len(a), len(b)))
        for (sa, ext, na, fa), (sb, nb, fb) in zip(a, b):
            if sa != sb:
                problems.append("sequence %d (xtrace) against %d (xwire) at %s" % (sa, sb, na))
                break
            if na == "UNKNOWN":
                unknown["%s:%s" % (ext, nb)] = unknown.get("%s:%s" % (ext, nb), 0) + 1
                continue
            if na != nb:
                problems.append("#%d: xtrace %s, xwire %s" % (sa, na, nb))
                continue
            for k, v in fa.items():
                if v is None:
                    continue
                if k not in fb or not isinstance(fb[k], (int, str)) or isinstance(fb[k], bool):
                    unmatched += 1  # xtrace's name for it is not the XML's
                    continue
                compared += 1
                if fb[k] != v:
                    problems.append("#%d %s %s: xtrace %r, xwire %r" % (sa, na, k, v, fb[k]))
    nreq = sum(len(c) for c in xw)
    report.append((case, nreq, compared, unmatched, problems, unknown))


def run_case(case, argv, shim, display, workdir, report):
    xt_path = os.path.join(workdir, case + ".xtrace")
    xw_path = os.path.join(workdir, case + ".xwire")
    fake = 4700 + os.getpid() % 500
    while os.path.exists("/tmp/.X11-unix/X%d" % fake) or os.path.exists("/tmp/.X%d-lock" % fake):
        fake += 1
    env = dict(os.environ)
    env.update({"XWIRE_TRACE": xw_path, "XWIRE_TRACE_FORMAT": "json", "XWIRE_TRACE_NUMBERS": "1",
                "XWIRE_TRACE_MAXLIST": "4"})
    subprocess.run(["xtrace", "-n", "-d", display, "-D", ":%d" % fake, "-o", xt_path, "--", "env",
                    "LD_LIBRARY_PATH=" + shim] + argv, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    compare(case, read_xtrace(xt_path), read_xwire(xw_path), report)


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
    unknown_all = {}
    for case, nreq, compared, unmatched, problems, unknown in report:
        print("%-10s %5d requests%s; %5d fields compared (%d named otherwise by xtrace), %d differ" %
              (case, nreq, ", same names, order and sequences" if not problems else " (see below)", compared,
               unmatched, len(problems)))
        for p in problems[:10]:
            print("    " + p)
        bad += len(problems)
        for k, v in unknown.items():
            unknown_all[k] = unknown_all.get(k, 0) + v
    if unknown_all:
        print("xwire decodes, xtrace leaves UNKNOWN: "
              + ", ".join("%s (%d)" % kv for kv in sorted(unknown_all.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
