# SPDX-License-Identifier: MIT
"""xwrun.py — what the example tests share: a private Xvfb found through
-displayfd, a client whose output lines can be awaited, and a failure that says
what was expected and what came instead. Standard library only."""
import os
import queue
import re
import select
import subprocess
import sys
import threading
import time


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


class _Child:
    """A child process that a with block ends on the way out (stop())."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class Xvfb(_Child):
    """Xvfb on the first free display (it writes the number to our pipe);
    extra arguments go after the defaults (-screen ..., -auth FILE)."""

    def __init__(self, *extra, screens=("640x480x24",)):
        rfd, wfd = os.pipe()
        args = [os.environ.get("XVFB") or "Xvfb", "-displayfd", str(wfd), "-nolisten", "tcp", "-noreset"]
        for i, geometry in enumerate(screens):
            args += ["-screen", str(i), geometry]
        self.proc = subprocess.Popen(args + list(extra), pass_fds=(wfd,), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(wfd)
        buf = b""
        deadline = time.monotonic() + 20
        while not buf.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([rfd], [], [], left)[0]:
                break
            chunk = os.read(rfd, 32)
            if not chunk:
                break
            buf += chunk
        os.close(rfd)
        if not buf.strip().isdigit():
            self.stop()
            raise Fail("Xvfb did not report a display")
        self.number = int(buf)
        self.name = ":%d" % self.number

    def env(self, **more):
        e = dict(os.environ, DISPLAY=self.name)
        e.update(more)
        return e

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def run(args, env=None, timeout=60):
    """Runs to completion; returns (status, stdout, stderr)."""
    p = subprocess.run(args, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class Client(_Child):
    """A running client; its stdout lines are read by a thread into a queue so that
    expect() can wait for one with a deadline."""

    def __init__(self, args, env):
        self.args = args
        self.proc = subprocess.Popen(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def expect(self, pattern, timeout=20):
        """The first line from now on that matches pattern (a regex); its match."""
        deadline = time.monotonic() + timeout
        rx = re.compile(pattern)
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(left, 0.01))
            except queue.Empty:
                line = "(timeout)"
            if line is None or line == "(timeout)":
                raise Fail("%s: expected a line matching %r, got %s; lines so far:\n  %s\nstderr: %s" % (
                    os.path.basename(self.args[0]), pattern,
                    "end of output" if line is None else "nothing in %ds" % timeout,
                    "\n  ".join(self.seen[-30:]), self.stderr_now()))
            self.seen.append(line)
            m = rx.search(line)
            if m:
                return m

    def stderr_now(self):
        return "" if self.proc.poll() is None else self.proc.stderr.read()

    def wait(self, timeout=20):
        """Exit status; stderr is kept in self.err."""
        try:
            status = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise Fail("%s did not exit within %ds" % (self.args[0], timeout))
        self.err = self.proc.stderr.read()
        return status

    def exits_cleanly(self, after, quiet=True):
        """Waits for exit status 0 (after says what made it quit); quiet: nothing on stderr either."""
        name = os.path.basename(self.args[0])
        status = self.wait()
        check(status == 0, "%s exited with %d after %s: %s" % (name, status, after, self.err))
        if quiet:
            check(self.err == "", "%s wrote to stderr: %s" % (name, self.err))

    def stop(self):
        """Kills it if it still runs."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def poke(xwpoke, x, *cmd):
    """Runs xwpoke on Xvfb x with cmd (its words, str() applied); it must succeed."""
    status, out, err = run([xwpoke] + [str(c) for c in cmd], env=x.env())
    check(status == 0, "xwpoke %s: %s" % (" ".join(map(str, cmd)), err))


def main(test):
    """Runs test() and turns Fail into exit status 1 with the message."""
    try:
        test()
    except Fail as f:
        print("FAIL:", f, file=sys.stderr)
        sys.exit(1)
    print("ok")
