/* SPDX-License-Identifier: MIT */
/* size.c — sizes of resolved types and fields: on the wire, and as the C structs the generator declares. */
#include "size.h"

/* ---- on the wire ---- */

int field_fixed(const struct field *f)
{
    switch (f->kind) {
    case FK_PAD:
        return f->pad_align == 0;
    case FK_SWITCH:
        return 0;
    case FK_FD:
        return 1;
    case FK_LIST:
        return f->nmemb > 0;
    default:
        return type_fixed(f->type);
    }
}

int type_fixed(const struct type *t)
{
    return t->size >= 0;
}

/* Bytes a fixed field takes on the wire (0 for fds, which are not on the wire). */
int field_size(const struct field *f)
{
    switch (f->kind) {
    case FK_PAD:
        return f->pad_bytes;
    case FK_FD:
        return 0;
    case FK_LIST:
        return f->nmemb * f->type->size;
    default:
        return f->type->size;
    }
}

/* ---- as C structs ---- */

/* Size of the C struct the generator declares for t (natural alignment), so senders
 * know when it has padding the wire does not. */
static int c_align(const struct type *t)
{
    switch (t->kind) {
    case TK_PRIM:
        return t->size > 8 ? 8 : t->size;
    case TK_XID:
    case TK_XIDUNION:
        return 4;
    case TK_TYPEDEF:
        return c_align(t->target);
    default: {
        int a = 1;
        for (int i = 0; i < t->nfields; i++) {
            struct field *f = t->fields[i];
            if (!f->wire || !field_fixed(f) || f->kind == FK_SWITCH)
                continue;
            int fa = f->kind == FK_PAD ? 1 : c_align(f->type);
            a = fa > a ? fa : a;
        }
        return a;
    }
    }
}

/* A generic event whose 64-bit members follow full_sequence is packed, as in libxcb. */
int c_packed(const struct type *t)
{
    if (t->kind != TK_EVENT || !t->xge)
        return 0;
    int after = 0;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->wire == 2)
            after = 1;
        else if (after && f->type && f->type->size == 8 && (f->type->kind == TK_PRIM || f->type->kind == TK_TYPEDEF))
            return 1;
    }
    return 0;
}

int c_size(const struct type *t)
{
    if (t->kind != TK_STRUCT && t->kind != TK_REQUEST && t->kind != TK_REPLY && t->kind != TK_EVENT &&
        t->kind != TK_ERROR && t->kind != TK_UNION)
        return t->size;
    int off = 0;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (!f->wire || !field_fixed(f))
            continue;
        int fa = f->kind == FK_PAD || c_packed(t) ? 1 : c_align(f->type);
        int fs = f->kind == FK_PAD ? f->pad_bytes : f->kind == FK_LIST ? f->nmemb * c_size(f->type) : c_size(f->type);
        off = (off + fa - 1) / fa * fa;
        off = t->kind == TK_UNION ? (fs > off ? fs : off) : off + fs;
    }
    int a = c_packed(t) ? 1 : c_align(t);
    return (off + a - 1) / a * a;
}
