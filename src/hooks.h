/* SPDX-License-Identifier: MIT */
/* hooks.h — internal: what a layer built over the runtime registers. */
#ifndef XW_SRC_HOOKS_H
#define XW_SRC_HOOKS_H

#include "base.h"

/* What a layer built over the runtime adds to it. libxcb.so.1 from xwire registers
 * these from its load-time constructors, before any connection can exist, so they
 * are read without a lock; in libxwire itself they stay NULL (the library never
 * prints). Either may be NULL.
 * setup_refused: a refused setup's reason goes to stderr as libxcb writes it. s: the
 *   whole setup reply (len bytes, owned by the connection), status 0 (Failed) or
 *   2 (Authenticate).
 * lent: with call sites on, an owner of the socket that is libX11 gets an
 *   after-function that records its requests (Xlib writes them long after its call
 *   returned). Lock not held; the owner's own lock is. taking: the owner is taking
 *   the socket and upto is the last request before its turn; else the owner has just
 *   written its requests up to upto (xw_writev). Called on every take and every
 *   write, to put the after-function back when something replaced it. */
struct xw_hooks {
    void (*setup_refused)(const uint8_t *s, size_t len);
    void (*lent)(xw_connection_t *c, void (*return_socket)(void *), void *closure, uint64_t upto, int taking);
};
extern struct xw_hooks xw__hooks;

/* Sets the hooks h gives (non-NULL fields); the others keep what they had. Call it
 * before the first connection, from one thread. */
void xw__hooks_register(const struct xw_hooks *h);

#endif
