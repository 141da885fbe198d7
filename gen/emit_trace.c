/* SPDX-License-Identifier: MIT */
/* emit_trace.c — the protocol tracer's decoders: one function per type that prints every field of a
 * request, reply, event or error by its XML name from the bytes on the wire, bounded like a walker. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "emit_int.h"
#include "size.h"

/* What one run over a description collects besides the functions themselves. */
struct tstate {
    struct emitter *e;
    struct out protos; /* every decoder this file calls, its own and imported ones */
    struct out enums;  /* name tables of the enums fields refer to */
    struct out body;
    struct type **declared;
    int ndeclared;
    struct type **entab; /* enum types with a table, by index */
    int nentab;
    int top_error; /* the type being emitted is an error: its generic fields are the runtime's */
};

struct dstate {
    struct tstate *ts;
    struct out *o;
    struct type *t;
    const char *base;
    int prev_var;
};

static char *dname(struct type *t)
{
    return ifunc(t,
                 t->kind == TK_REPLY     ? "reply"
                 : t->kind == TK_EVENT   ? "event"
                 : t->kind == TK_ERROR   ? "error"
                 : t->kind == TK_REQUEST ? "request"
                                         : NULL,
                 "trace");
}

static struct type *base_type(struct type *t)
{
    while (t && t->kind == TK_TYPEDEF && t->target)
        t = t->target;
    return t;
}

static int is_atom(struct type *t)
{
    for (; t; t = t->kind == TK_TYPEDEF ? t->target : NULL)
        if (t->name && !strcmp(t->name, "ATOM"))
            return 1;
    return 0;
}

/* The runtime's scalar kind for a simple type, or NULL when it is not one. */
static const char *scalar_kind(struct type *t)
{
    static const char *const map[][2] = {
        {"uint8_t", "U8"}, {"uint16_t", "U16"}, {"uint32_t", "U32"}, {"uint64_t", "U64"},
        {"int8_t", "I8"},  {"int16_t", "I16"},  {"int32_t", "I32"},  {"int64_t", "I64"},
        {"char", "CHAR"},  {"float", "F32"},    {"double", "F64"},   {"void", "U8"},
    };
    if (is_atom(t))
        return "ATOM";
    struct type *b = base_type(t);
    if (!b)
        return NULL;
    if (b->kind == TK_XID || b->kind == TK_XIDUNION)
        return "XID";
    if (b->kind != TK_PRIM)
        return NULL;
    if (!strcmp(b->name, "BOOL"))
        return "BOOL";
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (!strcmp(b->ctype, map[i][0]))
            return map[i][1];
    return NULL;
}

static int elem_size(struct type *t)
{
    struct type *b = base_type(t);
    if (b->kind == TK_PRIM && !strcmp(b->ctype, "void"))
        return 1;
    return b->size;
}

/* An enum by name, in m or what it imports (as resolve finds types). */
static struct type *find_enum(struct module *m, const char *name, int depth)
{
    const char *colon = strchr(name, ':');
    if (colon)
        name = colon + 1;
    for (int i = 0; i < m->ntypes; i++)
        if (m->types[i]->kind == TK_ENUM && m->types[i]->name && !strcmp(m->types[i]->name, name))
            return m->types[i];
    for (int i = 0; depth < 16 && i < m->nimports; i++) {
        struct type *t = find_enum(m->imports[i].mod, name, depth + 1);
        if (t)
            return t;
    }
    return NULL;
}

/* "&xw_te_N" for the field's enum or mask, emitting its table once; "NULL" when none. */
static char *enum_arg(struct tstate *ts, struct field *f)
{
    const char *ref = f->mask_ref ? f->mask_ref : f->enum_ref ? f->enum_ref : f->altenum;
    struct type *en = ref ? find_enum(ts->e->m, ref, 0) : NULL;
    if (!en || !en->nitems)
        return xstrdup("NULL");
    int mask = f->mask_ref != NULL;
    int k;
    for (k = 0; k < ts->nentab; k++)
        if (ts->entab[k] == en)
            break;
    if (k == ts->nentab) {
        PUSH(ts->entab, ts->nentab, en);
        out_printf(&ts->enums, "static const struct xw_tr_item xw_ti_%d[] = {\n", k);
        long long v = -1;
        for (int i = 0; i < en->nitems; i++) {
            v = *en->items[i].value ? atoll(en->items[i].value) : v + 1;
            out_printf(&ts->enums, "    { \"%s\", %lldu },\n", en->items[i].name, v & 0xffffffffLL);
        }
        out_printf(&ts->enums, "};\n");
    }
    return xasprintf("&(const struct xw_tr_enum){ xw_ti_%d, %d, %d }", k, en->nitems, mask);
}

static char *dval(struct ectx *x, struct field *f)
{
    (void)x;
    return xasprintf("xw_v_%s", f->cname);
}

static char *dlist(struct ectx *x, struct field *f)
{
    (void)x;
    return xasprintf("xw_p_%s", f->cname);
}

static void declare(struct tstate *ts, struct type *t);

/* A call of sub's decoder on the bytes at xw_off. */
static char *sub_call(struct dstate *s, struct type *sub, const char *at)
{
    struct wparam *sp;
    int sn = walker_params(sub, &sp);
    char *d = dname(sub);
    struct out o = {0};
    declare(s->ts, sub);
    out_printf(&o, "%s(xw_l, xw_b + %s, xw_avail - %s", d, at, at);
    if (sub->kind == TK_SWITCH)
        out_printf(&o, ", %s + xw_off", s->base);
    for (int i = 0; i < sn; i++)
        out_printf(&o, ", xw_v_%s", sp[i].name);
    out_printf(&o, ")");
    free(d);
    return o.buf;
}

static void d_align(struct dstate *s, int mask, const char *ind)
{
    if (mask > 0)
        out_printf(s->o,
                   "%s    xw_off += (size_t)(-(int64_t)(%s + xw_off) & %d);\n%s    if (xw_off > xw_avail)\n%s        "
                   "return xw__trace_short(xw_l);\n",
                   ind, s->base, mask, ind, ind);
}

static int shown(struct dstate *s, struct field *f)
{
    if (f->autof)
        return 0;
    if (s->ts->top_error && s->t->kind == TK_ERROR &&
        (!strcmp(f->name, "bad_value") || !strcmp(f->name, "minor_opcode") || !strcmp(f->name, "major_opcode")))
        return 0;
    return 1;
}

static void d_scalar(struct dstate *s, struct field *f, const char *ind)
{
    int size = field_size(f);
    const char *k = scalar_kind(f->type);
    out_printf(s->o, "%s    if (xw_avail - xw_off < %d)\n%s        return xw__trace_short(xw_l);\n", ind, size, ind);
    if (f->referenced)
        out_printf(s->o, "%s    memcpy(&xw_v_%s, xw_b + xw_off, sizeof(xw_v_%s));\n", ind, f->cname, f->cname);
    if (shown(s, f) && k) {
        char *en = enum_arg(s->ts, f);
        out_printf(s->o, "%s    xw__trace_field(xw_l, \"%s\", xw_b + xw_off, XW_TR_%s, %s);\n", ind, f->name, k, en);
        free(en);
    } else if (shown(s, f)) { /* a fixed struct, union or event in place */
        char *call = sub_call(s, f->type, "xw_off");
        out_printf(s->o,
                   "%s    xw__trace_open(xw_l, \"%s\", 0, 0);\n%s    if (%s < 0)\n%s        return -1;\n%s    "
                   "xw__trace_close(xw_l, 0, 0, 0);\n",
                   ind, f->name, ind, call, ind, ind);
        free(call);
    }
    out_printf(s->o, "%s    xw_off += %d;\n", ind, size);
}

static void d_fd(struct dstate *s, struct field *f, const char *ind)
{
    if (f->kind == FK_LIST) {
        struct ectx x = {.e = s->ts->e, .val = dval, .list = dlist, .param_prefix = "xw_v_"};
        char *n = f->expr ? expr_c(&x, f->expr) : xasprintf("%d", f->nmemb);
        out_printf(s->o, "%s    xw__trace_fds(xw_l, \"%s\", (int64_t)(%s));\n", ind, f->name, n);
        free(n);
    } else {
        out_printf(s->o, "%s    xw__trace_fds(xw_l, \"%s\", -1);\n", ind, f->name);
    }
}

static void d_list(struct dstate *s, struct field *f, const char *ind)
{
    struct ectx x = {.e = s->ts->e, .val = dval, .list = dlist, .param_prefix = "xw_v_"};
    int msize = elem_size(f->type);
    const char *k = scalar_kind(f->type);
    char *n = !f->expr ? xasprintf("%d", f->nmemb)
              : f->expr->kind == EX_CALCLEN
                  ? xasprintf("((int64_t)xw__trace_len(xw_l) - (int64_t)xw_off) / %d", msize > 0 ? msize : 1)
                  : expr_c(&x, f->expr);
    out_printf(s->o,
               "%s    {\n%s        int64_t xw_n = (int64_t)(%s);\n%s        if (xw_n < 0)\n%s            return "
               "xw__trace_short(xw_l);\n",
               ind, ind, n, ind, ind);
    if (f->referenced)
        out_printf(s->o, "%s        xw_p_%s = xw_b + xw_off;\n", ind, f->cname);
    if (type_fixed(f->type) && msize > 0) {
        if (k) {
            char *en = enum_arg(s->ts, f);
            out_printf(
                s->o, "%s        xw__trace_list(xw_l, \"%s\", xw_b + xw_off, xw_avail - xw_off, xw_n, XW_TR_%s, %s);\n",
                ind, f->name, k, en);
            free(en);
        } else {
            char *at = xasprintf("xw_off + (size_t)xw_i * %d", msize);
            char *call = sub_call(s, f->type, at);
            out_printf(
                s->o,
                "%s        xw__trace_open(xw_l, \"%s\", 1, xw_n);\n%s        int64_t xw_i = 0;\n"
                "%s        for (; xw_i < xw_n && xw__trace_show(xw_l, xw_i) && (uint64_t)(xw_i + 1) * %d <= "
                "xw_avail - xw_off; xw_i++) {\n"
                "%s            xw__trace_open(xw_l, NULL, 0, 0);\n%s            if (%s < 0)\n%s                "
                "return -1;\n"
                "%s            xw__trace_close(xw_l, 0, 0, 0);\n%s        }\n%s        xw__trace_close(xw_l, 1, xw_n, "
                "xw_i);\n",
                ind, f->name, ind, ind, msize, ind, ind, call, ind, ind, ind, ind);
            free(call), free(at);
        }
        out_printf(
            s->o,
            "%s        if ((uint64_t)xw_n > (xw_avail - xw_off) / %d)\n%s            return xw__trace_short(xw_l);\n"
            "%s        xw_off += (size_t)xw_n * %d;\n",
            ind, msize, ind, ind, msize);
    } else {
        char *call = sub_call(s, f->type, "xw_off");
        out_printf(
            s->o,
            "%s        xw__trace_open(xw_l, \"%s\", 1, xw_n);\n%s        int64_t xw_i = 0;\n%s        for (; xw_i "
            "< xw_n; xw_i++) {\n"
            "%s            int xw_m = xw__trace_mute(xw_l, !xw__trace_show(xw_l, xw_i));\n"
            "%s            xw__trace_open(xw_l, NULL, 0, 0);\n%s            long xw_s = %s;\n"
            "%s            xw__trace_close(xw_l, 0, 0, 0);\n%s            xw__trace_mute(xw_l, -xw_m);\n"
            "%s            if (xw_s < 0)\n%s                return -1;\n%s            if (xw_s == 0)\n%s        "
            "        break;\n"
            "%s            xw_off += (size_t)xw_s;\n%s        }\n%s        xw__trace_close(xw_l, 1, xw_n, xw_i);\n",
            ind, f->name, ind, ind, ind, ind, ind, call, ind, ind, ind, ind, ind, ind, ind, ind, ind);
        free(call);
    }
    out_printf(s->o, "%s    }\n", ind);
    free(n);
    s->prev_var = 1;
}

static void d_sub(struct dstate *s, struct field *f, struct type *sub, const char *ind)
{
    char *call = sub_call(s, sub, "xw_off");
    out_printf(
        s->o,
        "%s    {\n%s        xw__trace_open(xw_l, \"%s\", 0, 0);\n%s        long xw_s = %s;\n%s        if (xw_s < "
        "0)\n%s            return -1;\n"
        "%s        xw__trace_close(xw_l, 0, 0, 0);\n%s        xw_off += (size_t)xw_s;\n%s    }\n",
        ind, ind, f->name, ind, call, ind, ind, ind, ind, ind);
    free(call);
    s->prev_var = 1;
}

/* Fields in wire order, as a walker in the wire's layout goes over them. */
static void d_fields(struct dstate *s, struct field **fs, int nf, const char *ind)
{
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (f->kind == FK_FD || (f->isfd && f->kind == FK_LIST)) {
            d_fd(s, f, ind);
            continue;
        }
        if (!f->wire || f->wire == 2)
            continue;
        if (!field_fixed(f) && s->prev_var && f->kind != FK_PAD && f->kind != FK_LIST)
            d_align(s, f->kind == FK_SWITCH ? 0 : pad_mask(f->type), ind);
        if (f->kind == FK_PAD) {
            if (f->pad_align) {
                d_align(s, f->pad_align - 1, ind);
                s->prev_var = 1;
            } else if (field_size(f)) {
                out_printf(
                    s->o,
                    "%s    if (xw_avail - xw_off < %d)\n%s        return xw__trace_short(xw_l);\n%s    xw_off += %d;\n",
                    ind, field_size(f), ind, ind, field_size(f));
            }
        } else if (f->kind == FK_LIST) {
            if (!field_fixed(f) && s->prev_var)
                d_align(s, pad_mask(f->type), ind);
            s->prev_var = 0;
            d_list(s, f, ind);
            if (field_fixed(f))
                s->prev_var = 0;
        } else if (f->kind == FK_SWITCH) {
            d_sub(s, f, f->sw, ind);
        } else if (!field_fixed(f)) {
            d_sub(s, f, f->type, ind);
        } else {
            d_scalar(s, f, ind);
        }
    }
}

static void locals(struct dstate *s, struct field **fs, int nf, struct field ***seen, int *nseen)
{
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (!walk_local_new(seen, nseen, f))
            continue;
        if (f->kind == FK_LIST) {
            out_printf(s->o, "    const char *xw_p_%s = NULL;\n    (void)xw_p_%s;\n", f->cname, f->cname);
        } else {
            char *ct = tname(s->ts->e, f->type);
            out_printf(s->o, "    %s xw_v_%s = 0;\n", ct, f->cname);
            free(ct);
        }
    }
}

static void d_switch(struct dstate *s, struct type *sw)
{
    struct ectx x = {.e = s->ts->e, .val = dval, .list = dlist, .param_prefix = "xw_v_"};
    char *se = expr_c(&x, sw->swexpr);
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        emit_case_test(s->o, &x, se, cs);
        if (cs->casename)
            out_printf(s->o, "        xw__trace_open(xw_l, \"%s\", 0, 0);\n", cs->casename);
        s->prev_var = 0;
        d_fields(s, cs->fields, cs->nfields, "    ");
        if (cs->casename)
            out_printf(s->o, "        xw__trace_close(xw_l, 0, 0, 0);\n");
        out_printf(s->o, "    }\n");
    }
    free(se);
}

static char *signature(struct type *t)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    char *d = dname(t);
    struct out sig = {0};
    out_printf(&sig, "long %s(struct xw_trl *xw_l, const char *xw_b, size_t xw_avail", d);
    if (t->kind == TK_SWITCH)
        out_printf(&sig, ", size_t xw_base");
    for (int i = 0; i < np; i++)
        out_printf(&sig, ", %s xw_v_%s", wp[i].ctype, wp[i].name);
    out_printf(&sig, ")");
    free(d);
    return sig.buf;
}

/* A prototype of t's decoder, once per file: it may be another description's. */
static void declare(struct tstate *ts, struct type *t)
{
    for (int i = 0; i < ts->ndeclared; i++)
        if (ts->declared[i] == t)
            return;
    PUSH(ts->declared, ts->ndeclared, t);
    char *sig = signature(t);
    out_printf(&ts->protos, "%s;\n", sig);
    free(sig);
}

static void emit_decoder(struct tstate *ts, struct type *t)
{
    struct dstate s = {ts, &ts->body, t, t->kind == TK_SWITCH ? "xw_base" : "0", 0};
    declare(ts, t);
    char *sig = signature(t);
    out_printf(s.o, "\n%s\n{\n    size_t xw_off = 0;\n", sig);
    free(sig);
    struct field **seen = NULL;
    int nseen = 0;
    ts->top_error = t->kind == TK_ERROR;
    if (t->kind == TK_SWITCH) {
        for (int c = 0; c < t->ncases; c++)
            locals(&s, t->cases[c]->fields, t->cases[c]->nfields, &seen, &nseen);
        out_printf(s.o, "    (void)xw_base;\n");
        d_switch(&s, t);
    } else if (t->kind == TK_EVENTSTRUCT) {
        /* an event carried inside a request (SendExtensionEvent): its 32 bytes */
        out_printf(s.o, "    xw__trace_list(xw_l, \"bytes\", xw_b, xw_avail, 32, XW_TR_U8, NULL);\n"
                        "    if (xw_avail < 32)\n        return xw__trace_short(xw_l);\n    xw_off = 32;\n");
    } else if (t->kind == TK_UNION) {
        /* a union shows its first member; it takes its whole size */
        if (t->nfields)
            d_fields(&s, t->fields, 1, "");
        out_printf(s.o, "    xw_off = %d;\n", t->size > 0 ? t->size : 0);
    } else {
        locals(&s, t->fields, t->nfields, &seen, &nseen);
        d_fields(&s, t->fields, t->nfields, "");
    }
    if (t->length_expr) {
        struct ectx x = {.e = ts->e, .val = dval, .list = dlist, .param_prefix = "xw_v_"};
        char *l = expr_c(&x, t->length_expr);
        out_printf(s.o,
                   "    {\n        int64_t xw_len = (int64_t)(%s);\n"
                   "        if (xw_len < (int64_t)xw_off || (uint64_t)xw_len > xw_avail)\n            return "
                   "xw__trace_short(xw_l);\n"
                   "        xw_off = (size_t)xw_len;\n    }\n",
                   l);
        free(l);
    }
    out_printf(s.o, "    (void)xw_b;\n    (void)xw_avail;\n    (void)xw_l;\n    return (long)xw_off;\n}\n");
    free(seen);
}

static int decoded(const struct type *t)
{
    switch (t->kind) {
    case TK_STRUCT:
    case TK_UNION:
    case TK_EVENTSTRUCT:
    case TK_REQUEST:
    case TK_REPLY:
        return 1;
    case TK_EVENT:
    case TK_ERROR:
        return !t->copy_of || t->copy_of == t;
    default:
        return 0;
    }
}

/* Switches sit in fields, at any depth of cases. */
static void emit_switches_of(struct tstate *ts, struct type *t, int depth)
{
    if (depth > 32)
        return;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->kind != FK_SWITCH || !f->sw)
            continue;
        emit_decoder(ts, f->sw);
        for (int c = 0; c < f->sw->ncases; c++)
            emit_switches_of(ts, f->sw->cases[c], depth + 1);
    }
}

/* Names and decoders of every number of one kind, as a table the runtime indexes. */
static int table(struct tstate *ts, struct out *o, const char *var, enum type_kind kind, int xge)
{
    struct module *m = ts->e->m;
    int max = max_number(m, kind, xge);
    if (max < 0)
        return 0;
    out_printf(o, "\nstatic const struct xw_tr_entry %s[%d] = {\n", var, max + 1);
    char *done = xcalloc((size_t)max + 1, 1);
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        /* negative numbers (GLX's Generic error) and repeats keep the first */
        if (t->kind != kind || (kind == TK_EVENT && t->xge != xge) || t->number < 0 || done[t->number])
            continue;
        done[t->number] = 1;
        declare(ts, t->copy_of ? t->copy_of : t); /* a copy's original may be another description's */
        char *d = dname(t->copy_of ? t->copy_of : t);
        out_printf(o, "    [%d] = { \"%s\", %s },\n", t->number, t->name, d);
        free(d);
    }
    free(done);
    out_printf(o, "};\n");
    return max + 1;
}

static int reply_table(struct tstate *ts, struct out *o)
{
    struct module *m = ts->e->m;
    int max = -1;
    for (int i = 0; i < m->ntypes; i++)
        if (m->types[i]->kind == TK_REQUEST && m->types[i]->reply && m->types[i]->number > max)
            max = m->types[i]->number;
    if (max < 0)
        return 0;
    out_printf(o, "\nstatic const struct xw_tr_entry xw__tr_replies[%d] = {\n", max + 1);
    char *done = xcalloc((size_t)max + 1, 1);
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->kind != TK_REQUEST || !t->reply || t->number < 0 || done[t->number])
            continue;
        done[t->number] = 1;
        char *d = dname(t->reply);
        out_printf(o, "    [%d] = { \"%s\", %s },\n", t->number, t->name, d);
        free(d);
    }
    free(done);
    out_printf(o, "};\n");
    return max + 1;
}

void emit_trace(struct module *m, struct out *out)
{
    struct emitter e = {.m = m};
    struct tstate ts = {.e = &e};
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (!decoded(t))
            continue;
        emit_decoder(&ts, t);
        emit_switches_of(&ts, t, 0);
        if (t->kind == TK_REQUEST && t->reply) { /* replies hang off their requests */
            emit_decoder(&ts, t->reply);
            emit_switches_of(&ts, t->reply, 0);
        }
    }
    struct out tabs = {0};
    int nreq = table(&ts, &tabs, "xw__tr_requests", TK_REQUEST, 0);
    int nrep = reply_table(&ts, &tabs);
    int nev = table(&ts, &tabs, "xw__tr_events", TK_EVENT, 0);
    int nerr = table(&ts, &tabs, "xw__tr_errors", TK_ERROR, 0);
    int nxge = table(&ts, &tabs, "xw__tr_xge", TK_EVENT, 1);
    out_printf(
        out,
        "/* Trace decoders for %s.xml, generated by xwgen: every field by its XML name. */\n"
        "#include <stdint.h>\n#include <string.h>\n#include <xw/xwext.h>\n#include <xw/%s.h>\n#include "
        "\"base.h\"\n#include \"trace.h\"\n\n"
        "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
        "#pragma GCC diagnostic ignored \"-Wtype-limits\"\n\n",
        m->header, m->header);
    out_append(out, &ts.protos);
    out_append(out, &ts.enums);
    out_append(out, &ts.body);
    out_append(out, &tabs);
    struct type *atoms = m->is_ext ? NULL : find_enum(m, "Atom", 0);
    if (atoms) {
        out_printf(out, "\nstatic const struct xw_tr_item xw__tr_atom_names[] = {\n");
        for (int i = 0; i < atoms->nitems; i++)
            if (*atoms->items[i].value && atoi(atoms->items[i].value) > 0)
                out_printf(out, "    { \"%s\", %su },\n", atoms->items[i].name, atoms->items[i].value);
        out_printf(out, "};\n");
    }
    out_printf(out, "\nconst struct xw_tr_desc xw__tr_%s = {\n    .xname = \"%s\",\n    .ext_name = \"%s\",\n",
               m->header, m->is_ext ? m->xname : "X11", m->is_ext ? m->ext_name : "xproto");
    out_printf(out,
               "    .requests = %s, .n_requests = %d,\n    .replies = %s, .n_replies = %d,\n"
               "    .events = %s, .n_events = %d,\n    .errors = %s, .n_errors = %d,\n    .xge = %s, .n_xge = %d,\n",
               nreq ? "xw__tr_requests" : "NULL", nreq, nrep ? "xw__tr_replies" : "NULL", nrep,
               nev ? "xw__tr_events" : "NULL", nev, nerr ? "xw__tr_errors" : "NULL", nerr, nxge ? "xw__tr_xge" : "NULL",
               nxge);
    if (atoms)
        out_printf(out, "    .atoms = xw__tr_atom_names,\n    .n_atoms = (int)(sizeof(xw__tr_atom_names) / "
                        "sizeof(xw__tr_atom_names[0])),\n");
    out_printf(out, "};\n");
    free(ts.protos.buf), free(ts.enums.buf), free(ts.body.buf), free(tabs.buf), free(ts.declared), free(ts.entab);
}
