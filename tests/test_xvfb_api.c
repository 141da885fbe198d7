/* SPDX-License-Identifier: MIT */
/* test_xvfb_api.c — the generated API (xproto, MIT-SHM, XC-MISC) end to end against a real Xvfb. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xw/shm.h>
#include <xw/xc_misc.h>
#include <xw/xkb.h>
#include <xw/xproto.h>
#include <xw/xw.h>
#include <xw/xwext.h> /* xw_request_error_string */

#include "fake_server.h" /* count_open_fds */
#include "xvfb_marks.h"
#include "xvfb_suite.h"
#include "xwtest.h"

/* Xvfb is started once for the whole suite (unchecked fixture) and shared: atoms
 * interned by one test stay, so every test uses its own names. */
static xw_connection_t *c;
static const xw_screen_t *scr;

static void setup(void)
{
    xvfb_setup();
    scr = xw_setup_roots_iterator(xw_get_setup(c)).data;
    ck_assert_ptr_nonnull(scr);
}

static void teardown(void)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xvfb_teardown();
}

/* Fails the test with the error's text. Only on that path e stays unfreed: the
 * failing test's process ends right there. */
static void fail_on_error(const xw_generic_error_t *e, const char *what)
{
    if (!e)
        return;
    char text[256];
    xw_error_text(c, e, text, sizeof(text));
    ck_abort_msg("%s: %s", what, text);
}

/* A 100x80 InputOutput window at (10, 20) on the root, created checked. */
static xw_window_t make_window(uint32_t event_mask)
{
    xw_window_t w = xw_generate_id(c);
    uint32_t values[] = {scr->white_pixel, event_mask};
    xw_void_cookie_t ck =
        xw_create_window_checked(c, XW_COPY_FROM_PARENT, w, scr->root, 10, 20, 100, 80, 0, XW_WINDOW_CLASS_INPUT_OUTPUT,
                                 scr->root_visual, XW_CW_BACK_PIXEL | XW_CW_EVENT_MASK, values);
    ck_assert_uint_ne(ck.sequence, 0);
    xw_generic_error_t *e = xw_request_check(c, ck);
    fail_on_error(e, "CreateWindow");
    return w;
}

static xw_atom_t intern(const char *name, uint8_t only_if_exists)
{
    xw_generic_error_t *e = NULL;
    xw_intern_atom_reply_t *r =
        xw_intern_atom_reply(c, xw_intern_atom(c, only_if_exists, (uint16_t)strlen(name), name), &e);
    fail_on_error(e, name);
    ck_assert_ptr_nonnull(r);
    xw_atom_t a = r->atom;
    free(r);
    return a;
}

/* The next event; an X error (response_type 0) fails the test with its text. */
static xw_generic_event_t *next_event(void)
{
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_msg(ev != NULL, "no event: %s", xw_connection_error_string(c));
    if (ev->response_type == 0)
        fail_on_error((xw_generic_error_t *)ev, "unexpected error");
    return ev;
}

/* A round trip, so that everything sent so far has been processed. */
static void sync_server(void)
{
    xw_generic_error_t *e = NULL;
    xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(c, xw_get_input_focus(c), &e);
    fail_on_error(e, "GetInputFocus");
    ck_assert_ptr_nonnull(r);
    free(r);
}

/* ---- 1. connect, window, Expose / MapNotify / ConfigureNotify ---- */

START_TEST(window_map_expose_configure)
{
    const xw_setup_t *s = xw_get_setup(c);
    ck_assert_uint_ge(s->roots_len, 1);
    ck_assert_uint_ne(scr->root, 0);
    ck_assert_uint_eq(scr->root_depth, 24);
    ck_assert_uint_eq(scr->width_in_pixels, 640);
    ck_assert_uint_eq(scr->height_in_pixels, 480);

    xw_window_t w = make_window(XW_EVENT_MASK_EXPOSURE | XW_EVENT_MASK_STRUCTURE_NOTIFY);
    xw_void_cookie_t map = xw_map_window(c, w);
    ck_assert_uint_ne(map.sequence, 0);
    ck_assert_int_eq(xw_flush(c), 1);

    /* Without a window manager the server maps at once: MapNotify, then Expose. */
    xw_generic_event_t *ev = next_event();
    ck_assert_uint_eq(ev->response_type, XW_MAP_NOTIFY);
    ck_assert_uint_eq(ev->full_sequence, map.sequence);
    xw_map_notify_event_t *mn = (xw_map_notify_event_t *)ev;
    ck_assert_uint_eq(mn->event, w);
    ck_assert_uint_eq(mn->window, w);
    ck_assert_uint_eq(mn->override_redirect, 0);
    free(ev);

    ev = next_event();
    ck_assert_uint_eq(ev->response_type, XW_EXPOSE);
    xw_expose_event_t *ex = (xw_expose_event_t *)ev;
    ck_assert_uint_eq(ex->window, w);
    ck_assert_uint_eq(ex->x, 0);
    ck_assert_uint_eq(ex->y, 0);
    ck_assert_uint_eq(ex->width, 100);
    ck_assert_uint_eq(ex->height, 80);
    ck_assert_uint_eq(ex->count, 0);
    free(ev);

    uint32_t geom[] = {5, 6, 150, 90};
    xw_void_cookie_t cfg = xw_configure_window(
        c, w, XW_CONFIG_WINDOW_X | XW_CONFIG_WINDOW_Y | XW_CONFIG_WINDOW_WIDTH | XW_CONFIG_WINDOW_HEIGHT, geom);
    ck_assert_int_eq(xw_flush(c), 1);
    ev = next_event();
    ck_assert_uint_eq(ev->response_type, XW_CONFIGURE_NOTIFY);
    ck_assert_uint_eq(ev->full_sequence, cfg.sequence);
    xw_configure_notify_event_t *cn = (xw_configure_notify_event_t *)ev;
    ck_assert_uint_eq(cn->event, w);
    ck_assert_uint_eq(cn->window, w);
    ck_assert_int_eq(cn->x, 5);
    ck_assert_int_eq(cn->y, 6);
    ck_assert_uint_eq(cn->width, 150);
    ck_assert_uint_eq(cn->height, 90);
    ck_assert_uint_eq(cn->border_width, 0);
    free(ev);
    /* Growing the window exposes the new area: only Expose may follow. */
    sync_server();
    while ((ev = xw_poll_for_queued_event(c))) {
        ck_assert_uint_eq(ev->response_type, XW_EXPOSE);
        free(ev);
    }
    xw_destroy_window(c, w);
}
END_TEST

/* ---- XC-MISC through the generated binding ---- */

/* XKB SetMap through its _aux form, with two key-symbol maps (each sized by its
 * own symbols) and odd counts of explicit components and modifier-map keys
 * (padded to a word each, as the protocol has them): the server takes it. */
START_TEST(xkb_set_map_aux_accepted)
{
    xw_xkb_use_extension_reply_t *u = xw_xkb_use_extension_reply(c, xw_xkb_use_extension(c, 1, 0), NULL);
    ck_assert_ptr_nonnull(u);
    ck_assert_int_eq(u->supported, 1);
    free(u);
    /* keys 38 and 39 keep the symbols they have in Xvfb's default map (a A, s S):
     * the server checks the actions of a key against its symbols as already set */
    uint8_t syms[32] = {0};
    static const uint32_t ks[2][2] = {{0x61, 0x41}, {0x73, 0x53}};
    for (int m = 0; m < 2; m++) { /* kt_index TWO_LEVEL, one group of width 2, two keysyms */
        uint8_t *p = syms + 16 * m;
        p[0] = 1, p[4] = 1, p[5] = 2, p[6] = 2;
        memcpy(p + 8, ks[m], 8);
    }
    uint8_t actions_count[3] = {2, 0, 0}, actions[16] = {0}, vmods[3] = {0};
    xw_xkb_set_explicit_t expl[3] = {{200, 0}, {201, 0}, {202, 0}};
    xw_xkb_key_mod_map_t modmap[1] = {{210, 0}};
    xw_xkb_key_v_mod_map_t vmodmap[1] = {{220, 0, 0}};
    xw_xkb_set_map_values_t v;
    memset(&v, 0, sizeof(v));
    v.syms = (xw_xkb_key_sym_map_t *)(void *)syms;
    v.actionsCount = actions_count;
    v.actions = (xw_xkb_action_t *)(void *)actions;
    v.vmods = vmods;
    v.explicit = expl;
    v.modmap = modmap;
    v.vmodmap = vmodmap;
    const xw_setup_t *st = xw_get_setup(c);
    uint16_t present = XW_XKB_MAP_PART_KEY_SYMS | XW_XKB_MAP_PART_KEY_ACTIONS | XW_XKB_MAP_PART_VIRTUAL_MODS |
                       XW_XKB_MAP_PART_EXPLICIT_COMPONENTS | XW_XKB_MAP_PART_MODIFIER_MAP |
                       XW_XKB_MAP_PART_VIRTUAL_MOD_MAP;
    xw_void_cookie_t ck = xw_xkb_set_map_aux_checked(
        c, XW_XKB_ID_USE_CORE_KBD, present, XW_XKB_SET_MAP_FLAGS_RECOMPUTE_ACTIONS, st->min_keycode, st->max_keycode, 0,
        0, 38, 2, 4, 38, 3, 2, 0, 0, 0, 200, 3, 3, 210, 2, 1, 220, 1, 1, 0x0013, &v);
    ck_assert_uint_ne(ck.sequence, 0);
    fail_on_error(xw_request_check(c, ck), "SetMap");
}
END_TEST

START_TEST(xc_misc_xid_range)
{
    const xw_query_extension_reply_t *q = xw_get_extension_data(c, &xw_xc_misc_id);
    ck_assert_ptr_nonnull(q);
    ck_assert_msg(q->present, "Xvfb always has XC-MISC");
    xw_generic_error_t *e = NULL;
    xw_xc_misc_get_xid_range_reply_t *r = xw_xc_misc_get_xid_range_reply(c, xw_xc_misc_get_xid_range(c), &e);
    fail_on_error(e, "GetXIDRange");
    ck_assert_ptr_nonnull(r);
    const xw_setup_t *s = xw_get_setup(c);
    ck_assert_uint_gt(r->count, 0);
    ck_assert_uint_eq(r->start_id & ~s->resource_id_mask, s->resource_id_base);
    free(r);
}
END_TEST

/* ---- 2. 50 atoms pipelined, read back ---- */

START_TEST(atoms_pipelined)
{
    enum { N = 50 };
    char names[N][32];
    xw_intern_atom_cookie_t ick[N];
    xw_get_atom_name_cookie_t nck[N];
    xw_atom_t atoms[N];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof(names[i]), "XWAPI_PIPE_%d_%d", (int)getpid(), i);
        ick[i] = xw_intern_atom(c, 0, (uint16_t)strlen(names[i]), names[i]);
        ck_assert_uint_ne(ick[i].sequence, 0);
    }
    for (int i = 0; i < N; i++) {
        xw_generic_error_t *e = NULL;
        xw_intern_atom_reply_t *r = xw_intern_atom_reply(c, ick[i], &e);
        fail_on_error(e, names[i]);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(r->sequence, (uint16_t)ick[i].sequence);
        atoms[i] = r->atom;
        ck_assert_uint_gt(atoms[i], 68); /* above the predefined atoms */
        for (int j = 0; j < i; j++)
            ck_assert_uint_ne(atoms[j], atoms[i]);
        free(r);
    }
    for (int i = 0; i < N; i++)
        nck[i] = xw_get_atom_name(c, atoms[i]);
    for (int i = 0; i < N; i++) {
        xw_generic_error_t *e = NULL;
        xw_get_atom_name_reply_t *r = xw_get_atom_name_reply(c, nck[i], &e);
        fail_on_error(e, "GetAtomName");
        ck_assert_ptr_nonnull(r);
        ck_assert_int_eq(xw_get_atom_name_name_length(r), (int)strlen(names[i]));
        ck_assert_int_eq(memcmp(xw_get_atom_name_name(r), names[i], strlen(names[i])), 0);
        free(r);
    }
    /* only_if_exists: an existing name answers its atom, a new one None. */
    ck_assert_uint_eq(intern(names[7], 1), atoms[7]);
    ck_assert_uint_eq(intern("PRIMARY", 1), XW_ATOM_PRIMARY);
    char never[64];
    snprintf(never, sizeof(never), "XWAPI_NEVER_INTERNED_%d", (int)getpid());
    ck_assert_uint_eq(intern(never, 1), XW_ATOM_NONE);
    ck_assert_uint_eq(intern(never, 1), XW_ATOM_NONE);

    /* GetAtomName of None is a BadAtom, returned through the reply's error. */
    xw_get_atom_name_cookie_t bad = xw_get_atom_name(c, XW_ATOM_NONE);
    xw_generic_error_t *e = NULL;
    void *r = xw_get_atom_name_reply(c, bad, &e);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->response_type, 0);
    ck_assert_uint_eq(e->error_code, 5); /* BadAtom */
    ck_assert_uint_eq(e->major_code, XW_GET_ATOM_NAME);
    ck_assert_uint_eq(e->full_sequence, bad.sequence);
    free(e);
}
END_TEST

/* ---- 3. a 1 MiB property, format 32 and format 8 (BIG-REQUESTS) ---- */

static void property_round_trip(xw_window_t w, xw_atom_t prop, xw_atom_t type, uint8_t format, const void *data,
                                uint32_t bytes)
{
    uint32_t units = bytes / (format / 8);
    xw_void_cookie_t ck = xw_change_property_checked(c, XW_PROP_MODE_REPLACE, w, prop, type, format, units, data);
    ck_assert_msg(ck.sequence != 0, "ChangeProperty refused: %s", xw_request_error_string(c));
    fail_on_error(xw_request_check(c, ck), "ChangeProperty 1 MiB");

    xw_generic_error_t *e = NULL;
    xw_get_property_reply_t *r =
        xw_get_property_reply(c, xw_get_property(c, 0, w, prop, XW_GET_PROPERTY_TYPE_ANY, 0, bytes / 4), &e);
    fail_on_error(e, "GetProperty");
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->format, format);
    ck_assert_uint_eq(r->type, type);
    ck_assert_uint_eq(r->bytes_after, 0);
    ck_assert_uint_eq(r->value_len, units);
    ck_assert_uint_eq(r->length, bytes / 4);
    ck_assert_int_eq(xw_get_property_value_length(r), (int)bytes);
    ck_assert_int_eq(memcmp(xw_get_property_value(r), data, bytes), 0);
    free(r);

    /* A slice from the middle: offset and bytes_after count in 32-bit units. */
    r = xw_get_property_reply(c, xw_get_property(c, 0, w, prop, type, 1000, 3), &e);
    fail_on_error(e, "GetProperty slice");
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->bytes_after, bytes - 4000 - 12);
    ck_assert_int_eq(xw_get_property_value_length(r), 12);
    ck_assert_int_eq(memcmp(xw_get_property_value(r), (const uint8_t *)data + 4000, 12), 0);
    free(r);
}

START_TEST(property_one_mib)
{
    xw_prefetch_maximum_request_length(c);
    ck_assert_uint_gt(xw_get_maximum_request_length(c), 65535);
    enum { BYTES = 1 << 20 };
    uint32_t *words = malloc(BYTES);
    uint8_t *bytes = malloc(BYTES);
    ck_assert_ptr_nonnull(words);
    ck_assert_ptr_nonnull(bytes);
    for (uint32_t i = 0; i < BYTES / 4; i++)
        words[i] = i * 2654435761u;
    for (uint32_t i = 0; i < BYTES; i++)
        bytes[i] = (uint8_t)(i * 13 + 1 + (i >> 12));
    xw_window_t w = make_window(0);
    property_round_trip(w, intern("XWAPI_BIG32", 0), XW_ATOM_CARDINAL, 32, words, BYTES);
    property_round_trip(w, intern("XWAPI_BIG8", 0), XW_ATOM_STRING, 8, bytes, BYTES);
    free(words);
    free(bytes);
    xw_destroy_window(c, w);
    sync_server();
}
END_TEST

/* 1 MiB writes and 1 MiB replies pipelined without reading in between: the server
 * stalls writing replies to us while we still write, which only works if the
 * write path keeps reading while it waits to write. */
START_TEST(property_pipelined_both_ways)
{
    enum { BYTES = 1 << 20, ROUNDS = 16 };
    uint8_t *data = malloc(BYTES);
    ck_assert_ptr_nonnull(data);
    for (uint32_t i = 0; i < BYTES; i++)
        data[i] = (uint8_t)(i * 7 + 3);
    xw_window_t w = make_window(0);
    xw_atom_t prop = intern("XWAPI_PIPE_BIG", 0);
    xw_get_property_cookie_t ck[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
        data[0] = (uint8_t)i; /* each reply must carry its own round's value */
        ck_assert_uint_ne(xw_change_property(c, XW_PROP_MODE_REPLACE, w, prop, XW_ATOM_STRING, 8, BYTES, data).sequence,
                          0);
        ck[i] = xw_get_property(c, 0, w, prop, XW_ATOM_STRING, 0, BYTES / 4);
        ck_assert_uint_ne(ck[i].sequence, 0);
    }
    for (int i = 0; i < ROUNDS; i++) {
        xw_generic_error_t *e = NULL;
        xw_get_property_reply_t *r = xw_get_property_reply(c, ck[i], &e);
        fail_on_error(e, "GetProperty");
        ck_assert_ptr_nonnull(r);
        data[0] = (uint8_t)i;
        ck_assert_int_eq(xw_get_property_value_length(r), BYTES);
        ck_assert_int_eq(memcmp(xw_get_property_value(r), data, BYTES), 0);
        free(r);
    }
    free(data);
    xw_destroy_window(c, w);
    sync_server();
}
END_TEST

/* ---- 4. checked and unchecked errors ---- */

START_TEST(errors_checked_unchecked)
{
    xw_window_t bad = xw_generate_id(c); /* ours, but never created */
    xw_void_cookie_t ck = xw_map_window_checked(c, bad);
    ck_assert_uint_ne(ck.sequence, 0);
    xw_generic_error_t *e = xw_request_check(c, ck);
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->response_type, 0);
    ck_assert_uint_eq(e->error_code, 3); /* BadWindow */
    ck_assert_uint_eq(e->major_code, XW_MAP_WINDOW);
    ck_assert_uint_eq(e->minor_code, 0);
    ck_assert_uint_eq(e->resource_id, bad);
    ck_assert_uint_eq(e->full_sequence, ck.sequence);
    ck_assert_uint_eq(e->sequence, (uint16_t)ck.sequence);
    char text[256];
    int n = xw_error_text(c, e, text, sizeof(text));
    ck_assert_int_eq(n, (int)strlen(text));
    ck_assert_msg(strstr(text, "BadWindow") && strstr(text, "MapWindow"), "error text: %s", text);
    char want_res[32];
    snprintf(want_res, sizeof(want_res), "0x%x", bad);
    ck_assert_msg(strstr(text, want_res), "error text lacks resource %s: %s", want_res, text);
    /* Truncation: snprintf's contract, full length returned. */
    char small[8];
    ck_assert_int_eq(xw_error_text(c, e, small, sizeof(small)), n);
    ck_assert_str_eq(small, "BadWind");
    free(e);

    /* The same request unchecked: the error comes as an event. */
    xw_void_cookie_t uk = xw_map_window(c, bad);
    ck_assert_uint_ne(uk.sequence, 0);
    xw_generic_event_t *ev = xw_wait_for_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    xw_generic_error_t *ue = (xw_generic_error_t *)ev;
    ck_assert_uint_eq(ue->error_code, 3);
    ck_assert_uint_eq(ue->major_code, XW_MAP_WINDOW);
    ck_assert_uint_eq(ue->resource_id, bad);
    ck_assert_uint_eq(ue->full_sequence, uk.sequence);
    free(ev);

    /* A checked request that succeeds has no error, and nothing else was queued. */
    xw_window_t w = make_window(0);
    ck_assert_ptr_null(xw_request_check(c, xw_map_window_checked(c, w)));
    sync_server();
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    xw_destroy_window(c, w);
}
END_TEST

/* ---- 4b. xw_request_check on an unchecked request: a barrier, as in libxcb ---- */

struct barrier_wait {
    xw_void_cookie_t ck;
    int done;
    int64_t returned_ns;
};

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void *barrier_thread(void *arg)
{
    struct barrier_wait *b = arg;
    xw_generic_error_t *e = xw_request_check(c, b->ck);
    b->returned_ns = now_ns();
    __atomic_store_n(&b->done, e == NULL ? 1 : 2, __ATOMIC_RELEASE);
    free(e);
    return NULL;
}

/* A second client grabs the server, so nothing of ours is processed; the check of
 * an unchecked request must block until the grab ends, then return NULL with the
 * request's error already in the event queue and its effects visible to others. */
START_TEST(check_unchecked_is_a_barrier)
{
    xw_window_t w = make_window(0);
    xw_atom_t prop = intern("XW_BARRIER_TEST", 0);
    xw_connection_t *g = xw_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xw_connection_has_error(g), 0);
    xw_grab_server(g);
    free(xw_get_input_focus_reply(g, xw_get_input_focus(g), NULL));

    uint32_t value = 0x5eed;
    xw_change_property(c, XW_PROP_MODE_REPLACE, w, prop, XW_ATOM_CARDINAL, 32, 1, &value);
    xw_window_t bad = xw_generate_id(c); /* never created */
    struct barrier_wait b = {.ck = xw_map_window(c, bad)};
    ck_assert_uint_ne(b.ck.sequence, 0);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, barrier_thread, &b), 0);
    struct timespec hold = {0, 300 * 1000000L};
    nanosleep(&hold, NULL);
    ck_assert_int_eq(__atomic_load_n(&b.done, __ATOMIC_ACQUIRE), 0); /* blocked by the grab */
    int64_t ungrab_ns = now_ns();
    xw_ungrab_server(g);
    xw_flush(g);
    ck_assert_int_eq(pthread_join(t, NULL), 0);
    ck_assert_int_eq(b.done, 1); /* NULL: the error is not the check's */
    ck_assert_int_ge(b.returned_ns, ungrab_ns);

    /* the error was read before the check returned: queued, no read needed */
    xw_generic_event_t *ev = xw_poll_for_queued_event(c);
    ck_assert_ptr_nonnull(ev);
    ck_assert_uint_eq(ev->response_type, 0);
    ck_assert_uint_eq(((xw_generic_error_t *)ev)->error_code, 3); /* BadWindow */
    ck_assert_uint_eq(((xw_generic_error_t *)ev)->resource_id, bad);
    ck_assert_uint_eq(ev->full_sequence, b.ck.sequence);
    free(ev);
    ck_assert_ptr_null(xw_poll_for_queued_event(c));
    /* the property request before it was processed too: another client sees it */
    xw_get_property_reply_t *r = xw_get_property_reply(g, xw_get_property(g, 0, w, prop, XW_ATOM_CARDINAL, 0, 1), NULL);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(xw_get_property_value_length(r), 4);
    ck_assert_uint_eq(*(uint32_t *)xw_get_property_value(r), 0x5eed);
    free(r);
    /* exactly one sync went out after the request: it took one sequence number */
    ck_assert_uint_eq(xw_no_operation(c).sequence, b.ck.sequence + 2);
    xw_disconnect(g);
    xw_destroy_window(c, w);
    sync_server();
}
END_TEST

/* ---- 5. PropertyNotify and a ClientMessage through SendEvent ---- */

START_TEST(events_property_client_message)
{
    xw_window_t w = make_window(XW_EVENT_MASK_PROPERTY_CHANGE);
    xw_atom_t prop = intern("XWAPI_NOTIFY_PROP", 0);
    xw_void_cookie_t cp = xw_change_property(c, XW_PROP_MODE_REPLACE, w, prop, XW_ATOM_STRING, 8, 5, "hello");
    ck_assert_int_eq(xw_flush(c), 1);
    xw_generic_event_t *ev = next_event();
    ck_assert_uint_eq(ev->response_type, XW_PROPERTY_NOTIFY);
    ck_assert_uint_eq(ev->full_sequence, cp.sequence);
    xw_property_notify_event_t *pn = (xw_property_notify_event_t *)ev;
    ck_assert_uint_eq(pn->window, w);
    ck_assert_uint_eq(pn->atom, prop);
    ck_assert_uint_eq(pn->state, XW_PROPERTY_NEW_VALUE);
    ck_assert_uint_ne(pn->time, 0);
    free(ev);

    xw_delete_property(c, w, prop);
    ck_assert_int_eq(xw_flush(c), 1);
    ev = next_event();
    ck_assert_uint_eq(ev->response_type, XW_PROPERTY_NOTIFY);
    pn = (xw_property_notify_event_t *)ev;
    ck_assert_uint_eq(pn->window, w);
    ck_assert_uint_eq(pn->atom, prop);
    ck_assert_uint_eq(pn->state, XW_PROPERTY_DELETE);
    free(ev);

    /* SendEvent takes exactly 32 bytes; event_mask 0 sends to the window's creator (us). */
    xw_atom_t type = intern("XWAPI_MESSAGE", 0);
    xw_client_message_event_t msg;
    memset(&msg, 0, sizeof(msg));
    ck_assert_uint_eq(sizeof(msg), 32);
    msg.response_type = XW_CLIENT_MESSAGE;
    msg.format = 32;
    msg.window = w;
    msg.type = type;
    for (int i = 0; i < 5; i++)
        msg.data.data32[i] = 0xdead0000u + (uint32_t)i * 0x1111u;
    xw_void_cookie_t se = xw_send_event_checked(c, 0, w, 0, (const char *)&msg);
    fail_on_error(xw_request_check(c, se), "SendEvent");
    ev = next_event();
    ck_assert_uint_eq(ev->response_type, 0x80 | XW_CLIENT_MESSAGE); /* sent by SendEvent */
    ck_assert_uint_eq(ev->full_sequence, se.sequence);
    xw_client_message_event_t *got = (xw_client_message_event_t *)ev;
    ck_assert_uint_eq(got->format, 32);
    ck_assert_uint_eq(got->window, w);
    ck_assert_uint_eq(got->type, type);
    ck_assert_int_eq(memcmp(&got->data, &msg.data, sizeof(msg.data)), 0);
    free(ev);
    xw_destroy_window(c, w);
}
END_TEST

/* ---- 6. fds through MIT-SHM ---- */

enum { SHM_W = 32, SHM_H = 16, SHM_SIZE = 4096 };

/* CreateSegment: the reply carries the segment's fd; map it and close our copy. */
static uint8_t *shm_create_mapped(xw_shm_seg_t seg)
{
    xw_generic_error_t *e = NULL;
    xw_shm_create_segment_reply_t *r = xw_shm_create_segment_reply(c, xw_shm_create_segment(c, seg, SHM_SIZE, 0), &e);
    fail_on_error(e, "ShmCreateSegment");
    ck_assert_ptr_nonnull(r);
    ck_assert_uint_eq(r->nfd, 1);
    int *fds = xw_shm_create_segment_reply_fds(c, r);
    ck_assert_ptr_nonnull(fds);
    int fd = fds[0];
    free(r);
    ck_assert_int_ge(fd, 0);
    void *p = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    ck_assert_ptr_ne(p, MAP_FAILED);
    return p;
}

/* AttachFd with a memfd of ours; the connection owns (and closes) the fd it is given. */
static uint8_t *shm_attach_memfd(xw_shm_seg_t seg)
{
    int fd = memfd_create("xwapi-shm", MFD_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, SHM_SIZE), 0);
    void *p = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ck_assert_ptr_ne(p, MAP_FAILED);
    fail_on_error(xw_request_check(c, xw_shm_attach_fd_checked(c, seg, fd, 0)), "ShmAttachFd");
    return p;
}

/* False when the server cannot pass segments as fds (MIT-SHM < 1.2). */
static int shm_fd_capable(void)
{
    const xw_query_extension_reply_t *q = xw_get_extension_data(c, &xw_shm_id);
    ck_assert_ptr_nonnull(q);
    if (!q->present) {
        fprintf(stderr, "SKIP shm_fds: this Xvfb has no MIT-SHM\n");
        return 0;
    }
    xw_generic_error_t *e = NULL;
    xw_shm_query_version_reply_t *v = xw_shm_query_version_reply(c, xw_shm_query_version(c), &e);
    fail_on_error(e, "ShmQueryVersion");
    ck_assert_ptr_nonnull(v);
    int ok = v->major_version > 1 || (v->major_version == 1 && v->minor_version >= 2);
    if (!ok)
        fprintf(stderr, "SKIP shm_fds: MIT-SHM %u.%u has no fd passing\n", v->major_version, v->minor_version);
    free(v);
    return ok;
}

static uint32_t pattern(int i)
{
    return ((uint32_t)i * 0x010203u + 0x123456u) & 0xffffffu;
}

START_TEST(shm_fds)
{
    if (!shm_fd_capable())
        return;
    int fds_before = count_open_fds();
    xw_shm_seg_t sa = xw_generate_id(c), sb = xw_generate_id(c);
    uint32_t *a = (uint32_t *)shm_create_mapped(sa);
    uint32_t *b = (uint32_t *)shm_attach_memfd(sb);
    ck_assert_int_eq(count_open_fds(), fds_before); /* both fds gone: ours closed, the sent one closed */
    for (int i = 0; i < SHM_W * SHM_H; i++)
        a[i] = pattern(i);
    memset(b, 0xee, SHM_SIZE);

    xw_pixmap_t pix = xw_generate_id(c);
    xw_gcontext_t gc = xw_generate_id(c);
    xw_create_pixmap(c, scr->root_depth, pix, scr->root, SHM_W, SHM_H);
    xw_create_gc(c, gc, pix, 0, NULL);
    /* segment A (server-made, fd received) -> pixmap -> segment B (ours, fd sent) */
    fail_on_error(xw_request_check(c, xw_shm_put_image_checked(c, pix, gc, SHM_W, SHM_H, 0, 0, SHM_W, SHM_H, 0, 0,
                                                               scr->root_depth, XW_IMAGE_FORMAT_Z_PIXMAP, 0, sa, 0)),
                  "ShmPutImage");
    xw_generic_error_t *e = NULL;
    xw_shm_get_image_reply_t *gr = xw_shm_get_image_reply(
        c, xw_shm_get_image(c, pix, 0, 0, SHM_W, SHM_H, ~0u, XW_IMAGE_FORMAT_Z_PIXMAP, sb, 0), &e);
    fail_on_error(e, "ShmGetImage");
    ck_assert_ptr_nonnull(gr);
    ck_assert_uint_eq(gr->depth, scr->root_depth);
    ck_assert_uint_eq(gr->size, SHM_W * SHM_H * 4);
    free(gr);
    for (int i = 0; i < SHM_W * SHM_H; i++)
        ck_assert_msg((b[i] & 0xffffffu) == pattern(i), "pixel %d: 0x%08x, want 0x%06x", i, b[i], pattern(i));

    /* The core GetImage sees the same pixels (the reply is 2 KiB of data). */
    xw_get_image_reply_t *ir =
        xw_get_image_reply(c, xw_get_image(c, XW_IMAGE_FORMAT_Z_PIXMAP, pix, 0, 0, SHM_W, SHM_H, ~0u), &e);
    fail_on_error(e, "GetImage");
    ck_assert_ptr_nonnull(ir);
    ck_assert_int_eq(xw_get_image_data_length(ir), SHM_W * SHM_H * 4);
    const uint8_t *px = xw_get_image_data(ir);
    for (int i = 0; i < SHM_W * SHM_H; i++) {
        uint32_t v;
        memcpy(&v, px + 4 * i, 4);
        ck_assert_uint_eq(v & 0xffffffu, pattern(i));
    }
    free(ir);

    fail_on_error(xw_request_check(c, xw_shm_detach_checked(c, sa)), "ShmDetach A");
    fail_on_error(xw_request_check(c, xw_shm_detach_checked(c, sb)), "ShmDetach B");
    /* An extension error reads with the extension's names. */
    e = xw_request_check(c, xw_shm_detach_checked(c, sa));
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, xw_get_extension_data(c, &xw_shm_id)->first_error);
    char text[256];
    xw_error_text(c, e, text, sizeof(text));
    ck_assert_msg(strstr(text, "BadSeg") && strstr(text, "Detach"), "error text: %s", text);
    free(e);
    xw_free_gc(c, gc);
    xw_free_pixmap(c, pix);
    sync_server();
    munmap(a, SHM_SIZE);
    munmap(b, SHM_SIZE);
    ck_assert_int_eq(count_open_fds(), fds_before);
}
END_TEST

/* The other ways a reply's fd can end: taken through the zero-allocation path
 * (the fd follows the reply bytes in the caller's buffer), or never claimed
 * (discarded reply: the library must close it). */
START_TEST(shm_fd_unclaimed_and_into)
{
    if (!shm_fd_capable())
        return;
    int fds_before = count_open_fds();
    xw_shm_seg_t s1 = xw_generate_id(c), s2 = xw_generate_id(c);

    xw_shm_create_segment_cookie_t ck = xw_shm_create_segment(c, s1, SHM_SIZE, 0);
    uint8_t buf[64];
    size_t len = 0;
    ck_assert_int_eq(xw_wait_for_reply_into(c, ck.sequence, buf, 32, &len, NULL, -1), -ENOSPC);
    ck_assert_uint_eq(len, 32 + sizeof(int)); /* still queued: retry with room */
    ck_assert_int_eq(xw_wait_for_reply_into(c, ck.sequence, buf, sizeof(buf), &len, NULL, -1), 1);
    ck_assert_uint_eq(len, 32 + sizeof(int));
    ck_assert_uint_eq(buf[1], 1); /* nfd */
    int fd;
    memcpy(&fd, buf + 32, sizeof(fd));
    ck_assert_int_eq(count_open_fds(), fds_before + 1);
    ck_assert_int_eq(close(fd), 0);

    ck = xw_shm_create_segment(c, s2, SHM_SIZE, 0);
    xw_discard_reply(c, ck.sequence);
    sync_server();
    ck_assert_int_eq(count_open_fds(), fds_before);

    fail_on_error(xw_request_check(c, xw_shm_detach_checked(c, s1)), "ShmDetach 1");
    fail_on_error(xw_request_check(c, xw_shm_detach_checked(c, s2)), "ShmDetach 2");
    /* AttachFd that the server refuses (the id is taken): the fd was still sent and closed. */
    xw_shm_seg_t s3 = xw_generate_id(c);
    int m1 = memfd_create("xwapi-a", MFD_CLOEXEC), m2 = memfd_create("xwapi-b", MFD_CLOEXEC);
    ck_assert_int_ge(m1, 0);
    ck_assert_int_ge(m2, 0);
    ck_assert_int_eq(ftruncate(m1, SHM_SIZE), 0);
    ck_assert_int_eq(ftruncate(m2, SHM_SIZE), 0);
    fail_on_error(xw_request_check(c, xw_shm_attach_fd_checked(c, s3, m1, 0)), "ShmAttachFd");
    xw_generic_error_t *e = xw_request_check(c, xw_shm_attach_fd_checked(c, s3, m2, 0));
    ck_assert_ptr_nonnull(e);
    ck_assert_uint_eq(e->error_code, 14); /* BadIDChoice */
    free(e);
    fail_on_error(xw_request_check(c, xw_shm_detach_checked(c, s3)), "ShmDetach 3");
    ck_assert_int_eq(count_open_fds(), fds_before);
}
END_TEST

/* ---- 7. 200,000 void requests across 16-bit wraps ---- */

/* The int functions below return 0, or the line of their first failed T_CHECK:
 * they run on other threads too, where Check's asserts must not be used. */

/* n void requests, two NoOperations to one ChangeWindowAttributes. *last is the
 * previous cookie; each must follow it by one, or by two where the runtime slipped
 * in its automatic sync (counted in *syncs). */
static int void_run(xw_window_t w, int n, unsigned *last, int *syncs)
{
    for (int i = 1; i <= n; i++) {
        xw_void_cookie_t ck;
        uint32_t pixel = (uint32_t)i & 0xffffffu;
        if (i % 3 == 0)
            ck = xw_change_window_attributes(c, w, XW_CW_BACK_PIXEL, &pixel);
        else
            ck = xw_no_operation(c);
        T_CHECK(ck.sequence == *last + 1 || ck.sequence == *last + 2);
        *syncs += ck.sequence == *last + 2;
        *last = ck.sequence;
    }
    return 0;
}

/* A reply-bearing request right after the voids; its reply must be its own. */
static int atom_matches(unsigned *last, xw_atom_t want)
{
    xw_intern_atom_cookie_t ic = xw_intern_atom(c, 1, 10, "XWAPI_WRAP");
    T_CHECK(ic.sequence == *last + 1);
    *last = ic.sequence;
    xw_intern_atom_reply_t *r = xw_intern_atom_reply(c, ic, NULL);
    T_CHECK(r != NULL);
    int ok = r->atom == want && r->sequence == (uint16_t)ic.sequence && r->response_type == 1;
    free(r);
    T_CHECK(ok);
    return 0;
}

static int wrap_run(xw_window_t w, xw_atom_t want)
{
    int line, syncs = 0;
    uint64_t written = xw_total_written(c);
    /* The cookie of a request that just went out: the start of the count. */
    unsigned last = xw_get_input_focus(c).sequence;
    xw_discard_reply(c, last);
    for (int k = 0; k < 5; k++) {
        if ((line = void_run(w, 40000, &last, &syncs)) || (line = atom_matches(&last, want)))
            return line;
    }
    T_CHECK(syncs == 0);    /* a reply every 40,000: no sync needed */
    T_CHECK(last > 200000); /* the 32-bit cookie crossed three 16-bit wraps */
    /* 133,335 NoOperations (4 bytes), 66,665 ChangeWindowAttributes (16 bytes) and
     * 5 InternAtoms (20 bytes) all went out: nothing was dropped on the way. */
    T_CHECK(xw_total_written(c) - written >= 133335u * 4 + 66665u * 16 + 5u * 20);
    /* 70,000 voids in a row: more than 16 bits of sequence without a reply, which
     * the runtime must break with a sync of its own. */
    if ((line = void_run(w, 70000, &last, &syncs)) || (line = atom_matches(&last, want)))
        return line;
    T_CHECK(syncs >= 1);
    xw_generic_error_t *e =
        xw_request_check(c, xw_change_window_attributes_checked(c, w, XW_CW_BACK_PIXEL, &(uint32_t){scr->black_pixel}));
    T_CHECK(e == NULL);
    xw_get_input_focus_reply_t *f = xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL);
    T_CHECK(f != NULL);
    free(f);
    xw_generic_event_t *ev = xw_poll_for_queued_event(c);
    int stray = ev != NULL; /* an error from any of the 270,000 */
    free(ev);
    T_CHECK(!stray);
    return 0;
}

struct wrap_args {
    xw_window_t w;
    xw_atom_t want;
    int failed_line;
};

static void *wrap_thread(void *arg)
{
    struct wrap_args *a = arg;
    a->failed_line = wrap_run(a->w, a->want);
    return NULL;
}

/* mode 0: default, this thread; 1: default, on a second thread (so the process is
 * multi-threaded and the locked path runs); 2: single-threaded mode. */
static void wrap_test(int mode)
{
    if (mode == 2)
        ck_assert_int_eq(xw_connection_set_single_threaded(c, 1), 0);
    struct wrap_args a = {.w = make_window(0), .want = intern("XWAPI_WRAP", 0)};
    if (mode == 1) {
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, wrap_thread, &a), 0);
        ck_assert_int_eq(pthread_join(t, NULL), 0);
    } else {
        wrap_thread(&a);
    }
    ck_assert_msg(a.failed_line == 0, "check at line %d failed (%s)", a.failed_line,
                  xw_connection_error_string(c) ? xw_connection_error_string(c) : "connection fine");
    xw_destroy_window(c, a.w);
    sync_server();
}

START_TEST(wrap_200k_default)
{
    wrap_test(0);
}
END_TEST

START_TEST(wrap_200k_default_other_thread)
{
    wrap_test(1);
}
END_TEST

START_TEST(wrap_200k_single_threaded)
{
    wrap_test(2);
}
END_TEST

/* ---- 8. four interning threads and an event thread on one connection ---- */

enum { WORKERS = 4, PER_WORKER = 2000, BATCH = 500 };

struct worker {
    int id;
    xw_window_t w;
    xw_atom_t type;
    xw_atom_t atoms[PER_WORKER];
    int failed_line;
};

static void atom_name(char *buf, size_t cap, int worker, int i)
{
    snprintf(buf, cap, "XWAPI_THR_%d_%d_%04d", (int)getpid(), worker, i);
}

/* One batch: all InternAtoms, then all replies, then all GetAtomNames, then all replies. */
static int worker_batch(struct worker *wk, int first)
{
    xw_intern_atom_cookie_t ick[BATCH];
    xw_get_atom_name_cookie_t nck[BATCH];
    char name[64];
    for (int i = 0; i < BATCH; i++) {
        atom_name(name, sizeof(name), wk->id, first + i);
        ick[i] = xw_intern_atom(c, 0, (uint16_t)strlen(name), name);
        T_CHECK(ick[i].sequence != 0);
    }
    T_CHECK(mark_send(c, wk->w, wk->type, (uint32_t)wk->id, (uint32_t)(first / BATCH)) != 0);
    for (int i = 0; i < BATCH; i++) {
        xw_intern_atom_reply_t *r = xw_intern_atom_reply(c, ick[i], NULL);
        T_CHECK(r != NULL);
        int ok = r->sequence == (uint16_t)ick[i].sequence && r->atom != XW_ATOM_NONE;
        wk->atoms[first + i] = r->atom;
        free(r);
        T_CHECK(ok);
    }
    for (int i = 0; i < BATCH; i++)
        nck[i] = xw_get_atom_name(c, wk->atoms[first + i]);
    for (int i = 0; i < BATCH; i++) {
        xw_get_atom_name_reply_t *r = xw_get_atom_name_reply(c, nck[i], NULL);
        T_CHECK(r != NULL);
        atom_name(name, sizeof(name), wk->id, first + i);
        int ok = xw_get_atom_name_name_length(r) == (int)strlen(name) &&
                 memcmp(xw_get_atom_name_name(r), name, strlen(name)) == 0;
        free(r);
        T_CHECK(ok);
    }
    return 0;
}

static void *worker_main(void *arg)
{
    struct worker *wk = arg;
    for (int first = 0; first < PER_WORKER && !wk->failed_line; first += BATCH)
        wk->failed_line = worker_batch(wk, first);
    return NULL;
}

static int cmp_atom(const void *a, const void *b)
{
    xw_atom_t x = *(const xw_atom_t *)a, y = *(const xw_atom_t *)b;
    return x < y ? -1 : x > y;
}

START_TEST(threads_atoms_and_events)
{
    xw_window_t w = make_window(0);
    xw_atom_t type = intern("XWAPI_THREAD_MARK", 0);
    static struct worker wk[WORKERS];
    struct mark_listener l = {.c = c, .type = type, .wait_ms = 50, .senders = WORKERS};
    pthread_t lt, t[WORKERS];
    ck_assert_int_eq(pthread_create(&lt, NULL, mark_listen, &l), 0);
    for (int i = 0; i < WORKERS; i++) {
        wk[i] = (struct worker){.id = i, .w = w, .type = type};
        ck_assert_int_eq(pthread_create(&t[i], NULL, worker_main, &wk[i]), 0);
    }
    for (int i = 0; i < WORKERS; i++)
        ck_assert_int_eq(pthread_join(t[i], NULL), 0);
    /* Every marker was sent before the workers' last replies came back, so the stop
     * message, sent now, is the last event the listener sees. */
    ck_assert_uint_ne(mark_send(c, w, type, MARK_STOP, 0), 0);
    ck_assert_int_eq(xw_flush(c), 1);
    ck_assert_int_eq(pthread_join(lt, NULL), 0);

    for (int i = 0; i < WORKERS; i++)
        ck_assert_msg(wk[i].failed_line == 0, "worker %d: check at line %d failed (%s)", i, wk[i].failed_line,
                      xw_connection_error_string(c) ? xw_connection_error_string(c) : "connection fine");
    ck_assert_msg(l.failed_line == 0, "listener: check at xvfb_marks.c:%d failed", l.failed_line);
    for (int i = 0; i < WORKERS; i++)
        ck_assert_int_eq(l.seen[i], PER_WORKER / BATCH);
    /* Distinct names in all threads gave distinct atoms. */
    xw_atom_t *all = malloc(sizeof(xw_atom_t) * WORKERS * PER_WORKER);
    ck_assert_ptr_nonnull(all);
    for (int i = 0; i < WORKERS; i++)
        memcpy(all + i * PER_WORKER, wk[i].atoms, sizeof(wk[i].atoms));
    qsort(all, WORKERS * PER_WORKER, sizeof(xw_atom_t), cmp_atom);
    int dups = 0;
    for (int i = 1; i < WORKERS * PER_WORKER; i++)
        dups += all[i] == all[i - 1];
    free(all);
    ck_assert_int_eq(dups, 0);
    xw_destroy_window(c, w);
    sync_server();
}
END_TEST

int main(void)
{
    if (xvfb_missing("xvfb_api"))
        return 77;
    Suite *s = xwtest_suite("xvfb_api");
    /* Generous: the wrap and thread cases run under ASan+UBSan too. The limit only
     * catches hangs; no test measures time. */
    TCase *tc = xvfb_tcase(
        s, &(struct xvfb_suite){.name = "xvfb_api", .timeout = 120, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, window_map_expose_configure);
    tcase_add_test(tc, xc_misc_xid_range);
    tcase_add_test(tc, xkb_set_map_aux_accepted);
    tcase_add_test(tc, atoms_pipelined);
    tcase_add_test(tc, property_one_mib);
    tcase_add_test(tc, property_pipelined_both_ways);
    tcase_add_test(tc, errors_checked_unchecked);
    tcase_add_test(tc, check_unchecked_is_a_barrier);
    tcase_add_test(tc, events_property_client_message);
    tcase_add_test(tc, shm_fds);
    tcase_add_test(tc, shm_fd_unclaimed_and_into);
    tcase_add_test(tc, wrap_200k_default);
    tcase_add_test(tc, wrap_200k_default_other_thread);
    tcase_add_test(tc, wrap_200k_single_threaded);
    tcase_add_test(tc, threads_atoms_and_events);
    return xwtest_run(s);
}
