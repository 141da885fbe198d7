/* SPDX-License-Identifier: MIT */
/* model.h — xwgen's plain model of an xcb-proto description: types, fields, expressions, modules.
 * Data only: the stages that build it (parse, resolve) and read it (emit) declare their own functions. */
#ifndef XWGEN_MODEL_H
#define XWGEN_MODEL_H

#include "diag.h"

/* The XML element a model node was built from; the model only points at it. */
struct xnode;

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
    char *name;    /* XML name ("pad0" for pads) */
    char *cname;   /* C name, libxcb's (class -> _class) */
    char *cxxname; /* the C++ spelling when cname is a C++ keyword (explicit -> _explicit), else NULL */
    char *tyname;  /* XML type reference */
    struct type *type;
    struct expr *expr; /* list length, exprfield value */
    int pad_bytes, pad_align, pad_serialize;
    char *enum_ref, *mask_ref, *altenum;
    struct type *sw; /* FK_SWITCH */
    /* xcbgen-compatible roles */
    int visible;    /* a parameter of the request function */
    int wire;       /* present in the bytes */
    int autof;      /* filled by the library (opcode, length) */
    int isfd;       /* an fd, or a list of fds: not in the bytes */
    int synth;      /* a length parameter xwgen added for a list without a length field */
    int nmemb;      /* fixed element count (1 for scalars, N for fixed lists), 0 variable */
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
    int request, reply, event, eventcopy, error, errorcopy, struct_, union_, eventstruct, xidtype, xidunion, typedef_,
        enum_, switch_, bitcase, case_, list, exprfield, fd, pad, required_start_align, import, fieldref, paramref, op,
        unop, sumof, popcount, enumref, listelement_ref, xge_event, noseq_event;
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
    char *name;  /* XML name */
    char **path; /* C naming path: {"xcb", ext?, parts...} */
    int npath;
    char *cbase; /* xw_randr_get_screen_info (resolve) */
    char *ibase; /* xw__randr_get_screen_info: the base of internal (hidden) names (resolve) */
    char *ctype; /* its C type: xw_randr_get_screen_info_t / _reply_t / _event_t, uint8_t (resolve) */
    int size;    /* wire size if fixed, -1 if variable */
    int align;
    int resolved, resolving;
    struct type *target; /* typedef: the type it names; eventcopy/errorcopy: see copy_of */
    char *target_name;   /* typedef oldname, eventcopy/errorcopy ref, as written (resolved into target/copy_of) */
    struct field **fields;
    int nfields;
    struct enum_item *items;
    int nitems;
    int number; /* event / error code, request opcode */
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
    char *casename;      /* named case: struct member name */
    struct type *parent; /* enclosing type for switch / case */
    struct field *lenfield_owner;
    struct field *new_id; /* TK_REQUEST: the new resource id it refuses to send as 0 (resolve's table) */
    char **pnames;        /* <paramref> names no field of this type answers: its container's fields supply them */
    int npnames;
    struct expr *length_expr; /* <length> of a struct */
    struct doc *doc;
    struct xnode *node;
    int needs_walk;         /* has a variable part: gets a walker/sizeof */
    struct wparam *wparams; /* what its walker takes from outside */
    int nwparams, wparams_done;
    int var_then_fixed; /* a fixed wire field follows a variable one */
    int has_fds;
    int (*allowed)[2]; /* TK_EVENTSTRUCT: <allowed> event number ranges, lo..hi */
    int nallowed;
    struct type **members; /* TK_EVENTSTRUCT: the events those ranges select, in order (resolve) */
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
    struct loc loc; /* its <xcb> element: where diagnostics about the whole description point */
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

#endif
