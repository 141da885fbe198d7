/* SPDX-License-Identifier: MIT */
/* callgrind.h — `xwbench --callgrind`: instructions per operation (callgrind.c). */
#ifndef XWBENCH_CALLGRIND_H
#define XWBENCH_CALLGRIND_H

#include "bench.h"

/* Runs one case once for one library against server s in a child xwbench under
 * callgrind, its out file kept in dir; instructions per operation, or -1. A shim
 * row's child runs with the shim on its library path. */
double callgrind_per_op(const char *case_name, const struct library *lib, const struct server *s, long n,
                        const char *dir);

#endif
