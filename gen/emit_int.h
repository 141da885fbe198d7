/* SPDX-License-Identifier: MIT */
/* emit_int.h — what the emitters share inside stage 3 (and the test back ends, which emit beside it):
 * the emitter's buffers, the expression context, and one function per construct. It reads the model
 * only: the earlier stages' headers stay out. Every char * returned is malloc'd, the caller's to free. */
#ifndef XWGEN_EMIT_INT_H
#define XWGEN_EMIT_INT_H

#include "model.h"
#include "out.h"

struct emitter {
    struct module *m;
    struct out htypes; /* header: types */
    struct out hfuncs; /* header: prototypes */
    struct out c;      /* source */
    struct out hpriv;  /* private header: walkers and putters the library's .c files share */
    int tmpcount;
    unsigned uses; /* EMIT_USES_*: runtime headers the source needs beyond send.h and ext.h */
};

/* The runtime's private headers a generated source includes when its code calls
 * into them: the refusal of a caller's mistake, the switch serializers' sink, the
 * write path (the inline senders). */
#define EMIT_USES_FAIL 1u
#define EMIT_USES_SINK 2u
#define EMIT_USES_OUT 4u

struct ectx {
    struct emitter *e;
    char *(*val)(struct ectx *x, struct field *f);  /* C value of a field (NULL: its C name) */
    char *(*list)(struct ectx *x, struct field *f); /* C pointer to a list's first element */
    void *data;
    struct ectx *outer;       /* inside sumof: the enclosing context */
    struct type *member;      /* inside sumof: the list element type, bound to xw_el */
    const char *param_prefix; /* how a paramref with no field is spelled: "xw_v_" in walkers */
};

/* ---- C spellings ---- */

char *tname(struct emitter *e, struct type *t);
char *tfunc(struct emitter *e, struct type *t, const char *suffix);
char *tfunc2(struct emitter *e, struct type *t, const char *a, const char *b);
char *ifunc(struct type *t, const char *a, const char *b);
char *wiretype(struct emitter *e, struct type *t);
int type_is_simple(const struct type *t);
int pad_mask(const struct type *t);
char *expr_c(struct ectx *x, struct expr *ex);
void emit_doc(struct out *o, const struct doc *d, const char *indent);

/* ---- types ---- */

void emit_enum(struct emitter *e, struct type *t);
void emit_simple(struct emitter *e, struct type *t);
void emit_struct(struct emitter *e, struct type *t);
void emit_eventstruct(struct emitter *e, struct type *t);
void emit_event(struct emitter *e, struct type *t);
void emit_error(struct emitter *e, struct type *t);
void emit_switches(struct emitter *e, struct type *t);
void emit_struct_body(struct emitter *e, struct type *t, const char *kw, const char *name, int packed);

/* ---- walkers: bounded size computation shared by _sizeof and validators ---- */

int walker_params(struct type *t, struct wparam **out);
char *walker_name(struct emitter *e, struct type *t);
/* 1 when t or a part of it has libxcb's C layout apart from the wire's */
int layout_gap(struct type *t);
void emit_walker(struct emitter *e, struct type *t);
/* 1 when f needs a local in a walker or decoder (a field a later length or switch
 * reads) and none of its kind and name is declared yet; records it in seen. */
int walk_local_new(struct field ***seen, int *nseen, struct field *f);
/* "    if (<switch value> ==/& <case values>) {" for one case of a switch; se is the
 * switch expression's C text. */
void emit_case_test(struct out *o, struct ectx *x, const char *se, const struct type *cs);
void emit_unpack(struct emitter *e, struct type *sw);

/* ---- switches ---- */

void emit_serialize(struct emitter *e, struct type *sw);
int serialize_pieces(struct type *sw);
int switch_all_fixed(struct type *sw);
void emit_switch_accessors(struct emitter *e, struct type *sw);

/* ---- accessors, requests and replies, tables ---- */

void emit_accessors(struct emitter *e, struct type *t, struct type *owner);
void emit_request(struct emitter *e, struct type *t);
int wire_fixed_size(struct type *t);
void emit_meta(struct emitter *e);
/* The highest number a request, event (core when xge is 0, generic when 1) or error of
 * kind has in m, or -1 when it has none: the size of a table indexed by number. */
int max_number(const struct module *m, enum type_kind kind, int xge);

#endif
