/* SPDX-License-Identifier: MIT */
/* lib_xcb.c — the benchmark cases for libxcb: the shared case source with the xcb_ prefix. */
#include <xcb/xcb.h>

#define L(name) xcb_##name
#define LC(name) XCB_##name
#define LIB_NAME "libxcb"
#define LIB_SYMBOL lib_xcb
#include "xcb_cases.inc"
