/* SPDX-License-Identifier: MIT */
/* claim.h — internal: waiting for and handing out replies, checks and events (lock held). */
#ifndef XW_SRC_CLAIM_H
#define XW_SRC_CLAIM_H

#include "base.h"

/* The own socket's side of the transport seam's reading half (the wrappers of
 * transport.h stand for these on a connection with its own socket). */
uint64_t xw__claim_widen(xw_connection_t *c, unsigned int seq);
int xw__claim_reply(xw_connection_t *c, uint64_t seq, int64_t deadline, struct xw_pkt **pkt);
int xw__claim_reply_fit(xw_connection_t *c, uint64_t seq, int64_t deadline, size_t cap, size_t *need,
                        struct xw_pkt **pkt, void *buf);
int xw__claim_check(xw_connection_t *c, uint64_t seq, struct xw_pkt **pkt);
void xw__claim_discard(xw_connection_t *c, uint64_t seq, int keep_errors);
int xw__claim_wait(xw_connection_t *c, struct xw_queue *q, int64_t deadline, int reading);

#endif
