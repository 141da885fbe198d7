/* SPDX-License-Identifier: MIT */
/* conform.h — the harness that generated conformance cases (xwgen --conform) call. */
#ifndef XW_CONFORM_H
#define XW_CONFORM_H

#include <stddef.h>
#include <stdint.h>

#include <xcb/xcb.h>
#include <xw/xw.h>

struct cf {
    xcb_connection_t *xc;
    xw_connection_t *wc;
    uint64_t rng;
    int skip_xcb; /* libxcb cannot send this request at all (see known[]) */
};

struct cf_case {
    const char *ext, *name;
    void (*run)(struct cf *cf, int variant);
};

/* Random bytes and values; the same sequence for the same case and variant. */
void cf_fill(struct cf *cf, void *p, size_t n);
/* A small count for list lengths: 0 in variant 0, 1..4 or 0..7 in the others. */
uint32_t cf_small(struct cf *cf, int v);
/* A switch mask: none, one bit, or all bits of all, by variant. */
uint64_t cf_mask(struct cf *cf, int v, uint64_t all);
/* A case value for a <case> switch. */
long long cf_pick(struct cf *cf, int v, const long long *values, int n);
/* Scratch memory for list arguments, valid until the next case; zero or random bytes. */
void *cf_buf(struct cf *cf, size_t n, int zero);
/* A fresh fd (of /dev/null) to hand to a request, which then owns it. */
int cf_fd(struct cf *cf);

/* Around the two calls of one case: libxcb's request goes between begin and mid,
 * xwire's between mid and end; end compares the bytes and fds the server saw. */
void cf_begin(struct cf *cf);
void cf_mid(struct cf *cf);
void cf_end(struct cf *cf);
/* Bytes [from, to) of the request are C struct padding libxcb sends uninitialised
 * (xwire sends zeros there): not compared. */
void cf_uninit(struct cf *cf, int from, int to);
/* After cf_end: xwire's request as its tracer decoded it has field (by XML name)
 * equal to value, signed or not (a failure when not). */
void cf_traced(struct cf *cf, const char *field, uint64_t value, int sign);

#endif
