/* SPDX-License-Identifier: MIT */
/* xwflood.c — the NoOperation flood docs/examples.md quotes: N requests as fast as the
 * client can build them, then one round trip, whose reply can only come after the
 * server has processed every one of them. Usage: xwflood [-display NAME] [N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xw/xw.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *display = argc > 2 && !strcmp(argv[1], "-display") ? argv[2] : NULL;
    long n = argc > (display ? 3 : 1) ? atol(argv[display ? 3 : 1]) : 10000000;
    double t0 = now();

    /* --- the ten lines --- */
    xw_connection_t *c = xw_connect(display, NULL);
    if (xw_connection_has_error(c)) {
        fprintf(stderr, "xwflood: cannot connect: %s\n", xw_connection_error_string(c));
        xw_disconnect(c);
        return 1;
    }
    for (long i = 0; i < n; i++)
        xw_no_operation(c); /* no allocation; one write per 16 KiB */
    xw_generic_error_t *e = NULL;
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), &e));
    /* --- */

    double dt = now() - t0;
    int status = 0;
    if (e) { /* cannot happen for these two requests, but this is how it would read */
        char text[256];
        xw_error_text(c, e, text, sizeof(text));
        fprintf(stderr, "xwflood: %s\n", text);
        free(e);
        status = 1;
    } else if (xw_connection_has_error(c)) {
        fprintf(stderr, "xwflood: connection lost: %s\n", xw_connection_error_string(c));
        status = 1;
    } else {
        printf("xwflood: %ld NoOperation requests and one round trip in %.3f s (%.1f M/s)\n", n, dt, n / dt / 1e6);
    }
    xw_disconnect(c);
    return status;
}
