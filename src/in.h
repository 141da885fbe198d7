/* SPDX-License-Identifier: MIT */
/* in.h — internal: the read path's calls, the socket side of the reader (lock held). */
#ifndef XW_SRC_IN_H
#define XW_SRC_IN_H

#include "base.h"

/* in.c (lock held) */
/* One wait for input, for a reply or the event queues (deadline not 0: -1 none). */
int xw__in_wait(xw_connection_t *c, int64_t deadline);
int xw__in_read_nonblock(xw_connection_t *c);
/* The rest of a half-received packet in one blocking read, when this thread may read
 * into it unlocked (own: the packet goes into this very caller's registered buffer);
 * 1 when it read. */
int xw__in_fill_partial(xw_connection_t *c, int64_t deadline, int own);

#endif
