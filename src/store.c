/* store.c — recycled records for received packets: power-of-two size classes with free lists. */
#include "xwint.h"

#include <stdlib.h>

/* Classes below 64 bytes waste more in headers than they save. */
#define XW_MIN_CLASS 6
/* Above 1 MiB a class keeps at most this many free records; the rest go back to
 * malloc so one huge reply does not pin memory forever. */
#define XW_BIG_CLASS 20
#define XW_BIG_KEEP 2

static unsigned class_of(size_t total)
{
    unsigned k = XW_MIN_CLASS;
    while (((size_t)1 << k) < total)
        k++;
    return k;
}

/* bytes: payload including fds. Callers have already capped it at XW_PACKET_CAP, so
 * the class index stays in range. Allocates only when the class's list is empty. */
struct xw_pkt *xw__pkt_alloc(xw_connection_t *c, size_t bytes)
{
    unsigned k = class_of(sizeof(struct xw_pkt) + bytes);
    if (k >= XW_STORE_CLASSES)
        return NULL;
    struct xw_store *s = &c->store;
    struct xw_pkt *p = s->free[k];
    if (p) {
        s->free[k] = p->next;
        s->nfree[k]--;
    } else {
        p = malloc((size_t)1 << k);
        if (!p)
            return NULL;
        p->cls = (uint8_t)k;
    }
    p->next = NULL;
    p->nfds = 0;
    return p;
}

void xw__pkt_free(xw_connection_t *c, struct xw_pkt *p)
{
    struct xw_store *s = &c->store;
    unsigned k = p->cls;
    if (k >= XW_BIG_CLASS && s->nfree[k] >= XW_BIG_KEEP) {
        free(p);
        return;
    }
    p->next = s->free[k];
    s->free[k] = p;
    s->nfree[k]++;
}

void xw__store_fini(struct xw_store *s)
{
    for (unsigned k = 0; k < XW_STORE_CLASSES; k++) {
        while (s->free[k]) {
            struct xw_pkt *p = s->free[k];
            s->free[k] = p->next;
            free(p);
        }
        s->nfree[k] = 0;
    }
}
