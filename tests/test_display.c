/* SPDX-License-Identifier: MIT */
/* test_display.c — display names: xw_parse_display and what xw_connect reaches, against the installed libxcb. */
#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include <xw/xw.h>

#include "xwtest.h"

/* Strings both libraries must treat alike. */
static const char *const same[] = {
    ":0",
    ":1",
    ":0.1",
    ":12.34",
    "host:0",
    "host:0.0",
    "host.example.org:10.2",
    "tcp/host:0",
    "unix/host:3",
    "inet6/::1:0",
    "unix:0",
    "[::1]:0",
    "::1:0",
    "[fe80::1]:7.1",
    "host::0",
    "host::1.2",
    "a/b/c:4",
    "localhost:2147483647",
    "",
    ":",
    ":.",
    ":0.",
    ":a",
    ":0.a",
    ":0x1",
    "host",
    "host:",
    "/tmp/.X11-unix/X0",
    "unix:/tmp/.X11-unix/X0",
    "host:0.1.2",
    ":0 ",
    "0",
    "tcp/:0",
    "/:0",
    ":00",
    ":007.08",
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
    /* A display nobody serves: the filesystem socket's reason comes back. The first
     * number from 4711 with no socket file: Xvfbs that other tests run at the same time
     * (or killed ones) may have left one anywhere. */
    int unused = 4711;
    char name[32], path[64], want[128];
    for (struct stat st;; unused++) {
        snprintf(path, sizeof(path), "/tmp/.X11-unix/X%d", unused);
        if (stat(path, &st) < 0)
            break;
    }
    snprintf(name, sizeof(name), "unix:%d", unused);
    snprintf(want, sizeof(want), "connect to %s: No such file or directory", path);
    c = xw_connect(name, NULL);
    ck_assert_int_eq(xw_connection_has_error(c), XW_CONN_ERROR);
    ck_assert_str_eq(xw_connection_error_string(c), want);
    ck_assert_ptr_null(xw_get_setup(c));
    ck_assert_int_eq(xw_get_file_descriptor(c), -1);
    xw_disconnect(c);
}
END_TEST

/* A protocol other than "unix" with a local display ("tcp/:N", "tcp/unix:N") reaches
 * no local socket in libxcb: the connection fails and nothing connects. A listener on
 * the display's abstract name shows whether anything tried. */
static const char *const foreign_protocol[] = {"tcp", "inet", "inet6", "foo", "localhost"};

START_TEST(protocol_other_than_unix_reaches_no_local_socket)
{
    int dpy = 30000 + (int)(getpid() % 20000);
    int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    ck_assert_int_ge(lfd, 0);
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    int n = snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1, "/tmp/.X11-unix/X%d", dpy);
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
    ck_assert_int_eq(bind(lfd, (struct sockaddr *)&sun, len), 0);
    ck_assert_int_eq(listen(lfd, 8), 0);
    for (int host = 0; host < 2; host++) {
        char name[64];
        snprintf(name, sizeof name, "%s/%s:%d", foreign_protocol[_i], host ? "unix" : "", dpy);
        xcb_connection_t *xc = xcb_connect(name, NULL);
        ck_assert_msg(xcb_connection_has_error(xc), "libxcb changed: connects to \"%s\"", name);
        xcb_disconnect(xc);
        xw_connection_t *c = xw_connect(name, NULL);
        ck_assert_msg(xw_connection_has_error(c) == XW_CONN_ERROR, "\"%s\": error %d", name,
                      xw_connection_has_error(c));
        ck_assert_ptr_nonnull(strstr(xw_connection_error_string(c), "only \"unix\""));
        xw_disconnect(c);
        ck_assert_int_lt(accept(lfd, NULL, NULL), 0);
        ck_assert_int_eq(errno, EAGAIN);
    }
    close(lfd);
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
    tcase_add_loop_test(tc, protocol_other_than_unix_reaches_no_local_socket, 0,
                        (int)(sizeof(foreign_protocol) / sizeof(foreign_protocol[0])));
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
