/* SPDX-License-Identifier: MIT */
/* alloc_count.h — the one heap-call counter of the tests and the benchmarks. Its
 * alloc_count.c replaces glibc's malloc family for the whole executable, so it is
 * compiled into the executables that count (tests/meson.build, bench/meson.build)
 * and never into a static library: an archive member defining malloc would be
 * pulled into every executable that calls malloc. */
#ifndef XW_TEST_ALLOC_COUNT_H
#define XW_TEST_ALLOC_COUNT_H

#include <stdint.h>

/* Sanitizers bring their own allocator: counts are made in plain builds only, and
 * there nothing is replaced (XW_COUNT_ALLOCS 0). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define XW_COUNT_ALLOCS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define XW_COUNT_ALLOCS 0
#endif
#endif
#ifndef XW_COUNT_ALLOCS
#define XW_COUNT_ALLOCS 1
#endif

/* The calling thread's heap calls (malloc, calloc, realloc and the aligned forms;
 * free is not one) between begin and end; calls on other threads (a fake server's,
 * libxcb's) are not in it. begin returns the thread's count so far, to pass to end;
 * end returns the calls since (0 where XW_COUNT_ALLOCS is 0). */
unsigned long alloc_count_begin(void);
unsigned long alloc_count_end(unsigned long start);

/* Every thread's heap calls since the process started: what the benchmarks count,
 * since a library may allocate on a thread of its own. UINT64_MAX where
 * XW_COUNT_ALLOCS is 0. */
uint64_t alloc_count_total(void);

#endif
