/* SPDX-License-Identifier: MIT */
/* drain.c — the fake X servers: one process each that parses every request's length, answers only what a
 * client must hear back (setup, round trips, a few queries), discards the rest and streams events on
 * demand, so the benchmark sees the client's cost alone. They differ only in how they use the socket
 * (struct fake_io): the drain's big reads and batched writes, and the ways other servers do it. */
#include "drain.h"
#include "fdio.h"
#include "inputs.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

/* Core opcodes the drain server cares about. */
enum {
    OP_CHANGE_WINDOW_ATTRIBUTES = 2,
    OP_CONFIGURE_WINDOW = 12,
    OP_INTERN_ATOM = 16,
    OP_GET_PROPERTY = 20,
    OP_GET_INPUT_FOCUS = 43,
    OP_CHANGE_GC = 56,
    OP_PUT_IMAGE = 72,
    OP_QUERY_EXTENSION = 98,
    OP_NO_OPERATION = 127,
};

#define IN_SIZE (1u << 20)
/* Room for the replies to every request of the biggest read: 4-byte requests
 * (GetInputFocus) answered with 32 bytes each. Untouched pages cost nothing. */
#define OUT_SIZE (IN_SIZE / 4 * 32)

/* How one fake server uses its socket. */
struct fake_io {
    size_t read_max; /* bytes asked for per read */
    size_t out_max;  /* replies are written once this many are queued (and after
                          each read); 32: every reply goes out in its own write */
    int sockbuf;     /* SO_SNDBUF and SO_RCVBUF asked for, 0: the system's default */
};

/* Indexed by enum server_kind. */
static const struct fake_io fake_io[SERVER_COUNT] = {
    /* reads up to 1 MiB, writes replies 64 KiB at a time */
    [SERVER_DRAIN] = {IN_SIZE, 64u << 10, 0},
    /* reads 64 KiB, answers all the requests of one read with one write */
    [SERVER_PER_READ] = {64u << 10, OUT_SIZE, 0},
    /* reads 64 KiB, one write per reply */
    [SERVER_PER_REPLY] = {64u << 10, 32, 0},
    /* 4 KiB socket buffers (the kernel doubles them), 4 KiB reads, one write per read */
    [SERVER_SMALL_BUF] = {4u << 10, OUT_SIZE, 4u << 10},
};

/* One client at a time: benchmark runs are sequential, and static buffers keep the
 * server allocation-free and its hot loop simple. */
struct conn {
    int fd;
    const struct fake_io *io;
    int swap;         /* client's byte order differs from ours */
    int bigreq;       /* BigReqEnable answered: a zero length means a 32-bit one follows */
    uint64_t seq;     /* requests parsed so far: the sequence number of the last one */
    uint64_t counted; /* NoOperation and value-list requests seen */
    uint64_t rows;    /* PutImage rows seen */
    uint64_t skip;    /* bytes of the current request still to discard */
    long events_due;  /* events to stream once the pending replies are out */
    size_t in_len, out_len;
    unsigned char in[IN_SIZE];
    unsigned char out[OUT_SIZE];
};

static struct conn conn;
static unsigned char property_data[DRAIN_PROPERTY_BYTES];

static uint16_t get16(const struct conn *c, const unsigned char *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return c->swap ? __builtin_bswap16(v) : v;
}

static uint32_t get32(const struct conn *c, const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return c->swap ? __builtin_bswap32(v) : v;
}

static void put16(const struct conn *c, unsigned char *p, uint16_t v)
{
    v = c->swap ? __builtin_bswap16(v) : v;
    memcpy(p, &v, 2);
}

static void put32(const struct conn *c, unsigned char *p, uint32_t v)
{
    v = c->swap ? __builtin_bswap32(v) : v;
    memcpy(p, &v, 4);
}

/* Blocking writes: the client reads while it writes, so they cannot deadlock
 * against a well-behaved client. */
static int flush_out(struct conn *c)
{
    int r = c->out_len ? fd_write_all(c->fd, c->out, c->out_len) : 0;
    c->out_len = 0;
    return r;
}

/* Writes what is queued, then len bytes at data, in one writev where the socket
 * takes them (a short write goes on from where it stopped). */
static int flush_with(struct conn *c, const unsigned char *data, size_t len)
{
    struct iovec iov[2] = {{c->out, c->out_len}, {(void *)(uintptr_t)data, len}}; /* only read from */
    struct iovec *v = iov;
    int n = 2;
    c->out_len = 0;
    while (n) {
        ssize_t w = writev(c->fd, v, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        for (; n && (size_t)w >= v->iov_len; v++, n--)
            w -= (ssize_t)v->iov_len;
        if (n) {
            v->iov_base = (unsigned char *)v->iov_base + w;
            v->iov_len -= (size_t)w;
        }
    }
    return 0;
}

/* A zeroed 32-byte reply in the output buffer for the request just parsed. */
static unsigned char *reply(struct conn *c, uint8_t data, uint32_t extra_words)
{
    if (c->out_len + 32 > c->io->out_max && flush_out(c) < 0)
        return NULL;
    unsigned char *r = c->out + c->out_len;
    c->out_len += 32;
    memset(r, 0, 32);
    r[0] = 1;
    r[1] = data;
    put16(c, r + 2, (uint16_t)c->seq);
    put32(c, r + 4, extra_words);
    return r;
}

/* ---- connection setup ---- */

struct wbuf {
    const struct conn *c;
    unsigned char *p;
    size_t len;
};

static void w8(struct wbuf *w, uint8_t v)
{
    w->p[w->len++] = v;
}

static void w16(struct wbuf *w, uint16_t v)
{
    put16(w->c, w->p + w->len, v);
    w->len += 2;
}

static void w32(struct wbuf *w, uint32_t v)
{
    put32(w->c, w->p + w->len, v);
    w->len += 4;
}

static void wpad(struct wbuf *w, size_t n)
{
    memset(w->p + w->len, 0, n);
    w->len += n;
}

/* The smallest setup that libxcb, Xlib and xwire accept: one screen of depth 24 with
 * one TrueColor visual. */
static size_t build_setup(const struct conn *c, unsigned char *buf)
{
    static const char vendor[] = "xwbench drain"; /* 13 bytes, padded to 16 */
    struct wbuf w = {c, buf, 0};
    w8(&w, 1), w8(&w, 0), w16(&w, 11), w16(&w, 0), w16(&w, 0); /* length patched below */
    w32(&w, 12101007);                                         /* release */
    w32(&w, 0x00400000);                                       /* resource-id base */
    w32(&w, 0x001fffff);                                       /* resource-id mask */
    w32(&w, 256);                                              /* motion buffer */
    w16(&w, sizeof vendor - 1);
    w16(&w, 65535);                               /* maximum request length, 4-byte units */
    w8(&w, 1), w8(&w, 2);                         /* screens, pixmap formats */
    w8(&w, 0), w8(&w, 0), w8(&w, 32), w8(&w, 32); /* LSBFirst, LSBFirst, scanline unit, pad */
    w8(&w, 8), w8(&w, 255), wpad(&w, 4);
    memcpy(w.p + w.len, vendor, sizeof vendor - 1), w.len += sizeof vendor - 1, wpad(&w, 3);
    w8(&w, 1), w8(&w, 1), w8(&w, 32), wpad(&w, 5);                /* depth 1: 1 bpp */
    w8(&w, 24), w8(&w, 32), w8(&w, 32), wpad(&w, 5);              /* depth 24: 32 bpp */
    w32(&w, 0x100), w32(&w, 0x20), w32(&w, 0xffffff), w32(&w, 0); /* root, colormap, white, black */
    w32(&w, 0), w16(&w, 1280), w16(&w, 1024), w16(&w, 338), w16(&w, 270);
    w16(&w, 1), w16(&w, 1), w32(&w, 0x21);       /* installed maps, root visual */
    w8(&w, 0), w8(&w, 0), w8(&w, 24), w8(&w, 1); /* backing stores, save unders, root depth, depths */
    w8(&w, 24), w8(&w, 0), w16(&w, 1), wpad(&w, 4);
    w32(&w, 0x21), w8(&w, 4), w8(&w, 8), w16(&w, 256); /* TrueColor, 8 bits per RGB */
    w32(&w, 0xff0000), w32(&w, 0xff00), w32(&w, 0xff), wpad(&w, 4);
    put16(c, buf + 6, (uint16_t)((w.len - 8) / 4));
    return w.len;
}

/* Reads the client's setup request and answers it. Leftover bytes stay in c->in. */
static int do_setup(struct conn *c)
{
    size_t need = 12;
    while (c->in_len < need) {
        ssize_t n = read(c->fd, c->in + c->in_len, IN_SIZE - c->in_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        c->in_len += (size_t)n;
        if (c->in_len >= 12) {
            if (c->in[0] != 'l' && c->in[0] != 'B')
                return -1;
            c->swap = (c->in[0] == 'l') != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__);
            need = 12 + ((get16(c, c->in + 6) + 3u) & ~3u) + ((get16(c, c->in + 8) + 3u) & ~3u);
        }
    }
    unsigned char setup[256];
    if (fd_write_all(c->fd, setup, build_setup(c, setup)) < 0)
        return -1;
    memmove(c->in, c->in + need, c->in_len - need);
    c->in_len -= need;
    return 0;
}

/* ---- requests that get an answer ---- */

static int answer_intern_atom(struct conn *c, const unsigned char *req, size_t size)
{
    size_t len = get16(c, req + 4);
    if (8 + len > size)
        return -1;
    const char *name = (const char *)req + 8;
    uint32_t hash = 2166136261u; /* FNV-1a: the same name always gets the same atom */
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ (unsigned char)name[i]) * 16777619u;
    unsigned char *r = reply(c, 0, 0);
    if (!r)
        return -1;
    put32(c, r + 8, DRAIN_FIRST_ATOM + hash % 1000000u);
    size_t plen = sizeof DRAIN_EVENTS_PREFIX - 1;
    if (len > plen && len < plen + 16 && !memcmp(name, DRAIN_EVENTS_PREFIX, plen)) {
        char digits[16];
        memcpy(digits, name + plen, len - plen);
        digits[len - plen] = 0;
        c->events_due = strtol(digits, NULL, 10);
    }
    return 0;
}

static int answer_query_extension(struct conn *c, const unsigned char *req, size_t size)
{
    size_t len = get16(c, req + 4);
    if (8 + len > size)
        return -1;
    unsigned char *r = reply(c, 0, 0);
    if (!r)
        return -1;
    if (len == 12 && !memcmp(req + 8, "BIG-REQUESTS", 12)) {
        r[8] = 1;
        r[9] = DRAIN_BIGREQ_OPCODE;
    }
    return 0;
}

/* Atoms the drain server handed out get DRAIN_PROPERTY_BYTES of data; predefined
 * ones (Xlib reads RESOURCE_MANAGER at open) have no value. */
static int answer_get_property(struct conn *c, const unsigned char *req, size_t size)
{
    if (size < 24)
        return -1;
    uint64_t want = (uint64_t)get32(c, req + 20) * 4;
    uint32_t bytes = 0;
    if (get32(c, req + 8) >= DRAIN_FIRST_ATOM)
        bytes = want < DRAIN_PROPERTY_BYTES ? (uint32_t)want : DRAIN_PROPERTY_BYTES;
    unsigned char *r = reply(c, bytes ? 8 : 0, (bytes + 3) / 4);
    if (!r)
        return -1;
    if (!bytes)
        return 0;
    put32(c, r + 8, 31);                            /* type STRING */
    put32(c, r + 12, DRAIN_PROPERTY_BYTES - bytes); /* bytes after */
    put32(c, r + 16, bytes);                        /* value length in format units */
    /* The value goes out straight from its own buffer in the same write as what is
     * queued (one writev, as Xvfb's output buffer does it): one write per reply on
     * per-reply, one per read on per-read. */
    return flush_with(c, property_data, (bytes + 3) & ~3u);
}

/* Core requests that have a reply: all-zero replies are valid for every one the
 * libraries send on their own (counts of zero, no focus, no such thing). */
static int has_reply(uint8_t op)
{
    static const uint8_t ops[] = {3,  14, 15, 16,  17,  20,  21,  23,  26,  31,  38,  39, 40, 43,
                                  44, 47, 48, 49,  50,  52,  73,  83,  84,  85,  86,  87, 91, 92,
                                  97, 98, 99, 101, 103, 106, 108, 110, 116, 117, 118, 119};
    return memchr(ops, op, sizeof ops) != NULL;
}

/* A whole small request that needs an answer. */
static int answer(struct conn *c, const unsigned char *req, size_t size)
{
    switch (req[0]) {
    case OP_GET_INPUT_FOCUS: {
        unsigned char *r = reply(c, 0, 0);
        if (!r)
            return -1;
        put32(c, r + 8, (uint32_t)(c->counted + c->rows / IMAGE_H));
        return 0;
    }
    case OP_INTERN_ATOM:
        return answer_intern_atom(c, req, size);
    case OP_QUERY_EXTENSION:
        return answer_query_extension(c, req, size);
    case OP_GET_PROPERTY:
        return answer_get_property(c, req, size);
    case DRAIN_BIGREQ_OPCODE: { /* BigReqEnable, the only minor opcode */
        unsigned char *r = reply(c, 0, 0);
        if (!r)
            return -1;
        put32(c, r + 8, 0x3fffff);
        c->bigreq = 1;
        return 0;
    }
    default:
        return reply(c, 0, 0) ? 0 : -1;
    }
}

static int needs_answer(uint8_t op)
{
    return op == DRAIN_BIGREQ_OPCODE || (op < 128 && has_reply(op));
}

static int is_counted(uint8_t op)
{
    return op == OP_NO_OPERATION || op == OP_CHANGE_WINDOW_ATTRIBUTES || op == OP_CONFIGURE_WINDOW ||
           op == OP_CHANGE_GC;
}

/* ---- the request stream ---- */

/* Parses as many requests as c->in holds, answering those that need it. States:
 * skipping the rest of a long request (c->skip), or at a request boundary. A request
 * that needs an answer is handled only once it is whole; any other is counted at its
 * header and its body discarded as it arrives. Returns -1 on a protocol error. */
static int parse(struct conn *c)
{
    unsigned char *p = c->in, *end = c->in + c->in_len;
    for (;;) {
        if (c->skip) {
            uint64_t n = (uint64_t)(end - p) < c->skip ? (uint64_t)(end - p) : c->skip;
            p += n;
            c->skip -= n;
            if (c->skip)
                break;
        }
        if (end - p < 4)
            break;
        uint64_t size = (uint64_t)get16(c, p + 2) * 4;
        if (size == 0) {
            if (!c->bigreq)
                return -1;
            if (end - p < 8)
                break;
            size = (uint64_t)get32(c, p + 4) * 4;
            if (size < 8)
                return -1;
        }
        uint8_t op = p[0];
        if (op == OP_PUT_IMAGE) {
            /* Xlib splits an image into several requests: count rows, not requests. */
            size_t hdr = get16(c, p + 2) ? 4 : 8;
            if ((size_t)(end - p) < hdr + 12)
                break;
            c->rows += get16(c, p + hdr + 10);
        }
        if (needs_answer(op)) {
            if (size > IN_SIZE)
                return -1;
            if ((uint64_t)(end - p) < size)
                break;
            c->seq++;
            if (answer(c, p, (size_t)size) < 0)
                return -1;
            p += size;
            continue;
        }
        c->seq++;
        c->counted += is_counted(op);
        c->skip = size;
    }
    c->in_len = (size_t)(end - p);
    memmove(c->in, p, c->in_len);
    return 0;
}

/* ClientMessage events, format 32, carrying DRAIN_EVENT_MAGIC, written the way this
 * server writes replies: out_max bytes a write (the drain 64 KiB, per-read all of them
 * that fit its output buffer, per-reply one event a write, small-buf 8 MiB writes
 * into its 4 KiB socket buffer, so it blocks until the client reads). The output
 * buffer is empty here (flushed after the reply that asked for them); it is filled
 * once and written as often as needed. */
static int stream_events(struct conn *c)
{
    size_t most = c->io->out_max / 32;
    size_t n = (size_t)c->events_due < most ? (size_t)c->events_due : most;
    for (size_t i = 0; i < n; i++) {
        unsigned char *e = c->out + i * 32;
        memset(e, 0, 32);
        e[0] = 33;
        e[1] = 32;
        put16(c, e + 2, (uint16_t)c->seq);
        put32(c, e + 4, 0x100);
        put32(c, e + 8, DRAIN_FIRST_ATOM);
        put32(c, e + 12, DRAIN_EVENT_MAGIC);
    }
    while (c->events_due > 0) {
        size_t k = (size_t)c->events_due < n ? (size_t)c->events_due : n;
        if (fd_write_all(c->fd, c->out, k * 32) < 0)
            return -1;
        c->events_due -= (long)k;
    }
    return 0;
}

static void serve_client(int fd, const struct fake_io *io)
{
    memset(&conn, 0, offsetof(struct conn, in));
    conn.fd = fd;
    conn.io = io;
    if (io->sockbuf) {
        setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &io->sockbuf, sizeof io->sockbuf);
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &io->sockbuf, sizeof io->sockbuf);
    }
    if (do_setup(&conn) < 0)
        return;
    for (;;) {
        if (parse(&conn) < 0 || flush_out(&conn) < 0)
            return;
        if (conn.events_due && stream_events(&conn) < 0)
            return;
        if (conn.in_len == IN_SIZE)
            return; /* a request that needs an answer cannot fit: not ours to serve */
        size_t room = IN_SIZE - conn.in_len;
        ssize_t n = read(fd, conn.in + conn.in_len, room < io->read_max ? room : io->read_max);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        conn.in_len += (size_t)n;
    }
}

void drain_serve(enum server_kind kind, const int *listen_fds, int n_fds)
{
    memset(property_data, 'x', sizeof property_data);
    struct pollfd pfd[2];
    for (int i = 0; i < n_fds && i < 2; i++)
        pfd[i] = (struct pollfd){.fd = listen_fds[i], .events = POLLIN};
    for (;;) {
        if (poll(pfd, (nfds_t)n_fds, -1) < 0) {
            if (errno == EINTR)
                continue;
            _exit(1);
        }
        for (int i = 0; i < n_fds; i++) {
            if (!(pfd[i].revents & POLLIN))
                continue;
            int fd = accept4(pfd[i].fd, NULL, NULL, SOCK_CLOEXEC);
            if (fd < 0)
                continue;
            serve_client(fd, &fake_io[kind]);
            close(fd);
        }
    }
}
