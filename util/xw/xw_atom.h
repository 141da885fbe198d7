/* SPDX-License-Identifier: MIT */
#ifndef XW_ATOM_H
#define XW_ATOM_H
/* xw_atom.h — xcb-util's atom-name builders (<xcb/xcb_atom.h>) on xwire: the names a
 * client interns for per-screen selections (WM_S0), per-resource and unique atoms.
 * Part of libxwire-util. */
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** "<base>_S<screen>" (screen in decimal), as ICCCM's per-screen selection names
 * ("WM_S0"). Returns a malloc'd string the caller frees, or NULL when `base` is NULL
 * or memory ran out. Thread-safe. */
XW_EXPORT char *xw_atom_name_by_screen(const char *base, uint8_t screen);

/** "<base>_R<resource>", the resource as 8 upper-case hex digits. Returns a malloc'd
 * string the caller frees, or NULL when `base` is NULL or memory ran out. */
XW_EXPORT char *xw_atom_name_by_resource(const char *base, uint32_t resource);

/** "<base>_U<id>" (decimal), or "U<id>" when `base` is NULL. Returns a malloc'd string
 * the caller frees, or NULL when memory ran out. */
XW_EXPORT char *xw_atom_name_unique(const char *base, uint32_t id);

#ifdef __cplusplus
}
#endif
#endif
