/* SPDX-License-Identifier: MIT */
/* xw_xcb.c — libxwire-xcb: the borrow hooks of a connection whose socket libxcb owns. */
#include <stddef.h>
#include <stdint.h>

#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xw/xw-xcb.h>
#include <xw/xwborrow.h>

/* xwire hands its own descriptors to libxcb: the layouts libxcb reads must match.
 * libxcb writes global_id into an extension on first use, so generated xw_*_id
 * objects are writable. */
_Static_assert(offsetof(xw_extension_t, name) == offsetof(xcb_extension_t, name), "ext name");
_Static_assert(offsetof(xw_extension_t, global_id) == offsetof(xcb_extension_t, global_id), "ext id");
_Static_assert(sizeof(xw_generic_error_t) == sizeof(xcb_generic_error_t), "error");
_Static_assert(sizeof(xw_generic_event_t) == sizeof(xcb_generic_event_t), "event");
_Static_assert((int)XW_REQUEST_CHECKED == (int)XCB_REQUEST_CHECKED && (int)XW_REQUEST_RAW == (int)XCB_REQUEST_RAW &&
                   (int)XW_REQUEST_DISCARD_REPLY == (int)XCB_REQUEST_DISCARD_REPLY &&
                   (int)XW_REQUEST_REPLY_FDS == (int)XCB_REQUEST_REPLY_FDS,
               "flags");

/* libxcb's return_socket callback: called from whichever thread wants the socket,
 * with libxcb's iolock released (get_socket_back drops it around the call), so
 * taking xwire's lock here keeps the order xwire first, libxcb second. */
static void give_back(void *closure)
{
    xw_borrow_return_socket(closure);
}

/* Owner of nothing: left as libxcb's socket owner by detach, so no callback can
 * reach a freed xwire connection. libxcb calls it the next time it sends. */
static void owned_by_nobody(void *closure)
{
    (void)closure;
}

/* flags 0: errors of requests sent through xwire's buffer are unchecked and go to
 * libxcb's event queue; checked requests are sent through xcb_send_request. */
static int take(xw_connection_t *c, void *xc, uint64_t *sent)
{
    return xcb_take_socket(xc, give_back, c, 0, sent);
}

static int write_vec(void *xc, struct iovec *iov, int n, uint64_t requests)
{
    return xcb_writev(xc, iov, n, requests);
}

static void discard(void *xc, uint64_t seq)
{
    xcb_discard_reply64(xc, seq);
}

static uint64_t send_req(void *xc, int flags, struct iovec *vector, const xw_protocol_request_t *req, unsigned int nfds,
                         int *fds)
{
    xcb_protocol_request_t r = {
        .count = req->count,
        .ext = (xcb_extension_t *)(void *)req->ext,
        .opcode = req->opcode,
        .isvoid = req->isvoid,
    };
    return xcb_send_request_with_fds64(xc, flags, vector, &r, nfds, fds);
}

static void send_fd(void *xc, int fd)
{
    xcb_send_fd(xc, fd);
}

static void *wait_reply(void *xc, uint64_t seq, xw_generic_error_t **e)
{
    return xcb_wait_for_reply64(xc, seq, (xcb_generic_error_t **)e);
}

static int poll_reply(void *xc, uint64_t seq, void **reply, xw_generic_error_t **e)
{
    return xcb_poll_for_reply64(xc, seq, reply, (xcb_generic_error_t **)e);
}

static xw_generic_error_t *check(void *xc, unsigned int seq)
{
    return (xw_generic_error_t *)xcb_request_check(xc, (xcb_void_cookie_t){seq});
}

static xw_generic_event_t *event(void *xc, enum xw_borrow_event_mode mode)
{
    xcb_generic_event_t *e = mode == XW_BORROW_EVENT_WAIT   ? xcb_wait_for_event(xc)
                             : mode == XW_BORROW_EVENT_POLL ? xcb_poll_for_event(xc)
                                                            : xcb_poll_for_queued_event(xc);
    return (xw_generic_event_t *)e;
}

static uint32_t generate_id(void *xc)
{
    return xcb_generate_id(xc);
}

static int flush(void *xc)
{
    return xcb_flush(xc);
}

static int has_error(void *xc)
{
    return xcb_connection_has_error(xc);
}

/* Taking the socket once more makes libxcb call give_back first if xwire holds it
 * (xwire's buffer goes out) and wait for any call of it in flight; afterwards only
 * owned_by_nobody can be called. */
static void detach(xw_connection_t *c, void *xc)
{
    uint64_t sent;
    (void)c;
    xcb_take_socket(xc, owned_by_nobody, NULL, 0, &sent);
}

static const struct xw_borrow_ops ops = {
    .take = take,
    .writev = write_vec,
    .discard = discard,
    .send = send_req,
    .send_fd = send_fd,
    .wait_reply = wait_reply,
    .poll_reply = poll_reply,
    .check = check,
    .event = event,
    .generate_id = generate_id,
    .flush = flush,
    .has_error = has_error,
    .detach = detach,
};

XW_EXPORT xw_connection_t *xw_xcb_borrow(xcb_connection_t *xc)
{
    const xcb_setup_t *s = xc && !xcb_connection_has_error(xc) ? xcb_get_setup(xc) : NULL;
    size_t len = s ? 8 + (size_t)s->length * 4 : 0;
    return xw_borrow_connection(&ops, xc, s, len, s ? xcb_get_file_descriptor(xc) : -1);
}
