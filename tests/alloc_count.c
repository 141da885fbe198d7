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
/* Exported whatever the build's -fvisibility: a hidden malloc would bind only the
 * executable's own calls, and the shared libraries' (libxcb's, xcb-util's) would
 * reach libc's uncounted. */
#define INTERPOSE __attribute__((visibility("default")))

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t align, size_t size);
void __libc_free(void *p);

static void note(void)
{
    if (counting)
        atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
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

INTERPOSE int posix_memalign(void **out, size_t align, size_t size)
{
    note();
    *out = __libc_memalign(align, size);
    return *out ? 0 : ENOMEM;
}

INTERPOSE void free(void *p)
{
    __libc_free(p);
}
#endif
