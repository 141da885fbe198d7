#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# x11perf.sh — Debian's x11perf (Xlib) on Debian's libxcb and on xwire's libxcb.so.1, alternating, on one
# Xvfb: each test's rate, x11perf's CPU time (user + system) per rep and its sleeps per rep on both
# libraries, and the ratios xwire ÷ libxcb of each same-round pair, min/median/max over the rounds.
#   scripts/x11perf.sh [--rounds N] [--time S] [--pin split|same] [TEST...]
#     default: 5 rounds of about 1 s per run; -noop -prop -getimage10 -ucirculate -pointer
#     --pin split: Xvfb on CPU 0, x11perf on CPU 1; same: both on CPU 0 (default: the scheduler's choice)
# Every run of a test does the same number of reps, found once on libxcb before the rounds (x11perf's
# own -time calibration would add CPU of its own to each run). A test with several sub-tests (-ucirculate:
# 4 to 200 children) is compared on its last one for the rate, on all its reps for CPU.
# Where the scheduler places client and server decides a round trip's cost here: a sleep that needs the
# other CPU woken costs more than one handed over on the same CPU, so unpinned runs are bimodal.
# Not part of bench.sh's 3 minutes; about 2 × rounds × tests × (time + 0.5 s).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=5 secs=1 pin='' tests=()
usage() { sed -n '2,8p' "$0" >&2; exit 2; }
while (($#)); do
  case $1 in
  --rounds) rounds=$2; shift 2 ;;
  --time) secs=$2; shift 2 ;;
  --pin) pin=$2; [[ $pin == split || $pin == same ]] || usage; shift 2 ;;
  --*) usage ;;
  -*[a-z]*) tests+=("$1"); shift ;;
  *) usage ;;
  esac
done
((${#tests[@]})) || tests=(-noop -prop -getimage10 -ucirculate -pointer)

# XWIRE_XCB_DIR: a libxcb.so.1 of xwire's already built
shim=${XWIRE_XCB_DIR:-}
[[ -n $shim ]] || shim=$("$root/scripts/build-bench.sh")/libxcb
[[ -e $shim/libxcb.so.1 ]] || { echo "x11perf.sh: no libxcb.so.1 in $shim" >&2; exit 2; }
tmp=$(mktemp -d)

server_cpu='' client_cpu=''
[[ $pin == split ]] && server_cpu=0 client_cpu=1
[[ $pin == same ]] && server_cpu=0 client_cpu=0
exec 3>"$tmp/display"
${server_cpu:+taskset -c $server_cpu} Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 1280x1024x24 \
  2>"$tmp/xvfb.log" &
xpid=$!
exec 3>&-
trap 'kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [[ -s $tmp/display ]] && break; sleep 0.1; done
[[ -s $tmp/display ]] || { echo "x11perf.sh: Xvfb did not start" >&2; cat "$tmp/xvfb.log" >&2; exit 1; }

echo "x11perf on :$(head -n1 "$tmp/display"), $rounds rounds of about $secs s," \
     "alternating libxcb and xwire${pin:+, pinned $pin}"
python3 - ":$(head -n1 "$tmp/display")" "$shim" "$rounds" "$secs" "$client_cpu" "${tests[@]}" <<'EOF'
import os, re, statistics, subprocess, sys

display, shim, cpu, tests = sys.argv[1], sys.argv[2], sys.argv[5], sys.argv[6:]
rounds, secs = int(sys.argv[3]), float(sys.argv[4])
LINE = re.compile(r"^\s*(\d+) reps @\s*([0-9.]+) msec \(\s*([0-9.]+)/sec\)")

def run(lib, test, args):
    """One x11perf process: (last line's rate, total reps, CPU s per rep, voluntary sleeps per rep)."""
    env = dict(os.environ)
    if lib == "xwire":
        env["LD_LIBRARY_PATH"] = shim + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    cmd = (["taskset", "-c", cpu] if cpu else []) + ["x11perf", "-display", display, "-repeat", "1"] + args + [test]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    lines = [LINE.match(l) for l in out.splitlines()]
    lines = [m for m in lines if m]
    if status or not lines:
        sys.exit(f"x11perf.sh: x11perf {test} on {lib} failed (status {status}):\n{out}")
    reps = sum(int(m.group(1)) for m in lines)
    return float(lines[-1].group(3)), reps, (ru.ru_utime + ru.ru_stime) / reps, ru.ru_nvcsw / reps

def reps_for(test):
    """The -reps that make one run last about secs on libxcb: x11perf prints reps × the test's
    own multiple, so a short fixed run gives the multiple and a timed one the time per rep."""
    _, printed, _, _ = run("libxcb", test, ["-reps", "100"])
    mult = max(1, printed // 100)
    rate, _, _, _ = run("libxcb", test, ["-time", "1"])
    return max(1, int(rate * secs / mult))

rows = {}
for t in tests:
    n = reps_for(t)
    for r in range(rounds):
        order = ("xwire", "libxcb") if r % 2 else ("libxcb", "xwire")
        got = {lib: run(lib, t, ["-reps", str(n)]) for lib in order}
        rows.setdefault(t, []).append((got["libxcb"], got["xwire"]))
        print(".", end="", file=sys.stderr, flush=True)
print(file=sys.stderr)

def spread(v):
    v = sorted(v)
    return f"{statistics.median(v):.2f}× [{v[0]:.2f}–{v[-1]:.2f}]"

print(f"  {'test':<12}{'rate /s libxcb':>16}{'xwire':>10}{'CPU ns/rep libxcb':>19}{'xwire':>9}"
      f"{'sleeps/rep':>12}{'xwire':>7}"
      f"   xwire÷libxcb per round, median [min–max]: rate; CPU")
for t, pairs in rows.items():
    med = lambda i, k: statistics.median(p[i][k] for p in pairs)
    print(f"  {t:<12}{med(0, 0):>16.0f}{med(1, 0):>10.0f}{med(0, 2) * 1e9:>19.1f}{med(1, 2) * 1e9:>9.1f}"
          f"{med(0, 3):>12.2f}{med(1, 3):>7.2f}   {spread(x[0] / l[0] for l, x in pairs)}; "
          f"{spread(x[2] / l[2] for l, x in pairs)}")
EOF
