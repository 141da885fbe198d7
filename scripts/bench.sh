#!/usr/bin/env bash
# bench.sh — install what is missing, build xwire optimised, run the benchmark suite and print its table.
# Extra arguments go to xwbench (try --help); results also land in results/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/deps.sh"

# Build output is shown only when a step fails, so the table is what the user sees.
quiet() {
  local out
  if ! out=$("$@" 2>&1); then
    printf '%s\n' "$out" >&2
    echo "bench.sh: failed: $*" >&2
    return 1
  fi
}

dir=${XW_BENCH_BUILD:-build-bench}
if [[ -f $dir/build.ninja ]]; then
  quiet meson setup --reconfigure "$dir" -Dbuildtype=release -Dtests=false
else
  quiet meson setup "$dir" -Dbuildtype=release -Dtests=false
fi
quiet nice ninja -C "$dir" xwbench-all

exec "$dir/bench/xwbench" --results "$root/results" "$@"
