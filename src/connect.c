/* SPDX-License-Identifier: MIT */
/* connect.c — connecting and disconnecting, simple getters. */
#include "connect.h"
#include "auth.h"
#include "base.h"
#include "callsite.h"
#include "clock.h"
#include "conn.h"
#include "display.h"
#include "ext.h"
#include "fail.h"
#include "limit.h"
#include "route.h"
#include "setup.h"
#include "socket.h"
#include "store.h"
#include "trace.h"
#include "transport.h"
#include "xid.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* Returned when even the connection structure cannot be allocated (libxcb does
 * the same); every entry point sees error != 0 and returns at once, and
 * xw_disconnect ignores it. */
static xw_connection_t oom_conn = {
    .error = XW_CONN_CLOSED_MEM_INSUFFICIENT,
    .errstr = "out of memory",
    .fd = -1,
    .single = 1,
    .tp = &xw__own_transport,
};

/* A connection with its buffers for fd (the caller's until then), or the shared
 * out-of-memory connection, whose error is set. */
xw_connection_t *xw__connect_new(int fd)
{
    xw_connection_t *c = calloc(1, sizeof(*c));
    if (!c)
        return &oom_conn;
    c->fd = fd;
    c->tp = &xw__own_transport;
    c->out.buf = malloc(XW_OUT_SIZE + XW_OUT_SLACK);
    c->in.buf = malloc(XW_IN_SIZE);
    c->in.alt = malloc(XW_IN_SIZE);
    if (!c->out.buf || !c->in.buf || !c->in.alt) {
        free(c->out.buf);
        free(c->in.buf);
        free(c->in.alt);
        free(c);
        return &oom_conn;
    }
    c->out.ptr = c->out.buf;
    c->out.end = c->out.buf + XW_OUT_SIZE;
    c->out.max_words = 65535;
    c->born_ns = xw__clock_now();
    return c;
}

XW_EXPORT xw_connection_t *xw_connect_to_fd(int fd, xw_auth_info_t *auth_info)
{
    xw_connection_t *c = xw__connect_new(fd);
    if (c == &oom_conn) {
        if (fd >= 0)
            close(fd);
        return c;
    }
    if (fd < 0) {
        xw__fail_conn(c, XW_CONN_ERROR, "invalid file descriptor %d", fd);
        return c;
    }
    int r = xw__socket_prepare(fd);
    if (r < 0) {
        xw__fail_conn(c, XW_CONN_ERROR, "prepare socket: %s", strerror(-r));
        return c;
    }
    c->in.block = 1;
    if (xw__setup_handshake(c, auth_info) < 0)
        return c;
    xw__xid_init(c);
    uint16_t maxlen = xw__rd16(c->setup + 26);
    if (maxlen < 4096) { /* the protocol's floor: every server takes 4096 words */
        xw__fail_conn(c, XW_CONN_CLOSED_PARSE_ERR, "malformed setup: maximum request length %u words (at least 4096)",
                      maxlen);
        return c;
    }
    c->out.max_words = maxlen;
    xw__limit_refresh(c);
    xw__trace_connect(c);
    if (xw__callsite_wanted()) /* the only cost while off: this test, once per connection */
        xw__callsite_enable(c);
    return c;
}

static xw_connection_t *fail_new(int code, const char *fmt, const char *arg)
{
    xw_connection_t *c = xw__connect_new(-1);
    xw__fail_conn(c, code, fmt, arg); /* the out-of-memory connection keeps its own error */
    return c;
}

XW_EXPORT xw_connection_t *xw_connect_to_display_with_auth_info(const char *display, xw_auth_info_t *auth, int *screenp)
{
    char *host = NULL, *protocol = NULL;
    int dpy, screen = 0;
    const char *name = display && *display ? display : getenv("DISPLAY");
    if (!name || !*name)
        return fail_new(XW_CONN_CLOSED_PARSE_ERR, "%s", "no display name given and $DISPLAY is not set");
    if (!xw__display_parse(name, &protocol, &host, &dpy, &screen))
        return fail_new(XW_CONN_CLOSED_PARSE_ERR, "cannot parse display \"%s\"", name);
    char why[256] = "";
    int fd = xw__socket_open(host, protocol, dpy, why, sizeof(why));
    free(protocol);
    free(host);
    if (fd < 0)
        return fail_new(XW_CONN_ERROR, "%s", why);
    xw_auth_info_t found = {0};
    if (!auth && xw__auth_get(fd, dpy, &found))
        auth = &found;
    xw_connection_t *c = xw_connect_to_fd(fd, auth);
    xw__auth_free(&found);
    if (!c->error && c->setup[28] <= (unsigned)screen) {
        xw__fail_conn(c, XW_CONN_CLOSED_INVALID_SCREEN, "screen %d does not exist (the server has %u)", screen,
                      c->setup[28]);
    }
    if (screenp)
        *screenp = screen;
    return c;
}

XW_EXPORT xw_connection_t *xw_connect(const char *displayname, int *screenp)
{
    return xw_connect_to_display_with_auth_info(displayname, NULL, screenp);
}

XW_EXPORT void xw_disconnect(xw_connection_t *c)
{
    if (!c || c == &oom_conn)
        return;
    c->tp->close(c);
    xw__fail_close_fds(c->out.fds, c->out.nfds);
    xw__trace_fini(c);
    xw__route_fini(c);
    xw__ext_fini(c);
    xw__store_fini(&c->store);
    xw__callsite_free(c->cs);
    free(c->out.buf);
    free(c->in.buf);
    free(c->in.alt);
    free(c->setup);
    free(c);
}

XW_EXPORT int xw_connection_has_error(xw_connection_t *c)
{
    int e = __atomic_load_n(&c->error, __ATOMIC_RELAXED);
    if (!e)
        e = c->tp->error(c);
    return e;
}

XW_EXPORT const char *xw_connection_error_string(xw_connection_t *c)
{
    return __atomic_load_n(&c->error, __ATOMIC_ACQUIRE) ? c->errstr : NULL;
}

XW_EXPORT const struct xw_setup_t *xw_get_setup(xw_connection_t *c)
{
    if (c->error)
        return NULL;
    return (const struct xw_setup_t *)c->setup;
}

XW_EXPORT int xw_get_file_descriptor(xw_connection_t *c)
{
    return c->error ? -1 : c->tp->fd(c);
}

XW_EXPORT int xw_connection_set_single_threaded(xw_connection_t *c, int on)
{
    if (c == &oom_conn)
        return -EINVAL;
    c->single = on ? 1 : 0;
    xw__limit_refresh(c); /* the inline senders follow the mode */
    return 0;
}

XW_EXPORT uint64_t xw_total_read(xw_connection_t *c)
{
    xw__conn_lock(c);
    uint64_t n = c->total_read;
    xw__conn_unlock(c);
    return n;
}

XW_EXPORT uint64_t xw_total_written(xw_connection_t *c)
{
    xw__conn_lock(c);
    uint64_t n = c->total_written;
    xw__conn_unlock(c);
    return n;
}

XW_EXPORT int xw_popcount(uint32_t mask)
{
    return __builtin_popcount(mask);
}

XW_EXPORT int xw_sumof(uint8_t *list, int len)
{
    int s = 0;
    for (int i = 0; i < len; i++)
        s += list[i];
    return s;
}
