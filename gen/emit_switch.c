/* SPDX-License-Identifier: MIT */
/* emit_switch.c — libxcb's switch helpers: _serialize (the aux struct into wire bytes)
 * and the accessors of lists inside a switch, given the container R and unpacked S. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "size.h"

/* The outermost switch and the container holding it. */
static struct type *top_switch(struct type *sw)
{
    while (sw->parent && sw->parent->kind == TK_CASE)
        sw = sw->parent->parent;
    return sw;
}

/* How S reaches the members of case cs: "" or "types." or "types.map.", ... */
static char *spath(struct type *cs)
{
    struct type *sw = cs->parent;
    char *outer = xstrdup("");
    if (sw->parent && sw->parent->kind == TK_CASE) {
        char *up = spath(sw->parent);
        /* the nested switch is a member of the enclosing case */
        struct field *holder = NULL;
        for (int i = 0; i < sw->parent->nfields; i++)
            if (sw->parent->fields[i]->sw == sw)
                holder = sw->parent->fields[i];
        free(outer);
        outer = xasprintf("%s%s.", up, holder ? holder->cname : sw->name);
        free(up);
    }
    char *r = cs->casename ? xasprintf("%s%s.", outer, cs->casename) : xstrdup(outer);
    free(outer);
    return r;
}

static int case_owned(struct field *f)
{
    return f->owner && f->owner->kind == TK_CASE;
}

/* ---- serialize ---- */

/* The one switch serializer: xw__X_put() hands the selected members, in wire order,
 * to a struct xw__sink (the runtime's sink.h), which copies them (_serialize, and the _aux
 * senders of switches of fixed members, into a stack array) or points one iovec at
 * each (the other _aux senders: no copy, no allocation). */

static char *ser_val(struct ectx *x, struct field *f)
{
    struct type *sw = x->data;
    if (case_owned(f) && f->owner->parent == sw) {
        char *p = f->owner->casename ? xasprintf("%s.", f->owner->casename) : xstrdup("");
        char *r = xasprintf("_aux->%s%s", p, f->cname);
        free(p);
        return r;
    }
    return xasprintf("xw_v_%s", f->cname);
}

/* Zeros up to the next multiple of mask + 1, counted from the switch's start. */
static void put_align(struct out *o, struct type *sw, int mask)
{
    out_printf(o, "        xw__sink_pad(xw_s, -(%d + xw_s->off - xw_base) & %d);\n", sw->start_offset, mask);
}

/* Bytes of a list of variable-sized elements, each measured by its _sizeof; a NULL
 * list is not walked: it counts as one byte, so the sink refuses it. */
static char *walked_bytes(struct emitter *e, struct ectx *x, struct field *f, const char *ptr)
{
    char *sz = tfunc(e, f->type, "sizeof");
    char *n = f->kind == FK_LIST ? expr_c(x, f->expr) : xstrdup("1");
    char *r = xasprintf("({ size_t xw_l = 0; const char *xw_p = (const char *)%s; "
                        "for (int64_t xw_i = 0; xw_i < (int64_t)(%s); xw_i++) { if (!xw_p) { xw_l = 1; break; } "
                        "xw_l += (size_t)%s(xw_p + xw_l); } xw_l; })",
                        ptr, n, sz);
    free(sz), free(n);
    return r;
}

static void put_switch(struct out *o, struct ectx *x, struct field *f, const char *pfx)
{
    struct wparam *sp;
    int sn = walker_params(f->sw, &sp);
    char *in = ifunc(f->sw, NULL, "serialize_put");
    out_printf(o, "        %s(xw_s", in);
    for (int k = 0; k < sn; k++) {
        char *v = sp[k].field ? ser_val(x, sp[k].field) : xasprintf("xw_v_%s", sp[k].name);
        out_printf(o, ", %s", v);
        free(v);
    }
    out_printf(o, ", &%s%s);\n", pfx, f->cname);
    free(in);
}

static void put_fields(struct emitter *e, struct out *o, struct type *sw, struct type *cs)
{
    struct ectx x = {.e = e, .val = ser_val, .list = ser_val, .data = sw, .param_prefix = "xw_v_"};
    char *pfx = cs->casename ? xasprintf("_aux->%s.", cs->casename) : xstrdup("_aux->");
    int prev_var = 0;
    for (int i = 0; i < cs->nfields; i++) {
        struct field *f = cs->fields[i];
        if (!f->wire)
            continue;
        if (f->kind == FK_PAD) {
            if (f->pad_align)
                put_align(o, sw, f->pad_align - 1);
            else
                out_printf(o, "        xw__sink_pad(xw_s, %d);\n", f->pad_bytes);
            prev_var |= f->pad_align != 0;
            continue;
        }
        if (field_fixed(f)) {
            out_printf(o, "        xw__sink_data(xw_s, &%s%s, %d);\n", pfx, f->cname, field_size(f));
            continue;
        }
        if (f->kind == FK_SWITCH) {
            put_switch(o, &x, f, pfx);
            prev_var = 1;
            continue;
        }
        int mask = pad_mask(f->type);
        if (prev_var && mask)
            put_align(o, sw, mask);
        char *ptr = xasprintf("%s%s", pfx, f->cname), *bytes;
        if (f->kind == FK_LIST && type_fixed(f->type)) {
            char *n = expr_c(&x, f->expr);
            bytes = xasprintf("(size_t)(%s) * %d", n, f->type->size);
            free(n);
        } else {
            bytes = walked_bytes(e, &x, f, ptr);
        }
        out_printf(o, "        xw__sink_data(xw_s, %s, %s);\n", ptr, bytes);
        free(bytes), free(ptr);
        prev_var = 1;
    }
    free(pfx);
}

/* Every member of every case is fixed-size wire data: a value list. */
int switch_all_fixed(struct type *sw)
{
    for (int c = 0; c < sw->ncases; c++)
        for (int i = 0; i < sw->cases[c]->nfields; i++) {
            struct field *f = sw->cases[c]->fields[i];
            if (!field_fixed(f) || f->kind == FK_SWITCH || !f->wire)
                return 0;
        }
    return 1;
}

/* At most how many pieces xw__X_put() hands to its sink: the size of the iovec
 * array an _aux sender reserves for the switch. */
int serialize_pieces(struct type *sw)
{
    int n = 0;
    for (int c = 0; c < sw->ncases; c++)
        for (int i = 0; i < sw->cases[c]->nfields; i++) {
            struct field *f = sw->cases[c]->fields[i];
            if (!f->wire)
                continue;
            if (f->kind == FK_SWITCH)
                n += serialize_pieces(f->sw);
            else if (f->kind == FK_PAD || field_fixed(f))
                n += 1;
            else
                n += 2; /* its alignment, then the list */
        }
    return n;
}

/* The arguments of xw__X_put() after the sink: the switch's outside values, then _aux. */
static void serialize_put_params(struct type *sw, struct out *params, struct out *args)
{
    struct wparam *wp;
    int np = walker_params(sw, &wp);
    for (int i = 0; i < np; i++) {
        out_printf(params, ", %s xw_v_%s", wp[i].ctype, wp[i].name);
        out_printf(args, ", xw_v_%s", wp[i].name);
    }
}

void emit_serialize(struct emitter *e, struct type *sw)
{
    char *fn = tfunc(e, sw, "serialize"), *tn = tname(e, sw), *put = ifunc(sw, NULL, "serialize_put");
    struct ectx x = {.e = e, .val = ser_val, .list = ser_val, .data = sw, .param_prefix = "xw_v_"};
    struct out params = {0}, args = {0};
    e->uses |= EMIT_USES_SINK;
    serialize_put_params(sw, &params, &args);
    const char *ps = params.buf ? params.buf : "", *as = args.buf ? args.buf : "";
    /* a value list's few members go through the sink on the request path of
     * every _aux call: inlined there, the sink's branches fold away */
    out_printf(&e->c,
               "\n/* Puts the members of _aux that the switch selects into xw_s; returns their size in bytes. */\n"
               "static %ssize_t %s(struct xw__sink *xw_s%s, const %s *_aux)\n{\n"
               "    size_t xw_base = xw_s->off;\n",
               switch_all_fixed(sw) ? "inline __attribute__((always_inline)) " : "", put, ps, tn);
    char *se = expr_c(&x, sw->swexpr);
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        out_printf(&e->c, "    if (");
        for (int k = 0; k < cs->ncaseexprs; k++) {
            char *ce = expr_c(&x, cs->caseexprs[k]);
            out_printf(&e->c, cs->ncaseexprs > 1 ? "%s(%s %s %s)" : "%s%s %s %s", k ? " || " : "", se,
                       cs->is_bitcase ? "&" : "==", ce);
            free(ce);
        }
        out_printf(&e->c, ") {\n");
        put_fields(e, &e->c, sw, cs);
        out_printf(&e->c, "    }\n");
    }
    out_printf(&e->c, "    (void)_aux;\n    return xw_s->off - xw_base;\n}\n");
    out_printf(&e->hfuncs,
               "\n/** Serializes _aux into *_buffer, which is malloc'd when NULL (the caller frees it, as\n"
               " * with libxcb). Returns the size in bytes, or -1 when memory runs out or a list in\n"
               " * _aux is NULL with a non-zero length. */\n"
               "XW_EXPORT int %s(void **_buffer%s, const %s *_aux);\n",
               fn, ps, tn);
    out_printf(&e->c,
               "\nint %s(void **_buffer%s, const %s *_aux)\n{\n    struct xw__sink xw_s = { 0 };\n"
               "    size_t xw_n = %s(&xw_s%s, _aux);\n"
               "    if (xw_s.bad || (!*_buffer && !(*_buffer = malloc(xw_n ? xw_n : 1))))\n        return -1;\n"
               "    xw_s = (struct xw__sink){ .o = (char *)*_buffer };\n"
               "    %s(&xw_s%s, _aux);\n    return (int)xw_n;\n}\n",
               fn, ps, tn, put, as, put, as);
    free(fn), free(tn), free(put), free(se), free(params.buf), free(args.buf);
}

/* ---- accessors of lists inside a switch ---- */

struct sctx {
    struct type *R, *S;
};

static char *s_val(struct ectx *x, struct field *f)
{
    struct sctx *sc = x->data;
    if (case_owned(f)) {
        char *p = spath(f->owner);
        char *r = xasprintf("S->%s%s", p, f->cname);
        free(p);
        return r;
    }
    if (f->owner == sc->R)
        return xasprintf("R->%s", f->cname);
    return xstrdup(f->cname);
}

static void sproto(struct emitter *e, const char *ret, const char *name, struct sctx *sc, int with_r, const char *doc)
{
    char *rn = tname(e, sc->R), *sn = tname(e, sc->S);
    struct out sig = {0};
    if (with_r)
        out_printf(&sig, "%s %s(const %s *R, const %s *S)", ret, name, rn, sn);
    else
        out_printf(&sig, "%s %s(const %s *S)", ret, name, sn);
    out_printf(&e->hfuncs, "\n/** %s */\nXW_EXPORT %s;\n", doc, sig.buf);
    out_printf(&e->c, "\n%s\n{\n    (void)S;\n%s", sig.buf, with_r ? "    (void)R;\n" : "");
    free(rn), free(sn), free(sig.buf);
}

static void case_list_accessors(struct emitter *e, struct sctx *sc, struct type *cs, struct field *f)
{
    struct ectx x = {.e = e, .val = s_val, .list = s_val, .data = sc};
    char *p = spath(cs);
    char *ptr = xasprintf("S->%s%s", p, f->cname);
    char *mt = tname(e, f->type), *wt = wiretype(e, f->type);
    char *len = expr_c(&x, f->expr);
    if (type_fixed(f->type)) {
        char *fn = tfunc2(e, cs, f->name, NULL), *ret = xasprintf("%s *", mt);
        sproto(e, ret, fn, sc, 0, "Pointer to the list's first element (from the unpacked switch).");
        out_printf(&e->c, "    return (%s *)%s;\n}\n", mt, ptr);
        free(fn), free(ret);
    }
    char *ln = tfunc2(e, cs, f->name, "length");
    sproto(e, "int", ln, sc, 1, "Number of elements in the list.");
    out_printf(&e->c, "    return (int)(%s);\n}\n", len);
    if (type_is_simple(f->type)) {
        char *en = tfunc2(e, cs, f->name, "end");
        sproto(e, "xw_generic_iterator_t", en, sc, 1, "An iterator just past the list's last element.");
        out_printf(&e->c,
                   "    xw_generic_iterator_t i;\n    i.data = (%s *)%s + (%s);\n    i.rem = 0;\n"
                   "    i.index = (int)((char *)i.data - (char *)S);\n    return i;\n}\n",
                   wt, ptr, len);
        free(en);
    } else {
        char *in = tfunc2(e, cs, f->name, "iterator"), *it = tfunc(e, f->type, "iterator_t");
        sproto(e, it, in, sc, 1, "An iterator over the list's elements.");
        out_printf(&e->c,
                   "    %s i;\n    i.data = (%s *)%s;\n    i.rem = (int)(%s);\n"
                   "    i.index = (int)((char *)i.data - (char *)S);\n    return i;\n}\n",
                   it, mt, ptr, len);
        free(in), free(it);
    }
    free(p), free(ptr), free(mt), free(wt), free(len), free(ln);
}

/* A member of a case that is variable-sized but not a list (a nested switch, a
 * counted string): libxcb's accessor takes the outermost switch's unpacked struct
 * and returns the address just past it, R + 1, which is not where the member's
 * value is (that is the member itself, in the unpacked struct). Kept as libxcb
 * has it, so a port is a rename and gets the same pointer. */
static void case_member_accessor(struct emitter *e, struct sctx *sc, struct type *cs, struct field *f)
{
    char *fn = tfunc2(e, cs, f->name, NULL), *sn = tname(e, sc->S);
    char *mt = f->kind == FK_SWITCH ? tname(e, f->sw) : tname(e, f->type);
    out_printf(&e->hfuncs,
               "\n/** libxcb's twin: returns R + 1, the address just past *R, as libxcb does (the member's\n"
               " * unpacked value is R's own member). */\nXW_EXPORT %s *%s(const %s *R);\n",
               mt, fn, sn);
    out_printf(&e->c, "\n%s *%s(const %s *R)\n{\n    return (%s *)(R + 1);\n}\n", mt, fn, sn, mt);
    free(fn), free(sn), free(mt);
}

void emit_switch_accessors(struct emitter *e, struct type *sw)
{
    struct sctx sc = {NULL, top_switch(sw)};
    sc.R = sc.S->parent;
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        for (int i = 0; i < cs->nfields; i++) {
            struct field *f = cs->fields[i];
            if (!f->wire || field_fixed(f))
                continue;
            if (f->kind == FK_LIST)
                case_list_accessors(e, &sc, cs, f);
            else if (f->kind == FK_SWITCH || f->kind == FK_FIELD)
                case_member_accessor(e, &sc, cs, f);
        }
    }
}
