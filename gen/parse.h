/* SPDX-License-Identifier: MIT */
/* parse.h — stage 1, second half: a description's node tree into the plain model. */
#ifndef XWGEN_PARSE_H
#define XWGEN_PARSE_H

#include "model.h"

/* Builds m's types, imports and counts from m->root. Imports are named, not loaded. */
void model_build(struct module *m);

#endif
