/* SPDX-License-Identifier: MIT */
/* fixes.c — corrections to xcb-proto's descriptions where they disagree with the protocol specification,
 * applied to the XML tree before the model is built. */
#include <stdlib.h>
#include <string.h>

#include "fixes.h"
#include "xml.h"

/* Each: in description `header`, inside request `request`, the list `list` is
 * followed by the padding the protocol has and the XML lacks. Why, each time:
 *
 * XKB SetMap: the specification's encoding pads the explicit components and the
 * modifier map to a multiple of 4 ("p unused, p=pad(2n)"), and the X server reads
 * them so (xkb.c, CheckKeyExplicit and CheckModifierMap); xkb.xml has no pad
 * there, so an odd count was sent 2 bytes short and refused with BadLength (seen
 * against Xvfb 21.1.7). GetMap's reply already has these pads. */
static const struct {
    const char *header, *request, *list;
} pad_after[] = {
    {"xkb", "SetMap", "explicit"},
    {"xkb", "SetMap", "modmap"},
};

static struct xnode *find_tag_name(struct xnode *n, const char *tag, const char *name)
{
    const char *nm = xattr(n, "name");
    if (!strcmp(n->tag, tag) && nm && !strcmp(nm, name))
        return n;
    for (int i = 0; i < n->nkids; i++) {
        struct xnode *r = find_tag_name(n->kids[i], tag, name);
        if (r)
            return r;
    }
    return NULL;
}

/* The node whose kid is `kid`, below n. */
static struct xnode *parent_of(struct xnode *n, struct xnode *kid, int *index)
{
    for (int i = 0; i < n->nkids; i++) {
        if (n->kids[i] == kid) {
            *index = i;
            return n;
        }
        struct xnode *r = parent_of(n->kids[i], kid, index);
        if (r)
            return r;
    }
    return NULL;
}

static struct xnode *align4_pad(struct loc loc)
{
    struct xnode *p = xcalloc(1, sizeof(*p));
    p->loc = loc;
    p->tag = xstrdup("pad");
    p->attrs = xcalloc(3, sizeof(char *));
    p->attrs[0] = xstrdup("align");
    p->attrs[1] = xstrdup("4");
    p->text = xstrdup("");
    return p;
}

/* A correction that no longer finds its place, or finds the pad already there
 * (xcb-proto fixed), stops the generator: it must then be removed. */
static void insert_pad(struct xnode *root, const char *request, const char *list)
{
    struct xnode *rq = find_tag_name(root, "request", request);
    struct xnode *l = rq ? find_tag_name(rq, "list", list) : NULL;
    if (!l)
        fail(root->loc, "description fix: request %s has no list %s", request, list);
    int at = 0;
    struct xnode *up = parent_of(rq, l, &at);
    if (at + 1 < up->nkids && !strcmp(up->kids[at + 1]->tag, "pad"))
        fail(l->loc, "description fix: %s %s is already padded; remove the fix", request, list);
    up->kids = xrealloc(up->kids, sizeof(*up->kids) * (size_t)(up->nkids + 1));
    memmove(up->kids + at + 2, up->kids + at + 1, sizeof(*up->kids) * (size_t)(up->nkids - at - 1));
    up->kids[at + 1] = align4_pad(l->loc);
    up->nkids++;
}

void description_fixes(struct xnode *root)
{
    const char *header = xattr(root, "header");
    for (size_t i = 0; header && i < sizeof(pad_after) / sizeof(pad_after[0]); i++)
        if (!strcmp(pad_after[i].header, header))
            insert_pad(root, pad_after[i].request, pad_after[i].list);
}
