/* SPDX-License-Identifier: MIT */
/* trace.h — the protocol tracer: the calls the generated decoders make into one line being built,
 * the per-description decoder tables, and the hooks the write and read paths call. */
#ifndef XW_TRACE_H
#define XW_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "xw/xwext.h"

/* How one scalar on the wire is shown: its size, signedness, and whether it is an id. */
enum xw_tr_kind {
    XW_TR_U8,
    XW_TR_U16,
    XW_TR_U32,
    XW_TR_U64,
    XW_TR_I8,
    XW_TR_I16,
    XW_TR_I32,
    XW_TR_I64,
    XW_TR_BOOL,
    XW_TR_CHAR,
    XW_TR_F32,
    XW_TR_F64,
    XW_TR_XID,
    XW_TR_ATOM,
};

struct xw_tr_item {
    const char *name;
    uint32_t value;
};

/* The names of an enum a field refers to; mask: the field is a set of its bits. */
struct xw_tr_enum {
    const struct xw_tr_item *items;
    int n;
    int mask;
};

/* One line being built into buf (the tracer owns it; the formatters write it). Past
 * end - XW_TRL_RESERVE nothing more is added but the closing brackets. */
#define XW_TRL_SIZE 8192
#define XW_TRL_RESERVE 96
#define XW_TRL_DEPTH 24

/* Atom names a connection has seen: open addressing into an arena. */
#define XW_TR_ATOMS 4096u
#define XW_TR_ARENA 65536u

struct xw_tr_atoms {
    uint32_t key[XW_TR_ATOMS];
    uint32_t off[XW_TR_ATOMS];
    char arena[XW_TR_ARENA];
    size_t pos;
};

/* Keeps atom a's name (n bytes); full tables keep what they have. */
void xw__trace_atom_learn(struct xw_tr_atoms *t, uint32_t a, const char *name, size_t n);
/* The name of atom a: predefined, or seen (t may be NULL); NULL when unknown. */
const char *xw__trace_atom_name(const struct xw_tr_atoms *t, uint32_t a);

struct xw_trl {
    char *p;   /* next free byte */
    char *end; /* buf + XW_TRL_SIZE */
    int json;
    int numbers;                     /* values as plain numbers (XW_TRACE_NUMBERS) */
    int full;                        /* something was left out for room */
    int depth;                       /* open structs and lists */
    uint8_t list[XW_TRL_DEPTH + 1];  /* the kind of each open bracket */
    uint8_t first[XW_TRL_DEPTH + 1]; /* nothing is in it yet */
    int lost;                        /* opens that did not fit, whose closes are skipped */
    int mute;                        /* above 0: elements past the shown ones are walked, not printed */
    int shorted;                     /* the packet ended before its fields */
    unsigned maxlist;                /* elements shown of a list, characters of a string */
    size_t len;                      /* the packet's length on the wire */
    size_t kept;                     /* of it, the bytes kept for decoding (less for one bigger than the capture) */
    const int *fds;                  /* fds that came with the packet (received side), else NULL */
    unsigned nfds, fdpos;
    const struct xw_tr_atoms *atoms; /* for atom names; may be NULL */
    char buf[XW_TRL_SIZE];
};

/* Starts l's field list after the line's head; ends the line (closing what is open). */
void xw__trace_line_fields(struct xw_trl *l);
void xw__trace_line_end(struct xw_trl *l);
void xw__trace_line_puts(struct xw_trl *l, const char *s);
void xw__trace_line_printf(struct xw_trl *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a string value, escaped for the line's form and shortened past maxlist */
void xw__trace_line_str(struct xw_trl *l, const char *s, size_t n);
/* the separator and name of the next value at the current depth */
void xw__trace_line_key(struct xw_trl *l, const char *name);

/* A decoder: prints every field of the value at b (avail bytes captured) into l.
 * Returns the bytes it takes, or -1 when they run past avail (the line says so). */
typedef long (*xw_tr_fn)(struct xw_trl *l, const char *b, size_t avail);

/* A name and its decoder; a NULL name is a number the description does not use. */
struct xw_tr_entry {
    const char *name;
    xw_tr_fn fn;
};

/* Generated per description, self-contained (the core library holds them all):
 * decoders by opcode (replies: their request's) and by number relative to the bases. */
struct xw_tr_desc {
    const char *xname;    /* "RANDR", as QueryExtension takes it; "X11" for the core */
    const char *ext_name; /* "RandR", as lines show it */
    const struct xw_tr_entry *requests;
    int n_requests;
    const struct xw_tr_entry *replies;
    int n_replies;
    const struct xw_tr_entry *events;
    int n_events;
    const struct xw_tr_entry *errors;
    int n_errors;
    const struct xw_tr_entry *xge;
    int n_xge;
    const struct xw_tr_item *atoms; /* the core's predefined atoms; NULL elsewhere */
    int n_atoms;
};

/* ---- what generated decoders call ---- */

void xw__trace_field(struct xw_trl *l, const char *name, const char *p, int kind, const struct xw_tr_enum *en);
/* n elements of a scalar kind at p (avail bytes there): the first few, and the count */
void xw__trace_list(struct xw_trl *l, const char *name, const char *p, size_t avail, int64_t n, int kind,
                    const struct xw_tr_enum *en);
/* a struct (list 0) or list of n (list 1) opens; name NULL inside a list */
void xw__trace_open(struct xw_trl *l, const char *name, int list, int64_t n);
/* closes it; a list that showed fewer than n elements says how many there were */
void xw__trace_close(struct xw_trl *l, int list, int64_t n, int64_t shown);
/* 1 while element i of a list is among the ones shown */
int xw__trace_show(struct xw_trl *l, int64_t i);
/* adds d to the mute depth (nothing prints while it is above 0); returns d */
int xw__trace_mute(struct xw_trl *l, int d);
/* the packet ends before its fields do: noted on the line; returns -1 */
long xw__trace_short(struct xw_trl *l);
/* fds passed beside the bytes: n of them (-1: one) */
void xw__trace_fds(struct xw_trl *l, const char *name, int64_t n);
/* the whole packet's length on the wire, for a list that runs to its end */
size_t xw__trace_len(const struct xw_trl *l);

/* ---- the hooks; c->trace is not NULL ---- */

/* Lock held: the first w bytes of iov went to the server, with the nfds fds at fds. */
void xw__trace_out(xw_connection_t *c, const struct iovec *iov, size_t n, size_t w, const int *fds, unsigned nfds);
/* Lock held: r bytes came from the server into iov, with nfds fds. */
void xw__trace_in(xw_connection_t *c, const struct iovec *iov, size_t n, size_t r, const int *fds, unsigned nfds);
/* At connect, once the setup is read: XWIRE_TRACE switches tracing on. */
void xw__trace_connect(xw_connection_t *c);
/* At disconnect: the connection's trace state goes. */
void xw__trace_fini(xw_connection_t *c);

/* Every description's decoders (tests and the fuzz harness walk them all). */
const struct xw_tr_desc *const *xw__trace_descs(size_t *n);

#endif
