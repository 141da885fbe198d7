/* emit_switch.c — libxcb's switch helpers: _serialize (the aux struct into wire bytes)
 * and the accessors of lists inside a switch, given the container R and unpacked S. */
#include <stdlib.h>
#include <string.h>

#include "emit.h"

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

static void put_fields(struct emitter *e, struct out *o, struct type *sw, struct type *cs)
{
    struct ectx x = { .e = e, .val = ser_val, .list = ser_val, .data = sw, .param_prefix = "xw_v_" };
    char *pfx = cs->casename ? xasprintf("_aux->%s.", cs->casename) : xstrdup("_aux->");
    int prev_var = 0;
    for (int i = 0; i < cs->nfields; i++) {
        struct field *f = cs->fields[i];
        if (!f->wire)
            continue;
        if (f->kind == FK_PAD) {
            if (f->pad_align)
                out_printf(o, "        { size_t xw_p = -(%d + xw_off) & %d; if (xw_o) memset(xw_o + xw_off, 0, xw_p); xw_off += xw_p; }\n",
                           sw->start_offset, f->pad_align - 1);
            else
                out_printf(o, "        if (xw_o)\n            memset(xw_o + xw_off, 0, %d);\n        xw_off += %d;\n",
                           f->pad_bytes, f->pad_bytes);
            prev_var |= f->pad_align != 0;
            continue;
        }
        if (field_fixed(f)) {
            int n = field_size(f);
            out_printf(o, "        if (xw_o)\n            memcpy(xw_o + xw_off, &%s%s, %d);\n        xw_off += %d;\n", pfx,
                       f->cname, n, n);
            continue;
        }
        if (f->kind == FK_SWITCH) {
            struct wparam *sp;
            int sn = walker_params(f->sw, &sp);
            char *in = tfunc(e, f->sw, "serialize");
            out_printf(o, "        xw_off += xw__%s_put(xw_o ? xw_o + xw_off : NULL", in + 3);
            for (int k = 0; k < sn; k++) {
                char *v = sp[k].field ? ser_val(&x, sp[k].field) : xasprintf("xw_v_%s", sp[k].name);
                out_printf(o, ", %s", v);
                free(v);
            }
            out_printf(o, ", &%s%s);\n", pfx, f->cname);
            free(in);
            prev_var = 1;
            continue;
        }
        int mask = pad_mask(f->type);
        if (prev_var && mask)
            out_printf(o, "        { size_t xw_p = -(%d + xw_off) & %d; if (xw_o) memset(xw_o + xw_off, 0, xw_p); xw_off += xw_p; }\n",
                       sw->start_offset, mask);
        char *bytes;
        if (f->kind == FK_LIST && type_fixed(f->type)) {
            char *n = expr_c(&x, f->expr);
            bytes = xasprintf("(size_t)(%s) * %d", n, f->type->size);
            free(n);
        } else {
            char *sz = tfunc(e, f->type, "sizeof");
            char *n = f->kind == FK_LIST ? expr_c(&x, f->expr) : xstrdup("1");
            bytes = xasprintf("({ size_t xw_l = 0; for (int64_t xw_i = 0; xw_i < (int64_t)(%s); xw_i++) "
                              "xw_l += (size_t)%s((const char *)%s%s + xw_l); xw_l; })",
                              n, sz, pfx, f->cname);
            free(sz), free(n);
        }
        out_printf(o, "        {\n            size_t xw_n = %s;\n            if (xw_o && xw_n)\n"
                      "                memcpy(xw_o + xw_off, %s%s, xw_n);\n            xw_off += xw_n;\n        }\n",
                   bytes, pfx, f->cname);
        free(bytes);
        prev_var = 1;
    }
    free(pfx);
}

void emit_serialize(struct emitter *e, struct type *sw)
{
    struct wparam *wp;
    int np = walker_params(sw, &wp);
    char *fn = tfunc(e, sw, "serialize"), *tn = tname(e, sw);
    struct ectx x = { .e = e, .val = ser_val, .list = ser_val, .data = sw, .param_prefix = "xw_v_" };
    struct out params = { 0 }, args = { 0 };
    for (int i = 0; i < np; i++) {
        out_printf(&params, ", %s xw_v_%s", wp[i].ctype, wp[i].name);
        out_printf(&args, ", xw_v_%s", wp[i].name);
    }
    const char *ps = params.buf ? params.buf : "", *as = args.buf ? args.buf : "";
    out_printf(&e->c, "\n/* Writes the members of _aux that the switch selects into xw_o (NULL: only measures). */\n"
                      "size_t xw__%s_put(char *xw_o%s, const %s *_aux)\n{\n    size_t xw_off = 0;\n",
               fn + 3, ps, tn);
    out_printf(&e->hpriv, "size_t xw__%s_put(char *xw_o%s, const %s *_aux);\n", fn + 3, ps, tn);
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
    out_printf(&e->c, "    (void)_aux;\n    return xw_off;\n}\n");
    out_printf(&e->hfuncs, "\n/** Serializes _aux into *_buffer, which is malloc'd when NULL (the caller frees it, as\n"
                           " * with libxcb). Returns the size in bytes, or -1 when memory runs out. */\n"
                           "XW_EXPORT int %s(void **_buffer%s, const %s *_aux);\n", fn, ps, tn);
    out_printf(&e->c, "\nint %s(void **_buffer%s, const %s *_aux)\n{\n    size_t xw_n = xw__%s_put(NULL%s, _aux);\n"
                      "    if (!*_buffer && !(*_buffer = malloc(xw_n ? xw_n : 1)))\n        return -1;\n"
                      "    xw__%s_put((char *)*_buffer%s, _aux);\n    return (int)xw_n;\n}\n",
               fn, ps, tn, fn + 3, as, fn + 3, as);
    free(fn), free(tn), free(se), free(params.buf), free(args.buf);
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
    struct out sig = { 0 };
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
    struct ectx x = { .e = e, .val = s_val, .list = s_val, .data = sc };
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
        out_printf(&e->c, "    xw_generic_iterator_t i;\n    i.data = (%s *)%s + (%s);\n    i.rem = 0;\n"
                          "    i.index = (int)((char *)i.data - (char *)S);\n    return i;\n}\n",
                   wt, ptr, len);
        free(en);
    } else {
        char *in = tfunc2(e, cs, f->name, "iterator"), *it = tfunc(e, f->type, "iterator_t");
        sproto(e, it, in, sc, 1, "An iterator over the list's elements.");
        out_printf(&e->c, "    %s i;\n    i.data = (%s *)%s;\n    i.rem = (int)(%s);\n"
                          "    i.index = (int)((char *)i.data - (char *)S);\n    return i;\n}\n",
                   it, mt, ptr, len);
        free(in), free(it);
    }
    free(p), free(ptr), free(mt), free(wt), free(len), free(ln);
}

void emit_switch_accessors(struct emitter *e, struct type *sw)
{
    struct sctx sc = { NULL, top_switch(sw) };
    sc.R = sc.S->parent;
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        for (int i = 0; i < cs->nfields; i++) {
            struct field *f = cs->fields[i];
            if (f->kind == FK_LIST && !field_fixed(f) && f->wire)
                case_list_accessors(e, &sc, cs, f);
        }
    }
}
