/* SPDX-License-Identifier: MIT */
/* test_setup.c — connection setup against a scripted fake server: the server's answer
 * accepted, refused, cut short or malformed, each ending in a documented state. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fake_conn.h"
#include "hooks.h"

/* ---- setup ---- */

START_TEST(setup_success)
{
    c = fake_connect(&F, NULL, 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    ck_assert_ptr_null(xw_connection_error_string(c));
    const uint8_t *s = (const uint8_t *)xw_get_setup(c);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(fs_rd32(s + 12), FAKE_XID_BASE);
    ck_assert_int_ge(xw_get_file_descriptor(c), 0);
    ck_assert_uint_eq(xw_generate_id(c), FAKE_XID_BASE);
    ck_assert_uint_eq(xw_generate_id(c), FAKE_XID_BASE + 1);
}
END_TEST

/* The server answers the setup with status (0 failed, 2 authenticate) and reason. */
static void refused_setup(int status, const char *reason, const char *want)
{
    uint8_t b[128];
    size_t n = fake_setup_refused(b, sizeof(b), status, reason);
    c = fake_connect(&F, b, n);
    ck_assert_str_eq(dead_with(XW_CONN_ERROR), want);
    check_dead_connection_returns_at_once();
}

/* The server writes n bytes of setup and closes its side before the client reads. */
static void closed_during_setup(const uint8_t *b, size_t n)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    ck_assert_int_eq(write(sv[1], b, n), (ssize_t)n);
    shutdown(sv[1], SHUT_WR);
    c = xw_connect_to_fd(sv[0], NULL);
    close(sv[1]);
    ck_assert_str_eq(dead_with(XW_CONN_ERROR), "server closed the connection during setup");
    check_dead_connection_returns_at_once();
}

START_TEST(setup_refused)
{
    refused_setup(0, "No protocol specified\n", "server refused: No protocol specified");
}
END_TEST

START_TEST(setup_authenticate)
{
    refused_setup(2, "Authorization required", "server refused (authenticate): Authorization required");
}
END_TEST

START_TEST(setup_truncated)
{
    uint8_t b[256];
    size_t n = fake_setup_success(b, sizeof(b), 65535);
    closed_during_setup(b, n / 2);
}
END_TEST

START_TEST(setup_malformed)
{
    uint8_t b[256];
    size_t n = fake_setup_success(b, sizeof(b), 65535);
    b[28] = 2; /* two screens, bytes for one */
    c = fake_connect(&F, b, n);
    ck_assert_ptr_nonnull(strstr(dead_with(XW_CONN_CLOSED_PARSE_ERR), "malformed setup: screen 1 past the end"));
}
END_TEST

START_TEST(connect_to_bad_fd)
{
    c = xw_connect_to_fd(-1, NULL);
    dead_with(XW_CONN_ERROR);
    check_dead_connection_returns_at_once();
}
END_TEST

/* ---- more hostile servers: each ends in a documented state ---- */

START_TEST(setup_refused_without_reason)
{
    refused_setup(0, "", "server refused, no reason given");
}
END_TEST

START_TEST(setup_authenticate_without_reason)
{
    refused_setup(2, "", "server refused (authenticate), no reason given");
}
END_TEST

START_TEST(setup_closed_before_a_byte)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    close(sv[1]);
    c = xw_connect_to_fd(sv[0], NULL);
    ck_assert_ptr_nonnull(strstr(dead_with(XW_CONN_ERROR), "setup"));
    check_dead_connection_returns_at_once();
}
END_TEST

/* The setup's length field claims 65535 words; the server sends fewer and closes. */
START_TEST(setup_length_lies)
{
    uint8_t b[256];
    size_t n = fake_setup_success(b, sizeof(b), 65535);
    b[6] = 0xff, b[7] = 0xff;
    closed_during_setup(b, n);
}
END_TEST

/* ---- statuses other than 0, 1 and 2, and what a refusal shows ---- */

/* The hook a layer over the runtime registers (libxcb.so.1 from xwire shows the
 * reason): here it records what it was given. */
static int shown_status = -1;
static size_t shown_len;
static void setup_refused_shown(const uint8_t *s, size_t len)
{
    shown_status = s[0];
    shown_len = len;
}

/* A status the protocol does not define is read as success, as libxcb reads it,
 * when the bytes hold a well-formed success setup: the connection works, and
 * nothing is shown as a refusal. */
START_TEST(setup_unknown_status_is_success)
{
    static const uint8_t statuses[] = {3, 0x81, 0xff};
    for (size_t i = 0; i < sizeof(statuses); i++) {
        uint8_t b[256];
        size_t n = fake_setup_success(b, sizeof(b), 65535);
        b[0] = statuses[i];
        shown_status = -1;
        c = fake_connect(&F, b, n);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        ck_assert_int_eq(shown_status, -1);
        ck_assert_uint_eq(fs_rd32((const uint8_t *)xw_get_setup(c) + 12), FAKE_XID_BASE);
        uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 43);
        flush_to_server(1);
        send_reply(s1, 0x42);
        uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(r[1], 0x42);
        free(r);
        hang_up();
    }
}
END_TEST

/* An unknown status whose bytes are no success setup is refused as malformed. */
START_TEST(setup_unknown_status_malformed)
{
    uint8_t b[256];
    size_t n = fake_setup_success(b, sizeof(b), 65535);
    b[0] = 3;
    b[28] = 2; /* two screens, bytes for one */
    c = fake_connect(&F, b, n);
    ck_assert_ptr_nonnull(strstr(dead_with(XW_CONN_CLOSED_PARSE_ERR), "malformed setup: screen 1 past the end"));
}
END_TEST

/* Failed and Authenticate reach the hook with the whole reply (its reason field
 * is the hook's to cut); the status and length it gets are the server's. */
START_TEST(setup_refusal_reaches_the_hook)
{
    for (int status = 0; status <= 2; status += 2) {
        uint8_t b[128];
        size_t n = fake_setup_refused(b, sizeof(b), status, "Not today");
        shown_status = -1;
        c = fake_connect(&F, b, n);
        dead_with(XW_CONN_ERROR);
        ck_assert_int_eq(shown_status, status);
        ck_assert_uint_eq(shown_len, n);
        hang_up();
    }
}
END_TEST

int main(void)
{
    xw__hooks_register(&(struct xw_hooks){.setup_refused = setup_refused_shown});
    Suite *s = xwtest_suite("setup");
    fake_conn_tcase(s, "setup",
                    (const TTest *const[]){setup_success, setup_refused, setup_authenticate, setup_truncated,
                                           setup_malformed, connect_to_bad_fd, setup_refused_without_reason,
                                           setup_authenticate_without_reason, setup_closed_before_a_byte,
                                           setup_length_lies, setup_unknown_status_is_success,
                                           setup_unknown_status_malformed, setup_refusal_reaches_the_hook, NULL});
    return xwtest_run(s);
}
