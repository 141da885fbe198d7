/* SPDX-License-Identifier: MIT */
/* util_oracle.h — what the xcb-util comparison tests share:
 * the oracle's own libxcb connection to the suite's Xvfb, a check run on a
 * connection borrowed from a second libxcb connection, a libxcb round trip, and
 * whether the interposed allocation counter counts. Each util test file includes it. */
#ifndef XW_TEST_UTIL_ORACLE_H
#define XW_TEST_UTIL_ORACLE_H

#include <check.h>
#include <stdlib.h>

#include <xcb/xcb.h>
#include <xw/xw-xcb.h>

#include "alloc_count.h"
#include "xvfb_suite.h"

/* The fixture: the suite's Xvfb and xwire connection (xvfb_setup), then the oracle's. */
static inline void util_oracle_setup(xcb_connection_t **xc)
{
    xvfb_setup();
    *xc = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(*xc), 0);
}

static inline void util_oracle_teardown(xw_connection_t *c, xcb_connection_t *xc)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xcb_disconnect(xc);
    xvfb_teardown();
}

/* Runs check on xwire over a second libxcb connection (the oracle keeps its own). */
static inline void util_on_borrowed(void (*check)(xw_connection_t *))
{
    xcb_connection_t *lender = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(lender), 0);
    xw_connection_t *b = xw_xcb_borrow(lender);
    ck_assert_int_eq(xw_connection_has_error(b), 0);
    check(b);
    xw_disconnect(b);
    xcb_disconnect(lender);
}

/* A round trip on xc: everything sent before has been processed. */
static inline void util_xcb_sync(xcb_connection_t *xc)
{
    free(xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL));
}

/* Whether the interposed counter sees this thread's mallocs: not in sanitizer builds
 * (XW_COUNT_ALLOCS 0) nor under valgrind, whose allocator replaces it. */
static inline int util_counting_works(void)
{
    unsigned long t = alloc_count_begin();
    void *volatile p = malloc(16);
    free(p);
    return alloc_count_end(t) == 1;
}

#endif
