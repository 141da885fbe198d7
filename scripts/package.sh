#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# package.sh — build xwire's Debian packages from debian/ into build-deb/ (outside the
# source tree that dpkg-buildpackage sees): the tracked files of this clone are copied
# to build-deb/xwire-VERSION, built with dpkg-buildpackage -b, and checked by lintian.
# The test suite is not run (DEB_BUILD_OPTIONS=nocheck unless set; debian/rules does
# not build it either). lintian must report no error and no warning (debian/*.lintian-overrides
# explain the ones that stay). Needs debhelper, dpkg-dev and lintian (scripts/deps.sh).
#   scripts/package.sh [OUTDIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$(realpath -m "${1:-$root/build-deb}")
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)
src=$out/xwire-$version

rm -rf "$src"
mkdir -p "$src"
# What a clone holds (tracked and new, unignored files), never build directories.
git -C "$root" ls-files -z --cached --others --exclude-standard |
  (cd "$root" && tar --null -T - -cf -) | tar -xf - -C "$src"
export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-nocheck}
(cd "$src" && dpkg-buildpackage -us -uc -b)
changes=$out/xwire_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).changes
echo "package.sh: lintian $changes" >&2
lintian --fail-on error,warning --tag-display-limit 0 -I "$changes"
ls -l "$out"/*.deb
