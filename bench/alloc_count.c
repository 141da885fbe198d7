/* alloc_count.c — counts heap allocations made by anyone in the process (xwire, libxcb, Xlib, libc) by
 * interposing malloc and friends in the executable and forwarding to glibc's own allocator. */
#include "xwbench.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__)
#define XWBENCH_NO_ALLOC_COUNT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#define XWBENCH_NO_ALLOC_COUNT 1
#endif
#endif

#ifdef XWBENCH_NO_ALLOC_COUNT

/* A sanitizer owns malloc in this build; counting would fight it. */
uint64_t alloc_count(void)
{
    return UINT64_MAX;
}

#else

/* glibc's documented malloc replacement: symbols defined in the executable take
 * precedence over libc's for every shared library, including libc's own internal
 * callers such as strdup, so every library is counted the same way. */
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

/* Relaxed atomics: exact under threads (xwire may read on another thread), and cheap
 * next to the allocation itself. */
static _Atomic uint64_t allocs;

static inline void count(void)
{
    atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
}

uint64_t alloc_count(void)
{
    return atomic_load_explicit(&allocs, memory_order_relaxed);
}

__attribute__((visibility("default"))) void *malloc(size_t size)
{
    count();
    return __libc_malloc(size);
}

__attribute__((visibility("default"))) void *calloc(size_t n, size_t size)
{
    count();
    return __libc_calloc(n, size);
}

__attribute__((visibility("default"))) void *realloc(void *p, size_t size)
{
    count();
    return __libc_realloc(p, size);
}

__attribute__((visibility("default"))) void *memalign(size_t align, size_t size)
{
    count();
    return __libc_memalign(align, size);
}

__attribute__((visibility("default"))) void *aligned_alloc(size_t align, size_t size)
{
    count();
    return __libc_memalign(align, size);
}

__attribute__((visibility("default"))) int posix_memalign(void **out, size_t align, size_t size)
{
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    count();
    void *p = __libc_memalign(align, size);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

__attribute__((visibility("default"))) void free(void *p)
{
    __libc_free(p);
}

#endif
