/* alloc_count.h — counts the heap calls a thread makes between two points. Its
 * alloc_count.c replaces glibc's malloc family for the whole executable, so it is
 * linked only into the tests that count (see tests/meson.build), never into the
 * fixtures library. */
#ifndef XW_TEST_ALLOC_COUNT_H
#define XW_TEST_ALLOC_COUNT_H

#include "harness.h" /* XW_COUNT_ALLOCS: 0 where a sanitizer owns the allocator */

/* Switches counting on for the calling thread; returns the count so far. Calls on
 * other threads (a fake server's, libxcb's) are never counted. */
unsigned long alloc_count_begin(void);
/* Switches counting off for the calling thread; returns the calls since start (0
 * in builds where XW_COUNT_ALLOCS is 0: nothing is replaced there). */
unsigned long alloc_count_end(unsigned long start);

#endif
