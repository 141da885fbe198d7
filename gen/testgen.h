/* testgen.h — xwgen-test's back ends: files the test suites build against libxcb, from the shared model. */
#ifndef XWGEN_TESTGEN_H
#define XWGEN_TESTGEN_H

#include "emit.h"

void emit_layout(struct module *m, struct out *c, struct out *cc);
void emit_conform(struct module *m, struct out *out);
void emit_decode(struct module *m, struct out *out);

/* --decode: builders of valid random values (emit_decode.c) and comparisons of
 * the _sizeof/_unpack/_serialize helpers with libxcb's (emit_helpcmp.c) */
struct dstate {
    struct emitter *e;
    struct out *o;    /* the builder being written */
    struct out *done; /* names of builders already written */
    struct out *top;  /* finished builders and comparisons, each after the ones it calls */
};
struct hcases {
    struct dstate *d;
    struct out *cases, *tab; /* case functions, and their table entries */
    struct out *done;        /* comparison functions already written */
    struct out *names, *named; /* table of every compared helper, and its keys */
};
char *decode_builder(struct dstate *d, struct type *t);
long long case_const(struct expr *x);
void helper_cases(struct hcases *hc, struct type *t);
char *helper_reply(struct hcases *hc, struct type *req);
char *helper_event(struct hcases *hc, struct type *ev);

#endif
