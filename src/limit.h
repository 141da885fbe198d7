/* SPDX-License-Identifier: MIT */
/* limit.h — internal: the send fast path's limit, the one compare that lets a request
 * skip the general path (lock held). */
#ifndef XW_SRC_LIMIT_H
#define XW_SRC_LIMIT_H

#include "conn.h"

/* Lock held. The fast path runs while seq < fast_limit: that single compare covers
 * a fatal error, a thread writing with the lock released, the automatic sync after
 * XW_MAX_VOID_RUN void requests and a sequence number whose low 32 bits are zero
 * (a 32-bit cookie of 0 means "failed"), a socket another party holds
 * (away: socket_away, a borrowed connection without its owner's socket or our own
 * socket lent to another owner by xw_take_socket), and call sites being recorded. */
static inline void xw__limit_set(xw_connection_t *c, int away)
{
    struct xw_out *o = &c->out;
    uint64_t run = o->last_reply + XW_MAX_VOID_RUN;
    uint64_t wrap = o->seq | 0xffffffffu;
    /* call sites on: every request takes the general path, which records them */
    int closed = c->error || o->writing || away || c->cs;
    o->fast_limit = closed ? 0 : (run < wrap ? run : wrap);
    __atomic_store_n(&o->inline_limit, c->single ? o->fast_limit : 0, __ATOMIC_RELAXED);
}

static inline void xw__limit_refresh(xw_connection_t *c)
{
    xw__limit_set(c, c->socket_away);
}

#endif
