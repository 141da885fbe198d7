/* SPDX-License-Identifier: MIT */
/* fake_server.c — a scripted X server over socketpair(): setup replies, request framing, a serving thread. */
#include "fake_server.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xw/xwext.h>

size_t fake_setup_success(uint8_t *b, size_t cap, uint16_t max_req)
{
    size_t len = 8 + 32 + 4 + 8 + 40 + 8 + 24;
    if (cap < len)
        return 0;
    memset(b, 0, len);
    b[0] = 1;
    fs_wr16(b + 2, 11);
    fs_wr16(b + 6, (uint16_t)((len - 8) / 4));
    fs_wr32(b + 8, 12101007); /* release */
    fs_wr32(b + 12, FAKE_XID_BASE);
    fs_wr32(b + 16, FAKE_XID_MASK);
    fs_wr32(b + 20, 256); /* motion buffer */
    fs_wr16(b + 24, 4);   /* vendor length */
    fs_wr16(b + 26, max_req);
    b[28] = 1; /* screens */
    b[29] = 1; /* pixmap formats */
    b[32] = 32;
    b[33] = 32;
    b[34] = 8;
    b[35] = 255;
    memcpy(b + 40, "xwfk", 4);
    uint8_t *fmt = b + 44;
    fmt[0] = 24, fmt[1] = 32, fmt[2] = 32;
    uint8_t *scr = b + 52;
    fs_wr32(scr + 0, FAKE_ROOT);
    fs_wr32(scr + 4, 0x20); /* colormap */
    fs_wr32(scr + 8, 0xffffff);
    fs_wr16(scr + 20, 1024);
    fs_wr16(scr + 22, 768);
    fs_wr32(scr + 32, 0x21); /* root visual */
    scr[38] = 24;
    scr[39] = 1; /* depths */
    uint8_t *dep = scr + 40;
    dep[0] = 24;
    fs_wr16(dep + 2, 1); /* visuals */
    uint8_t *vis = dep + 8;
    fs_wr32(vis, 0x21);
    vis[4] = 4; /* TrueColor */
    vis[5] = 8;
    fs_wr16(vis + 6, 256);
    fs_wr32(vis + 8, 0xff0000);
    fs_wr32(vis + 12, 0xff00);
    fs_wr32(vis + 16, 0xff);
    return len;
}

size_t fake_setup_refused(uint8_t *b, size_t cap, int status, const char *reason)
{
    size_t n = strlen(reason), padded = (n + 3) & ~(size_t)3;
    if (cap < 8 + padded)
        return 0;
    memset(b, 0, 8 + padded);
    b[0] = (uint8_t)status;
    if (status == 0)
        b[1] = (uint8_t)n;
    fs_wr16(b + 2, 11);
    fs_wr16(b + 6, (uint16_t)(padded / 4));
    memcpy(b + 8, reason, n);
    return 8 + padded;
}

int fake_write_all(int fd, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    while (len > 0) {
        ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int fake_send(struct fake_server *f, const void *buf, size_t len)
{
    return fake_write_all(f->fd, buf, len);
}

int fake_send_fds(struct fake_server *f, const void *buf, size_t len, const int *fds, int nfds)
{
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(sizeof(int) * 16)];
    } ctl;
    memset(&ctl, 0, sizeof(ctl));
    struct iovec iov = {(void *)buf, len};
    struct msghdr m = {.msg_iov = &iov,
                       .msg_iovlen = 1,
                       .msg_control = ctl.b,
                       .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds)};
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
    memcpy(CMSG_DATA(h), fds, sizeof(int) * (size_t)nfds);
    ssize_t w = sendmsg(f->fd, &m, MSG_NOSIGNAL);
    if (w < 0)
        return -1;
    return (size_t)w == len ? 0 : fake_send(f, (const uint8_t *)buf + w, len - (size_t)w);
}

/* Exactly n bytes (dst NULL: skip them), collecting fds. 0 on EOF/error. */
static int read_exact(struct fake_server *f, uint8_t *dst, size_t n, int *fds, int *nfds)
{
    uint8_t skip[4096];
    while (n > 0) {
        union {
            struct cmsghdr h;
            char b[CMSG_SPACE(sizeof(int) * 16)];
        } ctl;
        size_t want = dst ? n : (n < sizeof(skip) ? n : sizeof(skip));
        struct iovec iov = {dst ? dst : skip, want};
        struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b, .msg_controllen = sizeof(ctl.b)};
        ssize_t r = recvmsg(f->fd, &m, MSG_CMSG_CLOEXEC);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return 0;
        for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
            int k = (int)((h->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < k; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
                if (fds && nfds && *nfds < 16)
                    fds[(*nfds)++] = fd;
                else
                    close(fd);
            }
        }
        if (dst)
            dst += r;
        n -= (size_t)r;
    }
    return 1;
}

long fake_read_request(struct fake_server *f, uint8_t *buf, size_t cap, int *fds, int *nfds)
{
    uint8_t h[8];
    if (nfds)
        *nfds = 0;
    if (!read_exact(f, h, 4, fds, nfds))
        return 0;
    size_t total = 4u * fs_rd16(h + 2), have = 4;
    int big = total == 0;
    if (big) {
        if (!read_exact(f, h + 4, 4, fds, nfds))
            return 0;
        total = 4u * (size_t)fs_rd32(h + 4);
        have = 8;
        f->big_requests++;
    }
    f->seq++;
    if (total > f->big_bytes)
        f->big_bytes = total;
    if (total < have)
        return -1;
    if (total > cap || cap < have) {
        read_exact(f, NULL, total - have, fds, nfds);
        return -1;
    }
    memcpy(buf, h, have);
    if (!read_exact(f, buf + have, total - have, fds, nfds))
        return 0;
    return (long)total;
}

size_t fake_reply(uint8_t *b, uint16_t seq, uint8_t byte1, const void *extra, size_t extra_len)
{
    memset(b, 0, 32);
    b[0] = 1;
    b[1] = byte1;
    fs_wr16(b + 2, seq);
    size_t words = extra_len > 24 ? (extra_len - 24 + 3) / 4 : 0;
    fs_wr32(b + 4, (uint32_t)words);
    if (extra_len)
        memcpy(b + 8, extra, extra_len);
    return 32 + words * 4;
}

void fake_error(uint8_t *b, uint16_t seq, uint8_t code, uint32_t resource, uint8_t major, uint16_t minor)
{
    memset(b, 0, 32);
    b[1] = code;
    fs_wr16(b + 2, seq);
    fs_wr32(b + 4, resource);
    fs_wr16(b + 8, minor);
    b[10] = major;
}

void fake_event(uint8_t *b, uint8_t code, uint16_t seq, uint32_t word)
{
    memset(b, 0, 32);
    b[0] = code;
    fs_wr16(b + 2, seq);
    fs_wr32(b + 4, word);
}

xw_connection_t *fake_connect(struct fake_server *f, const void *setup, size_t len)
{
    uint8_t def[256];
    int sv[2];
    memset(f, 0, sizeof(*f));
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return NULL;
    f->fd = sv[1];
    if (!setup) {
        len = fake_setup_success(def, sizeof(def), 65535);
        setup = def;
    }
    if (len)
        fake_send(f, setup, len);
    xw_connection_t *c = xw_connect_to_fd(sv[0], NULL);
    uint8_t req[12];
    read_exact(f, req, 12, NULL, NULL); /* the client's setup request, no auth */
    return c;
}

static const struct fake_ext *find_ext(struct fake_server *f, const uint8_t *name, size_t n)
{
    for (const struct fake_ext *e = f->exts; e && e->name; e++)
        if (strlen(e->name) == n && !memcmp(e->name, name, n))
            return e;
    return NULL;
}

static const struct fake_ext *find_major(struct fake_server *f, uint8_t major)
{
    for (const struct fake_ext *e = f->exts; e && e->name; e++)
        if (e->major == major)
            return e;
    return NULL;
}

/* The answers the serving thread knows; everything else is read and counted. */
static void answer(struct fake_server *f, const uint8_t *req, size_t len)
{
    uint8_t out[64], extra[24] = {0};
    uint16_t seq = (uint16_t)f->seq;
    const struct fake_ext *e;
    if (req[0] == 98 && len >= 8) {
        size_t n = fs_rd16(req + 4);
        e = n + 8 <= len ? find_ext(f, req + 8, n) : NULL;
        extra[0] = e != NULL;
        extra[1] = e ? e->major : 0;
        extra[2] = e ? e->first_event : 0;
        extra[3] = e ? e->first_error : 0;
        fake_send(f, out, fake_reply(out, seq, 0, extra, 24));
    } else if (req[0] == 43) {
        if (!f->first_sync_at)
            f->first_sync_at = f->seq;
        fs_wr32(extra, (uint32_t)f->nrequests);
        fake_send(f, out, fake_reply(out, seq, 0, extra, 24));
    } else if ((e = find_major(f, req[0])) && !strcmp(e->name, "BIG-REQUESTS") && req[1] == 0) {
        fs_wr32(extra, f->bigreq_max);
        fake_send(f, out, fake_reply(out, seq, 0, extra, 24));
    }
}

static void *serve(void *arg)
{
    struct fake_server *f = arg;
    size_t cap = 1 << 20;
    uint8_t *buf = malloc(cap); /* the serving thread's own; not counted by alloc tests */
    int fds[16], nfds;
    for (;;) {
        long n = fake_read_request(f, buf, cap, fds, &nfds);
        for (int i = 0; i < nfds; i++)
            close(fds[i]);
        if (n == 0)
            break;
        f->nrequests++;
        if (n < 0)
            continue;
        f->opcode_count[buf[0]]++;
        if (!f->on_request || !f->on_request(f, buf, (size_t)n))
            answer(f, buf, (size_t)n);
    }
    free(buf);
    return NULL;
}

int fake_serve_start(struct fake_server *f)
{
    if (pthread_create(&f->thread, NULL, serve, f))
        return -1;
    f->thread_running = 1;
    return 0;
}

void fake_stop(struct fake_server *f)
{
    if (f->thread_running) {
        shutdown(f->fd, SHUT_RDWR);
        pthread_join(f->thread, NULL);
        f->thread_running = 0;
    }
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
}

int count_open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}
