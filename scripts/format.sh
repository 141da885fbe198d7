#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# format.sh — clang-format (.clang-format) over the C files of the directories listed below.
# usage: format.sh          format them in place
#        format.sh --check  change nothing; exit 1 and show where when a file is not formatted
# The files are those git tracks (every .c and .h found, outside a git checkout).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The directories kept formatted. src/ and bench/ join once they have been formatted
# in a commit of their own.
dirs=(src bench gen util xcb libxcb examples tests)
# Left as they are: xwgen's expected output (compared byte for byte with what it writes)
# and third-party code kept unmodified (tests/ported/*/SOURCE).
skip='^tests/(gen/good|ported)/'

check=0
case ${1:-} in
--check) check=1 ;;
'') ;;
*) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
fmt=${CLANG_FORMAT:-clang-format}
command -v "$fmt" >/dev/null || { echo "format.sh: $fmt not found (scripts/deps.sh installs it)" >&2; exit 2; }

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- "${dirs[@]/%//*.c}" "${dirs[@]/%//*.h}" | grep -Ev "$skip" | sort)
else
  mapfile -t files < <(find "${dirs[@]}" -name '*.[ch]' | grep -Ev "$skip" | sort)
fi
((${#files[@]})) || { echo "format.sh: no C files in ${dirs[*]}" >&2; exit 2; }

if ((check)); then
  if ! "$fmt" --dry-run -Werror "${files[@]}"; then
    echo "format.sh: not formatted as .clang-format says; scripts/format.sh fixes it" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files in ${dirs[*]} formatted"
else
  "$fmt" -i "${files[@]}"
fi
