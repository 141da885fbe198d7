/* SPDX-License-Identifier: MIT */
/* queue.h — internal: a queue of received packets, which owns them. */
#ifndef XW_SRC_QUEUE_H
#define XW_SRC_QUEUE_H

#include "store.h"

struct xw_queue {
    struct xw_pkt *head, *tail;
};

/* Appends p to q, which owns it then. */
static inline void xw__queue_push(struct xw_queue *q, struct xw_pkt *p)
{
    p->next = NULL;
    if (q->tail)
        q->tail->next = p;
    else
        q->head = p;
    q->tail = p;
}
/* Takes the first packet off q (NULL: empty); the caller owns it then. */
static inline struct xw_pkt *xw__queue_pop(struct xw_queue *q)
{
    struct xw_pkt *p = q->head;
    if (p) {
        q->head = p->next;
        if (!q->head)
            q->tail = NULL;
    }
    return p;
}

/* Takes p, which follows prev (NULL: p is the head), out of q. */
static inline void xw__queue_unlink(struct xw_queue *q, struct xw_pkt *prev, struct xw_pkt *p)
{
    if (prev)
        prev->next = p->next;
    else
        q->head = p->next;
    if (q->tail == p)
        q->tail = prev;
    p->next = NULL;
}

#endif
