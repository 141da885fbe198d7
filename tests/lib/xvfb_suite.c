/* SPDX-License-Identifier: MIT */
/* xvfb_suite.c — the Xvfb test executables' fixtures: server, connection, fd check. */
#include "xvfb_suite.h"

#include <stdio.h>
#include <stdlib.h>

#include "xwtest.h"

struct xvfb xvfb_server;

/* The one test case of the running executable (Check's fixtures take no argument). */
static struct xvfb_suite cfg;

int xvfb_missing(const char *name)
{
    const char *xvfb = getenv("XVFB");
    if (xvfb && !*xvfb) {
        fprintf(stderr, "SKIP %s: no Xvfb found at configure time\n", name);
        return 1;
    }
    return 0;
}

static void start_server(void)
{
    ck_assert_msg(xvfb_start(&xvfb_server) == 0, "cannot start Xvfb (set $XVFB)");
}

static void stop_server(void)
{
    xvfb_stop(&xvfb_server);
}

void xvfb_setup(void)
{
    xwtest_fds_begin();
    if (cfg.server_per_test)
        start_server();
    int screen = -1;
    xw_connection_t *c = xw_connect(xvfb_server.name, &screen);
    *cfg.conn = c;
    ck_assert_msg(!xw_connection_has_error(c), "connect %s: %s", xvfb_server.name, xw_connection_error_string(c));
    ck_assert_int_eq(screen, 0);
}

/* The server stops before the fd check, so that a failing check leaves no Xvfb behind. */
void xvfb_teardown(void)
{
    xw_disconnect(*cfg.conn);
    *cfg.conn = NULL;
    if (cfg.server_per_test)
        stop_server();
    xwtest_fds_end();
}

TCase *xvfb_tcase(Suite *s, const struct xvfb_suite *which)
{
    cfg = *which;
    TCase *tc = tcase_create(cfg.name);
    tcase_set_timeout(tc, cfg.timeout);
    if (!cfg.server_per_test)
        tcase_add_unchecked_fixture(tc, start_server, stop_server);
    tcase_add_checked_fixture(tc, cfg.setup ? cfg.setup : xvfb_setup, cfg.teardown ? cfg.teardown : xvfb_teardown);
    suite_add_tcase(s, tc);
    return tc;
}
