#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test.sh — install what is missing, build xwire and run the whole test suite twice:
# a plain gcc build, then a clang ASan+UBSan build (memory errors the plain run cannot see);
# then the Xvfb suites under valgrind memcheck (plain build) and the thread and Xvfb
# suites in a clang ThreadSanitizer build. Options slice that run (see usage below).
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: scripts/test.sh [--quick | --suite NAME] [--no-deps]
  (no option)   what CI runs: install missing packages (scripts/deps.sh), then the
                plain gcc build's tests, the Xvfb suites under valgrind, the clang
                ASan+UBSan build's tests and the ThreadSanitizer 'threads' suite
  --quick       the plain gcc build and its tests only (no valgrind, ASan or TSan)
  --suite NAME  one meson test suite (e.g. runtime, conform, xvfb) in the plain build
  --no-deps     skip the package step (scripts/deps.sh, which also runs on its own)
  -h, --help    this text
Build dirs: build-test, build-asan, build-tsan (XW_TEST_BUILD, XW_ASAN_BUILD, XW_TSAN_BUILD).
The last line is always "test.sh: N passed, N failed, N skipped".
USAGE
}

mode=full suite= deps=1
while (($#)); do
  case $1 in
    --quick) mode=quick ;;
    --suite)
      [[ $# -ge 2 && -n $2 ]] || { echo "test.sh: --suite needs a suite name" >&2; exit 2; }
      mode=suite suite=$2; shift ;;
    --suite=*) mode=suite suite=${1#--suite=} ;;
    --no-deps) deps=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "test.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done
[[ $mode != suite || -n $suite ]] || { echo "test.sh: --suite needs a suite name" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if ((deps)); then
  "$root/scripts/deps.sh"
fi

plain=${XW_TEST_BUILD:-build-test}
asan=${XW_ASAN_BUILD:-build-asan}
tsan=${XW_TSAN_BUILD:-build-tsan}

# Reconfigure an existing build dir in place (keeps ninja's incremental state);
# a fresh clone gets a new one.
setup() {
  local dir=$1; shift
  if [[ -f $dir/build.ninja ]]; then
    meson setup --reconfigure "$dir" -Dwerror=true "$@"
  else
    meson setup "$dir" -Dwerror=true "$@"
  fi
}

# Print "N passed, N failed, N skipped" from one meson JSON test log.
summary() {
  python3 - "$1" <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
with open(sys.argv[1]) as log:
    for line in log:
        result = json.loads(line).get("result", "")
        key = "OK" if result in ("OK", "EXPECTEDFAIL") else "SKIP" if result == "SKIP" else "FAIL"
        counts[key] += 1
print(f"{counts['OK']} {counts['FAIL']} {counts['SKIP']}")
PY
}

status=0
passed=0 failed=0 skipped=0
# run_suite DIR LOGNAME [meson test args]: LOGNAME is testlog, or testlog-SETUP
# with --setup SETUP.
run_suite() {
  local dir=$1 log=$2; shift 2
  echo "== test.sh: meson test in $dir $*" >&2
  rm -f "$dir/meson-logs/$log.json"
  meson test -C "$dir" --print-errorlogs "$@" || status=1
  if [[ -f $dir/meson-logs/$log.json ]]; then
    read -r p f s < <(summary "$dir/meson-logs/$log.json")
    passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  else
    # No log: meson ran nothing (a build error, or --suite naming no suite).
    failed=$((failed + 1)) status=1
  fi
}

build_failed() {
  echo "test.sh: build failed in $1" >&2
  exit 1
}

setup "$plain" -Dbuildtype=debugoptimized
ninja -C "$plain" || build_failed "$plain"
if [[ $mode == suite ]]; then
  run_suite "$plain" testlog --suite "$suite"
else
  run_suite "$plain" testlog
fi
if [[ $mode != full ]]; then
  echo "test.sh: $passed passed, $failed failed, $skipped skipped"
  exit "$status"
fi

# valgrind memcheck over the suites that talk to a real Xvfb: 0 errors and 0 bytes
# definitely lost, or the test fails (the 'valgrind' setup in tests/meson.build).
run_suite "$plain" testlog-valgrind --no-rebuild --setup valgrind --suite xvfb

# clang links its sanitizer runtimes statically into executables, so shared
# objects legitimately have undefined sanitizer symbols: b_lundef=false.
CC=clang setup "$asan" -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=all
# The build runs the sanitized generator, a one-shot tool that leaves freeing its
# model to exit: leak checks are for the tests, not the build.
ASAN_OPTIONS=detect_leaks=0 ninja -C "$asan" || build_failed "$asan"
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1} \
LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0} \
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  run_suite "$asan" testlog --timeout-multiplier 3

# ThreadSanitizer: only what the 'threads' suite needs is built (the runtime, the
# fixtures, the fake-server and Xvfb tests), not the conformance harnesses. The
# executables are read from meson's test list, so a test added to the suite is built.
CC=clang setup "$tsan" -Dbuildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false
mapfile -t tsan_targets < <(meson introspect "$tsan" --tests | python3 -c '
import json, os, sys
build = os.path.realpath(sys.argv[1])
exes = {os.path.relpath(t["cmd"][0], build) for t in json.load(sys.stdin)
        if any(s.split(":")[-1] == "threads" for s in t["suite"]) and t["cmd"][0].startswith(build + "/")}
print("\n".join(sorted(exes)))' "$tsan")
[[ ${#tsan_targets[@]} -gt 0 ]] || build_failed "$tsan"
ninja -C "$tsan" "${tsan_targets[@]}" || build_failed "$tsan"
TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:history_size=4} \
  run_suite "$tsan" testlog --no-rebuild --suite threads --timeout-multiplier 3

echo "test.sh: $passed passed, $failed failed, $skipped skipped"
exit "$status"
