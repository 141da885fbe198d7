/* SPDX-License-Identifier: MIT */
/* resolve.h — stage 2: references, protocol header fields, sizes, length fields. */
#ifndef XWGEN_RESOLVE_H
#define XWGEN_RESOLVE_H

#include "model.h"

/* Resolves m after the modules it imports; once per module. */
void module_resolve(struct module *m);

#endif
