/* SPDX-License-Identifier: MIT */
/* sink.h — internal: the generated switch serializers' sink. */
#ifndef XW_SRC_SINK_H
#define XW_SRC_SINK_H

#include "base.h"

/* ---- the generated switch serializers' sink (one serializer serves _serialize and
 * the _aux senders; only generated code uses it) ---- */

/* Where a generated switch serializer puts the pieces of a switch (one serializer
 * serves _serialize and the _aux senders): with o set, their bytes are copied to o
 * + off; with iov set, each piece becomes one iovec pointing at the caller's data
 * (base NULL: padding), for a sender that must not copy or allocate; with neither,
 * they are only measured. off counts the bytes put so far. bad is set when a piece
 * of data is NULL with a non-zero length (the caller's mistake: nothing may be
 * sent), or when more than maxiov iovecs would be needed (the generator sizes
 * maxiov so that this cannot happen). The caller owns every buffer. */
struct xw__sink {
    char *o;
    struct iovec *iov;
    int niov, maxiov;
    int bad;
    size_t off;
};

static inline void xw__sink_piece(struct xw__sink *s, const void *p, size_t n)
{
    if (s->iov) {
        if (s->niov < s->maxiov) {
            s->iov[s->niov].iov_base = (void *)(uintptr_t)p;
            s->iov[s->niov++].iov_len = n;
        } else {
            s->bad = 1;
        }
    } else if (s->o) {
        if (p)
            memcpy(s->o + s->off, p, n);
        else
            memset(s->o + s->off, 0, n);
    }
    s->off += n;
}

/* n bytes of the caller's data at p */
static inline void xw__sink_data(struct xw__sink *s, const void *p, size_t n)
{
    if (!n)
        return;
    if (p) {
        xw__sink_piece(s, p, n);
    } else {
        s->bad = 1;
        s->off += n;
    }
}

/* n zero bytes */
static inline void xw__sink_pad(struct xw__sink *s, size_t n)
{
    if (n)
        xw__sink_piece(s, NULL, n);
}

#endif
