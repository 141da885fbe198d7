/* SPDX-License-Identifier: MIT */
/* conform.c — every request of every description Debian ships a libxcb for, sent through
 * libxcb and through xwire with the same arguments: the bytes (and fds) must be identical. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xw/xw.h>

#include "alloc_count.h"
#include "conform.h"
#include "conform_list.h"
#include "fake_server.h"
#include "fdcheck.h"
#include "harness.h"

/* ---- heap allocations made by xwire's request calls ---- */

/* The test thread's count when xwire's request call began; the calls since are
 * added at cf_end. */
static unsigned long counted_from;
static unsigned long allocs, warm_allocs;

/* Known differences, each with its reason: libxcb is wrong on the wire here, xwire
 * follows the protocol (see shared/FACTS.md). Listed, never skipped silently. */
static const struct {
    const char *ext, *name, *why;
    int skip_xcb; /* libxcb's call breaks its connection: xwire's length is checked instead */
} known[] = {
    {"xkb", "SelectEvents", "libxcb leaves the details block unpadded", 0},
    {"xkb", "SelectEvents (aux)", "libxcb leaves the details block unpadded", 0},
    {"xkb", "SetMap (aux)",
     "libxcb sizes every key-symbol map like the first, and leaves the explicit components and modifier map unpadded "
     "as xkb.xml does (tests/test_aux.c has the protocol's bytes)",
     0},
    {"Input", "XIChangeProperty", "libxcb pads with bytes read past the caller's data", 0},
    {"Input", "ChangeDeviceProperty", "libxcb pads with bytes read past the caller's data", 0},
    {"RandR", "SetMonitor", "libxcb sends a piece it never initialises (its length too)", 1},
    {"RandR", "SetCrtcGamma", "libxcb pads red, green and blue separately for odd sizes", 0},
    {"Input", "ChangeFeedbackControl", "libxcb aborts: its own length for a FeedbackCtl is not a multiple of 4", 1},
    {"Input", "ChangeDeviceControl", "libxcb aborts: the length it computes is not a multiple of 4", 1},
    {"xkb", "SetMap", "libxcb aborts: the length it computes is not a multiple of 4", 1},
};
static int uninit_from = -1, uninit_to = -1, uninit_seen;
static int xcb_failed;
struct server;
static int start_server(struct server *s);
static int length_only;

/* ---- a server that answers what must be answered and records the rest ---- */

struct capture {
    pthread_mutex_t lock;
    uint8_t *bytes;
    size_t len, cap;
    int nfds;
};

struct server {
    int fd;
    pthread_t thread;
    struct capture cap;
    uint8_t *in;
    size_t inlen, incap;
};

static void reply32(int fd, uint16_t seq, uint8_t b1, const uint8_t *body24)
{
    uint8_t r[32] = {1, b1};
    memcpy(r + 2, &seq, 2);
    if (body24)
        memcpy(r + 8, body24, 24);
    fake_write_all(fd, r, 32);
}

/* Answers QueryExtension, GetInputFocus and BigReqEnable; returns 1 when it did. */
static int answer(struct server *s, const uint8_t *req, size_t len, uint16_t seq)
{
    uint8_t body[24] = {0};
    if (req[0] == 98 && len >= 8) { /* QueryExtension */
        uint16_t n;
        memcpy(&n, req + 4, 2);
        int idx = -1;
        for (int i = 0; harness_ext_names[i]; i++)
            if (strlen(harness_ext_names[i]) == n && 8 + (size_t)n <= len && !memcmp(req + 8, harness_ext_names[i], n))
                idx = i;
        body[0] = idx >= 0;
        body[1] = (uint8_t)(128 + (idx >= 0 ? idx : 0));
        body[2] = (uint8_t)(64 + (idx >= 0 ? idx : 0));
        body[3] = (uint8_t)(150 + (idx >= 0 ? idx : 0));
        reply32(s->fd, seq, 0, body);
        return 1;
    }
    if (req[0] == 43) { /* GetInputFocus: the sync both libraries use */
        reply32(s->fd, seq, 0, NULL);
        return 1;
    }
    if (req[0] == 128 && req[1] == 0) { /* BigReqEnable */
        uint32_t max = 1u << 20;
        memcpy(body, &max, 4);
        reply32(s->fd, seq, 0, body);
        return 1;
    }
    return 0;
}

static size_t request_len(const uint8_t *p, size_t avail)
{
    if (avail < 4)
        return 0;
    uint16_t w;
    memcpy(&w, p + 2, 2);
    if (w)
        return (size_t)w * 4;
    if (avail < 8)
        return 0;
    uint32_t big;
    memcpy(&big, p + 4, 4);
    return (size_t)big * 4;
}

static void record(struct server *s, const uint8_t *p, size_t n)
{
    pthread_mutex_lock(&s->cap.lock);
    if (s->cap.len + n > s->cap.cap) {
        s->cap.cap = (s->cap.len + n) * 2;
        s->cap.bytes = realloc(s->cap.bytes, s->cap.cap);
    }
    memcpy(s->cap.bytes + s->cap.len, p, n);
    s->cap.len += n;
    pthread_mutex_unlock(&s->cap.lock);
}

static void skip_setup_request(struct server *s);

static void *serve(void *arg)
{
    struct server *s = arg;
    uint16_t seq = 0;
    /* answer the setup only after the client sent its request: libxcb reads
     * whatever is already there while it writes, and would misparse it */
    uint8_t setup[1024];
    size_t sn = fake_setup_success(setup, sizeof(setup), 65535);
    skip_setup_request(s);
    fake_write_all(s->fd, setup, sn);
    for (;;) {
        char ctl[CMSG_SPACE(sizeof(int) * 32)];
        if (s->incap - s->inlen < 65536) {
            s->incap = s->incap * 2 + 65536;
            s->in = realloc(s->in, s->incap);
        }
        struct iovec iov = {s->in + s->inlen, s->incap - s->inlen};
        struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof(ctl)};
        ssize_t r = recvmsg(s->fd, &mh, MSG_CMSG_CLOEXEC);
        if (r <= 0)
            return NULL;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                continue;
            int n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < n; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                close(fd);
            }
            pthread_mutex_lock(&s->cap.lock);
            s->cap.nfds += n;
            pthread_mutex_unlock(&s->cap.lock);
        }
        s->inlen += (size_t)r;
        size_t off = 0, n;
        while ((n = request_len(s->in + off, s->inlen - off)) && n <= s->inlen - off) {
            seq++;
            if (!answer(s, s->in + off, n, seq))
                record(s, s->in + off, n);
            off += n;
        }
        memmove(s->in, s->in + off, s->inlen - off);
        s->inlen -= off;
    }
}

/* Client side of a socketpair whose other side a serving thread answers. */
static int start_server(struct server *s)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
        return -1;
    s->fd = sv[1];
    pthread_mutex_init(&s->cap.lock, NULL);
    pthread_create(&s->thread, NULL, serve, s);
    return sv[0];
}

static void skip_setup_request(struct server *s)
{
    uint8_t hdr[12];
    size_t got = 0;
    while (got < 12) {
        ssize_t r = read(s->fd, hdr + got, 12 - got);
        if (r <= 0)
            return;
        got += (size_t)r;
    }
    uint16_t an, ad;
    memcpy(&an, hdr + 6, 2), memcpy(&ad, hdr + 8, 2);
    size_t rest = (size_t)((an + 3) & ~3) + (size_t)((ad + 3) & ~3);
    uint8_t tmp[512];
    while (rest) {
        ssize_t r = read(s->fd, tmp, rest < sizeof(tmp) ? rest : sizeof(tmp));
        if (r <= 0)
            return;
        rest -= (size_t)r;
    }
}

/* ---- the harness ---- */

static struct server sx, sw;
static uint8_t *xcb_bytes;
static size_t xcb_len;
static int xcb_fds;
static uint8_t arena[1 << 22];
static size_t arena_used;
static int devnull = -1;
static int identical, differ, known_differ;
static const struct cf_case *current;
static int current_v;

void cf_fill(struct cf *cf, void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        cf->rng = cf->rng * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (uint8_t)(cf->rng >> 56);
    }
}

static uint32_t rnd(struct cf *cf)
{
    uint32_t v;
    cf_fill(cf, &v, sizeof(v));
    return v;
}

uint32_t cf_small(struct cf *cf, int v)
{
    return v == 0 ? 0 : v == 1 ? 1 + rnd(cf) % 4 : rnd(cf) % 8;
}

uint64_t cf_mask(struct cf *cf, int v, uint64_t all)
{
    if (v == 0 || !all)
        return 0;
    if (v >= 2)
        return all;
    int bits[64], n = 0;
    for (int i = 0; i < 64; i++)
        if (all >> i & 1)
            bits[n++] = i;
    return 1ULL << bits[rnd(cf) % (uint32_t)n];
}

long long cf_pick(struct cf *cf, int v, const long long *values, int n)
{
    return v == 0 ? values[0] : values[rnd(cf) % (uint32_t)n];
}

void *cf_buf(struct cf *cf, size_t n, int zero)
{
    n = (n + 15) & ~(size_t)15;
    if (n > sizeof(arena) - arena_used) {
        fprintf(stderr, "conform: arena exhausted in %s %s\n", current->ext, current->name);
        exit(2);
    }
    void *p = arena + arena_used;
    arena_used += n;
    if (zero)
        memset(p, 0, n);
    else
        cf_fill(cf, p, n);
    return p;
}

int cf_fd(struct cf *cf)
{
    (void)cf;
    return dup(devnull);
}

static void take(struct server *s, uint8_t **bytes, size_t *len, int *nfds)
{
    pthread_mutex_lock(&s->cap.lock);
    *bytes = malloc(s->cap.len + 1);
    if (s->cap.len)
        memcpy(*bytes, s->cap.bytes, s->cap.len);
    *len = s->cap.len;
    *nfds = s->cap.nfds;
    s->cap.len = 0;
    s->cap.nfds = 0;
    pthread_mutex_unlock(&s->cap.lock);
}

void cf_begin(struct cf *cf)
{
    (void)cf;
    uint8_t *b;
    size_t n;
    int f;
    take(&sx, &b, &n, &f), free(b);
    take(&sw, &b, &n, &f), free(b);
}

/* ---- the tracer's reading of xwire's bytes: its decoded fields equal the arguments ---- */

static int trace_fd = -1;
static off_t trace_mark;
static char traced[1 << 16]; /* the JSON line of the request being checked */
static int traced_ok;
static int fields_checked, fields_differ, untraced;

/* After cf_end's sync: of the lines written since cf_mid, the request before the sync. */
static void trace_take(void)
{
    static char buf[1 << 20];
    ssize_t n = pread(trace_fd, buf, sizeof(buf) - 1, trace_mark);
    traced_ok = 0;
    buf[n > 0 ? n : 0] = 0;
    char *last = NULL, *prev = NULL;
    for (char *p = buf; *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        if (strstr(p, "\"kind\":\"request\""))
            prev = last, last = p;
        if (!nl)
            break;
        p = nl + 1;
    }
    if (!prev) {
        untraced++;
        return;
    }
    size_t len = strlen(prev) < sizeof(traced) - 1 ? strlen(prev) : sizeof(traced) - 1;
    memcpy(traced, prev, len);
    traced[len] = 0;
    traced_ok = 1;
}

void cf_traced(struct cf *cf, const char *field, uint64_t value, int sign)
{
    (void)cf;
    if (!traced_ok)
        return;
    char key[128];
    int k = sign ? snprintf(key, sizeof(key), "\"%s\":%lld", field, (long long)value)
                 : snprintf(key, sizeof(key), "\"%s\":%llu", field, (unsigned long long)value);
    for (const char *p = strstr(traced, key); p; p = strstr(p + 1, key))
        if (p[k] == ',' || p[k] == '}') {
            fields_checked++;
            return;
        }
    if (fields_differ++ < 20)
        fprintf(stderr, "TRACED: %s %s (variant %d): %s not in %.600s\n", current->ext, current->name, current_v, key,
                traced);
}

void cf_mid(struct cf *cf)
{
    trace_mark = lseek(trace_fd, 0, SEEK_END);
    if (cf->skip_xcb) {
        counted_from = alloc_count_begin();
        return;
    }
    free(xcb_get_input_focus_reply(cf->xc, xcb_get_input_focus(cf->xc), NULL));
    if (xcb_connection_has_error(cf->xc)) {
        /* libxcb shut its connection down over this request: say so, give it a new one
         * and check xwire's request on its own */
        printf("libxcb failed: %s %s (variant %d): connection error %d\n", current->ext, current->name, current_v,
               xcb_connection_has_error(cf->xc));
        xcb_failed++;
        xcb_disconnect(cf->xc);
        close(sx.fd);
        pthread_join(sx.thread, NULL);
        cf->xc = xcb_connect_to_fd(start_server(&sx), NULL);
        cf->skip_xcb = 2;
        return;
    }
    take(&sx, &xcb_bytes, &xcb_len, &xcb_fds);
    counted_from = alloc_count_begin(); /* only xwire's request call runs until cf_end */
}

static int known_index(const struct cf_case *c)
{
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
        if (!strcmp(known[i].ext, c->ext) && !strcmp(known[i].name, c->name))
            return (int)i;
    return -1;
}

static const char *known_reason(const struct cf_case *c)
{
    int i = known_index(c);
    return i < 0 ? NULL : known[i].why;
}

void cf_uninit(struct cf *cf, int from, int to)
{
    (void)cf;
    uninit_from = from, uninit_to = to;
}

/* Equal but for the padding bytes libxcb leaves uninitialised. */
static int same(const uint8_t *a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i] == b[i])
            continue;
        if ((int)i >= uninit_from && (int)i < uninit_to) {
            uninit_seen = 1;
            continue;
        }
        return 0;
    }
    return 1;
}

static void dump(const char *who, const uint8_t *b, size_t n, size_t from)
{
    fprintf(stderr, "    %-6s %zu bytes:", who, n);
    for (size_t i = from; i < n && i < from + 24; i++)
        fprintf(stderr, " %02x", b[i]);
    fprintf(stderr, "\n");
}

void cf_end(struct cf *cf)
{
    uint8_t *b;
    size_t n;
    int f;
    unsigned long made = alloc_count_end(counted_from);
    if (current_v == 0) /* the first call of a form may query its extension once */
        warm_allocs += made;
    else if (made) {
        fprintf(stderr, "conform: %s %s (variant %d) made %lu heap allocations\n", current->ext, current->name,
                current_v, made);
        allocs += made;
    }
    free(xw_get_input_focus_reply(cf->wc, xw_get_input_focus(cf->wc), NULL));
    if (xw_connection_has_error(cf->wc)) {
        fprintf(stderr, "conform: xwire connection failed in %s %s: %s\n", current->ext, current->name,
                xw_connection_error_string(cf->wc));
        exit(2);
    }
    take(&sw, &b, &n, &f);
    if (cf->skip_xcb) {
        /* only xwire sent: its length field must cover exactly what arrived */
        uint16_t words = 0;
        if (n >= 4)
            memcpy(&words, b + 2, 2);
        if (cf->skip_xcb == 2)
            cf->skip_xcb = 0;
        if (n >= 4 && (size_t)words * 4 == n) {
            length_only++;
        } else {
            differ++;
            fprintf(stderr, "DIFFER: %s %s (variant %d): %zu bytes, length field %u words\n", current->ext,
                    current->name, current_v, n, words);
        }
    } else if (n == xcb_len && same(b, xcb_bytes, n) && f == xcb_fds) {
        identical++;
    } else {
        const char *why = known_reason(current);
        size_t at = 0;
        while (at < n && at < xcb_len && b[at] == xcb_bytes[at])
            at++;
        if (why) {
            known_differ++;
            printf("known difference: %s %s (variant %d): %s\n", current->ext, current->name, current_v, why);
        } else {
            differ++;
            fprintf(stderr, "DIFFER: %s %s (variant %d), first at byte %zu, fds %d vs %d\n", current->ext,
                    current->name, current_v, at, xcb_fds, f);
            (void)0;
            dump("libxcb", xcb_bytes, xcb_len, at & ~(size_t)7);
            dump("xwire", b, n, at & ~(size_t)7);
        }
    }
    free(b);
    free(xcb_bytes);
    xcb_bytes = NULL;
    uninit_from = uninit_to = -1;
    trace_take();
}

int main(void)
{
    devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    int xfd = start_server(&sx), wfd = start_server(&sw);
    struct cf cf = {0};
    cf.xc = xcb_connect_to_fd(xfd, NULL);
    cf.wc = xw_connect_to_fd(wfd, NULL);
    if (xcb_connection_has_error(cf.xc) || xw_connection_has_error(cf.wc)) {
        fprintf(stderr, "conform: setup failed\n");
        return 2;
    }
    /* xwire's requests traced as JSON numbers, for cf_traced */
    trace_fd = memfd_create("conform-trace", MFD_CLOEXEC);
    if (trace_fd < 0 || xw_trace_set(cf.wc, trace_fd, XW_TRACE_JSON | XW_TRACE_NUMBERS) < 0) {
        fprintf(stderr, "conform: cannot trace\n");
        return 2;
    }
    /* from here on every fd a request was given (dup'd /dev/null) must be closed
     * once sent or refused */
    struct fdcheck fc;
    fdcheck_begin(&fc);
    int requests = 0, uninit_forms = 0;
    for (const struct cf_case *const *list = cf_all; *list; list++) {
        for (const struct cf_case *c = *list; c->run; c++) {
            requests++;
            int k = known_index(c);
            cf.skip_xcb = k >= 0 && known[k].skip_xcb;
            uninit_seen = 0;
            for (int v = 0; v < 4; v++) {
                current = c, current_v = v;
                cf.rng = harness_seed(c->ext, c->name) + (uint64_t)v;
                arena_used = 0;
                if (getenv("CF_TRACE"))
                    fprintf(stderr, "case %s %s %d\n", c->ext, c->name, v);
                c->run(&cf, v);
            }
            uninit_forms += uninit_seen;
        }
    }
    printf("%d request forms, %d calls identical with libxcb (%d forms where libxcb sent uninitialised struct "
           "padding, ignored), %d known libxcb differences, %d checked by length only (%d where libxcb failed), "
           "%d differ\n",
           requests, identical, uninit_forms, known_differ, length_only, xcb_failed, differ);
    if (XW_COUNT_ALLOCS)
        printf("heap allocations in xwire request calls: %lu after warm-up (%lu in first calls, extension queries)\n",
               allocs, warm_allocs);
    else
        printf("heap allocations not counted: a sanitizer owns the allocator in this build\n");
    if (allocs)
        differ++;
    differ += fdcheck_main_end(&fc, "conform");
    printf("tracer: %d argument fields decoded equal to the arguments, %d differ, %d calls not traced\n",
           fields_checked, fields_differ, untraced);
    differ += fields_differ;
    printf("%d passed, %d failed\n", identical + known_differ + length_only, differ);
    xcb_disconnect(cf.xc);
    xw_disconnect(cf.wc);
    close(trace_fd);
    return differ != 0;
}
