#!/bin/bash
# SPDX-License-Identifier: MIT
# trace-bench.sh — the tracer's cost when on: requests decoded and written to a file per
# second for the NoOperation flood and pipelined InternAtom (xwbench --one, libxwire,
# against Xvfb), traced by xwire (XWIRE_TRACE=FILE) and by `xtrace -n` on the same
# workload, side by side, with the untraced rate for scale. Medians of RUNS runs; the
# rate is the request count over the wall time of the whole run, lines counted in
# the file to show each tracer wrote them all.
#   scripts/trace-bench.sh [BUILD_DIR] [RUNS]     (default: build, 3)
set -euo pipefail
build=${1:-build}
runs=${2:-3}
bench=$build/bench/xwbench
[[ -x $bench ]] || { echo "trace-bench.sh: no $bench (ninja -C $build bench/xwbench)" >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "trace-bench.sh: needs Xvfb" >&2; exit 2; }
have_xtrace=1
command -v xtrace >/dev/null || have_xtrace=0
tmp=$(mktemp -d /tmp/trace-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# a free display number for the server and one for xtrace's fake display
free_display() {
  local d=$1
  while [[ -e /tmp/.X11-unix/X$d || -e /tmp/.X$d-lock ]]; do d=$((d + 1)); done
  echo "$d"
}
d=$(free_display 140)
Xvfb ":$d" -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$d ]] && break; sleep 0.1; done
f=$(free_display $((d + 1)))

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# one run: prints requests per second; $1 case, $2 count, $3 mode (off, xwire, xtrace)
one() {
  local case=$1 n=$2 mode=$3 out=$tmp/trace.txt t0 t1
  rm -f "$out"
  t0=$(now)
  case $mode in
  off) "$bench" --one "$case" --lib xwire --display ":$d" --count "$n" --server Xvfb >/dev/null ;;
  xwire) XWIRE_TRACE=$out "$bench" --one "$case" --lib xwire --display ":$d" --count "$n" --server Xvfb >/dev/null ;;
  xtrace) xtrace -n -d ":$d" -D ":$f" -o "$out" -- \
            "$bench" --one "$case" --lib xwire --display ":$f" --count "$n" --server Xvfb >/dev/null 2>&1 ;;
  esac
  t1=$(now)
  local lines=0
  [[ -e $out ]] && lines=$(wc -l <"$out")
  echo "$n $t0 $t1 $lines" | awk '{printf "%.0f %d\n", $1 / ($3 - $2), $4}'
}

printf '%-16s %-8s %12s %12s %12s %10s\n' case count "untraced/s" "xwire/s" "xtrace -n/s" "ratio"
for spec in noop:1000000 atom-pipelined:100000; do
  case=${spec%%:*} n=${spec##*:}
  declare -A rate=() lines=()
  for mode in off xwire xtrace; do
    [[ $mode == xtrace && $have_xtrace == 0 ]] && { rate[$mode]=0; continue; }
    : >"$tmp/rates"
    for _ in $(seq "$runs"); do
      read -r r l < <(one "$case" "$n" "$mode")
      echo "$r" >>"$tmp/rates"
      lines[$mode]=$l
    done
    rate[$mode]=$(median <"$tmp/rates")
  done
  ratio=$(awk -v a="${rate[xwire]}" -v b="${rate[xtrace]}" 'BEGIN {print (b > 0 ? sprintf("%.1fx", a / b) : "-")}')
  printf '%-16s %-8s %12s %12s %12s %10s\n' "$case" "$n" "${rate[off]}" "${rate[xwire]}" "${rate[xtrace]}" "$ratio"
  printf '%-16s %-8s %12s %12s %12s\n' "  lines written" "" "-" "${lines[xwire]}" "${lines[xtrace]}"
done
