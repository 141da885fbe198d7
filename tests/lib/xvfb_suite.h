/* SPDX-License-Identifier: MIT */
/* xvfb_suite.h — what the test executables against a real Xvfb share: the server
 * (one for the suite, or one per test for tests that kill it), a connection per test
 * on screen 0 with the open-fd check around it, and the skip when there is no Xvfb. */
#ifndef XW_TEST_XVFB_SUITE_H
#define XW_TEST_XVFB_SUITE_H

#include <check.h>

#include <xw/xw.h>

#include "xvfb.h"

/* The server the tests talk to: its name for a second client, its pid to kill it. */
extern struct xvfb xvfb_server;

struct xvfb_suite {
    const char *name;       /* of the test case */
    int timeout;            /* seconds per test: catches hangs, measures nothing */
    int server_per_test;    /* 0: one Xvfb for the suite; 1: one per test (each may kill its own) */
    xw_connection_t **conn; /* where xvfb_setup puts each test's connection */
    /* The checked fixture; NULL: xvfb_setup and xvfb_teardown. A test file with
     * more to set up wraps those two in its own. */
    void (*setup)(void);
    void (*teardown)(void);
};

/* For main(): 1, after saying so, when meson found no Xvfb at configure time ($XVFB
 * set but empty); main then returns 77, meson's "skipped". */
int xvfb_missing(const char *name);

/* Adds to s the test case cfg describes (cfg is copied: one per executable), with its fixtures. */
TCase *xvfb_tcase(Suite *s, const struct xvfb_suite *cfg);

/* The default checked fixture: records the fds (xwtest_fds_begin), starts the
 * server if one per test, connects *conn to it and checks it is on screen 0;
 * then disconnects (*conn becomes NULL), stops a per-test server and checks the
 * fds (xwtest_fds_end). A fixture that connects its own way (through libxcb)
 * calls those two itself. */
void xvfb_setup(void);
void xvfb_teardown(void);

#endif
