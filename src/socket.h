/* SPDX-License-Identifier: MIT */
/* socket.h — internal: opening the server's socket. */
#ifndef XW_SRC_SOCKET_H
#define XW_SRC_SOCKET_H

#include "base.h"

/* socket.c: open a connected socket for host/protocol/display; on failure returns
 * -errno and writes a reason into why. */
int xw__socket_open(const char *host, const char *protocol, int display, char *why, size_t whycap);
int xw__socket_prepare(int fd);

#endif
