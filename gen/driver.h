/* SPDX-License-Identifier: MIT */
/* driver.h — what xwgen and xwgen-test share around the stages. */
#ifndef XWGEN_DRIVER_H
#define XWGEN_DRIVER_H

#include "model.h"
#include "out.h"

/* "dir/name.xml": loads name (and what it imports, from incdir, else from dir) into w and resolves it. */
struct module *load_description(struct world *w, const char *incdir, const char *path);
/* Writes o to path (dir/path when dir is not NULL), or stops with path's error. Frees o. */
void write_out(const char *dir, const char *path, struct out *o);

#endif
