/* SPDX-License-Identifier: MIT */
/* emit_c.c — the C spellings every emitter shares: names of generated types and functions, expressions,
 * doc comments. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "names.h"
#include "size.h"

/* ---- names ---- */

/* Names of a type's functions: its C base name (computed by resolve) and suffixes. */
char *tfunc(struct emitter *e, struct type *t, const char *suffix)
{
    (void)e;
    return suffix ? name_suffix(t->cbase, NULL, suffix) : xstrdup(t->cbase);
}

char *tfunc2(struct emitter *e, struct type *t, const char *a, const char *b)
{
    (void)e;
    return name_suffix(t->cbase, a, b);
}

/* An internal (hidden) function of t: xw__<base>[_a]_b. */
char *ifunc(struct type *t, const char *a, const char *b)
{
    return name_suffix(t->ibase, a, b);
}

char *tname(struct emitter *e, struct type *t)
{
    (void)e;
    return xstrdup(t->ctype);
}

/* The C type of a list element or field: "char" stands for void on the wire. */
char *wiretype(struct emitter *e, struct type *t)
{
    if (t->kind == TK_PRIM && !strcmp(t->ctype, "void"))
        return xstrdup("char");
    return tname(e, t);
}

int type_is_simple(const struct type *t)
{
    if (t->kind == TK_TYPEDEF)
        return type_is_simple(t->target);
    return t->kind == TK_PRIM || t->kind == TK_XID || t->kind == TK_XIDUNION;
}

/* Alignment mask libxcb applies before a variable part that follows another one. */
int pad_mask(const struct type *t)
{
    /* XCB_TYPE_PAD: sizeof the element's C type, capped at 4 (libxcb's accessors) */
    int s = t->kind == TK_PRIM ? t->size : c_size(t);
    if (t->kind == TK_PRIM && !strcmp(t->ctype, "void"))
        s = 1;
    if (s <= 0)
        s = 1;
    return s > 4 ? 3 : s - 1;
}

/* ---- expressions ---- */

static char *val_default(struct ectx *x, struct field *f)
{
    (void)x;
    return xstrdup(f->cname);
}

static char *sumof_c(struct ectx *x, struct expr *ex)
{
    struct field *lf = ex->field;
    char *n = expr_c(x, lf->expr);
    char *p = x->list ? x->list(x, lf) : xstrdup(lf->cname);
    char *mt = wiretype(x->e, lf->type);
    struct ectx in = *x;
    in.outer = x;
    in.member = lf->type;
    char *inner = ex->a ? expr_c(&in, ex->a) : xstrdup("xw_el");
    char *r = xasprintf("({ int64_t xw_sum = 0; const char *xw_lp = (const char *)(%s); "
                        "for (int64_t xw_i = 0; xw_i < (int64_t)(%s); xw_i++) { %s xw_el; "
                        "memcpy(&xw_el, xw_lp + xw_i * (int64_t)sizeof(xw_el), sizeof(xw_el)); "
                        "xw_sum += %s; } xw_sum; })",
                        p, n, mt, inner);
    free(n), free(p), free(mt), free(inner);
    return r;
}

static char *enumref_c(struct ectx *x, struct expr *ex)
{
    char *path[34];
    struct emitter *e = x->e;
    int n = 0;
    path[n++] = "xw";
    if (ex->reftype->mod->is_ext)
        path[n++] = ex->reftype->mod->ext_name;
    path[n++] = ex->reftype->name;
    path[n++] = ex->name;
    char *s = cname_join(e->m, path, n, NULL);
    char *u = cname_upper(s);
    free(s);
    return u;
}

char *expr_c(struct ectx *x, struct expr *ex)
{
    char *a, *b, *r;
    switch (ex->kind) {
    case EX_NUM:
        return xasprintf("%lld", ex->num);
    case EX_FIELDREF:
    case EX_PARAMREF:
        if (x->member && ex->field && ex->field->owner == x->member)
            return xasprintf("xw_el.%s", ex->field->cname);
        if (x->outer && x->member)
            return expr_c(x->outer, ex);
        if (!ex->field) /* paramref with no field: a parameter of this function */
            return xasprintf("%s%s", x->param_prefix ? x->param_prefix : "", cfield_name(ex->name));
        return x->val ? x->val(x, ex->field) : val_default(x, ex->field);
    case EX_LISTELEM:
        return xstrdup("xw_el");
    case EX_OP:
        /* in 64 bits: a server's 16-bit counts multiplied must not overflow int, and
         * a zero divisor or a wide shift must not be undefined */
        a = expr_c(x, ex->a), b = expr_c(x, ex->b);
        if (!strcmp(ex->op, "/"))
            r = xasprintf("xw__div((int64_t)(%s), (int64_t)(%s))", a, b);
        else if (!strcmp(ex->op, "<<"))
            r = xasprintf("((int64_t)((uint64_t)(%s) << ((%s) & 63)))", a, b);
        else
            r = xasprintf("((int64_t)(%s) %s (int64_t)(%s))", a, ex->op, b);
        free(a), free(b);
        return r;
    case EX_UNOP:
        a = expr_c(x, ex->a);
        r = xasprintf("(%s%s)", ex->op, a);
        free(a);
        return r;
    case EX_POPCOUNT:
        a = expr_c(x, ex->a);
        r = xasprintf("xw_popcount(%s)", a);
        free(a);
        return r;
    case EX_SUMOF:
        return sumof_c(x, ex);
    case EX_ENUMREF:
        return enumref_c(x, ex);
    case EX_CALCLEN:
        return xstrdup("0");
    }
    return xstrdup("0");
}

/* ---- documentation ---- */

void emit_doc(struct out *o, const struct doc *d, const char *indent)
{
    if (!d || (!d->brief && !d->description))
        return;
    out_printf(o, "%s/**\n", indent);
    if (d->brief)
        out_printf(o, "%s * @brief %s\n", indent, d->brief);
    if (d->description) {
        out_printf(o, "%s *\n%s * ", indent, indent);
        for (const char *p = d->description; *p; p++) {
            if (*p == '\n')
                out_printf(o, "\n%s * ", indent);
            else if (*p == '*' && p[1] == '/')
                out_printf(o, "* /");
            else
                out_printf(o, "%c", *p);
        }
        out_printf(o, "\n");
    }
    out_printf(o, "%s */\n", indent);
}
