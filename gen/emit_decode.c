/* emit_decode.c — test use: builders of valid random replies and events, and calls of
 * every accessor through libxcb and xwire on the same bytes (xwgen --decode). */
#include <stdlib.h>
#include <string.h>

#include "testgen.h"

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

/* The value of a <case> expression (a number or an enum item). */
long long case_const(struct expr *x)
{
    if (x->kind == EX_ENUMREF)
        for (int i = 0; i < x->reftype->nitems; i++)
            if (!strcmp(x->reftype->items[i].name, x->name))
                return atoll(x->reftype->items[i].value);
    return x->kind == EX_NUM ? x->num : 0;
}

static void emit_builder(struct dstate *d, struct type *t);

static void build_fields(struct dstate *d, struct type *t, struct field **fs, int nf, const char *ind)
{
    struct out *o = d->o;
    struct ectx x = { .e = d->e, .val = bval, .list = blist, .param_prefix = "xw_v_" };
    int prev_var = 0, seen_var = 0;
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (f->wire && !field_fixed(f) && !seen_var && t->kind != TK_SWITCH && t->kind != TK_CASE) {
            /* the variable part starts at sizeof the C struct, as libxcb reads it */
            seen_var = 1;
            /* on the wire a generic event lacks the 4 bytes of full_sequence its struct has */
            int cs = c_size(t) - (t->kind == TK_EVENT && t->xge ? 4 : 0);
            out_printf(o, "%s    if (xw_off < %d) { if (%d > cap) return -1; memset(xw_b + xw_off, 0, %d - xw_off); xw_off = %d; }\n",
                       ind, cs, cs, cs, cs);
        }
        if (!f->wire || f->wire == 2 || f->kind == FK_FD)
            continue;
        if (f->kind == FK_PAD) {
            if (f->pad_align) {
                out_printf(o, "%s    { size_t p = -xw_off & %d; if (p > cap - xw_off) return -1; memset(xw_b + xw_off, 0, p); xw_off += p; }\n",
                           ind, f->pad_align - 1);
                prev_var = 1;
            } else {
                out_printf(o, "%s    if (%d > cap - xw_off) return -1;\n%s    memset(xw_b + xw_off, 0, %d);\n%s    xw_off += %d;\n",
                           ind, f->pad_bytes, ind, f->pad_bytes, ind, f->pad_bytes);
            }
            continue;
        }
        if (field_fixed(f)) {
            int n = field_size(f);
            out_printf(o, "%s    if (%d > cap - xw_off) return -1;\n", ind, n);
            struct type *sel = selected_switch(t, f);
            if (f->referenced && f->kind == FK_FIELD && type_is_simple(f->type)) {
                char *ct = tname(d->e, f->type);
                if (sel && sel->ncases && !sel->cases[0]->is_bitcase) {
                    /* a <case> switch: a value the protocol defines, one of its cases */
                    out_printf(o, "%s    {\n%s        static const long long v[] = {", ind, ind);
                    for (int c = 0; c < sel->ncases; c++)
                        out_printf(o, "%s%lld", c ? ", " : "", case_const(sel->cases[c]->caseexprs[0]));
                    out_printf(o, "};\n%s        xw_v_%s = (%s)v[db_rand(r) %% %d];\n%s    }\n", ind, f->cname, ct, sel->ncases, ind);
                } else {
                    out_printf(o, "%s    xw_v_%s = (%s)%s;\n", ind, f->cname, ct, sel ? "db_rand(r)" : "db_small(r)");
                }
                out_printf(o, "%s    memcpy(xw_b + xw_off, &xw_v_%s, %d);\n", ind, f->cname, n);
                free(ct);
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
            continue;
        }
        if (f->kind == FK_SWITCH) {
            emit_builder(d, f->sw);
            char *bn = bname(d->e, f->sw);
            struct wparam *wp;
            int np = walker_params(f->sw, &wp);
            out_printf(o, "%s    { long s = %s(r, xw_b + xw_off, cap - xw_off", ind, bn);
            for (int k = 0; k < np; k++)
                out_printf(o, ", xw_v_%s", wp[k].name);
            out_printf(o, "); if (s < 0) return -1; xw_off += (size_t)s; }\n");
            free(bn);
            prev_var = 1;
            continue;
        }
        if (prev_var && pad_mask(f->type))
            out_printf(o, "%s    { size_t p = -xw_off & %d; if (p > cap - xw_off) return -1; memset(xw_b + xw_off, 0, p); xw_off += p; }\n",
                       ind, pad_mask(f->type));
        if (f->kind == FK_LIST) {
            char *n = f->expr->kind == EX_CALCLEN ? xstrdup("r->calclen = db_small(r)") : expr_c(&x, f->expr);
            out_printf(o, "%s    {\n%s        int64_t n = (int64_t)(%s);\n%s        if (n < 0 || n > 4096) return -1;\n", ind, ind, n,
                       ind);
            if (f->referenced)
                out_printf(o, "%s        xw_p_%s = xw_b + xw_off;\n", ind, f->cname);
            if (type_fixed(f->type) && (type_is_simple(f->type) || f->type->kind == TK_UNION || f->type->kind == TK_EVENTSTRUCT)) {
                int ms = f->type->size > 0 ? f->type->size : 1;
                out_printf(o, "%s        if ((uint64_t)n * %d > cap - xw_off) return -1;\n%s        db_fill(r, xw_b + xw_off, (size_t)n * %d);\n"
                              "%s        xw_off += (size_t)n * %d;\n",
                           ind, ms, ind, ms, ind, ms);
            } else {
                emit_builder(d, f->type);
                char *bn = bname(d->e, f->type);
                struct wparam *wp;
                int np = f->type->needs_walk ? walker_params(f->type, &wp) : 0;
                out_printf(o, "%s        for (int64_t i = 0; i < n; i++) {\n%s            long s = %s(r, xw_b + xw_off, cap - xw_off", ind,
                           ind, bn);
                for (int k = 0; k < np; k++)
                    out_printf(o, ", xw_v_%s", wp[k].name);
                out_printf(o, ");\n%s            if (s < 0) return -1;\n%s            xw_off += (size_t)s;\n%s        }\n", ind, ind, ind);
                free(bn);
            }
            out_printf(o, "%s    }\n", ind);
            free(n);
        } else {
            emit_builder(d, f->type);
            char *bn = bname(d->e, f->type);
            out_printf(o, "%s    { long s = %s(r, xw_b + xw_off, cap - xw_off); if (s < 0) return -1; xw_off += (size_t)s; }\n", ind,
                       bn);
            free(bn);
        }
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
    struct out body = { 0 }, *saved = d->o;
    d->o = &body;
    struct wparam *wp;
    int np = t->needs_walk ? walker_params(t, &wp) : 0;
    out_printf(&body, "\nstatic long %s(struct db *r, char *xw_b, size_t cap", bn);
    for (int i = 0; i < np; i++)
        out_printf(&body, ", %s xw_v_%s", wp[i].ctype, wp[i].name);
    out_printf(&body, ")\n{\n    size_t xw_off = 0;\n");
    struct out seen = { 0 };
    if (t->kind == TK_SWITCH) {
        for (int c = 0; c < t->ncases; c++)
            declare(d, &body, t->cases[c]->fields, t->cases[c]->nfields, &seen);
        struct ectx x = { .e = d->e, .val = bval, .list = blist, .param_prefix = "xw_v_" };
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
            out_printf(&body, "    {\n        %s units = (%s)((xw_off + %lld - 1) / %lld);\n        size_t end = (size_t)units * %lld;\n"
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

/* ---- comparisons of what each library's accessors return ---- */

static void compare_accessors(struct emitter *e, struct out *o, struct type *t, struct type *nt)
{
    int after_var = 0;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->kind == FK_PAD || !f->wire || f->wire == 2) {
            if (f->wire && !field_fixed(f))
                after_var = 1;
            continue;
        }
        if (f->kind == FK_LIST && !field_fixed(f)) {
            char *ln = tfunc2(e, nt, f->name, "length");
            out_printf(o, "    db_int(r, \"%s\", xcb%s(X), %s(W));\n", ln + 3, ln + 2, ln);
            if (type_fixed(f->type)) {
                char *fn = tfunc2(e, nt, f->name, NULL), *wt = wiretype(e, f->type);
                out_printf(o, "    db_mem(r, \"%s\", X, xcb%s(X), W, %s(W), (size_t)%s(W) * sizeof(%s));\n", fn + 3, fn + 2, fn, ln,
                           wt);
                free(fn), free(wt);
            }
            if (type_is_simple(f->type)) {
                char *en = tfunc2(e, nt, f->name, "end");
                out_printf(o, "    { xcb_generic_iterator_t a = xcb%s(X); xw_generic_iterator_t b = %s(W);\n"
                              "      db_int(r, \"%s index\", a.index, b.index); db_int(r, \"%s rem\", a.rem, b.rem); }\n",
                           en + 2, en, en + 3, en + 3);
                free(en);
            } else {
                char *in = tfunc2(e, nt, f->name, "iterator"), *it = tfunc(e, f->type, "iterator_t"),
                     *nx = tfunc(e, f->type, "next");
                out_printf(o, "    { xcb%s a = xcb%s(X); %s b = %s(W);\n      db_int(r, \"%s rem\", a.rem, b.rem);\n"
                              "      db_int(r, \"%s index\", a.index, b.index);\n"
                              "      for (int k = 0; k < 4096 && a.rem > 0 && b.rem > 0; k++) {\n"
                              "          db_int(r, \"%s element offset\", (int)((char *)a.data - (char *)X), (int)((char *)b.data - (char *)W));\n"
                              "          xcb%s(&a); %s(&b);\n      } }\n",
                           it + 2, in + 2, it, in, in + 3, in + 3, in + 3, nx + 2, nx);
                free(in), free(it), free(nx);
            }
            free(ln);
        } else if (f->kind != FK_LIST && (after_var || !field_fixed(f))) {
            char *fn = tfunc2(e, nt, f->name, NULL);
            if (f->kind == FK_SWITCH || !type_is_simple(f->type))
                out_printf(o, "    db_int(r, \"%s offset\", (int)((const char *)xcb%s(X) - (const char *)X), (int)((const char *)%s(W) - (const char *)W));\n",
                           fn + 3, fn + 2, fn);
            else
                out_printf(o, "    db_int(r, \"%s\", (long long)xcb%s(X), (long long)%s(W));\n", fn + 3, fn + 2, fn);
            free(fn);
        }
        if (!field_fixed(f))
            after_var = 1;
    }
}

static void emit_reply_case(struct hcases *hc, struct type *req)
{
    struct dstate *d = hc->d;
    struct emitter *e = d->e;
    struct out *cases = hc->cases;
    struct type *rp = req->reply;
    emit_builder(d, rp);
    char *bn = bname(e, rp), *rt = tname(e, rp), *fn = tfunc(e, req, NULL), *hn = helper_reply(hc, req);
    /* _check also takes replies captured from a real server (r->buf, r->need) */
    out_printf(cases, "\nstatic void %s_check(struct db *r)\n{\n    db_reply(r, r->need);\n", fn);
    if (rp->needs_walk) {
        char *w = walker_name(e, rp);
        /* a captured reply's last bytes may be padding, which a short copy can lack */
        out_printf(cases, "    if (!r->captured)\n        db_truncated(r, %s((const char *)r->buf, r->need - 1, -1) < 0);\n", w);
        out_printf(cases, "    db_truncated(r, %s((const char *)r->buf, r->len, -1) >= 0);\n", w);
        free(w);
    }
    out_printf(cases, "    const xcb%s *X = r->x;\n    const %s *W = r->w;\n    if (!X || !W) { db_missing(r); return; }\n"
                      "    db_mem(r, \"fixed part\", X, X, W, W, sizeof(*W));\n",
               rt + 2, rt);
    if (rp->needs_walk || rp->has_fds)
        compare_accessors(e, cases, rp, req);
    out_printf(cases, "    %s(r, (const char *)X);\n}\n", hn);
    out_printf(cases, "\nstatic void %s_dc(struct db *r)\n{\n    long n = %s(r, (char *)r->buf, sizeof(r->buf));\n"
                      "    if (n < 0) { r->skipped++; return; }\n    r->need = (size_t)n;\n    %s_check(r);\n}\n",
               fn, bn, fn);
    out_printf(hc->tab, "    { \"%s\", \"%s reply\", %s_dc, 0, %s_check },\n", e->m->is_ext ? e->m->ext_name : "core", req->name, fn,
               fn);
    free(bn), free(rt), free(fn), free(hn);
}

/* libxcb's and xwire's _sizeof of an event copy of ev, on ev's bytes */
static void copy_sizeofs(struct hcases *hc, struct type *ev)
{
    struct emitter *e = hc->d->e;
    for (int i = 0; ev->needs_walk && i < e->m->ntypes; i++) {
        struct type *c = e->m->types[i];
        if (c->kind != TK_EVENT || c->copy_of != ev || c == ev)
            continue;
        char *sz = tfunc(e, c, "sizeof");
        out_printf(hc->names, "        { DB_SIZEOF, \"%s\" },\n", sz);
        out_printf(hc->cases, "    db_fn(r, DB_SIZEOF, \"%s\");\n    db_int(r, \"%s\", xcb%s(X), %s(X));\n", sz, sz + 3, sz + 2, sz);
        free(sz);
    }
}

static void emit_event_case(struct hcases *hc, struct type *ev)
{
    struct dstate *d = hc->d;
    struct emitter *e = d->e;
    struct out *cases = hc->cases;
    emit_builder(d, ev);
    char *bn = bname(e, ev), *et = tname(e, ev), *fn = tfunc2(e, ev, "event", NULL), *hn = helper_event(hc, ev);
    out_printf(cases, "\nstatic void %s_dc(struct db *r)\n{\n    long n = %s(r, (char *)r->buf, sizeof(r->buf));\n"
                      "    if (n < 0) { r->skipped++; return; }\n    db_event(r, (size_t)n, %d, %d, %s);\n",
               fn, bn, ev->number, ev->xge, e->m->is_ext ? "1" : "0");
    out_printf(cases, "    const xcb%s *X = r->x;\n    const %s *W = r->w;\n    if (!X || !W) { db_missing(r); return; }\n"
                      "    db_mem(r, \"fixed part\", X, X, W, W, sizeof(*W));\n",
               et + 2, et);
    if (ev->needs_walk)
        compare_accessors(e, cases, ev, ev);
    out_printf(cases, "    %s(r, (const char *)X);\n", hn);
    copy_sizeofs(hc, ev);
    out_printf(cases, "}\n");
    out_printf(hc->tab, "    { \"%s\", \"%s event\", %s_dc, %d, 0 },\n", e->m->is_ext ? e->m->ext_name : "core", ev->name, fn,
               ev->xge);
    free(bn), free(et), free(fn), free(hn);
}

char *decode_builder(struct dstate *d, struct type *t)
{
    emit_builder(d, t);
    return bname(d->e, t);
}

/* The cases into *out (empty on entry). */
void emit_decode(struct module *m, struct out *out)
{
    struct emitter e = { .m = m };
    struct out builders = { 0 }, done = { 0 }, cases = { 0 }, tab = { 0 }, o = *out, hdone = { 0 }, names = { 0 }, named = { 0 };
    struct dstate d = { &e, &builders, &done, &builders };
    struct hcases hc = { &d, &cases, &tab, &hdone, &names, &named };
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->kind == TK_REQUEST && t->reply)
            emit_reply_case(&hc, t);
        else if (t->kind == TK_EVENT && !t->copy_of)
            emit_event_case(&hc, t);
        helper_cases(&hc, t);
    }
    out_printf(&o, "/* decode cases for %s.xml, generated by xwgen-test --decode */\n#include <stdlib.h>\n#include <string.h>\n"
                   "#include <xcb/xcb.h>\n#include <xcb/xcbext.h>\n#include <xcb/%s.h>\n#include <xw/xwext.h>\n#include <xw/%s.h>\n#include <xw/%s_priv.h>\n#include \"xwint.h\"\n#include \"decode.h\"\n",
               m->header, m->header, m->header, m->header);
    out_printf(&o, "#pragma GCC diagnostic ignored \"-Wunused-function\"\n");
    out_append(&o, &builders);
    out_append(&o, &cases);
    out_printf(&o, "\nstatic const struct db_helper helpers[] = {\n");
    out_append(&o, &names);
    out_printf(&o, "        { 0, 0 },\n};\n");
    char *id = m->is_ext ? cname_join(m, (char *[]){ "xw", m->ext_name, "id" }, 3, NULL) : NULL;
    out_printf(&o, "\nconst struct db_set db_set_%s = {\n    \"%s\", %s%s, %s%s, helpers,\n    {\n", m->header, m->header, id ? "&xcb" : "",
               id ? id + 2 : "0", id ? "&" : "", id ? id : "0");
    out_append(&o, &tab);
    out_printf(&o, "        { 0, 0, 0, 0, 0 },\n    },\n};\n");
    *out = o;
    free(id);
}
