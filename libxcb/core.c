/* SPDX-License-Identifier: MIT */
/* core.c — what libxcb.so.1 built from xwire adds to the renamed runtime: libxcb's
 * connection error codes, and the entry points xwire's extension libraries need. */
#include "conn.h"
#include "ext.h"
#include "fail.h"
#include "hooks.h"
#include "send.h"

#include <errno.h>
#include <unistd.h>

#include <xw/xproto.h>
#include <xw/xproto_priv.h> /* xw__str_walk */

/* Exported under the XWIRE_PRIVATE version (libxcb/core.map): xwire's extension
 * libraries (libxcb/ext.c) reach the core's internals only through these, so none of
 * them loads against another libxcb.so.1. Each is a tail call (one jump); the core's
 * own objects keep calling the internal functions directly. */
XW_EXPORT uint64_t xwire_private_send(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq,
                                      size_t total, unsigned nfds, int *fds);
XW_EXPORT uint64_t xwire_private_send_list(xw_connection_t *c, int flags, const void *fixed, const void *list, size_t n,
                                           const struct xw_request *rq);
XW_EXPORT uint64_t xwire_private_request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why);
XW_EXPORT long xwire_private_str_walk(const char *b, size_t avail, int stop);
XW_EXPORT void xwire_private_ext_register(struct xw_ext_reg *r);
XW_EXPORT int xcb_connection_has_error(xw_connection_t *c);

uint64_t xwire_private_send(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq,
                            size_t total, unsigned nfds, int *fds)
{
    return xw__send(c, flags, vector, rq, total, nfds, fds);
}

uint64_t xwire_private_send_list(xw_connection_t *c, int flags, const void *fixed, const void *list, size_t n,
                                 const struct xw_request *rq)
{
    return xw__send_list(c, flags, fixed, list, n, rq);
}

uint64_t xwire_private_request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why)
{
    return xw__fail_reject(c, nfds, fds, why);
}

long xwire_private_str_walk(const char *b, size_t avail, int stop)
{
    return xw__str_walk(b, avail, stop);
}

void xwire_private_ext_register(struct xw_ext_reg *r)
{
    xw__ext_register(r);
}

/* libxcb writes a refused setup's reason to stderr as the server sent it, then a
 * newline: for Failed (status 0) the reason's own length (byte 1), for Authenticate
 * (2) the whole rest of the reply, padding and all, which is its reason field.
 * Programs show it ("Invalid MIT-MAGIC-COOKIE-1 key") before their own message.
 * Any other status is no refusal (the setup takes it as success): nothing to show.
 * len >= 8: xw__setup_handshake read the 8-byte header and the 4 * length bytes it
 * announced, so the reason never runs past them. */
static void write_stderr(const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

static void setup_refused_shown(const uint8_t *s, size_t len)
{
    if (s[0] != 0 && s[0] != 2)
        return;
    size_t n = len - 8;
    if (s[0] == 0 && s[1] < n)
        n = s[1];
    write_stderr(s + 8, n);
    write_stderr((const uint8_t *)"\n", 1);
}

/* At load, before the program can connect: the runtime tells us of refusals. */
__attribute__((constructor)) static void register_hooks(void)
{
    xw__hooks_register(&(struct xw_hooks){.setup_refused = setup_refused_shown});
}

/** libxcb's xcb_connection_has_error(): xwire's code, with the codes libxcb does not
 * have mapped to libxcb's nearest. XW_CONN_CLOSED_MALFORMED (the server broke the
 * protocol) is XCB_CONN_ERROR, the code libxcb gives for a stream it cannot read.
 * On a failed connection errno is set again to what the failure left: Xlib calls
 * this right after a call fails and then prints its message from errno, and a
 * system call between the failure and here (another thread's, a poll of ours)
 * must not change what it says. Thread-safe; never blocks. */
int xcb_connection_has_error(xw_connection_t *c)
{
    int e = xw_connection_has_error(c);
    int err = e ? __atomic_load_n(&c->fail_errno, __ATOMIC_ACQUIRE) : 0;
    if (err) /* 0 when the failure is a borrowed connection owner's */
        errno = err;
    return e > XW_CONN_CLOSED_FDPASSING_FAILED ? XW_CONN_ERROR : e;
}
