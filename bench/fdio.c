/* SPDX-License-Identifier: MIT */
/* fdio.c — whole reads and writes on a blocking fd, for the fake servers and the raw client alike. */
#include "fdio.h"

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

/* Moves all len bytes or fails (EOF or an error); blocking, EINTR retried. */
static int move_all(int fd, unsigned char *p, size_t len, int out)
{
    while (len) {
        ssize_t n = out ? write(fd, p, len) : read(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int fd_write_all(int fd, const void *buf, size_t len)
{
    return move_all(fd, (unsigned char *)(uintptr_t)buf, len, 1); /* only read from */
}

int fd_read_all(int fd, void *buf, size_t len)
{
    return move_all(fd, buf, len, 0);
}
