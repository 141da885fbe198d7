/* SPDX-License-Identifier: MIT */
/* clock.h — internal: deadlines, in CLOCK_MONOTONIC nanoseconds (-1: none). */
#ifndef XW_SRC_CLOCK_H
#define XW_SRC_CLOCK_H

#include <stdint.h>

/* Now. */
int64_t xw__clock_now(void);
/* The deadline timeout_ms from now; -1 for a negative timeout (none). */
int64_t xw__clock_deadline(int timeout_ms);
/* poll()'s timeout in ms for a deadline: -1 for none, 0 once it has passed. */
int xw__clock_poll_timeout(int64_t deadline);

#endif
