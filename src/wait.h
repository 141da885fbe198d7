/* SPDX-License-Identifier: MIT */
/* wait.h — internal: one round of a caller's wait for a reply (lock held). */
#ifndef XW_SRC_WAIT_H
#define XW_SRC_WAIT_H

#include "conn.h"
#include "in.h"
#include "route.h"

/* Lock held. One round of a reply wait whose condition does not hold yet (claim.c,
 * lend.c): -EPIPE on a connection error, 0 once the deadline has passed (deadline
 * 0: after one non-blocking read), else 1 after new input (or a wake-up): check
 * again. own as for xw__in_fill_partial. */
static inline int xw__wait_step(xw_connection_t *c, int64_t deadline, int *polled, int own)
{
    if (c->error)
        return -EPIPE;
    if (deadline == 0 && (*polled)++)
        return 0;
    c->in.for_reply = 1;
    if (XW_UNLIKELY(c->in.pdata != NULL) && xw__in_fill_partial(c, deadline, own))
        return 1;
    return xw__in_wait(c, deadline) == -ETIMEDOUT ? 0 : 1;
}

#endif
