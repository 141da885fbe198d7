/* SPDX-License-Identifier: MIT */
/* xwtest.c — one suite per test executable; the fd checks per test and per process. */
#include "xwtest.h"

#include <stdlib.h>

#include "fake_server.h" /* count_open_fds */
#include "fdcheck.h"

static struct fdcheck whole, per_test;
static int per_test_count;
static const char *suite_name;

Suite *xwtest_suite(const char *name)
{
    fdcheck_begin(&whole);
    suite_name = name;
    return suite_create(name);
}

int xwtest_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    failed += fdcheck_main_end(&whole, suite_name);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

void xwtest_fds_begin(void)
{
    fdcheck_begin(&per_test);
    per_test_count = count_open_fds();
}

void xwtest_fds_end(void)
{
    char buf[512];
    ck_assert_msg(fdcheck_end(&per_test, buf, sizeof(buf)) == 0, "fds left open: %s", buf);
    ck_assert_int_eq(count_open_fds(), per_test_count);
}
