/* SPDX-License-Identifier: MIT */
/* fdcheck.h — the open-fd leak check each test executable runs: the fds open when a
 * test begins, and any new one still open when it ends (named, with its target). */
#ifndef XW_TEST_FDCHECK_H
#define XW_TEST_FDCHECK_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FDCHECK_MAX 4096

struct fdcheck {
    unsigned char open[FDCHECK_MAX / 8];
};

/* Calls fn for every fd of this process except the directory handle itself. */
static inline void fdcheck_each(void (*fn)(int fd, void *arg), void *arg)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return;
    int self = dirfd(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        int fd = atoi(e->d_name);
        if (fd != self)
            fn(fd, arg);
    }
    closedir(d);
}

static inline void fdcheck_mark(int fd, void *arg)
{
    struct fdcheck *f = arg;
    if (fd >= 0 && fd < FDCHECK_MAX)
        f->open[fd / 8] |= (unsigned char)(1u << (fd % 8));
}

/* Records the fds open now. */
static inline void fdcheck_begin(struct fdcheck *f)
{
    memset(f, 0, sizeof(*f));
    fdcheck_each(fdcheck_mark, f);
}

struct fdcheck_report {
    const struct fdcheck *start;
    char *buf;
    size_t cap, len;
    int leaked;
};

static inline void fdcheck_note(int fd, void *arg)
{
    struct fdcheck_report *r = arg;
    /* fds from FDCHECK_MAX up are valgrind's own (it keeps them at the top of the
     * limit, visible in /proc); the process never gets one that high here */
    if (fd < 0 || fd >= FDCHECK_MAX || (r->start->open[fd / 8] >> (fd % 8) & 1))
        return;
    char path[64], target[128];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    target[n > 0 ? n : 0] = '\0';
    r->leaked++;
    if (r->len < r->cap) {
        int w = snprintf(r->buf + r->len, r->cap - r->len, "%s%d -> %s", r->leaked > 1 ? ", " : "", fd, target);
        r->len += w > 0 ? (size_t)w : 0;
    }
}

/* Number of fds open now that were not at fdcheck_begin; their list goes into buf
 * ("7 -> socket:[1234], ..."). */
static inline int fdcheck_end(const struct fdcheck *f, char *buf, size_t cap)
{
    struct fdcheck_report r = {.start = f, .buf = buf, .cap = cap};
    if (cap)
        buf[0] = '\0';
    fdcheck_each(fdcheck_note, &r);
    return r.leaked;
}

/* For a main(): 0 when nothing leaked, else prints the fds and returns 1. */
static inline int fdcheck_main_end(const struct fdcheck *f, const char *who)
{
    char buf[512];
    if (fdcheck_end(f, buf, sizeof(buf)) == 0)
        return 0;
    fprintf(stderr, "%s: file descriptors left open: %s\n", who, buf);
    return 1;
}

#endif
