/* test_conn.c — the connection runtime against a scripted fake server: setup, write path, read path. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xw/randr.h>
#include <xw/xwext.h>

#include "fake_server.h"
#include "xwint.h" /* xw__ext_register: a hand-written extension's description */
#include "xwtest.h"

static struct fake_server F;
static xw_connection_t *c;

static void setup(void)
{
    xwtest_fds_begin();
    c = NULL;
    F.fd = -1;
}

/* Disconnects the client and stops the fake server: the end of each case, and
 * of each round in cases that connect more than once. */
static void hang_up(void)
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
static uint64_t send_req(int flags, uint8_t opcode, uint8_t data, int isvoid, const void *body, size_t body_len,
                         xw_extension_t *ext, xw_validate_fn validate)
{
    uint8_t hdr[4] = {0, data, 0, 0};
    struct iovec parts[4] = {{0}, {0}, {hdr, 4}, {(void *)body, body_len}};
    struct xw_request rq = {
        .pub = {.count = body_len ? 2 : 1, .ext = ext, .opcode = opcode, .isvoid = (uint8_t)isvoid},
        .validate = validate};
    return xw__send(c, flags, parts + 2, &rq, 4 + body_len, 0, NULL);
}

static uint64_t send_void(int flags, uint8_t opcode)
{
    return send_req(flags, opcode, 0, 1, NULL, 0, NULL, NULL);
}

static uint64_t send_reply_req(int flags, uint8_t opcode)
{
    return send_req(flags, opcode, 0, 0, NULL, 0, NULL, NULL);
}

static void expect_requests(int n)
{
    uint8_t buf[4096];
    for (int i = 0; i < n; i++)
        ck_assert_int_gt(fake_read_request(&F, buf, sizeof(buf), NULL, NULL), 0);
}

/* The requests sent so far go out; the server reads n of them. */
static void flush_to_server(int n)
{
    xw_flush(c);
    expect_requests(n);
}

/* Connects to the default fake server and sends it one reply-bearing request,
 * which it reads: the request's sequence number. */
static uint64_t connect_and_ask(int flags, uint8_t opcode)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s = send_reply_req(flags, opcode);
    flush_to_server(1);
    return s;
}

/* Server packets of 32 bytes: a reply with no extra data, an error, an event. */
static void send_reply(uint64_t seq, uint8_t byte1)
{
    uint8_t b[32];
    fake_send(&F, b, fake_reply(b, (uint16_t)seq, byte1, NULL, 0));
}

static void send_error(uint64_t seq, uint8_t code, uint32_t resource, uint8_t major)
{
    uint8_t b[32];
    fake_error(b, (uint16_t)seq, code, resource, major, 0);
    fake_send(&F, b, 32);
}

static void send_event(uint8_t code, uint64_t seq, uint32_t word)
{
    uint8_t b[32];
    fake_event(b, code, (uint16_t)seq, word);
    fake_send(&F, b, 32);
}

/* A reply header for seq whose length field claims words more words. */
static void send_reply_claiming(uint64_t seq, uint32_t words)
{
    uint8_t b[32];
    fake_reply(b, (uint16_t)seq, 0, NULL, 0);
    memcpy(b + 4, &words, 4);
    fake_send(&F, b, 32);
}

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

static void check_dead_connection_returns_at_once(void)
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
static const char *dead_with(int code)
{
    ck_assert_int_eq(xw_connection_has_error(c), code);
    return xw_connection_error_string(c);
}

/* Waiting for seq's reply ends the connection with code: the reason it gives. */
static const char *wait_ends_connection(uint64_t seq, int code)
{
    ck_assert_ptr_null(xw_wait_for_reply64(c, seq, NULL));
    return dead_with(code);
}

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

/* ---- the read path ---- */

/* An event, a reply with 8 extra bytes and an error, split at byte k. */
START_TEST(split_at_every_byte)
{
    uint8_t stream[128], extra[32];
    for (int i = 0; i < 32; i++)
        extra[i] = (uint8_t)(i + 1);
    size_t n = 0;
    fake_event(stream, 33, 1, 0xabcdef);
    n += 32;
    n += fake_reply(stream + n, 1, 7, extra, 32);
    fake_error(stream + n, 2, 3, 0x1200005, 8, 0);
    n += 32;
    for (size_t k = 1; k < n; k++) {
        c = fake_connect(&F, NULL, 0);
        uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 16);
        uint64_t s2 = send_void(XW_REQUEST_CHECKED, 8);
        ck_assert_uint_eq(s1, 1);
        ck_assert_uint_eq(s2, 2);
        ck_assert_int_eq(xw_flush(c), 1);
        expect_requests(2);
        fake_send(&F, stream, k);
        xw_generic_event_t *ev = xw_poll_for_event(c); /* reads the first part */
        if (k < 32)
            ck_assert_ptr_null(ev);
        free(ev);
        fake_send(&F, stream + k, n - k);
        if (k >= 32)
            ev = NULL;
        else
            ev = xw_wait_for_event(c);
        if (k < 32) {
            ck_assert_ptr_nonnull(ev);
            ck_assert_uint_eq(ev->response_type, 33);
            ck_assert_uint_eq(ev->full_sequence, 1);
            free(ev);
        }
        uint8_t *r = xw_wait_for_reply(c, (unsigned)s1, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(r[1], 7);
        ck_assert_uint_eq(fs_rd32(r + 4), 2);
        ck_assert_int_eq(memcmp(r + 8, extra, 32), 0);
        free(r);
        xw_void_cookie_t ck = {(unsigned)s2};
        xw_generic_error_t *e = xw_request_check(c, ck);
        ck_assert_ptr_nonnull(e);
        ck_assert_uint_eq(e->error_code, 3);
        ck_assert_uint_eq(e->resource_id, 0x1200005);
        ck_assert_uint_eq(e->full_sequence, 2);
        free(e);
        ck_assert_int_eq(xw_connection_has_error(c), 0);
        hang_up();
    }
}
END_TEST

/* A reply bigger than the read buffer, fed in awkward pieces. */
START_TEST(big_reply_in_pieces)
{
    static const size_t pieces[] = {1, 31, 32, 33, 4095, 65535, 65536, 65537, 99999};
    size_t extra_len = 200000;
    uint8_t *extra = malloc(extra_len), *stream = malloc(extra_len + 64);
    for (size_t i = 0; i < extra_len; i++)
        extra[i] = (uint8_t)(i * 7);
    size_t n = fake_reply(stream, 1, 0, extra, extra_len);
    for (size_t p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 20);
        for (size_t off = 0; off < n; off += pieces[p]) {
            size_t k = n - off < pieces[p] ? n - off : pieces[p];
            fake_send(&F, stream + off, k);
            void *none = NULL;
            xw_generic_error_t *e = NULL;
            if (off + k < n) {
                ck_assert_int_eq(xw_poll_for_reply64(c, s1, &none, &e), 0);
            }
        }
        uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(memcmp(r + 8, extra, extra_len), 0);
        free(r);
        hang_up();
    }
    free(extra);
    free(stream);
}
END_TEST

START_TEST(out_of_order_sequence_is_fatal)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 16);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(2);
    send_reply(s2, 0);
    send_reply(s1, 0);
    void *r = xw_wait_for_reply64(c, s1, NULL);
    ck_assert_ptr_null(r);
    free(xw_wait_for_reply64(c, s2, NULL));
    ck_assert_ptr_nonnull(strstr(dead_with(XW_CONN_CLOSED_MALFORMED), "was never sent"));
    check_dead_connection_returns_at_once();
}
END_TEST

START_TEST(huge_length_is_fatal_before_allocating)
{
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    send_reply_claiming(s1, 0xffffffffu);
    ck_assert_str_eq(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "malformed reply: length 4294967295 words");
}
END_TEST

static int reject_ee(const void *packet, size_t len)
{
    return len >= 9 && ((const uint8_t *)packet)[8] == 0xee ? -1 : 0;
}

START_TEST(validator_turns_reply_into_error)
{
    uint8_t b[64], extra[24] = {0xee}, ok[24] = {1};
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_req(XW_REQUEST_CHECKED, 16, 0, 0, NULL, 0, NULL, reject_ee);
    uint64_t s2 = send_req(XW_REQUEST_CHECKED, 16, 0, 0, NULL, 0, NULL, reject_ee);
    flush_to_server(2);
    fake_send(&F, b, fake_reply(b, (uint16_t)s1, 0, extra, 24));
    fake_send(&F, b, fake_reply(b, (uint16_t)s2, 0, ok, 24));
    uint8_t buf[64];
    size_t len = 0;
    xw_generic_error_t err;
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, &err, -1), 2);
    ck_assert_uint_eq(err.response_type, 0);
    ck_assert_uint_eq(err.error_code, XW_ERROR_MALFORMED_REPLY);
    ck_assert_uint_eq(err.full_sequence, (uint32_t)s1);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s2, buf, sizeof(buf), &len, &err, -1), 1);
    ck_assert_uint_eq(len, 32);
    ck_assert_uint_eq(buf[8], 1);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* The server sends the first n bytes of a packet and closes its side while the
 * client waits for seq's reply. */
static void closes_mid_packet(uint64_t seq, const uint8_t *packet, size_t n)
{
    fake_send(&F, packet, n);
    shutdown(F.fd, SHUT_WR);
    ck_assert_str_eq(wait_ends_connection(seq, XW_CONN_ERROR), "server closed the connection in the middle of a packet");
    check_dead_connection_returns_at_once();
}

START_TEST(server_closes_mid_reply)
{
    uint8_t b[64];
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    fake_reply(b, (uint16_t)s1, 0, NULL, 0);
    closes_mid_packet(s1, b, 20);
}
END_TEST

START_TEST(reply_to_void_request_is_fatal)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_void(0, 127);
    flush_to_server(1);
    send_reply(s1, 0);
    ck_assert_ptr_null(xw_wait_for_event(c));
    ck_assert_ptr_nonnull(strstr(dead_with(XW_CONN_CLOSED_MALFORMED), "belongs to no request awaiting a reply"));
}
END_TEST

START_TEST(keymap_notify_has_no_sequence)
{
    uint8_t b[64];
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    send_reply(s1, 0);
    memset(b, 0xff, 32);
    b[0] = 11;
    fake_send(&F, b, 32);
    free(xw_wait_for_reply64(c, s1, NULL));
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 11);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)s1);
    free(ev);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(list_fonts_with_info_multi_reply)
{
    c = fake_connect(&F, NULL, 0);
    /* the description xwgen writes for ListFontsWithInfo (its replies, 32 bytes
     * here, would not pass the generated validator) */
    uint8_t hdr[4] = {0};
    struct iovec parts[3] = {{0}, {0}, {hdr, 4}};
    struct xw_request req = {
        .pub = {.count = 1, .opcode = XW_LIST_FONTS_WITH_INFO}, .multi_reply = 1, .multi_end = 0};
    uint64_t s1 = xw__send(c, XW_REQUEST_CHECKED, parts + 2, &req, 4, 0, NULL);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 43);
    flush_to_server(2);
    for (uint8_t namelen = 3; namelen != 255; namelen = namelen ? namelen - 1 : 255)
        send_reply(s1, namelen);
    send_reply(s2, 9);
    for (int want = 3; want >= 0; want--) {
        uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(r[1], want);
        free(r);
    }
    ck_assert_ptr_null(xw_wait_for_reply64(c, s1, NULL));
    uint8_t *r = xw_wait_for_reply64(c, s2, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r[1], 9);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(timeouts)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 43);
    void *r = NULL;
    xw_generic_error_t *e = NULL;
    ck_assert_int_eq(xw_wait_for_reply64_timeout(c, s1, 20, &r, &e), 0);
    ck_assert_ptr_null(r);
    ck_assert_ptr_null(xw_wait_for_event_timeout(c, 10));
    uint8_t buf[64];
    size_t len;
    ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof(buf), &len, 0), 0);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, 0), -ETIMEDOUT);
    expect_requests(1);
    send_reply(s1, 0);
    ck_assert_int_eq(xw_wait_for_reply64_timeout(c, s1, 10000, &r, &e), 1);
    ck_assert_ptr_nonnull(r);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(discard_and_error_routing)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 43);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 43);
    uint64_t s3 = send_reply_req(XW_REQUEST_CHECKED, 43);
    uint64_t s4 = send_reply_req(0, 43);                       /* unchecked: error to events */
    uint64_t s5 = send_reply_req(XW_REQUEST_DISCARD_REPLY | XW_REQUEST_ERROR_TO_EVENTS, 43);
    xw_discard_reply64(c, s1);
    xw_discard_reply_keep_error64(c, s2);
    xw_discard_reply(c, (unsigned)s3);
    flush_to_server(5);
    send_reply(s1, 0);
    send_error(s2, 5, 0x22, 43);
    send_error(s3, 6, 0x33, 43);
    send_error(s4, 7, 0x44, 43);
    send_error(s5, 8, 0x55, 43);
    xw_generic_error_t *e = NULL;
    ck_assert_ptr_null(xw_wait_for_reply64(c, s4, &e));
    ck_assert_ptr_null(e);
    static const uint8_t want_codes[] = {5, 7, 8};
    for (int i = 0; i < 3; i++) {
        xw_generic_event_t *ev = xw_wait_for_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(ev->response_type, 0);
        ck_assert_uint_eq(((xw_generic_error_t *)ev)->error_code, want_codes[i]);
        free(ev);
    }
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(into_too_small_keeps_packet)
{
    uint8_t b[256], extra[100];
    memset(extra, 0x5a, sizeof(extra));
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    size_t n = fake_reply(b, (uint16_t)s1, 0, extra, sizeof(extra));
    fake_send(&F, b, n);
    send_event(33, s1, 1);
    uint8_t buf[256];
    size_t len = 0;
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, 40, &len, NULL, -1), -ENOSPC);
    ck_assert_uint_eq(len, n);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), 1);
    ck_assert_uint_eq(len, n);
    ck_assert_int_eq(xw_wait_for_event_into(c, buf, 10, &len, -1), -ENOSPC);
    ck_assert_uint_eq(len, 36);
    ck_assert_int_eq(xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1), 1);
    ck_assert_uint_eq(len, 36);
    ck_assert_uint_eq(fs_rd32(buf + 32), (uint32_t)s1);
    ck_assert_int_eq(xw_wait_for_reply_into(c, s1, buf, sizeof(buf), &len, NULL, -1), 0);
}
END_TEST

/* ---- fds ---- */

START_TEST(fds_out_with_request)
{
    int p[2];
    ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
    c = fake_connect(&F, NULL, 0);
    uint8_t hdr[4] = {0};
    struct iovec parts[3] = {{0}, {0}, {hdr, 4}};
    xw_protocol_request_t req = {.count = 1, .opcode = 127, .isvoid = 1};
    int fd = p[1];
    ck_assert_uint_eq(xw_send(c, 0, parts + 2, &req, 4, 1, &fd), 1);
    ck_assert_int_eq(xw_flush(c), 1);
    uint8_t buf[64];
    int fds[16], nfds = 0;
    ck_assert_int_eq(fake_read_request(&F, buf, sizeof(buf), fds, &nfds), 4);
    ck_assert_int_eq(nfds, 1);
    ck_assert_int_eq(write(fds[0], "x", 1), 1);
    char ch = 0;
    ck_assert_int_eq(read(p[0], &ch, 1), 1);
    ck_assert_int_eq(ch, 'x');
    close(fds[0]);
    close(p[0]);
    /* Too many fds: the request fails alone and the fds are closed. */
    int many[17];
    for (int i = 0; i < 17; i++)
        many[i] = dup(0);
    ck_assert_uint_eq(xw_send(c, 0, parts + 2, &req, 4, 17, many), 0);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(fds_in_with_reply_and_unclaimed)
{
    int p[2];
    ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
    uint8_t b[64];
    fake_event(b, 33, (uint16_t)s1, 0);
    fake_send_fds(&F, b, 32, &p[0], 1); /* nobody claims this one */
    size_t n = fake_reply(b, (uint16_t)s1, 1, NULL, 0);
    fake_send_fds(&F, b, n, &p[1], 1);
    close(p[0]);
    close(p[1]);
    uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
    ck_assert_ptr_nonnull(r);
    int *fds = xw_get_reply_fds(c, r, 32);
    ck_assert_int_ge(fds[0], 0);
    ck_assert_int_ne(fcntl(fds[0], F_GETFD) & FD_CLOEXEC, 0);
    close(fds[0]);
    free(r);
    free(xw_wait_for_event(c));
}
END_TEST

/* ---- the write path with a serving thread ---- */

START_TEST(auto_sync_before_65535_voids)
{
    c = fake_connect(&F, NULL, 0);
    fake_serve_start(&F);
    for (int i = 0; i < 70000; i++)
        ck_assert_uint_ne(send_void(0, 127), 0);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    ck_assert_uint_eq(s, 70002); /* one sync went in */
    uint8_t *r = xw_wait_for_reply64(c, s, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(fs_rd32(r + 8), 70002); /* requests the server saw, ours included */
    free(r);
    hang_up();
    ck_assert_uint_eq(F.first_sync_at, 65535);
    ck_assert_uint_eq(F.opcode_count[43], 2);
    ck_assert_uint_eq(F.opcode_count[127], 70000);
}
END_TEST

static int map_window_fails(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    if (req[0] != 8)
        return 0;
    uint8_t b[32];
    fake_error(b, (uint16_t)f->seq, 3, 0xdead, 8, 0);
    fake_send(f, b, 32);
    return 1;
}

START_TEST(sequence_wrap)
{
    c = fake_connect(&F, NULL, 0);
    F.on_request = map_window_fails;
    fake_serve_start(&F);
    for (int i = 0; i < 140000; i++)
        send_void(0, 127);
    uint64_t checked = send_void(XW_REQUEST_CHECKED, 8);
    uint64_t unchecked = send_void(0, 8);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    ck_assert_uint_eq(checked, 140003);
    ck_assert_uint_eq(s, 140005);
    xw_generic_error_t *e = xw_request_check(c, (xw_void_cookie_t){(unsigned)checked});
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->full_sequence, (uint32_t)checked);
    free(e);
    uint8_t *r = xw_wait_for_reply64(c, s, NULL);
    ck_assert_ptr_nonnull(r);
    free(r);
    xw_generic_event_t *ev = xw_poll_for_queued_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)unchecked);
    free(ev);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* A checked request already on the wire (flushed, or written straight out as a
 * large request) still gets its sync: request_check must not wait forever. */
START_TEST(check_after_flush)
{
    c = fake_connect(&F, NULL, 0);
    fake_serve_start(&F);
    uint64_t ok = send_void(XW_REQUEST_CHECKED, 127);
    ck_assert_int_gt(xw_flush(c), 0); /* libxcb's convention: > 0 on success */
    ck_assert_ptr_null(xw_request_check(c, (xw_void_cookie_t){(unsigned)ok}));
    static uint8_t body[8192];
    uint64_t big = send_req(XW_REQUEST_CHECKED, 127, 0, 1, body, sizeof(body), NULL, NULL);
    ck_assert_ptr_null(xw_request_check(c, (xw_void_cookie_t){(unsigned)big}));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* ---- xw_request_check as a barrier ---- */

/* 1 when the client has written something the server has not read, within ms. */
static int server_has_input(int ms)
{
    struct pollfd p = {.fd = F.fd, .events = POLLIN};
    return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/* The next request the server reads: its major opcode (its sequence is F.seq). */
static int next_opcode(void)
{
    uint8_t buf[256];
    ck_assert_msg(server_has_input(5000), "the client wrote nothing");
    ck_assert_int_gt(fake_read_request(&F, buf, sizeof(buf), NULL, NULL), 0);
    return buf[0];
}

struct checker {
    pthread_t t;
    uint64_t seq;
    int done;
    xw_generic_error_t *error;
};

static void *check_thread(void *arg)
{
    struct checker *k = arg;
    k->error = xw_request_check(c, (xw_void_cookie_t){(unsigned)k->seq});
    __atomic_store_n(&k->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

static void check_start(struct checker *k, uint64_t seq)
{
    *k = (struct checker){.seq = seq};
    ck_assert_int_eq(pthread_create(&k->t, NULL, check_thread, k), 0);
}

/* Still blocked after ms. */
static int check_blocked(struct checker *k, int ms)
{
    struct timespec t = {0, (long)ms * 1000000L};
    nanosleep(&t, NULL);
    return !__atomic_load_n(&k->done, __ATOMIC_ACQUIRE);
}

static xw_generic_error_t *check_join(struct checker *k)
{
    ck_assert_int_eq(pthread_join(k->t, NULL), 0);
    return k->error;
}

/* An unchecked void request with nothing after it: exactly one GetInputFocus
 * follows it, and the check returns only once the request is known finished (an
 * event of its own sequence does not say so; its error does), NULL, with the
 * error in the event queue; the sync's reply is dropped. */
START_TEST(check_unchecked_waits_for_the_server)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t v = send_void(0, 8);
    flush_to_server(1);
    struct checker k;
    check_start(&k, v);
    ck_assert_int_eq(next_opcode(), 43);
    ck_assert_uint_eq(F.seq, v + 1);
    ck_assert(check_blocked(&k, 200));
    send_event(33, v, 1); /* generated while v runs: v may still fail */
    ck_assert(check_blocked(&k, 200));
    send_error(v, 3, 0x1234, 8);
    ck_assert_ptr_null(check_join(&k));
    send_reply(v + 1, 0);
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_uint_eq(ev->response_type, 33);
    free(ev);
    ev = xw_wait_for_event(c);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(((xw_generic_error_t *)ev)->resource_id, 0x1234);
    ck_assert_uint_eq(ev->full_sequence, v);
    free(ev);
    /* no second sync, and the dropped reply left nothing behind */
    uint64_t s = send_void(0, 127);
    xw_flush(c);
    ck_assert_int_eq(next_opcode(), 127);
    ck_assert_uint_eq(F.seq, s);
    ck_assert(!server_has_input(50));
    ck_assert_ptr_null(xw_poll_for_event(c));
    /* without an error: the sync's reply ends the wait */
    check_start(&k, s);
    ck_assert_int_eq(next_opcode(), 43);
    ck_assert(check_blocked(&k, 100));
    send_reply(s + 1, 0);
    ck_assert_ptr_null(check_join(&k));
    ck_assert(!server_has_input(50));
    ck_assert_ptr_null(xw_poll_for_event(c));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* A reply-bearing request after the void one tells when it finished: no sync,
 * checked or not, even when the void request was flushed and the later one was
 * not (the check must send it). Once known finished, the check neither writes
 * nor waits. */
START_TEST(check_without_redundant_sync)
{
    for (int flushed = 0; flushed < 2; flushed++) {
        for (int checked = 0; checked < 2; checked++) {
            c = fake_connect(&F, NULL, 0);
            uint64_t v = send_void(checked ? XW_REQUEST_CHECKED : 0, 8);
            if (flushed)
                flush_to_server(1);
            uint64_t r = send_reply_req(0, 200);
            struct checker k;
            check_start(&k, v);
            if (!flushed)
                ck_assert_int_eq(next_opcode(), 8);
            ck_assert_int_eq(next_opcode(), 200);
            ck_assert_uint_eq(F.seq, r);
            ck_assert(check_blocked(&k, 100));
            ck_assert(!server_has_input(0));
            send_reply(r, 0);
            ck_assert_ptr_null(check_join(&k));
            ck_assert(!server_has_input(50)); /* no GetInputFocus, ever */
            ck_assert_ptr_null(xw_request_check(c, (xw_void_cookie_t){(unsigned)v}));
            ck_assert(!server_has_input(50));
            uint8_t *rep = xw_wait_for_reply64(c, r, NULL);
            ck_assert_ptr_nonnull(rep);
            free(rep);
            ck_assert_int_eq(xw_connection_has_error(c), 0);
            hang_up();
        }
    }
}
END_TEST

/* The connection fails while a check waits: it returns NULL instead of hanging. */
START_TEST(check_unchecked_ends_with_the_connection)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t v = send_void(0, 8);
    struct checker k;
    check_start(&k, v);
    ck_assert_int_eq(next_opcode(), 8);
    ck_assert_int_eq(next_opcode(), 43);
    ck_assert(check_blocked(&k, 100));
    shutdown(F.fd, SHUT_RDWR);
    ck_assert_ptr_null(check_join(&k));
    ck_assert_int_ne(xw_connection_has_error(c), 0);
    ck_assert_ptr_null(xw_request_check(c, (xw_void_cookie_t){(unsigned)v})); /* at once */
}
END_TEST

static uint8_t big_body[600 * 1024];

START_TEST(too_long_fails_alone)
{
    c = fake_connect(&F, NULL, 0);
    fake_serve_start(&F);
    ck_assert_uint_eq(send_req(0, 18, 0, 1, big_body, 65536 * 4, NULL, NULL), 0);
    ck_assert_ptr_nonnull(strstr(xw_request_error_string(c), "longer than the server's limit of 262140 bytes"));
    static xw_extension_t nope = {"NOPE", 0};
    ck_assert_uint_eq(send_req(0, 1, 0, 1, NULL, 0, &nope, NULL), 0);
    ck_assert_str_eq(xw_request_error_string(c), "extension NOPE is not present on this server");
    ck_assert_ptr_null(xw_get_extension_data(c, &nope) ? NULL : NULL);
    const uint8_t *q = (const uint8_t *)xw_get_extension_data(c, &nope);
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_eq(q[8], 0); /* present = 0 */
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    ck_assert_uint_ne(s, 0);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    ck_assert_uint_eq(F.opcode_count[98], 2); /* BIG-REQUESTS and NOPE, each queried once */
    ck_assert_uint_eq(F.opcode_count[18], 0);
}
END_TEST

static const struct fake_ext bigreq_exts[] = {{"BIG-REQUESTS", 133, 0, 0}, {NULL, 0, 0, 0}};

START_TEST(big_requests)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = bigreq_exts;
    F.bigreq_max = 100000; /* words */
    fake_serve_start(&F);
    xw_prefetch_maximum_request_length(c);
    ck_assert_uint_eq(xw_get_maximum_request_length(c), 100000);
    ck_assert_uint_ne(send_req(0, 18, 0, 1, big_body, 300 * 1024, NULL, NULL), 0);
    ck_assert_uint_eq(send_req(0, 18, 0, 1, big_body, 400 * 1024, NULL, NULL), 0);
    ck_assert_ptr_nonnull(strstr(xw_request_error_string(c), "limit of 400000 bytes"));
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    ck_assert_uint_eq(F.big_requests, 1);
    ck_assert_uint_eq(F.big_bytes, 300 * 1024 + 8);
    ck_assert_uint_eq(F.opcode_count[18], 1);
}
END_TEST

/* The server floods events before reading anything; the client's blocked write
 * must keep reading or both sides wait forever. */
#define FLOOD_EVENTS 100000

static void *flood_then_drain(void *arg)
{
    struct fake_server *f = arg;
    static uint8_t ev[32 * 1024];
    for (size_t i = 0; i < sizeof(ev); i += 32)
        fake_event(ev + i, 33, 0, 0);
    for (int i = 0; i < FLOOD_EVENTS; i += 1024)
        fake_send(f, ev, sizeof(ev));
    uint8_t buf[64];
    while (fake_read_request(f, buf, sizeof(buf), NULL, NULL) > 0)
        f->nrequests++;
    return NULL;
}

START_TEST(blocked_write_keeps_reading)
{
    c = fake_connect(&F, NULL, 0);
    pthread_t t;
    pthread_create(&t, NULL, flood_then_drain, &F);
    for (int i = 0; i < 1000000; i++)
        send_void(0, 127);
    ck_assert_int_eq(xw_flush(c), 1);
    int n = 0;
    uint8_t buf[64];
    size_t len;
    while (n < FLOOD_EVENTS && xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1) == 1)
        n++;
    ck_assert_int_eq(n, FLOOD_EVENTS);
    xw_disconnect(c);
    c = NULL;
    pthread_join(t, NULL);
    ck_assert_uint_ge(F.nrequests, 1000000);
}
END_TEST

/* ---- extension keys: found by name, whoever built them ---- */

static const struct fake_ext key_exts[] = {
    {"RANDR", 140, 0, 0}, {"XFIXES", 141, 0, 0}, {"XWIRE-HAND", 142, 0, 0}, {NULL, 0, 0, 0}};

/* What the serving thread saw of the extensions' requests: major and minor opcodes. */
static uint8_t seen_ext[16][2];
static int nseen_ext;

/* Logs requests for the extensions above; answers the hand-written extension's
 * minor 9 with a reply of 32 + 8 bytes whose byte 32 is 0xab. */
static int log_ext_requests(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    if (req[0] < 140 || req[0] > 142)
        return 0;
    if (nseen_ext < 16) {
        seen_ext[nseen_ext][0] = req[0];
        seen_ext[nseen_ext][1] = req[1];
        nseen_ext++;
    }
    if (req[0] == 142 && req[1] == 9) {
        uint8_t out[64], extra[32] = {[24] = 0xab}; /* extra starts at byte 8 */
        fake_send(f, out, fake_reply(out, (uint16_t)f->seq, 0, extra, sizeof(extra)));
    }
    return 1;
}

START_TEST(extension_key_reused_at_one_address)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = key_exts;
    F.on_request = log_ext_requests;
    nseen_ext = 0;
    fake_serve_start(&F);
    /* one heap key and one name buffer, renamed in place: a key freed and allocated
     * again at the same address (xcffib makes one per call) naming another extension */
    char name[16] = "RANDR";
    xw_extension_t *key = malloc(sizeof(*key));
    ck_assert_ptr_nonnull(key);
    *key = (xw_extension_t){name, 0};
    ck_assert_uint_ne(send_req(0, 5, 0, 1, NULL, 0, key, NULL), 0);
    ck_assert_uint_ne(send_req(0, 6, 0, 1, NULL, 0, key, NULL), 0); /* a cache keyed by address would hit here */
    const xw_query_extension_reply_t *randr = xw_get_extension_data(c, key);
    free(key);
    key = malloc(sizeof(*key));
    ck_assert_ptr_nonnull(key);
    strcpy(name, "XFIXES");
    *key = (xw_extension_t){name, 0};
    ck_assert_uint_ne(send_req(0, 7, 0, 1, NULL, 0, key, NULL), 0);
    const xw_query_extension_reply_t *xfixes = xw_get_extension_data(c, key);
    ck_assert_ptr_nonnull(xfixes);
    ck_assert_uint_eq(xfixes->major_opcode, 141);
    strcpy(name, "RANDR");
    ck_assert_uint_ne(send_req(0, 8, 0, 1, NULL, 0, key, NULL), 0);
    /* the generated key of the same name shares what the connection knows */
    ck_assert_ptr_eq(xw_get_extension_data(c, &xw_randr_id), randr);
    ck_assert_uint_eq(randr->major_opcode, 140);
    ck_assert_uint_ne(send_req(0, 4, 0, 1, NULL, 0, &xw_randr_id, NULL), 0);
    ck_assert_uint_ne(send_req(0, 3, 0, 1, NULL, 0, &xw_randr_id, NULL), 0); /* its cached opcode */
    free(key);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    static const uint8_t want[][2] = {{140, 5}, {140, 6}, {141, 7}, {140, 8}, {140, 4}, {140, 3}};
    ck_assert_int_eq(nseen_ext, 6);
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(seen_ext[i][0], want[i][0]);
        ck_assert_uint_eq(seen_ext[i][1], want[i][1]);
    }
    ck_assert_uint_eq(F.opcode_count[98], 2); /* RANDR and XFIXES, each queried once */
}
END_TEST

START_TEST(extension_without_description_works_unvalidated)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = key_exts;
    F.on_request = log_ext_requests;
    nseen_ext = 0;
    fake_serve_start(&F);
    static xw_extension_t hand = {"XWIRE-HAND", 0};
    ck_assert_ptr_null(xw_ext_desc_find("XWIRE-HAND"));
    ck_assert_ptr_eq(xw_ext_desc_find("RANDR"), xw_ext_desc_find(xw_randr_id.name));
    ck_assert_ptr_eq(xw_ext_desc_find("RANDR")->key, &xw_randr_id);
    uint64_t s = send_req(0, 9, 0, 0, NULL, 0, &hand, NULL);
    ck_assert_uint_ne(s, 0);
    xw_generic_error_t *e = NULL;
    uint8_t *r = xw_wait_for_reply64(c, s, &e);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r[32], 0xab);
    free(r);
    hang_up();
    ck_assert_int_eq(nseen_ext, 1);
    ck_assert_uint_eq(seen_ext[0][0], 142);
    ck_assert_uint_eq(seen_ext[0][1], 9);
}
END_TEST

/* A request built elsewhere (as code written for libxcb builds it) gets its reply's
 * facts from the description of the extension of that name, by opcode. */
START_TEST(request_facts_by_name_and_opcode)
{
    struct xw_request rq;
    xw_protocol_request_t lfwi = {.count = 1, .opcode = XW_LIST_FONTS_WITH_INFO};
    xw__request_lookup(&lfwi, &rq);
    ck_assert_uint_eq(rq.pub.count, 1);
    ck_assert_uint_eq(rq.pub.opcode, XW_LIST_FONTS_WITH_INFO);
    ck_assert_uint_eq(rq.multi_reply, 1);
    ck_assert_uint_eq(rq.multi_end, 0);
    ck_assert_ptr_nonnull(rq.validate);
    char name[16] = "RANDR";
    xw_extension_t *key = malloc(sizeof(*key));
    ck_assert_ptr_nonnull(key);
    *key = (xw_extension_t){name, 0};
    xw_protocol_request_t res = {.count = 1, .ext = key, .opcode = XW_RANDR_GET_SCREEN_RESOURCES};
    xw__request_lookup(&res, &rq);
    ck_assert_ptr_eq(rq.pub.ext, key);
    ck_assert_ptr_nonnull(rq.validate);
    ck_assert_ptr_eq(rq.validate, xw_ext_desc_find("RANDR")->requests[XW_RANDR_GET_SCREEN_RESOURCES]->validate);
    ck_assert_uint_eq(rq.multi_reply, 0);
    strcpy(name, "XWIRE-HAND"); /* no description: nothing to check the reply with */
    xw__request_lookup(&res, &rq);
    ck_assert_ptr_null(rq.validate);
    xw_protocol_request_t map = {.count = 1, .opcode = XW_MAP_WINDOW, .isvoid = 1};
    xw__request_lookup(&map, &rq);
    ck_assert_ptr_null(rq.validate);
    ck_assert_uint_eq(rq.pub.isvoid, 1);
    free(key);
}
END_TEST

/* GetAtomName built by hand and sent through libxcb's form: the generated validator
 * still turns a reply whose name_len overruns it into an error. */
START_TEST(foreign_request_reply_is_validated)
{
    c = fake_connect(&F, NULL, 0);
    uint8_t body[8] = {XW_GET_ATOM_NAME, 0, 2, 0, 1, 0, 0, 0};
    struct iovec parts[3] = {{0}, {0}, {body, sizeof(body)}};
    xw_protocol_request_t req = {.count = 1, .opcode = XW_GET_ATOM_NAME};
    uint64_t s1 = xw_send_request64(c, XW_REQUEST_CHECKED, parts + 2, &req);
    uint64_t s2 = xw_send_request64(c, XW_REQUEST_CHECKED, parts + 2, &req);
    ck_assert_uint_ne(s1, 0);
    flush_to_server(2);
    uint8_t b[64], lies[24] = {100}, fits[28] = {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'W', 'M', '_', 'X'};
    fake_send(&F, b, fake_reply(b, (uint16_t)s1, 0, lies, sizeof(lies))); /* name_len 100 in 32 bytes */
    fake_send(&F, b, fake_reply(b, (uint16_t)s2, 0, fits, sizeof(fits)));
    xw_generic_error_t *e = NULL;
    ck_assert_ptr_null(xw_wait_for_reply64(c, s1, &e));
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, XW_ERROR_MALFORMED_REPLY);
    free(e);
    e = NULL;
    uint8_t *r = xw_wait_for_reply64(c, s2, &e);
    ck_assert_ptr_null(e);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(memcmp(r + 32, "WM_X", 4), 0);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* libxcb would copy an 8000-byte request into its 16 KiB queue and leave vector[-1]
 * and vector[-2] alone; xwire's general path writes a slice that large in place
 * (with its buffer as vector[-1]), so libxcb's forms must work on a copy. */
START_TEST(libxcb_forms_leave_the_slots_before_vector)
{
    c = fake_connect(&F, NULL, 0);
    fake_serve_start(&F);
    static uint8_t noop[8000];
    noop[0] = XW_NO_OPERATION;
    struct iovec parts[3] = {{(void *)1, 11}, {(void *)2, 22}, {noop, sizeof(noop)}};
    xw_protocol_request_t req = {.count = 1, .opcode = XW_NO_OPERATION, .isvoid = 1};
    ck_assert_uint_ne(xw_send_request(c, 0, parts + 2, &req), 0);
    ck_assert_uint_ne(xw_send_request_with_fds64(c, 0, parts + 2, &req, 0, NULL), 0);
    ck_assert_ptr_eq(parts[0].iov_base, (void *)1);
    ck_assert_uint_eq(parts[0].iov_len, 11);
    ck_assert_ptr_eq(parts[1].iov_base, (void *)2);
    ck_assert_uint_eq(parts[1].iov_len, 22);
    ck_assert_ptr_eq(parts[2].iov_base, noop);
    ck_assert_uint_eq(parts[2].iov_len, sizeof(noop));
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    ck_assert_uint_eq(F.opcode_count[XW_NO_OPERATION], 2);
    ck_assert_uint_eq(F.big_bytes, sizeof(noop));
}
END_TEST

/* ---- XGE and special events ---- */

/* Validators see the event as stored: wire byte 40 is at 44, after full_sequence. */
static int reject_xge(const void *packet, size_t len)
{
    return len > 44 && ((const uint8_t *)packet)[44] == 0xee ? -1 : 0;
}

/* A hand-written extension with a description of its own, found by its name. */
static const xw_validate_fn present_validators[2] = {NULL, reject_xge};
static const xw_ext_desc_t present_desc = {.xname = "XWIRE-XGE", .n_xge = 2, .xge_validators = present_validators};
static struct xw_ext_reg present_reg = {.desc = &present_desc};
static xw_extension_t present_ext = {"XWIRE-XGE", 0};
static const struct fake_ext present_exts[] = {{"XWIRE-XGE", 140, 0, 0}, {NULL, 0, 0, 0}};

static void xge(uint8_t *b, uint16_t seq, uint32_t eid, uint8_t mark)
{
    memset(b, 0, 48);
    b[0] = 35;
    b[1] = 140;
    memcpy(b + 2, &seq, 2);
    uint32_t len = 4;
    memcpy(b + 4, &len, 4);
    uint16_t type = 1;
    memcpy(b + 8, &type, 2);
    memcpy(b + 12, &eid, 4);
    b[40] = mark;
    b[47] = 0x77;
}

static int send_xges(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    if (req[0] != 60)
        return 0;
    uint8_t b[48];
    xge(b, (uint16_t)f->seq, 0x1234, 1);
    fake_send(f, b, 48);
    xge(b, (uint16_t)f->seq, 0x9999, 2);
    fake_send(f, b, 48);
    xge(b, (uint16_t)f->seq, 0x1234, 0xee);
    fake_send(f, b, 48);
    return 1;
}

START_TEST(xge_special_queue_and_validation)
{
    if (!xw_ext_desc_find("XWIRE-XGE"))
        xw__ext_register(&present_reg);
    ck_assert_ptr_eq(xw_ext_desc_find("XWIRE-XGE"), &present_desc);
    c = fake_connect(&F, NULL, 0);
    F.exts = present_exts;
    F.on_request = send_xges;
    fake_serve_start(&F);
    uint32_t stamp = 0;
    xw_special_event_t *se = xw_register_for_special_xge(c, &present_ext, 0x1234, &stamp);
    ck_assert_ptr_nonnull(se);
    uint64_t s = send_void(0, 60);
    xw_generic_event_t *ev = xw_wait_for_special_event(c, se);
    ck_assert_ptr_nonnull(ev);
    const uint8_t *p = (const uint8_t *)ev;
    ck_assert_uint_eq(p[0], 35);
    ck_assert_uint_eq(ev->full_sequence, (uint32_t)s);
    ck_assert_uint_eq(p[36 + 8], 1);    /* wire byte 40 */
    ck_assert_uint_eq(p[36 + 15], 0x77); /* wire byte 47 */
    free(ev);
    ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(((uint8_t *)ev)[44], 2);
    free(ev);
    ev = xw_wait_for_event(c); /* the malformed one, as an error */
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(((xw_generic_error_t *)ev)->error_code, XW_ERROR_MALFORMED_REPLY);
    ck_assert_uint_eq(((xw_generic_error_t *)ev)->major_code, 35);
    free(ev);
    ck_assert_uint_eq(stamp, 1);
    ck_assert_ptr_null(xw_poll_for_special_event(c, se));
    xw_unregister_for_special_event(c, se);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

START_TEST(error_text)
{
    c = fake_connect(&F, NULL, 0);
    xw_generic_error_t e = {.response_type = 0, .error_code = 3, .resource_id = 0x1200005, .major_code = 1};
    char buf[160];
    xw_error_text(c, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "BadWindow (3) in CreateWindow (major 1, minor 0), resource 0x1200005");
    e.error_code = 0;
    e.major_code = 200;
    xw_error_text(c, &e, buf, sizeof(buf));
    ck_assert_str_eq(buf, "MalformedReply (0) in UnknownRequest (major 200, minor 0), resource 0x1200005");
}
END_TEST

START_TEST(single_threaded_mode)
{
    c = fake_connect(&F, NULL, 0);
    ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
    fake_serve_start(&F);
    for (int i = 0; i < 100000; i++)
        send_void(0, 127);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    uint8_t *r = xw_wait_for_reply64(c, s, NULL);
    ck_assert_ptr_nonnull(r);
    free(r);
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

/* A generic event whose length field is 2^32-1 words: refused before allocating. */
START_TEST(xge_huge_length_is_fatal)
{
    uint8_t b[32] = {35, 140};
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    memcpy(b + 2, &(uint16_t){(uint16_t)s1}, 2);
    memset(b + 4, 0xff, 4);
    fake_send(&F, b, 32);
    ck_assert_str_eq(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "malformed event: length 4294967295 words");
}
END_TEST

/* One word past the packet cap (256 MiB) is refused; the cap is checked, not the
 * memory the machine happens to have. */
START_TEST(length_one_word_over_the_cap_is_fatal)
{
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
    send_reply_claiming(s1, ((256u << 20) - 32) / 4 + 1);
    ck_assert_ptr_nonnull(
        strstr(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "malformed reply: length 67108857 words"));
}
END_TEST

/* The same reply twice: the first is delivered, the repeat is fatal. */
START_TEST(repeated_sequence_is_fatal)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_reply_req(XW_REQUEST_CHECKED, 16);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(2);
    send_reply(s1, 0);
    send_reply(s1, 0);
    uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
    ck_assert_ptr_nonnull(r);
    free(r);
    ck_assert_ptr_nonnull(
        strstr(wait_ends_connection(s2, XW_CONN_CLOSED_MALFORMED), "belongs to no request awaiting a reply"));
    check_dead_connection_returns_at_once();
}
END_TEST

/* An error and an event naming sequence numbers never sent. */
START_TEST(unknown_sequence_error_and_event_are_fatal)
{
    for (int kind = 0; kind < 2; kind++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
        if (kind == 0)
            send_error(s1 + 5, 3, 0, 16);
        else
            send_event(33, s1 + 5, 0);
        ck_assert_ptr_nonnull(strstr(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "was never sent"));
        hang_up();
    }
}
END_TEST

/* Event codes nobody registered (an unknown extension's, the top of the range, one
 * with the SendEvent bit) are data: delivered as they came, the connection fine. */
START_TEST(event_with_unknown_code)
{
    static const uint8_t codes[] = {64, 127, 0x80 | 100, 2 /* KeyPress: known, for contrast */};
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 43);
    for (size_t i = 0; i < sizeof(codes); i++)
        send_event(codes[i], s1, 0xc0de0000u + (uint32_t)i);
    send_reply(s1, 0);
    free(xw_wait_for_reply64(c, s1, NULL));
    for (size_t i = 0; i < sizeof(codes); i++) {
        xw_generic_event_t *ev = xw_poll_for_queued_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(ev->response_type, codes[i]);
        ck_assert_uint_eq(fs_rd32((uint8_t *)ev + 4), 0xc0de0000u + i);
        ck_assert_uint_eq(ev->full_sequence, (uint32_t)s1);
        free(ev);
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

static void pipe_fds(int *fds, int n)
{
    for (int i = 0; i < n; i += 2) {
        int p[2];
        ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
        fds[i] = p[0];
        if (i + 1 < n)
            fds[i + 1] = p[1];
        else
            close(p[1]);
    }
}

static void close_all(int *fds, int n)
{
    for (int i = 0; i < n; i++)
        close(fds[i]);
}

/* Fds that come with no reply to claim them (with an error, with the first byte of
 * an event): closed by the library once their bytes are parsed. */
START_TEST(fds_with_no_reply_are_closed)
{
    int fds[6];
    uint8_t b[64];
    c = fake_connect(&F, NULL, 0);
    uint64_t s1 = send_req(XW_REQUEST_CHECKED, 127, 0, 1, NULL, 0, NULL, NULL);
    uint64_t s2 = send_reply_req(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
    flush_to_server(2);
    int conn_fds = count_open_fds();
    pipe_fds(fds, 3);
    fake_error(b, (uint16_t)s1, 3, 7, 127, 0);
    fake_send_fds(&F, b, 32, fds, 3);
    close_all(fds, 3);
    pipe_fds(fds, 2);
    fake_event(b, 33, (uint16_t)s1, 0);
    fake_send_fds(&F, b, 1, fds, 2);
    close_all(fds, 2);
    fake_send(&F, b + 1, 31);
    send_reply(s2, 0); /* claims 0 fds */
    xw_generic_error_t *e = xw_request_check(c, (xw_void_cookie_t){(unsigned)s1});
    ck_assert_ptr_nonnull(e);
    free(e);
    uint8_t *r = xw_wait_for_reply64(c, s2, NULL);
    ck_assert_ptr_nonnull(r);
    free(r);
    free(xw_wait_for_event(c));
    ck_assert_int_eq(count_open_fds(), conn_fds);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* A reply that claims one fd and brings three: it gets the first, the others are closed. */
START_TEST(more_fds_than_the_reply_claims)
{
    int fds[3];
    uint8_t b[64];
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
    int conn_fds = count_open_fds();
    pipe_fds(fds, 3);
    size_t n = fake_reply(b, (uint16_t)s1, 1, NULL, 0);
    fake_send_fds(&F, b, n, fds, 3);
    close_all(fds, 3);
    uint8_t *r = xw_wait_for_reply64(c, s1, NULL);
    ck_assert_ptr_nonnull(r);
    int got = xw_get_reply_fds(c, r, 32)[0];
    ck_assert_int_ge(got, 0);
    ck_assert_int_eq(count_open_fds(), conn_fds + 1);
    close(got);
    free(r);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* A reply that claims two fds and brings one: fatal, and the one is closed. */
START_TEST(fewer_fds_than_the_reply_claims_is_fatal)
{
    int fds[1];
    uint8_t b[64];
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
    pipe_fds(fds, 1);
    size_t n = fake_reply(b, (uint16_t)s1, 2, NULL, 0);
    fake_send_fds(&F, b, n, fds, 1);
    close_all(fds, 1);
    ck_assert_str_eq(wait_ends_connection(s1, XW_CONN_CLOSED_MALFORMED), "malformed reply: claims 2 fds, 1 received");
}
END_TEST

/* More fds in one message than a connection takes (16): the kernel truncates the
 * control message; fatal, and nothing stays open. */
START_TEST(too_many_fds_in_one_message_is_fatal)
{
    enum { N = 20 };
    int fds[N];
    uint8_t b[64];
    uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
    pipe_fds(fds, N);
    size_t n = fake_reply(b, (uint16_t)s1, N, NULL, 0);
    union {
        struct cmsghdr h;
        char b[CMSG_SPACE(sizeof(int) * N)];
    } ctl;
    memset(&ctl, 0, sizeof(ctl));
    struct iovec iov = {b, n};
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b, .msg_controllen = sizeof(ctl.b)};
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int) * N);
    memcpy(CMSG_DATA(h), fds, sizeof(fds));
    ck_assert_int_eq(sendmsg(F.fd, &m, MSG_NOSIGNAL), (ssize_t)n);
    close_all(fds, N);
    ck_assert_str_eq(wait_ends_connection(s1, XW_CONN_CLOSED_FDPASSING_FAILED),
                     "file descriptors from the server were lost");
}
END_TEST

/* ---- fds belong to the bytes they came with ---- */

/* A fresh open file (a pipe's read end) to pass: its own inode, so it can be told apart. */
static int new_fd(void)
{
    int p[2];
    ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
    close(p[1]);
    return p[0];
}

static int same_file(int a, int b)
{
    struct stat x, y;
    return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_ino == y.st_ino && x.st_dev == y.st_dev;
}

/* A request whose reply brings fds, sent and read by the server: its sequence. */
static uint64_t ask_for_fds(void)
{
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED | XW_REQUEST_REPLY_FDS, 200);
    flush_to_server(1);
    return s;
}

/* s's reply brought exactly one fd, the same file as want: closes it. */
static void reply_has_fd(uint64_t s, int want)
{
    uint8_t *r = xw_wait_for_reply64(c, s, NULL);
    ck_assert_msg(r != NULL, "no reply: %s", xw_connection_error_string(c));
    ck_assert_uint_eq(r[1], 1);
    int got = xw_get_reply_fds(c, r, 32 + 4 * (size_t)fs_rd32(r + 4))[0];
    ck_assert_msg(same_file(got, want), "the reply got another packet's fd");
    close(got);
    free(r);
}

/* Every queued event (n of them) and a round trip: the connection is healthy. */
static void drain_and_round_trip(int n)
{
    for (int i = 0; i < n; i++) {
        xw_generic_event_t *ev = xw_wait_for_event(c);
        ck_assert_ptr_nonnull(ev);
        ck_assert_uint_eq(ev->response_type, 33);
        free(ev);
    }
    ck_assert_ptr_null(xw_poll_for_event(c));
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 16);
    flush_to_server(1);
    send_reply(s, 0);
    free(xw_wait_for_reply64(c, s, NULL));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}

/* n events of sequence seq at b. */
static size_t events_at(uint8_t *b, size_t n, uint64_t seq)
{
    for (size_t i = 0; i < n; i++)
        fake_event(b + 32 * i, 33, (uint16_t)seq, (uint32_t)i);
    return 32 * n;
}

/* Fds sent with an event, which claims none, while a request that gets fds waits;
 * then the reply with its own fd, after the rest of a second event that the
 * first read cut (so bytes were still unparsed when the reply's fd came): the
 * reply gets its own fd, the event's are closed. */
START_TEST(fds_of_an_event_are_not_a_later_replys)
{
    c = fake_connect(&F, NULL, 0);
    uint64_t s = ask_for_fds();
    int base = count_open_fds();
    int a[2] = {new_fd(), new_fd()}, b = new_fd();
    uint8_t st[128];
    size_t n = events_at(st, 2, s);
    n += fake_reply(st + n, (uint16_t)s, 1, NULL, 0);
    fake_send_fds(&F, st, 40, a, 2); /* an event and 8 bytes of the next */
    fake_send_fds(&F, st + 40, n - 40, &b, 1);
    reply_has_fd(s, b);
    close_all(a, 2);
    close(b);
    ck_assert_int_eq(count_open_fds(), base);
    drain_and_round_trip(2);
}
END_TEST

/* A flush that carries earlier packets before the reply, with the reply's fd:
 * (1) small, one read; (2) 44 KiB of events first, which the kernel hands over in
 * two reads with the fd on the first, before any byte of the reply; (3) the fd
 * on an earlier write than the reply (a server's partial write). */
START_TEST(fds_sent_with_a_flush_of_earlier_packets)
{
    static uint8_t st[45 * 1024 + 64];
    c = fake_connect(&F, NULL, 0);
    int base = count_open_fds();
    for (int form = 0; form < 3; form++) {
        uint64_t s = ask_for_fds();
        size_t nev = form == 0 ? 2 : 44 * 32;
        size_t n = events_at(st, nev, s);
        size_t head = n;
        n += fake_reply(st + n, (uint16_t)s, 1, NULL, 0);
        int fd = new_fd();
        if (form < 2) {
            fake_send_fds(&F, st, n, &fd, 1);
        } else {
            fake_send_fds(&F, st, head, &fd, 1);
            fake_send(&F, st + head, n - head);
        }
        reply_has_fd(s, fd);
        close(fd);
        ck_assert_int_eq(count_open_fds(), base);
        drain_and_round_trip((int)nev);
    }
}
END_TEST

/* A reply spanning two reads, its fd with the first or the second: a 64-byte
 * reply after an event, and a 200 KB reply (filled in its own record) in 5 pieces
 * with the fd on one of them. */
START_TEST(fds_with_a_reply_spanning_reads)
{
    static uint8_t st[32 + 200032], extra[200000];
    c = fake_connect(&F, NULL, 0);
    int base = count_open_fds();
    for (int big = 0; big < 2; big++) {
        size_t pieces = big ? 5 : 2;
        for (size_t with = 0; with < pieces; with++) {
            uint64_t s = ask_for_fds();
            size_t n = events_at(st, 1, s);
            n += fake_reply(st + n, (uint16_t)s, 1, extra, big ? sizeof(extra) : 32);
            size_t cut[6] = {0, 50, n};
            if (big)
                for (size_t i = 0; i <= pieces; i++)
                    cut[i] = i == pieces ? n : i * (n / pieces);
            int fd = new_fd();
            for (size_t i = 0; i < pieces; i++) {
                if (i == with)
                    fake_send_fds(&F, st + cut[i], cut[i + 1] - cut[i], &fd, 1);
                else
                    fake_send(&F, st + cut[i], cut[i + 1] - cut[i]);
                void *r = NULL;
                if (i + 1 < pieces) /* the client reads this piece on its own */
                    ck_assert_int_eq(xw_poll_for_reply64(c, s, &r, NULL), 0);
            }
            reply_has_fd(s, fd);
            close(fd);
            ck_assert_int_eq(count_open_fds(), base);
            drain_and_round_trip(1);
        }
    }
}
END_TEST

/* Fds nobody claims are closed once their bytes are parsed: with an event while no
 * request expects fds; with an event while one does, closed when it gets an error
 * instead; claimed by a reply that was discarded. */
START_TEST(fds_nobody_claims_are_closed)
{
    uint8_t st[64];
    int fds[2] = {new_fd(), new_fd()};
    c = fake_connect(&F, NULL, 0);
    int base = count_open_fds();
    events_at(st, 1, 0);
    fake_send_fds(&F, st, 32, fds, 2);
    free(xw_wait_for_event(c));
    ck_assert_int_eq(count_open_fds(), base);

    uint64_t s = ask_for_fds();
    events_at(st, 1, s);
    fake_send_fds(&F, st, 32, fds, 2);
    free(xw_wait_for_event(c));
    ck_assert_int_eq(count_open_fds(), base + 2); /* kept: its reply may follow */
    send_error(s, 2, 0, 200);
    xw_generic_error_t *e = NULL;
    ck_assert_ptr_null(xw_wait_for_reply64(c, s, &e));
    ck_assert_ptr_nonnull(e);
    free(e);
    ck_assert_int_eq(count_open_fds(), base);

    s = ask_for_fds();
    xw_discard_reply64(c, s);
    fake_reply(st, (uint16_t)s, 2, NULL, 0);
    fake_send_fds(&F, st, 32, fds, 2);
    drain_and_round_trip(0);
    ck_assert_int_eq(count_open_fds(), base);
    close_all(fds, 2);
}
END_TEST

/* Hostile counts: fds with each of 12 events while a request waits for fds (at
 * most 8 reads' worth are kept, the oldest closed first), then the reply with its
 * own; and fds on 10 reads of one unfinished 200 KB reply: fatal, all closed. */
START_TEST(fds_hostile_counts_are_bounded)
{
    static uint8_t st[200032], extra[200000];
    c = fake_connect(&F, NULL, 0);
    uint64_t s = ask_for_fds();
    int fd = new_fd(), mine = new_fd();
    int base = count_open_fds();
    for (int i = 0; i < 12; i++) {
        events_at(st, 1, s);
        fake_send_fds(&F, st, 32, &fd, 1);
        free(xw_wait_for_event(c));
        ck_assert_int_le(count_open_fds(), base + 8);
    }
    ck_assert_int_eq(count_open_fds(), base + 8);
    size_t n = fake_reply(st, (uint16_t)s, 1, NULL, 0);
    fake_send_fds(&F, st, n, &mine, 1);
    reply_has_fd(s, mine);
    ck_assert_int_eq(count_open_fds(), base);
    drain_and_round_trip(0);

    s = ask_for_fds();
    n = fake_reply(st, (uint16_t)s, 1, extra, sizeof(extra));
    for (size_t i = 0; i < 10; i++) {
        fake_send_fds(&F, st + i * 1000, 1000, &fd, 1);
        xw_poll_for_event(c);
    }
    ck_assert_str_eq(dead_with(XW_CONN_CLOSED_FDPASSING_FAILED), "file descriptors from the server were lost");
    ck_assert_int_eq(count_open_fds(), base);
    close(fd);
    close(mine);
}
END_TEST

/* Truncated packets: an event cut at 20 bytes, a 200 KB reply cut in the middle
 * (being filled in its own record), then the server closes. */
START_TEST(server_closes_mid_event_and_mid_big_reply)
{
    for (int kind = 0; kind < 2; kind++) {
        uint64_t s1 = connect_and_ask(XW_REQUEST_CHECKED, 16);
        static uint8_t stream[200032];
        size_t n;
        if (kind == 0) {
            fake_event(stream, 33, (uint16_t)s1, 0);
            n = 20;
        } else {
            static uint8_t extra[200000];
            n = fake_reply(stream, (uint16_t)s1, 0, extra, sizeof(extra)) - 100000;
        }
        closes_mid_packet(s1, stream, n);
        hang_up();
    }
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("conn");
    struct {
        const char *name;
        const TTest *tests[16];
    } groups[] = {
        {"setup", {setup_success, setup_refused, setup_authenticate, setup_truncated, setup_malformed,
                   connect_to_bad_fd, setup_refused_without_reason, setup_authenticate_without_reason,
                   setup_closed_before_a_byte, setup_length_lies}},
        {"read", {split_at_every_byte, big_reply_in_pieces, out_of_order_sequence_is_fatal,
                  huge_length_is_fatal_before_allocating, validator_turns_reply_into_error, server_closes_mid_reply,
                  reply_to_void_request_is_fatal, keymap_notify_has_no_sequence, list_fonts_with_info_multi_reply,
                  timeouts, discard_and_error_routing, into_too_small_keeps_packet, xge_special_queue_and_validation,
                  error_text}},
        {"hostile", {xge_huge_length_is_fatal, length_one_word_over_the_cap_is_fatal, repeated_sequence_is_fatal,
                     unknown_sequence_error_and_event_are_fatal, event_with_unknown_code,
                     server_closes_mid_event_and_mid_big_reply}},
        {"fds", {fds_out_with_request, fds_in_with_reply_and_unclaimed, fds_with_no_reply_are_closed,
                 more_fds_than_the_reply_claims, fewer_fds_than_the_reply_claims_is_fatal,
                 too_many_fds_in_one_message_is_fatal, fds_of_an_event_are_not_a_later_replys,
                 fds_sent_with_a_flush_of_earlier_packets, fds_with_a_reply_spanning_reads, fds_nobody_claims_are_closed,
                 fds_hostile_counts_are_bounded}},
        {"write", {auto_sync_before_65535_voids, sequence_wrap, check_after_flush, too_long_fails_alone, big_requests,
                   blocked_write_keeps_reading, single_threaded_mode}},
        {"extensions", {extension_key_reused_at_one_address, extension_without_description_works_unvalidated,
                        request_facts_by_name_and_opcode, foreign_request_reply_is_validated,
                        libxcb_forms_leave_the_slots_before_vector}},
        {"barrier", {check_unchecked_waits_for_the_server, check_without_redundant_sync,
                     check_unchecked_ends_with_the_connection}},
    };
    for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
        TCase *tc = tcase_create(groups[g].name);
        tcase_set_timeout(tc, 60);
        tcase_add_checked_fixture(tc, setup, teardown);
        for (int i = 0; groups[g].tests[i]; i++)
            _tcase_add_test(tc, groups[g].tests[i], 0, 0, 0, 1);
        suite_add_tcase(s, tc);
    }
    return xwtest_run(s);
}
