/* SPDX-License-Identifier: MIT */
/* trace_fmt.c — one trace line in text or JSON form: the values the generated decoders hand over. */
#include "trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static size_t room(const struct xw_trl *l)
{
    size_t left = (size_t)(l->end - l->p);
    return left > XW_TRL_RESERVE ? left - XW_TRL_RESERVE : 0;
}

static void put(struct xw_trl *l, const char *s, size_t n)
{
    if (n > room(l)) {
        l->full = 1;
        return;
    }
    memcpy(l->p, s, n);
    l->p += n;
}

void xw__trace_line_puts(struct xw_trl *l, const char *s)
{
    put(l, s, strlen(s));
}

void xw__trace_line_printf(struct xw_trl *l, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n > 0)
        put(l, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

void xw__trace_line_fields(struct xw_trl *l)
{
    l->depth = 0;
    l->list[0] = 0;
    l->first[0] = 1;
    if (l->json)
        xw__trace_line_puts(l, ",\"fields\":{");
}

void xw__trace_line_end(struct xw_trl *l)
{
    /* closing brackets always fit: XW_TRL_RESERVE is kept for them */
    while (l->depth > 0) {
        *l->p++ = l->list[l->depth] ? (l->json ? ']' : '}') : '}';
        l->depth--;
    }
    if (l->shorted) {
        char kept[64];
        /* ran past what was kept of a packet bigger than the capture, or past the packet */
        if (l->kept < l->len)
            snprintf(kept, sizeof(kept), l->json ? ",\"kept\":%zu" : " (%zu of %zu bytes kept)", l->kept, l->len);
        else
            snprintf(kept, sizeof(kept), "%s", l->json ? ",\"short\":true" : " (short)");
        const char *s = kept;
        if (l->json)
            *l->p++ = '}';
        memcpy(l->p, s, strlen(s));
        l->p += strlen(s);
        if (l->json)
            *l->p++ = '}';
    } else if (l->json) {
        *l->p++ = '}';
        *l->p++ = '}';
    }
    if (l->full) {
        const char *s = l->json ? "" : " …";
        memcpy(l->p, s, strlen(s));
        l->p += strlen(s);
    }
    *l->p++ = '\n';
}

void xw__trace_line_key(struct xw_trl *l, const char *name)
{
    int d = l->depth;
    if (!l->first[d])
        put(l, l->json ? "," : " ", 1);
    else if (!l->json && d == 0)
        put(l, " ", 1);
    l->first[d] = 0;
    if (!name)
        return;
    if (l->json) {
        put(l, "\"", 1);
        xw__trace_line_puts(l, name);
        put(l, "\":", 2);
    } else {
        xw__trace_line_puts(l, name);
        put(l, "=", 1);
    }
}

void xw__trace_line_str(struct xw_trl *l, const char *s, size_t n)
{
    size_t limit = (size_t)l->maxlist * 8, show = n > limit ? limit : n;
    char tmp[8];
    put(l, "\"", 1);
    for (size_t i = 0; i < show && !l->full; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\') {
            tmp[0] = '\\', tmp[1] = (char)ch;
            put(l, tmp, 2);
        } else if (ch >= 0x20 && ch < 0x7f) {
            put(l, (const char *)&ch, 1);
        } else {
            int k = snprintf(tmp, sizeof(tmp), l->json ? "\\u%04x" : "\\x%02x", ch);
            put(l, tmp, (size_t)k);
        }
    }
    if (show < n)
        xw__trace_line_printf(l, "...(%zu)", n);
    put(l, "\"", 1);
}

static uint64_t load(const char *p, int kind, int *sign)
{
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    *sign = kind >= XW_TR_I8 && kind <= XW_TR_I64;
    switch (kind) {
    case XW_TR_U8:
    case XW_TR_I8:
    case XW_TR_BOOL:
    case XW_TR_CHAR:
        memcpy(&u8, p, 1);
        return kind == XW_TR_I8 ? (uint64_t)(int64_t)(int8_t)u8 : u8;
    case XW_TR_U16:
    case XW_TR_I16:
        memcpy(&u16, p, 2);
        return kind == XW_TR_I16 ? (uint64_t)(int64_t)(int16_t)u16 : u16;
    case XW_TR_U64:
    case XW_TR_I64:
    case XW_TR_F64:
        memcpy(&u64, p, 8);
        return u64;
    default:
        memcpy(&u32, p, 4);
        return kind == XW_TR_I32 ? (uint64_t)(int64_t)(int32_t)u32 : u32;
    }
}

static int kind_size(int kind)
{
    static const uint8_t sizes[] = {1, 2, 4, 8, 1, 2, 4, 8, 1, 1, 4, 8, 4, 4};
    return sizes[kind];
}

static const char *enum_name(const struct xw_tr_enum *en, uint64_t v)
{
    for (int i = 0; i < en->n; i++)
        if (en->items[i].value == v)
            return en->items[i].name;
    return NULL;
}

/* a set of bits by name: "A|B|0x40" */
static void mask_value(struct xw_trl *l, const struct xw_tr_enum *en, uint64_t v)
{
    if (l->json)
        put(l, "\"", 1);
    if (v == 0) {
        const char *z = enum_name(en, 0);
        xw__trace_line_puts(l, z ? z : "0");
    }
    int any = 0;
    for (int i = 0; i < en->n && v; i++) {
        uint32_t b = en->items[i].value;
        if (b && (v & b) == b && !(b & (b - 1))) {
            xw__trace_line_printf(l, "%s%s", any ? "|" : "", en->items[i].name);
            v &= ~(uint64_t)b;
            any = 1;
        }
    }
    if (v)
        xw__trace_line_printf(l, "%s0x%llx", any ? "|" : "", (unsigned long long)v);
    if (l->json)
        put(l, "\"", 1);
}

static void number(struct xw_trl *l, uint64_t v, int sign)
{
    if (sign)
        xw__trace_line_printf(l, "%lld", (long long)v);
    else
        xw__trace_line_printf(l, "%llu", (unsigned long long)v);
}

static void value(struct xw_trl *l, const char *p, int kind, const struct xw_tr_enum *en)
{
    int sign;
    uint64_t v = load(p, kind, &sign);
    if (l->numbers && kind != XW_TR_F32 && kind != XW_TR_F64) {
        number(l, v, sign);
        return;
    }
    if (en && en->mask) {
        mask_value(l, en, v);
        return;
    }
    const char *name = en ? enum_name(en, v) : NULL;
    if (kind == XW_TR_ATOM && !name && v)
        name = xw__trace_atom_name(l->atoms, (uint32_t)v);
    if (name && kind == XW_TR_ATOM && !l->json) {
        xw__trace_line_printf(l, "%s(%llu)", name, (unsigned long long)v);
        return;
    }
    if (name) {
        xw__trace_line_printf(l, l->json ? "\"%s\"" : "%s", name);
        return;
    }
    switch (kind) {
    case XW_TR_BOOL:
        xw__trace_line_puts(l, v ? "true" : "false");
        break;
    case XW_TR_F32: {
        float f;
        memcpy(&f, p, 4);
        xw__trace_line_printf(l, "%g", (double)f);
        break;
    }
    case XW_TR_F64: {
        double d;
        memcpy(&d, p, 8);
        xw__trace_line_printf(l, "%g", d);
        break;
    }
    case XW_TR_XID:
        xw__trace_line_printf(l, l->json ? "%llu" : "0x%llx", (unsigned long long)v);
        break;
    default:
        number(l, v, sign);
        break;
    }
}

void xw__trace_field(struct xw_trl *l, const char *name, const char *p, int kind, const struct xw_tr_enum *en)
{
    if (l->mute > 0)
        return;
    xw__trace_line_key(l, name);
    value(l, p, kind, en);
}

void xw__trace_list(struct xw_trl *l, const char *name, const char *p, size_t avail, int64_t n, int kind,
                    const struct xw_tr_enum *en)
{
    if (l->mute > 0)
        return;
    int size = kind_size(kind);
    uint64_t have = avail / (size_t)size;
    if (kind == XW_TR_CHAR) {
        xw__trace_line_key(l, name);
        xw__trace_line_str(l, p, (uint64_t)n < have ? (size_t)n : (size_t)have);
        return;
    }
    xw__trace_open(l, name, 1, n);
    int64_t i = 0;
    for (; i < n && (uint64_t)i < have && xw__trace_show(l, i); i++) {
        xw__trace_line_key(l, NULL);
        value(l, p + i * size, kind, en);
    }
    xw__trace_close(l, 1, n, i);
}

void xw__trace_open(struct xw_trl *l, const char *name, int list, int64_t n)
{
    if (l->mute > 0)
        return;
    if (l->full || l->depth >= XW_TRL_DEPTH || room(l) < 32) {
        l->lost++; /* never opened: its close is skipped too */
        l->full = 1;
        return;
    }
    xw__trace_line_key(l, name);
    if (list && !l->json)
        xw__trace_line_printf(l, "[%lld]", (long long)n);
    put(l, list && l->json ? "[" : "{", 1);
    l->depth++;
    l->list[l->depth] = (uint8_t)list;
    l->first[l->depth] = 1;
}

void xw__trace_close(struct xw_trl *l, int list, int64_t n, int64_t shown)
{
    if (l->mute > 0)
        return;
    if (l->lost) {
        l->lost--;
        return;
    }
    if (l->depth == 0)
        return;
    if (shown > (int64_t)l->maxlist) /* a list walked past the shown ones */
        shown = l->maxlist;
    if (list && shown < n) {
        xw__trace_line_key(l, NULL);
        xw__trace_line_printf(l, l->json ? "\"...(%lld)\"" : "...", (long long)n);
    }
    /* the reserve keeps room for every closing bracket */
    *l->p++ = l->list[l->depth] && l->json ? ']' : '}';
    l->depth--;
}

int xw__trace_show(struct xw_trl *l, int64_t i)
{
    return (uint64_t)i < l->maxlist && !l->full;
}

int xw__trace_mute(struct xw_trl *l, int d)
{
    l->mute += d;
    return d;
}

long xw__trace_short(struct xw_trl *l)
{
    l->shorted = 1;
    return -1;
}

void xw__trace_fds(struct xw_trl *l, const char *name, int64_t n)
{
    if (l->mute > 0)
        return;
    int one = n < 0;
    if (one)
        n = 1;
    if (!one)
        xw__trace_open(l, name, 1, n);
    else
        xw__trace_line_key(l, name);
    for (int64_t i = 0; i < n && i < 16; i++) {
        if (!one)
            xw__trace_line_key(l, NULL);
        if (l->fds && l->fdpos < l->nfds)
            xw__trace_line_printf(l, "%s%d", l->json ? "" : "fd:", l->fds[l->fdpos++]);
        else
            xw__trace_line_puts(l, l->json ? "\"fd\"" : "fd");
    }
    if (!one)
        xw__trace_close(l, 1, n, n < 16 ? n : 16);
}

size_t xw__trace_len(const struct xw_trl *l)
{
    return l->len;
}
