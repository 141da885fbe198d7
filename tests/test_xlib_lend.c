/* SPDX-License-Identifier: MIT */
/* test_xlib_lend.c — real libX11 on xwire: its 16 xcb_* calls forwarded to xw_* in this binary, the same
 * Xlib session run on libxcb and on xwire against Xvfb, the two transcripts compared. */
#include <check.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xatom.h>
#include <X11/Xlib-xcb.h>
#include <X11/Xlib.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

#include <xw/xwext.h>

#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *fixture_conn;

/* ---- the interposer: libX11's imports, to libxcb (the next definition) or to xwire ---- */

static int on_xwire;

#define API __attribute__((visibility("default")))
#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))
#define XW(c) ((xw_connection_t *)(c))

API xcb_connection_t *xcb_connect(const char *name, int *screen)
{
    return on_xwire ? (xcb_connection_t *)xw_connect(name, screen) : REAL(xcb_connect)(name, screen);
}

API xcb_connection_t *xcb_connect_to_display_with_auth_info(const char *name, xcb_auth_info_t *auth, int *screen)
{
    if (on_xwire) /* xw_auth_info_t has xcb_auth_info_t's layout */
        return (xcb_connection_t *)xw_connect_to_display_with_auth_info(name, (xw_auth_info_t *)auth, screen);
    return REAL(xcb_connect_to_display_with_auth_info)(name, auth, screen);
}

API int xcb_connection_has_error(xcb_connection_t *c)
{
    return on_xwire ? xw_connection_has_error(XW(c)) : REAL(xcb_connection_has_error)(c);
}

API void xcb_disconnect(xcb_connection_t *c)
{
    if (on_xwire)
        xw_disconnect(XW(c));
    else
        REAL(xcb_disconnect)(c);
}

API uint32_t xcb_generate_id(xcb_connection_t *c)
{
    return on_xwire ? xw_generate_id(XW(c)) : REAL(xcb_generate_id)(c);
}

API int xcb_get_file_descriptor(xcb_connection_t *c)
{
    return on_xwire ? xw_get_file_descriptor(XW(c)) : REAL(xcb_get_file_descriptor)(c);
}

API uint32_t xcb_get_maximum_request_length(xcb_connection_t *c)
{
    return on_xwire ? xw_get_maximum_request_length(XW(c)) : REAL(xcb_get_maximum_request_length)(c);
}

API const xcb_setup_t *xcb_get_setup(xcb_connection_t *c)
{
    return on_xwire ? (const xcb_setup_t *)xw_get_setup(XW(c)) : REAL(xcb_get_setup)(c);
}

API int xcb_parse_display(const char *name, char **host, int *display, int *screen)
{
    return on_xwire ? xw_parse_display(name, host, display, screen)
                    : REAL(xcb_parse_display)(name, host, display, screen);
}

API xcb_generic_event_t *xcb_poll_for_event(xcb_connection_t *c)
{
    return on_xwire ? (xcb_generic_event_t *)xw_poll_for_event(XW(c)) : REAL(xcb_poll_for_event)(c);
}

API xcb_generic_event_t *xcb_poll_for_queued_event(xcb_connection_t *c)
{
    return on_xwire ? (xcb_generic_event_t *)xw_poll_for_queued_event(XW(c)) : REAL(xcb_poll_for_queued_event)(c);
}

API xcb_generic_event_t *xcb_wait_for_event(xcb_connection_t *c)
{
    return on_xwire ? (xcb_generic_event_t *)xw_wait_for_event(XW(c)) : REAL(xcb_wait_for_event)(c);
}

API int xcb_poll_for_reply64(xcb_connection_t *c, uint64_t request, void **reply, xcb_generic_error_t **error)
{
    if (on_xwire)
        return xw_poll_for_reply64(XW(c), request, reply, (xw_generic_error_t **)error);
    return REAL(xcb_poll_for_reply64)(c, request, reply, error);
}

API void *xcb_wait_for_reply64(xcb_connection_t *c, uint64_t request, xcb_generic_error_t **e)
{
    if (on_xwire)
        return xw_wait_for_reply64(XW(c), request, (xw_generic_error_t **)e);
    return REAL(xcb_wait_for_reply64)(c, request, e);
}

API int xcb_take_socket(xcb_connection_t *c, void (*return_socket)(void *closure), void *closure, int flags,
                        uint64_t *sent)
{
    if (on_xwire)
        return xw_take_socket(XW(c), return_socket, closure, flags, sent);
    return REAL(xcb_take_socket)(c, return_socket, closure, flags, sent);
}

API int xcb_writev(xcb_connection_t *c, struct iovec *vector, int count, uint64_t requests)
{
    return on_xwire ? xw_writev(XW(c), vector, count, requests) : REAL(xcb_writev)(c, vector, count, requests);
}

/* ---- the session ---- */

static char transcript[2][8192];
static size_t tlen;
static char *tcur;

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tcur + tlen, sizeof(transcript[0]) - tlen, fmt, ap);
    va_end(ap);
    ck_assert_int_lt((size_t)n, sizeof(transcript[0]) - tlen);
    tlen += (size_t)n;
}

static int last_error, last_error_major, errors_seen;

static int on_error(Display *d, XErrorEvent *e)
{
    (void)d;
    last_error = e->error_code;
    last_error_major = e->request_code;
    errors_seen++;
    return 0;
}

static const char prop_name[] = "XW_LEND_PROPERTY";

/* While Xlib holds the socket with a ChangeProperty in its buffer, the library's
 * own requests on the same connection (xwire's, or libxcb's in the reference run)
 * take it back first: the property is there. Xlib's next take then has the flags
 * of its event-queue owner. */
static void library_meanwhile(Display *d, Window w, Atom a, size_t len)
{
    xcb_connection_t *xc = XGetXCBConnection(d);
    uint32_t atom, value_len;
    if (on_xwire) {
        xw_connection_t *c = XW(xc);
        xw_intern_atom_reply_t *ar = xw_intern_atom_reply(c, xw_intern_atom(c, 1, strlen(prop_name), prop_name), NULL);
        ck_assert_ptr_nonnull(ar);
        atom = ar->atom;
        free(ar);
        xw_get_property_reply_t *pr =
            xw_get_property_reply(c, xw_get_property(c, 0, (xw_window_t)w, (xw_atom_t)a, XA_STRING, 0, 4096), NULL);
        ck_assert_ptr_nonnull(pr);
        value_len = pr->value_len;
        free(pr);
    } else {
        xcb_intern_atom_reply_t *ar =
            xcb_intern_atom_reply(xc, xcb_intern_atom(xc, 1, strlen(prop_name), prop_name), NULL);
        ck_assert_ptr_nonnull(ar);
        atom = ar->atom;
        free(ar);
        xcb_get_property_reply_t *pr = xcb_get_property_reply(
            xc, xcb_get_property(xc, 0, (xcb_window_t)w, (xcb_atom_t)a, XA_STRING, 0, 4096), NULL);
        ck_assert_ptr_nonnull(pr);
        value_len = pr->value_len;
        free(pr);
    }
    ck_assert_uint_eq(atom, a);
    ck_assert_uint_eq(value_len, len);
}

/* The events: Xlib's queue, or with XCBOwnsEventQueue the library's. */
static void next_property_event(Display *d, int xcb_owns, Atom a)
{
    if (!xcb_owns) {
        XEvent ev;
        XNextEvent(d, &ev);
        say("event %d atom-match %d state %d\n", ev.type, ev.xproperty.atom == a, ev.xproperty.state);
        return;
    }
    xcb_generic_event_t *e = xcb_wait_for_event(XGetXCBConnection(d));
    ck_assert_ptr_nonnull(e);
    say("event %d atom-match %d\n", e->response_type & 0x7f, ((xcb_property_notify_event_t *)e)->atom == (xcb_atom_t)a);
    free(e);
}

static void session(int xwire, int xcb_owns)
{
    on_xwire = xwire;
    tcur = transcript[xwire];
    tlen = 0;
    errors_seen = 0;
    Display *d = XOpenDisplay(xvfb_server.name);
    ck_assert_ptr_nonnull(d);
    if (xcb_owns)
        XSetEventQueueOwner(d, XCBOwnsEventQueue); /* Xlib then takes the socket with CHECKED */
    XSetErrorHandler(on_error);
    say("vendor %s release %d screens %d max-request %ld\n", ServerVendor(d), VendorRelease(d), ScreenCount(d),
        XMaxRequestSize(d));
    Atom a = XInternAtom(d, prop_name, False);
    say("atoms %lu %lu\n", XInternAtom(d, "WM_PROTOCOLS", False), XInternAtom(d, "ATOM", True));
    Window w = XCreateSimpleWindow(d, DefaultRootWindow(d), 0, 0, 10, 10, 0, 0, 0);
    XSelectInput(d, w, PropertyChangeMask);
    unsigned char data[3000];
    for (size_t i = 0; i < sizeof(data); i++)
        data[i] = (unsigned char)('a' + i % 26);
    XChangeProperty(d, w, a, XA_STRING, 8, PropModeReplace, data, sizeof(data));
    library_meanwhile(d, w, a, sizeof(data));
    XSync(d, False);
    next_property_event(d, xcb_owns, a);

    Atom type;
    int format;
    unsigned long n, after;
    unsigned char *prop = NULL;
    ck_assert_int_eq(XGetWindowProperty(d, w, a, 0, 4096, False, AnyPropertyType, &type, &format, &n, &after, &prop),
                     Success);
    ck_assert_uint_eq(n, sizeof(data));
    ck_assert_mem_eq(prop, data, sizeof(data));
    say("property type %lu format %d items %lu after %lu\n", type, format, n, after);
    XFree(prop);

    int count = 0;
    XFontStruct *info = NULL;
    char **names = XListFontsWithInfo(d, "*", 8, &count, &info); /* one reply per font, then the end */
    ck_assert_int_gt(count, 0);
    for (int i = 0; i < count; i++)
        say("font %s ascent %d\n", names[i], info[i].ascent);
    XFreeFontInfo(names, info, count);

    XMapWindow(d, 0x3fffffe); /* BadWindow, through the error handler */
    XSync(d, False);
    say("errors %d last %d major %d\n", errors_seen, last_error, last_error_major);
    ck_assert_int_eq(last_error, BadWindow);

    for (int i = 0; i < 70000; i++) /* past the 16-bit wrap; Xlib syncs on its own */
        XNoOp(d);
    Window focus;
    int revert;
    XGetInputFocus(d, &focus, &revert);
    say("focus %lu revert %d next-request %lu\n", focus, revert, NextRequest(d));
    XDeleteProperty(d, w, a);
    XSync(d, False);
    next_property_event(d, xcb_owns, a);
    XDestroyWindow(d, w);
    XCloseDisplay(d);
    on_xwire = 0;
}

static void compare(void)
{
    if (strcmp(transcript[0], transcript[1]))
        ck_abort_msg("Xlib on libxcb:\n%s\nXlib on xwire:\n%s", transcript[0], transcript[1]);
}

START_TEST(xlib_owns_the_event_queue)
{
    session(0, 0);
    session(1, 0);
    compare();
}
END_TEST

START_TEST(xcb_owns_the_event_queue)
{
    session(0, 1);
    session(1, 1);
    compare();
}
END_TEST

/* The sequence number on the line that holds needle, or 0. */
static unsigned long traced_seq(const char *text, const char *needle)
{
    const char *at = strstr(text, needle);
    if (!at)
        return 0;
    const char *hash = at;
    while (hash > text && *hash != '#')
        hash--;
    return strtoul(hash + 1, NULL, 10);
}

/* Xlib's bytes go through the socket hand-off (xw_writev); the tracer sees them on the
 * wire: its requests, their replies under the same sequence, its error. */
START_TEST(xlib_traced_through_the_hand_off)
{
    on_xwire = 1;
    Display *d = XOpenDisplay(xvfb_server.name);
    ck_assert_ptr_nonnull(d);
    XSetErrorHandler(on_error);
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(xw_trace_set(XW(XGetXCBConnection(d)), fileno(f), 0), 0);
    Atom a = XInternAtom(d, prop_name, False);
    Window w = XCreateSimpleWindow(d, DefaultRootWindow(d), 0, 0, 10, 10, 0, 0, 0);
    unsigned char data[3000] = {0};
    XChangeProperty(d, w, a, XA_STRING, 8, PropModeReplace, data, sizeof(data));
    XMapWindow(d, 0x3fffffe);
    XSync(d, False);
    ck_assert_int_eq(xw_trace_set(XW(XGetXCBConnection(d)), -1, 0), 0);
    XDestroyWindow(d, w);
    XCloseDisplay(d);
    on_xwire = 0;
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof(text) - 1, (rewind(f), f));
    text[n] = 0;
    fclose(f);
    unsigned long rq =
        traced_seq(text, "> request InternAtom only_if_exists=false name_len=16 name=\"XW_LEND_PROPERTY\"");
    ck_assert_msg(rq, "%s", text);
    char reply[96];
    snprintf(reply, sizeof(reply), "< reply InternAtom atom=XW_LEND_PROPERTY(%lu)", (unsigned long)a);
    ck_assert_msg(traced_seq(text, reply) == rq, "%s", text);
    ck_assert_msg(traced_seq(text, "> request CreateWindow depth=0 wid=") == rq + 1, "%s", text);
    ck_assert_msg(strstr(text, "> request ChangeProperty mode=Replace window="), "%s", text);
    ck_assert_msg(strstr(text, "property=XW_LEND_PROPERTY("), "%s", text);
    ck_assert_msg(strstr(text, "format=8 data_len=3000 data=[3000]{0 0 0"), "%s", text);
    unsigned long map = traced_seq(text, "> request MapWindow window=0x3fffffe");
    ck_assert_msg(map && traced_seq(text, "< error Window bad_value=0x3fffffe request=MapWindow(8.0)") == map, "%s",
                  text);
    ck_assert_msg(traced_seq(text, "> request GetInputFocus") == map + 1, "%s", text);
}
END_TEST

int main(void)
{
    if (xvfb_missing("xlib_lend"))
        return 77;
    Suite *s = xwtest_suite("xlib_lend");
    TCase *tc = xvfb_tcase(s, &(struct xvfb_suite){.name = "xlib_lend", .timeout = 240, .conn = &fixture_conn});
    tcase_add_test(tc, xlib_owns_the_event_queue);
    tcase_add_test(tc, xcb_owns_the_event_queue);
    tcase_add_test(tc, xlib_traced_through_the_hand_off);
    return xwtest_run(s);
}
