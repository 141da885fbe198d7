/* SPDX-License-Identifier: MIT */
/* route.h — the routing core: what each received packet is and whose it is, with no I/O. */
#ifndef XW_ROUTE_H
#define XW_ROUTE_H

#include "xwint.h"

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

#endif
