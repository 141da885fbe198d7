/* ext.c — linked into each of xwire's extension libraries: the runtime internals their
 * bindings call, reached in libxcb.so.1 through its XWIRE_PRIVATE entry points. */
#include "xwint.h"

#include <xw/xproto.h>

/* Defined by xwire's libxcb.so.1 (libxcb/core.c) under the XWIRE_PRIVATE version:
 * with -z now, an extension library loaded over another libxcb.so.1 fails at load. */
uint64_t xwire_private_request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why);
long xwire_private_str_walk(const char *b, size_t avail, int stop);

/* Hidden in this library: the generated bindings call these by their internal names. */
uint64_t xw__request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why)
{
    return xwire_private_request_reject(c, nfds, fds, why);
}

long xw__str_walk(const char *b, size_t avail, int stop)
{
    return xwire_private_str_walk(b, avail, stop);
}
