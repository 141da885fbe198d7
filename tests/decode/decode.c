/* SPDX-License-Identifier: MIT */
/* decode.c — every reply and event type of the descriptions Debian ships a libxcb for:
 * the same valid bytes go to libxcb and to xwire, and every field, list length,
 * list element and iterator step must agree; xwire's validators must refuse the
 * same bytes cut short. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xw/xwext.h>

#include "decode.h"
#include "decode_list.h"
#include "fake_server.h"
#include "fdcheck.h"
#include "harness.h"

/* Where libxcb is no oracle, each with its reason; differences there are listed and
 * counted apart, never skipped silently. */
static const struct {
    const char *name, *why;
} known[] = {
    {"ListComponents reply", "libxcb's Listing iterators disagree with its own sizeof and walk past the reply"},
    {"CreateContext reply",
     "the description's priv_data runs 4 bytes past the reply: libxcb reads them, xwire refuses the reply"},
    {"RedirectNotify event", "libxcb counts the notifies without the 32-byte header (negative counts)"},
    {"VendorPrivateWithReply reply",
     "the description's data2 runs 4 bytes past the reply: libxcb reads them, xwire refuses the reply"},
};

#define SET_MAP_PADS                                                                                                   \
    "xkb.xml has no pad after SetMap's explicit and modmap lists; the protocol and the X server pad each to 4 "        \
    "bytes (Xvfb answers BadLength without them), and so does xwire (gen/fixes.c): 2 bytes apart after an odd "        \
    "count"

/* Helpers (_unpack, _sizeof, _serialize) whose libxcb twin is no oracle, by xwire's name:
 * their comparisons are listed and counted apart, and xwire's _serialize must still give
 * back the bytes it unpacked. */
static const struct {
    const char *name, *why;
} known_fn[] = {
    {"xw_xkb_get_map_map_serialize",
     "libxcb sizes every KeyType and KeySymMap of a list like the first (its pointer does "
     "not advance): wrong length and bytes when they differ; xwire's gives back the bytes"},
    {"xw_xkb_set_map_values_serialize", "libxcb sizes every SetKeyType and KeySymMap of a list like the first (as its "
                                        "SetMap _aux form): wrong length and bytes when they differ"},
    {"xw_xkb_set_map_values_unpack", SET_MAP_PADS},
    {"xw_xkb_set_map_values_sizeof", SET_MAP_PADS},
    {"xw_xkb_set_map_sizeof", SET_MAP_PADS},
    {"xw_xkb_get_kbd_by_name_replies_types_map_serialize",
     "libxcb sizes every KeyType and KeySymMap of a list like the first"},
    {"xw_xkb_get_kbd_by_name_replies_serialize",
     "libxcb sizes every KeyType and KeySymMap of a list like the first (in "
     "its types part)"},
};

static int known_count;

static const char *known_reason(const char *name)
{
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (!strcmp(known[i].name, name))
            return known[i].why;
    return NULL;
}

/* The reason libxcb is no oracle for what r compares now (its case or its helper), if any. */
static const char *known_now(const struct db *r)
{
    for (size_t i = 0; r->fn && i < sizeof(known_fn) / sizeof(known_fn[0]); i++)
        if (!strcmp(known_fn[i].name, r->fn))
            return known_fn[i].why;
    return known_reason(r->name);
}

struct server {
    int fd;
    pthread_t thread;
    pthread_mutex_t lock;
    uint16_t seq;        /* requests read so far */
    const uint8_t *next; /* the reply for request number next_seq, sequence patched */
    size_t next_len;
    uint16_t next_seq;
};

static struct server sx, sw;

static int read_all(int fd, void *p, size_t n)
{
    char *b = p;
    while (n) {
        ssize_t r = read(fd, b, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        b += r, n -= (size_t)r;
    }
    return 0;
}

static void answer(struct server *s, const uint8_t *req, size_t len)
{
    uint8_t rep[32] = {1};
    memcpy(rep + 2, &s->seq, 2);
    if (req[0] == 98 && len >= 8) { /* QueryExtension */
        uint16_t n;
        memcpy(&n, req + 4, 2);
        for (int i = 0; harness_ext_names[i]; i++)
            if (strlen(harness_ext_names[i]) == n && 8 + (size_t)n <= len &&
                !memcmp(req + 8, harness_ext_names[i], n)) {
                rep[8] = 1;
                rep[9] = (uint8_t)(128 + i);
                rep[10] = (uint8_t)(64 + i);
                rep[11] = (uint8_t)(150 + i);
            }
        fake_write_all(s->fd, rep, 32);
    } else if (req[0] == 43) { /* GetInputFocus: carries the reply under test */
        pthread_mutex_lock(&s->lock);
        if (s->next && s->seq == s->next_seq) {
            uint8_t *copy = malloc(s->next_len);
            memcpy(copy, s->next, s->next_len);
            memcpy(copy + 2, &s->seq, 2);
            fake_write_all(s->fd, copy, s->next_len);
            free(copy);
            s->next = NULL;
        } else {
            fake_write_all(s->fd, rep, 32);
        }
        pthread_mutex_unlock(&s->lock);
    }
}

static void *serve(void *arg)
{
    struct server *s = arg;
    uint8_t setup[1024], hdr[12], req[1 << 16];
    if (read_all(s->fd, hdr, 12))
        return NULL;
    size_t n = fake_setup_success(setup, sizeof(setup), 65535);
    fake_write_all(s->fd, setup, n);
    for (;;) {
        if (read_all(s->fd, req, 4))
            return NULL;
        uint16_t words;
        memcpy(&words, req + 2, 2);
        size_t len = (size_t)words * 4;
        if (len < 4 || len > sizeof(req) || read_all(s->fd, req + 4, len - 4))
            return NULL;
        s->seq++;
        answer(s, req, len);
    }
}

static int start_server(struct server *s)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
        return -1;
    s->fd = sv[1];
    pthread_mutex_init(&s->lock, NULL);
    pthread_create(&s->thread, NULL, serve, s);
    return sv[0];
}

/* ---- what generated cases call ---- */

void db_fill(struct db *r, void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        r->rng = r->rng * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (uint8_t)(r->rng >> 56);
    }
}

uint32_t db_rand(struct db *r)
{
    uint32_t v;
    db_fill(r, &v, sizeof(v));
    return v;
}

uint32_t db_small(struct db *r)
{
    return db_rand(r) % 5;
}

static void fail(struct db *r, const char *fmt, const char *what, long long a, long long b)
{
    if (known_now(r)) {
        known_count++;
        return;
    }
    r->failed++;
    fprintf(stderr, "DIFFER: %s: ", r->name);
    fprintf(stderr, fmt, what, a, b);
    fputc('\n', stderr);
}

void db_int(struct db *r, const char *what, long long a, long long b)
{
    r->checks++;
    if (a != b)
        fail(r, "%s: libxcb %lld, xwire %lld", what, a, b);
}

void db_mem(struct db *r, const char *what, const void *xbase, const void *xp, const void *wbase, const void *wp,
            size_t n)
{
    r->checks++;
    if (known_reason(r->name)) { /* libxcb's side may point past its reply: do not read it */
        known_count++;
        return;
    }
    long long xo = (const char *)xp - (const char *)xbase, wo = (const char *)wp - (const char *)wbase;
    if (xo != wo)
        fail(r, "%s: at offset %lld in libxcb's, %lld in xwire's", what, xo, wo);
    else if (n && memcmp(xp, wp, n)) {
        long long at = 0;
        while (((const uint8_t *)xp)[at] == ((const uint8_t *)wp)[at])
            at++;
        fail(r, "%s: bytes differ from byte %lld of %lld", what, at, (long long)n);
    }
}

/* How often each helper was compared, by name (open addressing; the names are a few hundred). */
static struct {
    const char *name;
    int hits;
    int listed; /* counted once, though more than one description's cases compare it */
} fns[4096];

static unsigned fn_slot(const char *name)
{
    uint32_t h = 2166136261u;
    for (const char *p = name; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    unsigned i = h % (sizeof(fns) / sizeof(fns[0]));
    while (fns[i].name && strcmp(fns[i].name, name))
        i = (i + 1) % (sizeof(fns) / sizeof(fns[0]));
    return i;
}

void db_fn(struct db *r, enum db_kind kind, const char *name)
{
    (void)kind;
    r->fn = name;
    unsigned i = fn_slot(name);
    fns[i].name = name;
    fns[i].hits++;
}

void db_serialized(struct db *r, const char *what, const void *xs, int xl, const void *ws, int wl, const void *orig,
                   int origlen)
{
    char label[160];
    snprintf(label, sizeof(label), "%s length", what);
    db_int(r, label, xl, wl);
    int n = xl < wl ? xl : wl;
    /* where the two differ, the bytes unpacked say which is right */
    int xok = xl == origlen && !memcmp(xs, orig, (size_t)(xl > 0 ? xl : 0));
    int wok = wl == origlen && !memcmp(ws, orig, (size_t)(wl > 0 ? wl : 0));
    snprintf(label, sizeof(label), "%s bytes (libxcb's reproduce the bytes unpacked: %s, xwire's: %s)", what,
             xok ? "yes" : "no", wok ? "yes" : "no");
    db_mem(r, label, xs, xs, ws, ws, n > 0 ? (size_t)n : 0);
    /* what xwire serializes from what it unpacked is what it unpacked */
    snprintf(label, sizeof(label), "%s of the unpacked value, against the bytes unpacked (length)", what);
    const char *fn = r->fn;
    r->fn = NULL; /* libxcb plays no part here: only a case's own reason excuses it */
    r->checks++;
    if (wl != origlen) {
        if (known_reason(r->name))
            known_count++;
        else {
            r->failed++;
            fprintf(stderr, "DIFFER: %s: %s: %d, unpacked %d\n", r->name, label, wl, origlen);
        }
    } else {
        snprintf(label, sizeof(label), "%s of the unpacked value, against the bytes unpacked", what);
        db_mem(r, label, orig, orig, ws, ws, wl > 0 ? (size_t)wl : 0);
    }
    r->fn = fn;
}

/* Every helper in a set's list was compared at least once; counts per kind. */
static int helpers_checked(const struct db_set *set, int count[DB_KINDS])
{
    int bad = 0;
    for (const struct db_helper *h = set->helpers; h->name; h++) {
        unsigned i = fn_slot(h->name);
        fns[i].name = h->name;
        if (fns[i].listed++)
            continue;
        count[h->kind]++;
        if (!fns[i].hits) {
            fprintf(stderr, "NOT COMPARED: %s (every run of its case was skipped)\n", h->name);
            bad++;
        }
    }
    return bad;
}

void db_truncated(struct db *r, int cond)
{
    r->checks++;
    if (!cond)
        fail(r, "%s (%lld bytes, %lld needed)", "xwire's validator got a short or whole packet wrong",
             (long long)r->len, (long long)r->need);
}

void db_missing(struct db *r)
{
    r->missing++;
    fprintf(stderr, "MISSING: %s: libxcb returned %p, xwire %p\n", r->name, r->x, r->w);
}

static void clear(struct db *r)
{
    free(r->x);
    free(r->w);
    r->x = r->w = NULL;
}

static void finish(struct db *r, size_t need)
{
    r->need = need;
    r->len = need < 32 ? 32 : (need + 3) & ~(size_t)3;
    memset(r->buf + need, 0, r->len - need);
}

void db_reply(struct db *r, size_t need)
{
    clear(r);
    finish(r, need);
    r->buf[0] = 1;
    uint32_t words = (uint32_t)((r->len - 32) / 4);
    memcpy(r->buf + 4, &words, 4);
    /* the libraries buffer the request until they wait, so the server cannot have
     * read it before it learns which sequence number to answer */
    xcb_get_input_focus_cookie_t xc = xcb_get_input_focus(r->xc);
    pthread_mutex_lock(&sx.lock);
    sx.next = r->buf, sx.next_len = r->len, sx.next_seq = (uint16_t)xc.sequence;
    pthread_mutex_unlock(&sx.lock);
    r->x = xcb_wait_for_reply(r->xc, xc.sequence, NULL);
    if (r->x && known_reason(r->name)) {
        /* libxcb's accessors read past such a reply (how far depends on the counts):
         * give them zeros to read instead of whatever the heap holds, which made
         * this test crash now and then (MALLOC_PERTURB_ set by meson) */
        size_t tail = (size_t)2 << 20;
        uint8_t *big = calloc(1, r->len + tail);
        if (big) {
            memcpy(big, r->x, r->len);
            free(r->x);
            r->x = big;
        }
    }
    xw_get_input_focus_cookie_t wc = xw_get_input_focus(r->wc);
    pthread_mutex_lock(&sw.lock);
    sw.next = r->buf, sw.next_len = r->len, sw.next_seq = (uint16_t)wc.sequence;
    pthread_mutex_unlock(&sw.lock);
    r->w = xw_wait_for_reply(r->wc, wc.sequence, NULL);
}

void db_event(struct db *r, size_t need, int number, int xge, int ext)
{
    clear(r);
    finish(r, need);
    const xcb_query_extension_reply_t *q = ext ? xcb_get_extension_data(r->xc, r->xext) : NULL;
    if (xge) {
        uint32_t words = (uint32_t)((r->len - 32) / 4);
        uint16_t type = (uint16_t)number;
        r->buf[0] = 35;
        r->buf[1] = q ? q->major_opcode : 0;
        memcpy(r->buf + 4, &words, 4);
        memcpy(r->buf + 8, &type, 2);
    } else {
        r->buf[0] = (uint8_t)((q ? q->first_event : 0) + number);
    }
    if (r->buf[0] != 11) { /* KeymapNotify carries no sequence */
        memcpy(r->buf + 2, &sx.seq, 2);
        fake_write_all(sx.fd, r->buf, r->len);
        memcpy(r->buf + 2, &sw.seq, 2);
        fake_write_all(sw.fd, r->buf, r->len);
    } else {
        fake_write_all(sx.fd, r->buf, r->len);
        fake_write_all(sw.fd, r->buf, r->len);
    }
    r->x = xcb_wait_for_event(r->xc);
    r->w = xw_wait_for_event(r->wc);
}

const struct db_case *db_find(const char *name)
{
    for (const struct db_set *const *set = db_all; *set; set++)
        for (const struct db_case *c = (*set)->cases; c->run; c++)
            if (!strcmp(c->name, name))
                return c;
    return NULL;
}

struct tally {
    int cases, replies, events, alone, runs;
};

/* Every generated case, three seeds each; 0, or 2 when a connection failed. */
static int run_generated(struct db *r, struct tally *t)
{
    for (const struct db_set *const *set = db_all; *set; set++) {
        r->xext = (*set)->xext;
        r->wext = (*set)->wext;
        if (r->xext) {
            const xcb_query_extension_reply_t *a = xcb_get_extension_data(r->xc, r->xext);
            const struct xw_query_extension_reply_t *b = xw_get_extension_data(r->wc, r->wext);
            if (!a || !b) {
                fprintf(stderr, "decode: extension data for %s missing\n", (*set)->header);
                return 2;
            }
        }
        for (const struct db_case *c = (*set)->cases; c->run; c++) {
            t->cases++;
            strstr(c->name, " reply") ? t->replies++ : strstr(c->name, " event") ? t->events++ : t->alone++;
            for (int seed = 0; seed < 3; seed++) {
                r->name = c->name;
                r->fn = NULL;
                r->rng = harness_seed(c->ext, c->name) + (uint64_t)seed;
                c->run(r);
                t->runs++;
                if (xcb_connection_has_error(r->xc) || xw_connection_has_error(r->wc)) {
                    fprintf(stderr, "decode: connection failed in %s %s (libxcb %d, xwire %s)\n", c->ext, c->name,
                            xcb_connection_has_error(r->xc), xw_connection_error_string(r->wc));
                    return 2;
                }
            }
        }
    }
    int kinds[DB_KINDS] = {0};
    for (const struct db_set *const *set = db_all; *set; set++)
        r->missing += helpers_checked(*set, kinds);
    printf("helpers compared: %d _sizeof, %d _unpack, %d _serialize\n", kinds[DB_SIZEOF], kinds[DB_UNPACK],
           kinds[DB_SERIALIZE]);
    return 0;
}

/* decode: the generated cases; decode --xvfb: replies captured from a real Xvfb instead. */
int main(int argc, char **argv)
{
    static struct db r;
    int xvfb = argc > 1 && !strcmp(argv[1], "--xvfb");
    r.xc = xcb_connect_to_fd(start_server(&sx), NULL);
    r.wc = xw_connect_to_fd(start_server(&sw), NULL);
    if (xcb_connection_has_error(r.xc) || xw_connection_has_error(r.wc)) {
        fprintf(stderr, "decode: setup failed\n");
        return 2;
    }
    struct fdcheck fc; /* the connections are open: nothing else may stay open */
    fdcheck_begin(&fc);
    struct tally t = {0};
    int bad = xvfb ? db_captured(&r) : run_generated(&r, &t);
    if (bad)
        return bad;
    free(r.x);
    free(r.w);
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        printf("known: %s: %s\n", known[i].name, known[i].why);
    for (size_t i = 0; i < sizeof(known_fn) / sizeof(known_fn[0]); i++)
        printf("known: %s: %s\n", known_fn[i].name, known_fn[i].why);
    if (!xvfb)
        printf("%d cases (%d replies, %d events, %d structs, switches and requests alone), %d runs, ", t.cases,
               t.replies, t.events, t.alone, t.runs);
    printf("%d comparisons, %d differ, %d in known cases, %d missing, %d runs skipped (builder ran out of room)\n",
           r.checks, r.failed, known_count, r.missing, r.skipped);
    printf("%d passed, %d failed\n", r.checks - r.failed - known_count, r.failed + r.missing);
    r.failed += fdcheck_main_end(&fc, "decode");
    xcb_disconnect(r.xc);
    xw_disconnect(r.wc);
    return r.failed || r.missing;
}
