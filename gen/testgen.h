/* SPDX-License-Identifier: MIT */
/* testgen.h — xwgen-test's back ends: files the test suites build against libxcb, from the shared model. */
#ifndef XWGEN_TESTGEN_H
#define XWGEN_TESTGEN_H

#include "model.h"
#include "out.h"

/* Each writes into outputs empty on entry. */
void emit_layout(struct module *m, struct out *c, struct out *cc);
void emit_conform(struct module *m, struct out *out);
void emit_decode(struct module *m, struct out *out);

#endif
