/* SPDX-License-Identifier: MIT */
/* diag.h — xwgen's diagnostics (file:line: error: msg, exit status 1) and allocation that never returns NULL. */
#ifndef XWGEN_DIAG_H
#define XWGEN_DIAG_H

#include <stddef.h>

/* A place in a description: every node of the tree and of the model carries one. */
struct loc {
    const char *file;
    int line;
};

/* Prints "file:line: error: message" and exits with status 1. */
void fail(struct loc loc, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* On failure these print "out of memory" and exit: a one-shot build tool has nothing to clean up. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Appends v to the array arr of n elements, growing it by one. */
#define PUSH(arr, n, v)                                                                                                \
    do {                                                                                                               \
        (arr) = xrealloc((arr), sizeof(*(arr)) * (size_t)((n) + 1));                                                   \
        (arr)[(n)++] = (v);                                                                                            \
    } while (0)

#endif
