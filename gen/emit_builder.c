/* SPDX-License-Identifier: MIT */
/* emit_builder.c — test use (xwgen-test --decode): builders, C functions that write a valid random
 * value of a type (a reply, an event, a struct) into a buffer, for the decode cases to compare the
 * two libraries' accessors on. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "size.h"
#include "testgen_int.h"

static char *bname(struct emitter *e, struct type *t)
{
    char *w = walker_name(e, t); /* xw__..._walk */
    char *r = xasprintf("b%s", w + 2);
    free(w);
    return r;
}

static char *bval(struct ectx *x, struct field *f)
{
    (void)x;
    return xasprintf("xw_v_%s", f->cname);
}

static char *blist(struct ectx *x, struct field *f)
{
    (void)x;
    return xasprintf("xw_p_%s", f->cname);
}

/* The switch of t (or of one of its cases) that f selects, if any. */
static struct type *selected_switch(struct type *t, struct field *f)
{
    for (int i = 0; i < t->nfields; i++) {
        struct field *g = t->fields[i];
        if (g->kind == FK_SWITCH && g->sw->swexpr->kind == EX_FIELDREF && g->sw->swexpr->field == f)
            return g->sw;
    }
    return NULL;
}

long long case_const(struct expr *x)
{
    if (x->kind == EX_ENUMREF)
        for (int i = 0; i < x->reftype->nitems; i++)
            if (!strcmp(x->reftype->items[i].name, x->name))
                return atoll(x->reftype->items[i].value);
    return x->kind == EX_NUM ? x->num : 0;
}

static void emit_builder(struct dstate *d, struct type *t);

/* The variable part starts at sizeof the C struct, as libxcb reads it; on the wire a
 * generic event lacks the 4 bytes of full_sequence its struct has. */
static void build_c_end(struct dstate *d, struct type *t, const char *ind)
{
    int cs = c_size(t) - (t->kind == TK_EVENT && t->xge ? 4 : 0);
    out_printf(
        d->o,
        "%s    if (xw_off < %d) { if (%d > cap) return -1; memset(xw_b + xw_off, 0, %d - xw_off); xw_off = %d; }\n",
        ind, cs, cs, cs, cs);
}

/* Zeros up to the next multiple of mask + 1. */
static void build_align(struct dstate *d, int mask, const char *ind)
{
    out_printf(d->o,
               "%s    { size_t p = -xw_off & %d; if (p > cap - xw_off) return -1; memset(xw_b + xw_off, 0, p); xw_off "
               "+= p; }\n",
               ind, mask);
}

/* A pad: fixed, or an alignment (then what follows is placed at a variable offset: 1). */
static int build_pad(struct dstate *d, struct field *f, const char *ind)
{
    if (f->pad_align) {
        build_align(d, f->pad_align - 1, ind);
        return 1;
    }
    out_printf(d->o,
               "%s    if (%d > cap - xw_off) return -1;\n%s    memset(xw_b + xw_off, 0, %d);\n%s    xw_off += %d;\n",
               ind, f->pad_bytes, ind, f->pad_bytes, ind, f->pad_bytes);
    return 0;
}

/* A scalar some expression reads: a value of a <case> switch it selects, a random one for
 * a bitcase switch, else a small one (a count). */
static void build_value(struct dstate *d, struct type *t, struct field *f, int n, const char *ind)
{
    struct out *o = d->o;
    struct type *sel = selected_switch(t, f);
    char *ct = tname(d->e, f->type);
    if (sel && sel->ncases && !sel->cases[0]->is_bitcase) {
        out_printf(o, "%s    {\n%s        static const long long v[] = {", ind, ind);
        for (int c = 0; c < sel->ncases; c++)
            out_printf(o, "%s%lld", c ? ", " : "", case_const(sel->cases[c]->caseexprs[0]));
        out_printf(o, "};\n%s        xw_v_%s = (%s)v[db_rand(r) %% %d];\n%s    }\n", ind, f->cname, ct, sel->ncases,
                   ind);
    } else {
        out_printf(o, "%s    xw_v_%s = (%s)%s;\n", ind, f->cname, ct, sel ? "db_rand(r)" : "db_small(r)");
    }
    out_printf(o, "%s    memcpy(xw_b + xw_off, &xw_v_%s, %d);\n", ind, f->cname, n);
    free(ct);
}

/* A call of t's builder at xw_off; a switch's takes the values its walker takes. */
static void build_call(struct dstate *d, struct type *t, int with_params, const char *ind)
{
    emit_builder(d, t);
    char *bn = bname(d->e, t);
    struct wparam *wp;
    int np = with_params ? walker_params(t, &wp) : 0;
    out_printf(d->o, "%s    { long s = %s(r, xw_b + xw_off, cap - xw_off", ind, bn);
    for (int k = 0; k < np; k++)
        out_printf(d->o, ", xw_v_%s", wp[k].name);
    out_printf(d->o, "); if (s < 0) return -1; xw_off += (size_t)s; }\n");
    free(bn);
}

static void build_fixed(struct dstate *d, struct type *t, struct field *f, const char *ind)
{
    struct out *o = d->o;
    int n = field_size(f);
    out_printf(o, "%s    if (%d > cap - xw_off) return -1;\n", ind, n);
    if (f->referenced && f->kind == FK_FIELD && type_is_simple(f->type)) {
        build_value(d, t, f, n, ind);
    } else if (f->kind == FK_FIELD && !type_is_simple(f->type) && f->type->kind != TK_UNION) {
        emit_builder(d, f->type);
        char *bn = bname(d->e, f->type);
        out_printf(o, "%s    if (%s(r, xw_b + xw_off, cap - xw_off) < 0) return -1;\n", ind, bn);
        free(bn);
    } else {
        out_printf(o, "%s    db_fill(r, xw_b + xw_off, %d);\n", ind, n);
    }
    if (f->referenced && f->kind == FK_LIST)
        out_printf(o, "%s    xw_p_%s = xw_b + xw_off;\n", ind, f->cname);
    out_printf(o, "%s    xw_off += %d;\n", ind, n);
}

/* A variable list: its length from its expression (bounded), then random bytes for
 * elements of a fixed simple type, else each element from its builder. */
static void build_list(struct dstate *d, struct field *f, const char *ind)
{
    struct out *o = d->o;
    struct ectx x = {.e = d->e, .val = bval, .list = blist, .param_prefix = "xw_v_"};
    char *n = f->expr->kind == EX_CALCLEN ? xstrdup("r->calclen = db_small(r)") : expr_c(&x, f->expr);
    out_printf(o, "%s    {\n%s        int64_t n = (int64_t)(%s);\n%s        if (n < 0 || n > 4096) return -1;\n", ind,
               ind, n, ind);
    if (f->referenced)
        out_printf(o, "%s        xw_p_%s = xw_b + xw_off;\n", ind, f->cname);
    if (type_fixed(f->type) &&
        (type_is_simple(f->type) || f->type->kind == TK_UNION || f->type->kind == TK_EVENTSTRUCT)) {
        int ms = f->type->size > 0 ? f->type->size : 1;
        out_printf(o,
                   "%s        if ((uint64_t)n * %d > cap - xw_off) return -1;\n%s        db_fill(r, xw_b + xw_off, "
                   "(size_t)n * %d);\n"
                   "%s        xw_off += (size_t)n * %d;\n",
                   ind, ms, ind, ms, ind, ms);
    } else {
        emit_builder(d, f->type);
        char *bn = bname(d->e, f->type);
        struct wparam *wp;
        int np = f->type->needs_walk ? walker_params(f->type, &wp) : 0;
        out_printf(
            o, "%s        for (int64_t i = 0; i < n; i++) {\n%s            long s = %s(r, xw_b + xw_off, cap - xw_off",
            ind, ind, bn);
        for (int k = 0; k < np; k++)
            out_printf(o, ", xw_v_%s", wp[k].name);
        out_printf(o, ");\n%s            if (s < 0) return -1;\n%s            xw_off += (size_t)s;\n%s        }\n", ind,
                   ind, ind);
        free(bn);
    }
    out_printf(o, "%s    }\n", ind);
    free(n);
}

/* The fields of t in wire order; prev_var: an earlier part ended at a variable offset,
 * so a variable field is aligned as libxcb's accessors expect. */
static void build_fields(struct dstate *d, struct type *t, struct field **fs, int nf, const char *ind)
{
    int prev_var = 0, seen_var = 0;
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (f->wire && !field_fixed(f) && !seen_var && t->kind != TK_SWITCH && t->kind != TK_CASE) {
            seen_var = 1;
            build_c_end(d, t, ind);
        }
        if (!f->wire || f->wire == 2 || f->kind == FK_FD)
            continue;
        if (f->kind == FK_PAD) {
            prev_var |= build_pad(d, f, ind);
            continue;
        }
        if (field_fixed(f)) {
            build_fixed(d, t, f, ind);
            continue;
        }
        if (f->kind != FK_SWITCH && prev_var && pad_mask(f->type))
            build_align(d, pad_mask(f->type), ind);
        if (f->kind == FK_LIST)
            build_list(d, f, ind);
        else if (f->kind == FK_SWITCH)
            build_call(d, f->sw, 1, ind);
        else
            build_call(d, f->type, 0, ind);
        prev_var = 1;
    }
}

static void declare(struct dstate *d, struct out *o, struct field **fs, int nf, struct out *seen)
{
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (!f->referenced || !f->wire)
            continue;
        char *key = xasprintf("|%s|", f->cname);
        if (seen->buf && strstr(seen->buf, key)) {
            free(key);
            continue;
        }
        out_printf(seen, "%s", key);
        free(key);
        if (f->kind == FK_LIST)
            out_printf(o, "    const char *xw_p_%s = NULL;\n    (void)xw_p_%s;\n", f->cname, f->cname);
        else {
            char *ct = tname(d->e, f->type);
            out_printf(o, "    %s xw_v_%s = 0;\n    (void)xw_v_%s;\n", ct, f->cname, f->cname);
            free(ct);
        }
    }
}

/* A builder writes a valid random value of t at xw_b and returns its size (-1: no room). */
static void emit_builder(struct dstate *d, struct type *t)
{
    char *bn = bname(d->e, t);
    char *key = xasprintf("|%s|", bn);
    if (d->done->buf && strstr(d->done->buf, key)) {
        free(bn), free(key);
        return;
    }
    out_printf(d->done, "%s", key);
    struct out body = {0}, *saved = d->o;
    d->o = &body;
    struct wparam *wp;
    int np = t->needs_walk ? walker_params(t, &wp) : 0;
    out_printf(&body, "\nstatic long %s(struct db *r, char *xw_b, size_t cap", bn);
    for (int i = 0; i < np; i++)
        out_printf(&body, ", %s xw_v_%s", wp[i].ctype, wp[i].name);
    out_printf(&body, ")\n{\n    size_t xw_off = 0;\n");
    struct out seen = {0};
    if (t->kind == TK_SWITCH) {
        for (int c = 0; c < t->ncases; c++)
            declare(d, &body, t->cases[c]->fields, t->cases[c]->nfields, &seen);
        struct ectx x = {.e = d->e, .val = bval, .list = blist, .param_prefix = "xw_v_"};
        char *se = expr_c(&x, t->swexpr);
        for (int c = 0; c < t->ncases; c++) {
            struct type *cs = t->cases[c];
            out_printf(&body, "    if (");
            for (int k = 0; k < cs->ncaseexprs; k++) {
                char *ce = expr_c(&x, cs->caseexprs[k]);
                out_printf(&body, cs->ncaseexprs > 1 ? "%s(%s %s %s)" : "%s%s %s %s", k ? " || " : "", se,
                           cs->is_bitcase ? "&" : "==", ce);
                free(ce);
            }
            out_printf(&body, ") {\n");
            build_fields(d, cs, cs->fields, cs->nfields, "    ");
            out_printf(&body, "    }\n");
        }
        free(se);
    } else {
        declare(d, &body, t->fields, t->nfields, &seen);
        build_fields(d, t, t->fields, t->nfields, "");
        struct expr *l = t->length_expr;
        if (l && l->kind == EX_OP && !strcmp(l->op, "*") && l->a->kind == EX_FIELDREF && l->b->kind == EX_NUM) {
            /* <length>field * K</length>: set the field to cover what was written */
            struct field *lf = l->a->field;
            int at = 0;
            for (int i = 0; i < t->nfields && t->fields[i] != lf; i++)
                at += t->fields[i]->wire && field_fixed(t->fields[i]) ? field_size(t->fields[i]) : 0;
            char *ct = tname(d->e, lf->type);
            out_printf(&body,
                       "    {\n        %s units = (%s)((xw_off + %lld - 1) / %lld);\n        size_t end = "
                       "(size_t)units * %lld;\n"
                       "        if (end > cap) return -1;\n        memset(xw_b + xw_off, 0, end - xw_off);\n"
                       "        memcpy(xw_b + %d, &units, sizeof(units));\n        xw_off = end;\n    }\n",
                       ct, ct, l->b->num, l->b->num, l->b->num, at);
            free(ct);
        } else if (l) {
            fail(t->loc, "--decode cannot build a <length> of this form");
        }
    }
    out_printf(&body, "    (void)r;\n    return (long)xw_off;\n}\n");
    d->o = saved;
    out_append(d->top, &body);
    free(body.buf), free(seen.buf), free(bn), free(key);
}

char *decode_builder(struct dstate *d, struct type *t)
{
    emit_builder(d, t);
    return bname(d->e, t);
}
