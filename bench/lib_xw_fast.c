/* SPDX-License-Identifier: MIT */
/* lib_xw_fast.c — the benchmark cases for xwire in its fastest mode: a connection that one thread owns,
 * so the runtime takes no lock. The same case source as libxcb and default xwire, one call added. */
#include <xw/xw.h>

#define L(name) xw_##name
#define LC(name) XW_##name
#define LIB_NAME "xwire 1-thread"
#define LIB_SYMBOL lib_xw_fast
#define LIB_PREPARE(c) xw_connection_set_single_threaded((c), 1)
#define LIB_ONE_THREAD
#include "xcb_cases.inc"
