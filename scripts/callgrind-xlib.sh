#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# callgrind-xlib.sh — instruction counts (deterministic, so they hold on a loaded machine) for xwire as
# libxcb: (1) the libxcb layer under Xlib's calls — the inclusive cost of every call from libX11 into
# libxcb.so.1 — for Xlib on Debian's libxcb and on xwire's, per case (replies, events, NoOperation);
# (2) NoOperation through the shim's xcb_ names against xwire's own xw_ names.
#   scripts/callgrind-xlib.sh [--quick]    (--quick: tiny counts, a behaviour check for the test suite)
# Each case runs once under valgrind --tool=callgrind in a child xwbench against the drain server, with
# instrumentation only between the case's meter_start and meter_stop. Exits 1 when a goal is not met:
# the libxcb layer under Xlib at most half of libxcb's, xcb_ NoOperation at most xw_ + 3 instructions.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
quick=0
case ${1-} in
--quick) quick=1 ;;
"") ;;
*) sed -n '2,9p' "$0" >&2; exit 2 ;;
esac

# XWBENCH: an xwbench already built (the shim beside it, in ../libxcb)
bench=${XWBENCH:-}
[[ -n $bench ]] || bench=$("$root/scripts/build-bench.sh")/bench/xwbench
shim=${XWIRE_XCB_DIR:-$(dirname "$bench")/../libxcb}
if [[ ! -e $shim/libxcb.so.1 ]]; then
  echo "callgrind-xlib.sh: no libxcb.so.1 in $shim (built with -Dlibxcb=false?)" >&2
  exit 2
fi
tmp=$(mktemp -d)

"$bench" --serve drain >"$tmp/display" &
spid=$!
trap 'kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do [[ -s $tmp/display ]] && break; sleep 0.1; done
display=$(cat "$tmp/display")

# run OUT LIB CASE COUNT [on-xwire]
run() {
  local env=() shimarg=()
  # --shim: the child refuses to run off the shim (without it xwbench leaves the shim
  # by re-executing itself, which under valgrind is valgrind's tool, not xwbench)
  [[ ${5-} == on-xwire ]] && env=(env "LD_LIBRARY_PATH=$shim${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}") shimarg=(--shim)
  if ! "${env[@]}" valgrind --tool=callgrind --instr-atstart=no -q --callgrind-out-file="$tmp/$1" \
      "$bench" --one "$3" --lib "$2" --display "$display" --count "$4" "${shimarg[@]}"; then
    echo "callgrind-xlib.sh: $2 ${5:-on libxcb}, $3 ×$4 failed" >&2
    exit 1
  fi
}

# Xlib's calls that wait for replies and events, and NoOperation for scale.
if ((quick)); then
  xlib_cases=("atom-sequential 50" "atom-pipelined 200" "getproperty 2" "events 500" "noop 2000")
  noop=2000
else
  xlib_cases=("atom-sequential 2000" "atom-pipelined 20000" "getproperty 20" "events 20000" "noop 200000")
  noop=1000000
fi
for c in "${xlib_cases[@]}"; do
  read -r name n <<<"$c"
  run "xlib.$name.libxcb" Xlib "$name" "$n"
  run "xlib.$name.xwire" Xlib "$name" "$n" on-xwire
done
run noop.xw xwire noop "$noop"
run noop.xcb libxcb noop "$noop" on-xwire
run noop.libxcb libxcb noop "$noop"

python3 - "$tmp" "$noop" "${xlib_cases[@]}" <<'EOF'
import os, re, sys

tmp, noop, cases = sys.argv[1], int(sys.argv[2]), [c.split() for c in sys.argv[3:]]

def layer_cost(path):
    """Total Ir, and the Ir Xlib spends in the libxcb layer, whichever library that is:
    the inclusive cost of libX11's calls into libxcb.so.1, less that of libxcb.so.1's
    calls back into libX11 (xcb_take_socket runs Xlib's return_socket, whose own
    xcb_writev is counted once as a call of its own). Callgrind's compressed names:
    "(id) name" defines, "(id)" refers."""
    names = {'ob': {}, 'fn': {}}
    def name(kind, v):
        m = re.match(r'\((\d+)\)(?: (.*))?$', v)
        if not m:
            return v
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), '')
    ob = cob = None
    total = layer = 0
    after_calls = False
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            if after_calls:
                after_calls = False
                caller = os.path.basename(ob or '')
                callee = os.path.basename(cob if cob is not None else ob or '')
                if caller.startswith('libX11.so') and callee.startswith('libxcb.so'):
                    layer += int(line.split()[1])
                elif caller.startswith('libxcb.so') and callee.startswith('libX11.so'):
                    layer -= int(line.split()[1])
                cob = None
                continue
            key, _, val = line.partition('=')
            if key == 'ob':
                ob = name('ob', val)
            elif key == 'cob':
                cob = name('ob', val)
            elif key in ('fn', 'cfn'):
                name('fn', val)
            elif key == 'calls':
                after_calls = True
            elif line.startswith(('summary:', 'totals:')):
                total = int(line.split()[1])
    return total, layer

ok = True
print("libxcb layer under Xlib's calls (callgrind: inclusive Ir of libX11 -> libxcb.so.1 calls less their\n"
      "callbacks into libX11, per operation; total = the whole timed part)")
print(f"  {'case':<18}{'ops':>8}{'on libxcb':>12}{'on xwire':>12}{'xwire/libxcb':>14}"
      f"{'total libxcb':>14}{'total xwire':>13}  goal <= 0.50")
for name, n in cases:
    n = int(n)
    t0, l0 = layer_cost(f'{tmp}/xlib.{name}.libxcb')
    t1, l1 = layer_cost(f'{tmp}/xlib.{name}.xwire')
    r = l1 / l0 if l0 else float('nan')
    # The goal is for replies and events; NoOperation is there for scale.
    goal = '' if name == 'noop' else ('met' if r <= 0.5 else 'NOT MET')
    ok = ok and goal != 'NOT MET'
    print(f"  {name:<18}{n:>8}{l0 / n:>12.1f}{l1 / n:>12.1f}{r:>14.2f}{t0 / n:>14.1f}{t1 / n:>13.1f}  {goal}")

xw, _ = layer_cost(f'{tmp}/noop.xw')
xcb, _ = layer_cost(f'{tmp}/noop.xcb')
lx, _ = layer_cost(f'{tmp}/noop.libxcb')
d = (xcb - xw) / noop
goal = 'met' if d <= 3 else 'NOT MET'
ok = ok and goal == 'met'
print(f"\nNoOperation ×{noop} + GetInputFocus, Ir per request: xw_ (xwire) {xw / noop:.2f}, "
      f"xcb_ on xwire {xcb / noop:.2f}, libxcb {lx / noop:.2f}; xcb_ - xw_ = {d:+.2f} (goal <= +3: {goal})")
sys.exit(0 if ok else 1)
EOF
