/* SPDX-License-Identifier: MIT */
/* emit_conform.c — test use: a C file that sends every request of a description through
 * libxcb and through xwire with the same deterministic arguments, for byte comparison. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "size.h"
#include "testgen.h"

static char *aname(struct ectx *x, struct field *f)
{
    (void)x;
    return xasprintf("a_%s", f->cname);
}

static int referenced_by_lists(struct field *f)
{
    if (f->synth)
        return 1;
    return f->referenced;
}

/* Bits any bitcase tests, or values cases compare with: known at generation time. */
static long long case_value(struct emitter *e, struct expr *x)
{
    if (x->kind == EX_NUM)
        return x->num;
    if (x->kind == EX_ENUMREF) {
        for (int i = 0; i < x->reftype->nitems; i++)
            if (!strcmp(x->reftype->items[i].name, x->name))
                return atoll(x->reftype->items[i].value);
    }
    (void)e;
    return 0;
}

static struct field *switch_selector(struct type *t, struct field *f)
{
    for (int i = 0; i < t->nfields; i++) {
        struct field *sf = t->fields[i];
        if (sf->kind == FK_SWITCH && sf->sw->swexpr->kind == EX_FIELDREF && sf->sw->swexpr->field == f)
            return sf;
    }
    return NULL;
}

static void scalar_arg(struct emitter *e, struct out *o, struct type *t, struct field *f)
{
    char *ct = tname(e, f->type);
    struct field *sf = switch_selector(t, f);
    if (sf) {
        long long all = 0;
        struct type *sw = sf->sw;
        if (sw->ncases && !sw->cases[0]->is_bitcase) {
            out_printf(o, "    static const long long v_%s[] = {", f->cname);
            for (int c = 0; c < sw->ncases; c++)
                out_printf(o, "%s%lld", c ? ", " : "", case_value(e, sw->cases[c]->caseexprs[0]));
            out_printf(o, "};\n    %s a_%s = (%s)cf_pick(cf, v, v_%s, %d);\n", ct, f->cname, ct, f->cname, sw->ncases);
        } else {
            for (int c = 0; c < sw->ncases; c++)
                for (int k = 0; k < sw->cases[c]->ncaseexprs; k++)
                    all |= case_value(e, sw->cases[c]->caseexprs[k]);
            out_printf(o, "    %s a_%s = (%s)cf_mask(cf, v, 0x%llxULL);\n", ct, f->cname, ct, all);
        }
    } else if (referenced_by_lists(f)) {
        out_printf(o, "    %s a_%s = (%s)cf_small(cf, v);\n", ct, f->cname, ct);
    } else {
        out_printf(o, "    %s a_%s;\n    cf_fill(cf, &a_%s, sizeof(a_%s));\n", ct, f->cname, f->cname, f->cname);
        if (!type_is_simple(f->type)) /* passed by value: libxcb's own type, same bytes */
            out_printf(o, "    xcb%s c_%s;\n    memcpy(&c_%s, &a_%s, sizeof(c_%s));\n", ct + 2, f->cname, f->cname,
                       f->cname, f->cname);
    }
    free(ct);
}

static void list_arg(struct emitter *e, struct out *o, struct field *f)
{
    struct ectx x = {.e = e, .val = aname, .list = aname};
    if (f->nmemb) {
        out_printf(o, "    const void *a_%s = cf_buf(cf, %d, 0);\n", f->cname, field_size(f));
        return;
    }
    if (f->isfd) {
        char *n = expr_c(&x, f->expr);
        out_printf(o,
                   "    int a_%s[8], b_%s[8];\n    for (int i = 0; i < (int)(%s) && i < 8; i++)\n"
                   "        a_%s[i] = cf_fd(cf), b_%s[i] = cf_fd(cf);\n",
                   f->cname, f->cname, n, f->cname, f->cname);
        free(n);
        return;
    }
    char *n = f->expr->kind == EX_CALCLEN ? xasprintf("a_%s_len", f->name) : expr_c(&x, f->expr);
    if (type_fixed(f->type)) {
        char *wt = wiretype(e, f->type);
        out_printf(o, "    const void *a_%s = cf_buf(cf, (size_t)(%s) * sizeof(%s), 0);\n", f->cname, n, wt);
        free(wt);
    } else {
        /* elements of variable size: zero bytes make each the smallest valid one */
        out_printf(o, "    const void *a_%s = cf_buf(cf, 65536, 1);\n    (void)(%s);\n", f->cname, n);
    }
    free(n);
}

static void call(struct out *o, struct type *t, const char *fn, const char *conn, int xcb, int aux)
{
    out_printf(o, "    %s(%s", fn, conn);
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (!f->visible)
            continue;
        if (f->kind == FK_FD)
            out_printf(o, ", cf_fd(cf)");
        else if (f->kind == FK_LIST && f->isfd)
            out_printf(o, ", %s_%s", xcb ? "a" : "b", f->cname);
        else if (f->kind == FK_SWITCH && aux)
            out_printf(o, ", (const void *)&a_%s_aux", f->cname);
        else if (f->kind == FK_FIELD && type_fixed(f->type) && !type_is_simple(f->type) && xcb)
            out_printf(o, ", c_%s", f->cname);
        else
            out_printf(o, ", a_%s", f->cname);
    }
    out_printf(o, ");\n");
}

/* The tracer decodes each plain scalar argument back from xwire's bytes (lengths the
 * library adds and values passed as structs aside). */
static void traced_checks(struct out *o, struct type *t)
{
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        struct type *b = f->type;
        while (b && b->kind == TK_TYPEDEF && b->target)
            b = b->target;
        if (!f->visible || f->synth || f->kind != FK_FIELD || !b || !type_is_simple(b) ||
            (b->kind == TK_PRIM &&
             (!strcmp(b->ctype, "float") || !strcmp(b->ctype, "double") || !strcmp(b->ctype, "char"))))
            continue;
        int sign = b->kind == TK_PRIM && !strncmp(b->ctype, "int", 3);
        out_printf(o, "        cf_traced(cf, \"%s\", %sa_%s, %d);\n", f->name,
                   sign ? "(uint64_t)(int64_t)" : "(uint64_t)", f->cname, sign);
    }
}

static void emit_case(struct emitter *e, struct out *o, struct out *tab, struct type *t, int aux)
{
    char *fn = tfunc(e, t, aux ? "aux" : NULL);
    char *alt =
        aux ? tfunc2(e, t, "aux", t->reply ? "unchecked" : "checked") : tfunc(e, t, t->reply ? "unchecked" : "checked");
    out_printf(o, "\nstatic void %s_cf(struct cf *cf, int v)\n{\n", fn);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->nfields; i++) {
            struct field *f = t->fields[i];
            if (!f->visible || f->kind == FK_FD)
                continue;
            int scalar = f->kind == FK_FIELD && type_fixed(f->type);
            if (pass == 0 && scalar)
                scalar_arg(e, o, t, f);
            else if (pass == 1 && f->kind == FK_LIST)
                list_arg(e, o, f);
            else if (pass == 1 && f->kind == FK_SWITCH && aux) {
                char *tn = tname(e, f->sw);
                out_printf(o, "    %s a_%s_aux;\n    cf_fill(cf, &a_%s_aux, sizeof(a_%s_aux));\n", tn, f->cname,
                           f->cname, f->cname);
                free(tn);
            } else if (pass == 1 && f->kind == FK_SWITCH)
                out_printf(o, "    const void *a_%s = cf_buf(cf, 65536, %d);\n", f->cname, !switch_all_fixed(f->sw));
            else if (pass == 1 && f->kind == FK_FIELD && !type_fixed(f->type))
                out_printf(o, "    void *a_%s = cf_buf(cf, 4096, 1);\n", f->cname);
        }
    for (int k = 0; k < 2; k++) {
        const char *name = (k == 0) == 0 ? alt : fn;
        out_printf(o, "    if (v %% 2 == %d) {\n", k);
        out_printf(o, "        cf_begin(cf);\n        if (!cf->skip_xcb)\n    ");
        call(o, t, xasprintf("xcb%s", name + 2), "cf->xc", 1, aux);
        out_printf(o, "        cf_mid(cf);\n    ");
        call(o, t, name, "cf->wc", 0, aux);
        if (c_size(t) != wire_fixed_size(t)) {
            char *rt = tname(e, t);
            out_printf(o, "        cf_uninit(cf, %d, (int)sizeof(%s)); /* libxcb sends its struct's padding */\n",
                       wire_fixed_size(t), rt);
            free(rt);
        }
        out_printf(o, "        cf_end(cf);\n");
        traced_checks(o, t);
        out_printf(o, "    }\n");
    }
    out_printf(o, "}\n");
    out_printf(tab, "    { \"%s\", \"%s%s\", %s_cf },\n", e->m->is_ext ? e->m->ext_name : "core", t->name,
               aux ? " (aux)" : "", fn);
    free(fn), free(alt);
}

/* The cases into *out (empty on entry). */
void emit_conform(struct module *m, struct out *out)
{
    struct emitter e = {.m = m};
    struct out o = *out, tab = {0};
    out_printf(&o,
               "/* conformance cases for %s.xml, generated by xwgen-test --conform */\n#include <string.h>\n#include "
               "<unistd.h>\n"
               "#include <xcb/xcb.h>\n#include <xcb/%s.h>\n#include <xw/xwext.h>\n#include <xw/%s.h>\n#include "
               "\"base.h\"\n#include \"conform.h\"\n",
               m->header, m->header, m->header);
    out_printf(&o, "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n#pragma GCC diagnostic ignored "
                   "\"-Wunused-but-set-variable\"\n");
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->kind != TK_REQUEST)
            continue;
        emit_case(&e, &o, &tab, t, 0);
        for (int k = 0; k < t->nfields; k++)
            if (t->fields[k]->kind == FK_SWITCH && switch_all_fixed(t->fields[k]->sw)) {
                emit_case(&e, &o, &tab, t, 1);
                break;
            }
    }
    out_printf(&o, "\nconst struct cf_case cf_cases_%s[] = {\n", m->header);
    out_append(&o, &tab);
    out_printf(&o, "    { 0, 0, 0 },\n};\n");
    *out = o;
    free(tab.buf);
}
