/* SPDX-License-Identifier: MIT */
/* xwtest.h — what every Check test executable shares: main()'s suite, run once
 * with the whole process's open-fd check after it, and the per-test fd check. */
#ifndef XW_TEST_XWTEST_H
#define XW_TEST_XWTEST_H

#include <check.h>

/* The executable's suite, named name (the name also heads the fd report). Records
 * the fds open now: call it before anything opens one. */
Suite *xwtest_suite(const char *name);

/* Runs the suite (CK_NORMAL; CK_FORK from the environment) and frees it. Fds
 * opened since xwtest_suite and still open count as one more failure, printed.
 * Returns main's exit status. */
int xwtest_run(Suite *s);

/* The per-test fd check, for a checked fixture: no fd opened since
 * xwtest_fds_begin is still open (the failure names them), and as many are open
 * as then (none of the process's own was closed). */
void xwtest_fds_begin(void);
void xwtest_fds_end(void);

/* For code off the test's thread, where ck_assert must not run: returns the
 * failing line from an int function (0 = all held), for the test to report. */
#define T_CHECK(cond)                                                                                                  \
    do {                                                                                                               \
        if (!(cond))                                                                                                   \
            return __LINE__;                                                                                           \
    } while (0)

#endif
