/* SPDX-License-Identifier: MIT */
/* test_claims.c — threads claim pipelined replies out of order on one connection (heap, _into, discard) while the
 * pending store compacts under them, one checks failing void requests and one waits for events: every answer right. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xw/xproto.h>
#include <xw/xw.h>
#include <xw/xwext.h>

#include "conn.h"
#include "route.h"
#include "xvfb_marks.h"
#include "xvfb_suite.h"
#include "xwtest.h"

/* Requests a worker sends before claiming them: past XW_PEND_BLOCK, so that one batch
 * claimed behind the worker's anchor leaves enough dead entries to compact. */
enum { WORKERS = 6, BATCH = 300, ROUNDS = 40, NATOMS = 24, CHECK_BATCH = 40, CHECK_ROUNDS = 100 };

/* Without compaction the store would hold every request sent behind the oldest
 * unclaimed anchor (WORKERS * ROUNDS * BATCH, 72,000); with it, the store stays
 * within about twice what is alive (each worker's batch and anchor, the checker's
 * batch, the discarded requests not answered yet) plus a block or two. */
#define STORE_BOUND 8192

static xw_connection_t *c;
static xw_atom_t mark_type;
static xw_window_t win;
static char names[NATOMS][48];
static xw_atom_t atoms[NATOMS];

enum kind { K_ATOM, K_NAME, K_FOCUS, K_MARK };
enum how { H_HEAP, H_INTO, H_DISCARD };

struct req {
    enum kind kind;
    uint64_t seq;
    unsigned arg;
};

struct worker {
    int id;
    uint64_t rng;
    long claimed, into, discarded, marks;
    size_t store_max; /* the most entries the store held when this worker looked */
    int failed_line;
    struct req batch[BATCH];
    unsigned order[BATCH];
};

static uint32_t next_rand(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*rng >> 33);
}

static size_t store_entries(void)
{
    xw__conn_lock(c);
    size_t n = c->in.pend.n;
    xw__conn_unlock(c);
    return n;
}

static void send_one(struct worker *wk, struct req *q)
{
    uint32_t r = next_rand(&wk->rng);
    q->kind = (enum kind)(r % 8 < 4 ? K_ATOM : r % 8 < 6 ? K_NAME : r % 8 < 7 ? K_FOCUS : K_MARK);
    q->arg = (r >> 8) % NATOMS;
    switch (q->kind) {
    case K_ATOM:
        q->seq = xw_intern_atom(c, (r >> 16) & 1, (uint16_t)strlen(names[q->arg]), names[q->arg]).sequence;
        break;
    case K_NAME:
        q->seq = xw_get_atom_name(c, atoms[q->arg]).sequence;
        break;
    case K_FOCUS:
        q->seq = xw_get_input_focus(c).sequence;
        break;
    case K_MARK:
        q->seq = mark_send(c, win, mark_type, (uint32_t)wk->id, (uint32_t)wk->marks++);
        break;
    }
}

/* The reply r (len bytes) is the one request q asked for. */
static int reply_right(const struct req *q, const uint8_t *r, size_t len)
{
    T_CHECK(len >= 32 && r[0] == 1 && r[2] == (uint8_t)q->seq && r[3] == (uint8_t)(q->seq >> 8));
    switch (q->kind) {
    case K_ATOM:
        T_CHECK(((const xw_intern_atom_reply_t *)(const void *)r)->atom == atoms[q->arg]);
        break;
    case K_NAME: {
        const xw_get_atom_name_reply_t *n = (const void *)r;
        size_t want = strlen(names[q->arg]);
        T_CHECK((size_t)xw_get_atom_name_name_length(n) == want && 32 + want <= len);
        T_CHECK(!memcmp(xw_get_atom_name_name(n), names[q->arg], want));
        break;
    }
    default:
        T_CHECK(len == 32);
        break;
    }
    return 0;
}

static int claim_heap(const struct req *q)
{
    xw_generic_error_t *e = NULL;
    uint8_t *r = xw_wait_for_reply64(c, q->seq, &e);
    int line = e ? __LINE__ : !r ? __LINE__ : reply_right(q, r, 32 + 4 * (size_t)((const uint32_t *)(void *)r)[1]);
    free(r);
    free(e);
    return line;
}

static int claim_into(const struct req *q)
{
    uint8_t buf[32 + 64 + XW_REPLY_SLACK];
    xw_generic_error_t e;
    size_t len = 0;
    T_CHECK(xw_wait_for_reply_into(c, q->seq, buf, sizeof(buf), &len, &e, -1) == 1);
    return reply_right(q, buf, len);
}

/* One request claimed as how says; a marker's void cookie has nothing to claim. */
static int claim(struct worker *wk, const struct req *q, enum how how)
{
    if (q->kind == K_MARK)
        return 0;
    if (how == H_DISCARD) {
        xw_discard_reply64(c, q->seq);
        wk->discarded++;
        return 0;
    }
    wk->claimed++;
    wk->into += how == H_INTO;
    return how == H_INTO ? claim_into(q) : claim_heap(q);
}

/* A random order of the batch, so replies are claimed out of the order they come in. */
static void shuffle(struct worker *wk)
{
    for (unsigned i = 0; i < BATCH; i++)
        wk->order[i] = i;
    for (unsigned i = BATCH - 1; i > 0; i--) {
        unsigned j = next_rand(&wk->rng) % (i + 1), t = wk->order[i];
        wk->order[i] = wk->order[j];
        wk->order[j] = t;
    }
}

/* The anchor, claimed last, keeps the worker's earlier entries from being trimmed at
 * the head: the claimed ones behind it can only go by compaction. */
static int worker_run(struct worker *wk)
{
    struct req anchor = {.kind = K_FOCUS, .seq = xw_get_input_focus(c).sequence};
    int line;
    for (int round = 0; round < ROUNDS; round++) {
        for (unsigned i = 0; i < BATCH; i++)
            send_one(wk, &wk->batch[i]);
        shuffle(wk);
        for (unsigned i = 0; i < BATCH; i++)
            if ((line = claim(wk, &wk->batch[wk->order[i]], (enum how)(next_rand(&wk->rng) % 3))))
                return line;
        size_t n = store_entries();
        wk->store_max = n > wk->store_max ? n : wk->store_max;
    }
    return claim_heap(&anchor);
}

static void *worker_main(void *arg)
{
    struct worker *wk = arg;
    wk->failed_line = worker_run(wk);
    return NULL;
}

/* Checked MapWindow of windows never created, pipelined: each error must come back to
 * its own check, naming its window; some are discarded instead (the error dropped). */
struct checker {
    uint64_t rng;
    long errors, discarded;
    int failed_line;
};

static int checker_run(struct checker *k)
{
    struct {
        unsigned seq;
        uint32_t wid;
    } b[CHECK_BATCH];
    for (int round = 0; round < CHECK_ROUNDS; round++) {
        for (int i = 0; i < CHECK_BATCH; i++) {
            b[i].wid = xw_generate_id(c);
            b[i].seq = xw_map_window_checked(c, b[i].wid).sequence;
        }
        for (int i = CHECK_BATCH - 1; i >= 0; i--) { /* newest first: out of order */
            if (next_rand(&k->rng) % 4 == 0) {
                xw_discard_reply(c, b[i].seq);
                k->discarded++;
                continue;
            }
            xw_generic_error_t *e = xw_request_check(c, (xw_void_cookie_t){b[i].seq});
            int ok = e && e->error_code == 3 /* BadWindow */ && e->resource_id == b[i].wid &&
                     e->sequence == (uint16_t)b[i].seq;
            free(e);
            T_CHECK(ok);
            k->errors++;
        }
    }
    return 0;
}

static void *checker_main(void *arg)
{
    struct checker *k = arg;
    k->failed_line = checker_run(k);
    return NULL;
}

/* Waits in xw_wait_for_event for the workers' markers, each worker's in order, until
 * the stop marker; any other event (an X error that went astray) fails. */
struct listener {
    long seen[WORKERS];
    long events;
    int failed_line;
};

static int listen_run(struct listener *l)
{
    for (;;) {
        xw_generic_event_t *ev = xw_wait_for_event(c);
        T_CHECK(ev != NULL);
        xw_client_message_event_t m;
        memcpy(&m, ev, sizeof(m));
        free(ev);
        T_CHECK(m.response_type == (0x80 | XW_CLIENT_MESSAGE) && m.type == mark_type);
        if (m.data.data32[0] == MARK_STOP)
            return 0;
        T_CHECK(m.data.data32[0] < WORKERS && m.data.data32[1] == (uint32_t)l->seen[m.data.data32[0]]);
        l->seen[m.data.data32[0]]++;
        l->events++;
    }
}

static void *listen_main(void *arg)
{
    struct listener *l = arg;
    l->failed_line = listen_run(l);
    return NULL;
}

static void setup_names(void)
{
    const xw_screen_t *scr = xw_setup_roots_iterator(xw_get_setup(c)).data;
    win = xw_generate_id(c);
    ck_assert_ptr_null(
        xw_request_check(c, xw_create_window_checked(c, 0, win, scr->root, 0, 0, 10, 10, 0,
                                                     XW_WINDOW_CLASS_INPUT_OUTPUT, scr->root_visual, 0, NULL)));
    for (int i = 0; i <= NATOMS; i++) {
        char *name = i < NATOMS ? names[i] : "XWCLAIM_MARKER";
        if (i < NATOMS) /* longer than a 32-byte reply holds: GetAtomName's reply is a record */
            snprintf(names[i], sizeof(names[i]), "XWCLAIM_%d_atom_with_a_long_name_%d", (int)getpid(), i);
        xw_intern_atom_reply_t *a = xw_intern_atom_reply(c, xw_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
        ck_assert_ptr_nonnull(a);
        *(i < NATOMS ? &atoms[i] : &mark_type) = a->atom;
        free(a);
    }
}

START_TEST(out_of_order_claims_while_the_store_compacts)
{
    static struct worker wk[WORKERS];
    struct checker k = {.rng = 77};
    struct listener l = {0};
    setup_names();
    pthread_t t[WORKERS], kt, lt;
    ck_assert_int_eq(pthread_create(&lt, NULL, listen_main, &l), 0);
    ck_assert_int_eq(pthread_create(&kt, NULL, checker_main, &k), 0);
    for (int i = 0; i < WORKERS; i++) {
        memset(&wk[i], 0, sizeof(wk[i]));
        wk[i].id = i;
        wk[i].rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
        ck_assert_int_eq(pthread_create(&t[i], NULL, worker_main, &wk[i]), 0);
    }
    for (int i = 0; i < WORKERS; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    ck_assert_int_eq(pthread_join(kt, NULL), 0);
    /* every marker went out before its worker's anchor reply came back: the stop
     * marker is the last event */
    ck_assert_uint_ne(mark_send(c, win, mark_type, MARK_STOP, 0), 0);
    ck_assert_int_eq(xw_flush(c), 1);
    ck_assert_int_eq(pthread_join(lt, NULL), 0);

    ck_assert_msg(l.failed_line == 0, "listener: check at line %d failed", l.failed_line);
    ck_assert_msg(k.failed_line == 0, "checker: check at line %d failed", k.failed_line);
    ck_assert_int_eq(k.errors + k.discarded, CHECK_BATCH * CHECK_ROUNDS);
    long claimed = 0, into = 0, discarded = 0;
    size_t store_max = 0;
    for (int i = 0; i < WORKERS; i++) {
        ck_assert_msg(wk[i].failed_line == 0, "worker %d: check at line %d failed (%s)", i, wk[i].failed_line,
                      xw_connection_error_string(c) ? xw_connection_error_string(c) : "connection fine");
        ck_assert_int_eq(l.seen[i], wk[i].marks);
        claimed += wk[i].claimed, into += wk[i].into, discarded += wk[i].discarded;
        store_max = wk[i].store_max > store_max ? wk[i].store_max : store_max;
    }
    ck_assert_msg(store_max < STORE_BOUND, "the store held %zu entries: nothing compacted", store_max);
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    /* everything claimed, discarded or finished: after one more round trip the
     * store is empty and counts nothing unfinished or dead */
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
    xw__conn_lock(c);
    struct xw_pend_store s = c->in.pend;
    xw__conn_unlock(c);
    ck_assert_uint_eq(s.n, 0);
    ck_assert_uint_eq(s.undone, 0);
    ck_assert_uint_eq(s.gone, 0);
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    printf("claims: %d workers x %d requests: %ld claimed (%ld into), %ld discarded; %ld checks, %ld discarded; "
           "%ld events; the store held at most %zu entries\n",
           WORKERS, ROUNDS * BATCH, claimed, into, discarded, k.errors, k.discarded, l.events, store_max);
    xw_destroy_window(c, win);
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
}
END_TEST

int main(void)
{
    if (xvfb_missing("claims"))
        return 77;
    setvbuf(stdout, NULL, _IOLBF, 0);
    Suite *s = xwtest_suite("claims");
    /* catches hangs; TSan and valgrind are slow */
    TCase *tc = xvfb_tcase(s, &(struct xvfb_suite){.name = "claims", .timeout = 120, .conn = &c});
    tcase_add_test(tc, out_of_order_claims_while_the_store_compacts);
    return xwtest_run(s);
}
