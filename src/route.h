/* SPDX-License-Identifier: MIT */
/* route.h — the routing core: what each received packet is and whose it is, with no I/O. */
#ifndef XW_ROUTE_H
#define XW_ROUTE_H

#include "xwint.h"

/* The core's state is struct xw_in's routing part: the pending store (pend), the
 * widened sequences (last_seq, err_seq), the fd batches (fdb, nfdb, fdwait), the
 * partial packet (pdata, partial, pfill, pneed, pstart), the stream offset rpos, the
 * event queues and the registered into buffer. The socket side owns the rest (for_reply,
 * more, stream, reading, block) and only moves bytes: it reads into buf + len (or
 * into the partial packet first, at pdata + pfill), hands the fds of that read to
 * xw__route_fds, then the byte count to xw__route_input. Every function here runs with
 * the lock held and makes no system call but close() on fds nobody may claim
 * (surplus, unclaimed, or a failing connection's), through xw__close_fds. */

/* Keeps n fds (owned from now on; n <= XW_MAX_FDS) that came with the next got bytes
 * of the stream as one batch, before those bytes go to xw__route_input. -ENOBUFS, the
 * fds closed, when XW_FD_BATCHES batches still wait for bytes not parsed yet (only a
 * hostile server sends that many): the caller fails the connection. */
int xw__route_fds(xw_connection_t *c, const int *fds, unsigned n, size_t got);

/* got bytes just received: the rest of the partial packet first, when there is one
 * (at pdata + pfill), then the read buffer's (at buf + len). Routes every complete
 * packet in place, starts a partial packet for one bigger than the buffer, and
 * closes the fds no packet can claim any more. 0, or -EPIPE once the connection failed. */
int xw__route_input(xw_connection_t *c, size_t got);

/* n bytes and nfds fds (owned from now on) as a socket read would bring them, copied
 * where a read puts them, in as many reads as the buffer needs (the fds with the
 * first): the core fed without a socket. 0, or -EPIPE once the connection failed. */
int xw__route_feed(xw_connection_t *c, const uint8_t *bytes, size_t n, const int *fds, unsigned nfds);

/* Tracks request seq (flags XW_REQUEST_*, rq its description) in the pending store;
 * 0 or -ENOMEM. The own transport's track. */
int xw__route_track(xw_connection_t *c, uint64_t seq, int flags, const struct xw_request *rq);

/* A record for a packet of need bytes bigger than the read buffer, where its rest is
 * read (in->partial, in->pdata); 0 or -ENOMEM (the connection failed). */
int xw__route_partial_record(xw_connection_t *c, size_t need);

/* Frees the packets of q and closes the fds they carry. */
void xw__route_queue_free(xw_connection_t *c, struct xw_queue *q);

/* Frees every packet the core holds, the pending store and the partial packet, and
 * closes the fds not claimed (disconnect). */
void xw__route_fini(xw_connection_t *c);

#endif
