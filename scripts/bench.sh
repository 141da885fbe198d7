#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench.sh — install what is missing, build xwire optimised, run the benchmark suite and print its table.
# Extra arguments go to xwbench (try --help); results also land in results/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
dir=$("$root/scripts/build-bench.sh")

exec "$dir/bench/xwbench" --results "$root/results" "$@"
