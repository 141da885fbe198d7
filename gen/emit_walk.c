/* SPDX-License-Identifier: MIT */
/* emit_walk.c — walkers: one bounded pass over a variable-size value that serves _sizeof,
 * reply/event validation and the accessors of fields behind variable parts. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "size.h"

int walker_params(struct type *t, struct wparam **out)
{
    *out = t->wparams;
    return t->nwparams;
}

char *walker_name(struct emitter *e, struct type *t)
{
    (void)e;
    return ifunc(t, t->kind == TK_REPLY ? "reply" : t->kind == TK_EVENT ? "event" : NULL, "walk");
}

/* ---- the walker body ---- */

static char *wval(struct ectx *x, struct field *f)
{
    (void)x;
    return xasprintf("xw_v_%s", f->cname);
}

static char *wlist(struct ectx *x, struct field *f)
{
    (void)x;
    return xasprintf("xw_p_%s", f->cname);
}

struct wstate {
    struct emitter *e;
    struct out *o;
    struct type *t;
    const char *base; /* "xw_base" in switches, "0" elsewhere */
    int prev_var;
    const char *store; /* unpack mode: "_aux->" plus the case's member, NULL when only walking */
};

static char *sub_call(struct wstate *s, struct type *sub)
{
    struct wparam *sp;
    int sn = walker_params(sub, &sp);
    char *w = walker_name(s->e, sub);
    struct out o = {0};
    /* a sub-walker whose C layout differs from the wire's walks in the caller's layout mode */
    out_printf(&o, "%s(xw_b + xw_off, xw_avail - xw_off, %s", w,
               layout_gap(sub) ? "xw_stop < -1 ? xw_stop : -1" : "-1");
    if (sub->kind == TK_SWITCH)
        out_printf(&o, ", %s + xw_off", s->base);
    for (int i = 0; i < sn; i++)
        out_printf(&o, ", xw_v_%s", sp[i].name);
    out_printf(&o, ")");
    free(w);
    return o.buf;
}

static void walk_align(struct wstate *s, int mask, const char *ind)
{
    if (mask > 0)
        out_printf(s->o,
                   "%s    xw_off += (size_t)(-(int64_t)(%s + xw_off) & %d);\n%s    if (xw_off > xw_avail)\n%s        "
                   "return -1;\n",
                   ind, s->base, mask, ind, ind);
}

static void walk_fixed(struct wstate *s, struct field *f, const char *ind)
{
    int size = field_size(f);
    if (f->kind == FK_PAD && f->pad_align) {
        walk_align(s, f->pad_align - 1, ind);
        s->prev_var = 1;
        return;
    }
    if (!size)
        return;
    out_printf(s->o, "%s    if (xw_avail - xw_off < %d)\n%s        return -1;\n", ind, size, ind);
    if (s->store && f->kind != FK_PAD)
        out_printf(s->o, "%s    memcpy(&%s%s, xw_b + xw_off, %d);\n", ind, s->store, f->cname, size);
    if (f->referenced && f->kind != FK_LIST && f->kind != FK_PAD)
        out_printf(s->o, "%s    memcpy(&xw_v_%s, xw_b + xw_off, sizeof(xw_v_%s));\n", ind, f->cname, f->cname);
    if (f->referenced && f->kind == FK_LIST)
        out_printf(s->o, "%s    xw_p_%s = xw_b + xw_off;\n", ind, f->cname);
    out_printf(s->o, "%s    xw_off += %d;\n", ind, size);
}

static void walk_list(struct wstate *s, struct field *f, const char *ind)
{
    struct ectx x = {.e = s->e, .val = wval, .list = wlist, .param_prefix = "xw_v_"};
    int msize = f->type->size;
    if (s->prev_var)
        walk_align(s, pad_mask(f->type), ind);
    /* a list without a length runs to the end of the packet: requests count their
     * whole length, replies and generic events (in memory, with full_sequence) more */
    int extra = f->owner->kind == TK_REQUEST ? 0 : f->owner->kind == TK_EVENT ? 36 : 32;
    char *n = f->expr->kind == EX_CALCLEN
                  ? xasprintf("((%d + (int64_t)xw_v_length * 4 - (int64_t)xw_off) / %d)", extra, msize > 0 ? msize : 1)
                  : expr_c(&x, f->expr);
    out_printf(s->o, "%s    {\n%s        int64_t xw_n = (int64_t)(%s);\n", ind, ind, n);
    if (s->store) {
        char *mt = tname(s->e, f->type);
        out_printf(s->o, "%s        %s%s = (%s *)(xw_b + xw_off);\n", ind, s->store, f->cname, mt);
        free(mt);
    }
    if (f->referenced)
        out_printf(s->o, "%s        xw_p_%s = xw_b + xw_off;\n", ind, f->cname);
    if (type_fixed(f->type)) {
        out_printf(s->o,
                   "%s        if (xw_n < 0 || (uint64_t)xw_n > (xw_avail - xw_off) / %d)\n%s            return -1;\n",
                   ind, msize, ind);
        out_printf(s->o, "%s        xw_off += (size_t)xw_n * %d;\n", ind, msize);
    } else {
        char *call = sub_call(s, f->type);
        out_printf(s->o, "%s        if (xw_n < 0)\n%s            return -1;\n", ind, ind);
        out_printf(s->o, "%s        for (int64_t xw_i = 0; xw_i < xw_n; xw_i++) {\n", ind);
        out_printf(s->o, "%s            long xw_s = %s;\n%s            if (xw_s < 0)\n%s                return -1;\n",
                   ind, call, ind, ind);
        out_printf(s->o, "%s            if (xw_s == 0)\n%s                break; /* the rest are the same bytes */\n",
                   ind, ind);
        out_printf(s->o, "%s            xw_off += (size_t)xw_s;\n%s        }\n", ind, ind);
        free(call);
    }
    out_printf(s->o, "%s    }\n", ind);
    free(n);
    s->prev_var = 1;
}

static void walk_sub(struct wstate *s, struct type *sub, const char *ind)
{
    char *call = sub_call(s, sub);
    out_printf(s->o,
               "%s    {\n%s        long xw_s = %s;\n%s        if (xw_s < 0)\n%s            return -1;\n%s        "
               "xw_off += (size_t)xw_s;\n%s    }\n",
               ind, ind, call, ind, ind, ind, ind);
    free(call);
    s->prev_var = 1;
}

/* Bytes by which the C struct of t (a struct, reply or event) is longer than the wire
 * bytes before its first variable field: libxcb starts the variable part at sizeof()
 * of its C struct (GLX GetPixelMapusv, SYNC SystemCounter, XKB GetDeviceInfo, XPRINT
 * PRINTER), and so do xwire's sizeof and accessors; the wire does not. */
static int c_gap(struct type *t)
{
    if (t->kind == TK_SWITCH || t->kind == TK_CASE)
        return 0;
    int wire = 0;
    for (int k = 0; k < t->nfields && !(t->fields[k]->wire && !field_fixed(t->fields[k])); k++)
        if (t->fields[k]->wire && field_fixed(t->fields[k]))
            wire += t->fields[k]->wire == 2 ? 4 : field_size(t->fields[k]);
    for (int k = 0; k < t->nfields; k++)
        if (t->fields[k]->wire && !field_fixed(t->fields[k]))
            return c_size(t) > wire ? c_size(t) - wire : 0;
    return 0; /* no variable part */
}

static int gap_in(struct type *t, int depth)
{
    if (!t || depth > 32)
        return 0;
    if (c_gap(t))
        return 1;
    for (int c = 0; t->kind == TK_SWITCH && c < t->ncases; c++)
        if (gap_in(t->cases[c], depth + 1))
            return 1;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->wire && !field_fixed(f) && gap_in(f->kind == FK_SWITCH ? f->sw : f->type, depth + 1))
            return 1;
    }
    return 0;
}

int layout_gap(struct type *t)
{
    return gap_in(t, 0);
}

/* Walkers take xw_stop == -2 for the wire's layout (validation: what the protocol
 * allows) and any other value for libxcb's, which jumps to sizeof the C struct. */
static void walk_to_c_size(struct wstate *s, struct field **fs, const char *ind)
{
    int cs = c_size(s->t), gap = fs == s->t->fields ? c_gap(s->t) : 0;
    if (gap)
        out_printf(s->o,
                   "%s    if (xw_stop != -2) { /* libxcb's layout */\n%s        if (xw_avail < %d)\n"
                   "%s            return -1;\n%s        xw_off = %d; /* sizeof the C struct */\n%s    }\n",
                   ind, ind, cs, ind, ind, cs, ind);
}

static void walk_fields(struct wstate *s, struct field **fs, int nf, int stops, const char *ind)
{
    int seen_var = 0;
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (f->wire && !field_fixed(f) && !seen_var) {
            seen_var = 1;
            walk_to_c_size(s, fs, ind);
        }
        if (!f->wire || f->kind == FK_FD) {
            if (stops)
                out_printf(s->o, "%s    if (xw_stop == %d)\n%s        return (long)xw_off;\n", ind, i, ind);
            continue;
        }
        if (!field_fixed(f) && s->prev_var && f->kind != FK_PAD && f->kind != FK_LIST)
            walk_align(s, f->kind == FK_SWITCH ? 0 : pad_mask(f->type), ind);
        if (stops && !(f->kind == FK_LIST && !field_fixed(f)))
            out_printf(s->o, "%s    if (xw_stop == %d)\n%s        return (long)xw_off;\n", ind, i, ind);
        if (f->kind == FK_LIST && !field_fixed(f)) {
            if (s->prev_var)
                walk_align(s, pad_mask(f->type), ind);
            if (stops)
                out_printf(s->o, "%s    if (xw_stop == %d)\n%s        return (long)xw_off;\n", ind, i, ind);
            s->prev_var = 0; /* aligned above */
            walk_list(s, f, ind);
        } else if (f->kind == FK_SWITCH && s->store) {
            /* a nested switch is a struct member: unpack into it */
            struct wparam *sp;
            int sn = walker_params(f->sw, &sp);
            char *un = tfunc(s->e, f->sw, "unpack");
            out_printf(s->o, "%s    xw_off += (size_t)%s(xw_b + xw_off", ind, un);
            for (int k = 0; k < sn; k++)
                out_printf(s->o, ", xw_v_%s", sp[k].name);
            out_printf(s->o, ", &%s%s);\n", s->store, f->cname);
            s->prev_var = 1;
            free(un);
        } else if (f->kind == FK_SWITCH) {
            walk_sub(s, f->sw, ind);
        } else if (!field_fixed(f) && f->kind == FK_FIELD) {
            if (s->store) {
                char *mt = tname(s->e, f->type);
                out_printf(s->o, "%s    %s%s = (%s *)(xw_b + xw_off);\n", ind, s->store, f->cname, mt);
                free(mt);
            }
            walk_sub(s, f->type, ind);
        } else {
            walk_fixed(s, f, ind);
        }
    }
}

/* A local of f's kind and name is declared already (cases of one switch may repeat a name). */
static int declared(struct field **seen, int nseen, const struct field *f)
{
    for (int i = 0; i < nseen; i++)
        if ((seen[i]->kind == FK_LIST) == (f->kind == FK_LIST) && !strcmp(seen[i]->cname, f->cname))
            return 1;
    return 0;
}

int walk_local_new(struct field ***seen, int *nseen, struct field *f)
{
    if (!f->referenced || !f->wire || declared(*seen, *nseen, f))
        return 0;
    PUSH(*seen, *nseen, f);
    return 1;
}

void emit_case_test(struct out *o, struct ectx *x, const char *se, const struct type *cs)
{
    out_printf(o, "    if (");
    for (int k = 0; k < cs->ncaseexprs; k++) {
        char *ce = expr_c(x, cs->caseexprs[k]);
        out_printf(o, cs->ncaseexprs > 1 ? "%s(%s %s %s)" : "%s%s %s %s", k ? " || " : "", se,
                   cs->is_bitcase ? "&" : "==", ce);
        free(ce);
    }
    out_printf(o, ") {\n");
}

static void declare_locals(struct wstate *s, struct field **fs, int nf, struct field ***seen, int *nseen)
{
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (!walk_local_new(seen, nseen, f))
            continue;
        if (f->kind == FK_LIST) {
            out_printf(s->o, "    const char * xw_p_%s = NULL;\n", f->cname);
        } else {
            char *ct = tname(s->e, f->type);
            out_printf(s->o, "    %s xw_v_%s = 0;\n", ct, f->cname);
            free(ct);
        }
    }
}

static void walk_switch(struct wstate *s, struct type *sw)
{
    struct ectx x = {.e = s->e, .val = wval, .list = wlist, .param_prefix = "xw_v_"};
    char *se = expr_c(&x, sw->swexpr);
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        emit_case_test(s->o, &x, se, cs);
        char *prefix = NULL;
        if (s->store) {
            prefix = cs->casename ? xasprintf("_aux->%s.", cs->casename) : xstrdup("_aux->");
            s->store = prefix;
        }
        /* each case starts afresh, as the serializer and libxcb's unpack have it: whether
         * an earlier case's variable part is there is known only when running */
        s->prev_var = 0;
        walk_fields(s, cs->fields, cs->nfields, 0, "    ");
        free(prefix);
        out_printf(s->o, "    }\n");
    }
    free(se);
}

static void emit_walker_mode(struct emitter *e, struct type *t, int unpack);

void emit_walker(struct emitter *e, struct type *t)
{
    emit_walker_mode(e, t, 0);
}

/* _unpack: the walker that also stores each member of a switch into _aux (fixed
 * values copied, lists as pointers into the buffer), as libxcb's does. */
void emit_unpack(struct emitter *e, struct type *sw)
{
    emit_walker_mode(e, sw, 1);
}

static void emit_walker_mode(struct emitter *e, struct type *t, int unpack)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    char *w = unpack ? tfunc(e, t, "unpack") : walker_name(e, t);
    struct out *o = &e->c;
    struct wstate s = {e, o, t, t->kind == TK_SWITCH ? "xw_base" : "0", 0, unpack ? "_aux->" : NULL};
    struct out sig = {0};
    if (unpack) {
        char *tn = tname(e, t);
        out_printf(&sig, "int %s(const void *_buffer", w);
        for (int i = 0; i < np; i++)
            out_printf(&sig, ", %s xw_v_%s", wp[i].ctype, wp[i].name);
        out_printf(&sig, ", %s *_aux)", tn);
        out_printf(&e->hfuncs,
                   "\n/** Unpacks a serialized %s into _aux: values copied, lists pointing into _buffer.\n"
                   " * Returns its size. _buffer must hold valid (validated) data. */\nXW_EXPORT %s;\n",
                   t->name, sig.buf);
        out_printf(
            o,
            "\n%s\n{\n    const char *xw_b = (const char *)_buffer;\n    size_t xw_avail = SIZE_MAX, xw_base = %d;\n"
            "    int xw_stop = -1;\n    size_t xw_off = 0;\n",
            sig.buf, t->start_offset);
        free(tn);
    } else {
        out_printf(o,
                   "\n/* Bytes taken by a %s at xw_b, or -1 when they run past xw_avail; with xw_stop >= 0,\n"
                   " * the offset of field number xw_stop instead. */\n",
                   t->name);
        out_printf(&sig, "long %s(const char *xw_b, size_t xw_avail, int xw_stop", w);
        if (t->kind == TK_SWITCH)
            out_printf(&sig, ", size_t xw_base");
        for (int i = 0; i < np; i++)
            out_printf(&sig, ", %s xw_v_%s", wp[i].ctype, wp[i].name);
        out_printf(&sig, ")");
        /* internal to the library (hidden), declared for the other descriptions' walkers */
        out_printf(&e->hpriv, "%s;\n", sig.buf);
        out_printf(o, "%s\n{\n    size_t xw_off = 0;\n", sig.buf);
    }
    free(sig.buf);
    struct field **seen = NULL;
    int nseen = 0;
    if (t->kind == TK_SWITCH) {
        for (int c = 0; c < t->ncases; c++)
            declare_locals(&s, t->cases[c]->fields, t->cases[c]->nfields, &seen, &nseen);
        out_printf(o, "    (void)xw_stop;\n    (void)xw_base;\n");
        walk_switch(&s, t);
    } else {
        declare_locals(&s, t->fields, t->nfields, &seen, &nseen);
        walk_fields(&s, t->fields, t->nfields, 1, "");
    }
    if (t->length_expr) {
        /* <length>: the value says how long it is; it may not claim less than its
         * members take, nor more than there is */
        struct ectx x = {.e = e, .val = wval, .list = wlist, .param_prefix = "xw_v_"};
        char *l = expr_c(&x, t->length_expr);
        out_printf(o,
                   "    {\n        int64_t xw_len = (int64_t)(%s);\n"
                   "        if (xw_len < (int64_t)xw_off || (uint64_t)xw_len > xw_avail)\n            return -1;\n"
                   "        xw_off = (size_t)xw_len;\n    }\n",
                   l);
        free(l);
    }
    if (unpack)
        out_printf(o, "    (void)xw_b;\n    (void)xw_avail;\n    return (int)xw_off;\n}\n");
    else
        out_printf(o, "    (void)xw_b;\n    (void)xw_stop;\n    return (long)xw_off;\n}\n");
    free(w), free(seen);
}
