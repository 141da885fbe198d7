/* core.c — what libxcb.so.1 built from xwire adds to the renamed runtime: libxcb's
 * connection error codes, and the entry points xwire's extension libraries need. */
#include "xwint.h"

#include <xw/xproto.h>

/* Exported under the XWIRE_PRIVATE version (libxcb/core.map): xwire's extension
 * libraries (ext.c) reach the core's internals only through these, so that none of
 * them loads against another libxcb.so.1. The core's own objects keep calling the
 * internal functions directly. */
XW_EXPORT uint64_t xwire_private_request_reject(xw_connection_t *c, unsigned int nfds, int *fds,
                                                const char *why);
XW_EXPORT long xwire_private_str_walk(const char *b, size_t avail, int stop);
XW_EXPORT int xcb_connection_has_error(xw_connection_t *c);

uint64_t xwire_private_request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why)
{
    return xw__request_reject(c, nfds, fds, why);
}

long xwire_private_str_walk(const char *b, size_t avail, int stop)
{
    return xw__str_walk(b, avail, stop);
}

/** libxcb's xcb_connection_has_error(): xwire's code, with the codes libxcb does not
 * have mapped to libxcb's nearest. XW_CONN_CLOSED_MALFORMED (the server broke the
 * protocol) is XCB_CONN_ERROR, the code libxcb gives for a stream it cannot read.
 * Thread-safe; never blocks. */
int xcb_connection_has_error(xw_connection_t *c)
{
    int e = xw_connection_has_error(c);
    return e > XW_CONN_CLOSED_FDPASSING_FAILED ? XW_CONN_ERROR : e;
}
