/* SPDX-License-Identifier: MIT */
/* testgen_int.h — inside xwgen-test --decode: the builders that the decode cases
 * and the helper comparisons both call. */
#ifndef XWGEN_TESTGEN_INT_H
#define XWGEN_TESTGEN_INT_H

#include "emit_int.h"

struct dstate {
    struct emitter *e;
    struct out *o;    /* the builder being written */
    struct out *done; /* names of builders already written */
    struct out *top;  /* finished builders and comparisons, each after the ones it calls */
};
struct hcases {
    struct dstate *d;
    struct out *cases, *tab;   /* case functions, and their table entries */
    struct out *done;          /* comparison functions already written */
    struct out *names, *named; /* table of every compared helper, and its keys */
};

/* ---- builders ---- */

/* The name of t's builder, which writes a valid random value of t; written into d->top first if new. */
char *decode_builder(struct dstate *d, struct type *t);
/* The value of a <case> expression (a number or an enum item). */
long long case_const(struct expr *x);

/* ---- comparisons of the _sizeof/_unpack/_serialize helpers with libxcb's ---- */

void helper_cases(struct hcases *hc, struct type *t);
char *helper_reply(struct hcases *hc, struct type *req);
char *helper_event(struct hcases *hc, struct type *ev);

#endif
