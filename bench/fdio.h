/* SPDX-License-Identifier: MIT */
/* fdio.h — whole reads and writes on a blocking fd (fdio.c). */
#ifndef XWBENCH_FDIO_H
#define XWBENCH_FDIO_H

#include <stddef.h>

/* All len bytes written to / read from a blocking fd: 0, or -1 on EOF or an error. */
int fd_write_all(int fd, const void *buf, size_t len);
int fd_read_all(int fd, void *buf, size_t len);

#endif
