/* SPDX-License-Identifier: MIT */
/* emit_access.c — accessors for the fields behind variable-length parts and for lists. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "size.h"

struct actx {
    struct type *t;  /* the container R points to */
    struct type *nt; /* the type whose name prefixes accessor names */
};

/* Fields before any variable part are plain struct members. */
static int in_prefix(struct type *t, struct field *f)
{
    for (int i = 0; i < t->nfields; i++) {
        struct field *g = t->fields[i];
        if (g == f)
            return g->wire && field_fixed(g);
        if (g->wire && !field_fixed(g))
            return 0;
    }
    return 0;
}

static int field_index(struct type *t, struct field *f)
{
    for (int i = 0; i < t->nfields; i++)
        if (t->fields[i] == f)
            return i;
    return -1;
}

static char *offset_of(struct emitter *e, struct type *t, int idx)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    char *w = walker_name(e, t);
    struct out o = {0};
    out_printf(&o, "%s((const char *)R, SIZE_MAX, %d", w, idx);
    for (int i = 0; i < np; i++)
        out_printf(&o, ", %s", wp[i].name);
    out_printf(&o, ")");
    free(w);
    return o.buf;
}

static char *aval(struct ectx *x, struct field *f)
{
    struct actx *a = x->data;
    if (f->owner != a->t)
        return xstrdup(f->cname);
    if (in_prefix(a->t, f))
        return xasprintf("R->%s", f->cname);
    char *off = offset_of(x->e, a->t, field_index(a->t, f));
    char *ct = tname(x->e, f->type);
    char *r = xasprintf("({ %s xw_v; memcpy(&xw_v, (const char *)R + %s, sizeof(xw_v)); xw_v; })", ct, off);
    free(off), free(ct);
    return r;
}

static char *alist(struct ectx *x, struct field *f)
{
    struct actx *a = x->data;
    char *off = offset_of(x->e, a->t, field_index(a->t, f));
    char *r = xasprintf("((const char *)R + %s)", off);
    free(off);
    return r;
}

static void params_decl(struct emitter *e, struct out *o, struct type *t)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    (void)e;
    for (int i = 0; i < np; i++)
        out_printf(o, ", %s %s", wp[i].ctype, wp[i].name);
}

static void proto(struct emitter *e, const char *ret, const char *name, struct type *t, const char *doc)
{
    char *tn = tname(e, t);
    out_printf(&e->hfuncs, "\n/** %s */\nXW_EXPORT %s %s(const %s *R", doc, ret, name, tn);
    params_decl(e, &e->hfuncs, t);
    out_printf(&e->hfuncs, ");\n");
    out_printf(&e->c, "\n%s %s(const %s *R", ret, name, tn);
    params_decl(e, &e->c, t);
    out_printf(&e->c, ")\n{\n    (void)R;\n");
    free(tn);
}

static char *length_c(struct emitter *e, struct actx *a, struct field *f)
{
    struct ectx x = {.e = e, .val = aval, .list = alist, .data = a};
    if (f->expr->kind == EX_CALCLEN) {
        char *start = alist(&x, f);
        char *mt = wiretype(e, f->type);
        int extra = f->owner->kind == TK_REQUEST ? 0 : f->owner->kind == TK_EVENT ? 36 : 32;
        char *r = xasprintf("(int)(((const char *)R + %d + R->length * 4 - %s) / (long)sizeof(%s))", extra, start, mt);
        free(start), free(mt);
        return r;
    }
    char *v = expr_c(&x, f->expr);
    char *r = xasprintf("(int)(%s)", v);
    free(v);
    return r;
}

static void list_accessors(struct emitter *e, struct actx *a, struct field *f)
{
    struct ectx x = {.e = e, .val = aval, .list = alist, .data = a};
    char *mt = tname(e, f->type), *wt = wiretype(e, f->type);
    char *start = alist(&x, f);
    char *len = length_c(e, a, f);
    if (type_fixed(f->type)) {
        char *fn = tfunc2(e, a->nt, f->name, NULL);
        char *ret = xasprintf("%s *", mt);
        proto(e, ret, fn, a->t, "Pointer to the first element of the list.");
        out_printf(&e->c, "    return (%s *)%s;\n}\n", mt, start);
        free(fn), free(ret);
    }
    char *ln = tfunc2(e, a->nt, f->name, "length");
    proto(e, "int", ln, a->t, "Number of elements in the list.");
    out_printf(&e->c, "    return %s;\n}\n", len);
    if (type_is_simple(f->type)) {
        char *en = tfunc2(e, a->nt, f->name, "end");
        proto(e, "xw_generic_iterator_t", en, a->t, "An iterator just past the list's last element.");
        out_printf(&e->c,
                   "    xw_generic_iterator_t i;\n    i.data = ((%s *)%s) + (%s);\n    i.rem = 0;\n"
                   "    i.index = (int)((char *)i.data - (char *)R);\n    return i;\n}\n",
                   wt, start, len);
        free(en);
    } else {
        char *in = tfunc2(e, a->nt, f->name, "iterator");
        char *it = tfunc(e, f->type, "iterator_t");
        proto(e, it, in, a->t, "An iterator over the list's elements.");
        out_printf(
            &e->c,
            "    %s i;\n    i.data = (%s *)%s;\n    i.rem = %s;\n    i.index = (int)((char *)i.data - (char *)R);\n",
            it, mt, start, len);
        struct wparam *mp;
        int mn = f->type->needs_walk ? walker_params(f->type, &mp) : 0;
        for (int k = 0; k < mn; k++) {
            struct field *src = NULL;
            for (int j = 0; j < a->t->nfields; j++)
                if (!strcmp(a->t->fields[j]->cname, mp[k].name))
                    src = a->t->fields[j];
            char *v = src ? aval(&x, src) : xstrdup(mp[k].name);
            out_printf(&e->c, "    i.%s = %s;\n", mp[k].name, v);
            free(v);
        }
        out_printf(&e->c, "    return i;\n}\n");
        free(in), free(it);
    }
    free(mt), free(wt), free(start), free(len), free(ln);
}

static void field_accessor(struct emitter *e, struct actx *a, struct field *f)
{
    struct ectx x = {.e = e, .val = aval, .list = alist, .data = a};
    char *fn = tfunc2(e, a->nt, f->name, NULL);
    char *start = alist(&x, f);
    if (f->kind == FK_SWITCH) {
        proto(e, "void *", fn, a->t, "Pointer to the serialized switch.");
        out_printf(&e->c, "    return (void *)%s;\n}\n", start);
    } else if (type_is_simple(f->type)) {
        char *ct = tname(e, f->type);
        proto(e, ct, fn, a->t, "The field's value.");
        out_printf(&e->c, "    %s v;\n    memcpy(&v, %s, sizeof(v));\n    return v;\n}\n", ct, start);
        free(ct);
    } else {
        char *ct = tname(e, f->type);
        char *ret = xasprintf("%s *", ct);
        proto(e, ret, fn, a->t, "Pointer to the field.");
        out_printf(&e->c, "    return (%s *)%s;\n}\n", ct, start);
        free(ct), free(ret);
    }
    free(fn), free(start);
}

/* A list of fds in a reply: the fds follow the reply's bytes, where xw_get_reply_fds()
 * finds them (libxcb declares the same three functions). */
static void fd_list_accessors(struct emitter *e, struct actx *a, struct field *f)
{
    struct ectx x = {.e = e, .val = aval, .list = alist, .data = a};
    char *n = expr_c(&x, f->expr);
    char *fn = tfunc2(e, a->nt, f->name, NULL), *ln = tfunc2(e, a->nt, f->name, "length"),
         *en = tfunc2(e, a->nt, f->name, "end");
    const char *start = "(int32_t *)((char *)R + 32 + 4 * (size_t)R->length)";
    proto(e, "int32_t *", fn, a->t, "The fds received with the reply (owned by the caller).");
    out_printf(&e->c, "    return %s;\n}\n", start);
    proto(e, "int", ln, a->t, "Number of fds received with the reply.");
    out_printf(&e->c, "    return (int)(%s);\n}\n", n);
    proto(e, "xw_generic_iterator_t", en, a->t, "An iterator just past the last fd.");
    out_printf(&e->c,
               "    xw_generic_iterator_t i;\n    i.data = %s + (%s);\n    i.rem = 0;\n"
               "    i.index = (int)((char *)i.data - (char *)R);\n    return i;\n}\n",
               start, n);
    free(n), free(fn), free(ln), free(en);
}

void emit_accessors(struct emitter *e, struct type *t, struct type *nt)
{
    struct actx a = {t, nt};
    int after_var = 0;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->kind == FK_LIST && f->isfd && t->kind == TK_REPLY) {
            fd_list_accessors(e, &a, f);
            continue;
        }
        if (f->kind == FK_PAD || !f->wire || f->wire == 2) {
            if (f->wire && !field_fixed(f))
                after_var = 1;
            continue;
        }
        if (f->kind == FK_LIST && !field_fixed(f))
            list_accessors(e, &a, f);
        else if (f->kind != FK_LIST && (after_var || !field_fixed(f)))
            field_accessor(e, &a, f);
        if (!field_fixed(f))
            after_var = 1;
    }
}
