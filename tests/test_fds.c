/* SPDX-License-Identifier: MIT */
/* test_fds.c — file descriptors against a scripted fake server: sent with their
 * request, received with the bytes they came with, closed when nobody claims them. */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_conn.h"

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

/* ---- more hostile servers: each ends in a documented state ---- */

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

int main(void)
{
    Suite *s = xwtest_suite("fds");
    fake_conn_tcase(s, "fds",
                    (const TTest *const[]){fds_out_with_request, fds_in_with_reply_and_unclaimed,
                                           fds_with_no_reply_are_closed, more_fds_than_the_reply_claims,
                                           fewer_fds_than_the_reply_claims_is_fatal,
                                           too_many_fds_in_one_message_is_fatal, fds_of_an_event_are_not_a_later_replys,
                                           fds_sent_with_a_flush_of_earlier_packets, fds_with_a_reply_spanning_reads,
                                           fds_nobody_claims_are_closed, fds_hostile_counts_are_bounded, NULL});
    return xwtest_run(s);
}
