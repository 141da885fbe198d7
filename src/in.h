/* SPDX-License-Identifier: MIT */
/* in.h — internal: the read path's state and its calls (lock held). */
#ifndef XW_SRC_IN_H
#define XW_SRC_IN_H

#include "pend.h"
#include "store.h"

struct xw_special_event {
    struct xw_special_event *next;
    uint8_t major;
    uint32_t eid;
    uint32_t *stamp;
    struct xw_queue q;
};

/* The fds one recvmsg returned, with the stream bytes it returned: they belong to
 * the packets overlapping [start, end). Owned until a reply claims them or they
 * are closed. */
struct xw_fd_batch {
    uint64_t start, end;
    unsigned n, used; /* fds[used..n) are not claimed yet */
    int fds[XW_MAX_FDS];
};

/* Batches held at once: a reply's fds come in one or two reads, so only a
 * hostile server needs more (the oldest parsed batch is then closed). */
#define XW_FD_BATCHES 8u

/* A caller blocked in xw_wait_for_reply_into on request seq (claim.c's reply wait sets
 * it while it waits, and clears it, under the lock, before the call returns, so no
 * byte is ever written to buf after that): the reply, once its header is read, goes
 * to buf rather than through a record. One at a time; other waiters take the record
 * path. The caller owns buf; the connection writes to it only while registered. */
enum xw_into_state {
    XW_INTO_WAIT = 1, /* registered, nothing written yet */
    XW_INTO_FILL,     /* a packet larger than the read buffer is being received into buf */
    XW_INTO_DONE,     /* the reply (and its fds, now the caller's) is in buf: len bytes */
};

struct xw_into {
    uint64_t seq; /* 0: nobody registered */
    uint8_t *buf;
    size_t cap;
    size_t len;
    enum xw_into_state state;
};

struct xw_in {
    uint8_t *buf;      /* XW_IN_SIZE bytes, allocated at connect */
    size_t len;        /* valid bytes from buf[0] */
    uint8_t for_reply; /* the next read is for a caller waiting for a reply */
    uint8_t more;      /* the last read filled all it asked for, or left a packet half read:
                       more is likely there, so the next wait reads before it polls */
    uint8_t stream;    /* the last wait read XW_IN_STREAM bytes or more */
    uint8_t *pdata;    /* a packet larger than buf being filled in place: NULL when none;
                       else the data of partial, or (partial NULL) the registered into.buf */
    struct xw_pkt *partial;
    size_t pfill, pneed;
    struct xw_into into;
    uint64_t last_seq; /* widened sequence of the last packet read */
    uint64_t err_seq;  /* highest sequence finished by an error, or by an older reply standing in for its
                          own (done_seq) */
    uint64_t dropped;  /* replies no request expected, dropped (the reader's routing says which) */
    int reading;       /* a thread is in poll()/recvmsg() for this connection */
    int block;         /* the socket is blocking: some waits with no deadline are one recvmsg, no poll */
    uint64_t rpos;     /* stream offset just past the last byte received */
    uint64_t pstart;   /* stream offset of the partial packet's first byte */
    unsigned fdwait;   /* unfinished requests whose reply brings fds */
    unsigned nfdb;     /* fd batches held, in stream order */
    struct xw_fd_batch fdb[XW_FD_BATCHES];
    struct xw_pend_store pend; /* sorted by seq */
    struct xw_queue events;
    struct xw_pkt *spare; /* an emptied batch kept for the next (owned): events that
                             trickle in one at a time take no record from the store */
    struct xw_special_event *special;
};

/* in.c (lock held) */
/* One wait for input, for a reply or the event queues (deadline not 0: -1 none). */
int xw__in_wait(xw_connection_t *c, int64_t deadline);
int xw__in_read_nonblock(xw_connection_t *c);
/* The rest of a half-received packet in one blocking read, when this thread may read
 * into it unlocked (own: the packet goes into this very caller's registered buffer);
 * 1 when it read. */
int xw__in_fill_partial(xw_connection_t *c, int64_t deadline, int own);

/* A record for a packet of need bytes bigger than the read buffer, where its rest is
 * read (in->partial, in->pdata); 0 or -ENOMEM (the connection failed). */
int xw__in_partial_record(xw_connection_t *c, size_t need);
/* Every request up to the returned one is finished (lock held): any packet
 * finishes the requests before it, an error its own too. Worked out on demand from
 * what route keeps anyway, so the per-packet path stores nothing for it. */
static inline uint64_t xw__in_done_seq(const struct xw_in *in)
{
    uint64_t before = in->last_seq ? in->last_seq - 1 : 0;
    return in->err_seq > before ? in->err_seq : before;
}

/* The own socket's side of the transport seam's reading half: a request's pending
 * entry, before its bytes go out. */
int xw__in_track(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq);

/* The server has answered past seq: no packet for it can come any more. */
static inline int xw__in_answered_past(const struct xw_in *in, uint64_t seq)
{
    return seq < in->last_seq;
}

void xw__queue_free(xw_connection_t *c, struct xw_queue *q);
void xw__in_fini(xw_connection_t *c);

#endif
