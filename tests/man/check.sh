#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check.sh — the man pages: one per request plus one per libxwire-util helper family, all
# rendering without a warning, every .so alias and every cross-reference landing on a page,
# and the built pages equal to a fresh xwgen run (byte-stable, up to date).
# usage: check.sh XWGEN PROTO_DIR BUILT_MAN3 HELPER_MAN_DIR WORKDIR XML...
set -euo pipefail
xwgen=$1 proto=$2 built=$3 helpers=$4 work=$5
shift 5
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The xcb-util families libxwire-util covers, one page each (the set may grow, never shrink).
families=(aux atom event ewmh icccm keysyms image cursor renderutil xrm errors)

rm -rf "$work" && mkdir -p "$work"
counts=$("$xwgen" -I "$proto" --man "$work/man3" --counts "$@")
requests=$(sed -n 's/^request //p' <<<"$counts")
[[ $requests -gt 600 ]] || bad "xwgen counted $requests requests"
diff -r "$built" "$work/man3" >/dev/null ||
    bad "the built pages differ from a fresh xwgen run: not byte-stable or stale"

cd "$built"
# an alias is a page whose first line is ".so man3/<target>.3" (one grep, not one per file)
mapfile -t aliases < <(grep -l -m1 '^\.so ' -- *.3 | sort)
declare -A is_alias=()
for a in "${aliases[@]}"; do is_alias[$a]=1; done
real=()
for f in *.3; do [[ -n ${is_alias[$f]:-} ]] || real+=("$f"); done
helper_pages=("$helpers"/*.3)
for fam in "${families[@]}"; do
  [[ -f $helpers/xw_$fam.3 ]] || bad "no helper page xw_$fam.3"
  [[ ! -e $built/xw_$fam.3 ]] || bad "xw_$fam.3 is both a helper page and a generated one"
done
total=$((${#real[@]} + ${#helper_pages[@]}))
want=$((requests + ${#families[@]}))
[[ $total -eq $want ]] ||
    bad "$total pages (${#real[@]} generated + ${#helper_pages[@]} helper)," \
        "want $want ($requests requests + ${#families[@]} families)"

# Every alias is one line naming a page that exists and is not itself an alias.
while read -r a lines t; do
  if [[ $lines -ne 1 || ! -f $t ]]; then bad "$a: bad alias (${lines} lines, target '$t')"
  elif [[ -n ${is_alias[$t]:-} ]]; then bad "$a -> $t is an alias of an alias"; fi
done < <(awk 'FNR == 1 { if (f) print f, n, t; f = FILENAME; t = $2; sub(/^man3\//, "", t); n = 0 }
              { n++ } END { if (f) print f, n, t }' "${aliases[@]}")

# One groff run over every page: any warning (-ww) or error fails.
groff -man -ww -z -Tutf8 "${real[@]}" "${helper_pages[@]}" 2>"$work/groff.err" || bad "groff exited with $?"
if [[ -s $work/groff.err ]]; then bad "groff warned:"; head -20 "$work/groff.err"; fi

# man-db can index each page: a NAME line with "name \- what".
lexgrog "${real[@]}" "${helper_pages[@]}" >"$work/whatis" 2>&1 || bad "lexgrog failed"
if grep -v ': "' "$work/whatis" | grep -q .; then
    bad "pages without a whatis line:"
    grep -v ': "' "$work/whatis" | head
fi

# Every "name (3)" cross-reference names a page here.
declare -A have=()
for f in *.3 "${helper_pages[@]}"; do f=${f##*/}; have[${f%.3}]=1; done
while read -r ref; do
  [[ -n ${have[$ref]:-} ]] || bad "a page refers to $ref(3), which has no page"
done < <(cat "${real[@]}" "${helper_pages[@]}" | sed -n 's/^\.BR \([A-Za-z0-9_]*\) (3).*/\1/p' | sort -u)

echo "$requests requests: ${#real[@]} request pages, ${#aliases[@]} aliases; ${#helper_pages[@]} helper pages"
exit $((fails > 0))
