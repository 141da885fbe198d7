/* SPDX-License-Identifier: MIT */
/* xwborrow.h — a connection that borrows its socket from another library's connection
 * (libxwire-xcb builds one over libxcb). Not needed by applications. */
#ifndef XW_BORROW_H
#define XW_BORROW_H

#include <xw/xwext.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For libxwire-xcb, and any other library that owns a connection with a socket
 * hand-off protocol like libxcb's (xcb_take_socket/xcb_writev). Not needed by
 * applications. A borrowed connection has no socket of its own: it takes the write
 * side from its owner before its first buffered request (the send fast path is
 * closed meanwhile), writes through ops->writev with request counts, and hands the
 * bytes back when the owner calls xw_borrow_return_socket(). Replies, errors and
 * events are read by the owner: xwire's reply, check, discard and event calls ask
 * it through these hooks.
 * Locks: the hooks marked "lock held" run with the connection's lock held and must
 * not call back into it nor make the owner ask for its socket back; all others run
 * with the lock released. The owner may call xw_borrow_return_socket() from any
 * thread, holding none of its own locks that xwire's callers might hold. */
/* How xw_borrow_ops.event asks for the owner's next event. */
enum xw_borrow_event_mode {
    XW_BORROW_EVENT_WAIT = 0,   /* block until one comes (xcb_wait_for_event) */
    XW_BORROW_EVENT_POLL = 1,   /* read what has arrived, do not block (xcb_poll_for_event) */
    XW_BORROW_EVENT_QUEUED = 2, /* only what is already queued (xcb_poll_for_queued_event) */
};

struct xw_borrow_ops {
    /* Become the socket's writer; *sent = the owner's last sequence number. 1 on
     * success, 0 when the owner's connection has failed. Lock released. */
    int (*take)(xw_connection_t *c, void *closure, uint64_t *sent);
    /* Write every byte of iov; requests = how many requests they complete.
     * 1 on success, 0 on failure. Lock held. */
    int (*writev)(void *closure, struct iovec *iov, int n, uint64_t requests);
    /* The reply to request seq will be dropped when the owner reads it. Lock held. */
    void (*discard)(void *closure, uint64_t seq);
    /* Send a request the owner must route itself (checked, or carrying fds), as
     * xw_send_request_with_fds64 would; returns its sequence number or 0. */
    uint64_t (*send)(void *closure, int flags, struct iovec *vector, const xw_protocol_request_t *req,
                     unsigned int nfds, int *fds);
    void (*send_fd)(void *closure, int fd);
    /* Wait for / poll for the reply (or error) to seq, as xcb_wait_for_reply64 and
     * xcb_poll_for_reply64; results malloc'd in libxcb's layout. */
    void *(*wait_reply)(void *closure, uint64_t seq, xw_generic_error_t **e);
    int (*poll_reply)(void *closure, uint64_t seq, void **reply, xw_generic_error_t **e);
    /* xcb_request_check on a 32-bit cookie. */
    xw_generic_error_t *(*check)(void *closure, unsigned int seq);
    /* The next event, as mode says; malloc'd, or NULL. */
    xw_generic_event_t *(*event)(void *closure, enum xw_borrow_event_mode mode);
    uint32_t (*generate_id)(void *closure);
    int (*flush)(void *closure);
    /* The owner's connection error code, 0 when healthy. Lock held or not: it must
     * only read a flag. */
    int (*has_error)(void *closure);
    /* xw_disconnect: take the socket back for good (it calls
     * xw_borrow_return_socket first if needed); c is freed afterwards. */
    void (*detach)(xw_connection_t *c, void *closure);
};

/** A connection that borrows its writes from an owner (see above). setup is the
 * owner's setup reply (8-byte header included, setup_len bytes), copied; fd is the
 * owner's socket, only polled (timed waits) and reported by
 * xw_get_file_descriptor(). Never returns NULL: check xw_connection_has_error().
 * Free with xw_disconnect(), which leaves the owner's connection open. */
XW_EXPORT xw_connection_t *xw_borrow_connection(const struct xw_borrow_ops *ops, void *closure, const void *setup,
                                                size_t setup_len, int fd);
/** The owner wants its socket back: writes whatever xwire has buffered (through
 * ops->writev) and stops writing until xwire needs the socket again. Takes the
 * connection's lock; call it without holding anything xwire's callers may hold. */
XW_EXPORT void xw_borrow_return_socket(xw_connection_t *c);

#ifdef __cplusplus
}
#endif

#endif
