#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deps.sh — install the Debian 12 packages xwire needs to build, test and benchmark, only when missing
# (scripts/test.sh and bench.sh run it first; it also runs alone).
set -euo pipefail

# libxcb1-dev covers the core protocol, BIG-REQUESTS and XC-MISC; the list below adds
# the other 23 extensions Debian ships a libxcb for (26 of xcb-proto's 32 descriptions).
xcb_ext_devs=(
  libxcb-composite0-dev libxcb-damage0-dev libxcb-dpms0-dev libxcb-dri2-0-dev libxcb-dri3-dev
  libxcb-glx0-dev libxcb-present-dev libxcb-randr0-dev libxcb-record0-dev libxcb-render0-dev
  libxcb-res0-dev libxcb-screensaver0-dev libxcb-shape0-dev libxcb-shm0-dev libxcb-sync-dev
  libxcb-xf86dri0-dev libxcb-xfixes0-dev libxcb-xinerama0-dev libxcb-xinput-dev libxcb-xkb-dev
  libxcb-xtest0-dev libxcb-xv0-dev libxcb-xvmc0-dev
)
# Debian's 24 libxcb runtime libraries: the oracle of the libxcb family built from
# xwire (libxcb/), compared symbol by symbol, and what the mixed-set tests load.
xcb_runtimes=(
  libxcb1 libxcb-composite0 libxcb-damage0 libxcb-dpms0 libxcb-dri2-0 libxcb-dri3-0 libxcb-glx0
  libxcb-present0 libxcb-randr0 libxcb-record0 libxcb-render0 libxcb-res0 libxcb-screensaver0
  libxcb-shape0 libxcb-shm0 libxcb-sync1 libxcb-xf86dri0 libxcb-xfixes0 libxcb-xinerama0
  libxcb-xinput0 libxcb-xkb1 libxcb-xtest0 libxcb-xv0 libxcb-xvmc0
)
# Debian's xcb-util family and a cursor theme: the oracles of libxwire-util's tests,
# never dependencies of the library.
xcb_util_oracles=(
  libxcb-util-dev libxcb-icccm4-dev libxcb-ewmh-dev libxcb-keysyms1-dev libxcb-image0-dev
  libxcb-cursor-dev libxcb-render-util0-dev libxcb-xrm-dev xcursor-themes
)
# libXcursor reads the same theme files on its own (the cursor test's frame oracle);
# Adwaita is the default cursor theme the test also loads.
xcb_util_oracles+=(libxcursor-dev adwaita-icon-theme)
# setxkbmap: the keysyms test changes the keymap through XKB.
xkb_tools=(x11-xkb-utils)
# The corpus (tests/corpus): unmodified programs run on Debian's libxcb and on xwire's.
# x11-utils, x11-apps and xtrace are in the list below already.
corpus_programs=(x11-xserver-utils xterm xdotool mesa-utils python3-xcffib i3-wm)
# ...and those found by trying programs from outside that list: selections, a
# seccomp-confined wallpaper setter, a window manager, XInput, XKB through
# libxkbcommon-x11, a compositor, and the GTK 3, Tk and Qt 5 toolkits (the probes'
# python3-gi, python3-tk, python3-pyqt5).
corpus_programs+=(xclip xsel xwallpaper hsetroot openbox wmctrl xinput libxkbcommon-tools xcompmgr
                  python3-gi gir1.2-gtk-3.0 python3-tk python3-pyqt5)
# libXdmcp: the tests' oracle of the XDM-AUTHORIZATION-1 cipher (XdmcpWrap/XdmcpUnwrap);
# xwire itself does its own DES and links only libXau.
auth_oracles=(libxdmcp-dev)
# elfutils' libdw: X errors' call sites as file:line (XWIRE_ERRORS=callsite); the
# build takes it when present and falls back to function+offset without it.
callsite_devs=(libdw-dev)
# The sanitizer stage's reports need symbols: clang's runtime runs /usr/bin/llvm-symbolizer-14
# or llvm-symbolizer from PATH, both in llvm (only recommended by clang, so a
# --no-install-recommends install has neither and prints bare addresses).
sanitizer_tools=(llvm)
packages=(
  "${corpus_programs[@]}"
  "${sanitizer_tools[@]}"
  "${auth_oracles[@]}"
  "${callsite_devs[@]}"
  "${xkb_tools[@]}"
  meson ninja-build gcc g++ clang pkg-config libexpat1-dev xcb-proto check libxau-dev
  xvfb x11-utils x11-apps xtrace libx11-dev libx11-xcb-dev libxcb1-dev python3
  "${xcb_ext_devs[@]}" "${xcb_runtimes[@]}" binutils
  libxext-dev libxxf86vm-dev libxi-dev libxrandr-dev valgrind libclang-rt-14-dev strace linux-perf
  "${xcb_util_oracles[@]}"
  groff-base man-db
  # abidiff: the abi suite checks libxwire and libxwire-util against abi/*.abi.xz; xz-utils unpacks them.
  abigail-tools xz-utils
  # scripts/format.sh and the format test: the C sources as .clang-format says.
  clang-format
  # scripts/package.sh: the Debian packages from debian/, and lintian over them.
  debhelper dpkg-dev lintian
)

# A package counts as present only when dpkg says "install ok installed"; one
# dpkg-query for all of them (it names unknown ones on stderr and exits 1).
declare -A present=()
while read -r name want ok state; do
  [[ "$want $ok $state" == "install ok installed" ]] && present[$name]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${packages[@]}" 2>/dev/null || true)
missing=()
for p in "${packages[@]}"; do
  [[ -n ${present[$p]:-} ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "deps.sh: installing ${missing[*]}" >&2
if ((EUID != 0)); then
  echo "deps.sh: missing packages and not root; run as root or install them by hand" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
