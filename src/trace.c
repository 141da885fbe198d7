/* SPDX-License-Identifier: MIT */
/* trace.c — the protocol tracer: frames the bytes written and read into packets and writes one line each. */
#include "trace.h"
#include "base.h"
#include "callsite.h"
#include "clock.h"
#include "conn.h"
#include "lock.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#define RING 1024u     /* requests remembered for the replies and errors that name them */
#define CAPTURE 65536u /* bytes of one packet kept when it comes in pieces */
#define OUTBUF 65536u  /* lines batched into one write */
#define NEXTS 64u
#define NPEND 64u /* InternAtom, GetAtomName and QueryExtension answers awaited */
#define NFILTER 16u

#include "trace_list.h"

/* Generated per description (trace_list.h names them all). */
#define X(name) extern const struct xw_tr_desc xw__tr_##name;
XW_TR_DESCS
#undef X
static const struct xw_tr_desc *const all_descs[] = {
#define X(name) &xw__tr_##name,
    XW_TR_DESCS
#undef X
};

struct stream {
    uint8_t hdr[32];
    size_t hlen, hneed; /* header bytes held / needed before the length is known */
    size_t total;       /* the packet's bytes on the wire, once known (0: not yet) */
    size_t got;         /* of total, received */
    size_t keep;        /* bytes of the packet in buf (the BIG-REQUESTS length dropped) */
    int big;
    uint8_t *buf; /* CAPTURE bytes */
};

struct ext {
    char name[32];
    uint8_t major, first_event, first_error;
    const struct xw_tr_desc *d;
};

struct pend {
    uint64_t seq;
    uint8_t op; /* core opcode: 16 InternAtom, 17 GetAtomName, 98 QueryExtension */
    uint32_t atom;
    char name[40];
};

struct filter {
    char s[40];
    int neg;
};

/* Options read once from the environment; xw_trace_set's flags add to them. */
static struct {
    struct xw_mutex mu; /* taken to read the environment once (options) */
    int read;           /* set, with release, once it has been read */
    int fd;             /* XWIRE_TRACE's, -1 when unset */
    char *path;         /* XWIRE_TRACE's file name when it holds %p (a file per process), else NULL */
    pid_t pid;          /* the process fd was opened for, when path is set */
    int json;
    int numbers;
    unsigned maxlist;
    unsigned nfilter, ninclude;
    struct filter filter[NFILTER];
    int next_id;
} opt = {{0}, 0, -1, NULL, 0, 0, 0, 16, 0, 0, {{"", 0}}, 0};

/* One lock for every line written, whichever connection and file: lines never interleave. */
static pthread_mutex_t write_mu = PTHREAD_MUTEX_INITIALIZER;

struct xw_trace {
    int fd;
    int json;
    int numbers;
    int id;
    int64_t t0;
    uint64_t seq_out, seq_in;
    const int *out_fds; /* the fds going out with the bytes being traced, in order */
    unsigned out_nfds, out_fdpos;
    struct stream out, in;
    struct {
        uint64_t seq;
        uint8_t major, minor;
    } ring[RING];
    struct ext exts[NEXTS];
    unsigned nexts;
    struct pend pend[NPEND];
    struct xw_tr_atoms atoms;
    const int *in_fds;
    unsigned in_nfds;
    size_t olen;
    char obuf[OUTBUF];
    struct xw_trl l;
};

/* ---- options ---- */

static void parse_filter(const char *f)
{
    while (f && *f && opt.nfilter < NFILTER) {
        while (*f == ',' || *f == ' ')
            f++;
        size_t n = strcspn(f, ", ");
        if (!n)
            break;
        struct filter *e = &opt.filter[opt.nfilter];
        e->neg = *f == '-';
        size_t skip = (*f == '-' || *f == '+');
        size_t len = n - skip < sizeof(e->s) - 1 ? n - skip : sizeof(e->s) - 1;
        memcpy(e->s, f + skip, len);
        e->s[len] = 0;
        opt.ninclude += !e->neg;
        opt.nfilter++;
        f += n;
    }
}

/* XWIRE_TRACE's file for this process: %p stands for the process id and %% for a %, so
 * that the children a traced program starts (each its own connection) write files of
 * their own rather than lines interleaved in one. -1 when it cannot be opened. */
static int open_for_pid(const char *tmpl)
{
    char name[4096], *o = name, *end = name + sizeof(name) - 16;
    for (const char *s = tmpl; *s && o < end; s++) {
        if (s[0] != '%' || (s[1] != 'p' && s[1] != '%')) {
            *o++ = *s;
            continue;
        }
        s++;
        if (*s == 'p')
            o += snprintf(o, 16, "%ld", (long)getpid());
        else
            *o++ = '%';
    }
    *o = 0;
    return open(name, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

static void read_env(void)
{
    const char *v = getenv("XWIRE_TRACE");
    if (v && *v) {
        if (!strcmp(v, "stderr"))
            opt.fd = 2;
        else if (!strcmp(v, "-") || !strcmp(v, "stdout"))
            opt.fd = 1;
        else if (strchr(v, '%')) {
            opt.path = strdup(v); /* kept for the life of the process */
            opt.pid = getpid();
            opt.fd = opt.path ? open_for_pid(v) : -1;
        } else
            opt.fd = open(v, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    }
    const char *f = getenv("XWIRE_TRACE_FORMAT");
    opt.json = f && !strcasecmp(f, "json");
    const char *num = getenv("XWIRE_TRACE_NUMBERS");
    opt.numbers = num && *num && strcmp(num, "0");
    const char *m = getenv("XWIRE_TRACE_MAXLIST");
    if (m && *m) {
        long n = strtol(m, NULL, 10);
        opt.maxlist = n < 0 ? 0 : n > 1000000 ? 1000000 : (unsigned)n;
    }
    parse_filter(getenv("XWIRE_TRACE_FILTER"));
}

/* The line for a packet of extension ext (NULL: the core) named name passes the filter. */
static int wanted(const char *ext, const char *name)
{
    if (!opt.nfilter)
        return 1;
    int in = opt.ninclude == 0;
    for (unsigned i = 0; i < opt.nfilter; i++) {
        const struct filter *f = &opt.filter[i];
        const char *colon = strchr(f->s, ':');
        int hit;
        if (colon)
            hit = ext && !strncasecmp(f->s, ext, (size_t)(colon - f->s)) && strlen(ext) == (size_t)(colon - f->s) &&
                  name && !strcasecmp(colon + 1, name);
        else
            hit = (ext && !strcasecmp(f->s, ext)) || (name && !strcasecmp(f->s, name));
        if (hit)
            in = !f->neg;
    }
    return in;
}

/* ---- output ---- */

static void flush_lines(struct xw_trace *tr)
{
    size_t off = 0;
    pthread_mutex_lock(&write_mu);
    while (off < tr->olen) {
        ssize_t w = write(tr->fd, tr->obuf + off, tr->olen - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break; /* the trace is best effort: a full disk never stops the program */
        off += (size_t)w;
    }
    pthread_mutex_unlock(&write_mu);
    tr->olen = 0;
}

static struct xw_trl *line_start(struct xw_trace *tr, uint64_t seq, const char *dir, const char *kind)
{
    struct xw_trl *l = &tr->l;
    l->p = l->buf;
    l->end = l->buf + XW_TRL_SIZE;
    l->json = tr->json;
    l->numbers = tr->numbers;
    l->full = l->depth = l->lost = l->mute = l->shorted = 0;
    l->maxlist = opt.maxlist;
    l->fds = NULL;
    l->nfds = l->fdpos = 0;
    l->atoms = &tr->atoms;
    long long us = (long long)((xw__clock_now() - tr->t0) / 1000);
    if (tr->json)
        xw__trace_line_printf(l, "{\"t\":%lld,\"conn\":%d,\"seq\":%llu,\"dir\":\"%s\",\"kind\":\"%s\"", us, tr->id,
                              (unsigned long long)seq, dir, kind);
    else
        xw__trace_line_printf(l, "%lld c%d #%llu %s %s", us, tr->id, (unsigned long long)seq, dir, kind);
    return l;
}

static void line_name(struct xw_trl *l, const char *ext, const char *name, unsigned a, unsigned b)
{
    char num[32];
    if (!name) {
        snprintf(num, sizeof(num), ext ? "%u" : "Unknown%u", ext ? b : a);
        name = num;
    }
    if (l->json)
        xw__trace_line_printf(l, ",\"name\":\"%s%s%s\"", ext ? ext : "", ext ? ":" : "", name);
    else
        xw__trace_line_printf(l, " %s%s%s", ext ? ext : "", ext ? ":" : "", name);
}

static void line_end(struct xw_trace *tr)
{
    struct xw_trl *l = &tr->l;
    xw__trace_line_end(l);
    size_t n = (size_t)(l->p - l->buf);
    if (tr->olen + n > OUTBUF)
        flush_lines(tr);
    memcpy(tr->obuf + tr->olen, l->buf, n);
    tr->olen += n;
}

/* ---- what the connection has learnt: extensions and atoms ---- */

static const struct xw_tr_desc *desc_named(const char *xname)
{
    for (size_t i = 0; i < sizeof(all_descs) / sizeof(all_descs[0]); i++)
        if (!strcmp(all_descs[i]->xname, xname))
            return all_descs[i];
    return NULL;
}

const struct xw_tr_desc *const *xw__trace_descs(size_t *n)
{
    *n = sizeof(all_descs) / sizeof(all_descs[0]);
    return all_descs;
}

/* Entry i of a table of n, or NULL. */
static const struct xw_tr_entry *entry(const struct xw_tr_entry *t, int n, unsigned i)
{
    return t && (int)i < n && t[i].name ? &t[i] : NULL;
}

static const struct ext *ext_by_major(struct xw_trace *tr, unsigned major)
{
    for (unsigned i = 0; i < tr->nexts; i++)
        if (tr->exts[i].major == major)
            return &tr->exts[i];
    return NULL;
}

/* The extension whose events (errors: first 0) number code belongs to: the nearest base below. */
static const struct ext *ext_by_code(struct xw_trace *tr, unsigned code, int errors)
{
    const struct ext *best = NULL;
    for (unsigned i = 0; i < tr->nexts; i++) {
        const struct ext *e = &tr->exts[i];
        unsigned base = errors ? e->first_error : e->first_event;
        if (base && base <= code && (!best || base > (errors ? best->first_error : best->first_event)))
            best = e;
    }
    return best;
}

static const char *ext_label(const struct ext *e)
{
    return e->d ? e->d->ext_name : e->name;
}

/* ---- requests ---- */

static void remember(struct xw_trace *tr, uint64_t seq, const uint8_t *b, size_t avail)
{
    uint8_t op = b[0];
    if (op != 16 && op != 17 && op != 98)
        return;
    struct pend *p = &tr->pend[seq % NPEND];
    memset(p, 0, sizeof(*p));
    p->seq = seq;
    p->op = op;
    if (op == 17 && avail >= 8) {
        memcpy(&p->atom, b + 4, 4);
    } else if (avail >= 8) {
        uint16_t n;
        memcpy(&n, b + 4, 2);
        if (n < sizeof(p->name) && avail >= 8u + n)
            memcpy(p->name, b + 8, n);
        else
            p->seq = 0; /* too long to keep: the answer goes unlearnt */
    }
}

static void request_names(struct xw_trace *tr, unsigned major, unsigned minor, const char **ext, const char **name,
                          xw_tr_fn *fn)
{
    *ext = NULL, *name = NULL, *fn = NULL;
    const struct xw_tr_desc *d = &xw__tr_xproto;
    unsigned op = major;
    if (major >= 128) {
        const struct ext *e = ext_by_major(tr, major);
        *ext = e ? ext_label(e) : "Extension";
        d = e ? e->d : NULL;
        op = minor;
    }
    const struct xw_tr_entry *en = d ? entry(d->requests, d->n_requests, op) : NULL;
    if (en)
        *name = en->name, *fn = en->fn;
}

static void request(struct xw_trace *tr, const uint8_t *b, size_t avail, size_t len)
{
    uint64_t seq = ++tr->seq_out;
    tr->ring[seq % RING].seq = seq;
    tr->ring[seq % RING].major = b[0];
    tr->ring[seq % RING].minor = b[1];
    remember(tr, seq, b, avail);
    const char *ext, *name;
    xw_tr_fn fn;
    request_names(tr, b[0], b[1], &ext, &name, &fn);
    if (!wanted(ext, name))
        return;
    struct xw_trl *l = line_start(tr, seq, ">", "request");
    line_name(l, ext, name, b[0], b[1]);
    l->len = len;
    l->kept = avail;
    l->fds = tr->out_fds, l->nfds = tr->out_nfds, l->fdpos = tr->out_fdpos;
    xw__trace_line_fields(l);
    if (fn)
        fn(l, (const char *)b, avail);
    else
        xw__trace_line_printf(l, l->json ? "\"length\":%zu" : " length=%zu", len);
    tr->out_fdpos = l->fdpos; /* the next request's fds follow this one's */
    line_end(tr);
}

/* ---- replies, errors, events ---- */

static void learn(struct xw_trace *tr, uint64_t seq, const uint8_t *b, size_t avail)
{
    struct pend *p = &tr->pend[seq % NPEND];
    if (p->seq != seq || avail < 32)
        return;
    uint32_t a;
    memcpy(&a, b + 8, 4);
    if (p->op == 16) {
        xw__trace_atom_learn(&tr->atoms, a, p->name, strlen(p->name));
    } else if (p->op == 17) {
        uint16_t n;
        memcpy(&n, b + 8, 2);
        if (avail >= 32u + n)
            xw__trace_atom_learn(&tr->atoms, p->atom, (const char *)b + 32, n);
    } else if (p->op == 98 && b[8] && tr->nexts < NEXTS && !ext_by_major(tr, b[9])) {
        struct ext *e = &tr->exts[tr->nexts++];
        memcpy(e->name, p->name, sizeof(e->name) - 1);
        e->major = b[9], e->first_event = b[10], e->first_error = b[11];
        e->d = desc_named(p->name);
    }
    p->seq = 0;
}

static void reply(struct xw_trace *tr, uint64_t seq, const uint8_t *b, size_t avail, size_t len)
{
    learn(tr, seq, b, avail);
    const char *ext = NULL, *name = NULL;
    xw_tr_fn fn = NULL;
    unsigned major = 0, minor = 0;
    if (tr->ring[seq % RING].seq == seq) {
        major = tr->ring[seq % RING].major, minor = tr->ring[seq % RING].minor;
        request_names(tr, major, minor, &ext, &name, &fn);
        const struct xw_tr_desc *d =
            major >= 128 ? (ext_by_major(tr, major) ? ext_by_major(tr, major)->d : NULL) : &xw__tr_xproto;
        const struct xw_tr_entry *en = d ? entry(d->replies, d->n_replies, major >= 128 ? minor : major) : NULL;
        fn = en ? en->fn : NULL;
    }
    if (!wanted(ext, name))
        return;
    struct xw_trl *l = line_start(tr, seq, "<", "reply");
    line_name(l, ext, name ? name : "Unknown", major, minor);
    l->len = len;
    l->kept = avail;
    l->fds = tr->in_fds, l->nfds = tr->in_nfds;
    xw__trace_line_fields(l);
    if (fn)
        fn(l, (const char *)b, avail);
    else
        xw__trace_line_printf(l, l->json ? "\"length\":%zu" : " length=%zu", len);
    line_end(tr);
}

static void error(struct xw_trace *tr, xw_connection_t *c, uint64_t seq, const uint8_t *b)
{
    unsigned code = b[1], minor = xw__rd16(b + 8), major = b[10];
    const char *ename = NULL, *eext = NULL;
    xw_tr_fn fn = NULL;
    const struct xw_tr_desc *d = &xw__tr_xproto;
    unsigned num = code;
    if (code >= 128) {
        const struct ext *e = ext_by_code(tr, code, 1);
        d = e ? e->d : NULL;
        eext = e ? ext_label(e) : NULL;
        num = e ? code - e->first_error : code;
    }
    const struct xw_tr_entry *en = d ? entry(d->errors, d->n_errors, num) : NULL;
    if (en)
        ename = en->name, fn = en->fn;
    const char *rext, *rname;
    xw_tr_fn rfn;
    request_names(tr, major, minor, &rext, &rname, &rfn);
    if (!wanted(eext, ename) || !wanted(rext, rname))
        return;
    struct xw_trl *l = line_start(tr, seq, "<", "error");
    line_name(l, eext, ename, code, num);
    uint32_t bad;
    memcpy(&bad, b + 4, 4);
    char rq[96];
    snprintf(rq, sizeof(rq), "%s%s%s", rext ? rext : "", rext ? ":" : "", rname ? rname : "Unknown");
    if (l->json)
        xw__trace_line_printf(l, ",\"bad_value\":%u,\"major_opcode\":%u,\"minor_opcode\":%u,\"request\":\"%s\"", bad,
                              major, minor, rq);
    else
        xw__trace_line_printf(l, " bad_value=0x%x request=%s(%u.%u)", bad, rq, major, minor);
    char site[256];
    const char *where = xw__callsite_text(c, seq, site, sizeof(site));
    if (where) {
        xw__trace_line_puts(l, l->json ? ",\"callsite\":" : " callsite=");
        xw__trace_line_str(l, where, strlen(where));
    }
    l->len = l->kept = 32;
    xw__trace_line_fields(l);
    if (fn)
        fn(l, (const char *)b, 32);
    line_end(tr);
}

static void event(struct xw_trace *tr, uint64_t seq, const uint8_t *b, size_t avail, size_t len)
{
    unsigned code = b[0] & 0x7f, num = code;
    const char *ext = NULL, *name = NULL;
    xw_tr_fn fn = NULL;
    const struct xw_tr_desc *d = &xw__tr_xproto;
    if (code == XW_GE_GENERIC) {
        const struct ext *e = ext_by_major(tr, b[1]);
        d = e ? e->d : NULL;
        ext = e ? ext_label(e) : "GenericEvent";
        num = xw__rd16(b + 8);
        const struct xw_tr_entry *en = d ? entry(d->xge, d->n_xge, num) : NULL;
        name = en ? en->name : NULL, fn = en ? en->fn : NULL;
    } else {
        if (code >= 64) {
            const struct ext *e = ext_by_code(tr, code, 0);
            d = e ? e->d : NULL;
            ext = e ? ext_label(e) : NULL;
            num = e ? code - e->first_event : code;
            /* XKB sends every event under one code, its kind in byte 1 */
            if (e && !strcmp(e->name, "XKEYBOARD") && num == 0)
                num = b[1];
        }
        const struct xw_tr_entry *en = d ? entry(d->events, d->n_events, num) : NULL;
        name = en ? en->name : NULL, fn = en ? en->fn : NULL;
    }
    if (!wanted(ext, name))
        return;
    struct xw_trl *l = line_start(tr, seq, "<", (b[0] & 0x80) ? "event(sent)" : "event");
    line_name(l, ext, name, code, num);
    l->len = len;
    l->kept = avail;
    xw__trace_line_fields(l);
    if (fn)
        fn(l, (const char *)b, avail);
    line_end(tr);
}

static void packet_in(struct xw_trace *tr, xw_connection_t *c, const uint8_t *b, size_t avail, size_t len)
{
    unsigned type = b[0] & 0x7f;
    uint64_t seq = tr->seq_in;
    if (type != XW_KEYMAP_NOTIFY) {
        seq += (uint16_t)(xw__rd16(b + 2) - (uint16_t)tr->seq_in);
        tr->seq_in = seq;
    }
    if (type == 1)
        reply(tr, seq, b, avail, len);
    else if (type == 0)
        error(tr, c, seq, b);
    else
        event(tr, seq, b, avail, len);
}

/* ---- framing: packets out of a byte stream cut anywhere ---- */

/* Bytes of the packet starting with the header h (hlen bytes): 0 when more header is needed. */
static size_t size_out(const uint8_t *h, size_t hlen, int *big)
{
    if (hlen < 4)
        return 0;
    uint16_t words = xw__rd16(h + 2);
    *big = words == 0;
    if (words)
        return (size_t)words * 4;
    if (hlen < 8)
        return 0;
    uint32_t w32;
    memcpy(&w32, h + 4, 4);
    return w32 < 2 ? 8 : (size_t)w32 * 4;
}

static size_t size_in(const uint8_t *h, size_t hlen, int *big)
{
    *big = 0;
    if (hlen < 32)
        return 0;
    unsigned type = h[0] & 0x7f;
    if (type != 1 && type != XW_GE_GENERIC)
        return 32;
    return 32 + (size_t)xw__rd32(h + 4) * 4;
}

static void deliver(struct xw_trace *tr, xw_connection_t *c, int out, const uint8_t *b, size_t avail, size_t len)
{
    if (out)
        request(tr, b, avail, len);
    else
        packet_in(tr, c, b, avail, len);
}

/* The bytes p[0..n) of one direction's stream. A packet wholly inside them is decoded
 * where it is; one cut by the end of a write or read is gathered (up to CAPTURE bytes:
 * the rest of a bigger one is counted, not kept). A BIG-REQUESTS request is kept
 * without its 32-bit length, so decoders see the usual header. */
static void feed(struct xw_trace *tr, xw_connection_t *c, int out, const uint8_t *p, size_t n)
{
    struct stream *s = out ? &tr->out : &tr->in;
    size_t (*size)(const uint8_t *, size_t, int *) = out ? size_out : size_in;
    while (n > 0) {
        if (!s->total && !s->hlen) { /* at a packet boundary: whole in place? */
            int big;
            size_t need = size(p, n < 32 ? n : 32, &big);
            if (need && need <= n && !big) {
                deliver(tr, c, out, p, need, need);
                p += need, n -= need;
                continue;
            }
        }
        if (!s->total) {
            size_t want = out ? 8 : 32, take = want - s->hlen < n ? want - s->hlen : n;
            memcpy(s->hdr + s->hlen, p, take);
            size_t need = size(s->hdr, s->hlen + take, &s->big);
            if (!need) {
                s->hlen += take;
                p += take, n -= take;
                continue;
            }
            /* the header is complete with fewer bytes than taken: put the rest back */
            size_t hdr = out ? (s->big ? 8 : 4) : 32;
            size_t used = hdr > s->hlen ? hdr - s->hlen : 0;
            p += used, n -= used;
            s->total = need;
            s->got = hdr;
            memcpy(s->buf, s->hdr, 4);
            memcpy(s->buf + 4, s->hdr + (s->big ? 8 : 4), hdr - (s->big ? 8 : 4));
            s->keep = hdr - (s->big ? 4 : 0);
            s->hlen = 0;
        }
        size_t take = s->total - s->got < n ? s->total - s->got : n;
        size_t copy = CAPTURE - s->keep < take ? CAPTURE - s->keep : take;
        memcpy(s->buf + s->keep, p, copy);
        s->keep += copy, s->got += take;
        p += take, n -= take;
        if (s->got == s->total) {
            deliver(tr, c, out, s->buf, s->keep, s->total - (s->big ? 4 : 0));
            s->total = 0;
        }
    }
}

static void feed_iov(struct xw_trace *tr, xw_connection_t *c, int out, const struct iovec *iov, size_t n, size_t bytes)
{
    for (size_t i = 0; i < n && bytes > 0; i++) {
        size_t k = iov[i].iov_len < bytes ? iov[i].iov_len : bytes;
        if (k && iov[i].iov_base)
            feed(tr, c, out, iov[i].iov_base, k);
        else if (k) { /* padding slices are zeros */
            static const uint8_t zeros[256];
            for (size_t left = k; left > 0;) {
                size_t z = left < sizeof(zeros) ? left : sizeof(zeros);
                feed(tr, c, out, zeros, z);
                left -= z;
            }
        }
        bytes -= k;
    }
}

void xw__trace_out(xw_connection_t *c, const struct iovec *iov, size_t n, size_t w, const int *fds, unsigned nfds)
{
    struct xw_trace *tr = c->trace;
    tr->out_fds = fds, tr->out_nfds = nfds, tr->out_fdpos = 0;
    feed_iov(tr, c, 1, iov, n, w);
    tr->out_fds = NULL, tr->out_nfds = 0;
    if (tr->olen)
        flush_lines(tr);
}

void xw__trace_in(xw_connection_t *c, const struct iovec *iov, size_t n, size_t r, const int *fds, unsigned nfds)
{
    struct xw_trace *tr = c->trace;
    tr->in_fds = fds, tr->in_nfds = nfds;
    feed_iov(tr, c, 0, iov, n, r);
    tr->in_fds = NULL, tr->in_nfds = 0;
    if (tr->olen)
        flush_lines(tr);
}

/* ---- switching it on and off ---- */

/* The environment, read once. Not pthread_once: glibc's makes a futex call the first
 * time, waiters or not, and a program whose seccomp filter is already in place when it
 * connects (xwallpaper's) is killed for a system call libxcb never makes. Our lock
 * makes one only when another thread holds it. */
static void options(void)
{
    if (__atomic_load_n(&opt.read, __ATOMIC_ACQUIRE))
        return;
    xw__lock_acquire(&opt.mu);
    if (!opt.read) {
        read_env();
        __atomic_store_n(&opt.read, 1, __ATOMIC_RELEASE);
    }
    xw__lock_release(&opt.mu);
}

/* A process forked after the environment was read has the parent's file: with %p in
 * XWIRE_TRACE it opens its own at its first connection (the parent's fd stays open
 * in it: it was inherited, and other code of the child may share it). */
static void options_after_fork(void)
{
    if (!opt.path || __atomic_load_n(&opt.pid, __ATOMIC_ACQUIRE) == getpid())
        return;
    xw__lock_acquire(&opt.mu);
    if (opt.pid != getpid()) {
        opt.fd = open_for_pid(opt.path);
        __atomic_store_n(&opt.pid, getpid(), __ATOMIC_RELEASE);
    }
    xw__lock_release(&opt.mu);
}

/* Lock held. */
static int trace_on(xw_connection_t *c, int fd, int json, int numbers)
{
    struct xw_trace *tr = c->trace;
    if (!tr) {
        tr = calloc(1, sizeof(*tr));
        uint8_t *bufs = malloc(2 * CAPTURE);
        if (!tr || !bufs) {
            free(tr), free(bufs);
            return -ENOMEM;
        }
        tr->out.buf = bufs, tr->in.buf = bufs + CAPTURE;
        tr->id = __atomic_add_fetch(&opt.next_id, 1, __ATOMIC_RELAXED);
        tr->t0 = c->born_ns ? c->born_ns : xw__clock_now();
        /* from here on: what is written next starts a request, what is read next
         * after the requests so far */
        tr->seq_out = c->out.flushed;
        tr->seq_in = c->in.last_seq;
        tr->in.buf = bufs + CAPTURE;
        tr->fd = fd;
        /* a packet half read goes to the tracer first, so what is read next continues it */
        if (c->in.pdata)
            feed(tr, c, 0, c->in.pdata, c->in.pfill);
        else if (c->in.len)
            feed(tr, c, 0, c->in.buf, c->in.len);
    }
    tr->fd = fd;
    tr->json = json;
    tr->numbers = numbers;
    c->trace = tr;
    return 0;
}

void xw__trace_connect(xw_connection_t *c)
{
    options();
    options_after_fork();
    if (opt.fd < 0 || c->error)
        return;
    xw__conn_lock(c);
    int r = trace_on(c, opt.fd, opt.json, opt.numbers);
    xw__conn_unlock(c);
    if (r == 0) /* a traced error names the line that sent its request */
        xw__callsite_enable(c);
}

void xw__trace_fini(xw_connection_t *c)
{
    struct xw_trace *tr = c->trace;
    if (!tr)
        return;
    if (tr->olen)
        flush_lines(tr);
    c->trace = NULL;
    free(tr->out.buf);
    free(tr);
}

XW_EXPORT int xw_trace_set(xw_connection_t *c, int fd, unsigned flags)
{
    if (!c)
        return -EINVAL;
    options();
    xw__conn_lock(c);
    /* a write in progress is mid-request: wait for it, so tracing starts at a boundary */
    while (c->out.writing && !c->error)
        xw__lock_wait(&c->out_cond, &c->mu, -1);
    int r = 0;
    if (fd < 0) {
        struct xw_trace *tr = c->trace;
        if (tr && tr->olen)
            flush_lines(tr);
        c->trace = NULL;
        if (tr) {
            free(tr->out.buf);
            free(tr);
        }
    } else {
        r = trace_on(c, fd, (flags & XW_TRACE_JSON) || opt.json, (flags & XW_TRACE_NUMBERS) || opt.numbers);
    }
    xw__conn_unlock(c);
    if (fd >= 0 && r == 0) /* a traced error names the line that sent its request */
        xw__callsite_enable(c);
    return r;
}
