/* SPDX-License-Identifier: MIT */
/* fail.h — internal: connection failures, failed requests and closing fds. */
#ifndef XW_SRC_FAIL_H
#define XW_SRC_FAIL_H

#include "base.h"

/* Generated senders: refuse a request the caller got wrong (a NULL list with a
 * non-zero length, a new resource id of 0) before anything of it is written. Closes
 * fds, records why for xw_request_error_string(), returns 0. */
uint64_t xw__fail_reject(xw_connection_t *c, unsigned int nfds, int *fds, const char *why);

/* fail.c: record the first fatal error (never overwritten), close the fds the
 * connection holds and wake every waiter; returns -EPIPE. */
int xw__fail_conn(xw_connection_t *c, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* fail.c: xw__fail_conn for a system call that failed with err: "what: strerror(err)",
 * and err is the errno the failure leaves. */
int xw__fail_sys(xw_connection_t *c, int err, const char *what);
/* fail.c: the per-thread reason for a request that failed alone; returns 0 (a failed sequence). */
uint64_t xw__fail_request(xw_connection_t *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fail.c: closes each fd of fds that is not -1. */
void xw__fail_close_fds(int *fds, unsigned n);

/* fail.c: closes every received fd not yet claimed (connection failure, disconnect). */
void xw__fail_close_in_fds(xw_connection_t *c);

#endif
