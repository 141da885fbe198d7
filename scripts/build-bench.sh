#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# build-bench.sh — installs what is missing and builds xwire optimised for measuring (the benchmark driver
# and the libxcb.so.1 it runs Xlib and libxcb programs on) in $XW_BENCH_BUILD (default build-bench/);
# prints that directory. Used by bench.sh, callgrind-xlib.sh and x11perf.sh.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/deps.sh" >&2

# Build output is shown only when a step fails.
quiet() {
  local out
  if ! out=$("$@" 2>&1); then
    printf '%s\n' "$out" >&2
    echo "build-bench.sh: failed: $*" >&2
    return 1
  fi
}

dir=${XW_BENCH_BUILD:-build-bench}
if [[ -f $dir/build.ninja ]]; then
  quiet meson setup --reconfigure "$dir" -Dbuildtype=release -Dwerror=true -Dtests=false
else
  quiet meson setup "$dir" -Dbuildtype=release -Dwerror=true -Dtests=false
fi
quiet nice ninja -C "$dir" xwbench-all
cd "$dir" && pwd
