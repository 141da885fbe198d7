/* SPDX-License-Identifier: MIT */
/* xw-xcb.h — libxwire-xcb: xwire's senders and write buffer on a connection libxcb owns. */
#ifndef XW_XCB_H
#define XW_XCB_H

#include <xcb/xcb.h>
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** An xwire connection that sends through xc's socket with libxcb's hand-off
 * (xcb_take_socket with a return callback, xcb_writev), for programs that already
 * own an xcb_connection_t. xwire takes the socket before its first buffered
 * request; libxcb takes it back whenever it sends (xwire's buffer is written
 * first), so raw xcb_* and xw_* requests may be interleaved in any order, and
 * their sequence numbers are one sequence.
 * Replies, errors and events are read by libxcb: xw_ reply, check and event calls
 * ask libxcb, and xcb_wait_for_reply64/xcb_request_check/xcb_wait_for_event work
 * on xwire's cookies once xwire's buffer is written (xw_flush, any xw_ reply or
 * check call, or any raw xcb request; xcb_flush alone does not see it).
 * Checked requests (xw_*_checked, and reply-bearing requests' default form) and
 * requests carrying fds are sent through libxcb, so libxcb keeps their errors for
 * the reply or check call; unchecked requests go through xwire's buffer and their
 * errors reach libxcb's event queue. Resource ids come from xcb_generate_id.
 * Not served: xwire's special-event queues (use xcb_register_for_special_xge),
 * fds attached to replies (wait for those with xcb_wait_for_reply64), and keeping
 * errors in xw_discard_reply_keep_error64 (libxcb drops them).
 * Threads: safe as libxcb is, with xwire's lock taken before libxcb's, never the
 * other way (the return callback runs without libxcb's lock held).
 * Never returns NULL: check xw_connection_has_error(). Free with xw_disconnect()
 * before xcb_disconnect(xc); xc stays open and usable. */
XW_EXPORT xw_connection_t *xw_xcb_borrow(xcb_connection_t *xc);

#ifdef __cplusplus
}
#endif

#endif
