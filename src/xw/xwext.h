/* SPDX-License-Identifier: MIT */
/* xwext.h — what generated code and hand-written extensions use to talk to the
 * connection: libxcb's xcbext.h with xw_ in place of xcb_, plus xwire's own
 * send entry and per-extension descriptors (names, validators). */
#ifndef XW_EXT_H
#define XW_EXT_H

#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Validates a whole packet (reply or XGE event) of len bytes against the counts it
 * carries. Returns 0 when every variable-length part lies inside the bytes, -1 when
 * not. Called once when the packet is received. A reply is passed as stored: its len
 * bytes, then its fds, then XW_REPLY_SLACK_AFTER(len) zero bytes; an XGE event as
 * stored, in libxcb's layout (full_sequence inserted at byte 32, len = 36 + 4 * length),
 * the layout its accessors read. */
typedef int (*xw_validate_fn)(const void *packet, size_t len);

/* Zero bytes after every reply longer than 32 bytes, in its record and its malloc'd
 * copy (after its fds): where libxcb's C struct is longer than the wire bytes before a
 * variable part (XKB GetDeviceInfo, GLX GetPixelMapusv, SYNC ListSystemCounters,
 * XPRINT PrintGetPrinterList), sizeof and the accessors follow libxcb's layout and may
 * read up to this many bytes past the reply; validation allows no more. A 32-byte
 * reply gets none (so the common replies keep their 64-byte records) and must fit
 * in libxcb's layout as it is. */
#define XW_REPLY_SLACK 8
#define XW_REPLY_SLACK_AFTER(len) ((len) > 32 ? (size_t)XW_REPLY_SLACK : (size_t)0)

struct xw_request;

/** Generated once per protocol description: names for error text, validators for
 * variable-length events and replies. Arrays are indexed by opcode / code / event
 * type relative to the extension's bases; a NULL entry is an unknown number. The
 * runtime finds an extension's description by its name (xw_ext_desc_find), never
 * through the xw_extension_t a caller passes. */
typedef struct xw_ext_desc {
    const char *xname;                /* "RANDR"; "X11" for the core protocol */
    const char *const *request_names; /* by opcode (core) or minor opcode */
    unsigned n_requests;
    const char *const *event_names; /* by number relative to first_event */
    unsigned n_events;
    const char *const *error_names; /* by number relative to first_error */
    unsigned n_errors;
    const char *const *xge_names; /* by XGE event_type */
    unsigned n_xge;
    const xw_validate_fn *xge_validators; /* by XGE event_type; NULL entries: fixed size */
    const char *ext_name;                 /* the XML's extension-name, "RandR"; "xproto" for the core */
    /* xwire's private descriptor of each request, by opcode as request_names: its
     * reply's validator and multi-reply rule; NULL entries where unknown */
    const struct xw_request *const *requests;
    xw_extension_t *key; /* the generated xw_<ext>_id; NULL for the core */
} xw_ext_desc_t;

/** libxcb's xcb_extension_t, 16 bytes: the key of an extension. xwire keeps nothing
 * in it and never keys anything by its address: what it knows about an extension
 * is found by name, so a key may be built by the caller, even freed and allocated
 * again between calls (xcffib does). global_id is libxcb's; xwire does not use it. */
struct xw_extension_t {
    const char *name; /* the name QueryExtension takes, "RANDR" */
    int global_id;
};

/** The core protocol's descriptor (request, error and event names). */
XW_EXPORT extern const xw_ext_desc_t xw_xproto_desc;

/** The description xwire has of the extension named name (as QueryExtension takes
 * it, "RANDR"), or NULL when it has none (hand-written extension code still works,
 * unvalidated). Pure lookup in static tables: no lock, never fails. */
XW_EXPORT const xw_ext_desc_t *xw_ext_desc_find(const char *name);

/** libxcb's xcb_protocol_request_t, 24 bytes. What xwire needs beyond it (the
 * reply's validator, the multi-reply rule) it takes from the generated description
 * of the extension of that name, by opcode; none for an extension xwire has no
 * description of (its replies are taken as they come). */
typedef struct {
    size_t count;        /* number of iovecs in vector, as in libxcb */
    xw_extension_t *ext; /* NULL for core requests */
    uint8_t opcode;      /* major opcode (core) or minor opcode (extension) */
    uint8_t isvoid;      /* 1 when the request has no reply */
} xw_protocol_request_t;

enum xw_send_request_flags_t {
    XW_REQUEST_CHECKED = 1 << 0,
    XW_REQUEST_RAW = 1 << 1,
    XW_REQUEST_DISCARD_REPLY = 1 << 2,
    XW_REQUEST_REPLY_FDS = 1 << 3,
    /* xwire only: with DISCARD_REPLY, drop only the reply; an error for the request
     * goes to the event queue (plain DISCARD_REPLY drops errors too, as libxcb). */
    XW_REQUEST_ERROR_TO_EVENTS = 1 << 4
};

/** Send one request. vector[0..count-1] hold its bytes; vector[-1] and vector[-2]
 * must be writable (the runtime uses them for its buffer and the BIG-REQUESTS length).
 * vector[0] is the fixed part: the runtime writes the major opcode (and for an
 * extension the minor opcode into byte 1) and the length field. An iovec whose
 * iov_base is NULL stands for iov_len zero bytes of padding.
 * total_bytes is the sum of all iov_len (a multiple of 4), computed by the caller.
 * fds (num_fds of them) are owned by the connection from this call on, sent with the
 * request's bytes and closed once sent or on any failure.
 * Returns the 64-bit sequence number, or 0 when this request failed alone (too long,
 * extension missing, connection in error): nothing of it is written, and
 * xw_request_error_string() says why. The reply is validated, and a multi-reply
 * request's replies are collected, by the description of req's extension (see
 * xw_protocol_request_t). Never allocates. Thread-safe. */
XW_EXPORT uint64_t xw_send(xw_connection_t *c, int flags, struct iovec *vector, const xw_protocol_request_t *req,
                           size_t total_bytes, unsigned int num_fds, int *fds);

/** libxcb-compatible forms of xw_send(): the total is summed from the iovecs
 * (count of them, as request->count says); the plain forms return the low 32 bits
 * of the sequence number (0 on failure, as xw_send), the 64 forms all of it.
 * fds as in xw_send. Unlike xw_send they never write vector[-1] or vector[-2]
 * nor the iovecs (they are copied first; only past 64 of them is vector used in
 * place, as libxcb's contract allows); like libxcb they write the request's header
 * (opcodes, length) into the bytes vector[0] points at. Thread-safe. */
XW_EXPORT unsigned int xw_send_request(xw_connection_t *c, int flags, struct iovec *vector,
                                       const xw_protocol_request_t *request);
XW_EXPORT unsigned int xw_send_request_with_fds(xw_connection_t *c, int flags, struct iovec *vector,
                                                const xw_protocol_request_t *request, unsigned int num_fds, int *fds);
XW_EXPORT uint64_t xw_send_request64(xw_connection_t *c, int flags, struct iovec *vector,
                                     const xw_protocol_request_t *request);
XW_EXPORT uint64_t xw_send_request_with_fds64(xw_connection_t *c, int flags, struct iovec *vector,
                                              const xw_protocol_request_t *request, unsigned int num_fds, int *fds);
/** Queues fd to go with the next request sent (libxcb's form; generated code
 * passes fds to xw_send instead). The connection owns fd from this call: it is
 * closed once sent, or at once when the connection is in error or its fd queue
 * cannot be flushed. Thread-safe, but another thread's request may carry it: use
 * it only where one thread sends. */
XW_EXPORT void xw_send_fd(xw_connection_t *c, int fd);

/** Why the last request sent from this thread on c returned sequence 0 ("extension
 * RANDR is not present on this server", "request of N bytes is longer than the
 * server's limit of M bytes", the connection's error), or NULL. The text is per thread and stays until this thread's
 * next failing request; the caller does not free it. */
XW_EXPORT const char *xw_request_error_string(xw_connection_t *c);

/** Wait for the reply to request; malloc'd, caller frees. On an X error returns NULL
 * and, if e is not NULL, *e is a malloc'd error the caller frees (with e NULL the
 * error is dropped; a request sent with an _unchecked function has its error in
 * the event queue instead). NULL with *e NULL: void request, discarded, already
 * claimed, or connection error. Thread-safe: a reply goes to exactly one caller. */
XW_EXPORT void *xw_wait_for_reply(xw_connection_t *c, unsigned int request, xw_generic_error_t **e);
XW_EXPORT void *xw_wait_for_reply64(xw_connection_t *c, uint64_t request, xw_generic_error_t **e);
/** Non-blocking xw_wait_for_reply: reads what the socket has. Returns 1 when the
 * request is finished (*reply or *error malloc'd for the caller, or both NULL), 0
 * when its answer has not come yet; 1 with both NULL after a connection error,
 * so a polling loop ends. Thread-safe. */
XW_EXPORT int xw_poll_for_reply(xw_connection_t *c, unsigned int request, void **reply, xw_generic_error_t **error);
XW_EXPORT int xw_poll_for_reply64(xw_connection_t *c, uint64_t request, void **reply, xw_generic_error_t **error);
/** The fds received with a reply from xw_wait_for_reply: they follow the reply's
 * replylen bytes in the same block (freed with it). The fds are the caller's to
 * close. Pure arithmetic: no lock, never fails. */
XW_EXPORT int *xw_get_reply_fds(xw_connection_t *c, void *reply, size_t replylen);

/** Bits set in mask, and the sum of len bytes: helpers generated code calls for
 * list lengths (libxcb exports the same). Pure functions. */
XW_EXPORT int xw_popcount(uint32_t mask);
XW_EXPORT int xw_sumof(uint8_t *list, int len);

/* ---- xwire only ---- */

/* The 64-bit sequence functions also take a 32-bit cookie's sequence: a value
 * below 2^32 is widened against the connection's current sequence. */

/** Zero-allocation reply path. Waits for the reply (or error) to request and copies
 * it into the caller's storage: the reply's wire bytes (32 + 4 * length) followed
 * by any fds it carries (ints, now owned by the caller) into buf, *len = bytes
 * copied; an X error (36 bytes, as xw_wait_for_reply returns it) into *error.
 * timeout_ms: -1 forever, 0 read what is available without blocking, > 0 at most
 * that long.
 * Returns 1 reply copied; 2 X error copied (also XW_ERROR_MALFORMED_REPLY when the
 * reply's counts overran it); 0 the request finished without either (void request,
 * discarded, already claimed, or unknown); -ETIMEDOUT nothing yet; -ENOSPC cap too
 * small, *len = size needed, the reply STAYS QUEUED (retry with a bigger buffer);
 * -EPIPE connection error. For multi-reply requests each call takes the next reply.
 * Room past *len gets up to XW_REPLY_SLACK zero bytes: the accessors of the replies
 * listed at XW_REPLY_SLACK follow libxcb's layout and may read that far, so give
 * those a buffer XW_REPLY_SLACK bytes larger than the reply.
 * A reply that arrives while the call waits is received straight into buf, not
 * copied there from a record (one waiting caller at a time; others take the copy),
 * so buf's contents are unspecified after any return other than 1; nothing is
 * written to buf once the call has returned.
 * Never allocates once warmed up. Threads: safe; a reply goes to exactly one caller. */
XW_EXPORT int xw_wait_for_reply_into(xw_connection_t *c, uint64_t request, void *buf, size_t cap, size_t *len,
                                     xw_generic_error_t *error, int timeout_ms);

/** xw_wait_for_reply64 with a timeout (ms; -1 forever, 0 no blocking). Returns 1
 * when the request is finished (*reply or *error malloc'd, or both NULL), 0 on
 * timeout (nothing consumed: wait again later), -EPIPE on a connection error. */
XW_EXPORT int xw_wait_for_reply64_timeout(xw_connection_t *c, uint64_t request, int timeout_ms, void **reply,
                                          xw_generic_error_t **error);

/** Like xw_discard_reply64, but an error for the request goes to the event queue
 * instead of being dropped. */
XW_EXPORT void xw_discard_reply_keep_error64(xw_connection_t *c, uint64_t sequence);

/* ---- lending the socket to another owner ----
 * libxcb's xcb_take_socket/xcb_writev, as libX11 uses them: the other owner writes
 * its requests itself and numbers them; xwire still reads every packet. */

/** Lends the connection's socket to another owner. First takes it back from a
 * current owner (running its return_socket), then writes everything xwire has
 * buffered. *sent = the 64-bit sequence number of the last request sent; the
 * owner's requests follow it. From then on the owner writes with xw_writev() until
 * xwire needs the socket for a request of its own (any send, sync, QueryExtension,
 * xw_send_fd, or another take): xwire then calls return_socket(closure) with its
 * lock released, and the owner writes what it holds through xw_writev() before
 * returning. Flushes, reply waits and event calls do not take the socket back.
 * flags: XW_REQUEST_CHECKED keeps errors for the owner's requests for
 * xw_poll_for_reply64()/xw_wait_for_reply64() instead of the event queue;
 * XW_REQUEST_DISCARD_REPLY drops their replies; XW_REQUEST_REPLY_FDS makes each of
 * their replies claim fds (byte 1), as libxcb does. Replies to the owner's requests
 * are kept by sequence until claimed with those calls, which answer as libxcb's do.
 * The owner must send a reply-bearing request at least every 65,535 requests; its
 * requests count as void for xwire's automatic sync. Returns 1, or 0 when the
 * connection has failed, return_socket is NULL or c is a borrowed connection.
 * Thread-safe. */
XW_EXPORT int xw_take_socket(xw_connection_t *c, void (*return_socket)(void *closure), void *closure, int flags,
                             uint64_t *sent);

/** The socket's owner (after xw_take_socket()) writes count iovecs (empty ones and
 * count 0 allowed) completing requests requests (possibly 0), which join the
 * sequence count. Blocks until every byte is written, reading what the server
 * sends meanwhile; the iovecs are advanced in place. Returns 1, or 0 on a
 * connection error. Thread-safe. */
XW_EXPORT int xw_writev(xw_connection_t *c, struct iovec *vector, int count, uint64_t requests);

#ifdef __cplusplus
}
#endif

#endif
