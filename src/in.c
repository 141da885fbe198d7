/* SPDX-License-Identifier: MIT */
/* in.c — the read path: reads the socket in big chunks and feeds the routing core; the waits for input. */
#include "in.h"
#include "base.h"
#include "clock.h"
#include "conn.h"
#include "fail.h"
#include "lock.h"
#include "route.h"
#include "trace.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

/* Keeps the fds that came with the got bytes just received as one batch; a
 * truncated control message is fatal, and so is a full queue of batches whose
 * bytes are not parsed yet (only a hostile server sends that many). */
static __attribute__((noinline)) int collect_fds(xw_connection_t *c, struct msghdr *m, size_t got)
{
    int lost = (m->msg_flags & MSG_CTRUNC) != 0;
    int fds[XW_MAX_FDS];
    unsigned n = 0;
    for (struct cmsghdr *h = CMSG_FIRSTHDR(m); h; h = CMSG_NXTHDR(m, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
            continue;
        size_t k = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k; i++) {
            int fd;
            memcpy(&fd, (int *)CMSG_DATA(h) + i, sizeof(int));
            if (n < XW_MAX_FDS)
                fds[n++] = fd;
            else {
                close(fd);
                lost = 1;
            }
        }
    }
    if (n && xw__route_fds(c, fds, n, got) < 0)
        lost = 1;
    if (lost)
        return xw__fail_conn(c, XW_CONN_CLOSED_FDPASSING_FAILED, "file descriptors from the server were lost");
    return 0;
}

/* Bytes the read buffer takes in the next read: all its room, except a small first
 * read for a reply (XW_IN_FIRST) after the socket was drained. */
static size_t read_room(struct xw_in *in)
{
    int first = in->for_reply && !in->more && !in->len && !in->pdata;
    in->for_reply = 0;
    return first ? XW_IN_FIRST : XW_IN_SIZE - in->len;
}

/* The control buffer one recvmsg takes fds in. */
union xw_ctl {
    struct cmsghdr h;
    char buf[CMSG_SPACE(sizeof(int) * XW_MAX_FDS)];
};

/* Whether more input is likely there after a read of r bytes of the asked ones: a
 * MSG_WAITALL read always fills what it asked, the exact rest of a packet, which says
 * nothing of what follows (the next wait's read is then a first one); a partial
 * packet these bytes do not complete is still due. */
static inline int more_after(const struct xw_in *in, size_t r, size_t asked, int flags)
{
    return (r == asked && !(flags & MSG_WAITALL)) || (in->pdata && in->pneed - in->pfill > r);
}

/* After a recvmsg m that returned r bytes of the asked ones (flags as it was
 * called with), the lock held: keeps its fds, fills the partial packet, parses
 * what is complete and wakes the waiters. Inline in read_once (its own call cost
 * a reply wait ~25 instructions); out of line for xw__in_read_nonblock (read_got),
 * so the empty non-blocking read of an event poll, twice per Xlib round trip,
 * saves no registers for it. */
static inline __attribute__((always_inline)) int read_got_body(xw_connection_t *c, struct msghdr *m, size_t r,
                                                               size_t asked, int flags)
{
    struct xw_in *in = &c->in;
    /* recvmsg leaves msg_controllen 0 when no fds came: nearly every read */
    if (XW_UNLIKELY(m->msg_controllen || (m->msg_flags & MSG_CTRUNC)) && collect_fds(c, m, r) < 0)
        return -EPIPE;
    if (c->error) { /* failed by another thread while this one waited: what came is not parsed */
        xw__fail_close_in_fds(c);
        return -EPIPE;
    }
    if (r == 0)
        return xw__fail_conn(c, XW_CONN_ERROR, "server closed the connection%s",
                             in->len || in->pdata ? " in the middle of a packet" : "");
    if (XW_UNLIKELY(c->trace)) { /* before parsing moves them: the bytes as they came */
        const struct xw_fd_batch *b = in->nfdb ? &in->fdb[in->nfdb - 1] : NULL;
        int own = b && b->start == in->rpos;
        xw__trace_in(c, m->msg_iov, m->msg_iovlen, r, own ? b->fds : NULL, own ? b->n : 0);
    }
    c->total_read += (uint64_t)r;
    in->more = more_after(in, r, asked, flags);
    /* waking the waiters first makes the routing a tail call, and they still see its
     * result: they are handed the lock one at a time once this thread releases it,
     * and nothing reads the routed state unlocked */
    xw__lock_broadcast_held(&c->in_cond, &c->mu);
    return xw__route_input(c, r);
}

static __attribute__((noinline)) int read_got_all(xw_connection_t *c, struct msghdr *m, size_t r, size_t asked,
                                                  int flags)
{
    return read_got_body(c, m, r, asked, flags);
}

/* read_got_body for xw__in_read_nonblock's reads (a reply wait's after its poll). Its
 * common case (bytes and no fds, no failure, no tracer, nobody to wake: waiters only
 * changes under the lock, so it is exact here) does what read_got_body does for it,
 * saves no register and ends in the routing's tail call, ~10 instructions less per
 * round trip; read_got_all takes the rest. */
static __attribute__((noinline)) int read_got(xw_connection_t *c, struct msghdr *m, size_t r, size_t asked, int flags)
{
    if (XW_UNLIKELY(m->msg_controllen || (m->msg_flags & MSG_CTRUNC) || c->error || !r || c->trace ||
                    c->in_cond.waiters))
        return read_got_all(c, m, r, asked, flags);
    c->total_read += (uint64_t)r;
    c->in.more = more_after(&c->in, r, asked, flags);
    return xw__route_input(c, r);
}

/* A recvmsg that failed with e (blocking: block), the lock held: nothing there
 * (EAGAIN) or interrupted is 0, anything else fails the connection. */
static __attribute__((noinline)) int read_failed(xw_connection_t *c, int e, int block)
{
    struct xw_in *in = &c->in;
    in->more = 0;
    if (e == EAGAIN || e == EINTR) {
        if (block && e == EAGAIN) /* someone made the socket non-blocking: wait with poll from now on */
            in->block = 0;
        if (block)
            xw__lock_broadcast(&c->in_cond);
        return c->error ? -EPIPE : 0;
    }
    return xw__fail_sys(c, e, "read from server");
}

/* Lock held. One recvmsg (into the partial packet first, then the buffer) and parse
 * what is complete. flags has MSG_DONTWAIT, or not when this thread is the reader
 * (in->reading, set by the caller) on a blocking socket: the lock is then released
 * for the call, and the buffer's free part and the partial packet (a record, or
 * the reading thread's own registered buffer: xw__in_fill_partial) are this thread's alone
 * meanwhile, since nobody else reads while in->reading is set; reading is cleared
 * once the lock is back. A blocking read of a half-received packet asks for exactly
 * its rest with MSG_WAITALL: the kernel then fills it as the server's writes come,
 * one system call where a read per socket buffer's worth (~200 KB) would each return,
 * be parsed and wait again. Returns 0 (also when nothing was there). */
static int read_once(xw_connection_t *c, int flags)
{
    struct xw_in *in = &c->in;
    if (c->error)
        return -EPIPE;
    struct iovec iov[2];
    size_t n = 0;
    if (in->pdata)
        iov[n++] = (struct iovec){in->pdata + in->pfill, in->pneed - in->pfill};
    if (in->pdata && !(flags & MSG_DONTWAIT))
        flags |= MSG_WAITALL;
    else
        iov[n++] = (struct iovec){in->buf + in->len, read_room(in)};
    size_t asked = iov[0].iov_len + (n > 1 ? iov[1].iov_len : 0);
    union xw_ctl ctl;
    struct msghdr m = {.msg_iov = iov, .msg_iovlen = n, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf)};
    int block = !(flags & MSG_DONTWAIT);
    if (block)
        xw__conn_unlock(c);
    ssize_t r;
    do
        r = recvmsg(c->fd, &m, MSG_CMSG_CLOEXEC | flags);
    while (r < 0 && errno == EINTR && !block);
    int e = errno;
    if (block) {
        xw__conn_lock(c);
        in->reading = 0; /* the buffer is under the lock again; read_got's broadcast lets a waiter read next */
    }
    if (r < 0)
        return read_failed(c, e, block);
    return read_got_body(c, &m, (size_t)r, asked, flags);
}

/* Lock held, nobody else reading. One non-blocking read. The common case (no
 * partial packet, no error) is read_once's work without its branches: an event poll
 * of an empty socket, which Xlib makes twice per round trip, is this, one recvmsg
 * and read_failed's EAGAIN; so is the read after a reply wait's poll. */
static inline __attribute__((always_inline)) int read_lean(xw_connection_t *c)
{
    struct xw_in *in = &c->in;
    if (XW_UNLIKELY(in->pdata != NULL || c->error))
        return read_once(c, MSG_DONTWAIT);
    struct iovec iov = {in->buf + in->len, read_room(in)};
    union xw_ctl ctl;
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf)};
    ssize_t r = recvmsg(c->fd, &m, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (r >= 0)
        return read_got(c, &m, (size_t)r, iov.iov_len, MSG_DONTWAIT);
    int e = errno;
    if (XW_LIKELY(e == EAGAIN)) { /* read_failed's answer, without the call */
        in->more = 0;
        return 0;
    }
    return e == EINTR ? read_once(c, MSG_DONTWAIT) : read_failed(c, e, 0);
}

/* Lock held. One non-blocking read, unless another thread is the reader: what is
 * there is then its to take (it parses and wakes the waiters), so this returns 0. */
int xw__in_read_nonblock(xw_connection_t *c)
{
    if (c->in.reading)
        return c->error ? -EPIPE : 0;
    return read_lean(c);
}

/* Lock held, this thread the reader. Waits for input until deadline with poll, the
 * lock released, then reads what came. */
static int poll_then_read(xw_connection_t *c, int64_t deadline)
{
    struct xw_in *in = &c->in;
    struct pollfd p = {.fd = c->fd, .events = POLLIN};
    int tmo = deadline < 0 ? -1 : xw__clock_poll_timeout(deadline);
    xw__conn_unlock(c);
    int r = poll(&p, 1, tmo);
    int e = r < 0 ? errno : 0; /* before the lock, whose slow path may set errno */
    xw__conn_lock(c);
    in->reading = 0;
    if (r > 0)
        return read_lean(c);
    xw__lock_broadcast(&c->in_cond); /* let a waiter take over reading */
    if (r == 0)
        return -ETIMEDOUT;
    if (e != EINTR)
        return xw__fail_sys(c, e, "poll");
    return 0;
}

/* Lock held. Waits for input once: this thread reads if nobody else is, else it
 * sleeps until the reading thread has parsed something. The caller re-checks its
 * condition. block_read 1, no deadline and a blocking socket: the read itself waits
 * (one system call where poll then read is two); else poll first (a deadline needs
 * it). deadline 0 means "do not block": one non-blocking read. Returns 0, -ETIMEDOUT
 * or -EPIPE. */
static int wait_input(xw_connection_t *c, int64_t deadline, int block_read)
{
    struct xw_in *in = &c->in;
    if (c->error)
        return -EPIPE;
    if (deadline == 0)
        return xw__in_read_nonblock(c);
    if (in->reading)
        return xw__lock_wait(&c->in_cond, &c->mu, deadline);
    if (in->more) { /* likely there already: a read spares the poll (EAGAIN: poll after all) */
        uint64_t was = in->rpos;
        int e = xw__in_read_nonblock(c);
        if (e < 0 || in->rpos != was)
            return e;
    }
    in->reading = 1;
    /* A packet half received into a waiting caller's buffer (pdata without a record)
     * is read into only with the lock held here: that caller may time out and leave
     * (xw__in_fill_partial reads unlocked into the reading caller's own). */
    if (!block_read || deadline >= 0 || !in->block || (in->pdata && !in->partial))
        return poll_then_read(c, deadline);
    return read_once(c, 0); /* clears reading */
}

/* Lock held. The rest of a half-received packet in one blocking read (read_once's
 * MSG_WAITALL), when this thread may read into it unlocked: no deadline, a blocking
 * socket, nobody else reading, and the packet in a record or in the registered
 * buffer of this very thread (own: the waiting caller itself, which cannot leave
 * while it reads). Another caller's buffer is read into only with the lock held
 * (wait_input): that caller may time out and leave. 1 when it read. */
int xw__in_fill_partial(xw_connection_t *c, int64_t deadline, int own)
{
    struct xw_in *in = &c->in;
    if (deadline >= 0 || !in->block || in->reading || (!in->partial && !own))
        return 0;
    in->reading = 1;
    read_once(c, 0); /* clears reading; an error is the connection's, seen by the caller */
    return 1;
}

/* ---- the wait for input (reply claims, a lent socket) ---- */

/* Lock held. One wait for input, for a reply or the event queues (deadline not 0):
 * poll, then read, unless the last wait read a stream.
 * - After a small read, poll. A thread asleep in a unix stream socket's recvmsg is
 *   woken by every wake-up on the socket's one wait queue, and the server reading
 *   our request is one (the write space it frees): the reader wakes, finds nothing
 *   and sleeps again, a second sleep per round trip whenever we reach the wait
 *   before the server reads. poll's wait takes only POLLIN. x11perf -getimage10
 *   under Xlib on Xvfb, 80,000 round trips, client and server on their own CPUs: 2.0
 *   sleeps per round trip with recvmsg, 1.0 with poll (as libxcb), 30.9-33.1k round
 *   trips/s against 36.3-37.0k. A blocking read also returns at the first of a
 *   stream's small writes (Xvfb writes events a few at a time), where poll's wake-up
 *   lets them gather; on Xvfb that was 4.3 reads per 100 events, not 1.6.
 * - After a big read (in->stream: small-buf's 8 KiB, a full socket buffer of replies
 *   or events) the next one is likely big too: one blocking recvmsg, no poll.
 * The rest of a big reply is one blocking MSG_WAITALL read elsewhere
 * (xw__in_fill_partial). Decided here, not in read_once, so the parse loop's code
 * stays as it was; not inlined, so the non-blocking polls of the queue (Xlib makes
 * two per request) stay as short as they were. */
__attribute__((noinline)) int xw__in_wait(xw_connection_t *c, int64_t deadline)
{
    struct xw_in *in = &c->in;
    uint64_t was = in->rpos;
    int e = wait_input(c, deadline, in->stream);
    in->stream = in->rpos - was >= XW_IN_STREAM;
    return e;
}
