/* SPDX-License-Identifier: MIT */
/* out.h — a growing text buffer: what the emitters write into and the driver writes out. */
#ifndef XWGEN_OUT_H
#define XWGEN_OUT_H

#include <stddef.h>

/* buf is NUL-terminated once anything was written; the owner frees it. */
struct out {
    char *buf;
    size_t len, cap;
};

void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_append(struct out *dst, const struct out *src);

#endif
