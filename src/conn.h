/* SPDX-License-Identifier: MIT */
/* conn.h — internal: the connection structure, its write-side state, and its lock. */
#ifndef XW_SRC_CONN_H
#define XW_SRC_CONN_H

#include "ext.h"
#include "lend.h"
#include "lock.h"
#include "queue.h"
#include "route.h"
#include "store.h"

enum xw_bigreq {
    XW_BIGREQ_UNAVAILABLE = -1, /* absent, refused, or being asked for */
    XW_BIGREQ_UNTRIED = 0,      /* not asked yet, or BigReqEnable in flight (bigreq_seq) */
    XW_BIGREQ_ENABLED = 1,      /* big_words holds the server's limit */
};

struct xw_out {
    uint8_t *ptr;          /* next free byte in buf: buf..ptr is queued */
    uint8_t *end;          /* buf + XW_OUT_SIZE */
    uint64_t seq;          /* last sequence number handed out */
    uint64_t fast_limit;   /* xw__out_reserve allowed while seq < fast_limit; 0 blocks it */
    uint64_t inline_limit; /* fast_limit in single-threaded mode, else 0 (xw__out_reserve_unlocked);
                              stored atomically (relaxed): senders read it without the lock */
    uint8_t *buf;          /* XW_OUT_SIZE bytes, allocated at connect */
    uint64_t last_reply;   /* last reply-bearing request (for the automatic sync) */
    uint64_t flushed;      /* every request <= flushed is on the wire */
    int writing;           /* a thread is writing with the lock released */
    unsigned nfds;
    int fds[XW_MAX_FDS]; /* owned: sent with the next write, closed after */
    uint32_t max_words;  /* current request limit in 4-byte units */
    enum xw_bigreq bigreq;
    uint64_t bigreq_seq; /* BigReqEnable in flight */
    uint32_t big_words;  /* the server's BIG-REQUESTS limit, once enabled */
    uint64_t accounted;  /* borrowed: requests up to here were counted to the owner */
};

struct xw_connection_t {
    struct xw_out out; /* first: the send fast path touches only this, single, mu */
    int single;        /* xw_connection_set_single_threaded: no locking */
    struct xw_ext_fast ext_fast[XW_EXT_FAST_SLOTS];
    struct xw_mutex mu;
    struct xw_cond out_cond; /* writing finished */
    struct xw_cond in_cond;  /* packets arrived, or reading finished */
    int fd;
    int error; /* first fatal error (XW_CONN_*), 0 when healthy */
    char errstr[256];
    int fail_errno; /* errno the failure leaves (xw__fail_conn), for Xlib's message */
    struct xw_in in;
    struct xw_store store;
    uint8_t *setup; /* whole setup reply, 8-byte header included */
    size_t setup_len;
    struct xw_ext_entry *exts;
    struct xw_mutex xid_mu; /* guards the xid_ fields, taken before mu */
    uint32_t xid_base, xid_mask, xid_inc, xid_last, xid_max;
    uint64_t total_read, total_written;
    const struct xw_transport *tp; /* never NULL; see struct xw_transport */
    /* Another party holds the socket's write side: tp->take gets it back before our
     * next write. A borrowed connection until its first take and after each
     * xw_borrow_return_socket(); an own socket never, until one is lent out. */
    int socket_away;
    /* Borrowed connections: the owner's hooks, NULL on a connection with
     * its own socket (the own transport: the one xw_take_socket may lend, and an event
     * poll reads directly), and the owner's fd. */
    const struct xw_borrow_ops *borrow;
    void *borrow_closure;
    int borrow_fd;
    struct xw_queue borrow_stash; /* replies left by a too-small _into buffer (owned) */
    struct xw_lend lend;
    /* Call sites: NULL while off. Set once, under the lock, never
     * cleared before disconnect; while set the fast limits stay 0. */
    struct xw_callsite *cs;
    /* The protocol tracer's state (trace.c, owned), NULL while tracing is off: the
     * write and read paths test it once per system call, never per request. */
    struct xw_trace *trace;
    int64_t born_ns; /* when the connection was made (xw__clock_now), for the trace's times */
};

static inline void xw__conn_lock(xw_connection_t *c)
{
    if (!c->single)
        xw__lock_acquire(&c->mu);
}

static inline void xw__conn_unlock(xw_connection_t *c)
{
    if (!c->single)
        xw__lock_release(&c->mu);
}

#endif
