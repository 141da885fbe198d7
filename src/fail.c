/* fail.c — the connection's first fatal error, kept for good; a request's own failure reason; the fds they close. */
#include "xwint.h"

#include <stdarg.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

void xw__close_fds(int *fds, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (fds[i] >= 0)
            close(fds[i]);
}

/* Lock held (or connection not yet shared). Wakes every waiter so nothing hangs. */
int xw__conn_fail(xw_connection_t *c, int code, const char *fmt, ...)
{
    if (c->error)
        return -EPIPE;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->errstr, sizeof(c->errstr), fmt, ap);
    va_end(ap);
    /* published after the reason: xw_connection_error_string reads it without
     * the lock once it sees the code (acquire) */
    __atomic_store_n(&c->error, code, __ATOMIC_RELEASE);
    if (c->fd >= 0)
        shutdown(c->fd, SHUT_RDWR);
    xw__close_fds(c->out.fds, c->out.nfds);
    c->out.nfds = 0;
    xw__in_close_fds(c);
    c->out.fast_limit = 0;
    __atomic_store_n(&c->out.inline_limit, 0, __ATOMIC_RELAXED);
    xw__cond_broadcast(&c->in_cond);
    xw__cond_broadcast(&c->out_cond);
    return -EPIPE;
}

void xw__in_close_fds(xw_connection_t *c)
{
    struct xw_in *in = &c->in;
    for (unsigned i = 0; i < in->nfdb; i++)
        xw__close_fds(in->fdb[i].fds + in->fdb[i].used, in->fdb[i].n - in->fdb[i].used);
    in->nfdb = 0;
}

/* The reason a request failed alone, per thread, as xwext.h documents. */
static _Thread_local struct {
    const xw_connection_t *c;
    char msg[192];
} request_error;

uint64_t xw__request_fail(xw_connection_t *c, const char *fmt, ...)
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

uint64_t xw__request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why)
{
    xw__close_fds(fds, nfds);
    return xw__request_fail(c, "%s", why);
}
