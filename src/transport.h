/* SPDX-License-Identifier: MIT */
/* transport.h — internal: the transport seam: how bytes reach the server and how its answers come back. */
#ifndef XW_SRC_TRANSPORT_H
#define XW_SRC_TRANSPORT_H

#include "conn.h"

/* ---- the transport seam: how bytes reach the server and how its answers come back ----
 * The one place where a connection with its own socket (own.c's table) and one
 * borrowing another library's connection (borrow.c's) differ. Chosen at
 * construction, never changed. The write path, the waits and the public calls go
 * through it (connect.c and xid.c call it directly, the rest through the wrappers
 * below); the send fast path
 * and the inline senders do not (a borrowed connection closes them with its
 * fast_limit), so a request pays no indirect call. */

/* Beside a request's flags in xw_transport.send_flags: the request carries fds. */
#define XW__SEND_WITH_FDS (1u << 15)

struct xw_transport {
    /* Lock held, writing set: every byte of iov to the server (advanced in place),
     * the lock released while waiting for room; on failure the connection fails. */
    void (*write)(xw_connection_t *c, struct iovec *iov, size_t n);
    /* Lock held, not writing, socket_away set: the write side back from whoever
     * holds it, which clears socket_away; 0 or -errno. May release the lock. */
    int (*take)(xw_connection_t *c);
    /* Requests with any of these flags (or XW__SEND_WITH_FDS) go to send instead of
     * the write buffer, vetted, before taking a sequence number. Lock held; send may
     * release it. Returns the sequence number or 0 (xw__fail_request). */
    unsigned send_flags;
    uint64_t (*send)(xw_connection_t *c, int flags, struct iovec *vector, const xw_protocol_request_t *req,
                     unsigned nfds, int *fds);
    /* Lock not held: fd goes out with the next write; the transport owns it. */
    void (*send_fd)(xw_connection_t *c, int fd);
    /* Lock not held, after xw_flush wrote our buffer: whatever else the transport
     * holds back. 0 or -EPIPE. */
    int (*flush)(xw_connection_t *c);
    /* The rest with the lock held, as the own socket's functions of the same names
     * (in.c: track; claim.c: the others) that the wrappers below stand for. */
    int (*track)(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq);
    uint64_t (*widen)(xw_connection_t *c, unsigned int seq);
    int (*reply)(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt);
    int (*reply_fit)(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need, struct xw_pkt **pkt,
                     void *buf);
    int (*check)(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt);
    void (*discard)(xw_connection_t *c, uint64_t seq, int keep_errors);
    int (*wait)(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading);
    /* Lock held, q (the event queue) empty: one look for new packets that never waits
     * (xw_poll_for_event); q has a packet afterwards when one came. */
    void (*poll)(xw_connection_t *c, struct xw_queue *q);
    /* 1: the socket is the transport's own, so xw_take_socket may lend it to another
     * owner and xw_writev write to it; 0: it belongs to someone else already (a
     * borrowed connection), who lends it, not us. */
    int lendable;
    /* Lock not held (connect.c, xid.c): a failure the transport has seen and the
     * connection not yet (0: none); the fd a caller may poll; a new resource id
     * (ids come from one space per connection); and, from xw_disconnect, the end
     * of the transport (the connection is freed afterwards). */
    int (*error)(xw_connection_t *c);
    int (*fd)(xw_connection_t *c);
    uint32_t (*generate_id)(xw_connection_t *c);
    void (*close)(xw_connection_t *c);
};

/* own.c: a connection's own socket (sendmsg, recvmsg, poll); borrow.c: another
 * library's connection, through its socket hand-off. */
extern const struct xw_transport xw__own_transport;
extern const struct xw_transport xw__borrow_transport;

/* ---- replies, checks and events through the transport (lock held) ---- */

/* A tracked request's pending entry (none on a borrowed connection: its owner reads). */
static inline int xw__transport_track(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq)
{
    return c->tp->track(c, seq, flags, rq);
}

/* The 64-bit sequence number a 32-bit cookie stands for. */
static inline uint64_t xw__transport_widen(xw_connection_t *c, unsigned int seq)
{
    return c->tp->widen(c, seq);
}

/* Waits for request seq and moves its first packet out: 1 with *pkt (reply or error)
 * or NULL (finished without one), 0 on timeout, -errno on connection error. */
static inline int xw__transport_reply(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt)
{
    return c->tp->reply(c, seq, deadline, pkt);
}

/* Like xw__transport_reply, but -ENOSPC (*need set, the packet kept) for a reply over cap
 * bytes; a reply the transport holds without a record (a 32-byte reply kept in its
 * pending entry) is written straight to buf instead: returns 2, 32 bytes. With cap
 * below SIZE_MAX, buf holds cap bytes, and a reply that arrives while the call waits
 * may be received straight into it (no record): returns 3, *need bytes (reply and fds);
 * nothing is written to buf after the call returns. With cap SIZE_MAX (the heap
 * forms) buf holds 32 bytes, for the inline case only. */
static inline int xw__transport_reply_fit(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need,
                                          struct xw_pkt **pkt, void *buf)
{
    return c->tp->reply_fit(c, seq, deadline, cap, need, pkt, buf);
}

/* Waits until void request seq is finished; 1 with its error in *pkt, or NULL. */
static inline int xw__transport_check(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt)
{
    return c->tp->check(c, seq, pkt);
}

/* The reply will be dropped; with keep_errors an error still reaches the event queue. */
static inline void xw__transport_discard(xw_connection_t *c, uint64_t seq, int keep_errors)
{
    c->tp->discard(c, seq, keep_errors);
}

/* One look for new events, never waiting (struct xw_transport.poll). */
static inline void xw__transport_poll(xw_connection_t *c, struct xw_queue *q)
{
    c->tp->poll(c, q);
}

/* 1 when q has a packet, 0 when none came in time, -EPIPE on a connection error. */
static inline int xw__transport_wait(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading)
{
    return c->tp->wait(c, q, deadline, reading);
}

#endif
