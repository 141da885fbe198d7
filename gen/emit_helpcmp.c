/* SPDX-License-Identifier: MIT */
/* emit_helpcmp.c — test use (xwgen --decode): every _sizeof, _unpack and _serialize
 * called through libxcb and xwire on the same bytes, alone and inside the values
 * that hold them. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "names.h"
#include "size.h"
#include "testgen_int.h"

/* libxcb's twin of an xw_ name */
static char *xcb(const char *xw)
{
    return xasprintf("xcb%s", xw + 2);
}

/* "hc_" + the type's xw_ name without its prefix (replies and events by walker name) */
static char *hname(struct emitter *e, struct type *t)
{
    char *w = walker_name(e, t); /* xw__..._walk */
    char *r = xasprintf("hc%.*s", (int)strlen(w) - 8, w + 3);
    free(w);
    return r;
}

static int once(struct out *done, const char *name)
{
    char *key = xasprintf("|%s|", name);
    int seen = done->buf && strstr(done->buf, key);
    if (!seen)
        out_printf(done, "%s", key);
    free(key);
    return !seen;
}

/* Fields before any variable part: plain members of the C struct. */
static int c_member(struct type *t, struct field *f)
{
    for (int i = 0; i < t->nfields; i++) {
        struct field *g = t->fields[i];
        if (g == f)
            return g->wire == 1 && field_fixed(g);
        if (g->wire && !field_fixed(g))
            return 0;
    }
    return 0;
}

static int has_param(struct type *t, const char *name)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    for (int i = 0; i < np; i++)
        if (!strcmp(wp[i].name, name))
            return 1;
    return 0;
}

/* The member path of a case's fields in the unpacked struct of switch root: "", "types.",
 * "types.map.", ... */
static char *case_path(struct type *root, struct type *cs, int xcb_names)
{
    struct type *sw = cs->parent;
    char *outer = xstrdup("");
    if (sw != root && sw->parent && sw->parent->kind == TK_CASE) {
        char *up = case_path(root, sw->parent, xcb_names);
        for (int i = 0; i < sw->parent->nfields; i++)
            if (sw->parent->fields[i]->sw == sw) {
                struct field *h = sw->parent->fields[i];
                free(outer);
                outer = xasprintf("%s%s.", up, xcb_names ? cfield_name(h->name) : h->cname);
            }
        free(up);
    }
    char *r = cs->casename ? xasprintf("%s%s.", outer, cs->casename) : xstrdup(outer);
    free(outer);
    return r;
}

/* ---- how a sub-value's parameters are reached from where it is compared ---- */

struct where {
    struct type *t;   /* the struct, reply or switch being compared */
    const char *base; /* C expression of libxcb's view of it: "X" (a struct) or "xa" (an unpacked switch) */
};

static int owned_by_switch(struct type *sw, struct field *f)
{
    for (struct type *o = f->owner; o && (o->kind == TK_CASE || o->kind == TK_SWITCH); o = o->parent)
        if (o == sw)
            return 1;
    return 0;
}

/* C value of a field as seen from w, or NULL when it cannot be reached there. */
static char *reach(struct where *w, struct field *f, const char *name)
{
    if (f && w->t->kind == TK_SWITCH && owned_by_switch(w->t, f)) {
        char *p = case_path(w->t, f->owner, 1);
        char *r = xasprintf("%s.%s%s", w->base, p, cfield_name(f->name));
        free(p);
        return r;
    }
    if (f && w->t->kind != TK_SWITCH && f->owner == w->t)
        return c_member(w->t, f) ? xasprintf("%s->%s", w->base, cfield_name(f->name)) : NULL;
    if (!f && w->t->kind != TK_SWITCH)
        for (int i = 0; i < w->t->nfields; i++)
            if (!strcmp(w->t->fields[i]->cname, name))
                return c_member(w->t, w->t->fields[i])
                           ? xasprintf("%s->%s", w->base, cfield_name(w->t->fields[i]->name))
                           : NULL;
    return has_param(w->t, name) ? xasprintf("xw_v_%s", name) : NULL;
}

/* ", v1, v2..." for the parameters of sub, or NULL when one is out of reach. */
static char *args_for(struct where *w, struct type *sub)
{
    struct wparam *sp;
    int sn = walker_params(sub, &sp);
    struct out o = {0};
    out_printf(&o, "%s", "");
    for (int k = 0; k < sn; k++) {
        char *v = reach(w, sp[k].field, sp[k].name);
        if (!v) {
            free(o.buf);
            return NULL;
        }
        out_printf(&o, ", %s", v);
        free(v);
    }
    return o.buf;
}

static char *param_list(struct type *t, int decl)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    struct out o = {0};
    out_printf(&o, "%s", "");
    for (int i = 0; i < np; i++)
        out_printf(&o, decl ? ", %s xw_v_%s" : ", xw_v_%s", decl ? wp[i].ctype : wp[i].name, wp[i].name);
    return o.buf;
}

/* ---- the comparison functions ---- */

struct hstate {
    struct emitter *e;
    struct out *top; /* finished functions, each before its callers */
    struct hcases *hc;
};

/* Each compared function once in the list the test checks off. */
static void list_helper(struct hcases *hc, const char *kind, const char *fn)
{
    if (once(hc->named, fn))
        out_printf(hc->names, "        { %s, \"%s\" },\n", kind, fn);
}

static char *emit_hc(struct hstate *h, struct type *t, struct type *nt, const char *sz);

static void call_sizeof(struct hstate *h, struct out *o, const char *what, const char *sz, const char *buf,
                        const char *args)
{
    char *x = xcb(sz);
    list_helper(h->hc, "DB_SIZEOF", sz);
    out_printf(o, "    db_fn(r, DB_SIZEOF, \"%s\");\n    db_int(r, \"%s %s\", %s(%s%s), %s(%s%s));\n", sz, what, sz + 3,
               x, buf, args, sz, buf, args);
    free(x);
}

/* Every element of a list of variable-size structs, at p (libxcb's pointer), n of them. */
static void walk_elements(struct hstate *h, struct out *o, struct where *w, struct field *f, const char *p,
                          const char *n)
{
    char *args = args_for(w, f->type);
    if (!args) {
        out_printf(o, "    /* %s: its elements' parameters are not reachable here */\n", f->name);
        return;
    }
    char *sub = emit_hc(h, f->type, f->type, NULL);
    char *sz = tfunc(h->e, f->type, "sizeof"), *xsz = xcb(sz);
    out_printf(o,
               "    if (%s) {\n        const char *xw_e = (const char *)%s;\n"
               "        for (int64_t xw_i = 0; xw_i < (int64_t)(%s) && xw_i < 4096; xw_i++) {\n"
               "            %s(r, xw_e%s);\n            xw_e += %s(xw_e%s);\n        }\n    }\n",
               p, p, n, sub, args, xsz, args);
    free(args), free(sub), free(sz), free(xsz);
}

/* A struct, reply or event at b: its _sizeof (sz, when it has one), then the switches and
 * lists of variable-size structs inside it, reached through libxcb's accessors. */
static void hc_container(struct hstate *h, struct out *o, struct type *t, struct type *nt, const char *sz)
{
    struct emitter *e = h->e;
    char *tn = tname(e, t), *pa = param_list(t, 0);
    out_printf(o, "    const xcb%s *X = (const void *)b;\n    (void)X;\n", tn + 2);
    if (sz) {
        /* a reply's list of fds is a parameter of its _sizeof: a count that changes nothing */
        struct out a = {0};
        out_printf(&a, "%s", pa);
        for (int i = 0; t->kind == TK_REPLY && i < t->nfields; i++)
            if (t->fields[i]->kind == FK_LIST && t->fields[i]->isfd)
                out_printf(&a, ", 3");
        /* and an event's list without a length, its count (the builder's) */
        for (int i = 0; t->kind == TK_EVENT && i < t->nfields; i++)
            if (t->fields[i]->kind == FK_LIST && t->fields[i]->expr && t->fields[i]->expr->kind == EX_CALCLEN)
                out_printf(&a, ", r->calclen");
        call_sizeof(h, o, t->name, sz, "b", a.buf);
        free(a.buf);
    }
    struct where w = {t, "X"};
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->kind == FK_SWITCH) {
            char *args = args_for(&w, f->sw);
            if (!args) {
                out_printf(o, "    /* %s: the switch's parameters are not reachable here */\n", f->name);
                continue;
            }
            char *sub = emit_hc(h, f->sw, f->sw, NULL), *acc = tfunc2(e, nt, f->name, NULL), *xacc = xcb(acc);
            out_printf(o, "    %s(r, (const char *)%s(X)%s);\n", sub, xacc, args);
            free(args), free(sub), free(acc), free(xacc);
        } else if (f->kind == FK_LIST && !field_fixed(f) && f->type->needs_walk && f->type->kind == TK_STRUCT) {
            char *it = tfunc2(e, nt, f->name, "iterator"), *xit = xcb(it);
            char *p = xasprintf("%s(X).data", xit), *n = xasprintf("%s(X).rem", xit);
            walk_elements(h, o, &w, f, p, n);
            free(it), free(xit), free(p), free(n);
        }
    }
    free(tn), free(pa);
}

/* Every member of the unpacked switch sw (and of switches nested in it). */
static void cmp_members(struct emitter *e, struct out *o, struct type *root, struct type *sw)
{
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        char *xp = case_path(root, cs, 1), *wp = case_path(root, cs, 0);
        for (int i = 0; i < cs->nfields; i++) {
            struct field *f = cs->fields[i];
            if (f->kind == FK_PAD && f->pad_align && !f->pad_serialize)
                continue;
            if (f->kind == FK_SWITCH) {
                cmp_members(e, o, root, f->sw);
                continue;
            }
            const char *xn = cfield_name(f->name);
            if (field_fixed(f))
                out_printf(o, "    db_mem(r, \"%s%s\", &xa, &xa.%s%s, &wa, &wa.%s%s, sizeof(wa.%s%s));\n", wp, f->cname,
                           xp, xn, wp, f->cname, wp, f->cname);
            else
                out_printf(o,
                           "    db_int(r, \"%s%s\", xa.%s%s ? (const char *)xa.%s%s - b : -1, wa.%s%s ? (const char "
                           "*)wa.%s%s - b : -1);\n",
                           wp, f->cname, xp, xn, xp, xn, wp, f->cname, wp, f->cname);
        }
        free(xp), free(wp);
    }
}

static char *aux_val(struct ectx *x, struct field *f)
{
    struct where *w = x->data;
    char *v = reach(w, f, f->cname);
    return v ? v : xasprintf("0 /* %s out of reach */", f->cname);
}

/* The lists of variable-size structs in sw's cases (nested switches included), from the
 * pointers libxcb's unpack gave. */
static void switch_elements(struct hstate *h, struct out *o, struct where *w, struct type *sw)
{
    struct ectx x = {.e = h->e, .val = aux_val, .list = aux_val, .data = w, .param_prefix = "xw_v_"};
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        for (int i = 0; i < cs->nfields; i++) {
            struct field *f = cs->fields[i];
            if (f->kind == FK_SWITCH)
                switch_elements(h, o, w, f->sw);
            if (f->kind != FK_LIST || field_fixed(f) || !f->type->needs_walk || f->type->kind != TK_STRUCT)
                continue;
            char *p = aux_val(&x, f), *n = expr_c(&x, f->expr);
            walk_elements(h, o, w, f, p, n);
            free(p), free(n);
        }
    }
}

/* A switch at b: both unpacks (the members, pointers as offsets from b), both _sizeof,
 * both _serialize of what each unpacked (length and bytes, and xwire's against b). */
static void hc_switch(struct hstate *h, struct out *o, struct type *sw)
{
    struct emitter *e = h->e;
    char *tn = tname(e, sw), *un = tfunc(e, sw, "unpack"), *se = tfunc(e, sw, "serialize"),
         *sz = tfunc(e, sw, "sizeof");
    char *xun = xcb(un), *xse = xcb(se), *pa = param_list(sw, 0);
    out_printf(o, "    xcb%s xa;\n    %s wa;\n    memset(&xa, 0, sizeof(xa));\n    memset(&wa, 0, sizeof(wa));\n",
               tn + 2, tn);
    list_helper(h->hc, "DB_UNPACK", un);
    list_helper(h->hc, "DB_SERIALIZE", se);
    out_printf(o,
               "    db_fn(r, DB_UNPACK, \"%s\");\n    int xn = %s(b%s, &xa), wn = %s(b%s, &wa);\n"
               "    db_int(r, \"%s returns\", xn, wn);\n",
               un, xun, pa, un, pa, un + 3);
    cmp_members(e, o, sw, sw);
    call_sizeof(h, o, sw->name, sz, "b", pa);
    out_printf(
        o,
        "    db_fn(r, DB_SERIALIZE, \"%s\");\n    {\n        void *xs = NULL, *ws = NULL;\n"
        "        int xl = %s(&xs%s, &xa), wl = %s(&ws%s, &wa);\n"
        "        db_serialized(r, \"%s\", xs, xl, ws, wl, b, wn);\n        free(xs);\n        free(ws);\n    }\n",
        se, xse, pa, se, pa, se + 3);
    struct where w = {sw, "xa"};
    switch_elements(h, o, &w, sw);
    free(tn), free(un), free(se), free(sz), free(xun), free(xse), free(pa);
}

/* Writes (once) the comparison function of t and returns its name. nt names t's accessors
 * (the request, for a reply); sz is t's _sizeof where that is not t's own name. */
static char *emit_hc(struct hstate *h, struct type *t, struct type *nt, const char *sz)
{
    char *name = hname(h->e, t);
    if (!once(h->hc->done, name))
        return name;
    struct out body = {0};
    char *pd = param_list(t, 1);
    out_printf(&body, "\nstatic void %s(struct db *r, const char *b%s)\n{\n    (void)r;\n    (void)b;\n", name, pd);
    if (t->kind == TK_SWITCH) {
        hc_switch(h, &body, t);
    } else {
        char *own = t->kind == TK_STRUCT && t->needs_walk ? tfunc(h->e, t, "sizeof") : NULL;
        hc_container(h, &body, t, nt, sz ? sz : own);
        free(own);
    }
    out_printf(&body, "}\n");
    out_append(h->top, &body);
    free(body.buf), free(pd);
    return name;
}

/* ---- the cases ---- */

/* A value for a parameter: one of the cases of a <case> switch it selects, any mask for a
 * <bitcase> switch, a small count otherwise. */
static int mentions(struct expr *x, struct wparam *p)
{
    if (!x)
        return 0;
    if (x->kind == EX_FIELDREF || x->kind == EX_PARAMREF)
        return p->field ? x->field == p->field : !strcmp(cfield_name(x->name), p->name);
    return mentions(x->a, p) || mentions(x->b, p);
}

static struct type *selects(struct type *t, struct wparam *p)
{
    if (t->kind == TK_SWITCH) {
        if (mentions(t->swexpr, p))
            return t;
        for (int c = 0; c < t->ncases; c++)
            for (int i = 0; i < t->cases[c]->nfields; i++)
                if (t->cases[c]->fields[i]->kind == FK_SWITCH) {
                    struct type *s = selects(t->cases[c]->fields[i]->sw, p);
                    if (s)
                        return s;
                }
    }
    for (int i = 0; t->kind != TK_SWITCH && i < t->nfields; i++)
        if (t->fields[i]->kind == FK_SWITCH) {
            struct type *s = selects(t->fields[i]->sw, p);
            if (s)
                return s;
        }
    return NULL;
}

static void choose_params(struct out *o, struct type *t)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    for (int i = 0; i < np; i++) {
        struct type *sel = selects(t, &wp[i]);
        if (sel && sel->ncases && !sel->cases[0]->is_bitcase) {
            out_printf(o, "    static const long long xw_c_%s[] = {", wp[i].name);
            for (int c = 0; c < sel->ncases; c++)
                out_printf(o, "%s%lld", c ? ", " : "", case_const(sel->cases[c]->caseexprs[0]));
            out_printf(o, "};\n    %s xw_v_%s = (%s)xw_c_%s[db_rand(r) %% %d];\n", wp[i].ctype, wp[i].name, wp[i].ctype,
                       wp[i].name, sel->ncases);
        } else {
            out_printf(o, "    %s xw_v_%s = (%s)%s;\n", wp[i].ctype, wp[i].name, wp[i].ctype,
                       sel ? "db_rand(r)" : "db_small(r)");
        }
    }
}

/* A case for t on its own: random parameters, a valid value built for them, then t's comparison. */
static void alone_case(struct hcases *hc, struct type *t)
{
    struct dstate *d = hc->d;
    struct hstate h = {d->e, d->top, hc};
    char *hn = emit_hc(&h, t, t, NULL), *bn = decode_builder(d, t), *pa = param_list(t, 0);
    out_printf(hc->cases, "\nstatic void %s_alone(struct db *r)\n{\n", hn);
    choose_params(hc->cases, t);
    out_printf(hc->cases,
               "    memset(r->buf, 0, sizeof(r->buf));\n    long n = %s(r, (char *)r->buf, sizeof(r->buf)%s);\n"
               "    if (n < 0) { r->skipped++; return; }\n    %s(r, (const char *)r->buf%s);\n}\n",
               bn, pa, hn, pa);
    out_printf(hc->tab, "    { \"%s\", \"%s %s\", %s_alone, 0, 0 },\n", d->e->m->is_ext ? d->e->m->ext_name : "core",
               hn + 3, t->kind == TK_SWITCH ? "switch" : "struct", hn);
    free(hn), free(bn), free(pa);
}

static void alone_switches(struct hcases *hc, struct field **fs, int nf)
{
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (f->kind != FK_SWITCH)
            continue;
        for (int c = 0; c < f->sw->ncases; c++)
            alone_switches(hc, f->sw->cases[c]->fields, f->sw->cases[c]->nfields);
        alone_case(hc, f->sw);
    }
}

/* A request's _sizeof on a valid request built with random contents. */
static void request_case(struct hcases *hc, struct type *req)
{
    struct dstate *d = hc->d;
    struct emitter *e = d->e;
    char *bn = decode_builder(d, req), *sz = tfunc(e, req, "sizeof"), *xsz = xcb(sz);
    out_printf(hc->cases, "\nstatic void %s_req(struct db *r)\n{\n", sz);
    choose_params(hc->cases, req);
    char *pa = param_list(req, 0);
    out_printf(hc->cases,
               "    memset(r->buf, 0, sizeof(r->buf));\n    r->calclen = 0;\n"
               "    long n = %s(r, (char *)r->buf, sizeof(r->buf)%s);\n"
               "    if (n < 0 || n > 4 * 65535) { r->skipped++; return; }\n"
               "    uint16_t words = (uint16_t)((n + 3) / 4);\n    memcpy(r->buf + 2, &words, 2);\n",
               bn, pa);
    /* libxcb takes the length of a list that has none on the wire; xwire reads the request's length */
    struct out args = {0};
    out_printf(&args, "%s", pa);
    for (int k = 0; k < req->nfields; k++)
        if (req->fields[k]->synth && !req->fields[k]->wire)
            out_printf(&args, ", (uint32_t)r->calclen");
    list_helper(hc, "DB_SIZEOF", sz);
    out_printf(hc->cases, "    db_fn(r, DB_SIZEOF, \"%s\");\n    db_int(r, \"%s\", %s(r->buf%s), %s(r->buf%s));\n}\n",
               sz, sz + 3, xsz, args.buf, sz, args.buf);
    out_printf(hc->tab, "    { \"%s\", \"%s request\", %s_req, 0, 0 },\n", e->m->is_ext ? e->m->ext_name : "core",
               req->name, sz);
    free(bn), free(sz), free(xsz), free(pa), free(args.buf);
}

void helper_cases(struct hcases *hc, struct type *t)
{
    switch (t->kind) {
    case TK_STRUCT:
        alone_switches(hc, t->fields, t->nfields);
        if (t->needs_walk)
            alone_case(hc, t);
        break;
    case TK_REQUEST:
        alone_switches(hc, t->fields, t->nfields);
        if (t->reply)
            alone_switches(hc, t->reply->fields, t->reply->nfields);
        if (t->needs_walk)
            request_case(hc, t);
        break;
    case TK_EVENT:
        alone_switches(hc, t->fields, t->nfields);
        break;
    default:
        break;
    }
}

char *helper_reply(struct hcases *hc, struct type *req)
{
    struct hstate h = {hc->d->e, hc->d->top, hc};
    char *sz = req->reply->needs_walk && !req->needs_walk ? tfunc(h.e, req, "sizeof") : NULL;
    char *r = emit_hc(&h, req->reply, req, sz);
    free(sz);
    return r;
}

char *helper_event(struct hcases *hc, struct type *ev)
{
    struct hstate h = {hc->d->e, hc->d->top, hc};
    char *sz = ev->needs_walk ? tfunc(h.e, ev, "sizeof") : NULL;
    char *r = emit_hc(&h, ev, ev, sz);
    free(sz);
    return r;
}
