/* SPDX-License-Identifier: MIT */
/* xml.h — stage 1, first half: an XML file as a tree of nodes. */
#ifndef XWGEN_XML_H
#define XWGEN_XML_H

#include "diag.h"

struct xnode {
    struct loc loc;
    char *tag;
    char **attrs; /* name, value, name, value, ..., NULL */
    char *text;   /* concatenated character data, trimmed */
    struct xnode **kids;
    int nkids;
};

/* The tree of the file at path, its root an <xcb> element; stops with file:line on any error. */
struct xnode *xml_load(const char *path);
/* The value of n's attribute name, or NULL. */
const char *xattr(const struct xnode *n, const char *name);

#endif
