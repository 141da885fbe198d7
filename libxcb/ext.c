/* SPDX-License-Identifier: MIT */
/* ext.c — linked into each of xwire's extension libraries: the runtime internals their
 * bindings call, reached in libxcb.so.1 through its XWIRE_PRIVATE entry points. */
#include "ext.h"
#include "fail.h"
#include "send.h"

#include <xw/xproto.h>
#include <xw/xproto_priv.h> /* xw__str_walk */

/* libxcb.so.1 from xwire defines these (libxcb/core.c) under the XWIRE_PRIVATE version:
 * with -z now, an extension library loaded over another libxcb.so.1 fails at load, not
 * at its first call. */
uint64_t xwire_private_send(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq,
                            size_t total, unsigned nfds, int *fds);
uint64_t xwire_private_send_list(xw_connection_t *c, int flags, const void *fixed, const void *list, size_t n,
                                 const struct xw_request *rq);
uint64_t xwire_private_request_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why);
long xwire_private_str_walk(const char *b, size_t avail, int stop);
void xwire_private_ext_register(struct xw_ext_reg *r);

/* Hidden in this library, under the names the generated bindings call: each is a tail
 * call into the core (one jump more than in libxwire, where they are direct calls). */
uint64_t xw__send(xw_connection_t *c, int flags, struct iovec *vector, const struct xw_request *rq, size_t total,
                  unsigned nfds, int *fds)
{
    return xwire_private_send(c, flags, vector, rq, total, nfds, fds);
}

uint64_t xw__send_list(xw_connection_t *c, int flags, const void *fixed, const void *list, size_t n,
                       const struct xw_request *rq)
{
    return xwire_private_send_list(c, flags, fixed, list, n, rq);
}

uint64_t xw__fail_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why)
{
    return xwire_private_request_reject(c, nfds, fds, why);
}

long xw__str_walk(const char *b, size_t avail, int stop)
{
    return xwire_private_str_walk(b, avail, stop);
}

void xw__ext_register(struct xw_ext_reg *r)
{
    xwire_private_ext_register(r);
}
