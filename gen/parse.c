/* SPDX-License-Identifier: MIT */
/* parse.c — stage 1, second half: the node tree of one description into the plain model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "parse.h"
#include "xml.h"

static const char *need_attr(const struct xnode *n, const char *name)
{
    const char *v = xattr(n, name);
    if (!v)
        fail(n->loc, "<%s> needs attribute '%s'", n->tag, name);
    return v;
}

static long long parse_number(const struct xnode *n)
{
    char *end;
    const char *s = n->text ? n->text : "";
    long long v = strtoll(s, &end, 0);
    if (!*s || *end)
        fail(n->loc, "<%s>: '%s' is not a number", n->tag, s);
    return v;
}

static int is_expr_tag(const char *t)
{
    static const char *const tags[] = {"op",      "unop",  "fieldref", "paramref",        "value", "bit",
                                       "enumref", "sumof", "popcount", "listelement-ref", NULL};
    for (int i = 0; tags[i]; i++)
        if (!strcmp(t, tags[i]))
            return 1;
    return 0;
}

static struct expr *parse_expr(struct module *m, const struct xnode *n);

static struct expr *expr_kid(struct module *m, const struct xnode *n, int i)
{
    if (i >= n->nkids || !is_expr_tag(n->kids[i]->tag))
        fail(n->loc, "<%s> needs an expression as child %d", n->tag, i + 1);
    return parse_expr(m, n->kids[i]);
}

static void set_op(struct expr *e, const struct xnode *n)
{
    const char *op = need_attr(n, "op");
    if (strlen(op) > 2)
        fail(n->loc, "unknown operator '%s'", op);
    strcpy(e->op, op);
}

static struct expr *parse_expr(struct module *m, const struct xnode *n)
{
    struct expr *e = xcalloc(1, sizeof(*e));
    e->loc = n->loc;
    const char *t = n->tag;
    if (!strcmp(t, "value")) {
        e->kind = EX_NUM, e->num = parse_number(n);
    } else if (!strcmp(t, "bit")) {
        long long b = parse_number(n);
        if (b < 0 || b > 31)
            fail(n->loc, "bit %lld out of range", b);
        e->kind = EX_NUM, e->num = 1LL << b;
    } else if (!strcmp(t, "fieldref")) {
        e->kind = EX_FIELDREF, e->name = xstrdup(n->text);
        m->counts.fieldref++;
    } else if (!strcmp(t, "paramref")) {
        e->kind = EX_PARAMREF, e->name = xstrdup(n->text), e->ref = xstrdup(need_attr(n, "type"));
        m->counts.paramref++;
    } else if (!strcmp(t, "enumref")) {
        e->kind = EX_ENUMREF, e->name = xstrdup(n->text), e->ref = xstrdup(need_attr(n, "ref"));
        m->counts.enumref++;
    } else if (!strcmp(t, "op")) {
        e->kind = EX_OP, set_op(e, n), e->a = expr_kid(m, n, 0), e->b = expr_kid(m, n, 1);
        m->counts.op++;
    } else if (!strcmp(t, "unop")) {
        e->kind = EX_UNOP, set_op(e, n), e->a = expr_kid(m, n, 0);
        m->counts.unop++;
    } else if (!strcmp(t, "popcount")) {
        e->kind = EX_POPCOUNT, e->a = expr_kid(m, n, 0);
        m->counts.popcount++;
    } else if (!strcmp(t, "sumof")) {
        e->kind = EX_SUMOF, e->name = xstrdup(need_attr(n, "ref"));
        if (n->nkids)
            e->a = expr_kid(m, n, 0);
        m->counts.sumof++;
    } else if (!strcmp(t, "listelement-ref")) {
        e->kind = EX_LISTELEM;
        m->counts.listelement_ref++;
    } else {
        fail(n->loc, "unknown expression <%s>", t);
    }
    return e;
}

/* The examples were written for roff, where a doubled backslash prints one: their
 * printf("...\\n") stands for C's "\n". Stored as the C they stand for. */
static char *example_text(const char *s)
{
    char *r = xstrdup(s), *w = r;
    for (const char *p = s; *p; p++) {
        if (p[0] == '\\' && p[1] == '\\')
            p++;
        *w++ = *p;
    }
    *w = 0;
    return r;
}

static struct doc *parse_doc(const struct xnode *n)
{
    struct doc *d = xcalloc(1, sizeof(*d));
    for (int i = 0; i < n->nkids; i++) {
        struct xnode *k = n->kids[i];
        if (!strcmp(k->tag, "brief"))
            d->brief = xstrdup(k->text ? k->text : "");
        else if (!strcmp(k->tag, "description"))
            d->description = xstrdup(k->text ? k->text : "");
        else if (!strcmp(k->tag, "field") && xattr(k, "name")) {
            int m = d->nfields;
            PUSH(d->fnames, m, xstrdup(xattr(k, "name")));
            m = d->nfields;
            PUSH(d->ftexts, d->nfields, xstrdup(k->text ? k->text : ""));
        } else if (!strcmp(k->tag, "error") && xattr(k, "type")) {
            int m = d->nerrors;
            PUSH(d->etypes, m, xstrdup(xattr(k, "type")));
            PUSH(d->etexts, d->nerrors, xstrdup(k->text ? k->text : ""));
        } else if (!strcmp(k->tag, "see") && xattr(k, "name")) {
            int m = d->nsees;
            PUSH(d->seetypes, m, xstrdup(xattr(k, "type") ? xattr(k, "type") : ""));
            m = d->nsees;
            PUSH(d->seelocs, m, k->loc);
            PUSH(d->seenames, d->nsees, xstrdup(xattr(k, "name")));
        } else if (!strcmp(k->tag, "example")) {
            d->example = example_text(k->text ? k->text : "");
        }
    }
    return d;
}

static struct type *new_type(struct module *m, enum type_kind k, const struct xnode *n, const char *name)
{
    struct type *t = xcalloc(1, sizeof(*t));
    t->kind = k;
    t->loc = n->loc;
    t->mod = m;
    t->name = name ? xstrdup(name) : NULL;
    t->node = (struct xnode *)n;
    t->size = -1;
    return t;
}

static struct field *new_field(enum field_kind k, const struct xnode *n, const char *name, const char *tyname)
{
    struct field *f = xcalloc(1, sizeof(*f));
    f->kind = k;
    f->loc = n->loc;
    f->name = xstrdup(name);
    f->cname = xstrdup(cfield_name(name));
    f->cxxname = cxx_field_name(f->cname);
    f->tyname = tyname ? xstrdup(tyname) : NULL;
    f->visible = 1;
    f->wire = 1;
    f->nmemb = 1;
    return f;
}

static void add_field(struct type *t, struct field *f)
{
    f->owner = t;
    PUSH(t->fields, t->nfields, f);
}

static void parse_fields(struct module *m, struct type *t, const struct xnode *n, int first, int *pads);

static struct type *parse_switch(struct module *m, struct type *parent, const struct xnode *n, int *pads)
{
    struct type *sw = new_type(m, TK_SWITCH, n, need_attr(n, "name"));
    sw->parent = parent;
    if (n->nkids < 1 || !is_expr_tag(n->kids[0]->tag))
        fail(n->loc, "<switch> needs an expression first");
    sw->swexpr = parse_expr(m, n->kids[0]);
    m->counts.switch_++;
    for (int i = 1; i < n->nkids; i++) {
        struct xnode *k = n->kids[i];
        int bit = !strcmp(k->tag, "bitcase");
        if (!bit && strcmp(k->tag, "case")) {
            if (!strcmp(k->tag, "required_start_align")) {
                /* where the switch starts relative to a 4-byte boundary: its pads count from there */
                const char *al = xattr(k, "align"), *of = xattr(k, "offset");
                if (al && of && atoi(al) > 0)
                    sw->start_offset = atoi(of) % atoi(al);
                m->counts.required_start_align++;
                continue;
            }
            fail(k->loc, "unexpected <%s> in <switch>", k->tag);
        }
        bit ? m->counts.bitcase++ : m->counts.case_++;
        struct type *c = new_type(m, TK_CASE, k, xattr(k, "name"));
        c->is_bitcase = bit;
        c->parent = sw;
        c->casename = xattr(k, "name") ? xstrdup(xattr(k, "name")) : NULL;
        int j = 0;
        for (; j < k->nkids && is_expr_tag(k->kids[j]->tag); j++)
            PUSH(c->caseexprs, c->ncaseexprs, parse_expr(m, k->kids[j]));
        if (!c->ncaseexprs)
            fail(k->loc, "<%s> needs an expression", k->tag);
        parse_fields(m, c, k, j, pads);
        PUSH(sw->cases, sw->ncases, c);
    }
    return sw;
}

static void parse_field_node(struct module *m, struct type *t, const struct xnode *k, int *pads)
{
    const char *tag = k->tag;
    struct field *f;
    if (!strcmp(tag, "field")) {
        f = new_field(FK_FIELD, k, need_attr(k, "name"), need_attr(k, "type"));
    } else if (!strcmp(tag, "pad")) {
        char nm[32];
        snprintf(nm, sizeof(nm), "pad%d", (*pads)++);
        f = new_field(FK_PAD, k, nm, "CARD8");
        f->visible = 0;
        const char *b = xattr(k, "bytes"), *a = xattr(k, "align"), *s = xattr(k, "serialize");
        if (!b == !a)
            fail(k->loc, "<pad> needs exactly one of 'bytes' and 'align'");
        f->pad_bytes = b ? atoi(b) : 0;
        f->pad_align = a ? atoi(a) : 0;
        f->pad_serialize = s && !strcmp(s, "true");
        if ((b && f->pad_bytes <= 0) || (a && (f->pad_align <= 0 || (f->pad_align & (f->pad_align - 1)))))
            fail(k->loc, "<pad> has a bad size");
        m->counts.pad++;
    } else if (!strcmp(tag, "list")) {
        f = new_field(FK_LIST, k, need_attr(k, "name"), need_attr(k, "type"));
        f->isfd = !strcmp(f->tyname, "fd");
        f->wire = !f->isfd; /* fds travel beside the bytes */
        if (k->nkids)
            f->expr = expr_kid(m, k, 0);
        m->counts.list++;
    } else if (!strcmp(tag, "exprfield")) {
        f = new_field(FK_EXPRFIELD, k, need_attr(k, "name"), need_attr(k, "type"));
        f->visible = 0;
        f->expr = expr_kid(m, k, 0);
        m->counts.exprfield++;
    } else if (!strcmp(tag, "fd")) {
        f = new_field(FK_FD, k, need_attr(k, "name"), NULL);
        f->wire = 0;
        f->isfd = 1;
        m->counts.fd++;
    } else if (!strcmp(tag, "switch")) {
        f = new_field(FK_SWITCH, k, need_attr(k, "name"), NULL);
        f->sw = parse_switch(m, t, k, pads);
    } else if (!strcmp(tag, "required_start_align")) {
        m->counts.required_start_align++;
        return;
    } else if (!strcmp(tag, "doc")) {
        t->doc = parse_doc(k);
        return;
    } else if (!strcmp(tag, "length")) {
        t->length_expr = expr_kid(m, k, 0);
        return;
    } else if (!strcmp(tag, "reply")) {
        return; /* handled by the request */
    } else {
        fail(k->loc, "unexpected <%s> in <%s>", tag, t->node ? t->node->tag : "?");
    }
    f->enum_ref = xattr(k, "enum") ? xstrdup(xattr(k, "enum")) : NULL;
    f->mask_ref = xattr(k, "mask") ? xstrdup(xattr(k, "mask")) : NULL;
    f->altenum = xattr(k, "altenum") ? xstrdup(xattr(k, "altenum")) : NULL;
    add_field(t, f);
}

/* Pads are numbered per top-level type, through its switches and cases, as libxcb names them. */
static void parse_fields(struct module *m, struct type *t, const struct xnode *n, int first, int *pads)
{
    int own = 0;
    if (!pads)
        pads = &own;
    for (int i = first; i < n->nkids; i++)
        parse_field_node(m, t, n->kids[i], pads);
}

/* An eventstruct's <allowed> children select events by number; its C type is a union
 * of them and a raw event. */
static void parse_allowed(struct type *t, const struct xnode *n)
{
    for (int k = 0; k < n->nkids; k++) {
        struct xnode *a = n->kids[k];
        if (strcmp(a->tag, "allowed"))
            continue;
        const char *xge = xattr(a, "xge");
        if (xge && !strcmp(xge, "true"))
            fail(a->loc, "eventstruct with generic events is not supported");
        const char *lo = xattr(a, "opcode-min"), *hi = xattr(a, "opcode-max");
        int r[2] = {atoi(lo ? lo : "0"), atoi(hi ? hi : "0")};
        t->allowed = xrealloc(t->allowed, sizeof(*t->allowed) * (size_t)(t->nallowed + 1));
        t->allowed[t->nallowed][0] = r[0];
        t->allowed[t->nallowed++][1] = r[1];
    }
}

static struct type *parse_struct(struct module *m, const struct xnode *k)
{
    const char *tag = k->tag;
    enum type_kind kind = tag[0] == 's' ? TK_STRUCT : tag[0] == 'u' ? TK_UNION : TK_EVENTSTRUCT;
    struct type *t = new_type(m, kind, k, need_attr(k, "name"));
    if (kind == TK_EVENTSTRUCT) {
        m->counts.eventstruct++;
        parse_allowed(t, k);
        return t;
    }
    kind == TK_STRUCT ? m->counts.struct_++ : m->counts.union_++;
    parse_fields(m, t, k, 0, NULL);
    return t;
}

static struct type *parse_event(struct module *m, const struct xnode *k)
{
    int ev = k->tag[1] == 'v';
    struct type *t = new_type(m, ev ? TK_EVENT : TK_ERROR, k, need_attr(k, "name"));
    t->number = atoi(need_attr(k, "number"));
    const char *ns = xattr(k, "no-sequence-number"), *xge = xattr(k, "xge");
    t->no_seq = ns && !strcmp(ns, "true");
    t->xge = xge && !strcmp(xge, "true");
    ev ? m->counts.event++ : m->counts.error++;
    m->counts.xge_event += t->xge;
    m->counts.noseq_event += t->no_seq;
    parse_fields(m, t, k, 0, NULL);
    return t;
}

/* <eventcopy>, <errorcopy>: a number for the type ref names, resolved into copy_of. */
static struct type *parse_copy(struct module *m, const struct xnode *k)
{
    int ev = k->tag[1] == 'v';
    struct type *t = new_type(m, ev ? TK_EVENT : TK_ERROR, k, need_attr(k, "name"));
    t->number = atoi(need_attr(k, "number"));
    t->target_name = xstrdup(need_attr(k, "ref"));
    ev ? m->counts.eventcopy++ : m->counts.errorcopy++;
    return t;
}

static struct type *parse_request(struct module *m, const struct xnode *k)
{
    struct type *t = new_type(m, TK_REQUEST, k, need_attr(k, "name"));
    t->number = atoi(need_attr(k, "opcode"));
    m->counts.request++;
    parse_fields(m, t, k, 0, NULL);
    for (int i = 0; i < k->nkids; i++) {
        if (strcmp(k->kids[i]->tag, "reply"))
            continue;
        struct type *r = new_type(m, TK_REPLY, k->kids[i], t->name);
        r->request = t;
        t->reply = r;
        parse_fields(m, r, k->kids[i], 0, NULL);
        m->counts.reply++;
    }
    return t;
}

/* An enum's items, each with the value its <value> or <bit> gives ("" when none). */
static struct type *parse_enum(struct module *m, const struct xnode *k)
{
    struct type *t = new_type(m, TK_ENUM, k, need_attr(k, "name"));
    m->counts.enum_++;
    for (int i = 0; i < k->nkids; i++) {
        struct xnode *it = k->kids[i];
        if (!strcmp(it->tag, "doc")) {
            t->doc = parse_doc(it);
            continue;
        }
        if (strcmp(it->tag, "item"))
            fail(it->loc, "unexpected <%s> in <enum>", it->tag);
        struct enum_item e = {xstrdup(need_attr(it, "name")), NULL, it->loc};
        e.value = xstrdup("");
        if (it->nkids) {
            struct expr *v = expr_kid(m, it, 0);
            free(e.value);
            e.value = xasprintf("%lld", v->num);
        }
        PUSH(t->items, t->nitems, e);
    }
    return t;
}

/* One top-level element: a type, or NULL for an <import> (model_build reads those). */
static struct type *parse_top(struct module *m, const struct xnode *k)
{
    const char *tag = k->tag;
    struct type *t;
    if (!strcmp(tag, "struct") || !strcmp(tag, "union") || !strcmp(tag, "eventstruct"))
        return parse_struct(m, k);
    if (!strcmp(tag, "event") || !strcmp(tag, "error"))
        return parse_event(m, k);
    if (!strcmp(tag, "eventcopy") || !strcmp(tag, "errorcopy"))
        return parse_copy(m, k);
    if (!strcmp(tag, "request"))
        return parse_request(m, k);
    if (!strcmp(tag, "enum"))
        return parse_enum(m, k);
    if (!strcmp(tag, "xidtype")) {
        t = new_type(m, TK_XID, k, need_attr(k, "name"));
        m->counts.xidtype++;
    } else if (!strcmp(tag, "xidunion")) {
        t = new_type(m, TK_XIDUNION, k, need_attr(k, "name"));
        m->counts.xidunion++;
    } else if (!strcmp(tag, "typedef")) {
        t = new_type(m, TK_TYPEDEF, k, need_attr(k, "newname"));
        t->target_name = xstrdup(need_attr(k, "oldname"));
        m->counts.typedef_++;
    } else if (!strcmp(tag, "import")) {
        return NULL;
    } else {
        fail(k->loc, "unexpected top-level <%s>", tag);
    }
    return t;
}

void model_build(struct module *m)
{
    struct xnode *r = m->root;
    const char *h = need_attr(r, "header");
    m->loc = r->loc;
    m->header = xstrdup(h);
    m->xname = xattr(r, "extension-xname") ? xstrdup(xattr(r, "extension-xname")) : NULL;
    m->is_ext = m->xname != NULL;
    const char *en = xattr(r, "extension-name");
    m->ext_name = xstrdup(en ? en : m->is_ext ? m->xname : "XPROTO");
    m->major = xstrdup(xattr(r, "major-version") ? xattr(r, "major-version") : "0");
    m->minor = xstrdup(xattr(r, "minor-version") ? xattr(r, "minor-version") : "0");
    for (int i = 0; i < r->nkids; i++) {
        struct xnode *k = r->kids[i];
        if (!strcmp(k->tag, "import")) {
            struct import im = {xstrdup(k->text ? k->text : ""), NULL, k->loc};
            if (!*im.header)
                fail(k->loc, "<import> needs a header name");
            PUSH(m->imports, m->nimports, im);
            m->counts.import++;
            continue;
        }
        struct type *t = parse_top(m, k);
        if (t)
            PUSH(m->types, m->ntypes, t);
    }
    m->parsed = 1;
}
