/* SPDX-License-Identifier: MIT */
/* xlcapture.c — Xlib and xwire on one fake server, and the requests each sent around a call. */
#include "xlcapture.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <X11/Xlibint.h>

struct xlc xlc;

static int on_xerror(Display *d, XErrorEvent *e)
{
    (void)d;
    printf("Xlib reported X error %d for request %d.%d\n", e->error_code, e->request_code, e->minor_code);
    xlc.xlib_errors++;
    return 0;
}

static const char *watch_name;

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = ": timed out\n0 passed, 1 failed\n";
    (void)!write(1, watch_name, strlen(watch_name));
    (void)!write(1, msg, sizeof(msg) - 1);
    if (xlc.srv.lock_path[0])
        unlink(xlc.srv.lock_path);
    _exit(1);
}

void xlc_watchdog(const char *name, unsigned seconds)
{
    watch_name = name;
    signal(SIGALRM, on_alarm);
    alarm(seconds);
}

static int open_failed(void)
{
    printf("0 passed, 1 failed\n");
    return -1;
}

int xlc_open(void)
{
    if (dpy_start(&xlc.srv) < 0) {
        printf("no free display number for the fake server\n");
        return open_failed();
    }
    printf("fake server on %s\n", xlc.srv.name);
    XSetErrorHandler(on_xerror);
    xlc.dpy = XOpenDisplay(xlc.srv.name);
    if (!xlc.dpy) {
        printf("XOpenDisplay(%s) failed\n", xlc.srv.name);
        dpy_stop(&xlc.srv);
        return open_failed();
    }
    XSync(xlc.dpy, False);
    xlc.c = xw_connect(xlc.srv.name, NULL);
    if (xw_connection_has_error(xlc.c) || dpy_nconns(&xlc.srv) != 2) {
        printf("xw_connect(%s) failed: %s\n", xlc.srv.name, xw_connection_error_string(xlc.c));
        XCloseDisplay(xlc.dpy);
        xw_disconnect(xlc.c);
        dpy_stop(&xlc.srv);
        return open_failed();
    }
    return 0;
}

void xlc_close(void)
{
    for (int i = 0; i < 2; i++)
        if (xlc.srv.conns[i].unanswered_major)
            printf("note: connection %d sent core request %d, which the fake server does not answer\n", i,
                   xlc.srv.conns[i].unanswered_major);
    XCloseDisplay(xlc.dpy);
    xw_disconnect(xlc.c);
    dpy_stop(&xlc.srv);
}

void xlc_xl_begin(void)
{
    static uint8_t scratch[XLC_CAP];
    XSync(xlc.dpy, False);
    dpy_take(&xlc.srv, 0, scratch, XLC_CAP);
    /* Nothing is pending after XSync, so the whole buffer is free. */
    memset(xlc.dpy->buffer, 0, (size_t)(xlc.dpy->bufmax - xlc.dpy->buffer));
}

void xlc_xl_end(void)
{
    XSync(xlc.dpy, False);
    long n = dpy_take(&xlc.srv, 0, xlc.xl, XLC_CAP);
    xlc.xl_len = n < 0 ? 0 : (size_t)n;
}

static int xw_round_trip(void)
{
    xw_get_input_focus_reply_t *r = xw_get_input_focus_reply(xlc.c, xw_get_input_focus(xlc.c), NULL);
    int ok = r != NULL;
    free(r);
    return ok;
}

void xlc_xw_begin(void)
{
    static uint8_t scratch[XLC_CAP];
    xw_round_trip();
    dpy_take(&xlc.srv, 1, scratch, XLC_CAP);
}

void xlc_xw_end(int v, int ok)
{
    ok &= xw_round_trip();
    long n = dpy_take(&xlc.srv, 1, xlc.xw[v], XLC_CAP);
    xlc.xw_len[v] = n < 0 ? 0 : (size_t)n;
    xlc.xw_ok[v] = ok;
}

const uint8_t *xlc_only(const uint8_t *buf, size_t n, int major, int minor, size_t *len)
{
    size_t off = 0, l2;
    const uint8_t *r = dpy_find(buf, n, &off, major, minor, len);
    if (r && dpy_find(buf, n, &off, major, minor, &l2))
        return NULL;
    return r;
}
