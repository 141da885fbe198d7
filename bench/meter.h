/* SPDX-License-Identifier: MIT */
/* meter.h — what a case measures around its timed part (meter.c). */
#ifndef XWBENCH_METER_H
#define XWBENCH_METER_H

#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#include "bench.h"

/* What a case measures around its timed part only: connecting, creating windows
 * and interning atoms stay outside. */
struct meter {
    struct timespec t0, t1;
    struct rusage r0, r1;
    uint64_t allocs0, allocs1;
    double server_cpu0, server_cpu1;
    const struct server *server;
};

/* A case calls these around its timed part itself. */
void meter_start(struct meter *m);
void meter_stop(struct meter *m);
struct sample meter_sample(const struct meter *m);

/* Heap calls are counted by the allocator the tests interpose too (tests/lib/alloc_count.h,
 * alloc_count_total: every thread's, UINT64_MAX when a sanitizer owns malloc). */

#endif
