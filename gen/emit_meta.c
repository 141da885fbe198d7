/* SPDX-License-Identifier: MIT */
/* emit_meta.c — per-description tables: request, event and error names, generic-event validators. */
#include <stdlib.h>
#include <string.h>

#include "emit_int.h"
#include "names.h"

int max_number(const struct module *m, enum type_kind kind, int xge)
{
    int max = -1;
    for (int i = 0; i < m->ntypes; i++) {
        const struct type *t = m->types[i];
        if (t->kind == kind && (kind != TK_EVENT || t->xge == xge) && t->number > max)
            max = t->number;
    }
    return max;
}

static void name_table(struct emitter *e, const char *var, enum type_kind kind, int xge, int *count)
{
    struct module *m = e->m;
    int max = max_number(m, kind, xge);
    *count = max + 1;
    if (max < 0)
        return;
    out_printf(&e->c, "\nstatic const char *const %s[%d] = {\n", var, max + 1);
    char *done = xcalloc((size_t)max + 1, 1);
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        /* negative numbers (GLX's Generic error) and repeats keep the first name */
        if (t->kind == kind && (kind != TK_EVENT || t->xge == xge) && t->number >= 0 && !done[t->number]) {
            out_printf(&e->c, "    [%d] = \"%s\",\n", t->number, t->name);
            done[t->number] = 1;
        }
    }
    free(done);
    out_printf(&e->c, "};\n");
}

static void xge_validators(struct emitter *e, int n)
{
    struct module *m = e->m;
    out_printf(&e->c, "\n");
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->kind != TK_EVENT || !t->xge)
            continue;
        struct type *o = t->copy_of ? t->copy_of : t;
        char *w = walker_name(e, o), *fn = ifunc(t, "event", "validate");
        out_printf(&e->c,
                   "/* p is the event as stored, with full_sequence at byte 32 (len = 36 + 4 * length) */\nstatic int "
                   "%s(const void *p, size_t len)\n{\n    return %s((const char *)p, len, -1) < 0 ? -1 : 0;\n}\n",
                   fn, w);
        free(w), free(fn);
    }
    out_printf(&e->c, "\nstatic const xw_validate_fn xw__xge_validators[%d] = {\n", n);
    char *done = xcalloc((size_t)n, 1);
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->kind != TK_EVENT || !t->xge || done[t->number])
            continue;
        done[t->number] = 1;
        char *fn = ifunc(t, "event", "validate");
        out_printf(&e->c, "    [%d] = %s,\n", t->number, fn);
        free(fn);
    }
    out_printf(&e->c, "};\n");
    free(done);
}

/* Each request's private descriptor (emitted with its senders) by opcode. */
static void request_table(struct emitter *e, int n)
{
    struct module *m = e->m;
    out_printf(&e->c, "\nstatic const struct xw_request *const xw__requests[%d] = {\n", n);
    char *done = xcalloc((size_t)n, 1);
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t->kind != TK_REQUEST || t->number < 0 || done[t->number])
            continue;
        done[t->number] = 1;
        char *rq = ifunc(t, NULL, "req");
        out_printf(&e->c, "    [%d] = &%s,\n", t->number, rq);
        free(rq);
    }
    out_printf(&e->c, "};\n");
    free(done);
}

void emit_meta(struct emitter *e)
{
    int nreq, nev, nerr, nxge;
    name_table(e, "xw__request_names", TK_REQUEST, 0, &nreq);
    name_table(e, "xw__event_names", TK_EVENT, 0, &nev);
    name_table(e, "xw__error_names", TK_ERROR, 0, &nerr);
    name_table(e, "xw__xge_names", TK_EVENT, 1, &nxge);
    if (nxge)
        xge_validators(e, nxge);
    if (nreq)
        request_table(e, nreq);
    const char *desc = e->m->is_ext ? xasprintf("xw_%s_desc", e->m->header) : "xw_xproto_desc";
    out_printf(&e->c, "\n%sconst xw_ext_desc_t %s = {\n    .xname = \"%s\",\n", e->m->is_ext ? "" : "XW_EXPORT ", desc,
               e->m->is_ext ? e->m->xname : "X11");
    out_printf(&e->c, "    .request_names = %s,\n    .n_requests = %d,\n", nreq ? "xw__request_names" : "0", nreq);
    out_printf(&e->c, "    .event_names = %s,\n    .n_events = %d,\n", nev ? "xw__event_names" : "0", nev);
    out_printf(&e->c, "    .error_names = %s,\n    .n_errors = %d,\n", nerr ? "xw__error_names" : "0", nerr);
    out_printf(&e->c, "    .xge_names = %s,\n    .n_xge = %d,\n", nxge ? "xw__xge_names" : "0", nxge);
    out_printf(&e->c, "    .xge_validators = %s,\n", nxge ? "xw__xge_validators" : "0");
    out_printf(&e->c, "    .ext_name = \"%s\",\n", e->m->is_ext ? e->m->ext_name : "xproto");
    out_printf(&e->c, "    .requests = %s,\n", nreq ? "xw__requests" : "0");
    if (!e->m->is_ext) {
        out_printf(&e->c, "};\n");
        return;
    }
    /* The runtime finds an extension's description by name, in a registry each
     * description joins when its object is loaded (libxwire, or a library built
     * from these sources). */
    char *id = cname_join(e->m, (char *[]){"xw", e->m->ext_name, "id"}, 3, NULL);
    out_printf(&e->c, "    .key = &%s,\n};\n", id);
    out_printf(&e->c,
               "\nstatic struct xw_ext_reg xw__reg = { .desc = &%s };\n\n"
               "__attribute__((constructor)) static void xw__register(void)\n{\n"
               "    xw__ext_register(&xw__reg);\n}\n",
               desc);
    free(id);
}
