/* SPDX-License-Identifier: MIT */
/* size.h — sizes of resolved types and fields: on the wire, and as the C structs the generator declares. */
#ifndef XWGEN_SIZE_H
#define XWGEN_SIZE_H

#include "model.h"

int type_fixed(const struct type *t);
int field_fixed(const struct field *f);
/* Bytes a fixed field takes on the wire (0 for fds). */
int field_size(const struct field *f);
/* Size of t's C struct (natural alignment), and whether libxcb packs it. */
int c_size(const struct type *t);
int c_packed(const struct type *t);

#endif
