/* SPDX-License-Identifier: MIT */
/* fixes.h — corrections to xcb-proto's descriptions, applied to the node tree after it is read and
 * before the model is built from it. */
#ifndef XWGEN_FIXES_H
#define XWGEN_FIXES_H

struct xnode;

/* Applies the corrections that concern root's description; stops when one no longer applies. */
void description_fixes(struct xnode *root);

#endif
