/* SPDX-License-Identifier: MIT */
/* meter.c — what a case measures around its timed part: wall and CPU time, heap calls, page faults and
 * context switches of this process, the server's CPU time, and (under callgrind) instructions. */
#include "meter.h"
#include "servers.h"

#include "alloc_count.h"

#ifdef XWBENCH_CALLGRIND
#include <valgrind/callgrind.h>
#define INSTRUMENT_ON() CALLGRIND_START_INSTRUMENTATION
#define INSTRUMENT_OFF() CALLGRIND_STOP_INSTRUMENTATION
#else
#define INSTRUMENT_ON() ((void)0)
#define INSTRUMENT_OFF() ((void)0)
#endif

void meter_start(struct meter *m)
{
    m->server_cpu0 = m->server ? server_cpu_seconds(m->server) : -1;
    m->allocs0 = alloc_count_total();
    getrusage(RUSAGE_SELF, &m->r0);
    clock_gettime(CLOCK_MONOTONIC, &m->t0);
    INSTRUMENT_ON();
}

void meter_stop(struct meter *m)
{
    INSTRUMENT_OFF();
    clock_gettime(CLOCK_MONOTONIC, &m->t1);
    getrusage(RUSAGE_SELF, &m->r1);
    m->allocs1 = alloc_count_total();
    m->server_cpu1 = m->server_cpu0 >= 0 ? server_cpu_seconds(m->server) : -1;
}

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

struct sample meter_sample(const struct meter *m)
{
    struct sample s;
    s.wall = (double)(m->t1.tv_sec - m->t0.tv_sec) + (double)(m->t1.tv_nsec - m->t0.tv_nsec) * 1e-9;
    s.sys = tv(m->r1.ru_stime) - tv(m->r0.ru_stime);
    s.cpu = tv(m->r1.ru_utime) - tv(m->r0.ru_utime) + s.sys;
    s.allocs = m->allocs0 == UINT64_MAX ? UINT64_MAX : m->allocs1 - m->allocs0;
    s.server_cpu = m->server_cpu0 >= 0 && m->server_cpu1 >= 0 ? m->server_cpu1 - m->server_cpu0 : -1;
    s.faults = (m->r1.ru_minflt + m->r1.ru_majflt) - (m->r0.ru_minflt + m->r0.ru_majflt);
    s.switches = (m->r1.ru_nvcsw + m->r1.ru_nivcsw) - (m->r0.ru_nvcsw + m->r0.ru_nivcsw);
    return s;
}
