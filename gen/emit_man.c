/* SPDX-License-Identifier: MIT */
/* emit_man.c — man pages: one roff page per request from its <doc> text and its declarations, plus alias pages. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emit.h"
#include "emit_int.h"

/* A function the header declares for a request: its prototype and its name. */
struct proto {
    char *decl;
    char *name;
};

struct page {
    struct emitter *e;
    struct type *t;
    struct out o;
    struct proto *protos; /* [0] is the request function: the page's name */
    int nprotos;
};

/* ---- text ---- */

static int ident_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* The descriptions name libxcb's API; xwire's is the same with xw_ for xcb_ (the
 * project's rename), so the text is renamed as a port would be. */
static int xcb_prefix(const char *s, const char *p)
{
    return (p == s || !ident_char(p[-1])) && (!strncmp(p, "xcb_", 4) || !strncmp(p, "XCB_", 4));
}

/* One line of text as roff input. Prose turns `name` into italics; code is kept as
 * written (it goes in a no-fill block). Backslashes are printed, never interpreted. */
static void roff_line(struct out *o, const char *s, const char *end, int prose)
{
    int italic = 0;
    if (*s == '.' || *s == '\'')
        out_printf(o, "\\&");
    for (const char *p = s; p < end; p++) {
        if (xcb_prefix(s, p)) {
            out_printf(o, "%s", *p == 'x' ? "xw_" : "XW_");
            p += 3;
        } else if (*p == '\\')
            out_printf(o, "\\e");
        else if (*p == '`' && prose)
            out_printf(o, "%s", (italic = !italic) ? "\\fI" : "\\fP");
        else if (*p == '\t')
            out_printf(o, "    ");
        else
            out_printf(o, "%c", *p);
    }
    if (italic)
        out_printf(o, "\\fP");
    out_printf(o, "\n");
}

/* Paragraphs of prose: a blank line starts a new one. */
static void roff_prose(struct out *o, const char *text)
{
    int blank = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q == end) {
            blank = 1;
        } else {
            if (blank)
                out_printf(o, ".PP\n");
            blank = 0;
            roff_line(o, q, end, 1);
        }
        p = nl ? nl + 1 : end;
    }
}

static void roff_code(struct out *o, const char *text)
{
    out_printf(o, ".PP\n.RS 4\n.nf\n");
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        roff_line(o, p, end, 0);
        p = nl ? nl + 1 : end;
    }
    out_printf(o, ".fi\n.RE\n");
}

/* ---- the model ---- */

/* A named type of one kind, in m or what it imports. */
static struct type *find_kind(struct module *m, const char *name, enum type_kind kind, int depth)
{
    const char *colon = strchr(name, ':');
    if (colon)
        name = colon + 1;
    for (int i = 0; i < m->ntypes; i++)
        if (m->types[i]->kind == kind && m->types[i]->name && !strcmp(m->types[i]->name, name))
            return m->types[i];
    for (int i = 0; depth < 16 && i < m->nimports; i++) {
        struct type *t = find_kind(m->imports[i].mod, name, kind, depth + 1);
        if (t)
            return t;
    }
    return NULL;
}

static const char *doc_field(const struct doc *d, const char *name)
{
    for (int i = 0; d && i < d->nfields; i++)
        if (!strcmp(d->fnames[i], name))
            return d->ftexts[i];
    return NULL;
}

/* The senders and the reply function: the names the NAME line lists. The accessors
 * (up to 76 characters) would not fit it; their .so pages find this page all the same. */
static int main_function(const char *base, const char *name)
{
    static const char *const suffixes[] = {"",      "_checked", "_unchecked", "_aux", "_aux_checked", "_aux_unchecked",
                                           "_reply"};
    size_t n = strlen(base);
    if (strncmp(name, base, n))
        return 0;
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
        if (!strcmp(name + n, suffixes[i]))
            return 1;
    return 0;
}

/* One "XW_EXPORT ret name(params);" line of the header, as a prototype. */
static struct proto read_proto(struct type *t, const char *line, size_t n)
{
    char *decl = strndup(line + 10, n - 10), *paren = strchr(decl, '(');
    size_t len = strlen(decl);
    /* a prototype spread over lines would be cut short here: refuse it */
    if (!paren || len < 2 || strcmp(decl + len - 2, ");"))
        fail(t->loc, "man page: cannot read the prototype '%s'", decl);
    char *start = paren;
    while (start > decl && ident_char(start[-1]))
        start--;
    return (struct proto){decl, strndup(start, (size_t)(paren - start))};
}

/* The request function first (it names the page), then the other senders and the
 * reply function, then the rest, each group in the header's order. */
static void order_protos(struct page *pg, const char *base)
{
    struct proto *sorted = xcalloc((size_t)pg->nprotos, sizeof(*sorted));
    int n = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < pg->nprotos; i++) {
            int rank = !strcmp(pg->protos[i].name, base) ? 0 : main_function(base, pg->protos[i].name) ? 1 : 2;
            if (rank == pass)
                sorted[n++] = pg->protos[i];
        }
    if (!n || strcmp(sorted[0].name, base))
        fail(pg->t->loc, "man page: the header declares no %s", base);
    free(pg->protos);
    pg->protos = sorted;
}

/* The request's functions, exactly as its header declares them: the request is
 * emitted into a scratch emitter and its exported prototypes are read back, so the
 * page cannot drift from the header (senders, _sizeof, accessors, reply, reply fds). */
static void collect_protos(struct page *pg)
{
    struct emitter scratch = {.m = pg->e->m};
    emit_request(&scratch, pg->t);
    for (char *p = scratch.hfuncs.buf; p && *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (!strncmp(p, "XW_EXPORT ", 10)) {
            struct proto pr = read_proto(pg->t, p, n);
            PUSH(pg->protos, pg->nprotos, pr);
        }
        p = nl ? nl + 1 : p + n;
    }
    char *base = tfunc(pg->e, pg->t, NULL);
    order_protos(pg, base);
    free(base);
    free(scratch.htypes.buf), free(scratch.hfuncs.buf), free(scratch.c.buf), free(scratch.hpriv.buf);
}

/* ---- sections ---- */

static void man_head(struct page *pg)
{
    struct type *t = pg->t;
    struct module *m = pg->e->m;
    out_printf(&pg->o, ".\\\" %s(3) \\(em generated by xwgen from %s.xml; do not edit.\n", pg->protos[0].name,
               m->header);
    out_printf(&pg->o, ".TH %s 3 \"\" \"xwire\" \"xwire protocol requests\"\n.ad l\n.nh\n.SH NAME\n",
               pg->protos[0].name);
    for (int i = 0, n = 0; i < pg->nprotos; i++)
        if (main_function(pg->protos[0].name, pg->protos[i].name))
            out_printf(&pg->o, "%s%s", n++ ? ", " : "", pg->protos[i].name);
    if (t->doc && t->doc->brief && *t->doc->brief) {
        out_printf(&pg->o, " \\- ");
        roff_line(&pg->o, t->doc->brief, t->doc->brief + strlen(t->doc->brief), 1);
    } else if (m->is_ext) {
        out_printf(&pg->o, " \\- send the %s extension's %s request\n", m->ext_name, t->name);
    } else {
        out_printf(&pg->o, " \\- send the X11 %s request\n", t->name);
    }
}

/* "ret \fBname\fP(params);" as no-fill text wrapped by hand after commas: names of up
 * to 76 characters do not fit a filled line, and groff warns about those it cannot break. */
static void man_proto(struct out *o, const struct proto *pr)
{
    const char *paren = strchr(pr->decl, '(');
    int lead = (int)(paren - pr->decl) - (int)strlen(pr->name);
    out_printf(o, ".PP\n.nf\n%.*s\\fB%s\\fP(", lead, pr->decl, pr->name);
    size_t col = (size_t)(paren - pr->decl) + 1;
    for (const char *p = paren + 1; *p;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma + 1 : p + strlen(p);
        if (col + (size_t)(end - p) > 72 && col > 8) {
            out_printf(o, "\n    ");
            col = 4;
            p += *p == ' ';
        }
        out_printf(o, "%.*s", (int)(end - p), p);
        col += (size_t)(end - p);
        p = end;
    }
    out_printf(o, "\n.fi\n");
}

static void man_synopsis(struct page *pg)
{
    struct out *o = &pg->o;
    out_printf(o,
               ".SH SYNOPSIS\n.nf\n.B #include <xw/%s.h>\n.fi\n.PP\nLink with \\fB\\-lxwire\\fP "
               "(\\fBpkg\\-config \\-\\-libs xwire\\fP).\n.SS Functions\n",
               pg->e->m->header);
    for (int i = 0; i < pg->nprotos; i++)
        man_proto(o, &pg->protos[i]);
    if (!pg->t->reply)
        return;
    struct emitter scratch = {.m = pg->e->m};
    char *rn = tname(pg->e, pg->t->reply);
    emit_struct_body(&scratch, pg->t->reply, "struct", rn, 0);
    out_printf(o, ".SS Reply\nThe fixed part of the reply, as the reply function returns it");
    out_printf(o, "%s:\n",
               pg->t->reply->needs_walk ? "; its lists follow it and are read with the accessors above" : "");
    roff_code(o, scratch.htypes.buf + 1);
    free(rn), free(scratch.htypes.buf);
}

static void man_what(struct page *pg)
{
    struct type *t = pg->t;
    struct module *m = pg->e->m;
    struct out *o = &pg->o;
    out_printf(o, ".SH DESCRIPTION\n");
    if (t->doc && t->doc->description && *t->doc->description) {
        roff_prose(o, t->doc->description);
        out_printf(o, ".PP\n");
    }
    if (m->is_ext)
        out_printf(o,
                   "\\fB%s\\fP sends the %s request of the %s extension (extension name \\fB%s\\fP, "
                   "minor opcode %d). ",
                   pg->protos[0].name, t->name, m->ext_name, m->xname, t->number);
    else
        out_printf(o, "\\fB%s\\fP sends the %s request of the core protocol (opcode %d). ", pg->protos[0].name, t->name,
                   t->number);
    out_printf(o, "Sending copies the request into the connection's buffer without allocating; it goes to the "
                  "server when the buffer fills, on \\fBxw_flush\\fP(), or when the client waits for an answer.\n");
    if (t->reply)
        out_printf(o,
                   ".PP\nThe reply is claimed with \\fB%s_reply\\fP(), which flushes and waits. The plain form "
                   "delivers an X error to the reply function; the \\fB_unchecked\\fP form puts it in the "
                   "event queue. A reply whose counts overrun its length comes back as an error with code "
                   "\\fBXW_ERROR_MALFORMED_REPLY\\fP, so the accessors never read past it. "
                   "\\fBxw_wait_for_reply_into\\fP() copies the reply into caller storage instead of "
                   "allocating.\n",
                   pg->protos[0].name);
    else
        out_printf(o, ".PP\nThe request has no reply. An X error from the plain form arrives as an event; the "
                      "\\fB_checked\\fP form keeps it for \\fBxw_request_check\\fP().\n");
}

/* One argument or reply field: its documentation, else what the model knows. */
static void man_field(struct page *pg, struct field *f)
{
    struct out *o = &pg->o;
    const char *text = doc_field(pg->t->doc, f->name);
    out_printf(o, ".TP\n.I %s\n", f->cname);
    if (text && *text) {
        roff_prose(o, text);
        return;
    }
    const char *ref = f->enum_ref ? f->enum_ref : f->mask_ref ? f->mask_ref : f->altenum;
    struct type *en = ref ? find_kind(pg->e->m, ref, TK_ENUM, 0) : NULL;
    char *tn = f->kind == FK_SWITCH ? xstrdup("values selected by the mask")
               : f->kind == FK_FD   ? xstrdup("a file descriptor")
                                    : tname(pg->e, f->type);
    if (f->kind == FK_LIST)
        out_printf(o, "A list of \\fB%s\\fP", tn);
    else if (f->kind == FK_SWITCH || f->kind == FK_FD)
        out_printf(o, "%c%s", tn[0] - 'a' + 'A', tn + 1);
    else
        out_printf(o, "Type \\fB%s\\fP", tn);
    if (en) {
        char *ec = tname(pg->e, en);
        out_printf(o, "; %s \\fB%s\\fP %s",
                   f->mask_ref  ? "a mask of"
                   : f->altenum ? "may also be one of the"
                                : "one of the",
                   ec, f->mask_ref ? "bits" : "values");
        free(ec);
    }
    out_printf(o, ".\n");
    free(tn);
}

static void man_fields(struct page *pg)
{
    struct out *o = &pg->o;
    out_printf(o, ".SH ARGUMENTS\n.TP\n.I c\nThe connection.\n");
    for (int i = 0; i < pg->t->nfields; i++)
        if (pg->t->fields[i]->visible)
            man_field(pg, pg->t->fields[i]);
    struct type *r = pg->t->reply;
    if (!r)
        return;
    out_printf(o, ".SH REPLY FIELDS\n");
    int n = 0;
    for (int i = 0; i < r->nfields; i++) {
        struct field *f = r->fields[i];
        if (f->kind == FK_PAD || f->autof || !f->wire)
            continue;
        man_field(pg, f);
        n++;
    }
    if (!n)
        out_printf(o, "The reply carries nothing beyond its header.\n");
}

static void man_result(struct page *pg)
{
    struct out *o = &pg->o;
    out_printf(o, ".SH RETURN VALUE\nThe senders return a cookie. Its sequence is 0 when the request could not be "
                  "sent (longer than the server accepts even with BIG\\-REQUESTS, an extension the server "
                  "lacks, or a connection error); \\fBxw_request_error_string\\fP() then says why, and the "
                  "connection stays usable.\n");
    if (pg->t->reply)
        out_printf(o,
                   ".PP\n\\fB%s_reply\\fP() returns the reply, which the caller frees with \\fBfree\\fP(3), "
                   "or NULL; on an X error it stores a malloc'd error in \\fI*e\\fP when \\fIe\\fP is not NULL, "
                   "which the caller frees too.%s\n",
                   pg->protos[0].name,
                   pg->t->reply->needs_walk ? " The accessors return pointers into the reply." : "");
    out_printf(o, ".SH ERRORS\n");
    const struct doc *d = pg->t->doc;
    if (!d || !d->nerrors) {
        out_printf(o, "The protocol description lists no errors for this request.\n");
        return;
    }
    for (int i = 0; i < d->nerrors; i++) {
        struct type *et = find_kind(pg->e->m, d->etypes[i], TK_ERROR, 0);
        char *en = et ? tname(pg->e, et) : xstrdup(d->etypes[i]);
        out_printf(o, ".TP\n.B %s\n", en);
        roff_prose(o, d->etexts[i]);
        free(en);
    }
}

static void man_example(struct page *pg)
{
    const struct doc *d = pg->t->doc;
    if (!d || !d->example || !*d->example)
        return;
    out_printf(&pg->o, ".SH EXAMPLE\n");
    roff_code(&pg->o, d->example);
}

/* A see-also entry: requests have pages here, programs in section 1. */
static void see_one(struct page *pg, const char *type, const char *name, struct loc loc)
{
    struct out *o = &pg->o;
    const char *comma = ","; /* xw_errors(3) ends the list */
    if (!strcmp(type, "request")) {
        struct type *rq = find_kind(pg->e->m, name, TK_REQUEST, 0);
        if (!rq)
            fail(loc, "<see> names an unknown request %s", name);
        char *fn = tfunc(pg->e, rq, NULL);
        out_printf(o, ".BR %s (3)%s\n", fn, comma);
        free(fn);
    } else if (!strcmp(type, "event")) {
        struct type *ev = find_kind(pg->e->m, name, TK_EVENT, 0);
        char *en = ev ? tname(pg->e, ev) : xstrdup(name);
        out_printf(o, ".B %s\n(event)%s\n", en, comma);
        free(en);
    } else if (!strcmp(type, "program")) {
        out_printf(o, ".BR %s (1)%s\n", name, comma);
    } else {
        struct out n = {0};
        roff_line(&n, name, name + strlen(name), 0);
        n.buf[n.len - 1] = 0;
        /* the runtime's functions (xw_generate_id) have no pages of their own */
        out_printf(o, ".BR %s ()%s\n", n.buf, comma);
        free(n.buf);
    }
}

static void man_see(struct page *pg)
{
    const struct doc *d = pg->t->doc;
    struct out *o = &pg->o;
    out_printf(o, ".SH SEE ALSO\n");
    for (int i = 0; d && i < d->nsees; i++)
        see_one(pg, d->seetypes[i], d->seenames[i], d->seelocs[i]);
    out_printf(o, ".BR xw_errors (3)\n.SH SOURCE\nGenerated by xwgen from the xcb\\-proto description %s.xml.\n",
               pg->e->m->header);
}

/* ---- files ---- */

static void write_page(const char *dir, const char *name, const char *text, struct loc loc)
{
    char *path = xasprintf("%s/%s.3", dir, name);
    /* "x": two pages of one name would be two C functions of one name */
    FILE *f = fopen(path, "wx");
    if (!f)
        fail(loc, "cannot write %s: %s", path, strerror(errno));
    if (fputs(text, f) < 0 || fclose(f))
        fail(loc, "cannot write %s: %s", path, strerror(errno));
    free(path);
}

/* A page the generator wrote earlier may name a request that is gone: the directory
 * is xwgen's alone, so its pages are removed once per run before any is written. */
static void clear_dir(const char *dir)
{
    static int cleared;
    struct loc loc = {dir, 0};
    if (cleared++)
        return;
    if (mkdir(dir, 0777) && errno != EEXIST)
        fail(loc, "cannot create: %s", strerror(errno));
    DIR *d = opendir(dir);
    if (!d)
        fail(loc, "cannot open: %s", strerror(errno));
    for (struct dirent *de; (de = readdir(d));) {
        size_t n = strlen(de->d_name);
        if (n > 2 && !strcmp(de->d_name + n - 2, ".3") && unlinkat(dirfd(d), de->d_name, 0))
            fail(loc, "cannot remove %s: %s", de->d_name, strerror(errno));
    }
    closedir(d);
}

static void emit_page(struct emitter *e, struct type *t, const char *dir)
{
    struct page pg = {.e = e, .t = t};
    collect_protos(&pg);
    man_head(&pg);
    man_synopsis(&pg);
    man_what(&pg);
    man_fields(&pg);
    man_result(&pg);
    man_example(&pg);
    man_see(&pg);
    write_page(dir, pg.protos[0].name, pg.o.buf, t->loc);
    /* every other function of the request finds this page (man-db follows .so) */
    char *so = xasprintf(".so man3/%s.3\n", pg.protos[0].name);
    for (int i = 1; i < pg.nprotos; i++)
        write_page(dir, pg.protos[i].name, so, t->loc);
    for (int i = 0; i < pg.nprotos; i++)
        free(pg.protos[i].decl), free(pg.protos[i].name);
    free(so), free(pg.protos), free(pg.o.buf);
}

/* One page per request of m, in dir (created if missing). */
void emit_man(struct module *m, const char *dir)
{
    struct emitter e = {.m = m};
    clear_dir(dir);
    for (int i = 0; i < m->ntypes; i++)
        if (m->types[i]->kind == TK_REQUEST)
            emit_page(&e, m->types[i], dir);
}
