/* SPDX-License-Identifier: MIT */
/* resolve.c — stage 2: type references, protocol header fields, sizes, length fields and expression references. */
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "resolve.h"
#include "size.h"
#include "wparams.h"

struct prim {
    const char *xml, *c;
    int size;
};
static const struct prim prims[] = {
    {"CARD8", "uint8_t", 1}, {"CARD16", "uint16_t", 2}, {"CARD32", "uint32_t", 4}, {"CARD64", "uint64_t", 8},
    {"INT8", "int8_t", 1},   {"INT16", "int16_t", 2},   {"INT32", "int32_t", 4},   {"INT64", "int64_t", 8},
    {"BYTE", "uint8_t", 1},  {"BOOL", "uint8_t", 1},    {"char", "char", 1},       {"float", "float", 4},
    {"double", "double", 8}, {"void", "void", 1},       {"fd", "int32_t", 4},      {NULL, NULL, 0},
};

static struct type *prim_lookup(struct world *w, const char *name)
{
    _Static_assert(sizeof(w->prims) / sizeof(w->prims[0]) >= sizeof(prims) / sizeof(prims[0]) - 1,
                   "struct world has a slot for each primitive");
    for (int i = 0; prims[i].xml; i++) {
        if (strcmp(prims[i].xml, name))
            continue;
        if (!w->prims[i]) {
            struct type *t = xcalloc(1, sizeof(*t));
            t->kind = TK_PRIM;
            t->name = xstrdup(name);
            t->ctype = xstrdup(prims[i].c);
            type_names(t);
            t->size = prims[i].size;
            t->resolved = 1;
            w->prims[i] = t;
        }
        return w->prims[i];
    }
    return NULL;
}

static int is_value_type(const struct type *t)
{
    return t->kind != TK_REQUEST && t->kind != TK_ENUM;
}

static struct type *find_in(struct module *m, const char *name, int depth, int want_enum)
{
    if (depth > 16)
        return NULL;
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->name && !strcmp(t->name, name) && (want_enum ? t->kind == TK_ENUM : is_value_type(t)))
            return t;
    }
    for (int i = 0; i < m->nimports; i++) {
        struct type *t = find_in(m->imports[i].mod, name, depth + 1, want_enum);
        if (t)
            return t;
    }
    return NULL;
}

static struct module *find_module(struct module *m, const char *header, int depth)
{
    if (!strcmp(m->header, header))
        return m;
    for (int i = 0; depth < 16 && i < m->nimports; i++) {
        struct module *r = find_module(m->imports[i].mod, header, depth + 1);
        if (r)
            return r;
    }
    return NULL;
}

static struct type *lookup(struct module *m, const char *name, struct loc loc, int want_enum)
{
    struct type *t = want_enum ? NULL : prim_lookup(m->world, name);
    if (t)
        return t;
    const char *colon = strchr(name, ':');
    if (colon) {
        char *hdr = xstrdup(name);
        hdr[colon - name] = 0;
        struct module *mm = find_module(m, hdr, 0);
        free(hdr);
        if (!mm)
            fail(loc, "unknown namespace in type '%s'", name);
        t = find_in(mm, colon + 1, 0, want_enum);
    } else {
        t = find_in(m, name, 0, want_enum);
    }
    if (!t)
        fail(loc, "unknown %s '%s'", want_enum ? "enum" : "type", name);
    return t;
}

static struct type *lookup_type(struct module *m, const char *name, struct loc loc)
{
    return lookup(m, name, loc, 0);
}

static void resolve_type(struct type *t);

/* ---- protocol header fields ---- */

static struct field *auto_field(struct type *t, const char *name, const char *tyname)
{
    struct field *f = xcalloc(1, sizeof(*f));
    f->kind = FK_FIELD;
    f->loc = t->loc;
    f->name = xstrdup(name);
    f->cname = xstrdup(name);
    f->tyname = xstrdup(tyname);
    f->wire = 1;
    f->autof = 1;
    f->nmemb = 1;
    f->owner = t;
    return f;
}

static struct field *placeholder(struct type *t)
{
    struct field *f = auto_field(t, "pad0", "CARD8");
    f->kind = FK_PAD;
    f->pad_bytes = 1;
    f->autof = 0;
    return f;
}

/* Builds fields = head ++ [first body field or pad0] ++ mid ++ rest of body. */
static void with_header(struct type *t, struct field **head, int nhead, struct field **mid, int nmid, int slot)
{
    struct field **body = t->fields;
    int nbody = t->nfields;
    t->fields = NULL;
    t->nfields = 0;
    for (int i = 0; i < nhead; i++)
        PUSH(t->fields, t->nfields, head[i]);
    int used = 0;
    if (slot) {
        PUSH(t->fields, t->nfields, nbody ? body[0] : placeholder(t));
        used = nbody ? 1 : 0;
    }
    for (int i = 0; i < nmid; i++)
        PUSH(t->fields, t->nfields, mid[i]);
    for (int i = used; i < nbody; i++)
        PUSH(t->fields, t->nfields, body[i]);
    free(body);
}

static void add_header_fields(struct type *t)
{
    struct field *h[5], *mid[3];
    switch (t->kind) {
    case TK_REQUEST:
        if (t->mod->is_ext) {
            h[0] = auto_field(t, "major_opcode", "CARD8");
            h[1] = auto_field(t, "minor_opcode", "CARD8");
            h[2] = auto_field(t, "length", "CARD16");
            with_header(t, h, 3, NULL, 0, 0);
        } else {
            h[0] = auto_field(t, "major_opcode", "CARD8");
            mid[0] = auto_field(t, "length", "CARD16");
            with_header(t, h, 1, mid, 1, 1);
        }
        break;
    case TK_REPLY:
        h[0] = auto_field(t, "response_type", "CARD8");
        mid[0] = auto_field(t, "sequence", "CARD16");
        mid[1] = auto_field(t, "length", "CARD32");
        with_header(t, h, 1, mid, 2, 1);
        break;
    case TK_EVENT:
        h[0] = auto_field(t, "response_type", "CARD8");
        if (t->xge) {
            h[1] = auto_field(t, "extension", "CARD8");
            h[2] = auto_field(t, "sequence", "CARD16");
            h[3] = auto_field(t, "length", "CARD32");
            h[4] = auto_field(t, "event_type", "CARD16");
            with_header(t, h, 5, NULL, 0, 0);
        } else {
            mid[0] = auto_field(t, "sequence", "CARD16");
            with_header(t, h, 1, mid, t->no_seq ? 0 : 1, 1);
        }
        break;
    case TK_ERROR:
        h[0] = auto_field(t, "response_type", "CARD8");
        h[1] = auto_field(t, "error_code", "CARD8");
        h[2] = auto_field(t, "sequence", "CARD16");
        {
            /* errors carry the generic error's bad value and opcodes unless they
             * declare their own, as libxcb lays them out */
            int nh = 3, has_minor = 0, body = 0;
            for (int i = 0; i < t->nfields; i++) {
                struct field *bf = t->fields[i];
                has_minor |= !strcmp(bf->name, "minor_opcode");
                body += bf->kind == FK_PAD ? bf->pad_bytes : bf->kind == FK_FIELD ? 4 : 8;
            }
            has_minor |= body > 4;
            if (!t->nfields)
                h[nh++] = auto_field(t, "bad_value", "CARD32");
            struct field *tail[2];
            int ntail = 0;
            if (!has_minor) {
                tail[ntail++] = auto_field(t, "minor_opcode", "CARD16");
                tail[ntail++] = auto_field(t, "major_opcode", "CARD8");
            }
            with_header(t, h, nh, NULL, 0, 0);
            for (int i = 0; i < ntail; i++)
                PUSH(t->fields, t->nfields, tail[i]);
        }
        break;
    default:
        break;
    }
}

/* libxcb keeps full_sequence at byte 32 of every event in memory; for a generic
 * event it sits after whichever field ends at byte 32. It is not on the wire. */
static void add_full_sequence(struct type *t)
{
    int size = 0;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (!f->wire || !field_fixed(f))
            continue;
        size += field_size(f);
        if (size == 32) {
            struct field *fs = auto_field(t, "full_sequence", "CARD32");
            fs->type = lookup_type(t->mod, "CARD32", t->loc);
            fs->wire = 2; /* in the C struct, not in the bytes */
            t->fields = xrealloc(t->fields, sizeof(*t->fields) * (size_t)(t->nfields + 1));
            memmove(&t->fields[i + 2], &t->fields[i + 1], sizeof(*t->fields) * (size_t)(t->nfields - i - 1));
            t->fields[i + 1] = fs;
            t->nfields++;
            return;
        }
    }
}

/* ---- expressions ---- */

static struct field *find_field_in(struct type *t, const char *name)
{
    for (; t; t = t->parent) {
        for (int i = 0; i < t->nfields; i++)
            if (!strcmp(t->fields[i]->name, name))
                return t->fields[i];
        if (t->kind == TK_SWITCH) {
            for (int c = 0; c < t->ncases; c++)
                for (int i = 0; i < t->cases[c]->nfields; i++)
                    if (!strcmp(t->cases[c]->fields[i]->name, name))
                        return t->cases[c]->fields[i];
        }
    }
    return NULL;
}

/* The field a list length expression names first, as libxcb's generator picks it. */
static const char *lenfield_name(struct expr *e)
{
    if (!e)
        return NULL;
    switch (e->kind) {
    case EX_FIELDREF:
        return e->name;
    case EX_OP: {
        const char *n = lenfield_name(e->a);
        return n ? n : lenfield_name(e->b);
    }
    case EX_UNOP:
    case EX_POPCOUNT:
        return lenfield_name(e->a);
    default:
        return NULL;
    }
}

static void add_pname(struct type *t, const char *name)
{
    for (int i = 0; i < t->npnames; i++)
        if (!strcmp(t->pnames[i], name))
            return;
    PUSH(t->pnames, t->npnames, (char *)name);
}

/* The <paramref>s a member's type needs read fields of t of those names; a name t
 * lacks is passed on to t's own container. */
static void take_pnames(struct type *t, const struct type *sub)
{
    for (int i = 0; sub && i < sub->npnames; i++) {
        struct field *f = NULL;
        for (int k = 0; k < t->nfields && !f; k++)
            if (!strcmp(t->fields[k]->name, sub->pnames[i]))
                f = t->fields[k];
        if (f)
            f->referenced = 1;
        else
            add_pname(t, sub->pnames[i]);
    }
}

static void resolve_expr(struct type *t, struct expr *e, struct type *listmember)
{
    if (!e)
        return;
    switch (e->kind) {
    case EX_FIELDREF:
        if (listmember) {
            e->field = find_field_in(listmember, e->name);
            if (e->field)
                break;
        }
        e->field = find_field_in(t, e->name);
        if (!e->field)
            fail(e->loc, "no field '%s' for this expression", e->name);
        e->field->referenced = 1;
        break;
    case EX_PARAMREF:
        e->reftype = lookup_type(t->mod, e->ref, e->loc);
        e->field = find_field_in(t->parent, e->name);
        if (!e->field)
            add_pname(t, e->name);
        break;
    case EX_ENUMREF:
        e->reftype = lookup(t->mod, e->ref, e->loc, 1);
        break;
    case EX_SUMOF:
        e->field = find_field_in(t, e->name);
        if (!e->field || e->field->kind != FK_LIST)
            fail(e->loc, "sumof names '%s', which is not a list", e->name);
        e->field->referenced = 1;
        if (e->field->expr)
            resolve_expr(t, e->field->expr, NULL);
        resolve_type(e->field->type);
        resolve_expr(t, e->a, e->field->type->kind == TK_STRUCT ? e->field->type : NULL);
        break;
    default:
        resolve_expr(t, e->a, listmember);
        resolve_expr(t, e->b, listmember);
        break;
    }
}

/* A list whose length field is missing gets one as a parameter (name_len), placed
 * before the list, as libxcb does. */
static void add_missing_lenfield(struct type *t, int idx)
{
    struct field *f = t->fields[idx];
    const char *ln;
    int calc = 0;
    if (!f->expr) {
        f->expr = xcalloc(1, sizeof(*f->expr));
        f->expr->kind = EX_CALCLEN;
        f->expr->loc = f->loc;
        ln = xasprintf("%s_len", f->name);
        calc = 1;
    } else {
        ln = lenfield_name(f->expr);
    }
    if (calc && t->kind != TK_REQUEST) {
        /* a reply or generic event: the list runs to the end its length field gives */
        struct field *total = find_field_in(t, "length");
        if (!total)
            fail(f->loc, "list '%s' has no length and its container none either", f->name);
        total->referenced = 1;
        return;
    }
    if (!ln || find_field_in(t, ln))
        return;
    if (t->kind != TK_REQUEST) /* only a request's caller can supply a missing length */
        fail(f->loc, "list '%s' needs '%s', which is not a field here", f->name, ln);
    struct field *lf = auto_field(t, ln, "CARD32");
    lf->autof = 0;
    lf->visible = 1;
    lf->wire = 0;
    lf->synth = 1;
    lf->type = lookup_type(t->mod, "CARD32", f->loc);
    if (calc) {
        struct field *total = find_field_in(t, "length");
        if (total)
            total->referenced = 1; /* the walker derives the list from it */
    }
    t->fields = xrealloc(t->fields, sizeof(*t->fields) * (size_t)(t->nfields + 1));
    memmove(&t->fields[idx + 1], &t->fields[idx], sizeof(*t->fields) * (size_t)(t->nfields - idx));
    t->fields[idx] = lf;
    t->nfields++;
}

static void resolve_field_type(struct type *t, struct field *f)
{
    if (f->kind == FK_SWITCH) {
        f->sw->mod = t->mod;
        resolve_type(f->sw);
        return;
    }
    if (f->kind == FK_FD || f->kind == FK_PAD) {
        f->type = lookup_type(t->mod, f->kind == FK_FD ? "INT32" : "CARD8", f->loc);
        if (f->kind == FK_PAD)
            f->nmemb = f->pad_bytes;
        return;
    }
    if (!f->type)
        f->type = lookup_type(t->mod, f->tyname, f->loc);
    resolve_type(f->type);
    if (f->kind == FK_LIST) {
        int constant = f->expr && f->expr->kind == EX_NUM;
        f->nmemb = constant && type_fixed(f->type) ? (int)f->expr->num : 0;
        if (constant && f->expr->num < 0)
            fail(f->loc, "list '%s' has a negative length", f->name);
    }
}

static void resolve_fields(struct type *t)
{
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->kind == FK_LIST && !(f->expr && f->expr->kind == EX_NUM)) {
            int before = t->nfields;
            add_missing_lenfield(t, i);
            i += t->nfields - before;
        }
    }
    for (int i = 0; i < t->nfields; i++)
        resolve_field_type(t, t->fields[i]);
}

static void resolve_field_exprs(struct type *t)
{
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (f->expr && f->expr->kind != EX_CALCLEN)
            resolve_expr(t, f->expr, NULL);
        if (f->isfd)
            t->has_fds = 1;
        take_pnames(t, f->kind == FK_SWITCH ? f->sw : f->kind == FK_LIST || f->kind == FK_FIELD ? f->type : NULL);
    }
}

/* Fixed size when every wire field is fixed; also notes a fixed field after a variable one. */
static void compute_size(struct type *t)
{
    int size = 0, fixed = 1, seen_var = 0;
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (!f->wire)
            continue;
        if (!field_fixed(f)) {
            fixed = 0;
            seen_var = 1;
            continue;
        }
        if (seen_var && f->kind != FK_PAD)
            t->var_then_fixed = 1;
        if (f->wire == 2)
            continue;
        int fs = field_size(f);
        if (t->kind == TK_UNION)
            size = fs > size ? fs : size;
        else
            size += fs;
    }
    t->size = fixed ? size : -1;
    t->needs_walk = !fixed;
}

static void resolve_switch(struct type *sw)
{
    resolve_expr(sw->parent, sw->swexpr, NULL);
    for (int c = 0; c < sw->ncases; c++) {
        struct type *cs = sw->cases[c];
        cs->mod = sw->mod;
        for (int i = 0; i < cs->ncaseexprs; i++)
            resolve_expr(sw, cs->caseexprs[i], NULL);
        resolve_type(cs);
        take_pnames(sw, cs);
    }
    sw->size = -1;
    sw->needs_walk = 1;
}

static void resolve_copy(struct type *t)
{
    const char *ref = t->target_name;
    struct type *o = NULL;
    for (int i = 0; i < t->mod->ntypes && !o; i++) {
        struct type *c = t->mod->types[i];
        if (c->kind == t->kind && !c->target_name && !strcmp(c->name, ref))
            o = c;
    }
    if (!o)
        o = lookup_type(t->mod, ref, t->loc);
    if (o->kind != t->kind)
        fail(t->loc, "'%s' is not an %s", ref, t->kind == TK_EVENT ? "event" : "error");
    resolve_type(o);
    t->copy_of = o;
    t->size = o->size;
    /* a copy of a generic event is a generic event: in the XGE name and validator tables */
    t->xge = o->xge;
}

/* The events of t's module an eventstruct's ranges select (core events only), by
 * range, then number, then document order. */
static void resolve_eventstruct(struct type *t)
{
    for (int r = 0; r < t->nallowed; r++)
        for (int num = t->allowed[r][0]; num <= t->allowed[r][1]; num++)
            for (int i = 0; i < t->mod->ntypes; i++) {
                struct type *ev = t->mod->types[i];
                if (ev->kind != TK_EVENT || ev->number != num || ev->xge)
                    continue;
                resolve_type(ev);
                if (!(ev->copy_of ? ev->copy_of : ev)->xge)
                    PUSH(t->members, t->nmembers, ev);
            }
    t->size = 32;
}

static void resolve_type(struct type *t)
{
    if (t->resolved)
        return;
    if (t->resolving)
        fail(t->loc, "type '%s' contains itself", t->name ? t->name : "?");
    t->resolving = 1;
    switch (t->kind) {
    case TK_XID:
    case TK_XIDUNION:
        t->size = 4;
        break;
    case TK_TYPEDEF:
        t->target = lookup_type(t->mod, t->target_name, t->loc);
        resolve_type(t->target);
        t->size = t->target->size;
        break;
    case TK_ENUM:
        t->size = -1;
        break;
    case TK_EVENTSTRUCT:
        resolve_eventstruct(t);
        break;
    case TK_EVENT:
    case TK_ERROR:
        if (t->target_name) {
            resolve_copy(t);
            break;
        }
        /* fall through */
    case TK_REQUEST:
    case TK_REPLY:
    case TK_STRUCT:
    case TK_UNION:
    case TK_CASE:
        add_header_fields(t);
        resolve_fields(t);
        if (t->kind == TK_EVENT && t->xge)
            add_full_sequence(t);
        resolve_field_exprs(t);
        compute_size(t);
        if (t->length_expr)
            resolve_expr(t, t->length_expr, NULL);
        if (t->reply) {
            t->reply->mod = t->mod;
            resolve_type(t->reply);
        }
        break;
    case TK_SWITCH:
        resolve_switch(t);
        break;
    default:
        break;
    }
    type_names(t);
    t->resolving = 0;
    t->resolved = 1;
}

/* Requests that create a resource under an id the client picks: 0 (None) is never a
 * valid new id (the server answers BadIDChoice), so the sender refuses it before anything
 * is written. Only ids the protocol certainly forbids to be 0; an entry that names a
 * request or field the description lacks stops the generator. */
static const struct {
    const char *header, *request, *field;
} new_ids[] = {
    {"xproto", "CreateWindow", "wid"},    {"xproto", "OpenFont", "fid"},
    {"xproto", "CreatePixmap", "pid"},    {"xproto", "CreateGC", "cid"},
    {"xproto", "CreateColormap", "mid"},  {"xproto", "CopyColormapAndFree", "mid"},
    {"xproto", "CreateCursor", "cid"},    {"xproto", "CreateGlyphCursor", "cid"},
    {"shm", "Attach", "shmseg"},          {"shm", "AttachFd", "shmseg"},
    {"shm", "CreatePixmap", "pid"},       {"shm", "CreateSegment", "shmseg"},
    {"render", "CreatePicture", "pid"},   {"render", "CreateGlyphSet", "gsid"},
    {"xfixes", "CreateRegion", "region"}, {"damage", "Create", "damage"},
    {"sync", "CreateCounter", "id"},      {"sync", "CreateAlarm", "id"},
    {"sync", "CreateFence", "fence"},     {"composite", "NameWindowPixmap", "pixmap"},
};

static struct type *find_request(struct module *m, const char *name)
{
    for (int i = 0; i < m->ntypes; i++)
        if (m->types[i]->kind == TK_REQUEST && !strcmp(m->types[i]->name, name))
            return m->types[i];
    return NULL;
}

static void mark_new_ids(struct module *m)
{
    for (size_t i = 0; i < sizeof(new_ids) / sizeof(new_ids[0]); i++) {
        if (strcmp(new_ids[i].header, m->header))
            continue;
        struct type *t = find_request(m, new_ids[i].request);
        if (!t)
            fail(m->loc, "new-id table: %s has no request %s", m->header, new_ids[i].request);
        for (int k = 0; k < t->nfields && !t->new_id; k++)
            if (t->fields[k]->visible && !strcmp(t->fields[k]->name, new_ids[i].field))
                t->new_id = t->fields[k];
        if (!t->new_id)
            fail(t->loc, "new-id table: %s has no field %s", t->name, new_ids[i].field);
    }
}

/* Requests the server answers with several replies, which the XML does not say: the
 * last reply is the one whose field at byte 1 has the given value. The runtime keeps
 * such a request pending until that reply. An entry naming a request, or a byte-1
 * field, that the description lacks stops the generator. */
static const struct {
    const char *header, *request, *field;
    int last;
} multi_replies[] = {
    {"xproto", "ListFontsWithInfo", "name_len", 0}, /* a reply with no name ends the list */
    {"record", "EnableContext", "category", 5},     /* Category EndOfData */
};

static void mark_multi_replies(struct module *m)
{
    for (size_t i = 0; i < sizeof(multi_replies) / sizeof(multi_replies[0]); i++) {
        if (strcmp(multi_replies[i].header, m->header))
            continue;
        struct type *t = NULL;
        for (int k = 0; k < m->ntypes && !t; k++)
            if (m->types[k]->kind == TK_REQUEST && !strcmp(m->types[k]->name, multi_replies[i].request))
                t = m->types[k];
        struct loc loc = {m->file, 1};
        if (!t || !t->reply)
            fail(t ? t->loc : loc, "multi-reply table: no request %s with a reply", multi_replies[i].request);
        struct field *f = t->reply->nfields > 1 ? t->reply->fields[1] : NULL;
        if (!f || strcmp(f->name, multi_replies[i].field) || field_size(f) != 1)
            fail(t->loc, "multi-reply table: %s's reply has no one-byte field %s at byte 1", t->name,
                 multi_replies[i].field);
        t->multi_reply = 1;
        t->multi_end = multi_replies[i].last;
    }
}

void module_resolve(struct module *m)
{
    if (m->resolved)
        return;
    m->resolved = 1;
    for (int i = 0; i < m->nimports; i++)
        module_resolve(m->imports[i].mod);
    for (int i = 0; i < m->ntypes; i++)
        resolve_type(m->types[i]);
    mark_new_ids(m);
    module_wparams(m);
    mark_multi_replies(m);
}
