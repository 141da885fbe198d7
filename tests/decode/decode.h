/* SPDX-License-Identifier: MIT */
/* decode.h — the harness that generated decode cases (xwgen --decode) call. */
#ifndef XW_DECODE_H
#define XW_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include <xcb/xcb.h>
#include <xw/xw.h>

struct db {
    uint8_t buf[1 << 16];
    size_t need; /* bytes the builder wrote: what the counts claim */
    size_t len;  /* bytes sent: need rounded up to the packet's size */
    void *x, *w; /* what libxcb and xwire returned */
    uint64_t rng;
    const char *name;
    int checks, failed, skipped, missing;
    const char *fn;   /* the helper being compared (db_fn), NULL before any */
    uint32_t calclen; /* elements the builder put in a list that has no length field */
    int captured;     /* buf holds a reply from a real server, not one the builders made */
    xcb_connection_t *xc;
    xw_connection_t *wc;
    xcb_extension_t *xext;
    xw_extension_t *wext;
};

struct db_case {
    const char *ext, *name;
    void (*run)(struct db *r);
    int xge;
    /* replies: the comparisons alone, on r->buf[0..r->need) (a reply captured from a server) */
    void (*check)(struct db *r);
};

/* The switch and size helpers programs call directly. */
enum db_kind { DB_SIZEOF, DB_UNPACK, DB_SERIALIZE, DB_KINDS };

struct db_helper {
    enum db_kind kind;
    const char *name; /* xwire's; libxcb's is the same with xcb_ */
};

struct db_set {
    const char *header;
    xcb_extension_t *xext;
    xw_extension_t *wext;
    const struct db_helper *helpers; /* every helper the cases compare, each once */
    struct db_case cases[];
};

void db_fill(struct db *r, void *p, size_t n);
uint32_t db_rand(struct db *r);
/* counts stay small so lists fit */
uint32_t db_small(struct db *r);

/* Sends buf[0..need) as a reply to both libraries (through a GetInputFocus cookie)
 * and stores what each returns in r->x and r->w. */
void db_reply(struct db *r, size_t need);
/* Sends buf as event number (relative to the extension's first event, or an XGE
 * event_type) and stores what each library returns. */
void db_event(struct db *r, size_t need, int number, int xge, int ext);

void db_int(struct db *r, const char *what, long long a, long long b);
void db_mem(struct db *r, const char *what, const void *xbase, const void *xp, const void *wbase, const void *wp,
            size_t n);
/* cond: xwire's validator refused bytes cut short / accepted the whole packet */
/* A comparison of the helper name (of kind) follows: counted, so that the test can
 * tell every helper of the list was compared at least once. */
void db_fn(struct db *r, enum db_kind kind, const char *name);
/* _serialize: libxcb's xs[0..xl) against xwire's ws[0..wl), and xwire's against the
 * bytes unpacked (orig, origlen long) */
void db_serialized(struct db *r, const char *what, const void *xs, int xl, const void *ws, int wl, const void *orig,
                   int origlen);
/* The generated case of that name ("GetMap reply"), or NULL. */
const struct db_case *db_find(const char *name);
/* Replies captured from a private Xvfb, through each one's case check (captured.c);
 * 0, or 2 when the server could not be used. */
int db_captured(struct db *r);
void db_truncated(struct db *r, int cond);
void db_missing(struct db *r);

#endif
