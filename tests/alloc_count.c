/* alloc_count.c — glibc's replaceable allocator with a counter: definitions in the
 * executable win over libc's, for the libraries' calls (libxcb's too). */
#include "alloc_count.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

static _Thread_local int counting;
static atomic_ulong allocs;

unsigned long alloc_count_begin(void)
{
    counting = 1;
    return atomic_load(&allocs);
}

unsigned long alloc_count_end(unsigned long start)
{
    counting = 0;
    return atomic_load(&allocs) - start;
}

#if XW_COUNT_ALLOCS
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

/* The project builds with -fvisibility=hidden, so these replacements are hidden and see
 * only the executable's own calls (xwire linked statically); shared libraries' calls
 * (libxcb's, xcb-util's) go to libc uncounted. A test that counts those too builds this
 * file with -DALLOC_COUNT_LIBRARIES, which exports them. */
#ifdef ALLOC_COUNT_LIBRARIES
#define REPLACES __attribute__((visibility("default")))
#else
#define REPLACES
#endif

static void note(void)
{
    if (counting)
        atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
}

REPLACES void *malloc(size_t size)
{
    note();
    return __libc_malloc(size);
}

REPLACES void *calloc(size_t n, size_t size)
{
    note();
    return __libc_calloc(n, size);
}

REPLACES void *realloc(void *p, size_t size)
{
    note();
    return __libc_realloc(p, size);
}

REPLACES void *memalign(size_t align, size_t size)
{
    note();
    return __libc_memalign(align, size);
}

REPLACES void *aligned_alloc(size_t align, size_t size)
{
    note();
    return __libc_memalign(align, size);
}

REPLACES int posix_memalign(void **out, size_t align, size_t size)
{
    note();
    *out = __libc_memalign(align, size);
    return *out ? 0 : ENOMEM;
}

REPLACES void free(void *p)
{
    __libc_free(p);
}
#endif
