/* test_display.c — xw_parse_display against the installed libxcb's xcb_parse_display. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <xcb/xcb.h>

#include <xw/xw.h>

#include "xwtest.h"

/* Strings both libraries must treat alike. */
static const char *const same[] = {
    ":0", ":1", ":0.1", ":12.34", "host:0", "host:0.0", "host.example.org:10.2", "tcp/host:0", "unix/host:3",
    "inet6/::1:0", "unix:0", "[::1]:0", "::1:0", "[fe80::1]:7.1", "host::0", "host::1.2", "a/b/c:4",
    "localhost:2147483647", "", ":", ":.", ":0.", ":a", ":0.a", ":0x1", "host", "host:", "/tmp/.X11-unix/X0",
    "unix:/tmp/.X11-unix/X0", "host:0.1.2", ":0 ", "0", "tcp/:0", "/:0", ":00", ":007.08",
};

/* libxcb 1.15 accepts these (strtoul takes signs, blanks and wraps); xwire refuses. */
static const char *const stricter[] = {
    ":+1", ": 1", ":-1", ":99999999999", ":2147483648", ":0.+1", ":0. 1", ":0.-1", ":1.99999999999", ":\t1",
};

START_TEST(same_as_libxcb)
{
    const char *name = same[_i];
    char *xh = NULL, *wh = NULL;
    int xd = -7, xs = -7, wd = -7, ws = -7;
    int xr = xcb_parse_display(name, &xh, &xd, &xs);
    int wr = xw_parse_display(name, &wh, &wd, &ws);
    ck_assert_msg(xr == wr, "\"%s\": libxcb %d, xwire %d", name, xr, wr);
    if (xr) {
        ck_assert_msg(!strcmp(xh, wh), "\"%s\": host \"%s\" vs \"%s\"", name, xh, wh);
        ck_assert_int_eq(xd, wd);
        ck_assert_int_eq(xs, ws);
    }
    free(xh);
    free(wh);
}
END_TEST

START_TEST(stricter_than_libxcb)
{
    const char *name = stricter[_i];
    char *xh = NULL, *wh = NULL;
    int d, s;
    ck_assert_msg(xcb_parse_display(name, &xh, &d, &s) == 1, "libxcb changed: now refuses \"%s\"", name);
    ck_assert_msg(xw_parse_display(name, &wh, &d, &s) == 0, "xwire accepted \"%s\"", name);
    ck_assert_ptr_null(wh);
    free(xh);
}
END_TEST

START_TEST(null_and_empty_use_display_env)
{
    char *h = NULL;
    int d = -1, s = -1;
    setenv("DISPLAY", "box:5.1", 1);
    ck_assert_int_eq(xw_parse_display(NULL, &h, &d, &s), 1);
    ck_assert_str_eq(h, "box");
    ck_assert_int_eq(d, 5);
    ck_assert_int_eq(s, 1);
    free(h);
    h = NULL;
    ck_assert_int_eq(xw_parse_display("", &h, &d, &s), 1);
    ck_assert_str_eq(h, "box");
    free(h);
    unsetenv("DISPLAY");
    h = NULL;
    ck_assert_int_eq(xw_parse_display(NULL, &h, &d, &s), 0);
    ck_assert_ptr_null(h);
}
END_TEST

START_TEST(screen_pointer_optional)
{
    char *h = NULL;
    int d = -1;
    ck_assert_int_eq(xw_parse_display("x:3.2", &h, &d, NULL), 1);
    ck_assert_int_eq(d, 3);
    free(h);
}
END_TEST

START_TEST(connect_reports_parse_and_socket_errors)
{
    xw_connection_t *c = xw_connect("nonsense", NULL);
    ck_assert_int_eq(xw_connection_has_error(c), XW_CONN_CLOSED_PARSE_ERR);
    ck_assert_ptr_nonnull(strstr(xw_connection_error_string(c), "cannot parse display"));
    xw_disconnect(c);
    /* No name and no $DISPLAY: say so rather than "cannot parse". */
    char *saved = getenv("DISPLAY") ? strdup(getenv("DISPLAY")) : NULL;
    unsetenv("DISPLAY");
    c = xw_connect(NULL, NULL);
    ck_assert_int_eq(xw_connection_has_error(c), XW_CONN_CLOSED_PARSE_ERR);
    ck_assert_str_eq(xw_connection_error_string(c), "no display name given and $DISPLAY is not set");
    xw_disconnect(c);
    if (saved)
        setenv("DISPLAY", saved, 1);
    free(saved);
    /* A display nobody serves: the filesystem socket's reason comes back. */
    c = xw_connect("unix:4711", NULL);
    ck_assert_int_eq(xw_connection_has_error(c), XW_CONN_ERROR);
    ck_assert_str_eq(xw_connection_error_string(c), "connect to /tmp/.X11-unix/X4711: No such file or directory");
    ck_assert_ptr_null(xw_get_setup(c));
    ck_assert_int_eq(xw_get_file_descriptor(c), -1);
    xw_disconnect(c);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("display");
    TCase *tc = tcase_create("parse");
    tcase_set_timeout(tc, 10);
    tcase_add_checked_fixture(tc, xwtest_fds_begin, xwtest_fds_end);
    tcase_add_loop_test(tc, same_as_libxcb, 0, (int)(sizeof(same) / sizeof(same[0])));
    tcase_add_loop_test(tc, stricter_than_libxcb, 0, (int)(sizeof(stricter) / sizeof(stricter[0])));
    tcase_add_test(tc, null_and_empty_use_display_env);
    tcase_add_test(tc, screen_pointer_optional);
    tcase_add_test(tc, connect_reports_parse_and_socket_errors);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
