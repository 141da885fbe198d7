/* SPDX-License-Identifier: MIT */
/* receivers.c — xwrecv: CPU and system calls of an event receiver, xwire beside libxcb, fed the same SendEvent
 * flood. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xw/xproto.h>

/* Against a real server (Xvfb): two receivers, one on each library, select
 * PropertyChange on the root window; a third client sends ClientMessages to the
 * root with that mask, so the server delivers each to both. Each receiver loops
 * on wait_for_event until it has every event, then reports its own CPU time and
 * its voluntary context switches (its sleeps: wake-ups per event). The sender
 * paces itself to RATE events/s (0: as fast as the server takes them), sending
 * BATCH events then a round trip (so the server is not flooded faster than it
 * writes): small batches make the events trickle in, a few per wake-up. */

#define MAGIC 0x78777263u

static void usage_report(const char *lib, long n, double secs)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
    double sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    printf("%-7s %ld events in %.2f s: user %.3f s sys %.3f s, %.0f ns CPU/event, %.3f sleeps/event\n", lib, n, secs,
           user, sys, (user + sys) * 1e9 / (double)n, (double)ru.ru_nvcsw / (double)n);
    fflush(stdout);
}

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int ours(const uint8_t *e)
{
    uint32_t m;
    memcpy(&m, e + 12, 4);
    return (e[0] & 0x7f) == XCB_CLIENT_MESSAGE && m == MAGIC;
}

static int recv_xcb(const char *display, long n, int ready)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(c))
        return write(ready, "f", 1), 1;
    uint32_t mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
    xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    xcb_change_window_attributes(c, root, XCB_CW_EVENT_MASK, &mask);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    if (write(ready, "x", 1) != 1)
        return 1;
    double t0 = mono();
    long got = 0;
    xcb_generic_event_t *e;
    while (got < n && (e = xcb_wait_for_event(c))) {
        got += ours((const uint8_t *)e);
        free(e);
    }
    usage_report("libxcb", got, mono() - t0);
    xcb_disconnect(c);
    return got == n ? 0 : 1;
}

static int recv_xw(const char *display, long n, int ready)
{
    xw_connection_t *c = xw_connect(display, NULL);
    if (xw_connection_has_error(c))
        return write(ready, "f", 1), 1;
    uint32_t mask = XW_EVENT_MASK_PROPERTY_CHANGE;
    xw_window_t root = xw_setup_roots_iterator(xw_get_setup(c)).data->root;
    xw_change_window_attributes(c, root, XW_CW_EVENT_MASK, &mask);
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
    if (write(ready, "x", 1) != 1)
        return 1;
    double t0 = mono();
    long got = 0;
    xw_generic_event_t *e;
    while (got < n && (e = xw_wait_for_event(c))) {
        got += ours((const uint8_t *)e);
        free(e);
    }
    usage_report("xwire", got, mono() - t0);
    xw_disconnect(c);
    return got == n ? 0 : 1;
}

static int send_all(const char *display, long n, long rate, long batch)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(c))
        return 1;
    xcb_window_t root = xcb_setup_roots_iterator(xcb_get_setup(c)).data->root;
    xcb_client_message_event_t cm = {.response_type = XCB_CLIENT_MESSAGE,
                                     .format = 32,
                                     .window = root,
                                     .type = XCB_ATOM_STRING,
                                     .data.data32 = {MAGIC}};
    double t0 = mono();
    for (long i = 0; i < n; i += batch) {
        for (long j = i; j < n && j < i + batch; j++)
            xcb_send_event(c, 0, root, XCB_EVENT_MASK_PROPERTY_CHANGE, (const char *)&cm);
        free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
        if (rate > 0) {
            double due = t0 + (double)(i + batch) / (double)rate, wait = due - mono();
            if (wait > 0)
                nanosleep(&(struct timespec){(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)}, NULL);
        }
    }
    printf("sender  %ld events in %.2f s (%.0f/s)\n", n, mono() - t0, (double)n / (mono() - t0));
    xcb_disconnect(c);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: xwrecv DISPLAY EVENTS [RATE [BATCH [xcb|xw]]]\n  DISPLAY of a real server (Xvfb); RATE "
                        "events/s, 0 or none: as fast as it goes; BATCH events per round trip (100);\n  xcb or xw: "
                        "that receiver alone\n");
        return 2;
    }
    long n = strtol(argv[2], NULL, 10), rate = argc > 3 ? strtol(argv[3], NULL, 10) : 0;
    long batch = argc > 4 ? strtol(argv[4], NULL, 10) : 100;
    if (n <= 0 || batch <= 0)
        return 2;
    int p[2];
    if (pipe(p) < 0)
        return 1;
    /* both receivers at once (each then competes with the other for the CPUs), or one */
    const char *only = argc > 5 ? argv[5] : "";
    int first = !strcmp(only, "xw"), last = strcmp(only, "xcb") ? 2 : 1, nk = 0;
    pid_t kids[2];
    for (int k = first; k < last; k++) {
        kids[nk] = fork();
        if (kids[nk++] == 0) {
            close(p[0]);
            _exit(k == 0 ? recv_xcb(argv[1], n, p[1]) : recv_xw(argv[1], n, p[1]));
        }
    }
    close(p[1]);
    char b = 'x';
    for (int k = 0; k < nk && b == 'x'; k++)
        if (read(p[0], &b, 1) != 1)
            b = 'f';
    if (b != 'x') {
        fprintf(stderr, "xwrecv: a receiver could not connect to %s\n", argv[1]);
        for (int k = 0; k < nk; k++)
            kill(kids[k], SIGTERM);
        return 1;
    }
    int rc = send_all(argv[1], n, rate, batch);
    for (int k = 0; k < nk; k++) {
        int st;
        waitpid(kids[k], &st, 0);
        rc |= !WIFEXITED(st) || WEXITSTATUS(st);
    }
    return rc;
}
