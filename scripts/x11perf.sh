#!/usr/bin/env bash
# x11perf.sh — Debian's x11perf (Xlib) on Debian's libxcb and on xwire's libxcb.so.1, alternating, on one
# Xvfb: the rate of each test on both libraries and the ratio xwire ÷ libxcb of each same-round pair,
# min/median/max over the rounds. Timings: each pair runs back to back, the order swapped every round.
#   scripts/x11perf.sh [--rounds N] [--time S] [TEST...]   (default: 5 rounds of 1 s each,
#                                                           -noop -prop -getimage10 -ucirculate -pointer)
# About 2 × rounds × tests × (time + 1 s of calibration); not part of bench.sh's 3 minutes (here, loaded by
# other builds, 3 rounds took 9 minutes). A test with several sub-tests (-ucirculate: 4 to 200 children)
# is compared on its last one.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=5 secs=1 tests=()
while (($#)); do
  case $1 in
  --rounds) rounds=$2; shift 2 ;;
  --time) secs=$2; shift 2 ;;
  -*[a-z]*) [[ $1 == --* ]] && { sed -n '2,7p' "$0" >&2; exit 2; }; tests+=("$1"); shift ;;
  *) sed -n '2,7p' "$0" >&2; exit 2 ;;
  esac
done
((${#tests[@]})) || tests=(-noop -prop -getimage10 -ucirculate -pointer)

# XWIRE_XCB_DIR: a libxcb.so.1 of xwire's already built
shim=${XWIRE_XCB_DIR:-}
[[ -n $shim ]] || shim=$("$root/scripts/build-bench.sh")/libxcb
[[ -e $shim/libxcb.so.1 ]] || { echo "x11perf.sh: no libxcb.so.1 in $shim" >&2; exit 2; }
tmp=$(mktemp -d)

exec 3>"$tmp/display"
Xvfb -displayfd 3 -nolisten tcp -noreset -screen 0 1280x1024x24 2>"$tmp/xvfb.log" &
xpid=$!
exec 3>&-
trap 'kill "$xpid" 2>/dev/null; wait "$xpid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [[ -s $tmp/display ]] && break; sleep 0.1; done
[[ -s $tmp/display ]] || { echo "x11perf.sh: Xvfb did not start" >&2; cat "$tmp/xvfb.log" >&2; exit 1; }
display=:$(head -n1 "$tmp/display")

# One x11perf run of one test; its rate (operations per second) on stdout.
rate() { # LIB TEST
  local env=()
  [[ $1 == xwire ]] && env=(env "LD_LIBRARY_PATH=$shim${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
  local out
  out=$("${env[@]}" x11perf -display "$display" -repeat 1 -time "$secs" "$2" 2>&1) || {
    printf 'x11perf.sh: x11perf %s on %s failed:\n%s\n' "$2" "$1" "$out" >&2
    return 1
  }
  sed -n 's/.*( *\([0-9.]*\)\/sec).*/\1/p' <<<"$out" | tail -n1 | grep . || {
    printf 'x11perf.sh: x11perf %s on %s printed no rate:\n%s\n' "$2" "$1" "$out" >&2
    return 1
  }
}

echo "x11perf on $display, $rounds rounds of $secs s, alternating libxcb and xwire"
for t in "${tests[@]}"; do
  for ((r = 0; r < rounds; r++)); do
    if ((r % 2)); then
      x=$(rate xwire "$t"); l=$(rate libxcb "$t")
    else
      l=$(rate libxcb "$t"); x=$(rate xwire "$t")
    fi
    echo "$t $l $x" >>"$tmp/rates"
    printf . >&2
  done
done
echo >&2

python3 - "$tmp/rates" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    t, l, x = line.split()
    rows.setdefault(t, []).append((float(l), float(x)))
print(f"  {'test':<14}{'libxcb /s (median)':>20}{'xwire /s (median)':>20}   xwire÷libxcb per round: median [min–max]")
for t, pairs in rows.items():
    ratios = sorted(x / l for l, x in pairs)
    print(f"  {t:<14}{statistics.median(l for l, _ in pairs):>20.0f}{statistics.median(x for _, x in pairs):>20.0f}"
          f"   {statistics.median(ratios):.2f}× [{ratios[0]:.2f}–{ratios[-1]:.2f}]")
EOF
