/* SPDX-License-Identifier: MIT */
/* lib_malloc.c — the events case's "malloc(36)+free" row: what the heap alone costs a default-form claim. */
#include "bench.h"
#include "meter.h"

#include <stdlib.h>
#include <string.h>

/* What a caller of xw_wait_for_event (or xcb_wait_for_event) pays the heap per
 * event, timed beside the libraries in the same run: one malloc of an event's 36
 * bytes, written whole and read, then freed; no server, no library. The
 * allocator is the one the library rows use (this binary's counting wrapper
 * over glibc's), so the row's CPU per event is the heap's share of theirs. */
static long run_events(const struct target *t, struct meter *m)
{
    long ok = 0;
    meter_start(m);
    for (long i = 0; i < t->n; i++) {
        unsigned char *e = malloc(36);
        if (!e)
            break;
        memset(e, (int)(i & 0x7f), 36);
        /* the block escapes, so the compiler may not fold the pair away */
        __asm__ volatile("" : : "r"(e) : "memory");
        ok += e[35] == (unsigned char)(i & 0x7f);
        free(e);
    }
    meter_stop(m);
    return ok;
}

const struct library lib_malloc = {.name = "malloc(36)+free", .cases = {[CASE_EVENTS] = run_events}};
