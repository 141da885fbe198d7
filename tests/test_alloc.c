/* SPDX-License-Identifier: MIT */
/* test_alloc.c — heap allocations per request and per reply/event on the zero-allocation path. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <xw/xwext.h>

#include "alloc_count.h" /* the test thread's heap calls; the fake server's are not counted */
#include "fake_server.h"
#include "xwtest.h"

static struct fake_server F;
static xw_connection_t *c;

/* InternAtom (16) gets a reply whose atom is the sequence; opcode 60 triggers an
 * event; opcode 61 a 300 KiB reply (bigger than the read buffer); opcode 62 an
 * error; other opcodes nothing. */
static int answer(struct fake_server *f, const uint8_t *req, size_t len)
{
    (void)len;
    static uint8_t big[300 * 1024 + 64], payload[300 * 1024];
    uint8_t b[64], extra[24] = {0};
    uint32_t seq = (uint32_t)f->seq;
    if (req[0] == 16) {
        memcpy(extra, &seq, 4);
        fake_send(f, b, fake_reply(b, (uint16_t)seq, 0, extra, 24));
    } else if (req[0] == 60) {
        fake_event(b, 33, (uint16_t)seq, seq);
        fake_send(f, b, 32);
    } else if (req[0] == 62) {
        fake_error(b, (uint16_t)seq, 3, seq, 62, 0);
        fake_send(f, b, 32);
    } else if (req[0] == 61) {
        fake_send(f, big, fake_reply(big, (uint16_t)seq, 0, payload, 300 * 1024));
    } else {
        return 0;
    }
    return 1;
}

static void setup(void)
{
    xwtest_fds_begin();
    c = fake_connect(&F, NULL, 0);
    F.on_request = answer;
    fake_serve_start(&F);
}

static void teardown(void)
{
    xw_disconnect(c);
    fake_stop(&F);
    xwtest_fds_end();
}

static uint64_t send_op(int flags, uint8_t opcode, int isvoid)
{
    uint8_t hdr[8] = {0};
    struct iovec parts[3] = {{0}, {0}, {hdr, 8}};
    xw_protocol_request_t req = {.count = 1, .opcode = opcode, .isvoid = (uint8_t)isvoid};
    return xw_send(c, flags, parts + 2, &req, 8, 0, NULL);
}

/* One round of the steady-state pattern: voids, a pipeline of replies, events.
 * Returns the number of mismatches; no ck_assert inside, because Check's
 * assertions allocate (mark_point messages) and would be counted. */
static int round_into(int pipeline)
{
    static uint8_t buf[400 * 1024];
    uint64_t seqs[256];
    size_t len;
    int bad = 0;
    for (int i = 0; i < 10; i++)
        send_op(0, 127, 1);
    for (int i = 0; i < pipeline; i++)
        seqs[i] = send_op(XW_REQUEST_CHECKED, 16, 0);
    send_op(0, 60, 1);
    uint64_t big = send_op(XW_REQUEST_CHECKED, 61, 0);
    for (int i = 0; i < pipeline; i++) {
        uint32_t atom = 0;
        bad += xw_wait_for_reply_into(c, seqs[i], buf, sizeof(buf), &len, NULL, -1) != 1 || len != 32;
        memcpy(&atom, buf + 8, 4);
        bad += atom != (uint32_t)seqs[i];
    }
    bad += xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1) != 1 || len != 36;
    bad += xw_wait_for_reply_into(c, big, buf, sizeof(buf), &len, NULL, -1) != 1 || len != 8 + 300 * 1024;
    return bad;
}

START_TEST(requests_allocate_nothing)
{
    /* Warm-up: replies are claimed, so nothing arrives during the measurement. */
    uint8_t buf[64];
    size_t len;
    for (int i = 0; i < 1000; i++)
        xw_wait_for_reply_into(c, send_op(XW_REQUEST_CHECKED, 16, 0), buf, sizeof(buf), &len, NULL, -1);
    unsigned long a = alloc_count_begin();
    for (int i = 0; i < 200000; i++)
        send_op(0, 127, 1);
    xw_flush(c);
    ck_assert_uint_eq(alloc_count_end(a), 0);
}
END_TEST

/* The 300 KiB reply read before anyone waits for it (an event sent after it is
 * waited for first), so it goes through a record: the warm-up must have used that
 * path too, since whether a round's big reply goes straight into the caller's
 * buffer or through a record depends on when it arrives. */
static int big_through_record(void)
{
    static uint8_t buf[400 * 1024];
    size_t len;
    uint64_t big = send_op(XW_REQUEST_CHECKED, 61, 0);
    send_op(0, 60, 1);
    int bad = xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1) != 1;
    return bad + (xw_wait_for_reply_into(c, big, buf, sizeof(buf), &len, NULL, -1) != 1 || len != 8 + 300 * 1024);
}

START_TEST(into_path_allocates_nothing_after_warmup)
{
    int bad = big_through_record();
    for (int r = 0; r < 50; r++)
        bad += round_into(200);
    unsigned long a = alloc_count_begin();
    for (int r = 0; r < 500; r++)
        bad += round_into(200);
    unsigned long n = alloc_count_end(a);
    ck_assert_int_eq(bad, 0);
    ck_assert_msg(n == 0, "%lu allocations in 500 rounds (100,500 requests, 100,500 replies, 500 events)", n);
}
END_TEST

/* libxcb frees a checked void request's pending entry once the request is finished
 * without an error; xwire must not keep it either, or checked requests nobody
 * checks would grow the pending store without end. */
START_TEST(unchecked_checked_voids_hold_nothing)
{
    uint8_t buf[64];
    size_t len;
    int bad = 0;
    for (int r = 0; r < 2; r++) { /* warm-up: the same pattern, so the store has its blocks */
        for (int i = 0; i < 1000; i++)
            send_op(XW_REQUEST_CHECKED, 127, 1);
        xw_wait_for_reply_into(c, send_op(XW_REQUEST_CHECKED, 16, 0), buf, sizeof(buf), &len, NULL, -1);
    }
    uint64_t first = 0;
    unsigned long a = alloc_count_begin();
    for (int r = 0; r < 200; r++) {
        for (int i = 0; i < 1000; i++) {
            uint64_t s = send_op(XW_REQUEST_CHECKED, 127, 1);
            first = first ? first : s;
        }
        bad += xw_wait_for_reply_into(c, send_op(XW_REQUEST_CHECKED, 16, 0), buf, sizeof(buf), &len, NULL, -1) != 1;
    }
    unsigned long n = alloc_count_end(a);
    ck_assert_int_eq(bad, 0);
    ck_assert_msg(n == 0, "%lu allocations for 200,000 unchecked checked void requests", n);
    /* checking one late still says "no error", at once */
    ck_assert_ptr_null(xw_request_check(c, (xw_void_cookie_t){(unsigned int)first}));
}
END_TEST

/* libxcb frees the pending entry of a reply-bearing request once it is finished
 * with nothing left to claim: its error went to the event queue, or (a server
 * that never answered) a later packet finished it. Cookies nobody claims must not
 * grow xwire's store either, and a late claim still answers "nothing". */
START_TEST(unclaimed_finished_cookies_hold_nothing)
{
    static uint8_t buf[64];
    size_t len;
    int bad = 0;
    uint64_t first = 0;
    unsigned long a = 0;
    for (int r = 0; r < 202; r++) { /* two rounds of warm-up, then 200 counted */
        if (r == 2)
            a = alloc_count_begin();
        for (int i = 0; i < 1000; i++) {
            uint64_t s = send_op(0, (uint8_t)(i % 2 ? 62 : 63), 0); /* error to events, or no answer */
            first = first ? first : s;
        }
        bad += xw_wait_for_reply_into(c, send_op(XW_REQUEST_CHECKED, 16, 0), buf, sizeof(buf), &len, NULL, -1) != 1;
        for (int i = 0; i < 500; i++)
            bad += xw_wait_for_event_into(c, buf, sizeof(buf), &len, -1) != 1 || buf[0] != 0 || buf[10] != 62;
    }
    unsigned long n = alloc_count_end(a);
    ck_assert_int_eq(bad, 0);
    ck_assert_msg(n == 0, "%lu allocations for 200,000 unclaimed reply-bearing requests", n);
    xw_generic_error_t *e = NULL;
    ck_assert_ptr_null(xw_wait_for_reply64(c, first, &e));
    ck_assert_ptr_null(e);
    ck_assert_ptr_null(xw_wait_for_reply64(c, first + 1, &e));
    ck_assert_ptr_null(e);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
}
END_TEST

/* Replies claimed newest first: every claim but the last searches the store, and
 * the claimed entries left behind the oldest are reclaimed as the store grows. */
START_TEST(replies_claimed_out_of_order)
{
    static uint64_t seqs[20000];
    uint8_t buf[64];
    size_t len;
    int bad = 0;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 20000; i++)
            seqs[i] = send_op(XW_REQUEST_CHECKED, 16, 0);
        for (int i = 19999; i >= 0; i--) {
            uint32_t atom = 0;
            bad += xw_wait_for_reply_into(c, seqs[i], buf, sizeof(buf), &len, NULL, -1) != 1 || len != 32;
            memcpy(&atom, buf + 8, 4);
            bad += atom != (uint32_t)seqs[i];
            if (i % 4000 == 0) /* more requests while the old ones wait: the store compacts */
                for (int k = 0; k < 3000; k++)
                    xw_discard_reply64(c, send_op(XW_REQUEST_CHECKED, 16, 0));
        }
    }
    ck_assert_int_eq(bad, 0);
    ck_assert_int_eq(xw_wait_for_reply_into(c, seqs[0], buf, sizeof(buf), &len, NULL, 0), 0); /* claimed already */
}
END_TEST

START_TEST(libxcb_path_allocates_only_the_result)
{
    for (int i = 0; i < 100; i++)
        free(xw_wait_for_reply64(c, send_op(XW_REQUEST_CHECKED, 16, 0), NULL));
    unsigned long a = alloc_count_begin();
    for (int i = 0; i < 1000; i++)
        free(xw_wait_for_reply64(c, send_op(XW_REQUEST_CHECKED, 16, 0), NULL));
    ck_assert_uint_eq(alloc_count_end(a), 1000);
}
END_TEST

/* Resident memory of this process, in KiB (VmRSS), or -1. */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[128];
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6))
            kib = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kib;
}

/* n InternAtoms outstanding at once, then claimed (in reverse when backwards, which
 * leaves dead entries behind the head for the store to squeeze out). Returns the
 * number of wrong replies; no ck_assert inside (Check's assertions allocate). */
static int deep_round(uint64_t *seqs, int n, int backwards)
{
    uint8_t buf[64];
    size_t len;
    int bad = 0;
    for (int i = 0; i < n; i++)
        seqs[i] = send_op(XW_REQUEST_CHECKED, 16, 0);
    for (int k = 0; k < n; k++) {
        int i = backwards ? n - 1 - k : k;
        uint32_t atom = 0;
        bad += xw_wait_for_reply_into(c, seqs[i], buf, sizeof(buf), &len, NULL, -1) != 1 || len != 32;
        memcpy(&atom, buf + 8, 4);
        bad += atom != (uint32_t)seqs[i];
    }
    return bad;
}

/* Page faults this thread has taken (the fake server's thread is not counted). */
static long thread_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_minflt + ru.ru_majflt : -1;
}

/* A pipeline 200,000 deep takes its pending store from mapped chunks, not the heap:
 * a second one allocates nothing and each reply is its own whichever order it is
 * claimed in. Once drained its big chunks wait, populated, in the chunk pool for
 * the next pipeline to take, so a pipeline repeated takes no page from the kernel,
 * and what stays resident is about one pipeline's entries (8 MB), not more for
 * each round. */
START_TEST(deep_pipeline_reuses_its_memory)
{
    enum { DEEP = 200000 };
    static uint64_t seqs[DEEP];
    int bad = deep_round(seqs, 64, 0); /* the first chunk mapped, the fake server warm */
    long before = rss_kib();
    bad += deep_round(seqs, DEEP, 0);
    unsigned long a = alloc_count_begin();
    bad += deep_round(seqs, DEEP, 1);
    bad += deep_round(seqs, DEEP, 0);
    unsigned long n = alloc_count_end(a);
    long f0 = thread_faults();
    bad += deep_round(seqs, DEEP, 0);
    long faults = thread_faults() - f0;
    long after = rss_kib();
    ck_assert_int_eq(bad, 0);
    ck_assert_msg(n == 0, "%lu allocations in two pipelines of 200,000", n);
    ck_assert_msg(f0 >= 0 && faults < 16, "%ld page faults in a pipeline repeated", faults);
    ck_assert_msg(before > 0 && after - before < 12 * 1024, "resident %ld KiB before, %ld KiB after draining", before,
                  after);
}
END_TEST

int main(void)
{
    if (!XW_COUNT_ALLOCS) {
        puts("alloc: skipped, a sanitizer owns the allocator in this build");
        return 77;
    }
    Suite *s = xwtest_suite("alloc");
    TCase *tc = tcase_create("alloc");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, requests_allocate_nothing);
    tcase_add_test(tc, into_path_allocates_nothing_after_warmup);
    tcase_add_test(tc, libxcb_path_allocates_only_the_result);
    tcase_add_test(tc, unchecked_checked_voids_hold_nothing);
    tcase_add_test(tc, replies_claimed_out_of_order);
    tcase_add_test(tc, unclaimed_finished_cookies_hold_nothing);
    tcase_add_test(tc, deep_pipeline_reuses_its_memory);
    suite_add_tcase(s, tc);
    return xwtest_run(s);
}
