/* SPDX-License-Identifier: MIT */
/* test_write.c — the write path against a scripted fake server: automatic syncs,
 * sequence wrap, big and too-long requests, blocked writes, xw_request_check as a barrier,
 * and no socket calls once connected (a program may confine itself then). */
#include <check.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>

#include "fake_conn.h"

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

/* A reply-bearing request in the run starts it again: 60000 voids on each side of
 * one need no sync, and the requests past the first 65534 voids still take the
 * next sequence numbers in order. */
START_TEST(reply_request_restarts_the_void_run)
{
    c = fake_connect(&F, NULL, 0);
    fake_serve_start(&F);
    for (int i = 0; i < 60000; i++)
        ck_assert_uint_ne(send_void(0, 127), 0);
    uint64_t mid = send_reply_req(0, 43);
    ck_assert_uint_eq(mid, 60001);
    for (int i = 0; i < 60000; i++)
        ck_assert_uint_eq(send_void(0, 127), mid + 1 + (uint64_t)i);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    ck_assert_uint_eq(s, 120002); /* no sync went in */
    uint8_t *r = xw_wait_for_reply64(c, s, NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(fs_rd32(r + 8), 120002);
    free(r);
    hang_up();
    ck_assert_uint_eq(F.first_sync_at, mid); /* the GetInputFocus requests are ours alone */
    ck_assert_uint_eq(F.opcode_count[43], 2);
    ck_assert_uint_eq(F.opcode_count[127], 120000);
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

/* A QueryExtension longer than the server's core limit goes out in BIG-REQUESTS
 * framing, asking for BIG-REQUESTS first, as any request built by a caller would. */
START_TEST(long_extension_name_asks_for_big_requests)
{
    static char name[20001];
    memset(name, 'X', sizeof(name) - 1);
    static xw_extension_t longest = {name, 0};
    uint8_t setup[1024];
    size_t len = fake_setup_success(setup, sizeof(setup), 4096); /* the least a server may announce */
    c = fake_connect(&F, setup, len);
    F.exts = bigreq_exts;
    F.bigreq_max = 100000;
    fake_serve_start(&F);
    const uint8_t *q = (const uint8_t *)xw_get_extension_data(c, &longest);
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_eq(q[8], 0); /* the fake server has no such extension: present = 0 */
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    hang_up();
    ck_assert_uint_eq(F.opcode_count[98], 2); /* BIG-REQUESTS, then the long name */
    ck_assert_uint_eq(F.big_requests, 1);
    ck_assert_uint_eq(F.big_bytes, 8 + 4 + 20000); /* the fixed part, the 32-bit length, the name */
}
END_TEST

static int send_buffer(int fd)
{
    int v = 0;
    socklen_t len = sizeof(v);
    ck_assert_int_eq(getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len), 0);
    return v;
}

/* A local socket keeps the send buffer the system gives it, at connect and after
 * large and small traffic: a larger one made each byte of a big image dearer for
 * both sides (the bytes in flight outgrow the cache). */
START_TEST(send_buffer_left_as_the_system_sets_it)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    int system_default = send_buffer(sv[0]);
    close(sv[0]);
    close(sv[1]);
    c = fake_connect(&F, NULL, 0);
    fake_serve_start(&F);
    ck_assert_int_eq(send_buffer(xw_get_file_descriptor(c)), system_default);
    for (int i = 0; i < 100000; i++)
        send_void(0, 127);
    ck_assert_int_eq(xw_flush(c), 1);
    ck_assert_uint_ne(send_req(0, 18, 0, 1, big_body, 200 * 1024, NULL, NULL), 0);
    ck_assert_int_eq(xw_flush(c), 1);
    ck_assert_int_eq(send_buffer(xw_get_file_descriptor(c)), system_default);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    ck_assert_uint_eq(F.opcode_count[18], 1);
    ck_assert_uint_eq(F.opcode_count[127], 100000);
}
END_TEST

/* ---- a program confined after connecting ---- */

/* The system calls a sandbox that allows what libxcb needs once connected (as
 * OpenBSD's pledge("stdio") does, and xwallpaper's seccomp filter, which kills the
 * process) leaves out: socket setup and socket options. Each one the client makes
 * traps into on_sigsys, which notes it and lets it fail with ENOSYS. */
static const int confined_out[] = {SYS_getsockopt, SYS_setsockopt, SYS_socket,      SYS_connect,
                                   SYS_bind,       SYS_listen,     SYS_getsockname, SYS_getpeername};
#define NCONFINED ((int)(sizeof(confined_out) / sizeof(confined_out[0])))
static volatile sig_atomic_t trapped, trapped_nr;

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    trapped++;
    trapped_nr = si->si_syscall;
}

/* A filter on the calling thread and the threads it starts afterwards: every
 * call in confined_out traps; everything else runs. */
static void confine(void)
{
    struct sock_filter f[4 + 2 * NCONFINED + 1];
    int n = 0;
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW); /* other ABIs: not tested */
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    for (int i = 0; i < NCONFINED; i++) {
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)confined_out[i], 0, 1);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
    }
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = {.len = (unsigned short)n, .filter = f};
    struct sigaction sa = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO};
    ck_assert_int_eq(sigaction(SIGSYS, &sa, NULL), 0);
    ck_assert_int_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
    ck_assert_int_eq(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog), 0);
}

/* Once connected, large writes, small ones, a reply wait and the disconnect use
 * none of those calls (xwallpaper died of xwire's getsockopt before its first
 * large write). The filter stays with the process: this test runs last. */
START_TEST(connected_needs_no_socket_calls)
{
    c = fake_connect(&F, NULL, 0);
    confine();
    fake_serve_start(&F);
    for (int i = 0; i < 1000; i++)
        send_void(0, 127);
    ck_assert_uint_ne(send_req(0, 18, 0, 1, big_body, 200 * 1024, NULL, NULL), 0);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    hang_up();
    ck_assert_msg(trapped == 0, "%d confined calls, the last system call %d", (int)trapped, (int)trapped_nr);
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

/* ---- a fixed part and one list, sent by xw__send_list ---- */

/* A native-order word into a request's bytes (the client's byte order is the wire's). */
static void put16(uint8_t *d, uint16_t v)
{
    memcpy(d, &v, 2);
}

static void put32(uint8_t *d, uint32_t v)
{
    memcpy(d, &v, 4);
}

/* ChangeProperty's requests as the serving thread read them (the small ones). */
static uint8_t seen[16][128];
static size_t seen_len[16];
static int nseen;

static int keep_change_property(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)f;
    if (req[0] == 18 && nseen < 16 && len <= sizeof seen[0]) {
        memcpy(seen[nseen], req, len);
        seen_len[nseen++] = len;
    }
    return 0;
}

/* The list sizes sent below: the inline copy's size classes and their edges, and
 * lists past it. */
static const uint32_t list_sizes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 31, 32, 33, 64};
enum { N_LIST_SIZES = sizeof list_sizes / sizeof list_sizes[0] };

/* ChangeProperty(Replace, FAKE_ROOT, property 1, type 31, format 8) of the first n
 * bytes of data as the protocol lays it out, into want; returns its length. */
static size_t change_property_bytes(uint8_t *want, const uint8_t *data, size_t n)
{
    size_t len = 24 + n + (-n & 3);
    memset(want, 0, len);
    want[0] = 18;
    put16(want + 2, (uint16_t)(len / 4));
    put32(want + 4, FAKE_ROOT);
    put32(want + 8, 1);
    put32(want + 12, 31);
    want[16] = 8;
    put32(want + 20, (uint32_t)n);
    memcpy(want + 24, data, n);
    return len;
}

/* ChangeProperty with lists of 0 to 33 bytes (the direct copy up to 32, each of its
 * size classes and their edges, the slices past it), one in BIG-REQUESTS framing and
 * one past the server's limit, which fails alone with nothing sent: each on the wire
 * as the protocol lays it out, the pad zeroed, whichever way it went. single: the
 * connection's single-threaded mode (the generated sender's inline path), else the
 * locked one (the fake server's thread makes the process a threaded one). */
static void list_requests(int single)
{
    c = fake_connect(&F, NULL, 0);
    F.exts = bigreq_exts;
    F.bigreq_max = 100000; /* words */
    F.on_request = keep_change_property;
    nseen = 0;
    ck_assert_int_eq(xw_connection_set_single_threaded(c, single), 0);
    fake_serve_start(&F);
    static uint8_t data[400 * 1024];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 1);
    const uint32_t *sizes = list_sizes;
    enum { N = N_LIST_SIZES };
    for (int k = 0; k < N; k++)
        ck_assert_uint_ne(xw_change_property(c, 0, FAKE_ROOT, 1, 31, 8, sizes[k], sizes[k] ? data : NULL).sequence, 0);
    ck_assert_uint_eq(xw_change_property(c, 0, FAKE_ROOT, 1, 31, 8, 400 * 1024, data).sequence, 0);
    ck_assert_ptr_nonnull(strstr(xw_request_error_string(c), "limit of 400000 bytes"));
    ck_assert_uint_ne(xw_change_property(c, 0, FAKE_ROOT, 1, 31, 8, 300 * 1024, data).sequence, 0);
    uint64_t s = send_reply_req(XW_REQUEST_CHECKED, 43);
    free(xw_wait_for_reply64(c, s, NULL));
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    hang_up();
    ck_assert_uint_eq(F.opcode_count[18], N + 1);
    ck_assert_uint_eq(F.big_requests, 1);
    ck_assert_uint_eq(F.big_bytes, 24 + 300 * 1024 + 4);
    ck_assert_int_eq(nseen, N);
    for (int k = 0; k < N; k++) {
        uint8_t want[128];
        size_t len = change_property_bytes(want, data, sizes[k]);
        ck_assert_uint_eq(seen_len[k], len);
        ck_assert_msg(memcmp(seen[k], want, len) == 0, "ChangeProperty of %u bytes", sizes[k]);
    }
}

START_TEST(list_requests_locked)
{
    list_requests(0);
}
END_TEST

START_TEST(list_requests_lock_free)
{
    list_requests(1);
}
END_TEST

/* The same lists, and InternAtom's (an 8-byte fixed part), with no serving thread:
 * in a process with one thread the generated senders take their inline path
 * without the connection's single-threaded mode. The requests are read here after
 * the flush. */
START_TEST(list_requests_one_thread)
{
    c = fake_connect(&F, NULL, 0);
    uint8_t data[64];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 7 + 1);
    for (int k = 0; k < N_LIST_SIZES; k++) {
        ck_assert_uint_ne(xw_change_property(c, 0, FAKE_ROOT, 1, 31, 8, list_sizes[k], data).sequence, 0);
        ck_assert_uint_ne(xw_intern_atom_unchecked(c, 1, (uint16_t)list_sizes[k], (const char *)data).sequence, 0);
    }
    ck_assert_int_gt(xw_flush(c), 0);
    for (int k = 0; k < N_LIST_SIZES; k++) {
        uint8_t want[128], got[128];
        size_t n = list_sizes[k], len = change_property_bytes(want, data, n);
        ck_assert_int_eq(fake_read_request(&F, got, sizeof got, NULL, NULL), (long)len);
        ck_assert_msg(memcmp(got, want, len) == 0, "ChangeProperty of %zu bytes", n);
        len = 8 + n + (-n & 3);
        memset(want, 0, len);
        want[0] = 16;
        want[1] = 1;
        put16(want + 2, (uint16_t)(len / 4));
        put16(want + 4, (uint16_t)n);
        memcpy(want + 8, data, n);
        ck_assert_int_eq(fake_read_request(&F, got, sizeof got, NULL, NULL), (long)len);
        ck_assert_msg(memcmp(got, want, len) == 0, "InternAtom of %zu bytes", n);
    }
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

int main(void)
{
    Suite *s = xwtest_suite("write");
    fake_conn_tcase(s, "write",
                    (const TTest *const[]){auto_sync_before_65535_voids, reply_request_restarts_the_void_run,
                                           sequence_wrap, check_after_flush, too_long_fails_alone, big_requests,
                                           long_extension_name_asks_for_big_requests,
                                           send_buffer_left_as_the_system_sets_it, blocked_write_keeps_reading,
                                           single_threaded_mode, list_requests_locked, list_requests_lock_free,
                                           list_requests_one_thread, NULL});
    fake_conn_tcase(s, "barrier",
                    (const TTest *const[]){check_unchecked_waits_for_the_server, check_without_redundant_sync,
                                           check_unchecked_ends_with_the_connection, NULL});
    fake_conn_tcase(s, "confined", (const TTest *const[]){connected_needs_no_socket_calls, NULL});
    return xwtest_run(s);
}
