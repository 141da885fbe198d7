/* SPDX-License-Identifier: MIT */
/* wparams.c — stage 2, last step: the outside values each variable-size type's walker takes, in libxcb's order. */
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "wparams.h"

static int params_of(struct type *t, struct wparam **out);

static int owned(struct type *t, struct field *f)
{
    if (f->owner == t)
        return 1;
    if (t->kind == TK_SWITCH)
        for (int c = 0; c < t->ncases; c++)
            if (f->owner == t->cases[c])
                return 1;
    return 0;
}

static void add_param(struct wparam **ps, int *n, const char *name, struct type *ty, struct field *f)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*ps)[i].name, name))
            return;
    struct wparam p = {xstrdup(name), NULL, f};
    p.ctype = xstrdup(ty ? ty->ctype : "uint32_t");
    PUSH(*ps, *n, p);
}

static void collect_expr(struct type *t, struct expr *x, struct wparam **ps, int *n, struct type *member)
{
    if (!x)
        return;
    switch (x->kind) {
    case EX_FIELDREF:
    case EX_PARAMREF:
        if (member && x->field && x->field->owner == member)
            return;
        if (!x->field)
            add_param(ps, n, cfield_name(x->name), x->reftype, NULL);
        else if (!owned(t, x->field))
            add_param(ps, n, x->field->cname, x->field->type, x->field);
        return;
    case EX_SUMOF:
        if (!owned(t, x->field))
            fail(x->loc, "sumof over a list outside this type is not supported");
        collect_expr(t, x->field->expr, ps, n, NULL);
        collect_expr(t, x->a, ps, n, x->field->type);
        return;
    default:
        collect_expr(t, x->a, ps, n, member);
        collect_expr(t, x->b, ps, n, member);
    }
}

/* Parameters a walked sub-value needs become parameters of its container unless the
 * container holds them itself. */
static void collect_sub(struct type *t, struct type *sub, struct wparam **ps, int *n)
{
    struct wparam *sp;
    int sn = params_of(sub, &sp);
    for (int i = 0; i < sn; i++) {
        struct field *f = sp[i].field;
        if (f && owned(t, f))
            continue;
        if (!f) {
            /* a paramref: the container's field of that name, or pass it on */
            int found = 0;
            for (int k = 0; k < t->nfields; k++)
                found |= !strcmp(t->fields[k]->cname, sp[i].name);
            if (found)
                continue;
        }
        struct wparam p = {xstrdup(sp[i].name), xstrdup(sp[i].ctype), f};
        int dup = 0;
        for (int k = 0; k < *n; k++)
            dup |= !strcmp((*ps)[k].name, p.name);
        if (!dup)
            PUSH(*ps, *n, p);
    }
}

static void collect_fields(struct type *t, struct field **fs, int nf, struct wparam **ps, int *n)
{
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (f->kind == FK_LIST && !f->nmemb && f->expr && f->expr->kind != EX_CALCLEN)
            collect_expr(t, f->expr, ps, n, NULL);
        if (f->kind == FK_LIST && !f->nmemb && f->type->needs_walk)
            collect_sub(t, f->type, ps, n);
        if (f->kind == FK_FIELD && f->type->needs_walk)
            collect_sub(t, f->type, ps, n);
        if (f->kind == FK_SWITCH)
            collect_sub(t, f->sw, ps, n);
    }
}

static void collect_type(struct type *t, struct wparam **ps, int *n)
{
    if (t->kind == TK_SWITCH) {
        /* libxcb's order: what the cases' lists need, then what selects the cases */
        for (int c = 0; c < t->ncases; c++)
            collect_fields(t, t->cases[c]->fields, t->cases[c]->nfields, ps, n);
        collect_expr(t, t->swexpr, ps, n, NULL);
        for (int c = 0; c < t->ncases; c++)
            for (int k = 0; k < t->cases[c]->ncaseexprs; k++)
                collect_expr(t, t->cases[c]->caseexprs[k], ps, n, NULL);
    } else {
        collect_fields(t, t->fields, t->nfields, ps, n);
        if (t->length_expr)
            collect_expr(t, t->length_expr, ps, n, NULL);
    }
}

/* Fills t->wparams once; the types it contains get theirs first. */
static void type_wparams(struct type *t)
{
    if (t->wparams_done)
        return;
    t->wparams_done = 1;
    collect_type(t, &t->wparams, &t->nwparams);
}

static int params_of(struct type *t, struct wparam **out)
{
    type_wparams(t);
    *out = t->wparams;
    return t->nwparams;
}

static void fields_wparams(struct field **fs, int nf);

static void tree_wparams(struct type *t)
{
    type_wparams(t);
    fields_wparams(t->fields, t->nfields);
    for (int c = 0; c < t->ncases; c++)
        tree_wparams(t->cases[c]);
    if (t->reply)
        tree_wparams(t->reply);
}

static void fields_wparams(struct field **fs, int nf)
{
    for (int i = 0; i < nf; i++)
        if (fs[i]->sw)
            tree_wparams(fs[i]->sw);
}

/* Every type of m, nested switches and cases and replies included: the values its
 * walker needs from outside. */
void module_wparams(struct module *m)
{
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        tree_wparams(t);
        /* a reply is validated on arrival, where only its own bytes are known */
        if (t->reply && t->reply->nwparams)
            fail(t->reply->loc, "a reply whose size needs outside values");
    }
}
