/* SPDX-License-Identifier: MIT */
/* dpyserver.c — a fake X server on ":N" for Xlib and xwire: setup, minimal replies, a request log. */
#include "dpyserver.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fake_server.h"

/* Exactly n bytes; 0 on EOF or error. */
static int read_all(int fd, uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t r = recv(fd, p, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        p += r;
        n -= (size_t)r;
    }
    return 1;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return 0;
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

/* A reply header in out[0..7]; body bytes (already at out + 32 onward, or in out[8..31])
 * are the caller's; total = 32 + 4 * extra_words. */
static size_t reply_head(uint8_t *out, uint16_t seq, uint8_t byte1, uint32_t extra_words)
{
    out[0] = 1;
    out[1] = byte1;
    fs_wr16(out + 2, seq);
    fs_wr32(out + 4, extra_words);
    return 32 + 4 * (size_t)extra_words;
}

/* Core requests that have replies; one the server does not answer is recorded so the
 * test can say why a client hung instead of timing out silently. */
static int core_has_reply(uint8_t op)
{
    static const uint8_t ops[] = {3,  14, 15, 16, 17, 20, 21, 23, 26, 31, 38, 39,  40,  43,  44,  47,  48,  49,  50, 52,
                                  73, 83, 84, 85, 86, 87, 91, 92, 97, 98, 99, 101, 103, 106, 108, 110, 116, 117, 119};
    return memchr(ops, op, sizeof(ops)) != NULL;
}

/* The extensions this server offers: name, major opcode, first event, first error. */
static const struct {
    const char *name;
    uint8_t major, event, error;
} exts[] = {
    {"DOUBLE-BUFFER", DPY_DBE_MAJOR, 0, 150}, {"XFree86-VidModeExtension", DPY_VM_MAJOR, 0, 160},
    {"XKEYBOARD", DPY_XKB_MAJOR, 85, 170},    {"XInputExtension", DPY_XI_MAJOR, 90, 175},
    {"RANDR", DPY_RANDR_MAJOR, 110, 185},
};

static size_t answer_query_extension(const uint8_t *req, size_t len, uint16_t seq, uint8_t *out)
{
    size_t n = len >= 8 ? fs_rd16(req + 4) : 0;
    const char *name = (const char *)req + 8;
    if (n + 8 > len)
        n = 0;
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        if (n == strlen(exts[i].name) && !memcmp(name, exts[i].name, n)) {
            out[8] = 1, out[9] = exts[i].major, out[10] = exts[i].event, out[11] = exts[i].error;
        }
    }
    return reply_head(out, seq, 0, 0);
}

/* DBE replies (dbe.xml; dbeproto.h): GetVersion, GetVisualInfo, GetBackBufferAttributes. */
static size_t answer_dbe(const uint8_t *req, size_t len, uint16_t seq, uint8_t *out, size_t cap)
{
    switch (req[1]) {
    case 0: /* GetVersion: server 1.0 */
        out[8] = 1;
        out[9] = 0;
        return reply_head(out, seq, 0, 0);
    case 6: { /* GetVisualInfo: one VisualInfos per drawable asked (1 when none), each with one visual */
        uint32_t n = len >= 8 ? fs_rd32(req + 4) : 0, m = n ? n : 1;
        if (32 + 12 * (size_t)m > cap)
            return 0;
        fs_wr32(out + 8, m);
        for (uint32_t i = 0; i < m; i++) {
            uint8_t *v = out + 32 + 12 * i;
            fs_wr32(v, 1);        /* n_infos */
            fs_wr32(v + 4, 0x21); /* visual */
            v[8] = 24;            /* depth */
            v[9] = (uint8_t)i;    /* perf_level */
        }
        return reply_head(out, seq, 0, 3 * m);
    }
    case 7: /* GetBackBufferAttributes: the window */
        fs_wr32(out + 8, 0x1234);
        return reply_head(out, seq, 0, 0);
    }
    return 0;
}

/* A ModeInfo of xf86vidmode.xml (48 bytes) with recognisable values. */
static void mode_info(uint8_t *p)
{
    fs_wr32(p, 25175);
    fs_wr16(p + 4, 640), fs_wr16(p + 6, 656), fs_wr16(p + 8, 752), fs_wr16(p + 10, 800);
    fs_wr32(p + 12, 0);
    fs_wr16(p + 16, 480), fs_wr16(p + 18, 490), fs_wr16(p + 20, 492), fs_wr16(p + 22, 525);
    fs_wr32(p + 28, 0x0a); /* flags */
    fs_wr32(p + 44, 0);    /* privsize */
}

/* XFree86-VidMode replies (xf86vidmode.xml, protocol 2.2). */
static size_t answer_vidmode(const uint8_t *req, size_t len, uint16_t seq, uint8_t *out, size_t cap)
{
    switch (req[1]) {
    case 0: /* QueryVersion: 2.2 */
        fs_wr16(out + 8, 2), fs_wr16(out + 10, 2);
        return reply_head(out, seq, 0, 0);
    case 1: /* GetModeLine: 52 bytes, privsize 0 */
        fs_wr32(out + 8, 25175);
        fs_wr16(out + 12, 640), fs_wr16(out + 14, 656), fs_wr16(out + 16, 752), fs_wr16(out + 18, 800),
            fs_wr16(out + 20, 0);
        fs_wr16(out + 22, 480), fs_wr16(out + 24, 490), fs_wr16(out + 26, 492), fs_wr16(out + 28, 525);
        fs_wr32(out + 32, 0x0a);
        fs_wr32(out + 48, 0);
        return reply_head(out, seq, 0, 5);
    case 4: /* GetMonitor: vendor "abc", model "xy", one hsync and one vsync range */
        out[8] = 3, out[9] = 2, out[10] = 1, out[11] = 1;
        fs_wr32(out + 32, (uint32_t)(8200u << 16 | 3150u));
        fs_wr32(out + 36, (uint32_t)(7500u << 16 | 5000u));
        memcpy(out + 40, "abc\0xy\0\0", 8);
        return reply_head(out, seq, 0, 4);
    case 6: /* GetAllModeLines: one mode */
        fs_wr32(out + 8, 1);
        mode_info(out + 32);
        return reply_head(out, seq, 0, 12);
    case 9: /* ValidateModeLine: status 0 (MODE_OK) */
        return reply_head(out, seq, 0, 0);
    case 11: /* GetViewPort */
        fs_wr32(out + 8, 16), fs_wr32(out + 12, 32);
        return reply_head(out, seq, 0, 0);
    case 13: /* GetDotClocks: two fixed clocks */
        fs_wr32(out + 8, 0), fs_wr32(out + 12, 2), fs_wr32(out + 16, 2);
        fs_wr32(out + 32, 25175), fs_wr32(out + 36, 28322);
        return reply_head(out, seq, 0, 2);
    case 16: /* GetGamma: 1.0 each */
        fs_wr32(out + 8, 10000), fs_wr32(out + 12, 10000), fs_wr32(out + 16, 10000);
        return reply_head(out, seq, 0, 0);
    case 17: { /* GetGammaRamp: the size asked (rounded up to even), ramps 0, 1, 2, ... */
        uint16_t size = len >= 8 ? fs_rd16(req + 6) : 0;
        size_t n = ((size_t)size + 1) & ~(size_t)1;
        if (32 + 6 * n > cap)
            return 0;
        fs_wr16(out + 8, (uint16_t)n);
        for (size_t i = 0; i < 3 * n; i++)
            fs_wr16(out + 32 + 2 * i, (uint16_t)i);
        return reply_head(out, seq, 0, (uint32_t)(6 * n / 4));
    }
    case 19: /* GetGammaRampSize */
        fs_wr16(out + 8, 256);
        return reply_head(out, seq, 0, 0);
    case 20: /* GetPermissions: read | write */
        fs_wr32(out + 8, 3);
        return reply_head(out, seq, 0, 0);
    }
    (void)len;
    return 0;
}

/* XKEYBOARD (xkb.xml): UseExtension, the one reply libX11's XKB asks for before any
 * Set* request (XkbUseExtension, also run by XOpenDisplay): supported, server 1.0. */
static size_t answer_xkb(const uint8_t *req, uint16_t seq, uint8_t *out)
{
    if (req[1] != 0)
        return 0;
    fs_wr16(out + 8, 1), fs_wr16(out + 10, 0);
    return reply_head(out, seq, 1, 0);
}

/* XInputExtension (xinput.xml; byte 1 of every reply is the request's minor opcode). */
static size_t answer_xi(const uint8_t *req, size_t len, uint16_t seq, uint8_t *out)
{
    switch (req[1]) {
    case 1: /* GetExtensionVersion: present, 2.4 (libXi's _XiCheckExtInit) */
        fs_wr16(out + 8, 2), fs_wr16(out + 10, 4);
        out[12] = 1;
        return reply_head(out, seq, 1, 0);
    case 3: /* OpenDevice: two classes, Key (events 90..) and Button (events 95..) */
        out[8] = 2;
        out[32] = 0, out[33] = 90, out[34] = 1, out[35] = 95;
        return reply_head(out, seq, 3, 1);
    case 35: /* ChangeDeviceControl: status Success */
        return reply_head(out, seq, 35, 0);
    case 47: { /* XIQueryVersion: the client's version, at most 2.4 */
        uint16_t major = len >= 8 ? fs_rd16(req + 4) : 2, minor = len >= 8 ? fs_rd16(req + 6) : 0;
        if (major > 2 || (major == 2 && minor > 4))
            major = 2, minor = 4;
        fs_wr16(out + 8, major), fs_wr16(out + 10, minor);
        return reply_head(out, seq, 47, 0);
    }
    }
    return 0;
}

/* RANDR (randr.xml): QueryVersion, 1.6 (libXrandr asks before its first request). */
static size_t answer_randr(const uint8_t *req, uint16_t seq, uint8_t *out)
{
    if (req[1] != 0)
        return 0;
    fs_wr32(out + 8, 1), fs_wr32(out + 12, 6);
    return reply_head(out, seq, 0, 0);
}

/* The reply for one request (0 bytes: none). */
static size_t answer(struct dpy_conn *k, const uint8_t *req, size_t len, uint8_t *out, size_t cap)
{
    uint16_t seq = (uint16_t)k->seq;
    memset(out, 0, cap);
    switch (req[0]) {
    case 98:
        return answer_query_extension(req, len, seq, out);
    case 43: /* GetInputFocus: focus None */
    case 20: /* GetProperty: no such property (type None, format 0) */
        return reply_head(out, seq, 0, 0);
    case DPY_DBE_MAJOR:
        return answer_dbe(req, len, seq, out, cap);
    case DPY_VM_MAJOR:
        return answer_vidmode(req, len, seq, out, cap);
    case DPY_XKB_MAJOR:
        return answer_xkb(req, seq, out);
    case DPY_XI_MAJOR:
        return answer_xi(req, len, seq, out);
    case DPY_RANDR_MAJOR:
        return answer_randr(req, seq, out);
    }
    if (req[0] < 128 && core_has_reply(req[0]) && !k->unanswered_major) {
        k->unanswered_major = req[0];
        fprintf(stderr, "dpyserver: core request %u has a reply this server does not give\n", req[0]);
    }
    return 0;
}

static void log_request(struct dpy_conn *k, const uint8_t *req, size_t len)
{
    pthread_mutex_lock(&k->lock);
    if (k->len + len > k->cap) {
        size_t cap = (k->cap ? k->cap * 2 : 65536) + len;
        uint8_t *p = realloc(k->log, cap);
        if (p) {
            k->log = p;
            k->cap = cap;
        }
    }
    if (k->len + len <= k->cap) {
        memcpy(k->log + k->len, req, len);
        k->len += len;
    }
    pthread_mutex_unlock(&k->lock);
}

/* Setup request: byte order, version, auth name and data (skipped); success reply. */
static int do_setup(struct dpy_conn *k)
{
    uint8_t h[12], skip[1024], setup[256];
    if (!read_all(k->fd, h, 12) || h[0] != 'l')
        return 0;
    size_t n = fs_rd16(h + 6), d = fs_rd16(h + 8);
    size_t rest = ((n + 3) & ~(size_t)3) + ((d + 3) & ~(size_t)3);
    if (rest > sizeof(skip) || !read_all(k->fd, skip, rest))
        return 0;
    size_t len = fake_setup_success(setup, sizeof(setup), 65535);
    return write_all(k->fd, setup, len);
}

static void *serve_conn(void *arg)
{
    struct dpy_conn *k = arg;
    size_t cap = 1 << 18;
    uint8_t *req = malloc(cap), *out = malloc(cap);
    if (req && out && do_setup(k)) {
        for (;;) {
            if (!read_all(k->fd, req, 4))
                break;
            size_t len = 4u * fs_rd16(req + 2);
            if (len < 4 || len > cap || !read_all(k->fd, req + 4, len - 4))
                break; /* BIG-REQUESTS is not offered; a 0 length is a client error here */
            k->seq++;
            log_request(k, req, len);
            size_t n = answer(k, req, len, out, cap);
            if (n && !write_all(k->fd, out, n))
                break;
        }
    }
    free(req);
    free(out);
    return NULL;
}

static void *accept_loop(void *arg)
{
    struct dpy_server *s = arg;
    while (__atomic_load_n(&s->accepting, __ATOMIC_ACQUIRE)) {
        struct pollfd p = {.fd = s->listen_fd, .events = POLLIN};
        if (poll(&p, 1, 50) <= 0)
            continue;
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0)
            continue;
        pthread_mutex_lock(&s->lock);
        if (s->nconns == DPY_MAX_CONNS) {
            pthread_mutex_unlock(&s->lock);
            close(fd);
            continue;
        }
        struct dpy_conn *k = &s->conns[s->nconns];
        memset(k, 0, sizeof(*k));
        k->fd = fd;
        pthread_mutex_init(&k->lock, NULL);
        k->running = pthread_create(&k->thread, NULL, serve_conn, k) == 0;
        s->nconns++;
        pthread_mutex_unlock(&s->lock);
    }
    return NULL;
}

/* Lock file first (as X servers do, so Xvfb -displayfd skips this number), then the
 * abstract socket; a failed bind means another server owns the number. */
static int claim(struct dpy_server *s, int n)
{
    snprintf(s->lock_path, sizeof(s->lock_path), "/tmp/.X%d-lock", n);
    int lock = open(s->lock_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (lock < 0) {
        s->lock_path[0] = '\0';
        return -1;
    }
    char pid[16];
    int plen = snprintf(pid, sizeof(pid), "%10d\n", (int)getpid());
    int ok = write(lock, pid, (size_t)plen) == plen;
    close(lock);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1, "/tmp/.X11-unix/X%d", n);
    socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(a.sun_path + 1));
    int fd = ok ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, alen) < 0 || listen(fd, 8) < 0) {
        if (fd >= 0)
            close(fd);
        unlink(s->lock_path);
        s->lock_path[0] = '\0';
        return -1;
    }
    s->listen_fd = fd;
    s->display = n;
    snprintf(s->name, sizeof(s->name), ":%d", n);
    return 0;
}

int dpy_start(struct dpy_server *s)
{
    memset(s, 0, sizeof(*s));
    s->listen_fd = -1;
    pthread_mutex_init(&s->lock, NULL);
    int base = 600 + (int)(getpid() % 300);
    for (int i = 0; i < 300 && s->listen_fd < 0; i++)
        claim(s, base + i);
    if (s->listen_fd < 0)
        return -1;
    s->accepting = 1;
    if (pthread_create(&s->accept_thread, NULL, accept_loop, s)) {
        dpy_stop(s);
        return -1;
    }
    return 0;
}

void dpy_stop(struct dpy_server *s)
{
    if (s->accepting) {
        __atomic_store_n(&s->accepting, 0, __ATOMIC_RELEASE);
        pthread_join(s->accept_thread, NULL);
    }
    for (int i = 0; i < s->nconns; i++) {
        struct dpy_conn *k = &s->conns[i];
        shutdown(k->fd, SHUT_RDWR);
        if (k->running)
            pthread_join(k->thread, NULL);
        close(k->fd);
        free(k->log);
        k->log = NULL;
    }
    s->nconns = 0;
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    s->listen_fd = -1;
    if (s->lock_path[0])
        unlink(s->lock_path);
    s->lock_path[0] = '\0';
}

int dpy_nconns(struct dpy_server *s)
{
    pthread_mutex_lock(&s->lock);
    int n = s->nconns;
    pthread_mutex_unlock(&s->lock);
    return n;
}

long dpy_take(struct dpy_server *s, int i, uint8_t *buf, size_t cap)
{
    if (i < 0 || i >= dpy_nconns(s))
        return -1;
    struct dpy_conn *k = &s->conns[i];
    pthread_mutex_lock(&k->lock);
    long n = k->len <= cap ? (long)k->len : -1;
    if (n >= 0)
        memcpy(buf, k->log, k->len);
    k->len = 0;
    pthread_mutex_unlock(&k->lock);
    return n;
}

const uint8_t *dpy_find(const uint8_t *buf, size_t n, size_t *off, int major, int minor, size_t *len)
{
    while (*off + 4 <= n) {
        const uint8_t *r = buf + *off;
        size_t l = 4u * fs_rd16(r + 2);
        if (l < 4 || *off + l > n)
            return NULL;
        *off += l;
        if (r[0] == major && (minor < 0 || r[1] == minor)) {
            *len = l;
            return r;
        }
    }
    return NULL;
}
