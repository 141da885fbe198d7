/* SPDX-License-Identifier: MIT */
/* lib_xw_xcb.c — xwire's senders on a connection libxcb owns (libxwire-xcb): the drop-in use, measured
 * against the same flood through xcb_no_operation (the libxcb row) and through xwire's own connection. */
#include <stdio.h>
#include <stdlib.h>

#include <xcb/xcb.h>
#include <xw/xproto.h>
#include <xw/xw-xcb.h>

#include "bench.h"
#include "meter.h"

#define LIB_NAME "xwire on xcb"

/* Errors reach libxcb's event queue: any one fails the run. */
static long finish(xcb_connection_t *xc, xw_connection_t *c, long result)
{
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(xc))) {
        if (ev->response_type == 0) {
            fprintf(stderr, "xwbench: %s: X error %d\n", LIB_NAME, ((xcb_generic_error_t *)ev)->error_code);
            result = -1;
        }
        free(ev);
    }
    if (xw_connection_has_error(c) || xcb_connection_has_error(xc)) {
        fprintf(stderr, "xwbench: %s: connection broke\n", LIB_NAME);
        result = -1;
    }
    xw_disconnect(c);
    xcb_disconnect(xc);
    return result;
}

/* NoOperation through xwire's buffer on libxcb's socket, then the round trip a
 * libxcb program would make: libxcb takes its socket back, xwire's bytes first. */
static long run_noop(const struct target *t, struct meter *m)
{
    xcb_connection_t *xc = xcb_connect(t->server->name, NULL);
    if (xcb_connection_has_error(xc)) {
        fprintf(stderr, "xwbench: %s cannot connect to %s\n", LIB_NAME, t->server->name);
        xcb_disconnect(xc);
        return -1;
    }
    xw_connection_t *c = xw_xcb_borrow(xc);
    meter_start(m);
    for (long i = 0; i < t->n; i++)
        xw_no_operation(c);
    xcb_get_input_focus_reply_t *r = xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL);
    meter_stop(m);
    long got = !r ? -1 : server_is_fake(t->server) ? (long)r->focus : t->n;
    free(r);
    return finish(xc, c, got);
}

const struct library lib_xw_xcb = {
    .name = LIB_NAME,
    .cases = {[CASE_NOOP] = run_noop},
    .vs = "xwire",
};
