/* SPDX-License-Identifier: MIT */
/* fake_conn.c — one client connection to a scripted fake server per test: the fixture,
 * hand-built requests and server packets, and the checks of a dead connection. */
#include "fake_conn.h"
#include "send.h" /* xw__send: a request with a chosen reply validator */

#include <string.h>

struct fake_server F;
xw_connection_t *c;

static void setup(void)
{
    xwtest_fds_begin();
    c = NULL;
    F.fd = -1;
}

/* Disconnects the client and stops the fake server: the end of each case, and
 * of each round in cases that connect more than once. */
void hang_up(void)
{
    if (c)
        xw_disconnect(c);
    c = NULL;
    fake_stop(&F);
}

static void teardown(void)
{
    hang_up();
    xwtest_fds_end();
}

/* A hand-built request: 4-byte header (byte 1 = data) then body, sent through the
 * generated senders' entry with the given reply validator (NULL: none). */
uint64_t send_req(int flags, uint8_t opcode, uint8_t data, int isvoid, const void *body, size_t body_len,
                  xw_extension_t *ext, xw_validate_fn validate)
{
    uint8_t hdr[4] = {0, data, 0, 0};
    struct iovec parts[4] = {{0}, {0}, {hdr, 4}, {(void *)body, body_len}};
    struct xw_request rq = {.f = {.count = body_len ? 2 : 1, .ext = ext, .opcode = opcode, .isvoid = (uint8_t)isvoid},
                            .validate = validate};
    return xw__send(c, flags, parts + 2, &rq, 4 + body_len, 0, NULL);
}

uint64_t send_void(int flags, uint8_t opcode)
{
    return send_req(flags, opcode, 0, 1, NULL, 0, NULL, NULL);
}

uint64_t send_reply_req(int flags, uint8_t opcode)
{
    return send_req(flags, opcode, 0, 0, NULL, 0, NULL, NULL);
}

void expect_requests(int n)
{
    uint8_t buf[4096];
    for (int i = 0; i < n; i++)
        ck_assert_int_gt(fake_read_request(&F, buf, sizeof(buf), NULL, NULL), 0);
}

/* The requests sent so far go out; the server reads n of them. */
void flush_to_server(int n)
{
    xw_flush(c);
    expect_requests(n);
}

/* Connects to the default fake server and sends it one reply-bearing request,
 * which it reads: the request's sequence number. */
uint64_t connect_and_ask(int flags, uint8_t opcode)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s = send_reply_req(flags, opcode);
    flush_to_server(1);
    return s;
}

/* Server packets of 32 bytes: a reply with no extra data, an error, an event. */
void send_reply(uint64_t seq, uint8_t byte1)
{
    uint8_t b[32];
    fake_send(&F, b, fake_reply(b, (uint16_t)seq, byte1, NULL, 0));
}

void send_error(uint64_t seq, uint8_t code, uint32_t resource, uint8_t major)
{
    uint8_t b[32];
    fake_error(b, (uint16_t)seq, code, resource, major, 0);
    fake_send(&F, b, 32);
}

void send_event(uint8_t code, uint64_t seq, uint32_t word)
{
    uint8_t b[32];
    fake_event(b, code, (uint16_t)seq, word);
    fake_send(&F, b, 32);
}

/* Every entry point of a dead connection returns at once with its failure value. */
void check_dead_connection_returns_at_once(void)
{
    ck_assert_uint_eq(send_void(0, 127), 0);
    ck_assert_ptr_nonnull(xw_request_error_string(c));
    ck_assert_int_eq(xw_flush(c), 0);
    ck_assert_ptr_null(xw_wait_for_event(c));
    ck_assert_ptr_null(xw_poll_for_event(c));
    ck_assert_ptr_null(xw_wait_for_reply(c, 1, NULL));
    ck_assert_uint_eq(xw_generate_id(c), (uint32_t)-1);
    ck_assert_ptr_null(xw_get_setup(c));
}

/* The connection is dead with code: the reason it gives. */
const char *dead_with(int code)
{
    ck_assert_int_eq(xw_connection_has_error(c), code);
    return xw_connection_error_string(c);
}

/* Waiting for seq's reply ends the connection with code: the reason it gives. */
const char *wait_ends_connection(uint64_t seq, int code)
{
    ck_assert_ptr_null(xw_wait_for_reply64(c, seq, NULL));
    return dead_with(code);
}

void fake_conn_tcase(Suite *s, const char *name, const TTest *const *tests)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, teardown);
    for (int i = 0; tests[i]; i++)
        _tcase_add_test(tc, tests[i], 0, 0, 0, 1);
    suite_add_tcase(s, tc);
}
