/* model.h — xwgen's plain model of an xcb-proto description: XML nodes, types, fields, expressions. */
#ifndef XWGEN_MODEL_H
#define XWGEN_MODEL_H

#include <stddef.h>
#include <stdio.h>

struct loc {
    const char *file;
    int line;
};

/* ---- stage 0: the XML as a tree (parse.c) ---- */

struct xnode {
    struct loc loc;
    char *tag;
    char **attrs; /* name, value, name, value, ..., NULL */
    char *text;   /* concatenated character data, trimmed */
    struct xnode **kids;
    int nkids;
};

const char *xattr(const struct xnode *n, const char *name);

/* ---- stage 1: the model ---- */

enum expr_kind {
    EX_NUM,
    EX_FIELDREF,
    EX_PARAMREF,
    EX_OP,
    EX_UNOP,
    EX_SUMOF,
    EX_POPCOUNT,
    EX_ENUMREF,
    EX_LISTELEM,
    EX_CALCLEN, /* list with no length: derived from the request/reply length */
};

struct field;
struct type;

struct expr {
    enum expr_kind kind;
    struct loc loc;
    long long num;
    char *name;         /* fieldref/paramref/sumof list name, enumref item */
    char *ref;          /* enumref: enum type name; paramref: type name */
    char op[3];         /* "+", "-", "*", "/", "&", "<<", "~" */
    struct expr *a, *b; /* operands; sumof/popcount: a = inner expression (may be NULL) */
    /* resolved */
    struct field *field;  /* fieldref / sumof target, paramref source when found */
    struct type *reftype; /* enumref enum, paramref type */
};

enum field_kind {
    FK_FIELD,
    FK_PAD,
    FK_LIST,
    FK_EXPRFIELD,
    FK_SWITCH,
    FK_FD,
};

struct field {
    enum field_kind kind;
    struct loc loc;
    char *name;   /* XML name ("pad0" for pads) */
    char *cname;  /* C name, libxcb's (class -> _class) */
    char *cxxname; /* the C++ spelling when cname is a C++ keyword (explicit -> _explicit), else NULL */
    char *tyname; /* XML type reference */
    struct type *type;
    struct expr *expr; /* list length, exprfield value */
    int pad_bytes, pad_align, pad_serialize;
    char *enum_ref, *mask_ref, *altenum;
    struct type *sw; /* FK_SWITCH */
    /* xcbgen-compatible roles */
    int visible; /* a parameter of the request function */
    int wire;    /* present in the bytes */
    int autof;   /* filled by the library (opcode, length) */
    int isfd;    /* an fd, or a list of fds: not in the bytes */
    int synth;   /* a length parameter xwgen added for a list without a length field */
    int nmemb;   /* fixed element count (1 for scalars, N for fixed lists), 0 variable */
    int referenced; /* some expression reads this field */
    struct type *owner;
};

enum type_kind {
    TK_PRIM,
    TK_XID,
    TK_XIDUNION,
    TK_TYPEDEF,
    TK_ENUM,
    TK_STRUCT,
    TK_UNION,
    TK_EVENTSTRUCT,
    TK_EVENT,
    TK_ERROR,
    TK_REQUEST,
    TK_REPLY,
    TK_SWITCH,
    TK_CASE,
};

struct enum_item {
    char *name;
    char *value; /* "" when the description gives none */
    struct loc loc;
};

struct module;

/* counts of each construct, reported by main.c */
struct counts {
    int request, reply, event, eventcopy, error, errorcopy, struct_, union_, eventstruct, xidtype, xidunion,
        typedef_, enum_, switch_, bitcase, case_, list, exprfield, fd, pad, required_start_align, import,
        fieldref, paramref, op, unop, sumof, popcount, enumref, listelement_ref, xge_event, noseq_event;
};

struct doc {
    char *brief;
    char *description;
    char **fnames, **ftexts; /* <field name=...> docs */
    int nfields;
    char **etypes, **etexts; /* <error type=...> docs: the error and when it happens */
    int nerrors;
    char **seetypes, **seenames; /* <see type="request|event|function|program" name=...> */
    struct loc *seelocs;
    int nsees;
    char *example; /* C code, as the description's authors wrote it for a man page */
};

/* a value a walker takes from outside the type it walks */
struct wparam {
    char *name;  /* C name of the value inside the walker */
    char *ctype; /* its C type */
    struct field *field;
};

struct type {
    enum type_kind kind;
    struct loc loc;
    struct module *mod;
    char *name;    /* XML name */
    char **path;   /* C naming path: {"xcb", ext?, parts...} */
    int npath;
    char *cbase;   /* xw_randr_get_screen_info (resolve) */
    char *ibase;   /* xw__randr_get_screen_info: the base of internal (hidden) names (resolve) */
    char *ctype;   /* its C type: xw_randr_get_screen_info_t / _reply_t / _event_t, uint8_t (resolve) */
    int size;      /* wire size if fixed, -1 if variable */
    int align;
    int resolved, resolving;
    struct type *target; /* typedef: the type it names; eventcopy/errorcopy: see copy_of */
    char *target_name;   /* typedef oldname, eventcopy/errorcopy ref, as written (resolved into target/copy_of) */
    struct field **fields;
    int nfields;
    struct enum_item *items;
    int nitems;
    int number;   /* event / error code, request opcode */
    int no_seq, xge;
    struct type *copy_of; /* eventcopy / errorcopy */
    struct type *reply;   /* TK_REQUEST */
    struct type *request; /* TK_REPLY */
    struct expr *swexpr;  /* TK_SWITCH */
    int start_offset;     /* TK_SWITCH: offset from alignment its <required_start_align> gives */
    struct type **cases;  /* TK_SWITCH: TK_CASE children */
    int ncases;
    struct expr **caseexprs; /* TK_CASE */
    int ncaseexprs;
    int is_bitcase;
    char *casename;       /* named case: struct member name */
    struct type *parent;  /* enclosing type for switch / case */
    struct field *lenfield_owner;
    struct field *new_id; /* TK_REQUEST: the new resource id it refuses to send as 0 (resolve's table) */
    char **pnames; /* <paramref> names no field of this type answers: its container's fields supply them */
    int npnames;
    struct expr *length_expr; /* <length> of a struct */
    struct doc *doc;
    struct xnode *node;
    int needs_walk;   /* has a variable part: gets a walker/sizeof */
    struct wparam *wparams; /* what its walker takes from outside (wparams.c) */
    int nwparams, wparams_done;
    int var_then_fixed; /* a fixed wire field follows a variable one */
    int has_fds;
    int (*allowed)[2];      /* TK_EVENTSTRUCT: <allowed> event number ranges, lo..hi */
    int nallowed;
    struct type **members;  /* TK_EVENTSTRUCT: the events those ranges select, in order (resolve) */
    int nmembers;
    struct type **xidunion_members;
    int nxidunion;
    /* TK_REQUEST answered by several replies (resolve.c's table): the last one has
     * byte 1 equal to multi_end */
    int multi_reply, multi_end;
};

struct import {
    char *header;
    struct module *mod;
    struct loc loc;
};

struct module {
    char *file;
    char *header;   /* "randr" */
    char *xname;    /* "RANDR" (NULL for core) */
    char *ext_name; /* "RandR" */
    char *extc;     /* "randr" as it appears in C names */
    char *major, *minor;
    int is_ext;
    struct import *imports;
    int nimports;
    struct type **types; /* document order, as declared at top level */
    int ntypes;
    struct xnode *root;
    int parsed, resolved;
    struct counts counts; /* constructs in this file alone */
    struct world *world;  /* the descriptions loaded with this one */
};

/* Every description one xwgen run loads, each once, and the primitive types they share. */
struct world {
    struct module **mods;
    int nmods;
    struct type *prims[16]; /* one per entry of resolve.c's table, made on first use */
};

/* diag.c */
void fail(struct loc loc, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define PUSH(arr, n, v)                                                                                          \
    do {                                                                                                         \
        (arr) = xrealloc((arr), sizeof(*(arr)) * (size_t)((n) + 1));                                              \
        (arr)[(n)++] = (v);                                                                                      \
    } while (0)

/* parse.c */
struct xnode *xml_load(const char *path);
struct module *module_load(struct world *w, const char *dir, const char *header, const char *path);
void model_build(struct module *m);

/* driver.c */
struct out;
struct module *load_description(struct world *w, const char *incdir, const char *path);
void write_out(const char *dir, const char *path, struct out *o);

/* fixes.c */
void description_fixes(struct xnode *root);

/* resolve.c */
void module_resolve(struct module *m);
struct type *lookup_type(struct module *m, const char *name, struct loc loc);
int type_fixed(const struct type *t);
int field_fixed(const struct field *f);
int field_size(const struct field *f);
int c_align(const struct type *t);
int c_size(const struct type *t);
int c_packed(const struct type *t);

/* wparams.c */
void module_wparams(struct module *m);

/* names.c */
char *cname_item(const char *s);
char *cname_join(struct module *m, char **path, int n, const char *suffix);
char *cname_upper(const char *s);
const char *cfield_name(const char *name);
char *name_suffix(const char *base, const char *a, const char *b);
void type_names(struct type *t);
char *cxx_field_name(const char *cname);

/* emit*.c */
struct out {
    char *buf;
    size_t len, cap;
};
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_append(struct out *dst, const struct out *src);

struct emitter {
    struct module *m;
    struct out htypes; /* header: types */
    struct out hfuncs; /* header: prototypes */
    struct out c;      /* source */
    struct out hpriv;  /* private header: walkers and putters the library's .c files share */
    int tmpcount;
};
void emit_module(struct module *m, struct out *head, struct out *src, struct out *priv);
void emit_type(struct emitter *e, struct type *t);
void emit_enum(struct emitter *e, struct type *t);
void emit_simple(struct emitter *e, struct type *t);
void emit_iterator(struct emitter *e, struct type *t);
void emit_accessors(struct emitter *e, struct type *t, struct type *owner);
void emit_event(struct emitter *e, struct type *t);
void emit_error(struct emitter *e, struct type *t);
void emit_request(struct emitter *e, struct type *t);
void emit_switch_type(struct emitter *e, struct type *sw);
void emit_meta(struct emitter *e);
void emit_doc(struct out *o, const struct doc *d, const char *indent);
void emit_man(struct module *m, const char *dir);

#endif
