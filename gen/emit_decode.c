/* SPDX-License-Identifier: MIT */
/* emit_decode.c — test use: for every reply and event, a case that builds a valid random one and calls
 * every accessor through libxcb and xwire on the same bytes (xwgen-test --decode). */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "names.h"
#include "size.h"
#include "testgen.h"
#include "testgen_int.h"

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
                out_printf(o, "    db_mem(r, \"%s\", X, xcb%s(X), W, %s(W), (size_t)%s(W) * sizeof(%s));\n", fn + 3,
                           fn + 2, fn, ln, wt);
                free(fn), free(wt);
            }
            if (type_is_simple(f->type)) {
                char *en = tfunc2(e, nt, f->name, "end");
                out_printf(o,
                           "    { xcb_generic_iterator_t a = xcb%s(X); xw_generic_iterator_t b = %s(W);\n"
                           "      db_int(r, \"%s index\", a.index, b.index); db_int(r, \"%s rem\", a.rem, b.rem); }\n",
                           en + 2, en, en + 3, en + 3);
                free(en);
            } else {
                char *in = tfunc2(e, nt, f->name, "iterator"), *it = tfunc(e, f->type, "iterator_t"),
                     *nx = tfunc(e, f->type, "next");
                out_printf(o,
                           "    { xcb%s a = xcb%s(X); %s b = %s(W);\n      db_int(r, \"%s rem\", a.rem, b.rem);\n"
                           "      db_int(r, \"%s index\", a.index, b.index);\n"
                           "      for (int k = 0; k < 4096 && a.rem > 0 && b.rem > 0; k++) {\n"
                           "          db_int(r, \"%s element offset\", (int)((char *)a.data - (char *)X), (int)((char "
                           "*)b.data - (char *)W));\n"
                           "          xcb%s(&a); %s(&b);\n      } }\n",
                           it + 2, in + 2, it, in, in + 3, in + 3, in + 3, nx + 2, nx);
                free(in), free(it), free(nx);
            }
            free(ln);
        } else if (f->kind != FK_LIST && (after_var || !field_fixed(f))) {
            char *fn = tfunc2(e, nt, f->name, NULL);
            if (f->kind == FK_SWITCH || !type_is_simple(f->type))
                out_printf(o,
                           "    db_int(r, \"%s offset\", (int)((const char *)xcb%s(X) - (const char *)X), (int)((const "
                           "char *)%s(W) - (const char *)W));\n",
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
    char *bn = decode_builder(d, rp), *rt = tname(e, rp), *fn = tfunc(e, req, NULL), *hn = helper_reply(hc, req);
    /* _check also takes replies captured from a real server (r->buf, r->need) */
    out_printf(cases, "\nstatic void %s_check(struct db *r)\n{\n    db_reply(r, r->need);\n", fn);
    if (rp->needs_walk) {
        char *w = walker_name(e, rp);
        /* a captured reply's last bytes may be padding, which a short copy can lack */
        out_printf(cases,
                   "    if (!r->captured)\n        db_truncated(r, %s((const char *)r->buf, r->need - 1, -1) < 0);\n",
                   w);
        out_printf(cases, "    db_truncated(r, %s((const char *)r->buf, r->len, -1) >= 0);\n", w);
        free(w);
    }
    out_printf(cases,
               "    const xcb%s *X = r->x;\n    const %s *W = r->w;\n    if (!X || !W) { db_missing(r); return; }\n"
               "    db_mem(r, \"fixed part\", X, X, W, W, sizeof(*W));\n",
               rt + 2, rt);
    if (rp->needs_walk || rp->has_fds)
        compare_accessors(e, cases, rp, req);
    out_printf(cases, "    %s(r, (const char *)X);\n}\n", hn);
    out_printf(cases,
               "\nstatic void %s_dc(struct db *r)\n{\n    long n = %s(r, (char *)r->buf, sizeof(r->buf));\n"
               "    if (n < 0) { r->skipped++; return; }\n    r->need = (size_t)n;\n    %s_check(r);\n}\n",
               fn, bn, fn);
    out_printf(hc->tab, "    { \"%s\", \"%s reply\", %s_dc, 0, %s_check },\n", e->m->is_ext ? e->m->ext_name : "core",
               req->name, fn, fn);
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
        out_printf(hc->cases, "    db_fn(r, DB_SIZEOF, \"%s\");\n    db_int(r, \"%s\", xcb%s(X), %s(X));\n", sz, sz + 3,
                   sz + 2, sz);
        free(sz);
    }
}

static void emit_event_case(struct hcases *hc, struct type *ev)
{
    struct dstate *d = hc->d;
    struct emitter *e = d->e;
    struct out *cases = hc->cases;
    char *bn = decode_builder(d, ev), *et = tname(e, ev), *fn = tfunc2(e, ev, "event", NULL),
         *hn = helper_event(hc, ev);
    out_printf(cases,
               "\nstatic void %s_dc(struct db *r)\n{\n    long n = %s(r, (char *)r->buf, sizeof(r->buf));\n"
               "    if (n < 0) { r->skipped++; return; }\n    db_event(r, (size_t)n, %d, %d, %s);\n",
               fn, bn, ev->number, ev->xge, e->m->is_ext ? "1" : "0");
    out_printf(cases,
               "    const xcb%s *X = r->x;\n    const %s *W = r->w;\n    if (!X || !W) { db_missing(r); return; }\n"
               "    db_mem(r, \"fixed part\", X, X, W, W, sizeof(*W));\n",
               et + 2, et);
    if (ev->needs_walk)
        compare_accessors(e, cases, ev, ev);
    out_printf(cases, "    %s(r, (const char *)X);\n", hn);
    copy_sizeofs(hc, ev);
    out_printf(cases, "}\n");
    out_printf(hc->tab, "    { \"%s\", \"%s event\", %s_dc, %d, 0 },\n", e->m->is_ext ? e->m->ext_name : "core",
               ev->name, fn, ev->xge);
    free(bn), free(et), free(fn), free(hn);
}

/* The cases into *out (empty on entry). */
void emit_decode(struct module *m, struct out *out)
{
    struct emitter e = {.m = m};
    struct out builders = {0}, done = {0}, cases = {0}, tab = {0}, o = *out, hdone = {0}, names = {0}, named = {0};
    struct dstate d = {&e, &builders, &done, &builders};
    struct hcases hc = {&d, &cases, &tab, &hdone, &names, &named};
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->kind == TK_REQUEST && t->reply)
            emit_reply_case(&hc, t);
        else if (t->kind == TK_EVENT && !t->copy_of)
            emit_event_case(&hc, t);
        helper_cases(&hc, t);
    }
    out_printf(
        &o,
        "/* decode cases for %s.xml, generated by xwgen-test --decode */\n#include <stdlib.h>\n#include <string.h>\n"
        "#include <xcb/xcb.h>\n#include <xcb/xcbext.h>\n#include <xcb/%s.h>\n#include <xw/xwext.h>\n#include "
        "<xw/%s.h>\n#include <xw/%s_priv.h>\n#include \"base.h\"\n#include \"decode.h\"\n",
        m->header, m->header, m->header, m->header);
    out_printf(&o, "#pragma GCC diagnostic ignored \"-Wunused-function\"\n");
    out_append(&o, &builders);
    out_append(&o, &cases);
    out_printf(&o, "\nstatic const struct db_helper helpers[] = {\n");
    out_append(&o, &names);
    out_printf(&o, "        { 0, 0 },\n};\n");
    char *id = m->is_ext ? cname_join(m, (char *[]){"xw", m->ext_name, "id"}, 3, NULL) : NULL;
    out_printf(&o, "\nconst struct db_set db_set_%s = {\n    \"%s\", %s%s, %s%s, helpers,\n    {\n", m->header,
               m->header, id ? "&xcb" : "", id ? id + 2 : "0", id ? "&" : "", id ? id : "0");
    out_append(&o, &tab);
    out_printf(&o, "        { 0, 0, 0, 0, 0 },\n    },\n};\n");
    *out = o;
    free(id);
}
