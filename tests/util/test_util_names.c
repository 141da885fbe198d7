/* SPDX-License-Identifier: MIT */
/* test_util_names.c — the name helpers against their oracles: xw_atom.h and xw_event.h
 * against xcb-util (every input, every code 0..255), xw_aux_parse_color against
 * xcb_aux_parse_color, the layouts of xw_aux.h's and xw_icccm.h's structs against
 * xcb-util's, and xw_errors.h (xcb-util-errors' API, not packaged in Debian 12) for
 * every code of every extension an Xvfb has, against the protocol names by hand and
 * the extension numbers libxcb reports, on an own and a borrowed connection. */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>
#include <xcb/xcb_atom.h>
#include <xcb/xcb_aux.h>
#include <xcb/xcb_event.h>
#include <xcb/xcb_icccm.h>

#include <xw/xw-xcb.h>
#include <xw/xw_errors.h>
#include <xw/xw_icccm.h>
#include <xw/xw_util.h>
#include <xw/xwext.h>

#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *c;
static xcb_connection_t *xc;

static void setup(void)
{
    xvfb_setup();
    xc = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(xc), 0);
}

static void teardown(void)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xcb_disconnect(xc);
    xvfb_teardown();
}

static void same_string(const char *want, const char *got, const char *what, int code)
{
    ck_assert_msg((!want && !got) || (want && got && !strcmp(want, got)), "%s %d: want %s, got %s", what, code,
                  want ? want : "NULL", got ? got : "NULL");
}

START_TEST(atom_names_match_xcb_util)
{
    static const char *const bases[] = {"WM", "_NET_SYSTEM_TRAY", "", "A_LONGER_BASE_NAME_THAN_MOST"};
    static const uint32_t values[] = {0, 1, 9, 10, 255, 0x1234abcd, 0xffffffffu};
    int n = 0;
    for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
        for (size_t j = 0; j < sizeof(values) / sizeof(values[0]); j++) {
            char *a = xcb_atom_name_by_screen(bases[i], (uint8_t)values[j]);
            char *b = xw_atom_name_by_screen(bases[i], (uint8_t)values[j]);
            same_string(a, b, "by_screen", (int)values[j]);
            free(a), free(b);
            a = xcb_atom_name_by_resource(bases[i], values[j]);
            b = xw_atom_name_by_resource(bases[i], values[j]);
            same_string(a, b, "by_resource", (int)values[j]);
            free(a), free(b);
            a = xcb_atom_name_unique(bases[i], values[j]);
            b = xw_atom_name_unique(bases[i], values[j]);
            same_string(a, b, "unique", (int)values[j]);
            free(a), free(b);
            n += 3;
        }
    for (size_t j = 0; j < sizeof(values) / sizeof(values[0]); j++) {
        char *a = xcb_atom_name_unique(NULL, values[j]), *b = xw_atom_name_unique(NULL, values[j]);
        same_string(a, b, "unique(NULL)", (int)values[j]);
        free(a), free(b);
        n++;
    }
    char *s = xw_atom_name_by_screen("WM", 0);
    ck_assert_str_eq(s, "WM_S0"); /* ICCCM's window manager selection */
    free(s);
    printf("atom names: %d compared, identical\n", n);
}
END_TEST

START_TEST(event_labels_match_xcb_util)
{
    for (int i = 0; i < 256; i++) {
        same_string(xcb_event_get_label((uint8_t)i), xw_event_get_label((uint8_t)i), "event label", i);
        same_string(xcb_event_get_error_label((uint8_t)i), xw_event_get_error_label((uint8_t)i), "error label", i);
        same_string(xcb_event_get_request_label((uint8_t)i), xw_event_get_request_label((uint8_t)i), "request label",
                    i);
    }
    xw_generic_event_t ev = {.response_type = 0x80 | XW_CLIENT_MESSAGE};
    xw_generic_event_t *e = &ev;
    ck_assert_int_eq(XW_EVENT_RESPONSE_TYPE(e), XW_CLIENT_MESSAGE);
    ck_assert_int_ne(XW_EVENT_SENT(e), 0);
    ck_assert_int_eq(XW_EVENT_RESPONSE_TYPE_MASK, XCB_EVENT_RESPONSE_TYPE_MASK);
    ck_assert_int_eq(XW_EVENT_ERROR_BAD_IMPLEMENTATION, XW_IMPLEMENTATION);
    ck_assert_int_eq(XW_EVENT_ERROR_BAD_GC, XW_G_CONTEXT);
}
END_TEST

START_TEST(parse_color_matches_xcb_util)
{
    static const char *const in[] = {"#000",    "#fff",       "#F00",          "#123456",         "#abcdef",
                                     "#ABCdef", "#123456789", "#123456789abc", "#FFFFFFFFFFFF",   "",
                                     "#",       "#12",        "#1234",         "#12345",          "#1234567",
                                     "#12g",    "red",        "#ggg",          "#0123456789abcd", " #fff",
                                     "#fff "};
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        uint16_t r1 = 1, g1 = 2, b1 = 3, r2 = 1, g2 = 2, b2 = 3;
        int a = xcb_aux_parse_color(in[i], &r1, &g1, &b1);
        int b = xw_aux_parse_color(in[i], &r2, &g2, &b2);
        ck_assert_msg(a == b && r1 == r2 && g1 == g2 && b1 == b2, "\"%s\": xcb %d %x %x %x, xwire %d %x %x %x", in[i],
                      a, r1, g1, b1, b, r2, g2, b2);
    }
    uint16_t r, g, bl;
    ck_assert_int_eq(xw_aux_parse_color("#f80", &r, &g, &bl), 1);
    ck_assert_uint_eq(r, 0xf000);
    ck_assert_uint_eq(g, 0x8000);
    ck_assert_uint_eq(bl, 0);
    ck_assert_int_eq(xw_aux_parse_color(NULL, &r, &g, &bl), 0);
}
END_TEST

#define SAME_LAYOUT(a, b) ck_assert_uint_eq(sizeof(a), sizeof(b))
#define SAME_FIELD(a, b, f)                                                                                            \
    do {                                                                                                               \
        ck_assert_uint_eq(offsetof(a, f), offsetof(b, f));                                                             \
        ck_assert_uint_eq(sizeof(((a *)0)->f), sizeof(((b *)0)->f));                                                   \
    } while (0)

START_TEST(layouts_match_xcb_util)
{
    SAME_LAYOUT(xw_params_cw_t, xcb_params_cw_t);
    SAME_FIELD(xw_params_cw_t, xcb_params_cw_t, back_pixmap);
    SAME_FIELD(xw_params_cw_t, xcb_params_cw_t, cursor);
    SAME_LAYOUT(xw_params_configure_window_t, xcb_params_configure_window_t);
    SAME_FIELD(xw_params_configure_window_t, xcb_params_configure_window_t, stack_mode);
    SAME_LAYOUT(xw_params_gc_t, xcb_params_gc_t);
    SAME_FIELD(xw_params_gc_t, xcb_params_gc_t, clip_originX);
    SAME_FIELD(xw_params_gc_t, xcb_params_gc_t, arc_mode);
    SAME_LAYOUT(xw_params_keyboard_t, xcb_params_keyboard_t);
    SAME_FIELD(xw_params_keyboard_t, xcb_params_keyboard_t, auto_repeat_mode);

    SAME_LAYOUT(xw_icccm_get_text_property_reply_t, xcb_icccm_get_text_property_reply_t);
    SAME_FIELD(xw_icccm_get_text_property_reply_t, xcb_icccm_get_text_property_reply_t, _reply);
    SAME_FIELD(xw_icccm_get_text_property_reply_t, xcb_icccm_get_text_property_reply_t, encoding);
    SAME_FIELD(xw_icccm_get_text_property_reply_t, xcb_icccm_get_text_property_reply_t, name_len);
    SAME_FIELD(xw_icccm_get_text_property_reply_t, xcb_icccm_get_text_property_reply_t, name);
    SAME_FIELD(xw_icccm_get_text_property_reply_t, xcb_icccm_get_text_property_reply_t, format);
    SAME_LAYOUT(xw_icccm_get_wm_colormap_windows_reply_t, xcb_icccm_get_wm_colormap_windows_reply_t);
    SAME_FIELD(xw_icccm_get_wm_colormap_windows_reply_t, xcb_icccm_get_wm_colormap_windows_reply_t, windows_len);
    SAME_FIELD(xw_icccm_get_wm_colormap_windows_reply_t, xcb_icccm_get_wm_colormap_windows_reply_t, windows);
    SAME_FIELD(xw_icccm_get_wm_colormap_windows_reply_t, xcb_icccm_get_wm_colormap_windows_reply_t, _reply);
    SAME_LAYOUT(xw_icccm_get_wm_class_reply_t, xcb_icccm_get_wm_class_reply_t);
    SAME_FIELD(xw_icccm_get_wm_class_reply_t, xcb_icccm_get_wm_class_reply_t, instance_name);
    SAME_FIELD(xw_icccm_get_wm_class_reply_t, xcb_icccm_get_wm_class_reply_t, class_name);
    SAME_FIELD(xw_icccm_get_wm_class_reply_t, xcb_icccm_get_wm_class_reply_t, _reply);
    SAME_LAYOUT(xw_icccm_get_wm_protocols_reply_t, xcb_icccm_get_wm_protocols_reply_t);
    SAME_FIELD(xw_icccm_get_wm_protocols_reply_t, xcb_icccm_get_wm_protocols_reply_t, atoms_len);
    SAME_FIELD(xw_icccm_get_wm_protocols_reply_t, xcb_icccm_get_wm_protocols_reply_t, atoms);
    SAME_FIELD(xw_icccm_get_wm_protocols_reply_t, xcb_icccm_get_wm_protocols_reply_t, _reply);
    SAME_LAYOUT(xw_size_hints_t, xcb_size_hints_t);
    SAME_FIELD(xw_size_hints_t, xcb_size_hints_t, flags);
    SAME_FIELD(xw_size_hints_t, xcb_size_hints_t, min_aspect_den);
    SAME_FIELD(xw_size_hints_t, xcb_size_hints_t, win_gravity);
    SAME_LAYOUT(xw_icccm_wm_hints_t, xcb_icccm_wm_hints_t);
    SAME_FIELD(xw_icccm_wm_hints_t, xcb_icccm_wm_hints_t, input);
    SAME_FIELD(xw_icccm_wm_hints_t, xcb_icccm_wm_hints_t, icon_mask);
    SAME_FIELD(xw_icccm_wm_hints_t, xcb_icccm_wm_hints_t, window_group);
    ck_assert_int_eq(XW_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS, XCB_ICCCM_NUM_WM_SIZE_HINTS_ELEMENTS);
    ck_assert_int_eq(XW_ICCCM_NUM_WM_HINTS_ELEMENTS, XCB_ICCCM_NUM_WM_HINTS_ELEMENTS);
    ck_assert_int_eq(XW_ICCCM_WM_ALL_HINTS, XCB_ICCCM_WM_ALL_HINTS);
    ck_assert_int_eq(XW_ICCCM_WM_HINT_X_URGENCY, XCB_ICCCM_WM_HINT_X_URGENCY);
    ck_assert_int_eq(XW_ICCCM_SIZE_HINT_P_WIN_GRAVITY, XCB_ICCCM_SIZE_HINT_P_WIN_GRAVITY);
    ck_assert_int_eq(XW_ICCCM_WM_STATE_ICONIC, XCB_ICCCM_WM_STATE_ICONIC);
}
END_TEST

/* ---- xw_errors.h ---- */

/* What libxcb says the server has, for one extension. */
static xcb_query_extension_reply_t *query(const char *name)
{
    xcb_query_extension_reply_t *r =
        xcb_query_extension_reply(xc, xcb_query_extension(xc, (uint16_t)strlen(name), name), NULL);
    ck_assert_ptr_nonnull(r);
    return r;
}

/* Spot checks written from the protocol descriptions by hand (the names
 * xcb-util-errors' own tests expect). */
static void check_known_names(xw_errors_context_t *x)
{
    const char *ext = "x";
    ck_assert_str_eq(xw_errors_get_name_for_major_code(x, XW_CREATE_WINDOW), "CreateWindow");
    ck_assert_str_eq(xw_errors_get_name_for_major_code(x, XW_NO_OPERATION), "NoOperation");
    ck_assert_str_eq(xw_errors_get_name_for_major_code(x, 126), "Unknown (126)");
    ck_assert_ptr_null(xw_errors_get_name_for_minor_code(x, XW_CREATE_WINDOW, 0));
    ck_assert_str_eq(xw_errors_get_name_for_error(x, XW_REQUEST, &ext), "Request");
    ck_assert_ptr_null(ext);
    ck_assert_str_eq(xw_errors_get_name_for_error(x, XW_IMPLEMENTATION, NULL), "Implementation");
    ck_assert_str_eq(xw_errors_get_name_for_error(x, 18, NULL), "Unknown (18)");
    ck_assert_str_eq(xw_errors_get_name_for_core_event(x, XW_KEY_PRESS, NULL), "KeyPress");
    ck_assert_str_eq(xw_errors_get_name_for_core_event(x, XW_KEY_RELEASE | 0x80, NULL), "KeyRelease");
    ck_assert_str_eq(xw_errors_get_name_for_core_event(x, XW_GE_GENERIC, NULL), "GeGeneric");
    ck_assert_str_eq(xw_errors_get_name_for_core_event(x, 36, NULL), "Unknown (36)");

    xcb_query_extension_reply_t *r = query("RANDR");
    if (r->present) {
        ck_assert_str_eq(xw_errors_get_name_for_major_code(x, r->major_opcode), "RandR");
        ck_assert_str_eq(xw_errors_get_name_for_error(x, r->first_error, &ext), "BadOutput");
        ck_assert_str_eq(ext, "RandR");
        ck_assert_str_eq(xw_errors_get_name_for_error(x, (uint8_t)(r->first_error + 3), NULL), "BadProvider");
        ck_assert_str_eq(xw_errors_get_name_for_core_event(x, r->first_event, NULL), "ScreenChangeNotify");
        ck_assert_str_eq(xw_errors_get_name_for_core_event(x, (uint8_t)(r->first_event + 1), NULL), "Notify");
        ck_assert_str_eq(xw_errors_get_name_for_minor_code(x, r->major_opcode, 0), "QueryVersion");
        ck_assert_str_eq(xw_errors_get_name_for_minor_code(x, r->major_opcode, 1), "Unknown (1)");
        ck_assert_str_eq(xw_errors_get_name_for_minor_code(x, r->major_opcode, 33), "GetProviderInfo");
        ck_assert_ptr_null(xw_errors_get_name_for_minor_code(x, r->major_opcode, 1337));
    }
    free(r);
    r = query("XInputExtension");
    if (r->present) {
        ck_assert_str_eq(xw_errors_get_name_for_major_code(x, r->major_opcode), "Input");
        ck_assert_str_eq(xw_errors_get_name_for_error(x, r->first_error, NULL), "Device");
        ck_assert_str_eq(xw_errors_get_name_for_core_event(x, (uint8_t)(r->first_event + 16), &ext),
                         "DevicePropertyNotify");
        ck_assert_str_eq(ext, "Input");
        ck_assert_str_eq(xw_errors_get_name_for_xge_event(x, r->major_opcode, 0), "Unknown (0)");
        ck_assert_str_eq(xw_errors_get_name_for_xge_event(x, r->major_opcode, 1), "DeviceChanged");
        ck_assert_str_eq(xw_errors_get_name_for_xge_event(x, r->major_opcode, 26), "BarrierLeave");
        ck_assert_ptr_null(xw_errors_get_name_for_xge_event(x, r->major_opcode, 1337));
        ck_assert_str_eq(xw_errors_get_name_for_minor_code(x, r->major_opcode, 0), "Unknown (0)");
        ck_assert_str_eq(xw_errors_get_name_for_minor_code(x, r->major_opcode, 47), "XIQueryVersion");
        xw_ge_generic_event_t ge = {.response_type = XW_GE_GENERIC, .extension = r->major_opcode, .event_type = 13};
        ck_assert_str_eq(xw_errors_get_name_for_xcb_event(x, (xw_generic_event_t *)&ge, &ext), "RawKeyPress");
        ck_assert_str_eq(ext, "Input");
    }
    free(r);
    r = query("XKEYBOARD");
    if (r->present) {
        ck_assert_str_eq(xw_errors_get_name_for_major_code(x, r->major_opcode), "xkb");
        ck_assert_str_eq(xw_errors_get_name_for_error(x, r->first_error, NULL), "Keyboard");
        ck_assert_str_eq(xw_errors_get_name_for_xge_event(x, r->major_opcode, 1), "MapNotify");
        ck_assert_str_eq(xw_errors_get_name_for_xge_event(x, r->major_opcode, 11), "ExtensionDeviceNotify");
        ck_assert_ptr_null(xw_errors_get_name_for_xge_event(x, r->major_opcode, 12));
        xw_generic_event_t ev = {.response_type = r->first_event, .pad0 = 0};
        ck_assert_str_eq(xw_errors_get_name_for_xcb_event(x, &ev, &ext), "NewKeyboardNotify");
        ck_assert_str_eq(ext, "xkb");
    }
    free(r);
    r = query("XFIXES");
    if (r->present) {
        ck_assert_str_eq(xw_errors_get_name_for_major_code(x, r->major_opcode), "XFixes");
        ck_assert_str_eq(xw_errors_get_name_for_error(x, r->first_error, NULL), "BadRegion");
        ck_assert_str_eq(xw_errors_get_name_for_core_event(x, (uint8_t)(r->first_event + 1), NULL), "CursorNotify");
        ck_assert_str_eq(xw_errors_get_name_for_minor_code(x, r->major_opcode, 32), "DeletePointerBarrier");
    }
    free(r);
}

/* Entry i of a description's table, as the API must give it. */
static const char *expect(const char *const *names, unsigned n, unsigned i, char *buf, size_t cap)
{
    if (i >= n)
        return NULL;
    if (names && names[i])
        return names[i];
    snprintf(buf, cap, "Unknown (%u)", i);
    return buf;
}

/* Every code of every extension the server has: the extension's name for its major
 * opcode, each minor opcode's, each event's and each error's, with the numbers
 * libxcb's QueryExtension gives and the names of xwire's description tables. Returns
 * the number of names compared. */
static int check_every_code(xw_errors_context_t *x, xw_extension_t *const *exts, size_t n)
{
    int compared = 0;
    char buf[32];
    for (size_t i = 0; i < n; i++) {
        const xw_ext_desc_t *d = xw_ext_desc_find(exts[i]->name);
        ck_assert_ptr_nonnull(d);
        ck_assert_ptr_eq(d->key, exts[i]);
        xcb_query_extension_reply_t *r = query(exts[i]->name);
        if (!r->present) {
            free(r);
            continue;
        }
        ck_assert_str_eq(xw_errors_get_name_for_major_code(x, r->major_opcode), d->ext_name);
        for (unsigned m = 0; m <= d->n_requests; m++)
            same_string(expect(d->request_names, d->n_requests, m, buf, sizeof(buf)),
                        xw_errors_get_name_for_minor_code(x, r->major_opcode, (uint16_t)m), d->ext_name, (int)m);
        compared += (int)d->n_requests + 2;
        int xkb = !strcmp(d->ext_name, "xkb");
        const char *const *xge = xkb ? d->event_names : d->xge_names;
        unsigned nxge = xkb ? d->n_events : d->n_xge;
        for (unsigned t = 0; t <= nxge; t++, compared++)
            same_string(expect(xge, nxge, t, buf, sizeof(buf)),
                        xw_errors_get_name_for_xge_event(x, r->major_opcode, (uint16_t)t), d->ext_name, (int)t);
        for (unsigned k = 0; !xkb && r->first_event && k < d->n_events; k++, compared++) {
            const char *ext = NULL;
            same_string(expect(d->event_names, d->n_events, k, buf, sizeof(buf)),
                        xw_errors_get_name_for_core_event(x, (uint8_t)(r->first_event + k), &ext), d->ext_name, (int)k);
            ck_assert_str_eq(ext, d->ext_name);
        }
        for (unsigned k = 0; r->first_error && k < d->n_errors; k++, compared++) {
            const char *ext = NULL;
            same_string(expect(d->error_names, d->n_errors, k, buf, sizeof(buf)),
                        xw_errors_get_name_for_error(x, (uint8_t)(r->first_error + k), &ext), d->ext_name, (int)k);
            ck_assert_str_eq(ext, d->ext_name);
        }
        free(r);
    }
    /* and every core code */
    for (int k = 0; k < 128; k++, compared++) {
        const char *want =
            expect(xw_xproto_desc.request_names, xw_xproto_desc.n_requests, (unsigned)k, buf, sizeof(buf));
        same_string(want, xw_errors_get_name_for_major_code(x, (uint8_t)k), "core request", k);
    }
    return compared;
}

#define EXT(name) &xw_##name##_id,
/* Laid out by hand: clang-format reads an X-list as one expression and rewraps it on every run. */
/* clang-format off */
#define ALL_EXTS(X)                                                                                                    \
    X(big_requests) X(composite) X(damage) X(dbe) X(dpms) X(dri2) X(dri3) X(genericevent) X(glx) X(present) X(randr)   \
    X(record) X(render) X(res) X(screensaver) X(shape) X(shm) X(sync) X(xc_misc) X(xevie) X(xf86dri) X(xf86vidmode)    \
    X(xfixes) X(xinerama) X(input) X(xkb) X(x_print) X(selinux) X(test) X(xv) X(xvmc)
/* clang-format on */
#define DECL(name) XW_EXPORT extern xw_extension_t xw_##name##_id;
ALL_EXTS(DECL)

static void check_errors_on(xw_connection_t *conn)
{
    static xw_extension_t *const exts[] = {ALL_EXTS(EXT)};
    xw_errors_context_t *x = NULL;
    ck_assert_int_eq(xw_errors_context_new(conn, &x), 0);
    ck_assert_ptr_nonnull(x);
    check_known_names(x);
    int n = check_every_code(x, exts, sizeof(exts) / sizeof(exts[0]));
    printf("xw_errors: %d names compared\n", n);
    xw_errors_context_free(x);
}

START_TEST(errors_own_connection)
{
    check_errors_on(c);
    /* a NULL context answers as xcb-util-errors does */
    ck_assert_str_eq(xw_errors_get_name_for_major_code(NULL, 1), "xcb-errors API misuse: context argument is NULL");
    xw_errors_context_free(NULL);
}
END_TEST

START_TEST(errors_borrowed_connection)
{
    xw_connection_t *b = xw_xcb_borrow(xc);
    ck_assert_int_eq(xw_connection_has_error(b), 0);
    check_errors_on(b);
    xw_disconnect(b);
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_names"))
        return 77;
    Suite *s = xwtest_suite("util_names");
    TCase *tc = xvfb_tcase(
        s,
        &(struct xvfb_suite){.name = "util_names", .timeout = 120, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, atom_names_match_xcb_util);
    tcase_add_test(tc, event_labels_match_xcb_util);
    tcase_add_test(tc, parse_color_matches_xcb_util);
    tcase_add_test(tc, layouts_match_xcb_util);
    tcase_add_test(tc, errors_own_connection);
    tcase_add_test(tc, errors_borrowed_connection);
    return xwtest_run(s);
}
