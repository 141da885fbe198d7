/* SPDX-License-Identifier: MIT */
/* noop.c — N NoOperation requests and one round trip, written once for libxcb's names
 * (built against Debian's <xcb/xcb.h>) and once for xwire's (-DNOOP_XW): the two
 * builds callgrind compares, test_noop_cost.py. usage: noop N */
#include <stdio.h>
#include <stdlib.h>

#ifdef NOOP_XW
#include <xw/xw.h>
#define PFX(name) xw_##name
typedef xw_connection_t conn_t;
#else
#include <xcb/xcb.h>
#define PFX(name) xcb_##name
typedef xcb_connection_t conn_t;
#endif

/* callgrind counts instructions inside this function only (--toggle-collect). */
__attribute__((noinline)) void noop_flood(conn_t *c, long n)
{
    for (long i = 0; i < n; i++)
        PFX(no_operation)(c);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 0;
    conn_t *c = PFX(connect)(NULL, NULL);
    if (PFX(connection_has_error)(c)) {
        fprintf(stderr, "noop: cannot connect\n");
        return 1;
    }
    noop_flood(c, n);
    free(PFX(get_input_focus_reply)(c, PFX(get_input_focus)(c), NULL));
    int bad = PFX(connection_has_error)(c);
    PFX(disconnect)(c);
    return bad;
}
