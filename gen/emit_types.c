/* SPDX-License-Identifier: MIT */
/* emit_types.c — enums, simple types, structs, unions, events, errors, iterators and accessors. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "names.h"
#include "size.h"

/* ---- enums and simple types ---- */

void emit_enum(struct emitter *e, struct type *t)
{
    struct out *h = &e->htypes;
    char *tn = tname(e, t);
    out_printf(h, "\n");
    emit_doc(h, t->doc, "");
    out_printf(h, "typedef enum %s {\n", tn);
    for (int i = 0; i < t->nitems; i++) {
        char *s = tfunc(e, t, NULL);
        char *item = cname_item(t->items[i].name);
        char *full = xasprintf("%s_%s", s, item);
        char *u = cname_upper(full);
        /* libxcb lower-cases the joined name; item words keep their split */
        out_printf(h, "    %s%s%s%s\n", u, *t->items[i].value ? " = " : "", t->items[i].value,
                   i + 1 < t->nitems ? "," : "");
        free(s), free(item), free(full), free(u);
    }
    out_printf(h, "} %s;\n", tn);
    free(tn);
}

static void emit_iterator(struct emitter *e, struct type *t)
{
    struct out *h = &e->htypes, *f = &e->hfuncs, *c = &e->c;
    char *tn = tname(e, t), *it = tfunc(e, t, "iterator_t"), *next = tfunc(e, t, "next"), *end = tfunc(e, t, "end");
    struct wparam *wp;
    int np = t->needs_walk ? walker_params(t, &wp) : 0;
    out_printf(
        h, "\n/** Iterates over a list of %s. */\ntypedef struct %s {\n    %s *data;\n    int rem;\n    int index;\n",
        tn, it, tn);
    for (int i = 0; i < np; i++)
        out_printf(h, "    %s %s;\n", wp[i].ctype, wp[i].name);
    out_printf(h, "} %s;\n", it);
    out_printf(f, "\n/** Advances i to the next element: rem decreases by one. */\nXW_EXPORT void %s(%s *i);\n", next,
               it);
    out_printf(
        f, "\n/** An iterator just past the last element of i (rem 0). */\nXW_EXPORT xw_generic_iterator_t %s(%s i);\n",
        end, it);
    out_printf(c, "\nvoid %s(%s *i)\n{\n", next, it);
    if (t->needs_walk) {
        char *sz = tfunc(e, t, "sizeof");
        out_printf(c, "    int xw_len = %s(i->data", sz);
        for (int k = 0; k < np; k++)
            out_printf(c, ", i->%s", wp[k].name);
        out_printf(
            c, ");\n    --i->rem;\n    i->data = (%s *)((char *)i->data + xw_len);\n    i->index += xw_len;\n}\n", tn);
        free(sz);
    } else {
        out_printf(c, "    --i->rem;\n    ++i->data;\n    i->index += sizeof(%s);\n}\n", tn);
    }
    out_printf(c, "\nxw_generic_iterator_t %s(%s i)\n{\n    xw_generic_iterator_t ret;\n", end, it);
    if (t->needs_walk)
        out_printf(c,
                   "    while (i.rem > 0)\n        %s(&i);\n    ret.data = i.data;\n    ret.rem = i.rem;\n    "
                   "ret.index = i.index;\n",
                   next);
    else
        out_printf(c, "    ret.data = i.data + i.rem;\n    ret.index = i.index + ((char *)ret.data - (char "
                      "*)i.data);\n    ret.rem = 0;\n");
    out_printf(c, "    return ret;\n}\n");
    free(tn), free(it), free(next), free(end);
}

void emit_simple(struct emitter *e, struct type *t)
{
    char *tn = tname(e, t);
    char *base = t->kind == TK_TYPEDEF ? tname(e, t->target) : xstrdup("uint32_t");
    out_printf(&e->htypes, "\ntypedef %s %s;\n", base, tn);
    emit_iterator(e, t);
    free(tn), free(base);
}

/* ---- struct bodies ---- */

static char *field_ctype(struct emitter *e, struct field *f)
{
    if (f->kind == FK_FD)
        return xstrdup("int32_t");
    if (f->kind == FK_SWITCH)
        return tname(e, f->sw);
    if (f->type->kind == TK_EVENT && f->type->copy_of == NULL)
        return tname(e, f->type);
    return tname(e, f->type);
}

static void member_decl(struct out *h, const char *ct, const char *name, struct field *f, const char *indent,
                        int as_pointer)
{
    if (as_pointer)
        out_printf(h, "%s    %s *%s;\n", indent, ct, name);
    else if (f->nmemb > 1)
        out_printf(h, "%s    %s %s[%d];\n", indent, ct, name, f->nmemb);
    else
        out_printf(h, "%s    %s %s;\n", indent, ct, name);
}

/* A member named by a C++ keyword keeps libxcb's name in C, so a port stays a
 * rename, and is spelled differently in C++: same type, same place, same layout. */
static void struct_member(struct emitter *e, struct out *h, struct field *f, const char *indent, int as_pointer)
{
    char *ct = field_ctype(e, f);
    if (f->cxxname) {
        out_printf(h, "#ifdef __cplusplus\n");
        member_decl(h, ct, f->cxxname, f, indent, as_pointer);
        out_printf(h, "#else\n");
        member_decl(h, ct, f->cname, f, indent, as_pointer);
        out_printf(h, "#endif\n");
    } else {
        member_decl(h, ct, f->cname, f, indent, as_pointer);
    }
    free(ct);
}

void emit_struct_body(struct emitter *e, struct type *t, const char *kw, const char *name, int packed)
{
    struct out *h = &e->htypes;
    out_printf(h, "\ntypedef %s %s {\n", kw, name);
    int n = 0;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (!f->wire || !(field_fixed(f) || t->kind == TK_UNION))
            continue;
        struct_member(e, h, f, "", 0);
        n++;
    }
    if (!n) /* C needs a member; the wire part is empty */
        out_printf(h, "    uint8_t xw_empty[1];\n");
    out_printf(h, "} %s%s;\n", packed ? "__attribute__((__packed__)) " : "", name);
}

/* A switch becomes a struct of all its cases' fields, variable ones as pointers. */
static void emit_switch_type(struct emitter *e, struct type *sw)
{
    char *tn = tname(e, sw);
    struct out *h = &e->htypes;
    out_printf(h, "\n/** The values of the %s switch, unpacked. */\ntypedef struct %s {\n", sw->name, tn);
    int n = 0;
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        const char *ind = cs->casename ? "    " : "";
        if (cs->casename)
            out_printf(h, "    struct {\n");
        for (int i = 0; i < cs->nfields; i++) {
            struct field *f = cs->fields[i];
            if (f->kind == FK_PAD && f->pad_align && !f->pad_serialize)
                continue;
            struct_member(e, h, f, ind, !field_fixed(f) && f->kind != FK_SWITCH);
            n++;
        }
        if (cs->casename)
            out_printf(h, "    } %s;\n", cs->casename);
    }
    if (!n)
        out_printf(h, "    uint8_t xw_empty[1];\n");
    out_printf(h, "} %s;\n", tn);
    free(tn);
}

static void emit_sizeof(struct emitter *e, struct type *t, const char *fname)
{
    struct wparam *wp;
    int np = walker_params(t, &wp);
    struct out *h = &e->hfuncs, *c = &e->c;
    out_printf(
        h, "\n/** Size in bytes of the serialized value at _buffer (not bounds-checked: validated data only). */\n");
    out_printf(h, "XW_EXPORT int %s(const void *_buffer", fname);
    out_printf(c, "\nint %s(const void *_buffer", fname);
    for (int i = 0; i < np; i++) {
        out_printf(h, ", %s %s", wp[i].ctype, wp[i].name);
        out_printf(c, ", %s %s", wp[i].ctype, wp[i].name);
    }
    /* libxcb takes the length of an event's list that has none; xwire reads the event's
     * own length field instead, so the value is not needed */
    struct out unused = {0};
    for (int i = 0; t->kind == TK_EVENT && i < t->nfields; i++)
        if (t->fields[i]->kind == FK_LIST && t->fields[i]->expr && t->fields[i]->expr->kind == EX_CALCLEN) {
            out_printf(h, ", uint32_t %s_len", t->fields[i]->name);
            out_printf(c, ", uint32_t %s_len", t->fields[i]->name);
            out_printf(&unused, "    (void)%s_len;\n", t->fields[i]->name);
        }
    out_printf(h, ");\n");
    char *w = walker_name(e, t);
    char *base = t->kind == TK_SWITCH ? xasprintf(", %d", t->start_offset) : xstrdup("");
    out_printf(c, ")\n{\n%s    return (int)%s((const char *)_buffer, SIZE_MAX, -1%s", unused.buf ? unused.buf : "", w,
               base);
    free(unused.buf);
    free(base);
    for (int i = 0; i < np; i++)
        out_printf(c, ", %s", wp[i].name);
    out_printf(c, ");\n}\n");
    free(w);
}

/* Every switch inside t (at any depth) gets its struct, walker and _sizeof. */
static void emit_switch_fields(struct emitter *e, struct field **fs, int nf)
{
    for (int i = 0; i < nf; i++) {
        struct field *f = fs[i];
        if (f->kind != FK_SWITCH)
            continue;
        for (int c = 0; c < f->sw->ncases; c++) /* nested switches first: the outer one uses them */
            emit_switch_fields(e, f->sw->cases[c]->fields, f->sw->cases[c]->nfields);
        emit_switch_type(e, f->sw);
        emit_walker(e, f->sw);
        emit_unpack(e, f->sw);
        emit_serialize(e, f->sw);
        emit_switch_accessors(e, f->sw);
        char *sz = tfunc(e, f->sw, "sizeof");
        emit_sizeof(e, f->sw, sz);
        free(sz);
    }
}

void emit_switches(struct emitter *e, struct type *t)
{
    emit_switch_fields(e, t->fields, t->nfields);
}

void emit_struct(struct emitter *e, struct type *t)
{
    char *tn = tname(e, t);
    emit_switches(e, t);
    if (t->doc)
        emit_doc(&e->htypes, t->doc, "");
    emit_struct_body(e, t, t->kind == TK_UNION ? "union" : "struct", tn, 0);
    if (t->needs_walk && t->kind != TK_UNION) {
        emit_walker(e, t);
        char *sz = tfunc(e, t, "sizeof");
        emit_sizeof(e, t, sz);
        free(sz);
        emit_accessors(e, t, t);
    }
    emit_iterator(e, t);
    free(tn);
}

void emit_eventstruct(struct emitter *e, struct type *t)
{
    struct out *h = &e->htypes;
    char *tn = tname(e, t);
    out_printf(h, "\ntypedef union %s {\n", tn);
    for (int i = 0; i < t->nmembers; i++) {
        struct type *ev = t->members[i];
        char *et = tname(e, ev), *mn = cname_item(ev->name);
        for (char *p = mn; *p; p++)
            *p = (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p);
        out_printf(h, "    %s %s;\n", et, mn);
        free(et), free(mn);
    }
    out_printf(h, "    xw_raw_generic_event_t event_header;\n} %s;\n", tn);
    emit_iterator(e, t);
    free(tn);
}

/* ---- events and errors ---- */

static void emit_code_define(struct emitter *e, struct type *t, const char *what)
{
    char *s = tfunc(e, t, NULL), *u = cname_upper(s);
    out_printf(&e->htypes, "\n/** %s number of %s. */\n#define %s %d\n", what, t->name, u, t->number);
    free(s), free(u);
}

void emit_event(struct emitter *e, struct type *t)
{
    emit_code_define(e, t, "Event");
    char *tn = tname(e, t);
    if (t->copy_of) {
        char *on = tname(e, t->copy_of);
        out_printf(&e->htypes, "\ntypedef %s %s;\n", on, tn);
        if (t->copy_of->needs_walk) {
            char *sz = tfunc(e, t, "sizeof"), *osz = tfunc(e, t->copy_of, "sizeof");
            out_printf(&e->hfuncs, "\nXW_EXPORT int %s(const void *_buffer);\n", sz);
            out_printf(&e->c, "\nint %s(const void *_buffer)\n{\n    return %s(_buffer);\n}\n", sz, osz);
            free(sz), free(osz);
        }
        free(on), free(tn);
        return;
    }
    emit_switches(e, t);
    emit_doc(&e->htypes, t->doc, "");
    emit_struct_body(e, t, "struct", tn, c_packed(t));
    if (t->needs_walk || t->xge) {
        emit_walker(e, t);
        if (t->needs_walk) {
            char *sz = tfunc(e, t, "sizeof");
            emit_sizeof(e, t, sz);
            free(sz);
            emit_accessors(e, t, t);
        }
    }
    free(tn);
}

void emit_error(struct emitter *e, struct type *t)
{
    emit_code_define(e, t, "Error");
    char *tn = tname(e, t);
    if (t->copy_of) {
        char *on = tname(e, t->copy_of);
        out_printf(&e->htypes, "\ntypedef %s %s;\n", on, tn);
        free(on);
    } else {
        emit_struct_body(e, t, "struct", tn, 0);
    }
    free(tn);
}
