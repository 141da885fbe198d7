/* SPDX-License-Identifier: MIT */
/* clock.c — deadlines on CLOCK_MONOTONIC, for the waits of the lock and of the socket. */
#include "clock.h"

#include <limits.h>
#include <time.h>

int64_t xw__clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t xw__clock_deadline(int timeout_ms)
{
    if (timeout_ms < 0)
        return -1;
    return xw__clock_now() + (int64_t)timeout_ms * 1000000;
}

/* poll() timeout in ms for a deadline, rounded up so we never wake just short of it. */
int xw__clock_poll_timeout(int64_t deadline)
{
    if (deadline < 0)
        return -1;
    int64_t left = deadline - xw__clock_now();
    if (left <= 0)
        return 0;
    int64_t ms = (left + 999999) / 1000000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}
