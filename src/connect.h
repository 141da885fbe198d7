/* SPDX-License-Identifier: MIT */
/* connect.h — internal: making a connection. */
#ifndef XW_SRC_CONNECT_H
#define XW_SRC_CONNECT_H

#include "base.h"

/* connect.c: a new connection for fd (the shared out-of-memory one, error set,
 * when it cannot be allocated). */
xw_connection_t *xw__connect_new(int fd);

#endif
