/* SPDX-License-Identifier: MIT */
/* emit_request.c — requests: structs, zero-allocation senders over a fixed iovec array, replies. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "names.h"
#include "size.h"

static int has_switch(struct type *t)
{
    for (int i = 0; i < t->nfields; i++)
        if (t->fields[i]->kind == FK_SWITCH)
            return 1;
    return 0;
}

/* Parameter declaration of a field, as libxcb spells it; in the header, a name that
 * is a C++ keyword takes its C++ spelling (a prototype's names are not the API). */
static char *param_decl(struct emitter *e, struct field *f, int aux, int header)
{
    const char *pn = header && f->cxxname ? f->cxxname : f->cname;
    if (f->kind == FK_FD)
        return xasprintf("int32_t %s", pn);
    if (f->kind == FK_SWITCH) {
        if (!aux)
            return xasprintf("const void *%s", pn);
        char *tn = tname(e, f->sw);
        char *r = xasprintf("const %s *%s", tn, pn);
        free(tn);
        return r;
    }
    char *tn = tname(e, f->type);
    char *r;
    if (f->kind == FK_LIST && f->nmemb != 1)
        r = xasprintf("const %s *%s", tn, pn);
    else if (!type_fixed(f->type)) /* libxcb leaves a variable-size struct non-const */
        r = xasprintf("%s *%s", tn, pn);
    else
        r = xasprintf("%s %s", tn, pn);
    free(tn);
    return r;
}

static void signature(struct emitter *e, struct out *o, struct type *t, const char *cookie, const char *fn, int aux)
{
    out_printf(o, "%s %s(xw_connection_t *c", cookie, fn);
    for (int i = 0; i < t->nfields; i++) {
        struct field *f = t->fields[i];
        if (!f->visible)
            continue;
        char *d = param_decl(e, f, aux, o == &e->hfuncs);
        out_printf(o, ", %s", d);
        free(d);
    }
    out_printf(o, ")");
}

/* Bytes of the fixed part on the wire (the request struct's members). */
int wire_fixed_size(struct type *t)
{
    int n = 0;
    for (int i = 0; i < t->nfields; i++)
        if (t->fields[i]->wire && field_fixed(t->fields[i]))
            n += field_size(t->fields[i]);
    return n;
}

/* ---- sender bodies ---- */

struct sender {
    struct emitter *e;
    struct type *t;
    struct out pre; /* declarations the body needs */
    struct out body;
    int nparts;
    int nfds_fixed;
    int nfds_list;
    int nnull;      /* caller's pointers that must not be NULL with a non-zero length: */
    int *null_part; /* their parts */
    const char **null_name;
    int sink_checked; /* a switch serializer may have found a NULL list: refuse then */
    int direct;       /* the fixed part and one list (direct_ok): the list is xw_list, xw_n bytes, no slices */
};

/* In a sender, fields are parameters; in the aux form, a switch member is read from
 * the caller's struct (x->data is the switch field). */
static char *sval(struct ectx *x, struct field *f)
{
    struct field *sf = x->data;
    if (sf && f->owner && f->owner->kind == TK_CASE && f->owner->parent == sf->sw) {
        if (f->owner->casename)
            return xasprintf("%s->%s.%s", sf->cname, f->owner->casename, f->cname);
        return xasprintf("%s->%s", sf->cname, f->cname);
    }
    return xstrdup(f->cname);
}

/* The next part is a caller's pointer: NULL is only allowed with length 0. */
static void note_nullable(struct sender *s, struct field *f)
{
    int n = s->nnull;
    PUSH(s->null_part, n, 2 + s->nparts);
    PUSH(s->null_name, s->nnull, f->name);
}

static void part(struct sender *s, const char *base, const char *len)
{
    int k = 2 + s->nparts++;
    if (s->direct) {
        out_printf(&s->body, "    const void *xw_list = (%s);\n    size_t xw_n = %s;\n", base, len);
        return;
    }
    out_printf(&s->body, "    xw_parts[%d].iov_base = (char *)(%s);\n    xw_parts[%d].iov_len = %s;\n", k, base, k,
               len);
}

static void pad_part(struct sender *s)
{
    int k = 2 + s->nparts;
    if (s->direct) { /* xw__send_list pads */
        s->nparts++;
        return;
    }
    out_printf(&s->body, "    xw_parts[%d].iov_base = 0;\n    xw_parts[%d].iov_len = -xw_parts[%d].iov_len & 3;\n", k,
               k, k - 1);
    s->nparts++;
}

/* Lists that follow each other are back to back on the wire and the run is padded as a
 * whole (RandR SetCrtcGamma: red, green, blue, then pad(6n)); libxcb pads each list, which
 * differs only where a list's bytes are not whole words and another list follows. A run of
 * one list gets the usual pad after it. */
static void pad_run(struct sender *s, int first)
{
    int k = 2 + s->nparts;
    if (k - first == 1) {
        pad_part(s);
        return;
    }
    out_printf(&s->body,
               "    xw_parts[%d].iov_base = 0;\n    xw_parts[%d].iov_len = -xw__iov_sum(xw_parts + %d, %d) & 3;\n", k,
               k, first, k - first);
    s->nparts++;
}

/* The next field that adds bytes after the fixed part is a plain list (not fds). */
static int next_var_is_list(struct type *t, int i)
{
    for (int j = i + 1; j < t->nfields; j++) {
        struct field *f = t->fields[j];
        if (f->kind == FK_FD || !f->wire || field_fixed(f))
            continue;
        return f->kind == FK_LIST && !f->isfd;
    }
    return 0;
}

static char *list_len_bytes(struct sender *s, struct field *f)
{
    struct ectx x = {.e = s->e, .val = sval};
    char *wt = wiretype(s->e, f->type);
    char *n = f->expr->kind == EX_CALCLEN ? xasprintf("%s_len", f->name) : expr_c(&x, f->expr);
    char *r;
    if (type_fixed(f->type)) {
        r = xasprintf("(size_t)(%s) * sizeof(%s)", n, wt);
    } else {
        char *sz = tfunc(s->e, f->type, "sizeof");
        /* a NULL list is not walked: it counts as one byte, so the NULL check rejects it */
        r = xasprintf("({ size_t xw_l = 0; const char *xw_p = (const char *)%s; "
                      "for (int64_t xw_i = 0; xw_i < (int64_t)(%s); xw_i++) { if (!xw_p) { xw_l = 1; break; } "
                      "int xw_s = %s(xw_p + xw_l); xw_l += (size_t)xw_s; } xw_l; })",
                      f->cname, n, sz);
        free(sz);
    }
    free(wt), free(n);
    return r;
}

/* "xw__X_serialize_put(&xw_sink, <the switch's outside values>, <the caller's struct>)" */
static char *put_call(struct field *sf)
{
    struct wparam *wp;
    int np = walker_params(sf->sw, &wp);
    char *fn = ifunc(sf->sw, NULL, "serialize_put");
    struct out o = {0};
    out_printf(&o, "%s(&xw_sink", fn);
    for (int k = 0; k < np; k++)
        out_printf(&o, ", %s", wp[k].field ? wp[k].field->cname : wp[k].name);
    out_printf(&o, ", %s)", sf->cname);
    free(fn);
    return o.buf;
}

/* The aux form: the switch serializer puts the selected members.
 * A switch of fixed members (a value list) is copied into one stack array, one
 * slice, as its few bytes follow each other; any other switch gets one iovec per
 * piece pointing at the caller's data, so nothing is copied or allocated. */
static void aux_switch_parts(struct sender *s, struct field *sf)
{
    s->e->uses |= EMIT_USES_SINK;
    char *call = put_call(sf);
    if (switch_all_fixed(sf->sw)) {
        int max = 0;
        for (int c = 0; c < sf->sw->ncases; c++)
            for (int i = 0; i < sf->sw->cases[c]->nfields; i++)
                max += field_size(sf->sw->cases[c]->fields[i]);
        out_printf(&s->pre, "    uint8_t xw_vals[%d];\n", (max + 3) / 4 * 4 + 4);
        out_printf(&s->body,
                   "    struct xw__sink xw_sink = { .o = (char *)xw_vals };\n    %s;\n"
                   "    while (xw_sink.off & 3)\n        xw_vals[xw_sink.off++] = 0;\n",
                   call);
        part(s, "xw_vals", "xw_sink.off");
        free(call);
        return;
    }
    int k = 2 + s->nparts, max = serialize_pieces(sf->sw);
    out_printf(&s->body,
               "    struct xw__sink xw_sink = { .iov = xw_parts + %d, .maxiov = %d };\n    %s;\n"
               "    for (int xw_i = xw_sink.niov; xw_i < %d; xw_i++) {\n"
               "        xw_parts[%d + xw_i].iov_base = 0;\n        xw_parts[%d + xw_i].iov_len = 0;\n    }\n",
               k, max, call, max, k, k);
    s->nparts += max;
    s->sink_checked = 1;
    /* the request ends on a word */
    k = 2 + s->nparts++;
    out_printf(&s->body,
               "    xw_parts[%d].iov_base = 0;\n    xw_parts[%d].iov_len = -xw__iov_sum(xw_parts + 2, %d) & 3;\n", k, k,
               k - 2);
    free(call);
}

static void fixed_assignments(struct sender *s)
{
    struct ectx x = {.e = s->e, .val = sval};
    for (int i = 0; i < s->t->nfields; i++) {
        struct field *f = s->t->fields[i];
        if (!f->wire || f->autof || !field_fixed(f))
            continue;
        if (f->kind == FK_PAD)
            out_printf(&s->body, "    memset(&xw_out.%s, 0, %d);\n", f->cname, f->pad_bytes);
        else if (f->kind == FK_EXPRFIELD) {
            char *v = expr_c(&x, f->expr);
            out_printf(&s->body, "    xw_out.%s = %s;\n", f->cname, v);
            free(v);
        } else if (f->nmemb > 1 || f->kind == FK_LIST)
            out_printf(&s->body, "    memcpy(xw_out.%s, %s, sizeof(xw_out.%s));\n", f->cname, f->cname, f->cname);
        else
            out_printf(&s->body, "    xw_out.%s = %s;\n", f->cname, f->cname);
    }
}

/* An fd list goes beside the bytes; more than one message carries fails this request alone. */
static void fd_list_part(struct sender *s, struct field *f)
{
    struct ectx x = {.e = s->e, .val = sval};
    char *n = expr_c(&x, f->expr);
    out_printf(&s->body,
               "    if ((size_t)(%s) > sizeof(xw_fds) / sizeof(xw_fds[0]) - xw_nfds) {\n"
               "        /* more fds than one message carries: fail this request alone */\n"
               "        for (int64_t xw_i = 0; xw_i < (int64_t)(%s); xw_i++)\n            close(%s[xw_i]);\n"
               "        for (unsigned int xw_i = 0; xw_i < xw_nfds; xw_i++)\n            close(xw_fds[xw_i]);\n"
               "        xw_ret.sequence = 0;\n        return xw_ret;\n    }\n"
               "    for (int64_t xw_i = 0; xw_i < (int64_t)(%s); xw_i++)\n        xw_fds[xw_nfds++] = %s[xw_i];\n",
               n, n, f->cname, n, f->cname);
    s->nfds_list = 1;
    free(n);
}

/* A switch's value list, sized by its _sizeof. Fixed cases are sized without reading the
 * value list, so a NULL one with a non-zero mask is refused; other switches are read to
 * be sized: NULL counts as empty there (libxcb's walk would crash), since whether an
 * empty one is legal depends on values the generator cannot judge. */
static void switch_part(struct sender *s, struct field *f)
{
    struct wparam *wp;
    int np = walker_params(f->sw, &wp);
    char *sz = tfunc(s->e, f->sw, "sizeof");
    struct out call = {0};
    out_printf(&call, "(size_t)%s(%s", sz, f->cname);
    for (int k = 0; k < np; k++)
        out_printf(&call, ", %s", wp[k].name);
    out_printf(&call, ")");
    if (switch_all_fixed(f->sw)) {
        note_nullable(s, f);
    } else {
        char *guarded = xasprintf("(%s ? %s : 0)", f->cname, call.buf);
        free(call.buf);
        call = (struct out){0};
        out_printf(&call, "%s", guarded);
        free(guarded);
    }
    part(s, f->cname, call.buf);
    pad_part(s);
    free(sz), free(call.buf);
}

/* An alignment pad between variable parts: a NULL piece of the bytes that align it. */
static void align_part(struct sender *s, struct field *f)
{
    int k = 2 + s->nparts++;
    out_printf(&s->body,
               "    xw_parts[%d].iov_base = 0;\n    xw_parts[%d].iov_len = -xw__iov_sum(xw_parts + 2, %d) & %d;\n", k,
               k, k - 2, f->pad_align - 1);
}

/* A variable struct, sized by its _sizeof. */
static void struct_part(struct sender *s, struct field *f)
{
    char *sz = tfunc(s->e, f->type, "sizeof");
    char *len = xasprintf("(size_t)%s(%s)", sz, f->cname);
    part(s, f->cname, len);
    pad_part(s);
    free(sz), free(len);
}

/* The variable parts of the request, one iovec each, and its fds. Consecutive lists are
 * a run padded once at its end (run: the run's first part). */
static void var_parts(struct sender *s, int aux)
{
    int run = -1;
    for (int i = 0; i < s->t->nfields; i++) {
        struct field *f = s->t->fields[i];
        if (f->kind == FK_FD) {
            out_printf(&s->body, "    xw_fds[xw_nfds++] = %s;\n", f->cname);
            s->nfds_fixed++;
        } else if (f->kind == FK_LIST && f->isfd) {
            fd_list_part(s, f);
        } else if (!f->wire || field_fixed(f)) {
            continue;
        } else if (f->kind == FK_SWITCH && aux) {
            aux_switch_parts(s, f);
        } else if (f->kind == FK_SWITCH) {
            switch_part(s, f);
        } else if (f->kind == FK_LIST) {
            char *len = list_len_bytes(s, f);
            if (run < 0)
                run = 2 + s->nparts;
            note_nullable(s, f);
            part(s, f->cname, len);
            if (!next_var_is_list(s->t, i)) {
                pad_run(s, run);
                run = -1;
            }
            free(len);
        } else if (f->kind == FK_PAD) {
            align_part(s, f);
        } else {
            struct_part(s, f);
        }
    }
}

/* A refused request: its fds (already collected) are closed, nothing is written. */
static void reject_if(struct sender *s, const char *cond, const char *why)
{
    s->e->uses |= EMIT_USES_FAIL;
    out_printf(&s->body,
               "    if (__builtin_expect(!!(%s), 0)) {\n"
               "        xw_ret.sequence = (unsigned int)xw__fail_reject(c, %s, %s, \"%s: %s\");\n"
               "        return xw_ret;\n    }\n",
               cond, s->nfds_fixed || s->nfds_list ? "xw_nfds" : "0", s->nfds_fixed || s->nfds_list ? "xw_fds" : "0",
               s->t->name, why);
}

static void reject_new_id(struct sender *s, struct field *nid)
{
    char *cond = xasprintf("%s == 0", nid->cname);
    char *why = xasprintf("%s is 0; a new resource id comes from xw_generate_id()", nid->cname);
    reject_if(s, cond, why);
    free(cond), free(why);
}

/* A small void core request with only fixed fields, sent unchecked, can skip the
 * runtime: while only one thread can use the connection (its single-threaded mode,
 * or a process with one thread) and nothing stands in the way (the limits), its
 * bytes go straight into the write buffer. */
static int inline_ok(struct emitter *e, struct type *t, int checked_flag, int aux)
{
    if (t->reply || checked_flag || aux || e->m->is_ext || t->has_fds || t->needs_walk)
        return 0;
    int size = c_size(t);
    return size == wire_fixed_size(t) && size % 4 == 0 && size <= 256;
}

/* The runtime's one write primitive, an inline of its private header: reserve room, frame the fixed part
 * and copy it there, commit. Without the lock: the limit lets it through only while
 * no other thread can be in the connection. */
static void inline_path(struct sender *s)
{
    char *op = tfunc(s->e, s->t, NULL), *opu = cname_upper(op), *rq = ifunc(s->t, NULL, "req");
    /* the room is reserved first thing in the function (s->pre): after the request's
     * fields are stored, gcc would no longer fold them into one constant store */
    s->e->uses |= EMIT_USES_OUT;
    out_printf(&s->pre, "    uint8_t *xw_p = xw__out_reserve_unlocked(c, sizeof(xw_out));\n");
    out_printf(&s->body,
               "    {\n"
               "        if (XW_LIKELY(xw_p != NULL)) {\n"
               "            xw__out_frame((uint8_t *)&xw_out, &%s.pub, %s, (uint16_t)(sizeof(xw_out) / 4));\n"
               "            memcpy(xw_p, &xw_out, sizeof(xw_out));\n"
               "            xw_ret.sequence = (unsigned int)xw__out_commit(c, sizeof(xw_out));\n"
               "            return xw_ret;\n        }\n    }\n",
               rq, opu);
    free(op), free(opu), free(rq);
}

/* c and a wrapper's own parameters, by name: what it passes to the body. */
static void call_args(struct out *o, struct type *t)
{
    out_printf(o, "c");
    for (int i = 0; i < t->nfields; i++)
        if (t->fields[i]->visible)
            out_printf(o, ", %s", t->fields[i]->cname);
}

/* Checks, fixed assignments and parts of t's sender into s; with inl, the inline path
 * first (the only thing a wrapper builds itself). */
static void sender_text(struct sender *s, int aux, int inl)
{
    struct type *t = s->t;
    /* C padding the wire lacks: send zeros, never stack bytes; a direct sender's fixed
     * part of only the header (framed where it lands) too, or gcc sees it unset */
    if (c_size(t) != wire_fixed_size(t) || (s->direct && c_size(t) == 4))
        out_printf(&s->body, "    memset(&xw_out, 0, sizeof(xw_out));\n");
    fixed_assignments(s);
    if (inl) {
        /* the id check comes before the inline path */
        if (t->new_id)
            reject_new_id(s, t->new_id);
        inline_path(s);
        return;
    }
    if (!s->direct)
        out_printf(&s->body,
                   "    xw_parts[2].iov_base = (char *)&xw_out;\n    xw_parts[2].iov_len = sizeof(xw_out);\n");
    s->nparts = 1;
    if (c_size(t) % 4) /* the fixed part's own padding, only when it is not whole words */
        pad_part(s);
    var_parts(s, aux);
    /* after the fds are collected, so that a refusal closes them */
    if (t->new_id)
        reject_new_id(s, t->new_id);
    for (int i = 0; i < s->nnull; i++) {
        char *cond =
            s->direct ? xstrdup("!xw_list && xw_n")
                      : xasprintf("!xw_parts[%d].iov_base && xw_parts[%d].iov_len", s->null_part[i], s->null_part[i]);
        char *why = xasprintf("%s is NULL but its length is not 0", s->null_name[i]);
        reject_if(s, cond, why);
        free(cond), free(why);
    }
    if (s->sink_checked)
        reject_if(s, "xw_sink.bad", "a list in the switch's values is NULL but its length is not 0");
}

static void free_sender(struct sender *s)
{
    free(s->body.buf), free(s->pre.buf), free(s->null_part), free(s->null_name);
}

/* t's reply needs a validator: one whose length could fall short of its layout. A
 * fixed reply of at most 32 bytes cannot, as every reply is at least 32 bytes long,
 * so it has none and the read path calls nothing for it (NULL: fixed size). */
static int reply_checked(const struct type *t)
{
    return t->reply && (t->reply->needs_walk || t->reply->size < 0 || t->reply->size > 32);
}

/* The common shape, sent by xw__send_list without slices: a fixed part of whole
 * words small enough for its inline copy, then exactly one piece (a list, a struct,
 * a value list) and its pad, no fds. s: the sender as slices. */
static int direct_ok(const struct sender *s, int aux)
{
    int size = c_size(s->t);
    return !aux && s->nparts == 3 && !s->nfds_fixed && !s->nfds_list && !s->sink_checked && size % 4 == 0 &&
           size >= 4 && size <= 32;
}

/* A direct sender's send: the runtime's fast path inlined, its facts (rq, the fixed
 * part's length) constants here, while no other thread can be in the connection
 * (xw__out_unlocked: nothing else is read otherwise); xw__send_list for the rest. */
static void direct_send(struct emitter *e, struct type *t, const char *rq)
{
    const char *fds = t->reply && t->reply->has_fds ? " | XW_REQUEST_REPLY_FDS" : "";
    const char *gap = t->reply && t->reply->needs_walk && layout_gap(t->reply) ? " | XW__REQUEST_REPLY_GAP" : "";
    e->uses |= EMIT_USES_OUT;
    out_printf(&e->c,
               "    {\n        uint64_t xw_lim, xw_seq;\n"
               "        if (XW_LIKELY(xw__out_unlocked(c, &xw_lim)) &&\n"
               "            XW_LIKELY((xw_seq = xw__out_list_fast(c, xw_flags%s%s, xw_lim, &xw_out, xw_list, xw_n, "
               "&%s)) != 0)) {\n"
               "            xw_ret.sequence = (unsigned int)xw_seq;\n            return xw_ret;\n        }\n    }\n",
               fds, gap, rq);
    out_printf(&e->c,
               "    xw_ret.sequence = (unsigned int)xw__send_list(c, xw_flags%s%s, &xw_out, xw_list, xw_n, &%s);\n",
               fds, gap, rq);
}

/* The one body of a request's senders (of its _aux senders when aux): the public
 * functions differ only in xw_flags, so they call it. Kept out of line, or each
 * sender would carry its own copy again. */
static void emit_body(struct emitter *e, struct type *t, int aux)
{
    char *cookie = t->reply ? tfunc(e, t, "cookie_t") : xstrdup("xw_void_cookie_t");
    char *rt = tname(e, t), *bn = ifunc(t, aux ? "aux" : NULL, "send");
    struct sender s = {.e = e, .t = t};
    sender_text(&s, aux, 0);
    if (direct_ok(&s, aux)) { /* again, without the slices */
        free_sender(&s);
        s = (struct sender){.e = e, .t = t, .direct = 1};
        sender_text(&s, aux, 0);
    }
    struct out *c = &e->c;
    char *ext = e->m->is_ext ? cname_join(e->m, (char *[]){"xw", e->m->ext_name, "id"}, 3, NULL) : NULL;
    char *op = tfunc(e, t, NULL), *opu = cname_upper(op);
    char *val = reply_checked(t) ? ifunc(t, NULL, "reply_validate") : xstrdup("0");
    char *rq = ifunc(t, aux ? "aux" : NULL, "req");
    /* At file scope: the body and the inline path of the unchecked sender frame with it,
     * and the description's request table points at it (xwire's private descriptor:
     * libxcb's public one, then the reply's facts). */
    out_printf(c,
               "\nstatic const struct xw_request %s = {\n    .f = {\n        .count = %d,\n        .ext = %s%s,\n"
               "        .opcode = %s,\n        .isvoid = %d,\n",
               rq, s.nparts, ext ? "&" : "", ext ? ext : "0", opu, t->reply ? 0 : 1);
    if (t->multi_reply)
        out_printf(c, "        .multi_reply = 1,\n        .multi_end = %d,\n", t->multi_end);
    if (t->reply && t->reply->needs_walk && layout_gap(t->reply))
        out_printf(c, "        .reply_gap = 1,\n");
    if (s.direct)
        out_printf(c, "        .fixed_words = %d,\n", c_size(t) / 4);
    out_printf(c, "    },\n    .validate = %s,\n};\n", val);
    out_printf(c,
               "\n/* The body of %s's %ssenders; xw_flags is 0 or XW_REQUEST_CHECKED. */\n"
               "static __attribute__((noinline)) ",
               t->name, aux ? "_aux " : "");
    signature(e, c, t, cookie, bn, aux);
    c->len--; /* reopen the parameter list */
    out_printf(c, ", int xw_flags)\n{\n");
    if (!s.direct)
        out_printf(c, "    struct iovec xw_parts[%d];\n", s.nparts + 2);
    out_printf(c, "    %s xw_out;\n    %s xw_ret;\n", rt, cookie);
    int fds = s.nfds_fixed || s.nfds_list;
    if (fds)
        out_printf(c, "    int xw_fds[%d];\n    unsigned int xw_nfds = 0;\n", s.nfds_list ? 16 : s.nfds_fixed);
    out_append(c, &s.pre);
    out_printf(c, "\n");
    out_append(c, &s.body);
    if (s.direct)
        direct_send(e, t, rq);
    else
        out_printf(c,
                   "    {\n        size_t xw_total = 0;\n        for (int xw_k = 2; xw_k < %d; xw_k++)\n            "
                   "xw_total += xw_parts[xw_k].iov_len;\n",
                   s.nparts + 2);
    if (!s.direct)
        out_printf(c,
                   "        xw_ret.sequence = (unsigned int)xw__send(c, xw_flags%s%s, xw_parts + 2, &%s, xw_total, %s, "
                   "%s);\n    }\n",
                   t->reply && t->reply->has_fds ? " | XW_REQUEST_REPLY_FDS" : "",
                   t->reply && t->reply->needs_walk && layout_gap(t->reply) ? " | XW__REQUEST_REPLY_GAP" : "", rq,
                   fds ? "xw_nfds" : "0", fds ? "xw_fds" : "0");
    out_printf(c, "    return xw_ret;\n}\n");
    free(cookie), free(rt), free(bn), free(ext), free(op), free(opu), free(val), free(rq);
    free_sender(&s);
}

/* A public sender: its prototype and doc in the header, and a call of the body, after
 * the inline path where it has one. */
static void emit_sender(struct emitter *e, struct type *t, const char *fn, int checked_flag, int aux)
{
    char *cookie = t->reply ? tfunc(e, t, "cookie_t") : xstrdup("xw_void_cookie_t");
    char *bn = ifunc(t, aux ? "aux" : NULL, "send");
    struct out *h = &e->hfuncs, *c = &e->c;
    out_printf(h, "\n");
    emit_doc(h, t->doc, "");
    out_printf(h,
               "/** Sends %s%s. Never allocates. Returns a cookie whose sequence is 0 when the request\n"
               " * could not be sent (see xw_request_error_string()). */\nXW_EXPORT ",
               t->name,
               checked_flag
                   ? (t->reply ? "; errors are delivered to the reply" : "; errors are kept for xw_request_check()")
                   : (t->reply ? "; errors go to the event queue" : ""));
    signature(e, h, t, cookie, fn, aux);
    out_printf(h, ";\n");
    out_printf(c, "\n");
    signature(e, c, t, cookie, fn, aux);
    out_printf(c, "\n{\n");
    if (inline_ok(e, t, checked_flag, aux)) {
        struct sender s = {.e = e, .t = t};
        char *rt = tname(e, t);
        sender_text(&s, aux, 1);
        out_printf(c, "    %s xw_out;\n    %s xw_ret;\n", rt, cookie);
        out_append(c, &s.pre);
        out_printf(c, "\n");
        out_append(c, &s.body);
        free(rt);
        free_sender(&s);
    }
    out_printf(c, "    return %s(", bn);
    call_args(c, t);
    out_printf(c, ", %s);\n}\n", checked_flag ? "XW_REQUEST_CHECKED" : "0");
    free(cookie), free(bn);
}

static void emit_reply_fn(struct emitter *e, struct type *t)
{
    char *rn = tfunc(e, t, "reply"), *rt = tname(e, t->reply), *ck = tfunc(e, t, "cookie_t");
    out_printf(&e->hfuncs,
               "\n/** Waits for the reply; it is malloc'd and the caller frees it. On an X error returns NULL\n"
               " * and stores a malloc'd error in *e when e is not NULL. */\n"
               "XW_EXPORT %s *%s(xw_connection_t *c, %s cookie, xw_generic_error_t **e);\n",
               rt, rn, ck);
    out_printf(&e->c,
               "\n%s *%s(xw_connection_t *c, %s cookie, xw_generic_error_t **e)\n{\n"
               "    return (%s *)xw_wait_for_reply(c, cookie.sequence, e);\n}\n",
               rt, rn, ck, rt);
    if (t->reply->has_fds) {
        char *fn = tfunc(e, t, "reply_fds");
        out_printf(&e->hfuncs,
                   "\n/** The fds that came with reply; they point into it and the caller closes them. */\n"
                   "XW_EXPORT int *%s(xw_connection_t *c, %s *reply);\n",
                   fn, rt);
        out_printf(&e->c,
                   "\nint *%s(xw_connection_t *c, %s *reply)\n{\n"
                   "    return xw_get_reply_fds(c, reply, sizeof(%s) + 4 * (size_t)reply->length);\n}\n",
                   fn, rt, rt);
        free(fn);
    }
    free(rn), free(rt), free(ck);
}

/* Every reply is checked once on arrival: its counts must fit in the bytes. */
static void emit_reply_validator(struct emitter *e, struct type *t)
{
    struct type *r = t->reply;
    char *vname = ifunc(t, NULL, "reply_validate");
    if (r->needs_walk)
        emit_walker(e, r);
    out_printf(&e->c, "\nstatic int %s(const void *p, size_t len)\n{\n", vname);
    if (r->needs_walk) {
        char *w = walker_name(e, r);
        if (layout_gap(r))
            /* well-formed by the wire's layout, and libxcb's layout (sizeof, accessors)
             * stays within the zeroed slack the reply's record carries */
            out_printf(&e->c,
                       "    if (%s((const char *)p, len, -2) < 0)\n        return -1;\n"
                       "    return %s((const char *)p, len + XW_REPLY_SLACK_AFTER(len), -1) < 0 ? -1 : 0;\n}\n",
                       w, w);
        else
            out_printf(&e->c, "    long n = %s((const char *)p, len, -1);\n    return n < 0 ? -1 : 0;\n}\n", w);
        free(w);
    } else {
        out_printf(&e->c, "    (void)p;\n    return len < %d ? -1 : 0;\n}\n", r->size);
    }
    free(vname);
}

static void emit_senders(struct emitter *e, struct type *t)
{
    int aux = has_switch(t);
    emit_body(e, t, 0);
    if (aux)
        emit_body(e, t, 1);
    char *base = tfunc(e, t, NULL);
    char *alt = tfunc(e, t, t->reply ? "unchecked" : "checked");
    char *abase = tfunc(e, t, "aux");
    char *aalt = tfunc2(e, t, "aux", t->reply ? "unchecked" : "checked");
    if (!t->reply) {
        emit_sender(e, t, alt, 1, 0);
        emit_sender(e, t, base, 0, 0);
    } else {
        emit_sender(e, t, base, 1, 0);
        emit_sender(e, t, alt, 0, 0);
    }
    if (aux) {
        if (!t->reply) {
            emit_sender(e, t, aalt, 1, 1);
            emit_sender(e, t, abase, 0, 1);
        } else {
            emit_sender(e, t, abase, 1, 1);
            emit_sender(e, t, aalt, 0, 1);
        }
    }
    free(base), free(alt), free(abase), free(aalt);
}

/* A variable-size request's walker and _sizeof. */
static void emit_request_sizeof(struct emitter *e, struct type *t)
{
    emit_walker(e, t);
    char *sz = tfunc(e, t, "sizeof");
    struct wparam *wp;
    int np = walker_params(t, &wp);
    char *w = walker_name(e, t);
    out_printf(&e->hfuncs, "\n/** Size in bytes of a serialized %s request. */\nXW_EXPORT int %s(const void *_buffer",
               t->name, sz);
    out_printf(&e->c, "\nint %s(const void *_buffer", sz);
    for (int k = 0; k < np; k++) {
        out_printf(&e->hfuncs, ", %s %s", wp[k].ctype, wp[k].name);
        out_printf(&e->c, ", %s %s", wp[k].ctype, wp[k].name);
    }
    /* libxcb takes the length of a list that has none on the wire. A request's length
     * field counts that list's final padding too, so the size of the list (the last
     * field) is the caller's count, as libxcb has it; other such lengths are unused. */
    struct out unused = {0}, tail = {0};
    int stop = -1;
    for (int k = 0; k < t->nfields; k++) {
        struct field *f = t->fields[k];
        if (f->synth && !f->wire) {
            out_printf(&e->hfuncs, ", uint32_t %s", f->cname);
            out_printf(&e->c, ", uint32_t %s", f->cname);
            struct field *l = k + 1 < t->nfields ? t->fields[k + 1] : NULL;
            if (l && l->kind == FK_LIST && l->expr->kind == EX_CALCLEN && k + 2 == t->nfields && type_fixed(l->type)) {
                stop = k + 1;
                out_printf(&tail, " + (size_t)%s * %d", f->cname, l->type->size);
            } else {
                out_printf(&unused, "    (void)%s;\n", f->cname);
            }
        }
    }
    out_printf(&e->hfuncs, ");\n");
    out_printf(&e->c, ")\n{\n%s    return (int)%s%s((const char *)_buffer, SIZE_MAX, %d", unused.buf ? unused.buf : "",
               tail.buf ? "(" : "", w, stop);
    for (int k = 0; k < np; k++)
        out_printf(&e->c, ", %s", wp[k].name);
    out_printf(&e->c, ")%s%s;\n}\n", tail.buf ? tail.buf : "", tail.buf ? ")" : "");
    free(unused.buf), free(tail.buf);
    free(sz), free(w);
}

void emit_request(struct emitter *e, struct type *t)
{
    char *op = tfunc(e, t, NULL), *opu = cname_upper(op);
    if (t->reply) {
        char *ck = tfunc(e, t, "cookie_t");
        out_printf(&e->htypes,
                   "\n/** Identifies a pending %s reply. */\ntypedef struct %s {\n    unsigned int sequence;\n} %s;\n",
                   t->name, ck, ck);
        free(ck);
    }
    out_printf(&e->htypes, "\n/** Opcode for %s. */\n#define %s %d\n", t->name, opu, t->number);
    /* switch types first: the request struct does not contain them, senders need them */
    emit_switches(e, t);
    char *tn = tname(e, t);
    emit_struct_body(e, t, "struct", tn, 0);
    if (t->needs_walk)
        emit_request_sizeof(e, t);
    if (t->reply) {
        char *rn = tname(e, t->reply);
        emit_switches(e, t->reply);
        emit_struct_body(e, t->reply, "struct", rn, 0);
        free(rn);
        if (reply_checked(t))
            emit_reply_validator(e, t);
        if (t->reply->needs_walk && !t->needs_walk) {
            char *sz = tfunc(e, t, "sizeof"), *w = walker_name(e, t->reply);
            /* libxcb takes a reply's list of fds as a parameter; fds are not in the bytes */
            struct out fdp = {0}, unused = {0};
            for (int k = 0; k < t->reply->nfields; k++)
                if (t->reply->fields[k]->kind == FK_LIST && t->reply->fields[k]->isfd) {
                    out_printf(&fdp, ", int32_t %s", t->reply->fields[k]->cname);
                    out_printf(&unused, "    (void)%s;\n", t->reply->fields[k]->cname);
                }
            const char *fp = fdp.buf ? fdp.buf : "", *un = unused.buf ? unused.buf : "";
            out_printf(&e->hfuncs, "\n/** Size in bytes of a %s reply. */\nXW_EXPORT int %s(const void *_buffer%s);\n",
                       t->name, sz, fp);
            out_printf(
                &e->c,
                "\nint %s(const void *_buffer%s)\n{\n%s    return (int)%s((const char *)_buffer, SIZE_MAX, -1);\n}\n",
                sz, fp, un, w);
            free(fdp.buf), free(unused.buf);
            free(sz), free(w);
        }
    }
    emit_senders(e, t);
    if (t->reply) {
        if (t->reply->needs_walk || t->reply->has_fds)
            emit_accessors(e, t->reply, t);
        emit_reply_fn(e, t);
    } else if (t->needs_walk) {
        emit_accessors(e, t, t);
    }
    free(op), free(opu), free(tn);
}
