/* SPDX-License-Identifier: MIT */
/* lib_xw_zc.c — the cases where xwire has a zero-allocation receive path (xw_wait_for_reply_into,
 * xw_wait_for_event_into): replies and events are copied into the caller's storage instead of malloc'd.
 * Default (thread-safe) mode, so the difference to plain "xwire" is the receive path alone. */
#include <xw/xw.h>
#include <xw/xwext.h>

#define L(name) xw_##name
#define LC(name) XW_##name
#define LIB_NAME "xwire 0-alloc"
#include "xcb_helpers.inc"

/* A reply's wire bytes: at least 32 even where libxcb's struct is shorter. */
union atom_reply {
    xw_intern_atom_reply_t r;
    uint8_t wire[32];
};

/* One reply into caller storage; 1 when a reply (not an error) was copied. */
static int reply_into(xw_connection_t *c, unsigned int seq, void *buf, size_t cap)
{
    size_t len;
    xw_generic_error_t err;
    return xw_wait_for_reply_into(c, seq, buf, cap, &len, &err, -1) == 1;
}

/* InternAtoms sent depth at a time, each batch's replies claimed before the next
 * is sent, until t->n. */
static long atoms_batched(const struct target *t, struct meter *m, long depth)
{
    static xw_intern_atom_cookie_t cookies[MAX_PIPELINED];
    if (depth > MAX_PIPELINED || depth < 1)
        return -1;
    xw_screen_t *s;
    xw_connection_t *c = open_conn(t, &s);
    if (!c)
        return -1;
    long ok = 0;
    meter_start(m);
    for (long done = 0; done < t->n; done += depth) {
        long k = t->n - done < depth ? t->n - done : depth;
        for (long i = 0; i < k; i++)
            cookies[i] = xw_intern_atom(c, 0, (uint16_t)atom_name_len(done + i), atom_name(done + i));
        for (long i = 0; i < k; i++) {
            union atom_reply a;
            ok += reply_into(c, cookies[i].sequence, &a, sizeof a) && a.r.atom != 0;
        }
    }
    meter_stop(m);
    return finish(c, ok);
}

/* All t->n sent before the first reply is claimed. */
static long run_atom_pipelined(const struct target *t, struct meter *m)
{
    return atoms_batched(t, m, t->n);
}

/* The depth curve: t->depth outstanding at most. */
static long run_atom_depth(const struct target *t, struct meter *m)
{
    return atoms_batched(t, m, t->depth);
}

/* One round trip per InternAtom. */
static long run_atom_sequential(const struct target *t, struct meter *m)
{
    return atoms_batched(t, m, 1);
}

/* Events streamed by the drain server, or sent to ourselves on Xvfb in batches, as
 * the libxcb-API case does. */
static long receive_events(xw_connection_t *c, long n)
{
    long ok = 0;
    for (long i = 0; i < n; i++) {
        union {
            xw_generic_event_t ev;
            uint8_t bytes[64];
        } buf;
        size_t len;
        if (xw_wait_for_event_into(c, &buf, sizeof buf, &len, -1) != 1)
            break;
        ok += is_bench_event(&buf.ev);
    }
    return ok;
}

static long run_events(const struct target *t, struct meter *m)
{
    xw_screen_t *s;
    xw_connection_t *c = open_conn(t, &s);
    if (!c)
        return -1;
    long ok = 0;
    if (server_is_fake(t->server)) {
        char name[64];
        int len = snprintf(name, sizeof name, DRAIN_EVENTS_PREFIX "%ld", t->n);
        union atom_reply a;
        meter_start(m);
        reply_into(c, xw_intern_atom(c, 0, (uint16_t)len, name).sequence, &a, sizeof a);
        ok = receive_events(c, t->n);
        meter_stop(m);
        return finish(c, ok);
    }
    uint32_t win = xw_generate_id(c);
    xw_create_window(c, XW_COPY_FROM_PARENT, win, s->root, 0, 0, 1, 1, 0, XW_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual,
                     0, NULL);
    xw_client_message_event_t cm = {
        .response_type = XW_CLIENT_MESSAGE,
        .format = 32,
        .window = win,
        .type = XW_ATOM_STRING,
    };
    cm.data.data32[0] = DRAIN_EVENT_MAGIC;
    meter_start(m);
    for (long i = 0; i < t->n; i += EVENT_BATCH) {
        long k = t->n - i < EVENT_BATCH ? t->n - i : EVENT_BATCH;
        for (long j = 0; j < k; j++)
            xw_send_event(c, 0, win, 0, (const char *)&cm);
        xw_flush(c);
        ok += receive_events(c, k);
    }
    meter_stop(m);
    return finish(c, ok);
}

static long run_getproperty(const struct target *t, struct meter *m)
{
    /* The reply's 32 bytes and its value, aligned for the reply struct. */
    static uint32_t buf[(32 + DRAIN_PROPERTY_BYTES) / 4];
    xw_screen_t *s;
    xw_connection_t *c = open_conn(t, &s);
    if (!c)
        return -1;
    uint32_t atom, win = make_property(c, t, s, &atom);
    long ok = 0;
    memset(buf, 0, sizeof buf); /* its pages faulted in before the timed part, as the raw client's */
    meter_start(m);
    for (long i = 0; win && i < t->n; i++) {
        xw_get_property_cookie_t ck =
            xw_get_property(c, 0, win, atom, XW_GET_PROPERTY_TYPE_ANY, 0, DRAIN_PROPERTY_BYTES / 4);
        xw_get_property_reply_t *r = (xw_get_property_reply_t *)buf;
        ok += reply_into(c, ck.sequence, buf, sizeof buf) && xw_get_property_value_length(r) == DRAIN_PROPERTY_BYTES;
    }
    meter_stop(m);
    return finish(c, ok);
}

const struct library lib_xw_zc = {
    .name = LIB_NAME,
    .cases =
        {
            [CASE_ATOM_PIPELINED] = run_atom_pipelined,
            [CASE_ATOM_SEQUENTIAL] = run_atom_sequential,
            [CASE_EVENTS] = run_events,
            [CASE_GETPROPERTY] = run_getproperty,
            [CASE_ATOM_DEPTH] = run_atom_depth,
        },
};
