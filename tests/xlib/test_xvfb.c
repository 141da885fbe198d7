/* SPDX-License-Identifier: MIT */
/* test_xvfb.c — GE and DBE against a real Xvfb (it implements both): every request of the
 * two descriptions is sent through xwire with valid arguments. Void requests are sent
 * _checked and must draw no error at all (in particular no BadLength or BadRequest, which
 * would mean xwire framed the request wrongly); reply requests must get a reply that parses
 * with plausible values. Lists are sent with 0, 1 and 3 elements. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xw/xw.h>
#include <xw/dbe.h>
#include <xw/ge.h>

#include "fake_server.h" /* count_open_fds */
#include "tally.h"
#include "xvfb.h"

static struct req_mark marks[] = {
    {"GE", "QueryVersion", 0, 0, 0},
    {"DBE", "QueryVersion", 0, 0, 0},
    {"DBE", "AllocateBackBuffer", 0, 0, 0},
    {"DBE", "DeallocateBackBuffer", 0, 0, 0},
    {"DBE", "SwapBuffers", 0, 0, 0},
    {"DBE", "BeginIdiom", 0, 0, 0},
    {"DBE", "EndIdiom", 0, 0, 0},
    {"DBE", "GetVisualInfo", 0, 0, 0},
    {"DBE", "GetBackBufferAttributes", 0, 0, 0},
};

static struct xvfb X;
static xw_connection_t *c;

/* An error is a failure; BadRequest (1) and BadLength (16) are named, since they are what
 * a wrongly framed request draws. */
static void error_case(struct req_mark *m, const char *what, xw_generic_error_t *e)
{
    char label[160];
    if (!e) {
        snprintf(label, sizeof(label), "%s: no error", what);
        tally_case(m, 1, label);
        return;
    }
    snprintf(label, sizeof(label), "%s: X error %d%s (major %d, minor %d)", what, e->error_code,
             e->error_code == 16  ? " BadLength"
             : e->error_code == 1 ? " BadRequest"
                                  : "",
             e->major_code, e->minor_code);
    tally_case(m, 0, label);
    free(e);
}

static void void_case(const char *ext, const char *name, const char *what, xw_void_cookie_t ck)
{
    struct req_mark *m = tally_find(ext, name);
    if (ck.sequence == 0) {
        tally_case(m, 0, "xwire did not send the request");
        return;
    }
    error_case(m, what, xw_request_check(c, ck));
}

/* The reply check for a reply request: R non-NULL, no error, COND holds. */
#define REPLY_CASE(ext, name, what, fn, args, cond) REPLY_CASE_V(ext, name, what, fn, fn, args, cond)
#define REPLY_CASE_V(ext, name, what, fn, send, args, cond)                                                            \
    do {                                                                                                               \
        xw_generic_error_t *e_ = NULL;                                                                                 \
        __typeof__(fn##_reply(c, send args, NULL)) r = fn##_reply(c, send args, &e_);                                  \
        struct req_mark *m_ = tally_find(ext, name);                                                                   \
        if (e_)                                                                                                        \
            error_case(m_, what, e_);                                                                                  \
        else if (!r)                                                                                                   \
            tally_case(m_, 0, what ": no reply and no error (connection error?)");                                     \
        else {                                                                                                         \
            tally_case(m_, (cond), what ": reply parses with the expected values");                                    \
        }                                                                                                              \
        free(r);                                                                                                       \
    } while (0)

/* Every VisualInfos of a GetVisualInfo reply has at least one visual, each with a depth. */
static int visual_infos_sane(const xw_dbe_get_visual_info_reply_t *r, int want)
{
    if ((int)r->n_supported_visuals != want || xw_dbe_get_visual_info_supported_visuals_length(r) != want)
        return 0;
    xw_dbe_visual_infos_iterator_t it = xw_dbe_get_visual_info_supported_visuals_iterator(r);
    int screens = 0;
    for (; it.rem; xw_dbe_visual_infos_next(&it), screens++) {
        int n = xw_dbe_visual_infos_infos_length(it.data);
        const xw_dbe_visual_info_t *v = xw_dbe_visual_infos_infos(it.data);
        if (n <= 0)
            return 0;
        for (int i = 0; i < n; i++)
            if (v[i].visual_id == 0 || v[i].depth == 0)
                return 0;
    }
    return screens == want;
}

static void ge_cases(void)
{
    REPLY_CASE("GE", "QueryVersion", "client 1.0", xw_genericevent_query_version, (c, 1, 0),
               r->major_version == 1 && r->minor_version == 0);
    REPLY_CASE_V("GE", "QueryVersion", "client 1.0, _unchecked", xw_genericevent_query_version,
                 xw_genericevent_query_version_unchecked, (c, 1, 0), r->major_version == 1);
    /* Last: the server remembers the client's major version, and from then on refuses
     * every GE request of a client that claimed a version it does not know (BadRequest). */
    REPLY_CASE("GE", "QueryVersion", "client 7.9 (server answers its own 1.0)", xw_genericevent_query_version,
               (c, 7, 9), r->major_version == 1);
}

static void dbe_cases(void)
{
    const xw_setup_t *setup = xw_get_setup(c);
    const xw_screen_t *scr = xw_setup_roots_iterator(setup).data;
    xw_window_t win[3];
    xw_dbe_back_buffer_t buf[3];

    REPLY_CASE("DBE", "QueryVersion", "client 1.0", xw_dbe_query_version, (c, 1, 0),
               r->major_version == 1 && r->minor_version == 0);
    REPLY_CASE_V("DBE", "QueryVersion", "client 1.0, _unchecked", xw_dbe_query_version, xw_dbe_query_version_unchecked,
                 (c, 1, 0), r->major_version == 1);

    /* Three windows with a back buffer each, one per swap action (Copied used twice). */
    static const uint8_t actions[] = {XW_DBE_SWAP_ACTION_BACKGROUND, XW_DBE_SWAP_ACTION_UNTOUCHED,
                                      XW_DBE_SWAP_ACTION_COPIED};
    for (int i = 0; i < 3; i++) {
        win[i] = xw_generate_id(c);
        xw_generic_error_t *e =
            xw_request_check(c, xw_create_window_checked(c, scr->root_depth, win[i], scr->root, (int16_t)(10 * i), 0,
                                                         64, 48, 0, 1, scr->root_visual, 0, NULL));
        if (e) {
            printf("CreateWindow failed: error %d\n", e->error_code);
            free(e);
        }
        xw_map_window(c, win[i]);
        buf[i] = xw_generate_id(c);
        char what[48];
        snprintf(what, sizeof(what), "window %d, swap action %d", i, actions[i]);
        void_case("DBE", "AllocateBackBuffer", what,
                  xw_dbe_allocate_back_buffer_checked(c, win[i], buf[i], actions[i]));
    }
    /* Undefined (0), unchecked form, on a fourth window: checked afterwards by attributes. */
    xw_window_t w4 = xw_generate_id(c);
    xw_create_window(c, scr->root_depth, w4, scr->root, 0, 0, 8, 8, 0, 1, scr->root_visual, 0, NULL);
    xw_dbe_back_buffer_t b4 = xw_generate_id(c);
    xw_dbe_allocate_back_buffer(c, w4, b4, XW_DBE_SWAP_ACTION_UNDEFINED);

    for (int i = 0; i < 3; i++)
        REPLY_CASE("DBE", "GetBackBufferAttributes", "allocated buffer", xw_dbe_get_back_buffer_attributes, (c, buf[i]),
                   r->attributes.window == win[i]);
    REPLY_CASE_V("DBE", "GetBackBufferAttributes", "buffer allocated unchecked, _unchecked",
                 xw_dbe_get_back_buffer_attributes, xw_dbe_get_back_buffer_attributes_unchecked, (c, b4),
                 r->attributes.window == w4);

    /* SwapBuffers: 0, 1 and 3 windows */
    xw_dbe_swap_info_t si[3];
    memset(si, 0, sizeof(si));
    for (int i = 0; i < 3; i++) {
        si[i].window = win[i];
        si[i].swap_action = actions[i];
    }
    void_case("DBE", "SwapBuffers", "0 windows", xw_dbe_swap_buffers_checked(c, 0, si));
    void_case("DBE", "SwapBuffers", "1 window", xw_dbe_swap_buffers_checked(c, 1, si));
    void_case("DBE", "SwapBuffers", "3 windows", xw_dbe_swap_buffers_checked(c, 3, si));
    xw_dbe_swap_buffers(c, 3, si); /* unchecked form: errors would come as events, checked below */

    void_case("DBE", "BeginIdiom", "no fields", xw_dbe_begin_idiom_checked(c));
    void_case("DBE", "EndIdiom", "no fields", xw_dbe_end_idiom_checked(c));
    xw_dbe_begin_idiom(c);
    xw_dbe_end_idiom(c);

    /* GetVisualInfo: 0 drawables (every screen: one here), 1, 3 */
    xw_drawable_t dr[3] = {scr->root, win[0], win[1]};
    REPLY_CASE("DBE", "GetVisualInfo", "0 drawables", xw_dbe_get_visual_info, (c, 0, dr), visual_infos_sane(r, 1));
    REPLY_CASE("DBE", "GetVisualInfo", "1 drawable", xw_dbe_get_visual_info, (c, 1, dr), visual_infos_sane(r, 1));
    REPLY_CASE("DBE", "GetVisualInfo", "3 drawables", xw_dbe_get_visual_info, (c, 3, dr), visual_infos_sane(r, 3));
    REPLY_CASE_V("DBE", "GetVisualInfo", "3 drawables, _unchecked", xw_dbe_get_visual_info,
                 xw_dbe_get_visual_info_unchecked, (c, 3, dr), visual_infos_sane(r, 3));

    void_case("DBE", "DeallocateBackBuffer", "buffer of window 0", xw_dbe_deallocate_back_buffer_checked(c, buf[0]));
    xw_dbe_deallocate_back_buffer(c, b4);
    /* After deallocation the name no longer names a buffer: DBE answers window None
     * (or BadBuffer on some servers); either way not a length problem. */
    {
        xw_generic_error_t *e = NULL;
        xw_dbe_get_back_buffer_attributes_reply_t *r =
            xw_dbe_get_back_buffer_attributes_reply(c, xw_dbe_get_back_buffer_attributes(c, buf[0]), &e);
        int ok = (r && r->attributes.window == 0) || (e && e->error_code != 16 && e->error_code != 1);
        tally_case(tally_find("DBE", "DeallocateBackBuffer"), ok, "buffer gone afterwards (window None or BadBuffer)");
        free(r);
        free(e);
    }

    /* Errors of the unchecked forms arrive as events; there must be none. */
    xw_get_input_focus_reply_t *sync = xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL);
    free(sync);
    const xw_query_extension_reply_t *dbe = xw_get_extension_data(c, &xw_dbe_id);
    xw_generic_event_t *ev;
    int errors = 0;
    while ((ev = xw_poll_for_event(c))) {
        if (ev->response_type == 0) {
            xw_generic_error_t *e = (xw_generic_error_t *)ev;
            printf("unchecked request drew error %d (major %d, minor %d)\n", e->error_code, e->major_code,
                   e->minor_code);
            errors += !dbe || e->major_code == dbe->major_opcode;
        }
        free(ev);
    }
    tally_case(tally_find("DBE", "SwapBuffers"), errors == 0,
               "unchecked forms (Allocate, Swap, Idioms, Deallocate): no error events");
    tally_case(tally_find("DBE", "BeginIdiom"), errors == 0, "unchecked form: no error events");
    tally_case(tally_find("DBE", "EndIdiom"), errors == 0, "unchecked form: no error events");
    tally_case(tally_find("DBE", "AllocateBackBuffer"), errors == 0, "unchecked form: no error events");
    tally_case(tally_find("DBE", "DeallocateBackBuffer"), errors == 0, "unchecked form: no error events");
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "ge-dbe-xvfb: timed out after 40 s\n0 passed, 1 failed\n";
    (void)!write(1, msg, sizeof(msg) - 1);
    if (X.pid > 0)
        kill(X.pid, SIGKILL);
    _exit(1);
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    alarm(40);
    tally_begin("Xvfb (a real server)", marks, sizeof(marks) / sizeof(marks[0]));
    int fds_at_start = count_open_fds();
    if (xvfb_start(&X) < 0) {
        printf("cannot start Xvfb (install the xvfb package or set $XVFB)\n0 passed, 1 failed\n");
        return 1;
    }
    c = xw_connect(X.name, NULL);
    if (!c || xw_connection_has_error(c)) {
        printf("xw_connect(%s) failed: %s\n0 passed, 1 failed\n", X.name, c ? xw_connection_error_string(c) : "");
        xvfb_stop(&X);
        return 1;
    }
    ge_cases();
    dbe_cases();
    int dead = xw_connection_has_error(c);
    tally_case(tally_find("GE", "QueryVersion"), !dead, "connection still healthy at the end");
    xw_disconnect(c);
    xvfb_stop(&X);
    tally_extra(count_open_fds() == fds_at_start, "no file descriptor left open at the end");
    return tally_end();
}
