/* SPDX-License-Identifier: MIT */
/* out.c — the write path: one connection-owned buffer; small slices copied, big ones written in place. */
#include "out.h"
#include "base.h"
#include "callsite.h"
#include "conn.h"
#include "fail.h"
#include "in.h"
#include "limit.h"
#include "lock.h"
#include "route.h"
#include "send.h"
#include "trace.h"
#include "transport.h"

#include <stddef.h>
#include <limits.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

/* What NULL-based (padding) slices point at when they go to writev. */
static const uint8_t zeros[XW_COPY_MAX];

/* One sendmsg of up to IOV_MAX slices with the queued fds attached; the fds are
 * closed once the kernel has taken them. Returns bytes written or -errno. */
static ssize_t send_some(xw_connection_t *c, struct iovec *iov, size_t n)
{
    struct xw_out *o = &c->out;
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(sizeof(int) * XW_MAX_FDS)];
    } ctl;
    struct msghdr m = {.msg_iov = iov, .msg_iovlen = n < IOV_MAX ? n : IOV_MAX};
    if (o->nfds) {
        memset(&ctl, 0, sizeof(ctl));
        m.msg_control = ctl.buf;
        m.msg_controllen = CMSG_SPACE(sizeof(int) * o->nfds);
        struct cmsghdr *h = CMSG_FIRSTHDR(&m);
        h->cmsg_level = SOL_SOCKET;
        h->cmsg_type = SCM_RIGHTS;
        h->cmsg_len = CMSG_LEN(sizeof(int) * o->nfds);
        memcpy(CMSG_DATA(h), o->fds, sizeof(int) * o->nfds);
    }
    ssize_t w = sendmsg(c->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0)
        return -errno;
    if (XW_UNLIKELY(c->trace)) /* the bytes as they left, once per system call */
        xw__trace_out(c, iov, m.msg_iovlen, (size_t)w, o->fds, o->nfds);
    if (o->nfds) { /* sent: the kernel holds them now */
        xw__fail_close_fds(o->fds, o->nfds);
        o->nfds = 0;
    }
    c->total_written += (uint64_t)w;
    return w;
}

/* Lock held, writing set. Waits for room in the socket while reading whatever the
 * server sends, so a server blocked writing to us cannot deadlock us. Returns 1
 * when poll said there is room, 0 after input or a wake-up without room, <0 on a
 * connection error. */
static int wait_writable(xw_connection_t *c)
{
    struct pollfd p = {.fd = c->fd, .events = POLLIN | POLLOUT};
    xw__conn_unlock(c);
    int r = poll(&p, 1, -1);
    int e = errno;
    xw__conn_lock(c);
    if (r < 0 && e != EINTR)
        return xw__fail_sys(c, e, "poll");
    if (r > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
        if (c->in.reading) /* another thread is reading: it takes the input, then wakes us */
            return xw__lock_wait(&c->in_cond, &c->mu, -1) < 0 ? -EPIPE : 0;
        int got = xw__in_read_nonblock(c);
        return got < 0 ? got : (p.revents & POLLOUT) != 0;
    }
    return c->error ? -EPIPE : r > 0;
}

static void advance(struct iovec **iov, size_t *n, size_t w)
{
    while (*n > 0 && w >= (*iov)->iov_len) {
        w -= (*iov)->iov_len;
        (*iov)++;
        (*n)--;
    }
    if (*n > 0) {
        (*iov)->iov_base = (uint8_t *)(*iov)->iov_base + w;
        (*iov)->iov_len -= w;
    }
}

/* Lock held, writing set. Every byte of iov to our own socket (advanced in place on
 * short writes); the lock may be released while waiting for room. The own
 * socket's transport write. */
void xw__out_write_socket(xw_connection_t *c, struct iovec *iov, size_t n)
{
    while (!c->error) {
        while (n > 0 && iov->iov_len == 0) {
            iov++;
            n--;
        }
        if (n == 0)
            break;
        ssize_t w = send_some(c, iov, n);
        if (w >= 0)
            advance(&iov, &n, (size_t)w);
        else if (w == -EAGAIN) /* write again only once poll says there is room, as
                                  libxcb does: a local socket says so when 3/4 of it is
                                  free, where a write after each read of replies took
                                  the little room the server had just made (Xvfb,
                                  100k InternAtoms: up to 22 writes per 1k, not 1.5) */
            while (wait_writable(c) == 0)
                ;
        else if (w != -EINTR)
            xw__fail_sys(c, (int)-w, "write to server");
    }
}

/* Lock held. Writes every byte of iov; writing keeps other senders out meanwhile. */
static int write_vec(xw_connection_t *c, struct iovec *iov, size_t n)
{
    struct xw_out *o = &c->out;
    o->writing = 1;
    o->fast_limit = 0;
    __atomic_store_n(&o->inline_limit, 0, __ATOMIC_RELAXED);
    c->tp->write(c, iov, n);
    o->writing = 0;
    if (!c->error)
        o->flushed = o->seq;
    xw__limit_refresh(c);
    xw__lock_broadcast(&c->out_cond);
    return c->error ? -EPIPE : 0;
}

/* Lock held, not writing. Copies v[i] while it fits and is small; the first slice
 * that does not goes out with the buffer and all remaining slices in one write.
 * v[-1] must be writable: it becomes the buffer's slice. */
static int append(xw_connection_t *c, struct iovec *v, size_t n)
{
    struct xw_out *o = &c->out;
    for (size_t i = 0; i < n; i++) {
        size_t len = v[i].iov_len;
        if (len < XW_COPY_MAX && len <= (size_t)(o->end - o->ptr)) {
            xw__out_copy(o->ptr, v[i].iov_base, len, 0);
            o->ptr += len;
            continue;
        }
        for (size_t j = i; j < n; j++)
            if (!v[j].iov_base)
                v[j].iov_base = (void *)zeros; /* shorter than XW_COPY_MAX: checked */
        struct iovec *w = v + i - 1;           /* v[-1] is writable (the callers' contract) */
        *w = (struct iovec){o->buf, (size_t)(o->ptr - o->buf)};
        int r = write_vec(c, w, n - i + 1);
        o->ptr = o->buf;
        return r;
    }
    return 0;
}

static void wait_not_writing(xw_connection_t *c)
{
    while (c->out.writing && !c->error)
        xw__lock_wait(&c->out_cond, &c->mu, -1);
}

/* Lock held. Before anything of xwire's enters the buffer: the socket back from an
 * owner it was lent to (xw_take_socket), then no other thread writing. */
static int own_socket(xw_connection_t *c)
{
    if (XW_UNLIKELY(c->socket_away) && c->tp->take(c) < 0)
        return -EPIPE;
    wait_not_writing(c);
    return c->error ? -EPIPE : 0;
}

int xw__out_flush(xw_connection_t *c)
{
    struct xw_out *o = &c->out;
    wait_not_writing(c);
    if (c->error)
        return -EPIPE;
    if (o->ptr == o->buf) {
        o->flushed = o->seq;
        return 0;
    }
    struct iovec iov = {o->buf, (size_t)(o->ptr - o->buf)};
    int r = write_vec(c, &iov, 1);
    o->ptr = o->buf;
    return r;
}

int xw__out_flush_to(xw_connection_t *c, uint64_t seq)
{
    return seq > c->out.flushed ? xw__out_flush(c) : (c->error ? -EPIPE : 0);
}

/* The owner's (Xlib's) bytes, usually with nothing of ours buffered or being
 * written (the socket is lent): one sendmsg with the lock held throughout, so
 * nobody sees a write in progress, and it nearly always takes every byte. What it
 * leaves (a full socket, an error) goes the general way, which waits and fails as
 * any write does. */
int xw__out_write_through(xw_connection_t *c, struct iovec *iov, size_t n, uint64_t requests)
{
    struct xw_out *o = &c->out;
    if (XW_LIKELY(o->ptr == o->buf && !o->writing && !o->nfds && n <= IOV_MAX && !c->error)) {
        struct msghdr m = {.msg_iov = iov, .msg_iovlen = n};
        ssize_t w = sendmsg(c->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            if (XW_UNLIKELY(c->trace))
                xw__trace_out(c, iov, n, (size_t)w, NULL, 0);
            c->total_written += (uint64_t)w;
            advance(&iov, &n, (size_t)w);
        }
        while (n > 0 && iov->iov_len == 0) {
            iov++;
            n--;
        }
        if (n == 0) {
            o->seq += requests;
            o->flushed = o->seq;
            return 0;
        }
    }
    int r = xw__out_flush(c); /* xwire's own bytes first: empty while the socket is lent */
    if (r < 0)
        return r;
    o->seq += requests;
    return write_vec(c, iov, n);
}

/* Lock held, not writing. A GetInputFocus whose reply is dropped: it resets the
 * void run, burns a sequence number with zero low bits, or completes a check. */
int xw__out_sync(xw_connection_t *c)
{
    static const struct xw_request sync_req = {.f = {.count = 1, .opcode = XW_GET_INPUT_FOCUS}};
    xw_get_input_focus_request_t r = {0};
    if (own_socket(c) < 0)
        return -EPIPE;
    xw__out_frame((uint8_t *)&r, &sync_req.pub, XW_GET_INPUT_FOCUS, sizeof(r) / 4);
    uint64_t seq = c->out.seq + 1;
    if (xw__transport_track(c, seq, XW_REQUEST_DISCARD_REPLY, &sync_req) < 0)
        return -ENOMEM;
    c->out.seq = seq;
    struct iovec iov[2] = {{NULL, 0}, {&r, sizeof(r)}};
    return append(c, iov + 1, 1);
}

/* Lock held. Waits out another writer and inserts syncs until this request may
 * take the next sequence number. */
static int make_room(xw_connection_t *c, int isvoid, unsigned nfds)
{
    struct xw_out *o = &c->out;
    for (;;) {
        wait_not_writing(c);
        if (c->error)
            return -EPIPE;
        int r;
        if (c->socket_away)
            r = c->tp->take(c); /* a borrowed connection's owner, or the owner our socket is lent to, gives it back */
        else if (o->nfds + nfds > XW_MAX_FDS)
            r = xw__out_flush(c);
        else if (((o->seq + 1) & 0xffffffffu) == 0 || (isvoid && o->seq + 1 - o->last_reply > XW_MAX_VOID_RUN))
            r = xw__out_sync(c);
        else
            return 0;
        if (r < 0)
            return r;
    }
}

/* Writes the request's header; for BIG-REQUESTS moves it into hdr, with the 32-bit
 * length, as vector[-1]. Returns the first slice. */
static struct iovec *frame(struct iovec *v, const xw_protocol_request_t *req, uint8_t major, size_t total, int big,
                           uint8_t hdr[8])
{
    uint8_t *b = v[0].iov_base;
    xw__out_frame(b, req, major, big ? 0 : (uint16_t)(total / 4));
    if (!big)
        return v;
    memcpy(hdr, b, 4);
    xw__wr32(hdr + 4, (uint32_t)(total / 4 + 1));
    v[0].iov_base = b + 4;
    v[0].iov_len -= 4;
    v[-1] = (struct iovec){hdr, 8};
    return v - 1;
}

/* Lock held. A vetted request (xw_send's, or the extension queries' own, checked where they are built) into the
 * buffer, or to the transport when it sends such requests itself: waits for room,
 * takes the next sequence number and tracks it, frames it (major; big: BIG-REQUESTS
 * framing, written as vector[-1]). The sequence number, or 0 (xw__fail_request);
 * fds are the connection's or closed. */
uint64_t xw__out_place(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq, size_t total,
                       unsigned nfds, int *fds, uint8_t major, int big)
{
    const xw_protocol_request_t *req = &rq->pub;
    struct xw_out *o = &c->out;
    uint8_t hdr[8];
    /* what the transport must send itself (a borrowed connection's owner routes the
     * errors of checked requests and carries fds) */
    if (((unsigned)flags | (nfds ? XW__SEND_WITH_FDS : 0u)) & c->tp->send_flags)
        return c->tp->send(c, flags, vector, req, nfds, fds);
    if (make_room(c, req->isvoid, nfds) < 0)
        return xw__fail_reject(c, nfds, fds, c->errstr);
    uint64_t seq = o->seq + 1;
    int track = !req->isvoid || (flags & ~XW_REQUEST_RAW);
    if (track && xw__transport_track(c, seq, flags, rq) < 0)
        return xw__fail_reject(c, nfds, fds, "out of memory for the pending-reply table");
    struct iovec *v = vector;
    size_t n = req->count;
    if (!(flags & XW_REQUEST_RAW)) {
        v = frame(vector, req, major, total, big, hdr);
        n += (size_t)(vector - v);
    }
    if (nfds) /* fds may be NULL when there are none */
        memcpy(o->fds + o->nfds, fds, sizeof(int) * nfds);
    o->nfds += nfds;
    o->seq = seq;
    if (XW_UNLIKELY(c->cs != NULL))
        xw__callsite_record(c->cs, seq, seq, XW_CS_SEND);
    if (append(c, v, n) < 0)
        return xw__fail_request(c, "%s", c->errstr);
    /* the fast paths' limit again, from the state: a sync, a reply-bearing request
     * (xw__pend_push leaves the limit behind) or a write may have moved it */
    xw__limit_refresh(c);
    return seq;
}

/* The fd goes out with the next write; the connection owns it from now on. */
XW_EXPORT void xw_send_fd(xw_connection_t *c, int fd)
{
    c->tp->send_fd(c, fd);
}

/* Lock not held. The own socket's transport send_fd: queued beside the
 * buffered bytes, flushed first when the queue is full. */
void xw__out_queue_fd(xw_connection_t *c, int fd)
{
    xw__conn_lock(c);
    own_socket(c);
    if (!c->error && c->out.nfds == XW_MAX_FDS)
        xw__out_flush(c);
    if (c->error || c->out.nfds == XW_MAX_FDS)
        close(fd);
    else
        c->out.fds[c->out.nfds++] = fd;
    xw__conn_unlock(c);
}

XW_EXPORT int xw_flush(xw_connection_t *c)
{
    xw__conn_lock(c);
    int r = xw__out_flush(c);
    xw__conn_unlock(c);
    if (r == 0) /* and whatever the transport holds back */
        r = c->tp->flush(c);
    return r == 0 ? 1 : 0;
}
