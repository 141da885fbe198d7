/* SPDX-License-Identifier: MIT */
/* test_util_icccm.c — xw_icccm.h against xcb-icccm. On one Xvfb: every property set by
 * one library is read by both (xwire on its own connection, on one borrowed from
 * libxcb, and through the allocation-free _reply_into forms) and parses to the same
 * values. On a scripted fake server: malformed GetProperty replies (wrong type or
 * format, short and long values, missing terminators) parse as xcb-icccm parses them,
 * except where xcb-icccm reads or writes past the reply or the caller's struct (each
 * such case is named below and xwire's safe answer checked instead). */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xcb_aux.h>
#include <xcb/xcb_icccm.h>

#include <xw/xw-xcb.h>
#include <xw/xw_aux.h>
#include <xw/xw_icccm.h>

#include "fake_server.h"
#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *c;
static xcb_connection_t *xc;
static xcb_atom_t wm_protocols, wm_delete, wm_take_focus, wm_colormap_windows, utf8;

static xcb_atom_t intern(const char *name)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(xc, xcb_intern_atom(xc, 0, (uint16_t)strlen(name), name), NULL);
    ck_assert_ptr_nonnull(r);
    xcb_atom_t a = r->atom;
    free(r);
    return a;
}

static void setup(void)
{
    xvfb_setup();
    xc = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(xc), 0);
    wm_protocols = intern("WM_PROTOCOLS");
    wm_delete = intern("WM_DELETE_WINDOW");
    wm_take_focus = intern("WM_TAKE_FOCUS");
    wm_colormap_windows = intern("WM_COLORMAP_WINDOWS");
    utf8 = intern("UTF8_STRING");
}

static void teardown(void)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xcb_disconnect(xc);
    xvfb_teardown();
}

/* ---- every property, parsed into one comparable record ---- */

struct text {
    uint8_t ok, format;
    uint32_t encoding, len;
    char v[64];
};

struct props {
    struct text name, icon_name, machine, other;
    uint8_t class_ok, transient_ok, cmap_ok, prot_ok, size_ok, normal_ok, hints_ok;
    char instance[32], class_name[32];
    uint32_t transient;
    uint32_t ncmap, cmap[8], nprot, prot[8];
    xcb_size_hints_t size, normal;
    xcb_icccm_wm_hints_t hints;
};

static void keep_text(struct text *t, uint8_t ok, uint32_t enc, uint8_t fmt, uint32_t len, const char *v)
{
    t->ok = ok;
    if (!ok)
        return;
    t->encoding = enc, t->format = fmt, t->len = len;
    memcpy(t->v, v, len < sizeof(t->v) ? len : sizeof(t->v));
}

static void keep_ids(uint32_t *n, uint32_t *out, uint32_t len, const uint32_t *ids)
{
    *n = len;
    memcpy(out, ids, 4 * (len < 8 ? len : 8));
}

/* The "SIZE_A" property set with WM_SIZE_HINTS besides WM_NORMAL_HINTS. */
static xcb_atom_t size_prop;
static xcb_atom_t other_text;

static void read_xcb(xcb_window_t w, struct props *p)
{
    memset(p, 0, sizeof(*p));
    xcb_icccm_get_text_property_reply_t t;
    struct {
        struct text *out;
        xcb_get_property_cookie_t ck;
    } texts[] = {
        {&p->name, xcb_icccm_get_wm_name(xc, w)},
        {&p->icon_name, xcb_icccm_get_wm_icon_name(xc, w)},
        {&p->machine, xcb_icccm_get_wm_client_machine(xc, w)},
        {&p->other, xcb_icccm_get_text_property(xc, w, other_text)},
    };
    for (int i = 0; i < 4; i++) {
        uint8_t ok = xcb_icccm_get_text_property_reply(xc, texts[i].ck, &t, NULL);
        keep_text(texts[i].out, ok, ok ? t.encoding : 0, ok ? t.format : 0, ok ? t.name_len : 0, ok ? t.name : NULL);
        if (ok)
            xcb_icccm_get_text_property_reply_wipe(&t);
    }
    xcb_icccm_get_wm_class_reply_t cl;
    if ((p->class_ok = xcb_icccm_get_wm_class_reply(xc, xcb_icccm_get_wm_class(xc, w), &cl, NULL))) {
        snprintf(p->instance, sizeof(p->instance), "%s", cl.instance_name);
        snprintf(p->class_name, sizeof(p->class_name), "%s", cl.class_name);
        xcb_icccm_get_wm_class_reply_wipe(&cl);
    }
    p->transient_ok =
        xcb_icccm_get_wm_transient_for_reply(xc, xcb_icccm_get_wm_transient_for(xc, w), &p->transient, NULL);
    xcb_icccm_get_wm_colormap_windows_reply_t cm;
    if ((p->cmap_ok = xcb_icccm_get_wm_colormap_windows_reply(
             xc, xcb_icccm_get_wm_colormap_windows(xc, w, wm_colormap_windows), &cm, NULL))) {
        keep_ids(&p->ncmap, p->cmap, cm.windows_len, cm.windows);
        xcb_icccm_get_wm_colormap_windows_reply_wipe(&cm);
    }
    xcb_icccm_get_wm_protocols_reply_t pr;
    if ((p->prot_ok =
             xcb_icccm_get_wm_protocols_reply(xc, xcb_icccm_get_wm_protocols(xc, w, wm_protocols), &pr, NULL))) {
        keep_ids(&p->nprot, p->prot, pr.atoms_len, pr.atoms);
        xcb_icccm_get_wm_protocols_reply_wipe(&pr);
    }
    p->size_ok = xcb_icccm_get_wm_size_hints_reply(xc, xcb_icccm_get_wm_size_hints(xc, w, size_prop), &p->size, NULL);
    p->normal_ok = xcb_icccm_get_wm_normal_hints_reply(xc, xcb_icccm_get_wm_normal_hints(xc, w), &p->normal, NULL);
    p->hints_ok = xcb_icccm_get_wm_hints_reply(xc, xcb_icccm_get_wm_hints(xc, w), &p->hints, NULL);
}

/* xwire's reading, through the xcb-style _reply forms (into = 0) or the
 * allocation-free _reply_into forms (into = 1). */
static void read_xw(xw_connection_t *conn, xw_window_t w, struct props *p, int into)
{
    union {
        xw_get_property_reply_t r;
        uint8_t b[1024];
    } buf;
    memset(p, 0, sizeof(*p));
    xw_icccm_get_text_property_reply_t t;
    struct {
        struct text *out;
        xw_get_property_cookie_t ck;
    } texts[] = {
        {&p->name, xw_icccm_get_wm_name(conn, w)},
        {&p->icon_name, xw_icccm_get_wm_icon_name(conn, w)},
        {&p->machine, xw_icccm_get_wm_client_machine(conn, w)},
        {&p->other, xw_icccm_get_text_property(conn, w, other_text)},
    };
    for (int i = 0; i < 4; i++) {
        uint8_t ok = into ? xw_icccm_get_text_property_reply_into(conn, texts[i].ck, &t, &buf, sizeof(buf), NULL) == 1
                          : xw_icccm_get_text_property_reply(conn, texts[i].ck, &t, NULL);
        keep_text(texts[i].out, ok, ok ? t.encoding : 0, ok ? t.format : 0, ok ? t.name_len : 0, ok ? t.name : NULL);
        if (ok)
            xw_icccm_get_text_property_reply_wipe(&t);
    }
    xw_icccm_get_wm_class_reply_t cl;
    xw_get_property_cookie_t ck = xw_icccm_get_wm_class(conn, w);
    p->class_ok = into ? xw_icccm_get_wm_class_reply_into(conn, ck, &cl, &buf, sizeof(buf), NULL) == 1
                       : xw_icccm_get_wm_class_reply(conn, ck, &cl, NULL);
    if (p->class_ok) {
        snprintf(p->instance, sizeof(p->instance), "%s", cl.instance_name);
        snprintf(p->class_name, sizeof(p->class_name), "%s", cl.class_name);
        xw_icccm_get_wm_class_reply_wipe(&cl);
    }
    p->transient_ok =
        xw_icccm_get_wm_transient_for_reply(conn, xw_icccm_get_wm_transient_for(conn, w), &p->transient, NULL);
    xw_icccm_get_wm_colormap_windows_reply_t cm;
    ck = xw_icccm_get_wm_colormap_windows(conn, w, wm_colormap_windows);
    p->cmap_ok = into ? xw_icccm_get_wm_colormap_windows_reply_into(conn, ck, &cm, &buf, sizeof(buf), NULL) == 1
                      : xw_icccm_get_wm_colormap_windows_reply(conn, ck, &cm, NULL);
    if (p->cmap_ok) {
        keep_ids(&p->ncmap, p->cmap, cm.windows_len, cm.windows);
        xw_icccm_get_wm_colormap_windows_reply_wipe(&cm);
    }
    xw_icccm_get_wm_protocols_reply_t pr;
    ck = xw_icccm_get_wm_protocols(conn, w, wm_protocols);
    p->prot_ok = into ? xw_icccm_get_wm_protocols_reply_into(conn, ck, &pr, &buf, sizeof(buf), NULL) == 1
                      : xw_icccm_get_wm_protocols_reply(conn, ck, &pr, NULL);
    if (p->prot_ok) {
        keep_ids(&p->nprot, p->prot, pr.atoms_len, pr.atoms);
        xw_icccm_get_wm_protocols_reply_wipe(&pr);
    }
    p->size_ok = xw_icccm_get_wm_size_hints_reply(conn, xw_icccm_get_wm_size_hints(conn, w, size_prop),
                                                  (xw_size_hints_t *)&p->size, NULL);
    p->normal_ok = xw_icccm_get_wm_normal_hints_reply(conn, xw_icccm_get_wm_normal_hints(conn, w),
                                                      (xw_size_hints_t *)&p->normal, NULL);
    p->hints_ok =
        xw_icccm_get_wm_hints_reply(conn, xw_icccm_get_wm_hints(conn, w), (xw_icccm_wm_hints_t *)&p->hints, NULL);
}

/* ---- the same values set by each library ---- */

static const char class8[] = "xwtest\0XwTest";

static void set_xcb(xcb_window_t w)
{
    xcb_icccm_set_wm_name(xc, w, utf8, 8, 9, "n\xc3\xa4me one");
    xcb_icccm_set_wm_icon_name(xc, w, XCB_ATOM_STRING, 8, 4, "icon");
    xcb_icccm_set_wm_client_machine(xc, w, XCB_ATOM_STRING, 8, 5, "host1");
    xcb_icccm_set_wm_class(xc, w, sizeof(class8), class8);
    xcb_icccm_set_wm_transient_for(xc, w, 0x123);
    xcb_window_t cmaps[] = {w, 0x55};
    xcb_icccm_set_wm_colormap_windows(xc, w, wm_colormap_windows, 2, cmaps);
    xcb_atom_t prots[] = {wm_delete, wm_take_focus};
    xcb_icccm_set_wm_protocols(xc, w, wm_protocols, 2, prots);
    xcb_size_hints_t h;
    memset(&h, 0, sizeof(h));
    xcb_icccm_size_hints_set_min_size(&h, 10, 20);
    xcb_icccm_size_hints_set_max_size(&h, 300, 400);
    xcb_icccm_size_hints_set_base_size(&h, 5, 6);
    xcb_icccm_size_hints_set_win_gravity(&h, XCB_GRAVITY_CENTER);
    xcb_icccm_set_wm_normal_hints(xc, w, &h);
    xcb_icccm_size_hints_set_position(&h, 1, 7, 8);
    xcb_icccm_set_wm_size_hints(xc, w, size_prop, &h);
    xcb_icccm_wm_hints_t wh;
    memset(&wh, 0, sizeof(wh));
    xcb_icccm_wm_hints_set_input(&wh, 1);
    xcb_icccm_wm_hints_set_iconic(&wh);
    xcb_icccm_wm_hints_set_window_group(&wh, w);
    xcb_icccm_wm_hints_set_urgency(&wh);
    xcb_icccm_set_wm_hints(xc, w, &wh);
    xcb_change_property(xc, XCB_PROP_MODE_REPLACE, w, other_text, XCB_ATOM_STRING, 16, 2, "wxyz");
    xcb_aux_sync(xc);
}

static void set_xw(xw_connection_t *conn, xw_window_t w)
{
    xw_icccm_set_wm_name(conn, w, utf8, 8, 9, "n\xc3\xa4me one");
    xw_icccm_set_wm_icon_name(conn, w, XW_ATOM_STRING, 8, 4, "icon");
    xw_icccm_set_wm_client_machine(conn, w, XW_ATOM_STRING, 8, 5, "host1");
    xw_icccm_set_wm_class(conn, w, sizeof(class8), class8);
    xw_icccm_set_wm_transient_for(conn, w, 0x123);
    xw_window_t cmaps[] = {w, 0x55};
    xw_icccm_set_wm_colormap_windows(conn, w, wm_colormap_windows, 2, cmaps);
    xw_atom_t prots[] = {wm_delete, wm_take_focus};
    xw_icccm_set_wm_protocols(conn, w, wm_protocols, 2, prots);
    xw_size_hints_t h;
    memset(&h, 0, sizeof(h));
    xw_icccm_size_hints_set_min_size(&h, 10, 20);
    xw_icccm_size_hints_set_max_size(&h, 300, 400);
    xw_icccm_size_hints_set_base_size(&h, 5, 6);
    xw_icccm_size_hints_set_win_gravity(&h, XW_GRAVITY_CENTER);
    xw_icccm_set_wm_normal_hints(conn, w, &h);
    xw_icccm_size_hints_set_position(&h, 1, 7, 8);
    xw_icccm_set_wm_size_hints(conn, w, size_prop, &h);
    xw_icccm_wm_hints_t wh;
    memset(&wh, 0, sizeof(wh));
    xw_icccm_wm_hints_set_input(&wh, 1);
    xw_icccm_wm_hints_set_iconic(&wh);
    xw_icccm_wm_hints_set_window_group(&wh, w);
    xw_icccm_wm_hints_set_urgency(&wh);
    xw_icccm_set_wm_hints(conn, w, &wh);
    xw_change_property(conn, XW_PROP_MODE_REPLACE, w, other_text, XW_ATOM_STRING, 16, 2, "wxyz");
    xw_aux_sync(conn);
}

static xcb_window_t make_window(void)
{
    xcb_screen_t *s = xcb_aux_get_screen(xc, 0);
    xcb_window_t w = xcb_generate_id(xc);
    xcb_create_window(xc, 0, w, s->root, 0, 0, 10, 10, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT, 0, 0, NULL);
    return w;
}

static void same_props(const struct props *a, const struct props *b, const char *what)
{
    ck_assert_msg(!memcmp(a, b, sizeof(*a)), "%s: parsed values differ", what);
}

static void check_both_ways(xw_connection_t *conn)
{
    size_prop = intern("XW_TEST_SIZE_HINTS");
    other_text = intern("XW_TEST_TEXT16");
    struct props want, got;
    /* set by xcb-icccm, read by both */
    xcb_window_t w = make_window();
    set_xcb(w);
    read_xcb(w, &want);
    ck_assert(want.name.ok && want.class_ok && want.transient_ok && want.cmap_ok && want.prot_ok && want.size_ok &&
              want.normal_ok && want.hints_ok && want.other.ok);
    ck_assert_str_eq(want.class_name, "XwTest");
    ck_assert_int_eq(want.other.format, 16);
    read_xw(conn, w, &got, 0);
    same_props(&want, &got, "set by xcb-icccm, read by xwire");
    read_xw(conn, w, &got, 1);
    same_props(&want, &got, "set by xcb-icccm, read by xwire into caller storage");
    /* set by xwire, read by both */
    xcb_window_t w2 = make_window();
    xcb_aux_sync(xc);
    set_xw(conn, w2);
    read_xcb(w2, &want);
    read_xw(conn, w2, &got, 0);
    same_props(&want, &got, "set by xwire, read by xwire");
    /* the same values as xcb-icccm set, but for the window ids */
    struct props first;
    read_xcb(w, &first);
    first.cmap[0] = want.cmap[0], first.hints.window_group = want.hints.window_group;
    same_props(&first, &want, "set by xwire, read by xcb-icccm");
    /* a window with no properties: every getter says 0 on both sides */
    xcb_window_t w3 = make_window();
    xcb_aux_sync(xc);
    read_xcb(w3, &want);
    read_xw(conn, w3, &got, 0);
    same_props(&want, &got, "no properties");
    ck_assert(!got.name.ok && !got.class_ok && !got.hints_ok && !got.size_ok);
    /* an X error (no such window) comes back through e */
    xw_generic_error_t *e = NULL;
    xw_icccm_wm_hints_t wh;
    ck_assert_int_eq(xw_icccm_get_wm_hints_reply(conn, xw_icccm_get_wm_hints(conn, 0x7ffffff), &wh, &e), 0);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->error_code, XW_WINDOW);
    free(e);
    xw_generic_error_t ee;
    xw_icccm_get_wm_class_reply_t cl;
    char buf[256];
    ck_assert_int_eq(
        xw_icccm_get_wm_class_reply_into(conn, xw_icccm_get_wm_class(conn, 0x7ffffff), &cl, buf, sizeof(buf), &ee), 0);
    ck_assert_int_eq(ee.error_code, XW_WINDOW);
}

START_TEST(values_match_xcb_icccm)
{
    check_both_ways(c);
}
END_TEST

START_TEST(values_match_xcb_icccm_borrowed)
{
    xcb_connection_t *lender = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(lender), 0);
    xw_connection_t *b = xw_xcb_borrow(lender);
    check_both_ways(b);
    xw_disconnect(b);
    xcb_disconnect(lender);
}
END_TEST

/* ---- malformed replies from a fake server ---- */

/* A GetProperty reply: format, type, value_len units, `n` value bytes, and a length
 * field of `words` (normally the value's, rounded up). */
static size_t prop_reply(uint8_t *out, uint8_t format, uint32_t type, uint32_t value_len, const void *v, size_t n,
                         uint32_t words)
{
    memset(out, 0, 32 + 4 * (size_t)words);
    out[0] = 1;
    out[1] = format;
    fs_wr16(out + 2, 1);
    fs_wr32(out + 4, words);
    fs_wr32(out + 8, type);
    fs_wr32(out + 16, value_len);
    memcpy(out + 32, v, n);
    return 32 + 4 * (size_t)words;
}

/* One connection of each library to a server end holding the setup and `reply` (the
 * answer to its first request); the server's ends stay open in srv[]. xwire takes the
 * setup written before it connects; libxcb must send its setup request first (it
 * would read early bytes as packets), so a thread answers it. */
static int srv[2];

struct setup_answer {
    int fd;
    const uint8_t *reply;
    size_t n;
};

static void *answer_setup(void *arg)
{
    struct setup_answer *a = arg;
    uint8_t req[12], setup[256];
    size_t got = 0;
    while (got < sizeof(req)) {
        ssize_t r = read(a->fd, req + got, sizeof(req) - got);
        if (r <= 0)
            return NULL;
        got += (size_t)r;
    }
    size_t len = fake_setup_success(setup, sizeof(setup), 65535);
    if (fake_write_all(a->fd, setup, len) == 0)
        fake_write_all(a->fd, a->reply, a->n);
    return NULL;
}

static xcb_connection_t *xcb_with(const uint8_t *reply, size_t n)
{
    int sv[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    struct setup_answer a = {sv[0], reply, n};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, answer_setup, &a), 0);
    srv[0] = sv[0];
    xcb_connection_t *x = xcb_connect_to_fd(sv[1], NULL);
    pthread_join(t, NULL);
    ck_assert_int_eq(xcb_connection_has_error(x), 0);
    return x;
}

static xw_connection_t *xw_with(const uint8_t *reply, size_t n)
{
    int sv[2];
    uint8_t setup[256];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    size_t len = fake_setup_success(setup, sizeof(setup), 65535);
    ck_assert_int_eq(fake_write_all(sv[0], setup, len), 0);
    ck_assert_int_eq(fake_write_all(sv[0], reply, n), 0);
    srv[1] = sv[0];
    xw_connection_t *x = xw_connect_to_fd(sv[1], NULL);
    ck_assert_int_eq(xw_connection_has_error(x), 0);
    return x;
}

enum getter { G_TEXT, G_CLASS, G_TRANSIENT, G_CMAP, G_PROT, G_SIZE, G_HINTS, G_CLASS_INTO };

/* What a getter made of one reply: its answer and the parsed words/strings. */
struct outcome {
    int ok;
    char a[64], b[64];
    uint32_t n;
    uint32_t words[24]; /* room past a wm_hints struct: xcb-icccm may write there */
};

static void out_ids(struct outcome *o, uint32_t len, const uint32_t *ids)
{
    o->n = len;
    memcpy(o->words, ids, 4 * (len < 24 ? len : 24));
}

static void run_xcb(enum getter g, const uint8_t *reply, size_t n, struct outcome *o)
{
    xcb_connection_t *x = xcb_with(reply, n);
    memset(o, 0x5a, sizeof(*o)); /* the same starting garbage on both sides */
    o->n = 0;
    if (g == G_TEXT) {
        xcb_icccm_get_text_property_reply_t t;
        if ((o->ok = xcb_icccm_get_text_property_reply(x, xcb_icccm_get_wm_name(x, 1), &t, NULL))) {
            o->n = t.name_len;
            o->words[0] = t.encoding, o->words[1] = t.format;
            memcpy(o->a, t.name, t.name_len < 64 ? t.name_len : 64);
            xcb_icccm_get_text_property_reply_wipe(&t);
        }
    } else if (g == G_CLASS || g == G_CLASS_INTO) {
        xcb_icccm_get_wm_class_reply_t cl;
        if ((o->ok = xcb_icccm_get_wm_class_reply(x, xcb_icccm_get_wm_class(x, 1), &cl, NULL))) {
            snprintf(o->a, sizeof(o->a), "%s", cl.instance_name);
            snprintf(o->b, sizeof(o->b), "%s", cl.class_name);
            xcb_icccm_get_wm_class_reply_wipe(&cl);
        }
    } else if (g == G_TRANSIENT) {
        o->ok = xcb_icccm_get_wm_transient_for_reply(x, xcb_icccm_get_wm_transient_for(x, 1), o->words, NULL);
    } else if (g == G_CMAP) {
        xcb_icccm_get_wm_colormap_windows_reply_t r;
        if ((o->ok =
                 xcb_icccm_get_wm_colormap_windows_reply(x, xcb_icccm_get_wm_colormap_windows(x, 1, 2), &r, NULL))) {
            out_ids(o, r.windows_len, r.windows);
            xcb_icccm_get_wm_colormap_windows_reply_wipe(&r);
        }
    } else if (g == G_PROT) {
        xcb_icccm_get_wm_protocols_reply_t r;
        if ((o->ok = xcb_icccm_get_wm_protocols_reply(x, xcb_icccm_get_wm_protocols(x, 1, 2), &r, NULL))) {
            out_ids(o, r.atoms_len, r.atoms);
            xcb_icccm_get_wm_protocols_reply_wipe(&r);
        }
    } else if (g == G_SIZE) {
        o->ok = xcb_icccm_get_wm_normal_hints_reply(x, xcb_icccm_get_wm_normal_hints(x, 1),
                                                    (xcb_size_hints_t *)o->words, NULL);
    } else {
        o->ok = xcb_icccm_get_wm_hints_reply(x, xcb_icccm_get_wm_hints(x, 1), (xcb_icccm_wm_hints_t *)o->words, NULL);
    }
    xcb_disconnect(x);
    close(srv[0]);
}

/* borrowed: xwire on a libxcb connection to the fake server (its replies come from
 * libxcb, unchecked by xwire's runtime: the helpers must check for themselves). */
static void run_xw(enum getter g, const uint8_t *reply, size_t n, struct outcome *o, int borrowed)
{
    xcb_connection_t *lender = borrowed ? xcb_with(reply, n) : NULL;
    xw_connection_t *x = borrowed ? xw_xcb_borrow(lender) : xw_with(reply, n);
    memset(o, 0x5a, sizeof(*o));
    o->n = 0;
    if (g == G_TEXT) {
        xw_icccm_get_text_property_reply_t t;
        if ((o->ok = xw_icccm_get_text_property_reply(x, xw_icccm_get_wm_name(x, 1), &t, NULL))) {
            o->n = t.name_len;
            o->words[0] = t.encoding, o->words[1] = t.format;
            memcpy(o->a, t.name, t.name_len < 64 ? t.name_len : 64);
            xw_icccm_get_text_property_reply_wipe(&t);
        }
    } else if (g == G_CLASS || g == G_CLASS_INTO) {
        xw_icccm_get_wm_class_reply_t cl;
        union {
            xw_get_property_reply_t r;
            uint8_t b[512];
        } buf;
        xw_get_property_cookie_t ck = xw_icccm_get_wm_class(x, 1);
        o->ok = g == G_CLASS ? xw_icccm_get_wm_class_reply(x, ck, &cl, NULL)
                             : xw_icccm_get_wm_class_reply_into(x, ck, &cl, &buf, sizeof(buf), NULL) == 1;
        if (o->ok) {
            snprintf(o->a, sizeof(o->a), "%s", cl.instance_name);
            snprintf(o->b, sizeof(o->b), "%s", cl.class_name);
            xw_icccm_get_wm_class_reply_wipe(&cl);
        }
    } else if (g == G_TRANSIENT) {
        o->ok = xw_icccm_get_wm_transient_for_reply(x, xw_icccm_get_wm_transient_for(x, 1), o->words, NULL);
    } else if (g == G_CMAP) {
        xw_icccm_get_wm_colormap_windows_reply_t r;
        if ((o->ok = xw_icccm_get_wm_colormap_windows_reply(x, xw_icccm_get_wm_colormap_windows(x, 1, 2), &r, NULL))) {
            out_ids(o, r.windows_len, r.windows);
            xw_icccm_get_wm_colormap_windows_reply_wipe(&r);
        }
    } else if (g == G_PROT) {
        xw_icccm_get_wm_protocols_reply_t r;
        if ((o->ok = xw_icccm_get_wm_protocols_reply(x, xw_icccm_get_wm_protocols(x, 1, 2), &r, NULL))) {
            out_ids(o, r.atoms_len, r.atoms);
            xw_icccm_get_wm_protocols_reply_wipe(&r);
        }
    } else if (g == G_SIZE) {
        o->ok = xw_icccm_get_wm_normal_hints_reply(x, xw_icccm_get_wm_normal_hints(x, 1), (xw_size_hints_t *)o->words,
                                                   NULL);
    } else {
        o->ok = xw_icccm_get_wm_hints_reply(x, xw_icccm_get_wm_hints(x, 1), (xw_icccm_wm_hints_t *)o->words, NULL);
    }
    ck_assert_int_eq(xw_connection_has_error(x), 0);
    xw_disconnect(x);
    if (lender)
        xcb_disconnect(lender);
    close(srv[borrowed ? 0 : 1]);
}

struct bad_case {
    const char *what;
    enum getter g;
    uint8_t format;
    uint32_t type, value_len;
    const char *value;
    size_t nvalue;
    uint32_t words;
    int xcb_overreads; /* 1: xcb-icccm reads or writes out of bounds; xwire's answer is `want_ok` */
    int want_ok;
    const char *want_instance; /* for WM_CLASS: xwire's instance name (its class name is "") */
};

#define V(s) s, sizeof(s) - 1
static const uint32_t nine[10] = {0x1f, 1, 3, 0x400001, 0x400002, 5, 6, 0x400003, 0x400004, 0x77777777};
#define W(n) (const char *)nine, 4 * (n)

static const struct bad_case bad_cases[] = {
    {"text: no property", G_TEXT, 0, 0, 0, V(""), 0, 0, 0, NULL},
    {"text: format 16", G_TEXT, 16, XW_ATOM_STRING, 2, V("abcd"), 1, 0, 0, NULL},
    {"text: format 32, odd type", G_TEXT, 32, 0x1234, 1, V("wxyz"), 1, 0, 0, NULL},
    {"text: format 7 (none such)", G_TEXT, 7, XW_ATOM_STRING, 3, V("abcd"), 1, 0, 0, NULL},
    {"class: instance and class", G_CLASS, 8, XW_ATOM_STRING, 12, V("xterm\0XTerm\0"), 3, 0, 0, NULL},
    {"class: no final NUL, padding after", G_CLASS, 8, XW_ATOM_STRING, 11, V("xterm\0XTerm"), 3, 0, 0, NULL},
    {"class: no NUL at all, padding after", G_CLASS, 8, XW_ATOM_STRING, 3, V("abc"), 1, 0, 0, NULL},
    {"class: no NUL at all, no padding", G_CLASS, 8, XW_ATOM_STRING, 8, V("abcdefgh"), 2, 1, 1, "abcdefg"},
    {"class: instance only, NUL at the end", G_CLASS, 8, XW_ATOM_STRING, 4, V("abc\0"), 1, 1, 1, "abc"},
    {"class: empty", G_CLASS, 8, XW_ATOM_STRING, 0, V(""), 0, 1, 0, NULL},
    {"class: format 16", G_CLASS, 16, XW_ATOM_STRING, 2, V("a\0b\0"), 1, 0, 0, NULL},
    {"class: wrong type", G_CLASS, 8, XW_ATOM_ATOM, 4, V("a\0b\0"), 1, 0, 0, NULL},
    {"class into: instance and class", G_CLASS_INTO, 8, XW_ATOM_STRING, 12, V("xterm\0XTerm\0"), 3, 0, 0, NULL},
    {"class into: no NUL, padding after", G_CLASS_INTO, 8, XW_ATOM_STRING, 5, V("abcde"), 2, 0, 0, NULL},
    {"transient: one window", G_TRANSIENT, 32, XW_ATOM_WINDOW, 1, W(1), 1, 0, 0, NULL},
    {"transient: two windows", G_TRANSIENT, 32, XW_ATOM_WINDOW, 2, W(2), 2, 0, 0, NULL},
    {"transient: empty value, padding word", G_TRANSIENT, 32, XW_ATOM_WINDOW, 0, W(1), 1, 1, 0, NULL},
    {"transient: format 8", G_TRANSIENT, 8, XW_ATOM_WINDOW, 4, W(1), 1, 0, 0, NULL},
    {"transient: wrong type", G_TRANSIENT, 32, XW_ATOM_ATOM, 1, W(1), 1, 0, 0, NULL},
    {"colormaps: three", G_CMAP, 32, XW_ATOM_WINDOW, 3, W(3), 3, 0, 0, NULL},
    {"colormaps: none", G_CMAP, 32, XW_ATOM_WINDOW, 0, W(0), 0, 0, 0, NULL},
    {"colormaps: format 16", G_CMAP, 16, XW_ATOM_WINDOW, 6, W(3), 3, 0, 0, NULL},
    {"protocols: two", G_PROT, 32, XW_ATOM_ATOM, 2, W(2), 2, 0, 0, NULL},
    {"protocols: wrong type", G_PROT, 32, XW_ATOM_CARDINAL, 2, W(2), 2, 0, 0, NULL},
    {"size hints: 18 words", G_SIZE, 32, XW_ATOM_WM_SIZE_HINTS, 18, W(10), 18, 0, 0, NULL},
    {"size hints: 15 words (ICCCM 1)", G_SIZE, 32, XW_ATOM_WM_SIZE_HINTS, 15, W(10), 15, 0, 0, NULL},
    {"size hints: 3 words", G_SIZE, 32, XW_ATOM_WM_SIZE_HINTS, 3, W(3), 3, 0, 0, NULL},
    {"size hints: empty", G_SIZE, 32, XW_ATOM_WM_SIZE_HINTS, 0, W(0), 0, 0, 0, NULL},
    {"size hints: 20 words (more than asked)", G_SIZE, 32, XW_ATOM_WM_SIZE_HINTS, 20, W(10), 20, 0, 0, NULL},
    {"size hints: format 16", G_SIZE, 16, XW_ATOM_WM_SIZE_HINTS, 36, W(10), 18, 0, 0, NULL},
    {"wm hints: 9 words", G_HINTS, 32, XW_ATOM_WM_HINTS, 9, W(9), 9, 0, 0, NULL},
    {"wm hints: 8 words (ICCCM 1)", G_HINTS, 32, XW_ATOM_WM_HINTS, 8, W(8), 8, 0, 0, NULL},
    {"wm hints: 7 words", G_HINTS, 32, XW_ATOM_WM_HINTS, 7, W(7), 7, 0, 0, NULL},
    {"wm hints: 10 words (more than asked)", G_HINTS, 32, XW_ATOM_WM_HINTS, 10, W(10), 10, 1, 1, NULL},
    {"wm hints: wrong type", G_HINTS, 32, XW_ATOM_WM_SIZE_HINTS, 9, W(9), 9, 0, 0, NULL},
};

START_TEST(malformed_replies_parse_as_xcb_icccm)
{
    uint8_t reply[32 + 4 * 32];
    int same = 0, listed = 0;
    for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
        const struct bad_case *k = &bad_cases[i];
        size_t n = prop_reply(reply, k->format, k->type, k->value_len, k->value, k->nvalue, k->words);
        struct outcome a, b, bb;
        run_xw(k->g, reply, n, &b, 0);
        run_xw(k->g, reply, n, &bb, 1);
        ck_assert_msg(!memcmp(&b, &bb, sizeof(b)), "%s: xwire parses differently when borrowed", k->what);
        if (k->xcb_overreads) {
            /* xcb-icccm: "class: instance only" and "no NUL at all, no padding" point
             * class_name one past the value; "class: empty" writes before the value and
             * reads past it; "transient:
             * empty value" reads the padding as a window; "wm hints: 10 words" copies
             * 40 bytes into the 36-byte struct. xwire stays inside both. */
            ck_assert_msg(b.ok == k->want_ok, "%s: xwire said %d", k->what, b.ok);
            if (b.ok && k->g == G_HINTS)
                ck_assert_uint_eq(b.words[9], 0x5a5a5a5a); /* nothing past the struct */
            if (b.ok && k->g == G_CLASS) {
                ck_assert_str_eq(b.a, k->want_instance);
                ck_assert_str_eq(b.b, "");
            }
            listed++;
            continue;
        }
        run_xcb(k->g, reply, n, &a);
        ck_assert_msg(a.ok == b.ok, "%s: xcb-icccm %d, xwire %d", k->what, a.ok, b.ok);
        if (a.ok)
            ck_assert_msg(!memcmp(&a, &b, sizeof(a)), "%s: parsed values differ", k->what);
        same++;
    }
    printf("malformed GetProperty replies: %d parsed as xcb-icccm does, %d where xcb-icccm over-reads (xwire "
           "checked)\n",
           same, listed);
}
END_TEST

/* A value longer than the reply that carries it: xcb-icccm would read past the reply;
 * xwire's runtime refuses the reply (an error with XW_ERROR_MALFORMED_REPLY), and on a
 * borrowed connection the helper's own check does: every getter says 0 and the
 * connection stays up. */
START_TEST(value_past_the_reply_is_refused)
{
    uint8_t reply[64];
    enum getter gs[] = {G_TEXT, G_CLASS, G_TRANSIENT, G_CMAP, G_PROT, G_SIZE, G_HINTS, G_CLASS_INTO};
    for (size_t i = 0; i < sizeof(gs) / sizeof(gs[0]); i++) {
        uint32_t type = gs[i] == G_TEXT || gs[i] == G_CLASS || gs[i] == G_CLASS_INTO ? XW_ATOM_STRING
                        : gs[i] == G_PROT                                            ? XW_ATOM_ATOM
                        : gs[i] == G_SIZE                                            ? XW_ATOM_WM_SIZE_HINTS
                        : gs[i] == G_HINTS                                           ? XW_ATOM_WM_HINTS
                                                                                     : XW_ATOM_WINDOW;
        uint8_t format = gs[i] == G_TEXT || gs[i] == G_CLASS || gs[i] == G_CLASS_INTO ? 8 : 32;
        size_t n = prop_reply(reply, format, type, 1000, "abcd", 4, 1);
        struct outcome b;
        run_xw(gs[i], reply, n, &b, 0);
        ck_assert_int_eq(b.ok, 0);
        run_xw(gs[i], reply, n, &b, 1); /* from libxcb, unchecked: the helper refuses it */
        ck_assert_int_eq(b.ok, 0);
    }
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_icccm"))
        return 77;
    Suite *s = xwtest_suite("util_icccm");
    TCase *tc = xvfb_tcase(
        s,
        &(struct xvfb_suite){.name = "util_icccm", .timeout = 120, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, values_match_xcb_icccm);
    tcase_add_test(tc, values_match_xcb_icccm_borrowed);
    tcase_add_test(tc, malformed_replies_parse_as_xcb_icccm);
    tcase_add_test(tc, value_past_the_reply_is_refused);
    return xwtest_run(s);
}
