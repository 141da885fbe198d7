/* SPDX-License-Identifier: MIT */
/* xml.c — stage 1, first half: an xcb-proto XML file read with expat into a tree of nodes, each with its
 * file:line. */
#include <ctype.h>
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml.h"

struct xml_state {
    XML_Parser p;
    const char *file;
    struct xnode **stack;
    int depth;
    struct xnode *root;
    char *text;
    size_t textlen;
};

const char *xattr(const struct xnode *n, const char *name)
{
    for (char **a = n->attrs; a && *a; a += 2)
        if (!strcmp(a[0], name))
            return a[1];
    return NULL;
}

static void on_start(void *ud, const XML_Char *tag, const XML_Char **attrs)
{
    struct xml_state *s = ud;
    struct xnode *n = xcalloc(1, sizeof(*n));
    n->loc.file = s->file;
    n->loc.line = (int)XML_GetCurrentLineNumber(s->p);
    n->tag = xstrdup(tag);
    int na = 0;
    while (attrs[na])
        na++;
    n->attrs = xcalloc((size_t)na + 1, sizeof(char *));
    for (int i = 0; i < na; i++)
        n->attrs[i] = xstrdup(attrs[i]);
    if (s->depth > 0) {
        struct xnode *parent = s->stack[s->depth - 1];
        PUSH(parent->kids, parent->nkids, n);
    } else {
        s->root = n;
    }
    s->stack = xrealloc(s->stack, sizeof(*s->stack) * (size_t)(s->depth + 1));
    s->stack[s->depth++] = n;
    s->textlen = 0;
}

static char *trimmed(const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s))
        s++, len--;
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    char *r = xmalloc(len + 1);
    memcpy(r, s, len);
    r[len] = 0;
    return r;
}

static void on_end(void *ud, const XML_Char *tag)
{
    struct xml_state *s = ud;
    (void)tag;
    struct xnode *n = s->stack[--s->depth];
    if (!n->nkids || s->textlen)
        n->text = trimmed(s->text ? s->text : "", s->textlen);
    s->textlen = 0;
}

static void on_text(void *ud, const XML_Char *txt, int len)
{
    struct xml_state *s = ud;
    s->text = xrealloc(s->text, s->textlen + (size_t)len + 1);
    memcpy(s->text + s->textlen, txt, (size_t)len);
    s->textlen += (size_t)len;
}

struct xnode *xml_load(const char *path)
{
    struct loc loc = {path, 0};
    FILE *f = fopen(path, "rb");
    if (!f)
        fail(loc, "cannot open: %m");
    struct xml_state s = {.file = xstrdup(path)};
    s.p = XML_ParserCreate(NULL);
    XML_SetUserData(s.p, &s);
    XML_SetElementHandler(s.p, on_start, on_end);
    XML_SetCharacterDataHandler(s.p, on_text);
    char buf[65536];
    size_t n;
    do {
        n = fread(buf, 1, sizeof(buf), f);
        if (XML_Parse(s.p, buf, (int)n, n == 0) == XML_STATUS_ERROR) {
            loc.line = (int)XML_GetCurrentLineNumber(s.p);
            fail(loc, "%s", XML_ErrorString(XML_GetErrorCode(s.p)));
        }
    } while (n > 0);
    fclose(f);
    XML_ParserFree(s.p);
    if (!s.root || strcmp(s.root->tag, "xcb"))
        fail(s.root ? s.root->loc : loc, "root element must be <xcb>");
    free(s.stack);
    free(s.text);
    return s.root;
}
