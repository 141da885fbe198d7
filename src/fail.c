/* fail.c — the connection's first fatal error, kept for good, and the fds it closes. */
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
