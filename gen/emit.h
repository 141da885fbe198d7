/* SPDX-License-Identifier: MIT */
/* emit.h — stage 3's entry points: the xwire binding of a resolved description and its man
 * pages. They read the model only, never the XML. */
#ifndef XWGEN_EMIT_H
#define XWGEN_EMIT_H

#include "model.h"
#include "out.h"

/* The header, the source and the private header of m's binding, into *head, *src and *priv (empty on entry). */
void emit_module(struct module *m, struct out *head, struct out *src, struct out *priv);
/* One roff page per request of m, and alias pages, into dir. */
void emit_man(struct module *m, const char *dir);
/* The protocol tracer's decoders of m's requests, replies, events and errors. */
void emit_trace(struct module *m, struct out *out);

#endif
