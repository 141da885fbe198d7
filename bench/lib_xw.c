/* SPDX-License-Identifier: MIT */
/* lib_xw.c — the benchmark cases for xwire: the shared case source with the xw_ prefix, nothing else
 * changed, which is the port a libxcb user makes. */
#include <xw/xw.h>

#define L(name) xw_##name
#define LC(name) XW_##name
#define LIB_NAME "xwire"
#define LIB_SYMBOL lib_xw
#include "xcb_cases.inc"
