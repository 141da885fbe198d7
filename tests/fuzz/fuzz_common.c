/* SPDX-License-Identifier: MIT */
/* fuzz_common.c — bounds checks shared by the harnesses, and lookups in the generated target table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_decode.h"

static const char *lo, *hi; /* the packet being visited */
static const char *cur;     /* its type's name, for messages */
static volatile uint64_t sunk;

static void die(const char *what, const void *p, size_t n)
{
    fprintf(stderr, "fuzz: %s: %s at offset %td, %zu bytes, packet %td bytes\n", cur, what, (const char *)p - lo, n,
            hi - lo);
    abort();
}

void inside(const void *p, size_t n)
{
    const char *c = p;
    if (c < lo || c > hi || n > (size_t)(hi - c))
        die("pointer outside the packet", p, n);
}

void touch(const void *p, size_t n)
{
    const char *c = p;
    uint64_t s = 0;
    inside(p, n);
    for (size_t i = 0; i < n; i++)
        s += (uint8_t)c[i];
    sunk += s;
}

void sink(uint64_t v)
{
    sunk += v;
}

void fuzz_visit(const struct fuzz_target *t, const void *p, size_t len)
{
    lo = p, hi = (const char *)p + len, cur = t->name;
    long w = t->walk(p, len, -1);
    if (w < 0)
        die("walker refuses a packet the runtime accepted", p, len);
    if ((size_t)w > len)
        die("walker accepted more bytes than the packet has", p, (size_t)w);
    if (t->size && t->size(p) != w)
        die("_sizeof disagrees with the walker", p, (size_t)w);
    if (t->visit)
        t->visit(p);
}

const struct fuzz_target *fuzz_find(const char *header, const char *name)
{
    for (size_t i = 0; i < fuzz_ntargets; i++)
        if (!strcmp(fuzz_targets[i].header, header) && !strcmp(fuzz_targets[i].name, name))
            return &fuzz_targets[i];
    return NULL;
}

const struct fuzz_target *fuzz_find_xge(const char *header, int number)
{
    for (size_t i = 0; i < fuzz_ntargets; i++)
        if (fuzz_targets[i].kind == FUZZ_XGE && fuzz_targets[i].number == number &&
            !strcmp(fuzz_targets[i].header, header))
            return &fuzz_targets[i];
    return NULL;
}
