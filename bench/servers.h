/* SPDX-License-Identifier: MIT */
/* servers.h — starting, stopping and timing the servers the cases run against (servers.c). */
#ifndef XWBENCH_SERVERS_H
#define XWBENCH_SERVERS_H

#include "bench.h"

int server_start_xvfb(struct server *s);
/* Forks the fake server of that kind (not SERVER_XVFB) on a free display number. */
int server_start_fake(struct server *s, enum server_kind kind);
void server_stop(struct server *s);
/* Stops every server still running; safe from a signal handler and atexit. */
void servers_stop_all(void);
/* CPU seconds (user+sys, every thread) the server process has used so far, or -1
 * when it has no pid here. */
double server_cpu_seconds(const struct server *s);
/* Puts every thread of the server on CPU cpu. 0, or -1 when it could not. */
int server_pin(const struct server *s, int cpu);

#endif
