# SPDX-License-Identifier: MIT
"""corpus.py — unmodified Debian X programs run twice, each time on its own fresh
Xvfb and through xtrace: once on Debian's libxcb, once with LD_LIBRARY_PATH on
xwire's libxcb family. What each program prints (normalised where it varies from
run to run) and the requests of its conversation must agree.

  corpus.py --shim DIR --xwpoke PATH [--keep DIR] CASE...   (or --list)

Exit status 0 when every case agrees, 1 otherwise (with the differences), and 1,
never 77, when the shim directory or a program is missing: a corpus that did not
run has not passed. Drivers that act as the user or the window manager (xwpoke,
xlogo as a window to look at) always run on Debian's libraries; only the program
under test runs on the side being tested. Standard library only."""
import argparse
import difflib
import hashlib
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples"))
from xwrun import Fail, Xvfb, check  # noqa: E402
from tracecmp import Result, compare_files, trace_env  # noqa: E402

SIDES = ("libxcb", "xwire")


# ---- xtrace's listening display ----

def fake_display_acquire():
    """A display number no X server uses (xtrace has no -displayfd), claimed with
    an X-style lock file so parallel cases never share one."""
    for i in range(400):
        d = 4000 + (os.getpid() * 7 + i * 13) % 2000
        if os.path.lexists("/tmp/.X11-unix/X%d" % d):
            continue
        try:
            fd = os.open("/tmp/.X%d-lock" % d, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
        except FileExistsError:
            continue
        os.write(fd, b"%10d\n" % os.getpid())
        os.close(fd)
        return d
    raise Fail("no free display number for xtrace")


def fake_display_release(d):
    for path in ("/tmp/.X11-unix/X%d" % d, "/tmp/.X%d-lock" % d):
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass


# ---- one side's run of one case ----

class Traced:
    """A program under test started through xtrace (its own process group, so
    a timeout also ends what it started)."""

    def __init__(self, run, args, stdin, name):
        self.run = run
        self.fake = fake_display_acquire()
        self.trace = os.path.join(run.dir, "%s.trace" % name)
        self.xwtrace = os.path.join(run.dir, "%s.xwire.json" % name)
        self.outpath = os.path.join(run.dir, "%s.out" % name)
        self.errpath = os.path.join(run.dir, "%s.err" % name)
        self.statuspath = os.path.join(run.dir, "%s.status" % name)
        # xtrace's own exit status is not the program's: a shell between them keeps that.
        argv = [run.tools["xtrace"], "-n", "-d", run.x.name, "-D", ":%d" % self.fake, "-o", self.trace, "--",
                "sh", "-c", 'env "$@"; echo $? > "$0"', self.statuspath] + run.lib_env(self.xwtrace) + \
            [a.replace("@DISPLAY@", ":%d" % self.fake) for a in args]
        with open(self.outpath, "wb") as out, open(self.errpath, "wb") as err:
            self.proc = subprocess.Popen(argv, env=run.env(), stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                         stdout=out, stderr=err, start_new_session=True, cwd=run.dir)
        if stdin:
            self.proc.stdin.write(stdin.encode())
            self.proc.stdin.close()
        run.traces.append((self.trace, self.xwtrace))
        self.status = None

    def wait(self, timeout):
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise Fail("%s did not finish within %ds" % (os.path.basename(self.trace), timeout))
        finally:
            fake_display_release(self.fake)
        try:
            with open(self.statuspath) as f:
                self.status = int(f.read())
        except (OSError, ValueError):
            raise Fail("%s: no exit status (xtrace exited with %d)" % (self.statuspath, self.proc.returncode))
        return self.status

    def output(self):
        with open(self.outpath, "rb") as f:
            return f.read()

    def errors(self):
        with open(self.errpath, "rb") as f:
            return f.read().decode(errors="replace")

    def kill(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        fake_display_release(self.fake)


class Run:
    """One side (libxcb or xwire) of one case: a fresh Xvfb, the programs under
    test on that side's libraries, and what they showed."""

    def __init__(self, side, shim, tools, workdir, screens=None, trace_check=False):
        self.side = side
        self.screens = screens
        self.shim = shim
        self.tools = tools
        # Both sides run in the same directory (renamed after each), so that paths
        # the programs put on the wire (xterm's command, i3's socket) agree.
        self.dir = os.path.join(workdir, "run")
        self.final = os.path.join(workdir, side)
        os.makedirs(self.dir)
        self.seen = {}      # what is compared: key -> text
        self.traces = []    # (xtrace log, xwire trace), in the order their programs started
        self.trace_check = trace_check
        self.children = []  # drivers and traced programs to end on the way out
        self.count = 0
        self.x = None

    def __enter__(self):
        self.x = Xvfb(screens=self.screens) if self.screens else Xvfb()
        return self

    def __exit__(self, *exc):
        for child in self.children:
            child.kill()
        self.x.stop()
        self.libs = self.loaded()
        os.rename(self.dir, self.final)
        self.traces = [tuple(p.replace(self.dir, self.final, 1) for p in t) for t in self.traces]

    def env(self, **more):
        """The environment without the shim: drivers and xtrace itself."""
        e = self.x.env(**more)
        e.pop("LD_LIBRARY_PATH", None)
        e.pop("LD_PRELOAD", None)
        e["HOME"] = self.dir
        e["LC_ALL"] = "C"
        return e

    def lib_env(self, xwtrace=None):
        """env(1) arguments that put the program under test on this side, and have
        the loader note which libxcb.so.1 each of its processes runs on; on xwire,
        with xwtrace, xwire's tracer writes there too, to be checked against xtrace."""
        debug = ["LD_DEBUG=libs", "LD_DEBUG_OUTPUT=" + os.path.join(self.dir, "ld")]
        if self.side != "xwire":
            return debug
        tr = ["%s=%s" % kv for kv in trace_env(xwtrace).items()] if xwtrace and self.trace_check else []
        return debug + tr + ["LD_LIBRARY_PATH=" + self.shim]

    def loaded(self):
        """The libxcb.so.1 files the programs under test ran on (from the loader's notes)."""
        found = set()
        for f in os.listdir(self.dir):
            if f.startswith("ld."):
                with open(os.path.join(self.dir, f), errors="replace") as log:
                    found |= set(re.findall(r"calling init: (\S*/libxcb\.so\.1)$", log.read(), re.M))
        return {os.path.realpath(p) for p in found}

    def name(self, base):
        self.count += 1
        return "%02d-%s" % (self.count, re.sub(r"[^A-Za-z0-9_.-]", "_", base))

    def start(self, args, stdin=None):
        """A program under test, through xtrace, in the background."""
        check(shutil.which(args[0]), "%s is not installed (scripts/deps.sh installs it)" % args[0])
        t = Traced(self, args, stdin, self.name(os.path.basename(args[0])))
        self.children.append(t)
        return t

    def traced(self, args, stdin=None, timeout=120):
        """A program under test, through xtrace, to completion: (status, stdout bytes)."""
        t = self.start(args, stdin)
        status = t.wait(timeout)
        return status, t.output()

    def untraced(self, args, timeout=120):
        """A program under test on this side without xtrace: (status, stdout bytes)."""
        check(shutil.which(args[0]), "%s is not installed (scripts/deps.sh installs it)" % args[0])
        p = subprocess.run(["env"] + self.lib_env() + list(args), env=self.env(), stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=timeout, cwd=self.dir)
        return p.returncode, p.stdout

    def driver(self, args, timeout=30):
        """A helper on Debian's libraries (never traced, never the shim); must succeed."""
        args = [str(a) for a in args]
        p = subprocess.run(args, env=self.env(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout, cwd=self.dir)
        check(p.returncode == 0, "driver %s failed (%d): %s" % (" ".join(args), p.returncode, p.stderr))
        return p.stdout

    def background_driver(self, args):
        p = subprocess.Popen(args, env=self.env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, cwd=self.dir)
        self.children.append(_Proc(p))
        return p

    def record(self, key, text):
        self.seen[key] = text

    def xlogo(self):
        """A window to look at, owned by a driver client (the server's first)."""
        self.background_driver(["xlogo", "-geometry", "120x90+10+20", "-name", "corpus-logo"])
        return self.window("corpus-logo")

    def window(self, name, timeout=20):
        """The id of the top-level window named name, once it is mapped (asked by
        a driver that interns no atom, so that atom numbers stay the same run to run)."""
        return self.driver(["/usr/bin/python3", os.path.join(HERE, "corpus_wait.py"), name, str(timeout)],
                           timeout=timeout + 10).strip()


class _Proc:
    def __init__(self, p):
        self.p = p

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


# ---- normalising what varies ----

def text(b):
    return b.decode(errors="replace") if isinstance(b, bytes) else b


def displays(s):
    """Display names: every run has its own Xvfb and xtrace display."""
    return re.sub(r"(?<![\w.]):\d+(\.\d+)?\b", ":D", s)


def rebase(s, bases=None):
    """Resource ids by client, in order of appearance: a client's id base is its
    slot in the server, which depends on when the drivers' connections (waiting
    for a window) came and went. The low bits, the resource itself, stay."""
    bases = {} if bases is None else bases

    def sub(m):
        v = int(m.group(0), 16)
        base = v & ~0x1FFFFF
        bases.setdefault(base, "C%d" % len(bases))
        return "%s+%x" % (bases[base], v & 0x1FFFFF)
    return re.sub(r"\b0x0*[0-9a-f]{6,7}\b(?<!0x0{6})", lambda m: sub(m) if 0x200000 <= int(m.group(0), 16) < 1 << 29
                  else m.group(0), s)


def hexids_from(s, pattern):
    """Renames the hex ids matched by pattern's group 1 in order of first appearance."""
    names = {}

    def sub(m):
        v = m.group(1)
        names.setdefault(v, "ID%d" % len(names))
        return m.group(0).replace(v, names[v])
    return re.sub(pattern, sub, s)


# ---- xtrace logs ----

# Requests whose placement the issue lets differ: extension queries (with
# BIG-REQUESTS' Enable) and GetInputFocus, the round trip libraries sync with.
PLACEMENT_FREE = {"QueryExtension", "GetInputFocus", "Enable"}
TIMING_NOTES = ("Warning: Waiting for rest of package", "Warning: buffer filled!", "still waiting for reply to seq=")
REQ = re.compile(r"^(\d+):<:[0-9a-f]{4,}:\s*(\d+): (.*?Request\([^)]*\)): (\S+)(.*)$")


def bytes_text(m):
    """A byte list as xtrace prints it (0x2f,0x74,...) as text, for normalising."""
    return "data='%s'" % bytes(int(b, 16) for b in m.group(1).split(",")).decode("latin-1")


# Pixel values are colours, not resource ids: rebase leaves them alone (a colour
# such as 0xca658c would otherwise be named after whichever client's id base it
# shares, and that depends on the order clients connected in).
PIXELS = re.compile(r"\b((?:[\w-]*pixels?|foreground|background)=)((?:0x[0-9a-f]+[,;]?)+)")


def guard_pixels(s):
    return PIXELS.sub(lambda m: m.group(1) + m.group(2).replace("0x", "#x"), s)


def unguard(s):
    return s.replace("#x", "0x")


def read_trace(path, tnorm=None):
    """Per connection, its requests as 'length name values' (sequence numbers and
    timestamps out; a request xtrace decoded from a full buffer, possibly cut,
    by length and name only), extension queries and syncs aside."""
    conns = {}
    bases = {}
    cut = False
    try:
        f = open(path, errors="replace")
    except FileNotFoundError:
        return {}
    with f:
        for line in f:
            line = line.rstrip("\n")
            if any(n in line for n in TIMING_NOTES):
                cut |= "buffer filled" in line
                continue
            m = REQ.match(line)
            if not m:
                continue
            conn, length, _, name, rest = m.groups()
            was_cut, cut = cut, False
            if name in PLACEMENT_FREE:
                continue
            rest = re.sub(r"(\w*time\w*)=[^ ,}]+", r"\1=T", rest)
            rest = re.sub(r"\bshmid=0x[0-9a-f]+", "shmid=?", rest)  # the kernel's numbering
            rest = re.sub(r"(0x[0-9a-f]+)\(\"[^\"]*\"\)", r"\1", rest)  # xtrace's atom names follow its timing
            rest = "" if was_cut else unguard(rebase(guard_pixels(
                re.sub(r"\bdata=((?:0x[0-9a-f]{2},)+0x[0-9a-f]{2});", bytes_text, rest)), bases))
            for pattern, repl in tnorm or ():
                rest = re.sub(pattern, repl, rest)
            # xtrace sometimes decodes a request from its first bytes only, with or
            # without "buffer filled!" before it: nothing after the name.
            partial = was_cut or (not rest.strip() and int(length) > 4)
            conns.setdefault(conn, []).append("%s%s %s%s" % ("~" if partial else "", length, name, rest))
    return [conns[k] for k in sorted(conns)]


def head(entry):
    return " ".join(entry.lstrip("~").split(" ")[:2])


def excuse_partial(a, b):
    """Where one side's entry was decoded from part of its bytes, compares both
    entries by length and name only (lists of unequal length stay as they are)."""
    for ca, cb in zip(a, b):
        for conn_a, conn_b in zip(ca, cb):
            if len(conn_a) != len(conn_b):
                continue
            for i, (x, y) in enumerate(zip(conn_a, conn_b)):
                if x != y and (x[0] == "~" or y[0] == "~"):
                    conn_a[i], conn_b[i] = head(x), head(y)
                else:
                    conn_a[i], conn_b[i] = x.lstrip("~"), y.lstrip("~")


def trace_view(conns, mode):
    """What of a conversation is compared: 'requests' (every request in order),
    'collapsed' (in order, runs of one repeated request as one: how often a timer
    fired is not the library's business), 'names' (distinct request names),
    'names-untimed' (the same without NoOperation, which a toolkit's timers send)."""
    if mode == "requests":
        return conns
    if mode == "heads":
        return [[head(r) for r in reqs] for reqs in conns]
    if mode == "collapsed":
        out = []
        for reqs in conns:
            c = []
            for r in reqs:
                # xtrace sometimes prints a request it decoded from part of its bytes
                # ("~") and then the whole of it again: one entry, as in a run.
                if c and c[-1][0] == "~" and head(c[-1]) == head(r):
                    c[-1] = r
                elif not c or (c[-1] != r and not (r[0] == "~" and head(r) == head(c[-1]))):
                    c.append(r)
            out.append(c)
        return out
    if mode == "names":
        return [sorted({head(r).split(" ")[1] for r in reqs}) for reqs in conns]
    if mode == "names-untimed":
        return [sorted({head(r).split(" ")[1] for r in reqs} - {"NoOperation"}) for reqs in conns]
    if mode == "startup":
        out = []
        for reqs in conns:
            maps = [i for i, r in enumerate(reqs) if head(r).split(" ")[1] in ("MapWindow", "MapSubwindows")]
            out.append(reqs[:maps[0] + 1] if maps else reqs)
        return out
    if mode == "none":
        return []
    raise ValueError(mode)


def flatten(traces):
    """Every trace's connections as one list of lines, each connection headed."""
    return [ln for t in traces for conn in t for ln in ["-- connection"] + list(conn)]


def diff(a, b, what):
    lines = list(difflib.unified_diff(a, b, "libxcb", "xwire", lineterm="", n=2))
    more = len(lines) - 40
    return "%s differs:\n  %s%s" % (what, "\n  ".join(lines[:40]), "\n  ... %d more" % more if more > 0 else "")


# ---- the cases ----
#
# Each case is a function of one Run that runs its programs and records what is
# compared; CASES maps its name to (function, trace mode, what is compared).

def simple(args, norm=None):
    def case(run):
        status, out = run.traced(args)
        s = displays(text(out))
        run.record("exit status", str(status))
        run.record("stdout", norm(s) if norm else s)
    return case


def with_logo(args):
    def case(run):
        run.xlogo()
        simple(args, norm=rebase)(run)
    return case


def case_xev(run):
    xev = run.start(["xev", "-geometry", "200x150+0+0", "-name", "corpus-xev"])
    win = run.window("corpus-xev")
    poke = run.tools["xwpoke"]
    run.driver([poke, "motion", win, 20, 30])
    run.driver([poke, "click", win, 1, 40, 50])
    run.driver([poke, "key", win, "a", "Return"])
    run.driver([poke, "prop", win, "CORPUS_PROP", "changed"])
    run.driver([poke, "prop", win, "CORPUS_DONE", "done"])
    deadline = time.monotonic() + 20
    while b"CORPUS_DONE" not in xev.output() and time.monotonic() < deadline:
        time.sleep(0.05)
    run.driver([poke, "close", win])
    run.record("exit status", str(xev.wait(20)))
    out = re.sub(r"\btime \d+", "time T", text(xev.output()))
    # An event's serial is the last request the server had read when it made the
    # event: whether xev's XKB requests (sent when it looks up a key) came before the
    # driver's property changes is a race. Xlib leaves KeymapNotify's key_vector[0]
    # unset (the wire has no byte for it), so xev prints whatever was there.
    out = re.sub(r"\bserial \d+", "serial S", out)
    out = re.sub(r"(?m)^(    keys:  )\d+ *", r"\1? ", out)
    run.record("stdout", hexids_from(out, r"\b(0x[0-9a-f]{5,})\b"))


def case_xrdb(run):
    res = os.path.join(HERE, "resources")
    s1, _ = run.traced(["xrdb", "-merge", res])
    s2, out = run.traced(["xrdb", "-query"])
    run.record("exit status", "%d %d" % (s1, s2))
    run.record("stdout", text(out))


def xwd_unpadded(dump):
    """An xwd dump with the pad byte of each colour entry zeroed: xwd leaves it
    uninitialised, so it holds whatever the stack held (seen changing when xwire's
    tracer had run on the same stack)."""
    if len(dump) < 80:
        return dump
    header, ncolors = struct.unpack(">I", dump[:4])[0], struct.unpack(">I", dump[76:80])[0]
    b = bytearray(dump)
    for i in range(ncolors):
        pad = header + 12 * i + 11
        if pad < len(b):
            b[pad] = 0
    return bytes(b)


def case_xwd(run):
    run.xlogo()
    status, out = run.traced(["xwd", "-root", "-silent"])
    out = xwd_unpadded(out)
    run.record("exit status", str(status))
    run.record("image", "%d bytes, sha256 %s" % (len(out), hashlib.sha256(out).hexdigest()))


def case_xeyes(run):
    eyes = run.start(["xeyes", "-geometry", "100x100+0+0", "-name", "corpus-eyes"])
    win = run.window("corpus-eyes")
    run.driver([run.tools["xwpoke"], "motion", win, 10, 10])
    time.sleep(0.3)
    run.driver([run.tools["xwpoke"], "close", win])
    run.record("exit status", str(eyes.wait(20)))
    run.record("stderr", eyes.errors())


# x11perf's window is 600×600: on the corpus's usual 640×480 screen part of it is
# off screen and GetImage fails with BadMatch on either library, so this case has a
# screen it fits on (SCREENS).
def case_x11perf(run):
    status, out = run.traced(["x11perf", "-repeat", "1", "-time", "1", "-noop", "-dot", "-rect10", "-prop",
                              "-getimage10", "-ucirculate", "-pointer"])
    run.record("exit status", str(status))
    # Rates and repetition counts follow the clock; the tests run and their order do not.
    run.record("tests", "\n".join(m.group(1) for m in re.finditer(r"^\s*[\d.]+ reps @.*?\(\s*[\d.]+/sec\): (.*)$",
                                                                   text(out), re.M)))


RENDER_TESTS = "fill,dcoords,scoords,mcoords,tscoords,tmcoords,blend,repeat,triangles,bug7366,gtk_argb_xbgr," \
               "libreoffice_xrgb"


def case_rendercheck(run):
    status, out = run.traced(["rendercheck", "-t", RENDER_TESTS, "-f", "a8r8g8b8,x8r8g8b8,a8"], timeout=300)
    run.record("exit status", str(status))
    lines = [ln for ln in text(out).splitlines() if re.search(r"\b(PASS|FAIL|passed|failed)\b", ln)]
    check(lines, "rendercheck printed no PASS/FAIL lines on %s: %s" % (run.side, text(out)[-400:]))
    run.record("results", "\n".join(lines))


def case_xkbcomp(run):
    status, out = run.traced(["xkbcomp", "@DISPLAY@", "-"])
    run.record("exit status", str(status))
    run.record("keymap", text(out))


def case_xterm(run):
    target = os.path.join(run.dir, "xterm-wrote")  # named relative to the run's directory: the same on both sides
    status, _ = run.traced(["xterm", "-geometry", "40x5+0+0", "-e", "sh", "-c", "echo written by xterm on $TERM >"
                            " xterm-wrote"], timeout=60)
    run.record("exit status", str(status))
    with open(target) as f:
        run.record("file", f.read())


def case_xdotool(run):
    run.xlogo()
    s1, found = run.traced(["xdotool", "search", "--name", "corpus-logo"])
    s2, _ = run.traced(["xdotool", "mousemove", "33", "44"])
    s3, where = run.traced(["xdotool", "getmouselocation", "--shell"])
    s4, _ = run.traced(["xdotool", "search", "--name", "corpus-logo", "key", "--window", "%1", "a", "b"])
    run.record("exit status", "%d %d %d %d" % (s1, s2, s3, s4))
    run.record("stdout", text(found) + text(where))


def case_glxinfo(run):
    status, out = run.traced(["glxinfo", "-B"])
    run.record("exit status", str(status))
    run.record("stdout", displays(text(out)))


def case_eglinfo(run):
    # Not through xtrace, which loses eglinfo's X11-platform connection and then
    # writes its complaints ("discarded last answer") to the program's stdout.
    status, out = run.untraced(["eglinfo"])
    run.record("exit status", str(status))
    run.record("stdout", displays(text(out)))


def case_xcffib(run):
    status, out = run.traced(["/usr/bin/python3", os.path.join(HERE, "xcffib_probe.py")])
    run.record("exit status", str(status))
    run.record("stdout", text(out))


I3_CONFIG = """# i3 config file (v4)
# (that first line keeps i3 from migrating it, which would add a bar) a minimal i3:
# no bar, no autostart, the socket where the test looks
ipc-socket {sock}
font fixed
focus_follows_mouse no
"""


def case_i3(run):
    sock = os.path.join(run.dir, "i3.sock")
    cfg = os.path.join(run.dir, "i3.config")
    with open(cfg, "w") as f:
        f.write(I3_CONFIG.format(sock=sock))
    run.xlogo()
    i3 = run.start(["i3", "-c", cfg])
    deadline = time.monotonic() + 20
    tree = None
    while time.monotonic() < deadline:
        p = subprocess.run(["i3-msg", "-s", sock, "-t", "get_tree"], capture_output=True, text=True,
                           env=run.env())
        if p.returncode == 0 and "corpus-logo" in p.stdout:
            tree = p.stdout
            break
        time.sleep(0.1)
    check(tree is not None, "i3 never listed the xlogo window on %s" % run.side)
    subprocess.run(["i3-msg", "-s", sock, "exit"], capture_output=True, env=run.env())
    run.record("exit status", str(i3.wait(20)))
    # Container ids are addresses; window ids are per run; the socket path is per run.
    tree = re.sub(r'"id":\d+', '"id":N', tree)
    tree = hexids_from(tree, r'"window":(\d+)')
    tree = re.sub(r'"(focus|nodes_order)":\[[\d,]*\]', r'"\1":[...]', tree)
    run.record("tree", tree.replace(sock, "SOCK"))


# ---- cases added from outside the first list, found by trying ----

def root_image(run):
    """The root window's pixels, by xwd on Debian's libraries (a driver)."""
    out = subprocess.run(["xwd", "-root", "-silent"], env=run.env(), stdin=subprocess.DEVNULL, capture_output=True,
                         timeout=30, cwd=run.dir, check=True).stdout
    return "%d bytes, sha256 %s" % (len(out), hashlib.sha256(out).hexdigest())


def wait_driver(run, args, what, want=r"\S", timeout=20):
    """Runs a driver until it succeeds and its output matches want (what: the state
    it waits for); that output."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        p = subprocess.run(args, env=run.env(), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=10, cwd=run.dir)
        if p.returncode == 0 and re.search(want, p.stdout):
            return p.stdout
        time.sleep(0.05)
    raise Fail("%s never happened on %s" % (what, run.side))


def selection_owned(run, selection):
    """Waits until a client owns selection and serves it (Debian's xclip asks)."""
    wait_driver(run, ["xclip", "-selection", selection, "-o"], "an owner of %s" % selection)


def intern_selection_atoms(run, selection):
    """Debian's xclip asks for selection while nobody owns it, which interns the atoms
    it uses (UTF8_STRING among them) before the owner under test starts: an owner
    that looks them up only if they exist (xsel) then offers the same targets
    whether or not the waiting driver was quicker than its start."""
    subprocess.run(["xclip", "-selection", selection, "-o"], env=run.env(), stdin=subprocess.DEVNULL,
                   capture_output=True, timeout=10, cwd=run.dir)


def case_xclip(run):
    # -quiet keeps xclip in the foreground; -loops 2: the driver's read, then the one under test.
    intern_selection_atoms(run, "clipboard")
    owner = run.start(["xclip", "-quiet", "-selection", "clipboard", "-i", "-loops", "2"], stdin="from xclip\n")
    selection_owned(run, "clipboard")
    s1, got = run.traced(["xclip", "-selection", "clipboard", "-o"])
    run.record("exit status", "%d %d" % (s1, owner.wait(20)))
    run.record("stdout", text(got))


def case_xsel(run):
    intern_selection_atoms(run, "clipboard")
    owner = run.start(["xsel", "--nodetach", "--clipboard", "--input"], stdin="from xsel\n")
    selection_owned(run, "clipboard")
    s1, got = run.traced(["xsel", "--clipboard", "--output"])
    s2, targets = run.traced(["xclip", "-selection", "clipboard", "-t", "TARGETS", "-o"])
    s3, _ = run.traced(["xsel", "--clipboard", "--delete"])
    owner.wait(20)
    run.record("exit status", "%d %d %d" % (s1, s2, s3))
    run.record("stdout", text(got) + text(targets))


def write_png(path, width, height):
    """A gradient as an 8-bit RGB PNG (standard library only)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\0" + bytes(v for x in range(width) for v in (x * 255 // width, y * 255 // height, 128))
                    for y in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def case_xwallpaper(run):
    # xwallpaper confines itself with seccomp once connected: a library call it does not allow kills it.
    img = os.path.join(run.dir, "gradient.png")
    write_png(img, 64, 48)
    s1, _ = run.traced(["hsetroot", "-solid", "#336699"])
    run.record("root after hsetroot", root_image(run))
    s2, _ = run.traced(["xwallpaper", "--center", img])
    run.record("root after xwallpaper", root_image(run))
    run.record("exit status", "%d %d" % (s1, s2))


OPENBOX_RC = """<?xml version="1.0"?>
<openbox_config xmlns="http://openbox.org/3.4/rc"><desktops><number>2</number></desktops>
<focus><followMouse>no</followMouse></focus></openbox_config>
"""


def case_wmctrl(run):
    rc = os.path.join(run.dir, "openbox-rc.xml")
    with open(rc, "w") as f:
        f.write(OPENBOX_RC)
    # The xlogo is mapped before openbox starts, which then manages it with the
    # others it finds: a window mapped while openbox starts up can stay unmanaged
    # (openbox 3.6's own race, on Debian's libxcb too). wmctrl interns nothing openbox
    # has not interned by then, so atom numbers do not depend on timing.
    run.xlogo()
    wm = run.start(["openbox", "--config-file", rc])
    wait_driver(run, ["wmctrl", "-l"], "the xlogo window managed", want="corpus-logo")
    outs, statuses = [], []
    for args in (["-m"], ["-d"], ["-l"], ["-r", "corpus-logo", "-e", "0,50,60,200,100"], ["-lG"],
                 ["-s", "1"], ["-d"]):
        status, out = run.traced(["wmctrl"] + args)
        statuses.append(status)
        outs.append(text(out))
    s, _ = run.traced(["openbox", "--exit"])
    statuses += [s, wm.wait(20)]
    run.record("exit status", " ".join(map(str, statuses)))
    run.record("stdout", hexids_from("".join(outs), r"\b(0x[0-9a-f]{8})\b"))


def case_setxkbmap(run):
    s1, out = run.traced(["setxkbmap", "-print"])
    s2, _ = run.traced(["setxkbmap", "-layout", "us", "-variant", "dvorak"])
    s3, after = run.traced(["setxkbmap", "-query"])
    run.record("exit status", "%d %d %d" % (s1, s2, s3))
    run.record("stdout", text(out) + text(after))


def case_xkbcli(run):
    # libxkbcommon-x11's interactive tool: its window has no name; keys by XTEST, Escape ends it.
    cli = run.start(["xkbcli", "interactive-x11"])
    win = wait_driver(run, ["sh", "-c", "xwininfo -root -children | awk '/has no name.*100x100/ {print $1}'"],
                      "xkbcli's window").split()[0]
    run.driver([run.tools["xwpoke"], "key", win, "a", "b", "Escape"])
    run.record("exit status", str(cli.wait(20)))
    run.record("stdout", text(cli.output()))


def case_toolkit(script, env=()):
    def case(run):
        status, out = run.traced(list(env) + ["/usr/bin/python3", os.path.join(HERE, script)])
        run.record("exit status", str(status))
        run.record("stdout", text(out))
    return case


def case_started_and_closed(args, title):
    def case(run):
        prog = run.start(args)
        win = run.window(title)
        run.driver([run.tools["xwpoke"], "close", win])
        run.record("exit status", str(prog.wait(20)))
    return case


def case_compositor(args):
    """A compositing manager over an xlogo for 1.5 s, ended by timeout(1) (what it
    draws follows its timers: how it ends and what it asked for are compared)."""
    def case(run):
        run.xlogo()
        status, _ = run.traced(["timeout", "1.5"] + args)
        run.record("exit status", str(status))
    return case


CASES = {
    # name: (function, trace mode, what is compared)
    "xdpyinfo": (simple(["xdpyinfo", "-queryExtensions"]), "requests", "stdout, exit status"),
    "xwininfo": (with_logo(["xwininfo", "-root", "-tree", "-all"]), "requests", "stdout, exit status"),
    "xlsatoms": (simple(["xlsatoms"]), "requests", "stdout, exit status"),
    "xlsclients": (with_logo(["xlsclients", "-l"]), "requests", "stdout, exit status"),
    "xprop": (simple(["xprop", "-root"]), "requests", "stdout, exit status"),
    "xlsfonts": (simple(["xlsfonts", "-l"]), "requests", "stdout (ListFontsWithInfo, many replies), exit status"),
    "xev": (case_xev, "requests", "events printed (times and window ids renamed), exit status on WM_DELETE_WINDOW"),
    "xrandr": (simple(["xrandr", "--query"]), "requests", "stdout, exit status"),
    "xset": (simple(["xset", "q"]), "requests", "stdout, exit status"),
    "xrdb": (case_xrdb, "requests", "xrdb -query after xrdb -merge, exit statuses"),
    "xmodmap": (simple(["xmodmap", "-pke"]), "requests", "stdout, exit status"),
    "xwd": (case_xwd, "requests", "the dump's bytes (xlogo on screen), exit status"),
    "xeyes": (case_xeyes, "collapsed", "exit status on WM_DELETE_WINDOW, stderr"),
    "x11perf": (case_x11perf, "names", "tests run (rates vary), exit status"),
    # Compared by length and name: xtrace decodes some of its 400,000 requests from
    # part of their bytes without saying so.
    "rendercheck": (case_rendercheck, "heads", "PASS/FAIL lines, exit status"),
    "xkbcomp": (case_xkbcomp, "requests", "keymap text, exit status"),
    # What xterm draws before its child has exited is a race with the child.
    "xterm": (case_xterm, "startup", "the file written by -e, exit status",
              [(r"(?<=type=0x6 data=)0x[0-9a-f]+;", "PID")]),
    # xdotool's key events carry an uninitialised root field (its bug, not the library's):
    # whatever is there, a number or, by chance, something shaped like a resource id.
    "xdotool": (case_xdotool, "requests", "search, mousemove, getmouselocation, key: stdout, exit statuses",
                [(r"\broot=[^ ]+", "root=?")]),
    "glxinfo": (case_glxinfo, "requests", "stdout, exit status"),
    # xtrace loses eglinfo's X11-platform connection (its log stops after the connection
    # setup), so eglinfo runs without it and only what it prints is compared.
    "eglinfo": (case_eglinfo, "none", "stdout, exit status (not traced)"),
    "xcffib": (case_xcffib, "requests", "stdout, exit status"),
    "i3": (case_i3, "collapsed", "get_tree (ids normalised), exit status on i3-msg exit",
           [(r"/tmp/i3-[^/]+/log-stream-socket\.\d+", "LOGSOCK"), (r"(?<=type=0x6 data=)0x[0-9a-f]+;", "PID"),
            (r"container around 0x[0-9a-f]+", "container around ADDR"),
            # the timestamp's 4 raw bytes may include a newline, so any byte, not "."
            (r"(ClientMessage\(33\) format=0x20 .*? data=')[\s\S]{4}", r"\1TIME"),
            # RandR GetMonitors is 9 bytes in a 12-byte C struct: libxcb sends the struct's
            # 3 tail bytes uninitialised (stack garbage), xwire zeros
            (r"(opcode2=0x2a unparsed-data='[\s\S]{5})[\s\S]{3}'", r"\1PAD'")]),
    # Found by trying programs the first list did not name.
    "xclip": (case_xclip, "requests", "xclip -o of what another xclip owns, exit statuses"),
    "xsel": (case_xsel, "requests", "xsel -o and xclip's TARGETS of what xsel owns, xsel --delete, exit statuses"),
    "xwallpaper": (case_xwallpaper, "requests", "root pixels after hsetroot and after xwallpaper (seccomp-confined), "
                   "exit statuses"),
    # openbox's timestamps, pid and uninitialised tail bytes of its "wm started" message
    # vary; its MANAGER message carries its own window id as bytes.
    "wmctrl": (case_wmctrl, "collapsed", "wmctrl -m/-d/-l/-r -e/-lG/-s under openbox (ids renamed), exit statuses",
               [(r"(?<=type=0x6 data=)0x[0-9a-f]+;", "PID"),
                (r"(ClientMessage\(33\) format=0x20 .*? data=')[\s\S]*'$", r"\1...'"),
                (r"(data='wm started)[\s\S]*'$", r"\1...'")]),
    "xinput": (simple(["xinput", "list", "--long"]), "requests", "stdout, exit status"),
    "xdpyinfo-ext": (simple(["xdpyinfo", "-ext", "all"]), "requests",
                     "stdout (every extension's details: XKB, XInput, RENDER formats...), exit status"),
    "setxkbmap": (case_setxkbmap, "requests", "-print, a layout change, -query: stdout, exit statuses"),
    "xkbcli": (case_xkbcli, "requests", "keys typed by XTEST as libxkbcommon-x11 decodes them, exit status on Escape"),
    "xvinfo": (simple(["xvinfo"]), "requests", "stdout, exit status"),
    "xdriinfo": (simple(["xdriinfo"]), "requests", "stdout, exit status"),
    "xcalc": (case_started_and_closed(["xcalc", "-title", "corpus-calc"], "corpus-calc"), "startup",
              "exit status on WM_DELETE_WINDOW"),
    "xclock": (case_started_and_closed(["xclock", "-title", "corpus-clock", "-update", "1"], "corpus-clock"),
               "startup", "exit status on WM_DELETE_WINDOW"),
    "xcompmgr": (case_compositor(["xcompmgr", "-a"]), "startup", "exit status after 1.5 s"),
    # The toolkits' _NET_WM_PID (a CARDINAL) and GTK's MIT-SHM segment ids vary.
    "gtk": (case_toolkit("gtk_probe.py"), "collapsed",
            "stdout (clipboard round trip, screen, a root pixel), exit status",
            [(r"(?<=type=0x6 data=)0x[0-9a-f]+;", "PID"), (r"\bshmseg=0x[0-9a-f]+", "shmseg=?")]),
    # Whether Tk sends a NoOperation at all follows its timers (seen present on libxcb
    # and absent on xwire in one CI run, and either way on libxcb alone): distinct
    # requests, NoOperation aside.
    "tk": (case_toolkit("tk_probe.py"), "names-untimed", "stdout (clipboard, screen, fonts, pointer), exit status"),
    "qt": (case_toolkit("qt_probe.py", ["env", "QT_QPA_PLATFORM=xcb"]), "collapsed",
           "stdout (clipboard, screen, a root pixel), exit status", [(r"(?<=type=0x6 data=)0x[0-9a-f]+;", "PID")]),
}

TOOLS = ["xtrace", "xlogo", "i3-msg", "xclip", "xwd", "xprop", "xwininfo", "wmctrl"]

# Cases whose Xvfb needs screens other than the default 640×480×24.
SCREENS = {"x11perf": ("1280x1024x24",)}


def trace_check(name, traces):
    """xwire's trace of each traced program of one xwire run against xtrace's log of
    the same bytes (tracecmp.py): the differences, one line each, prefixed by the program."""
    r = Result()
    for xt, xw in traces:
        r.add(compare_files(xt, xw), os.path.basename(xt)[:-len(".trace")] + ": ")
    print(r.summary(name + ":").replace(" requests", " requests traced by xwire", 1))
    for line in r.notes(name):
        print(line)
    return ["trace against xtrace differs:\n  " + "\n  ".join(r.problems[:20]) +
            ("\n  ... %d more" % (len(r.problems) - 20) if len(r.problems) > 20 else "")] if r.problems else []


def run_case(name, shim_dir, tools, keep, check_trace=True):
    fn, mode, _, tnorm = (CASES[name] + (None,))[:4]
    workdir = keep and os.path.join(keep, name) or tempfile.mkdtemp(prefix="corpus-%s-" % name)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    seen, convs = {}, {}
    t0 = time.monotonic()
    try:
        for side in SIDES:
            with Run(side, shim_dir, tools, workdir, SCREENS.get(name), check_trace) as run:
                fn(run)
            seen[side] = run.seen
            shim = os.path.realpath(os.path.join(shim_dir, "libxcb.so.1"))
            want = {shim} if side == "xwire" else {os.path.realpath(p) for p in run.libs if p != shim}
            check(run.libs and run.libs == want,
                  "on %s the programs ran on %s" % (side, sorted(run.libs) or "no libxcb"))
            convs[side] = [trace_view(c, mode) for c in (read_trace(t, tnorm) for t, _ in run.traces)]
        problems = trace_check(name, run.traces) if check_trace and mode != "none" else []
        for key in seen["libxcb"]:
            a, b = seen["libxcb"][key], seen["xwire"].get(key)
            if a != b:
                problems.append(diff(a.splitlines(), (b or "").splitlines(), key))
        ca, cb = convs["libxcb"], convs["xwire"]
        excuse_partial(ca, cb)
        check(mode == "none" or any(any(c) for c in ca), "xtrace recorded no requests on libxcb")
        if ca != cb:
            problems.append(diff(flatten(ca), flatten(cb), "conversation (%s)" % mode))
        if problems:
            raise Fail("\n".join(problems))
        nreq = sum(len(c) for t in ca for c in t)
        print("%s: same %s; same conversation (%s, %d entries); %.1f s" % (name, CASES[name][2], mode, nreq,
                                                                           time.monotonic() - t0))
    finally:
        if not keep:
            shutil.rmtree(workdir, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", help="directory holding xwire's libxcb.so.1 family")
    ap.add_argument("--xwpoke", help="the xwpoke driver")
    ap.add_argument("--keep", help="keep each case's outputs and traces under this directory")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--no-trace-check", dest="trace_check", action="store_false",
                    help="on xwire, leave xwire's tracer off (by default each traced program's trace must "
                    "equal what xtrace saw)")
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    if a.list:
        for name, (_, mode, what, *_) in CASES.items():
            print("%-12s %-10s %s" % (name, mode, what))
        return 0
    failed = []
    a.shim = a.shim and os.path.abspath(a.shim)  # the programs run in their own directories
    a.xwpoke = a.xwpoke and os.path.abspath(a.xwpoke)
    try:
        check(a.shim and os.path.isfile(os.path.join(a.shim, "libxcb.so.1")),
              "no libxcb.so.1 in the shim directory %r: the corpus cannot run (not a skip)" % a.shim)
        tools = {t: shutil.which(t) for t in TOOLS}
        tools["xwpoke"] = a.xwpoke
        missing = [t for t, p in tools.items() if not p]
        check(not missing, "missing tools: %s" % " ".join(missing))
    except Fail as f:
        print("FAIL:", f, file=sys.stderr)
        return 1
    for name in a.cases or list(CASES):
        if name not in CASES:
            print("FAIL: no case %r (--list names them)" % name, file=sys.stderr)
            return 1
        try:
            run_case(name, a.shim, tools, a.keep, a.trace_check)
        except (Fail, subprocess.TimeoutExpired, OSError) as f:
            print("FAIL: %s: %s" % (name, f), file=sys.stderr)
            failed.append(name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
