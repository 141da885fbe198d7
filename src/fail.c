/* SPDX-License-Identifier: MIT */
/* fail.c — the connection's first fatal error, kept for good; a request's own failure reason; the fds they close. */
#include "fail.h"
#include "conn.h"
#include "lock.h"
#include "route.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

void xw__fail_close_fds(int *fds, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* The errno a failure of code leaves when no system call failed: programs read it
 * after a call fails (Xlib's "XIO: fatal IO error %d" message, or its "X connection
 * to ... broken (explicit kill or server shutdown)" for EPIPE). libxcb sets none and
 * leaves whatever its last system call left (after a server closes, mostly the
 * EAGAIN of its last empty non-blocking read, which Xlib also reads as "broken");
 * xwire reads less often, and a stale value from some earlier call (ENOENT was
 * seen) showed instead. The server closing is EPIPE; the server breaking the
 * protocol EPROTO; out of memory ENOMEM. */
static int fail_errno(int code)
{
    if (code == XW_CONN_CLOSED_MEM_INSUFFICIENT)
        return ENOMEM;
    if (code == XW_CONN_CLOSED_MALFORMED || code == XW_CONN_CLOSED_PARSE_ERR || code == XW_CONN_CLOSED_FDPASSING_FAILED)
        return EPROTO;
    return EPIPE;
}

/* Lock held (or connection not yet shared). Records the first failure, with err as
 * the errno it leaves, and wakes every waiter so nothing hangs. */
static __attribute__((format(printf, 4, 0))) int vfail(xw_connection_t *c, int code, int err, const char *fmt,
                                                       va_list ap)
{
    if (c->error)
        return -EPIPE;
    vsnprintf(c->errstr, sizeof(c->errstr), fmt, ap);
    /* both published with the code: xw_connection_error_string and the libxcb
     * layer read them without the lock once they see it (acquire) */
    __atomic_store_n(&c->fail_errno, err, __ATOMIC_RELAXED);
    __atomic_store_n(&c->error, code, __ATOMIC_RELEASE);
    if (c->fd >= 0)
        shutdown(c->fd, SHUT_RDWR);
    xw__fail_close_fds(c->out.fds, c->out.nfds);
    c->out.nfds = 0;
    xw__fail_close_in_fds(c);
    c->out.fast_limit = 0;
    __atomic_store_n(&c->out.inline_limit, 0, __ATOMIC_RELAXED);
    xw__lock_broadcast(&c->in_cond);
    xw__lock_broadcast(&c->out_cond);
    errno = err;
    return -EPIPE;
}

int xw__fail_conn(xw_connection_t *c, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfail(c, code, fail_errno(code), fmt, ap);
    va_end(ap);
    return r;
}

static __attribute__((format(printf, 3, 4))) int fail_sys(xw_connection_t *c, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfail(c, XW_CONN_ERROR, err, fmt, ap);
    va_end(ap);
    return r;
}

int xw__fail_sys(xw_connection_t *c, int err, const char *what)
{
    return fail_sys(c, err, "%s: %s", what, strerror(err));
}

void xw__fail_close_in_fds(xw_connection_t *c)
{
    struct xw_in *in = &c->in;
    for (unsigned i = 0; i < in->nfdb; i++)
        xw__fail_close_fds(in->fdb[i].fds + in->fdb[i].used, in->fdb[i].n - in->fdb[i].used);
    in->nfdb = 0;
}

/* The reason a request failed alone, per thread, as xwext.h documents. */
static _Thread_local struct {
    const xw_connection_t *c;
    char msg[192];
} request_error;

uint64_t xw__fail_request(xw_connection_t *c, const char *fmt, ...)
{
    request_error.c = c;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(request_error.msg, sizeof(request_error.msg), fmt, ap);
    va_end(ap);
    return 0;
}

XW_EXPORT const char *xw_request_error_string(xw_connection_t *c)
{
    return request_error.c == c && request_error.msg[0] ? request_error.msg : NULL;
}

uint64_t xw__fail_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why)
{
    xw__fail_close_fds(fds, nfds);
    return xw__fail_request(c, "%s", why);
}
