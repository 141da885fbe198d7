/* SPDX-License-Identifier: MIT */
#ifndef XW_UTIL_H
#define XW_UTIL_H
/* xw_util.h — all of xcb-util's <xcb/xcb_util.h> on xwire: aux, atom and event. Part of
 * libxwire-util. */
#include <xw/xw_atom.h>
#include <xw/xw_aux.h>
#include <xw/xw_event.h>
#endif
