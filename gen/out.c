/* SPDX-License-Identifier: MIT */
/* out.c — the growing text buffer the emitters write into. */
#include <stdarg.h>
#include <stdio.h>

#include "diag.h"
#include "out.h"

void out_printf(struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (o->len + (size_t)n + 1 > o->cap) {
        o->cap = (o->len + (size_t)n + 1) * 2;
        o->buf = xrealloc(o->buf, o->cap);
    }
    va_start(ap, fmt);
    vsnprintf(o->buf + o->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

void out_append(struct out *dst, const struct out *src)
{
    if (src->len)
        out_printf(dst, "%.*s", (int)src->len, src->buf);
}
