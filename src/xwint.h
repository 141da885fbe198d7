/* SPDX-License-Identifier: MIT */
/* xwint.h — internal: the connection structure, its lock, and what the subsystems and the
 * generated senders share (never installed). */
#ifndef XW_INT_H
#define XW_INT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <xw/xw.h>
#include <xw/xwext.h>
#include <xw/xwborrow.h>
#include <xw/bigreq.h>
#include <xw/xc_misc.h>

#define XW_LIKELY(x) __builtin_expect(!!(x), 1)
#define XW_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Sizes. The write buffer is allocated once at connect and never grows; slices of
 * XW_COPY_MAX bytes or more are written from the caller's memory, never copied. */
#define XW_OUT_SIZE 16384u
#define XW_COPY_MAX 4096u
/* Spare bytes after the write buffer: the fast path stores padding 4 bytes at a time. */
#define XW_OUT_SLACK 16u
#define XW_IN_SIZE 65536u
/* What the first read asks for when a caller waits for a reply after the socket was
 * drained: a reply longer than this is then received in place (into its record or
 * the waiting caller's buffer) after at most this many bytes are copied. libxcb
 * reads 4 KiB at a time; a read that fills it is followed by full-size ones without
 * a poll between, so a pipeline's replies still come in 64 KiB reads. */
#define XW_IN_FIRST 4096u
/* A read of this many bytes or more says the server streams (it wrote more than we
 * waited for): the next wait blocks in recvmsg instead of polling. Small-buf's
 * reads are its 8 KiB socket buffer; Xvfb's mostly a few events (xw_in.stream). */
#define XW_IN_STREAM 4096u
/* The most fds one sendmsg/recvmsg carries, as in libxcb. */
#define XW_MAX_FDS 16u
/* Biggest packet we accept from a server, checked before anything is allocated. */
#define XW_PACKET_CAP (256u << 20)
/* A sync is inserted before this many void requests follow the last reply-bearing
 * one, so 16-bit sequence numbers on the wire can always be widened. */
#define XW_MAX_VOID_RUN 65534u

/* ---- lock: a futex mutex and condition. Cheaper than pthread's because the
 * uncontended path is one inline compare-exchange and one exchange. ---- */
struct xw_mutex {
    int v; /* 0 free, 1 held, 2 held and someone may sleep on it */
};

struct xw_cond {
    unsigned seq; /* bumped by every broadcast; sleepers wait for it to change */
    int waiters;  /* changed only under the mutex, so broadcast can skip the syscall */
};

void xw__mutex_lock_slow(struct xw_mutex *m);
void xw__mutex_wake(struct xw_mutex *m);
/* Waits until broadcast or deadline (CLOCK_MONOTONIC ns, -1: none). Mutex held on
 * entry and exit. Returns 0 or -ETIMEDOUT. */
int xw__cond_wait(struct xw_cond *cv, struct xw_mutex *m, int64_t deadline);
void xw__cond_wake_all(struct xw_cond *cv);
/* Inline: nearly always nobody waits, and waiters says so in one load. */
static inline void xw__cond_broadcast(struct xw_cond *cv)
{
    if (cv->waiters)
        xw__cond_wake_all(cv);
}
int64_t xw__now(void);
int64_t xw__deadline(int timeout_ms);
int xw__poll_timeout(int64_t deadline);

/* While the process has a single thread (glibc's __libc_single_threaded, as its
 * own pthread_mutex uses), nobody can contend, so plain stores do; it only ever
 * turns false, and never while a thread is inside a critical section of ours. */
#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define XW_PROCESS_SINGLE_THREADED() __libc_single_threaded
#endif
#endif
#ifndef XW_PROCESS_SINGLE_THREADED
#define XW_PROCESS_SINGLE_THREADED() 0
#endif

static inline void xw__mutex_lock(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 1;
        return;
    }
    int z = 0;
    if (XW_LIKELY(__atomic_compare_exchange_n(&m->v, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
        return;
    xw__mutex_lock_slow(m);
}

static inline void xw__mutex_unlock(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 0;
        return;
    }
    if (XW_UNLIKELY(__atomic_exchange_n(&m->v, 0, __ATOMIC_RELEASE) == 2))
        xw__mutex_wake(m);
}

/* The lock's halves for fast paths that must stay leaves (no call, so no registers
 * to save): they never sleep or wake anyone themselves. trylock: 1 when taken, else
 * the caller goes to a path that takes the lock with xw__mutex_lock. release: 0 when
 * a sleeper must be woken: the lock is free then, and the caller ends by
 * returning xw__mutex_wake_ret (a tail call). */
static inline int xw__mutex_trylock(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 1;
        return 1;
    }
    int z = 0;
    return __atomic_compare_exchange_n(&m->v, &z, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static inline int xw__mutex_release(struct xw_mutex *m)
{
    if (XW_PROCESS_SINGLE_THREADED()) {
        m->v = 0;
        return 1;
    }
    return __atomic_exchange_n(&m->v, 0, __ATOMIC_RELEASE) != 2;
}

/* Wakes a sleeper of the lock just released, then returns v. */
uint64_t xw__mutex_wake_ret(struct xw_mutex *m, uint64_t v);

/* ---- received packets ---- */

/* XW_PKT_BATCH: core events (36 bytes each, libxcb's layout) packed in one record
 * of the event queue; see XW_BATCH_BYTES. */
enum { XW_PKT_REPLY, XW_PKT_ERROR, XW_PKT_EVENT, XW_PKT_BATCH };

/* A packet held by the connection until a caller claims it. data holds what a
 * caller receives: reply bytes then its fds; events and errors in libxcb's layout
 * (32 bytes, full_sequence at 32, XGE extra data from 36). Records are recycled
 * through per-size-class free lists, so steady state allocates nothing. */
struct xw_pkt {
    struct xw_pkt *next;
    uint64_t seq;
    uint32_t len;  /* bytes of data, fds not included */
    uint16_t nfds; /* ints after len bytes */
    uint8_t cls;   /* size class: capacity is xw__class_bytes(cls) bytes including this header */
    uint8_t kind;
    uint8_t *ext; /* large classes: the data lives in its own malloc'd block (owned),
                      which the libxcb-compatible calls hand over without a copy */
};

#define XW_PKT_DATA(p) ((p)->ext ? (p)->ext : (uint8_t *)((p) + 1))
#define XW_STORE_CLASSES 30

/* Core events wait in the event queue packed, XW_BATCH_EVENTS to a record (of the
 * 2 KiB class), rather than one record each: a million unread events cost 38 MB,
 * where a record apiece cost 72 (libxcb's block and list node: 80). In a batch,
 * len is the bytes written (36 per event) and seq, which a batch has no use for,
 * the offset of the first one not yet taken; it leaves the queue once empty. */
#define XW_BATCH_EVENTS 56
#define XW_BATCH_BYTES (XW_BATCH_EVENTS * 36)

struct xw_store {
    struct xw_pkt *free[XW_STORE_CLASSES];
    unsigned nfree[XW_STORE_CLASSES];
    struct xw_slab *slabs; /* owned: records of the small classes live in them */
};

struct xw_pkt *xw__pkt_alloc(xw_connection_t *c, size_t bytes);
void xw__pkt_free(xw_connection_t *c, struct xw_pkt *p);
void xw__store_fini(struct xw_store *s);

struct xw_queue {
    struct xw_pkt *head, *tail;
};

/* The size class of an event or error record: not a power of two but the header
 * and libxcb's 36 bytes, rounded to the header's alignment (72 bytes), since a
 * queue of a million unread events is a million of these (the power-of-two class,
 * 128 bytes, cost more than libxcb's 36-byte block and list node). Its index is one
 * no power-of-two class uses (those start at 64 bytes, index 6). A slab class, so
 * its records only ever move between the free list and the queues. Core events
 * queue in batches (XW_BATCH_BYTES); errors and short XGE events take these, and
 * the event calls give them back inline. */
#define XW_EVENT_CLASS 1
#define XW_EVENT_REC_BYTES ((sizeof(struct xw_pkt) + 36 + _Alignof(struct xw_pkt) - 1) & ~(_Alignof(struct xw_pkt) - 1))
_Static_assert(sizeof(struct xw_pkt) + XW_BATCH_BYTES > 1024 && sizeof(struct xw_pkt) + XW_BATCH_BYTES <= 2048,
               "a batch fills the 2 KiB class");
_Static_assert(XW_EVENT_REC_BYTES > 64 && XW_EVENT_REC_BYTES < 128,
               "the event class lies between the 64- and 128-byte classes");

/* A class's capacity in bytes, its header included. */
static inline size_t xw__class_bytes(unsigned k)
{
    return k == XW_EVENT_CLASS ? XW_EVENT_REC_BYTES : (size_t)1 << k;
}

/* ---- how a request is sent ----
 * xwire's private request descriptor: libxcb's public 24 bytes, with what the
 * runtime needs to route the answers. The generated senders pass their own
 * (xw__<request>_req, at file scope) to xw__send; the public xw_send and libxcb's
 * forms look these facts up in the generated tables by extension name and opcode
 * (xw__request_lookup), so requests built by code written for libxcb get them too.
 * The multi-reply facts sit in the public struct's tail padding, next to isvoid,
 * as they did before the public struct lost them: the send fast path copies the
 * three bytes into the pending entry together. Build one through f: an initializer
 * through pub leaves pub's padding, hence the facts, unspecified. */
struct xw_request {
    union {
        xw_protocol_request_t pub; /* what code written for libxcb sees */
        struct {                   /* pub's members, then xwire's in its padding */
            size_t count;
            xw_extension_t *ext;
            uint8_t opcode;
            uint8_t isvoid;
            uint8_t multi_reply; /* 1: the server sends replies until one whose byte 1 is multi_end */
            uint8_t multi_end;
            uint8_t reply_gap; /* 1: the reply's validator reads slack (XW__REQUEST_REPLY_GAP) */
        } f;
    };
    xw_validate_fn validate; /* checks the reply when it arrives; NULL: fixed size or unknown */
};
/* Beside XW_REQUEST_* in a pending entry's flags, set by the generated senders of
 * requests whose reply has a layout gap (xwext.h, XW_REPLY_SLACK): the reply's
 * validator reads up to XW_REPLY_SLACK bytes past it, so a caller's buffer receives
 * such a reply directly only when it has that much room to spare. */
#define XW__REQUEST_REPLY_GAP (1 << 5)

_Static_assert(sizeof(xw_protocol_request_t) == 24 && offsetof(struct xw_request, validate) == 24,
               "xwire's facts must fit in the padding of libxcb's 24 bytes");

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

/* ---- requests awaiting a reply, an error or a check, routed by the read path ---- */

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
    uint64_t head;        /* running index of the oldest entry */
    size_t n;             /* entries held: head .. head + n */
    size_t undone;        /* the last undone entries are not finished */
    size_t gone;          /* entries dead and done but not at the head (reclaimed by compaction) */
    struct xw_pend *next; /* where entry head + n goes; NULL: its block is needed first */
    struct xw_pend_chunk chunk[XW_PEND_CHUNKS];
};

static inline struct xw_pend *xw__pend_at(const struct xw_pend_store *s, size_t i)
{
    uint64_t k = s->head + i;
    return &s->blk[(k >> XW_PEND_SHIFT) & (s->bcap - 1)][k & (XW_PEND_BLOCK - 1)];
}

struct xw_special_event {
    struct xw_special_event *next;
    uint8_t major;
    uint32_t eid;
    uint32_t *stamp;
    struct xw_queue q;
};

enum xw_ext_state {
    XW_EXT_UNASKED, /* no QueryExtension sent yet */
    XW_EXT_ASKED,   /* QueryExtension in flight (seq) */
    XW_EXT_PRESENT, /* reply stored (present or not: reply says) */
    XW_EXT_FAILED,  /* the query could not be sent or was answered with an error */
};

/* One extension's QueryExtension state, found by name (never by a key's address:
 * a caller's key may be freed and another allocated at the same address); allocated
 * once, pointer-stable, so xw_get_extension_data can return reply. */
struct xw_ext_entry {
    struct xw_ext_entry *next;
    const xw_ext_desc_t *desc; /* NULL: xwire has no description of this extension */
    uint64_t seq;              /* QueryExtension in flight, 0 when none */
    enum xw_ext_state state;
    /* The whole 32-byte reply as received, which xw_get_extension_data returns: libxcb
     * hands out its malloc'd reply, so callers may read past the 12-byte struct (xss-lock
     * reads an int at first_event, which spans 2 bytes of the reply's padding). */
    uint8_t reply[32];
    char name[]; /* owned copy of the name */
};

/* Per-pointer cache in front of the extension list so the send fast path can find
 * a present extension's major opcode without walking a list. It holds generated
 * keys only (desc->key: static, never freed), so a pointer match is a name match. */
struct xw_ext_fast {
    const xw_extension_t *ext;
    uint8_t major;
};
/* Slots in that cache (a power of two), indexed by the key's address without its
 * low four bits: keys are 16-byte objects, so neighbouring keys take neighbouring slots. */
#define XW_EXT_FAST_SLOTS 16
#define XW_EXT_FAST_SLOT(key) ((((uintptr_t)(key)) >> 4) & (XW_EXT_FAST_SLOTS - 1))

/* A description in the process-wide registry: each generated description adds its
 * own node from a load-time constructor; never removed. */
struct xw_ext_reg {
    const xw_ext_desc_t *desc;
    struct xw_ext_reg *next;
};

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
     * release it. Returns the sequence number or 0 (xw__request_fail). */
    unsigned send_flags;
    uint64_t (*send)(xw_connection_t *c, int flags, struct iovec *vector, const xw_protocol_request_t *req,
                     unsigned nfds, int *fds);
    /* Lock not held: fd goes out with the next write; the transport owns it. */
    void (*send_fd)(xw_connection_t *c, int fd);
    /* Lock not held, after xw_flush wrote our buffer: whatever else the transport
     * holds back. 0 or -EPIPE. */
    int (*flush)(xw_connection_t *c);
    /* The rest with the lock held, as the own socket's functions of the same names
     * (in.c: track; claim.c: the others) that xwint.h's wrappers below stand for. */
    int (*track)(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq);
    uint64_t (*widen)(xw_connection_t *c, unsigned int seq);
    int (*reply)(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt);
    int (*reply_fit)(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need, struct xw_pkt **pkt,
                     void *buf);
    int (*check)(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt);
    void (*discard)(xw_connection_t *c, uint64_t seq, int keep_errors);
    int (*wait)(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading);
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

/* ---- the socket lent to another owner: xw_take_socket / xw_writev ---- */

/* Sequences one owner's turn with the socket covered, with the flags it took it
 * with: a packet for a sequence xwire does not track is the owner's only inside one.
 * Ranges the server has answered past are dropped; when all are live the two
 * oldest merge (the merged range then also covers xwire's requests between them). */
#define XW_LEND_RANGES 16u

struct xw_lend_range {
    uint64_t first, last; /* last is UINT64_MAX while the owner holds the socket */
    int flags;            /* XW_REQUEST_CHECKED, _DISCARD_REPLY, _REPLY_FDS */
};

/* Owner sequences discarded (xw_discard_reply64) that the server may still answer:
 * what comes for them is dropped on arrival (errors kept as events with
 * keep_errors). An entry goes once a later packet is read. When all are live the
 * oldest is forgotten: what still comes for it is kept until claimed or disconnect. */
#define XW_LEND_DISCARDS 16u

struct xw_lend_discard {
    uint64_t seq;
    int keep_errors;
};

struct xw_lend {
    void (*give_back)(void *closure); /* the owner's return callback; NULL while xwire holds the socket */
    void *closure;
    int moving; /* give_back is running with the lock released */
    int used;   /* the socket has been lent: unknown sequences may be the owner's */
    unsigned nranges;
    struct xw_lend_range ranges[XW_LEND_RANGES];
    struct xw_queue stash; /* the owner's replies and kept errors, in sequence order (owned) */
    unsigned ndiscards;
    struct xw_lend_discard discards[XW_LEND_DISCARDS];
    /* The owner's newest reply when it is 32 bytes without fds (nearly every reply
     * Xlib waits for), kept here without a record until claimed; anything newer
     * bound for the stash pushes it there first, so stash then slot stay in
     * sequence order (stash.c: xw__lend_spill). */
    struct {
        uint64_t seq;
        int full;
        uint8_t bytes[32];
    } last;
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
    int fail_errno; /* errno the failure leaves (xw__conn_fail), for Xlib's message */
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
    int64_t born_ns; /* when the connection was made (xw__now), for the trace's times */
};

/* ---- the store's event class inline (see XW_EVENT_CLASS) ---- */

/* p, a record of the event class, back on its free list. */
static inline void xw__event_rec_put(struct xw_store *s, struct xw_pkt *p)
{
    p->next = s->free[XW_EVENT_CLASS];
    s->free[XW_EVENT_CLASS] = p;
    s->nfree[XW_EVENT_CLASS]++;
}

/* xw__pkt_free, inline for the event class. */
static inline void xw__pkt_free_event(xw_connection_t *c, struct xw_pkt *p)
{
    if (XW_UNLIKELY(p->cls != XW_EVENT_CLASS)) {
        xw__pkt_free(c, p);
        return;
    }
    xw__event_rec_put(&c->store, p);
}

/* ---- send limits and the pending ring's inline path (the send fast path, the read path) ---- */

/* Lock held. The fast path runs while seq < fast_limit: that single compare covers
 * a fatal error, a thread writing with the lock released, the automatic sync after
 * XW_MAX_VOID_RUN void requests and a sequence number whose low 32 bits are zero
 * (a 32-bit cookie of 0 means "failed"), a socket another party holds
 * (away: socket_away, a borrowed connection without its owner's socket or our own
 * socket lent to another owner by xw_take_socket), and call sites being recorded. */
static inline void xw__out_set_limit(xw_connection_t *c, int away)
{
    struct xw_out *o = &c->out;
    uint64_t run = o->last_reply + XW_MAX_VOID_RUN;
    uint64_t wrap = o->seq | 0xffffffffu;
    /* call sites on: every request takes the general path, which records them */
    int closed = c->error || o->writing || away || c->cs;
    o->fast_limit = closed ? 0 : (run < wrap ? run : wrap);
    __atomic_store_n(&o->inline_limit, c->single ? o->fast_limit : 0, __ATOMIC_RELAXED);
}

static inline void xw__out_refresh(xw_connection_t *c)
{
    xw__out_set_limit(c, c->socket_away);
}

/* Lock held. True when a tracked request may take a pending entry without a call:
 * the current block has room. (A borrowed connection never allocates a block, since
 * the owner tracks its replies, so this is false there.) */
static inline int xw__pend_fast_ok(const xw_connection_t *c)
{
    return c->in.pend.next != NULL;
}

/* Lock held, xw__pend_fast_ok, seq just taken. Appends the pending entry of a
 * tracked request; a reply-bearing one also moves the automatic sync's limit. */
static inline void xw__pend_push(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq)
{
    struct xw_pend_store *s = &c->in.pend;
    *s->next = (struct xw_pend){
        .seq = seq,
        .validate = rq->validate,
        .flags = (uint8_t)flags,
        .isvoid = rq->f.isvoid,
        .multi = rq->f.multi_reply,
        .multi_end = rq->f.multi_end,
        .dead = (flags & XW_REQUEST_DISCARD_REPLY) ? 1 : 0,
    };
    s->n++;
    s->undone++;
    s->next = ((s->head + s->n) & (XW_PEND_BLOCK - 1)) ? s->next + 1 : NULL;
    if (!rq->f.isvoid) {
        struct xw_out *o = &c->out;
        o->last_reply = seq;
        if (!o->fast_limit) { /* closed: a request is going out, so the socket is not lent */
            xw__out_set_limit(c, 0);
            return;
        }
        /* open (fast_limit says so): only the automatic sync's limit moves */
        uint64_t run = seq + XW_MAX_VOID_RUN, wrap = o->seq | 0xffffffffu;
        o->fast_limit = run < wrap ? run : wrap;
        if (c->single)
            __atomic_store_n(&o->inline_limit, o->fast_limit, __ATOMIC_RELAXED);
    }
}

/* ---- helpers shared by the subsystems ---- */

static inline uint16_t xw__rd16(const void *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static inline uint32_t xw__rd32(const void *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static inline void xw__wr16(void *p, uint16_t v)
{
    memcpy(p, &v, 2);
}

static inline void xw__wr32(void *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* ---- the one way a request enters the write buffer: reserve, frame and copy, commit ----
 * Used by xw_send's fast path and by the generated senders' inline path. */

/* Lock held, limit = out.fast_limit (or through xw__out_reserve_unlocked).
 * Where a request of total bytes goes when it can take the next sequence number at
 * once: the buffer has room and nothing stands in the way (the limit covers a fatal
 * error, a thread writing, the automatic sync and the 32-bit wrap). NULL: the
 * general path (send.c's send_locked) must take it. The caller frames the request
 * (xw__out_frame), copies it there (xw__out_copy), then commits. */
static inline uint8_t *xw__out_reserve(xw_connection_t *c, size_t total, uint64_t limit)
{
    struct xw_out *o = &c->out;
    if (XW_UNLIKELY(o->seq >= limit || total > (size_t)(o->end - o->ptr)))
        return NULL;
    if (!o->ptr) /* never: the limit stays 0 on a connection without a buffer; saves callers a test */
        __builtin_unreachable();
    return o->ptr;
}

/* xw__out_reserve for a sender that does not take the lock (the generated inline
 * senders): only while no other thread can be in the connection, its
 * single-threaded mode (inline_limit holds fast_limit then, in one load; other
 * threads write it under the lock, hence the atomic read) or a process with one
 * thread. Otherwise NULL before anything else is read. */
static inline uint8_t *xw__out_reserve_unlocked(xw_connection_t *c, size_t total)
{
    uint64_t lim = __atomic_load_n(&c->out.inline_limit, __ATOMIC_RELAXED);
    if (!lim) {
        if (!XW_PROCESS_SINGLE_THREADED())
            return NULL;
        lim = c->out.fast_limit;
    }
    return xw__out_reserve(c, total, lim);
}

/* The request header: major opcode, an extension's minor opcode, the length in words
 * (0 when a BIG-REQUESTS length follows). */
static inline void xw__out_frame(uint8_t *b, const xw_protocol_request_t *req, uint8_t major, uint16_t words)
{
    b[0] = major;
    if (req->ext)
        b[1] = req->opcode;
    xw__wr16(b + 2, words);
}

/* n bytes, w <= n <= 2 * w, as two overlapping moves of w bytes (a constant, so each
 * is one load and one store). */
static inline __attribute__((always_inline)) void xw__copy_ends(uint8_t *dst, const uint8_t *s, size_t n, size_t w)
{
    uint8_t a[16], b[16];
    memcpy(a, s, w);
    memcpy(b, s + n - w, w);
    memcpy(dst, a, w);
    memcpy(dst + n - w, b, w);
}

/* The one copy into the write buffer: n bytes from src (NULL: zeros). Slices up to
 * 32 bytes take two overlapping moves and no call; a padding slice of up to 4 bytes
 * stores 4 zeros (the buffer has XW_OUT_SLACK spare bytes past its end). Any other
 * slice is copied with a call, or, when small_only (a caller that must stay a leaf),
 * refused: returns 0 and copies nothing. */
static inline __attribute__((always_inline)) int xw__out_copy(uint8_t *dst, const void *src, size_t n, int small_only)
{
    const uint8_t *s = src;
    if (!s) {
        if (n <= 4)
            memset(dst, 0, 4);
        else if (small_only)
            return 0;
        else
            memset(dst, 0, n);
    } else if (n - 4 <= 4) {
        xw__copy_ends(dst, s, n, 4);
    } else if (n - 9 <= 7) {
        xw__copy_ends(dst, s, n, 8);
    } else if (n - 17 <= 15) {
        xw__copy_ends(dst, s, n, 16);
    } else if (small_only) {
        return n == 0;
    } else {
        memcpy(dst, s, n);
    }
    return 1;
}

/* The request of total bytes framed and copied at the reserved place joins the
 * buffer and takes the next sequence number (same lock hold as the reserve). */
static inline uint64_t xw__out_commit(xw_connection_t *c, size_t total)
{
    c->out.ptr += total;
    return ++c->out.seq;
}

/* Division in generated length expressions: a zero divisor the server sent gives 0
 * instead of a trap. */
static inline int64_t xw__div(int64_t a, int64_t b)
{
    return b ? a / b : 0;
}

/* Generated senders: refuse a request the caller got wrong (a NULL list with a
 * non-zero length, a new resource id of 0) before anything of it is written. Closes
 * fds, records why for xw_request_error_string(), returns 0. */
uint64_t xw__request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why);

static inline void xw__lock(xw_connection_t *c)
{
    if (!c->single)
        xw__mutex_lock(&c->mu);
}

static inline void xw__unlock(xw_connection_t *c)
{
    if (!c->single)
        xw__mutex_unlock(&c->mu);
}

/* connect.c: a new connection for fd (the shared out-of-memory one, error set,
 * when it cannot be allocated). */
xw_connection_t *xw__conn_new(int fd);
/* fail.c: record the first fatal error (never overwritten), close the fds the
 * connection holds and wake every waiter; returns -EPIPE. */
int xw__conn_fail(xw_connection_t *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* fail.c: xw__conn_fail for a system call that failed with err: "what: strerror(err)",
 * and err is the errno the failure leaves. */
int xw__conn_fail_sys(xw_connection_t *c, int err, const char *what);
/* fail.c: the per-thread reason for a request that failed alone; returns 0 (a failed sequence). */
uint64_t xw__request_fail(xw_connection_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fail.c: closes each fd of fds that is not -1. */
void xw__close_fds(int *fds, unsigned n);

/* display.c */
int xw__parse_display_full(const char *name, char **protocol, char **host, int *display, int *screen);
/* socket.c: open a connected socket for host/protocol/display; on failure returns
 * -errno and writes a reason into why. */
int xw__socket_open(const char *host, const char *protocol, int display, char *why, size_t whycap);
int xw__socket_prepare(int fd);

/* auth.c: fill *info from Xauthority for the peer of fd; returns 1 found, 0 none.
 * info->name and info->data are malloc'd; free with xw__auth_free. */
int xw__auth_get(int fd, int display, xw_auth_info_t *info);
void xw__auth_free(xw_auth_info_t *info);
/* auth.c: XDM-AUTHORIZATION-1. XdmcpWrap's cipher: DES in cipher-block chaining
 * from a zero vector under an XDMCP key (56 bits in bytes 1..7); len a multiple
 * of 8, in and out may be the same. */
void xw__auth_xdm_wrap(const uint8_t key[8], const uint8_t *in, uint8_t *out, size_t len);
/* The credentials for a 16-byte entry (rho, key) from the socket's own address
 * self at time now: 8 + 6 + 4 bytes and zero padding, wrapped. Returns 0, -EINVAL
 * for a short entry, -EAFNOSUPPORT for another address family. */
#define XW_XDM_AUTH_LEN 24
struct sockaddr;
int xw__auth_xdm(const uint8_t *entry, size_t len, const struct sockaddr *self, uint32_t now,
                 uint8_t out[XW_XDM_AUTH_LEN]);

/* send.c: the send entry of the generated senders (takes the lock itself), and the
 * facts of a request built elsewhere, from the generated tables (no lock) */
uint64_t xw__send(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq, size_t total,
                  unsigned nfds, int *fds);
void xw__request_lookup(const xw_protocol_request_t *req, struct xw_request *rq);
/* out.c (all with the lock held) */
int xw__out_flush(xw_connection_t *c);
int xw__out_flush_to(xw_connection_t *c, uint64_t seq);
uint64_t xw__out_place(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq, size_t total,
                       unsigned nfds, int *fds, uint8_t major, int big);
int xw__out_sync(xw_connection_t *c);
/* The own socket's side of the transport seam's writing half (own.c's table). */
void xw__out_write_socket(xw_connection_t *c, struct iovec *iov, size_t n);
void xw__out_queue_fd(xw_connection_t *c, int fd);

/* in.c (lock held) */
/* One wait for input, for a reply or the event queues (deadline not 0: -1 none). */
int xw__in_wait(xw_connection_t *c, int64_t deadline);
int xw__in_read_nonblock(xw_connection_t *c);
/* The rest of a half-received packet in one blocking read, when this thread may read
 * into it unlocked (own: the packet goes into this very caller's registered buffer);
 * 1 when it read. */
int xw__in_fill_partial(xw_connection_t *c, int64_t deadline, int own);
/* Lock held. One round of a reply wait whose condition does not hold yet (claim.c,
 * lend.c): -EPIPE on a connection error, 0 once the deadline has passed (deadline
 * 0: after one non-blocking read), else 1 after new input (or a wake-up): check
 * again. own as for xw__in_fill_partial. */
static inline int xw__in_wait_step(xw_connection_t *c, int64_t deadline, int *polled, int own)
{
    if (c->error)
        return -EPIPE;
    if (deadline == 0 && (*polled)++)
        return 0;
    c->in.for_reply = 1;
    if (XW_UNLIKELY(c->in.pdata != NULL) && xw__in_fill_partial(c, deadline, own))
        return 1;
    return xw__in_wait(c, deadline) == -ETIMEDOUT ? 0 : 1;
}
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
/* The own socket's side of the transport seam's reading half (see the wrappers below):
 * in.c tracks requests, claim.c waits for events and hands out replies and checks. */
int xw__in_track(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq);
uint64_t xw__in_widen(xw_connection_t *c, unsigned int seq);
int xw__in_reply(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt);
int xw__in_reply_fit(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need, struct xw_pkt **pkt,
                     void *buf);
int xw__in_check(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt);
void xw__in_discard(xw_connection_t *c, uint64_t seq, int keep_errors);
int xw__in_queue_wait(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading);

/* pend.c (lock held): the store behind xw__pend_at / xw__pend_push. */
int xw__pend_room(struct xw_pend_store *s);
void xw__pend_trim_head(struct xw_pend_store *s);
struct xw_pend *xw__pend_search(const struct xw_pend_store *s, uint64_t seq);
void xw__pend_fini(struct xw_pend_store *s);

/* Drops finished, claimed entries from the head. Inline: nearly always there is
 * nothing to drop, and gone says so in one load. */
static inline void xw__pend_trim(struct xw_pend_store *s)
{
    if (s->gone && xw__pend_at(s, 0)->dead && xw__pend_at(s, 0)->done)
        xw__pend_trim_head(s);
}

/* The entry of request seq, or NULL. Replies are usually taken in the order they
 * were asked for, so the oldest is tried before the search. */
static inline struct xw_pend *xw__pend_find(const struct xw_pend_store *s, uint64_t seq)
{
    if (!s->n) /* nothing tracked: nearly always so while the socket is lent (Xlib) */
        return NULL;
    if (xw__pend_at(s, 0)->seq == seq)
        return xw__pend_at(s, 0);
    return xw__pend_search(s, seq);
}

/* The server has finished e (the oldest unfinished entry). */
static inline void xw__pend_finish(struct xw_pend_store *s, struct xw_pend *e)
{
    if (e->done)
        return;
    e->done = 1;
    s->undone--;
    s->gone += e->dead;
}

/* The 32-byte reply held inline in e, as the server sent it. */
static inline void xw__pend_reply(const struct xw_pend *e, uint8_t *dst)
{
    dst[0] = 1;
    dst[1] = e->byte1;
    xw__wr16(dst + 2, (uint16_t)e->seq);
    xw__wr32(dst + 4, 0);
    memcpy(dst + 8, e->body, sizeof(e->body));
}

/* The claim of nearly every reply, with no call: when request (a 64-bit sequence,
 * or a 32-bit cookie's, widened as xw__widen32 does) is the oldest entry and its
 * 32-byte reply is held inline, copies the reply to buf (32 bytes), drops the
 * entry and returns 1; else 0 and nothing changed. (A reply that has arrived was
 * flushed, so the caller's flush is not needed either; a borrowed connection has
 * no entries.) It declines, for the general claim to do the work, when the entry
 * is the last of its block (the block goes back then) or dead entries wait to be
 * trimmed behind it: so it stays a leaf, for callers that must. */
static inline int xw__pend_take_inline(struct xw_pend_store *s, uint64_t last_sent, uint64_t request, void *buf)
{
    if (!s->n)
        return 0;
    struct xw_pend *e = xw__pend_at(s, 0);
    int match =
        request >> 32 ? e->seq == request : (uint32_t)e->seq == (uint32_t)request && last_sent - e->seq <= 0xffffffffu;
    /* inl: done, and not dead */
    if (!match || !e->inl || s->gone || !((s->head + 1) & (XW_PEND_BLOCK - 1)))
        return 0;
    xw__pend_reply(e, buf);
    s->head++;
    s->n--;
    return 1;
}

/* Nobody will claim e any more. */
static inline void xw__pend_retire(struct xw_pend_store *s, struct xw_pend *e)
{
    if (e->dead)
        return;
    e->dead = 1;
    s->gone += e->done;
}
/* Appends p to q, which owns it then. */
static inline void xw__queue_push(struct xw_queue *q, struct xw_pkt *p)
{
    p->next = NULL;
    if (q->tail)
        q->tail->next = p;
    else
        q->head = p;
    q->tail = p;
}
/* Takes the first packet off q (NULL: empty); the caller owns it then. */
static inline struct xw_pkt *xw__queue_pop(struct xw_queue *q)
{
    struct xw_pkt *p = q->head;
    if (p) {
        q->head = p->next;
        if (!q->head)
            q->tail = NULL;
    }
    return p;
}
/* Something a caller can claim: a reply inline, or packets queued. */
static inline int xw__pend_holds(const struct xw_pend *e)
{
    return e->inl || e->q.head;
}
/* Takes p, which follows prev (NULL: p is the head), out of q. */
static inline void xw__queue_unlink(struct xw_queue *q, struct xw_pkt *prev, struct xw_pkt *p)
{
    if (prev)
        prev->next = p->next;
    else
        q->head = p->next;
    if (q->tail == p)
        q->tail = prev;
    p->next = NULL;
}
void xw__queue_free(xw_connection_t *c, struct xw_queue *q);
void xw__in_fini(xw_connection_t *c);
/* fail.c: closes every received fd not yet claimed (connection failure, disconnect). */
void xw__in_close_fds(xw_connection_t *c);

/* ---- replies, checks and events through the transport (lock held) ---- */

/* A tracked request's pending entry (none on a borrowed connection: its owner reads). */
static inline int xw__pend_add(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq)
{
    return c->tp->track(c, seq, flags, rq);
}

/* The latest 64-bit sequence number not above cur whose low 32 bits are seq: what a
 * 32-bit sequence of a request already sent stands for. */
static inline uint64_t xw__widen_below(uint64_t cur, uint32_t seq)
{
    return cur - (uint32_t)((uint32_t)cur - seq);
}

/* The 64-bit sequence number a 32-bit cookie stands for. */
static inline uint64_t xw__widen32(xw_connection_t *c, unsigned int seq)
{
    return c->tp->widen(c, seq);
}

/* Waits for request seq and moves its first packet out: 1 with *pkt (reply or error)
 * or NULL (finished without one), 0 on timeout, -errno on connection error. */
static inline int xw__reply_take(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt)
{
    return c->tp->reply(c, seq, deadline, pkt);
}

/* Like xw__reply_take, but -ENOSPC (*need set, the packet kept) for a reply over cap
 * bytes; a reply the transport holds without a record (a 32-byte reply kept in its
 * pending entry) is written straight to buf instead: returns 2, 32 bytes. With cap
 * below SIZE_MAX, buf holds cap bytes, and a reply that arrives while the call waits
 * may be received straight into it (no record): returns 3, *need bytes (reply and fds);
 * nothing is written to buf after the call returns. With cap SIZE_MAX (the heap
 * forms) buf holds 32 bytes, for the inline case only. */
static inline int xw__reply_take_fit(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need,
                                     struct xw_pkt **pkt, void *buf)
{
    return c->tp->reply_fit(c, seq, deadline, cap, need, pkt, buf);
}

/* Waits until void request seq is finished; 1 with its error in *pkt, or NULL. */
static inline int xw__check_wait(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt)
{
    return c->tp->check(c, seq, pkt);
}

/* The reply will be dropped; with keep_errors an error still reaches the event queue. */
static inline void xw__discard(xw_connection_t *c, uint64_t seq, int keep_errors)
{
    c->tp->discard(c, seq, keep_errors);
}

/* 1 when q has a packet, 0 when none came in time, -EPIPE on a connection error. */
static inline int xw__queue_wait(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading)
{
    return c->tp->wait(c, q, deadline, reading);
}

/* xid.c: the id range from the setup (at connect); the own socket's generate_id. */
void xw__xid_init(xw_connection_t *c);
uint32_t xw__xid_generate(xw_connection_t *c);

/* ext.c (lock held, but for register) */
void xw__ext_register(struct xw_ext_reg *r);
struct xw_ext_entry *xw__ext_entry_get(xw_connection_t *c, const xw_extension_t *ext);
struct xw_ext_entry *xw__ext_by_major(xw_connection_t *c, uint8_t major);
struct xw_ext_entry *xw__ext_by_error(xw_connection_t *c, uint8_t code);
void xw__ext_fini(xw_connection_t *c);
/* The QueryExtension reply an entry keeps once its state is XW_EXT_PRESENT. */
static inline const xw_query_extension_reply_t *xw__ext_reply(const struct xw_ext_entry *e)
{
    return (const xw_query_extension_reply_t *)(const void *)e->reply;
}
/* query.c (lock held; may release it for the round trip): ext's major opcode
 * (-ENOTSUP: absent), and the longest request in words (BIG-REQUESTS asked first). */
int xw__ext_major(xw_connection_t *c, xw_extension_t *ext, uint8_t *major);
int xw__bigreq_max(xw_connection_t *c, uint32_t *max_words);

/* lend.c (lock held): the socket lent to another owner. take_back runs the owner's
 * callback with the lock released; the others never release it. */
int xw__lend_take_back(xw_connection_t *c);
void xw__lend_discard(xw_connection_t *c, uint64_t seq, int keep_errors);
/* stash.c (lock held): what the reader keeps for the owner's sequences (in.c puts,
 * lend.c takes). */
int xw__lend_owner(xw_connection_t *c, uint64_t seq, struct xw_pend *e);
void xw__lend_keep(xw_connection_t *c, struct xw_queue *q);
void xw__lend_discards_trim(xw_connection_t *c);
/* The slot's reply to a record at the stash's end; 0, or -EPIPE out of memory. */
int xw__lend_spill(xw_connection_t *c);
/* The server has answered past seq: no packet for it can come any more. */
static inline int xw__answered_past(const xw_connection_t *c, uint64_t seq)
{
    return seq < c->in.last_seq;
}
int xw__lend_take(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need, struct xw_pkt **pkt,
                  void *buf);

int xw__lend_wait(xw_connection_t *c, uint64_t seq, int64_t deadline, void *buf, struct xw_pkt **pkt);

/* The owner's turn that sent seq, or NULL. */
static inline const struct xw_lend_range *xw__lend_range_of(const struct xw_lend *l, uint64_t seq)
{
    for (unsigned i = 0; i < l->nranges; i++)
        if (seq >= l->ranges[i].first && seq <= l->ranges[i].last)
            return &l->ranges[i];
    return NULL;
}

/* Lock held. The 32-byte reply w to request seq goes to the slot, without a
 * record, when seq is the owner's and its turn neither drops replies nor wants the
 * fds w[1] counts: 1 when kept; 2 when it would be but the slot is full (then
 * xw__lend_slot_push); 0, nothing changed, when routing must take the general way
 * (also while discarded owner sequences are pending). */
static inline int xw__lend_slot_keep(struct xw_lend *l, uint64_t seq, const uint8_t *w)
{
    if (l->ndiscards) /* the general way looks them up (xw__lend_owner) */
        return 0;
    const struct xw_lend_range *r = xw__lend_range_of(l, seq);
    if (!r || (r->flags & XW_REQUEST_DISCARD_REPLY) || ((r->flags & XW_REQUEST_REPLY_FDS) && w[1]))
        return 0;
    if (l->last.full)
        return 2;
    l->last.seq = seq;
    memcpy(l->last.bytes, w, 32);
    l->last.full = 1;
    return 1;
}
/* The slot is full: its reply moves to the stash, the owner's 32-byte reply w to
 * seq takes its place (a pipeline of Xlib's requests: each reply pushes the one
 * before). 0, or -EPIPE out of memory. */
int xw__lend_slot_push(xw_connection_t *c, uint64_t seq, const uint8_t *w);

/* Lock held. The slot's reply (lend.last, full) to the caller's 32 bytes at buf; the
 * slot is empty afterwards. Returns 2, as xw__reply_take_fit for a reply in buf. */
static inline int xw__lend_slot_give(struct xw_lend *l, void *buf)
{
    memcpy(buf, l->last.bytes, 32);
    l->last.full = 0;
    return 2;
}

/* out.c: the owner's bytes, now, after xwire's own; requests joins the count. */
int xw__out_write_through(xw_connection_t *c, struct iovec *iov, size_t n, uint64_t requests);

/* setup.c */
int xw__setup_check(const uint8_t *s, size_t len, char *why, size_t whycap);
int xw__setup_handshake(xw_connection_t *c, const xw_auth_info_t *auth);

/* ---- the generated switch serializers' sink (one serializer serves _serialize and
 * the _aux senders; only generated code uses it) ---- */

/* Where a generated switch serializer puts the pieces of a switch (one serializer
 * serves _serialize and the _aux senders): with o set, their bytes are copied to o
 * + off; with iov set, each piece becomes one iovec pointing at the caller's data
 * (base NULL: padding), for a sender that must not copy or allocate; with neither,
 * they are only measured. off counts the bytes put so far. bad is set when a piece
 * of data is NULL with a non-zero length (the caller's mistake: nothing may be
 * sent), or when more than maxiov iovecs would be needed (the generator sizes
 * maxiov so that this cannot happen). The caller owns every buffer. */
struct xw__sink {
    char *o;
    struct iovec *iov;
    int niov, maxiov;
    int bad;
    size_t off;
};

static inline void xw__sink_piece(struct xw__sink *s, const void *p, size_t n)
{
    if (s->iov) {
        if (s->niov < s->maxiov) {
            s->iov[s->niov].iov_base = (void *)(uintptr_t)p;
            s->iov[s->niov++].iov_len = n;
        } else {
            s->bad = 1;
        }
    } else if (s->o) {
        if (p)
            memcpy(s->o + s->off, p, n);
        else
            memset(s->o + s->off, 0, n);
    }
    s->off += n;
}

/* n bytes of the caller's data at p */
static inline void xw__sink_data(struct xw__sink *s, const void *p, size_t n)
{
    if (!n)
        return;
    if (p) {
        xw__sink_piece(s, p, n);
    } else {
        s->bad = 1;
        s->off += n;
    }
}

/* n zero bytes */
static inline void xw__sink_pad(struct xw__sink *s, size_t n)
{
    if (n)
        xw__sink_piece(s, NULL, n);
}

#endif
