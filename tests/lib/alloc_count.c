/* SPDX-License-Identifier: MIT */
/* alloc_count.c — glibc's replaceable allocator with a counter: definitions in the
 * executable win over libc's for every shared library (libxcb's, Xlib's, libc's own
 * strdup), so every library is counted the same way. */
#include "alloc_count.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

/* glibc's own flag: it only ever turns false, before a second thread runs */
#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define ALLOC_SINGLE_THREADED() __libc_single_threaded
#endif
#endif
#ifndef ALLOC_SINGLE_THREADED
#define ALLOC_SINGLE_THREADED() 0
#endif

/* The calls on this thread: no atomics needed, and no other thread's calls in it. */
static _Thread_local unsigned long mine;

unsigned long alloc_count_begin(void)
{
    return mine;
}

unsigned long alloc_count_end(unsigned long start)
{
    return mine - start;
}

#if XW_COUNT_ALLOCS
/* Every call, on any thread: relaxed atomics are exact under threads and cheap next
 * to the allocation itself. */
static _Atomic uint64_t total;

uint64_t alloc_count_total(void)
{
    return atomic_load_explicit(&total, memory_order_relaxed);
}

/* Exported whatever the build's -fvisibility: a hidden malloc would bind only the
 * executable's own calls, and the shared libraries' would reach libc's uncounted. */
#define INTERPOSE __attribute__((visibility("default")))

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

/* While the process has one thread nobody else can add, so a plain add is exact:
 * a lock-prefixed one cost more than glibc's malloc itself (a third of the
 * benchmark's CPU per event in the forms that allocate). */
static inline void note(void)
{
    if (ALLOC_SINGLE_THREADED())
        atomic_store_explicit(&total, atomic_load_explicit(&total, memory_order_relaxed) + 1, memory_order_relaxed);
    else
        atomic_fetch_add_explicit(&total, 1, memory_order_relaxed);
    mine++;
}

INTERPOSE void *malloc(size_t size)
{
    note();
    return __libc_malloc(size);
}

INTERPOSE void *calloc(size_t n, size_t size)
{
    note();
    return __libc_calloc(n, size);
}

INTERPOSE void *realloc(void *p, size_t size)
{
    note();
    return __libc_realloc(p, size);
}

INTERPOSE void *memalign(size_t align, size_t size)
{
    note();
    return __libc_memalign(align, size);
}

INTERPOSE void *aligned_alloc(size_t align, size_t size)
{
    note();
    return __libc_memalign(align, size);
}

/* POSIX: EINVAL for an alignment that is not a power of two times sizeof(void *),
 * and *out untouched on failure. */
INTERPOSE int posix_memalign(void **out, size_t align, size_t size)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    note();
    void *p = __libc_memalign(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

INTERPOSE void free(void *p)
{
    __libc_free(p);
}
#else
/* A sanitizer owns malloc in this build; counting would fight it. */
uint64_t alloc_count_total(void)
{
    return UINT64_MAX;
}
#endif
