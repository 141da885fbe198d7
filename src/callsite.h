/* SPDX-License-Identifier: MIT */
/* callsite.h — internal: where in the program each request was sent from (XWIRE_ERRORS=callsite). */
#ifndef XW_CALLSITE_H
#define XW_CALLSITE_H

#include <stddef.h>
#include <stdint.h>

#include <xw/xw.h>

/* The connection's record of call sites, c->cs: NULL while off, which
 * is the only test the send path makes, and only on its general path (a connection
 * with call sites on keeps its fast limits at 0, so every request goes there). */
struct xw_callsite;

/* True when the environment asks for call sites: XWIRE_ERRORS holds the word
 * "callsite" (words separated by commas, colons or spaces). */
int xw__callsite_wanted(void);

/* Lock not held. Turns call sites on for c: the record (fixed size, allocated here
 * once) and the send limits that route every request through the general path.
 * 0, -ENOMEM, or -EINVAL on a connection that cannot send. Idempotent. A tracer
 * calls this when it turns tracing on. */
int xw__callsite_enable(xw_connection_t *c);

/* Frees the record (xw_disconnect). */
void xw__callsite_free(struct xw_callsite *cs);

/* How surely a recorded stack is the one that made its requests; a lookup takes
 * the highest rank that covers the request. */
enum {
    XW_CS_WRITE = 0, /* the stack that wrote them (Xlib's flush): right for the request
                        a reply wait flushed, the only stack there is when its error
                        comes back before the call's after-function runs */
    XW_CS_CALL = 1,  /* the Xlib call that made them, from its after-function */
    XW_CS_SEND = 2,  /* xwire's own send of the request */
};

/* Records the calling thread's stack for requests first..last with rank (above).
 * Any lock state: the record has its own. Costs a stack walk, never an allocation. */
void xw__callsite_record(struct xw_callsite *cs, uint64_t first, uint64_t last, int rank);

/* xw__callsite_record on c's record, when c has call sites on (for code outside
 * the runtime, which does not see the connection's layout). */
void xw__callsite_record_conn(xw_connection_t *c, uint64_t first, uint64_t last, int rank);

/* The call site of request seq as text in buf (n bytes): "function (file:line)"
 * with debug information, "function+0xoff (object)" without; NULL when c has call
 * sites off or none was recorded for seq (too old, or sent by a path that records
 * none). Any lock state; resolves the stack now, so it is slow (an error path). */
const char *xw__callsite_text(xw_connection_t *c, uint64_t seq, char *buf, size_t n);

#endif
