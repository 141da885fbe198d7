/* SPDX-License-Identifier: MIT */
/* send.h — internal: a request's description and the senders' entry. */
#ifndef XW_SRC_SEND_H
#define XW_SRC_SEND_H

#include "base.h"

/* ---- how a request is sent ----
 * xwire's private request descriptor: libxcb's public 24 bytes, with what the
 * runtime needs to route the answers. The generated senders pass their own
 * (xw__<request>_req, at file scope) to xw__send; the public xw_send and libxcb's
 * forms look these facts up in the generated tables by extension name and opcode
 * (xw__send_lookup), so requests built by code written for libxcb get them too.
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
            uint8_t reply_gap;   /* 1: the reply's validator reads slack (XW__REQUEST_REPLY_GAP) */
            uint8_t fixed_words; /* xw__send_list's requests: the fixed part's length in words */
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

/* send.c: the send entry of the generated senders (takes the lock itself), and the
 * facts of a request built elsewhere, from the generated tables (no lock) */
uint64_t xw__send(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq, size_t total,
                  unsigned nfds, int *fds);
/* send.c: xw__send for a request of a fixed part (rq->f.fixed_words, at least the
 * header's) then one list of n bytes and its pad, rq->count 3: the same bytes,
 * copied from the two pieces without slices. Six arguments, all in registers, so
 * its own calls can be jumps. */
uint64_t xw__send_list(xw_connection_t *c, int flags, const void *fixed, const void *list, size_t n,
                       const struct xw_request *rq);
void xw__send_lookup(const xw_protocol_request_t *req, struct xw_request *rq);

#endif
