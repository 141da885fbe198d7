/* SPDX-License-Identifier: MIT */
/* route.h — the routing core: what each received packet is and whose it is, with no I/O. */
#ifndef XW_SRC_ROUTE_H
#define XW_SRC_ROUTE_H

#include "queue.h"
#include "store.h"

/* ---- requests awaiting a reply, an error or a check, routed by the read path ----
 * The pending store's layout: the routing state below embeds it, and the
 * connection embeds that, so it sits here; pend.h holds what works on it, inline
 * functions that read the connection among them. */

/* One request the connection tracks. 40 bytes: a 32-byte reply (nearly every reply)
 * is kept in the entry itself once it arrives, in the space the waiting fields no
 * longer need, so a reply costs no memory of its own. */
struct xw_pend {
    uint64_t seq;
    union {
        struct { /* while no reply is held inline (inl 0) */
            xw_validate_fn validate;
            struct xw_queue q; /* replies (or one error) not yet claimed */
        };
        uint8_t body[24]; /* inl 1: bytes 8..31 of the 32-byte reply */
    };
    uint8_t flags; /* XW_REQUEST_* (all below 1 << 8) */
    uint8_t isvoid;
    uint8_t multi; /* replies until one whose byte 1 is multi_end (struct xw_request) */
    uint8_t multi_end;
    uint8_t done; /* the server has finished this request */
    uint8_t dead; /* claimed or discarded: the slot may be reused once done */
    uint8_t inl;  /* the reply is held inline: byte 1 in byte1, the rest in body */
    uint8_t byte1;
};

/* Entries live in fixed blocks of XW_PEND_BLOCK, found through a ring of block
 * pointers indexed by the entry's running index; a block is given back as soon as
 * its last entry retires, so a deep pipeline never copies the table. Blocks are
 * carved from mapped chunks that double in size (chunk i holds 2^i blocks), each
 * populated in one call when mapped: a million pending requests took 10k page
 * faults one by one when their blocks came from malloc. The first XW_PEND_KEEP
 * chunks (31 blocks, ~8k entries) stay with the store; a larger one, once its
 * last block is back, goes to a process-wide pool of chunks (one per size) that
 * the next store to need that size takes, already populated, before mapping one. */
#define XW_PEND_SHIFT 8
#define XW_PEND_BLOCK (1u << XW_PEND_SHIFT)
#define XW_PEND_CHUNKS 24
#define XW_PEND_KEEP 5

struct xw_pend_chunk {
    uint8_t *base; /* mapped (owned) or NULL */
    size_t bytes;
    unsigned nblk; /* blocks it holds */
    unsigned bump; /* blocks handed out at least once */
    unsigned used; /* blocks handed out now */
    void *free;    /* blocks given back, chained through their first bytes */
};

struct xw_pend_store {
    struct xw_pend **blk; /* bcap (a power of two) slots; entry index i is in blk[(i >> SHIFT) & (bcap - 1)] */
    size_t bcap;
    uint64_t head;         /* running index of the oldest entry */
    size_t n;              /* entries held: head .. head + n */
    size_t undone;         /* the last undone entries are not finished */
    size_t gone;           /* entries dead and done but not at the head (reclaimed by compaction) */
    struct xw_pend *next;  /* where entry head + n goes; NULL: its block is needed first */
    struct xw_pend *first; /* entry head while n > 0: the oldest, found without the ring */
    struct xw_pend_chunk chunk[XW_PEND_CHUNKS];
};

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
    uint8_t *alt;      /* another XW_IN_SIZE bytes (owned): the buffer the view reads from while
                          the next read goes to buf; the two swap when a parse starts a view */
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
    /* A run of core events claimed straight from the bytes they were read into,
     * never copied into a batch: kind XW_PKT_VIEW, ext the buffer (alt once the
     * parse that found them ends), seq the offset of its first event, len the
     * run's end (the cursor moves in vnext, below). Routed like a batch's
     * (last_seq, the pending store) when it is queued, where it stands in the
     * event queue; only the copy out is left for the claim. Its events share the
     * high 48 bits of their sequences (a run that would cross goes on in a
     * batch), so each full_sequence is view_high and the event's own 16 bits. One
     * at a time: while it is queued, later runs take batches, and buf, the only
     * buffer read into, is never the one it shows. Part of the connection, never
     * freed. */
    struct xw_pkt view;
    uint32_t view_high; /* the view's full_sequence less its low 16 bits */
    uint8_t view_on;    /* view is queued */
    /* While the view heads the event queue (armed), its next event and its end:
     * vnext < vend is a claim's one test for "the next event is in the view",
     * and the cursor moves without view.seq. Otherwise vnext == vend (NULL). A
     * view queued behind other packets keeps its run in view.ext/seq/len until
     * they are taken (xw__route_view_arm). */
    const uint8_t *vnext, *vend;
    struct xw_special_event *special;
};

/* State. The core's state is struct xw_in's routing part: the pending store (pend),
 * the widened sequences (last_seq, err_seq), the fd batches (fdb, nfdb, fdwait), the
 * partial packet (pdata, partial, pfill, pneed, pstart), the stream offset rpos, the
 * event queues and the registered into buffer. The socket side owns the rest (for_reply,
 * more, stream, reading, block).
 *
 * One read, as the socket side (or xw__route_feed) does it:
 *   1. the bytes go to the partial packet first when there is one (at in->pdata +
 *      in->pfill, at most in->pneed - in->pfill bytes), the rest to the read buffer
 *      (at in->buf + in->len, at most XW_IN_SIZE - in->len bytes);
 *   2. the read's fds, if any, to xw__route_fds;
 *   3. the byte count to xw__route_input, which routes what is complete.
 * Every function here runs with the lock held, and makes no system call but close()
 * on fds nobody may claim (surplus, unclaimed, or a failing connection's).
 *
 * Ownership. Fds passed in are the core's from the call on, whatever it returns: kept
 * until a reply claims them (they then travel with that reply, to whoever claims the
 * reply), or closed. Bytes are framed in place in the read buffer and copied at most
 * once, to where the packet belongs (a packet bigger than the buffer is read there):
 * a record on its request's queue, the event queue, a special event's queue or a lent
 * socket's stash (all the connection's until claimed), the pending entry itself (a
 * 32-byte reply), or the buffer a waiting caller registered (in->into), which the core
 * writes only while it is registered.
 *
 * Failure. -EPIPE means the connection has failed: c->error and c->errstr say why
 * (a malformed packet, fds that never came or are too many, no memory), the kept fds
 * are closed and nothing more is routed. The socket side calls xw__route_input only
 * while the connection has not failed; xw__route_feed checks, and says -EPIPE again. */

/* Takes the n fds of one read, whose got bytes go to xw__route_input next: they are
 * kept as one batch for the replies among (or, for a request still waiting for fds,
 * after) those bytes. 0, or -ENOBUFS with the fds closed: more than XW_MAX_FDS, or
 * XW_FD_BATCHES batches still wait for bytes not parsed yet (only a hostile server
 * sends that many). The connection is not failed: the caller fails it. */
int xw__route_fds(xw_connection_t *c, const int *fds, unsigned n, size_t got);

/* got bytes just received and placed (step 1 above): completes the partial packet,
 * routes every complete packet, starts a partial packet for a packet bigger than the
 * read buffer, and closes the fds no packet can claim any more. A packet's beginning
 * that fits the buffer waits there for its rest. 0, or -EPIPE (see Failure). */
int xw__route_input(xw_connection_t *c, size_t got);

/* n bytes and nfds fds (the core's from the call on) as reads would bring them: copied
 * where a read puts them, in as many reads as the buffer needs, the fds with the
 * first: the core fed without a socket (tests, fuzzing). 0, or -EPIPE (see Failure). */
int xw__route_feed(xw_connection_t *c, const uint8_t *bytes, size_t n, const int *fds, unsigned nfds);

/* Tracks request seq (the next one sent; flags XW_REQUEST_*, rq its description, read
 * during the call only) in the pending store, so that its replies, error and end are
 * routed to it. 0, or -ENOMEM with nothing tracked and the connection not failed. The
 * own socket's transport calls it for each request that needs an entry. */
int xw__route_track(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq);

/* A record for a packet of need bytes bigger than the read buffer, made the partial
 * packet (in->partial, in->pdata), its pfill, pneed and pstart left to the caller;
 * also where a caller that stops waiting moves a packet half received into its buffer.
 * 0, or -EPIPE: out of memory, the connection failed. */
int xw__route_partial_record(xw_connection_t *c, size_t need);

/* Frees the packets of q (left empty) and closes the fds they carry. */
void xw__route_queue_free(xw_connection_t *c, struct xw_queue *q);

/* Frees every packet the core holds, the pending store and the partial packet, and
 * closes the fds not claimed (disconnect). */
void xw__route_fini(xw_connection_t *c);

/* Arms the view's cursor (vnext, vend) if the view now heads the event queue:
 * whoever queues the view or takes the event queue's head calls this. A cursor
 * already armed is left where it is: view.seq is the run's first event, not the
 * next, and a claim from another queue (a special event's) gets here too. */
static inline void xw__route_view_arm(struct xw_in *in)
{
    if (in->events.head == &in->view && !in->vnext) {
        in->vnext = in->view.ext + in->view.seq;
        in->vend = in->view.ext + in->view.len;
    }
}

/* Every request up to the returned one is finished (lock held): any packet
 * finishes the requests before it, an error its own too. Worked out on demand from
 * what route keeps anyway, so the per-packet path stores nothing for it. */
static inline uint64_t xw__route_done_seq(const struct xw_in *in)
{
    uint64_t before = in->last_seq ? in->last_seq - 1 : 0;
    return in->err_seq > before ? in->err_seq : before;
}

#endif
