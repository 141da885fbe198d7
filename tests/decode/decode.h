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
    xcb_connection_t *xc;
    xw_connection_t *wc;
    xcb_extension_t *xext;
    xw_extension_t *wext;
};

struct db_case {
    const char *ext, *name;
    void (*run)(struct db *r);
    int xge;
};

struct db_set {
    const char *header;
    xcb_extension_t *xext;
    xw_extension_t *wext;
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
void db_truncated(struct db *r, int cond);
void db_missing(struct db *r);

#endif
