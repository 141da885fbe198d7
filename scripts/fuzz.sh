#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuzz.sh — the long fuzzing run: build the clang sanitizer build and run each libFuzzer
# harness (setup, reader, decode, trace) for SECONDS (default 1800), two at a time on 2 cores,
# then print executions and findings per harness. The test suite only runs short smoke runs.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
"$root/scripts/deps.sh"

secs=${1:-1800}
dir=${XW_FUZZ_BUILD:-build-fuzz}
if [[ ! -f $dir/build.ninja ]]; then
  CC=clang CXX=clang++ meson setup "$dir" -Dbuildtype=debugoptimized -Dwerror=true -Db_sanitize=address,undefined \
    -Db_lundef=false
fi
# the generator is built sanitized too and leaves freeing its model to exit
ASAN_OPTIONS=detect_leaks=0 ninja -C "$dir" tests/fuzz/fuzz_setup tests/fuzz/fuzz_reader tests/fuzz/fuzz_decode \
  tests/fuzz/fuzz_trace tests/fuzz/seeds.stamp

run() {
  local h=$1
  mkdir -p "$dir/corpus-$h"
  # UBSan reports do not stop a long run: they are counted from the log below
  UBSAN_OPTIONS=print_stacktrace=1 "$dir/tests/fuzz/fuzz_$h" "$dir/corpus-$h" \
    -seed_inputs=@"$dir/tests/fuzz/seeds/$h.list" -max_total_time="$secs" \
    -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/corpus-$h-" > "$dir/fuzz-$h.log" 2>&1 || true
}

echo "fuzz.sh: setup and reader for ${secs}s, then decode and trace for ${secs}s; logs in $dir/fuzz-*.log" >&2
run setup & run reader & wait
run decode & run trace & wait

status=0
for h in setup reader decode trace; do
  log=$dir/fuzz-$h.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  ubsan=$(grep -c 'runtime error' "$log" || true)
  crashes=$(find "$dir" -maxdepth 1 -name "corpus-$h-crash-*" -o -maxdepth 1 -name "corpus-$h-leak-*" \
            -o -maxdepth 1 -name "corpus-$h-timeout-*" -o -maxdepth 1 -name "corpus-$h-oom-*" | wc -l)
  echo "fuzz.sh: $h: ${execs:-?} executions, $crashes crash/leak/timeout/oom inputs, $ubsan UBSan reports"
  [[ -n $execs && $crashes -eq 0 && $ubsan -eq 0 ]] || status=1
done
# A finding: minimize it (fuzz_<h> -minimize_crash=1 -runs=10000 FILE), add it to
# tests/fuzz/regress.c and its id to the list at the end of tests/fuzz/meson.build.
exit "$status"
