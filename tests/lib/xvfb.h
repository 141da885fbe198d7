/* SPDX-License-Identifier: MIT */
/* xvfb.h — start a private Xvfb on a free display (-displayfd) for tests. */
#ifndef XW_TEST_XVFB_H
#define XW_TEST_XVFB_H

struct xvfb {
    int pid; /* 0 when not running */
    int display;
    char name[32]; /* ":N" */
};

/* Starts $XVFB (or Xvfb from PATH) with -displayfd -nolisten tcp; waits up to
 * 20 s for it to report its display. Returns 0 or -1. */
int xvfb_start(struct xvfb *x);
/* The same with more arguments, NULL-terminated, after those ("-listen", "tcp"
 * overrides the default). */
int xvfb_start_with(struct xvfb *x, const char *const *extra);
void xvfb_stop(struct xvfb *x);
/* Server death: SIGKILL, then reaps it. */
void xvfb_kill(struct xvfb *x);

#endif
