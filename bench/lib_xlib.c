/* SPDX-License-Identifier: MIT */
/* lib_xlib.c — the benchmark cases for Xlib, each the idiomatic Xlib way to do what the libxcb case does. */
#include "bench.h"
#include "drain.h"
#include "inputs.h"
#include "meter.h"

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_PIPELINED 100000

/* Xlib reports X errors through a global handler: count them instead of exiting. */
static int x_errors;

static int on_error(Display *d, XErrorEvent *e)
{
    (void)d;
    fprintf(stderr, "xwbench: Xlib: X error %d on request %d.%d\n", e->error_code, e->request_code, e->minor_code);
    x_errors++;
    return 0;
}

static Display *open_dpy(const struct target *t)
{
    XSetErrorHandler(on_error);
    Display *d = XOpenDisplay(t->server->name);
    if (!d)
        fprintf(stderr, "xwbench: Xlib cannot open %s\n", t->server->name);
    return d;
}

/* One round trip; the drain server's GetInputFocus reply carries its count of parsed
 * requests, see sync_count in xcb_cases.inc. */
static long sync_count(Display *d, const struct target *t, long fallback)
{
    Window focus;
    int revert;
    XGetInputFocus(d, &focus, &revert);
    return server_is_fake(t->server) ? (long)focus : fallback;
}

static long finish(Display *d, long result)
{
    XSync(d, False);
    XCloseDisplay(d);
    if (x_errors)
        result = -1;
    x_errors = 0;
    return result;
}

static long run_noop(const struct target *t, struct meter *m)
{
    Display *d = open_dpy(t);
    if (!d)
        return -1;
    meter_start(m);
    for (long i = 0; i < t->n; i++)
        XNoOp(d);
    long got = sync_count(d, t, t->n);
    meter_stop(m);
    return finish(d, got);
}

/* XInternAtoms is Xlib's pipelined form: it sends every request, then collects. One
 * call for all 100k names is quadratic inside Xlib (about 140 µs per atom here), so
 * the names go in batches of ATOM_BATCH, as a real Xlib program would send them. */
#define ATOM_BATCH 1024

static long run_atom_pipelined(const struct target *t, struct meter *m)
{
    static char *names[MAX_PIPELINED];
    static Atom atoms[MAX_PIPELINED];
    if (t->n > MAX_PIPELINED)
        return -1;
    for (long i = 0; i < t->n; i++)
        names[i] = (char *)atom_name(i);
    Display *d = open_dpy(t);
    if (!d)
        return -1;
    int all_ok = 1;
    meter_start(m);
    for (long i = 0; i < t->n; i += ATOM_BATCH) {
        int k = (int)(t->n - i < ATOM_BATCH ? t->n - i : ATOM_BATCH);
        all_ok &= XInternAtoms(d, names + i, k, False, atoms + i) != 0;
    }
    meter_stop(m);
    long ok = 0;
    for (long i = 0; all_ok && i < t->n; i++)
        ok += atoms[i] != None;
    return finish(d, ok);
}

static long run_atom_sequential(const struct target *t, struct meter *m)
{
    Display *d = open_dpy(t);
    if (!d)
        return -1;
    long ok = 0;
    meter_start(m);
    for (long i = 0; i < t->n; i++)
        ok += XInternAtom(d, atom_name(i), False) != None;
    meter_stop(m);
    return finish(d, ok);
}

static long run_putimage(const struct target *t, struct meter *m)
{
    Display *d = open_dpy(t);
    if (!d)
        return -1;
    int scr = DefaultScreen(d);
    int depth = DefaultDepth(d, scr);
    Pixmap pix = XCreatePixmap(d, RootWindow(d, scr), IMAGE_W, IMAGE_H, (unsigned)depth);
    GC gc = XCreateGC(d, pix, 0, NULL);
    XImage *img = XCreateImage(d, DefaultVisual(d, scr), (unsigned)depth, ZPixmap, 0, (char *)bench_image, IMAGE_W,
                               IMAGE_H, 32, 0);
    long before = sync_count(d, t, 0);
    meter_start(m);
    for (long i = 0; img && i < t->n; i++)
        XPutImage(d, pix, gc, img, 0, 0, 0, 0, IMAGE_W, IMAGE_H);
    long after = sync_count(d, t, t->n);
    meter_stop(m);
    if (img) {
        img->data = NULL; /* bench_image is static */
        XDestroyImage(img);
    }
    XFreeGC(d, gc); /* the GC's client-side struct outlives XCloseDisplay otherwise */
    return finish(d, img ? after - before : -1);
}

/* XChangeGC only records values in Xlib's GC cache; XFlushGC sends them, as the next
 * drawing call would. */
static long run_value_lists(const struct target *t, struct meter *m)
{
    Display *d = open_dpy(t);
    if (!d)
        return -1;
    int scr = DefaultScreen(d);
    Window win = XCreateSimpleWindow(d, RootWindow(d, scr), 0, 0, 100, 80, 0, 0, 0);
    GC gc = XCreateGC(d, win, 0, NULL);
    long before = sync_count(d, t, 0);
    meter_start(m);
    for (long i = 0; i < t->n; i++) {
        XSetWindowAttributes wa = {
            .background_pixel = (unsigned long)i,
            .border_pixel = ~(unsigned long)i,
            .event_mask = KeyPressMask | ButtonPressMask,
        };
        XChangeWindowAttributes(d, win, CWBackPixel | CWBorderPixel | CWEventMask, &wa);
        XWindowChanges wc = {.x = (int)(i & 63), .y = (int)(i & 31), .width = 100 + (int)(i & 15), .height = 80};
        XConfigureWindow(d, win, CWX | CWY | CWWidth | CWHeight, &wc);
        XGCValues gv = {.function = GXcopy,
                        .foreground = (unsigned long)i,
                        .background = ~(unsigned long)i,
                        .line_width = (int)(i & 7)};
        XChangeGC(d, gc, GCFunction | GCForeground | GCBackground | GCLineWidth, &gv);
        XFlushGC(d, gc);
    }
    long after = sync_count(d, t, 3 * t->n);
    meter_stop(m);
    XFreeGC(d, gc);
    return finish(d, after - before);
}

static int is_bench_event(const XEvent *ev)
{
    return ev->type == ClientMessage && (uint32_t)ev->xclient.data.l[0] == DRAIN_EVENT_MAGIC;
}

/* The drain server streams t->n events after one InternAtom: the client's cost alone. */
static long run_events_streamed(Display *d, const struct target *t, struct meter *m)
{
    char name[64];
    snprintf(name, sizeof name, DRAIN_EVENTS_PREFIX "%ld", t->n);
    long ok = 0;
    meter_start(m);
    XInternAtom(d, name, False);
    for (long i = 0; i < t->n; i++) {
        XEvent ev;
        XNextEvent(d, &ev);
        ok += is_bench_event(&ev);
    }
    meter_stop(m);
    return ok;
}

/* Against Xvfb, end to end: SendEvent to our own window, in batches. */
static long run_events_sent(Display *d, const struct target *t, struct meter *m)
{
    Window win = XCreateSimpleWindow(d, DefaultRootWindow(d), 0, 0, 1, 1, 0, 0, 0);
    XEvent cm = {.xclient = {.type = ClientMessage, .window = win, .message_type = XA_STRING, .format = 32}};
    cm.xclient.data.l[0] = DRAIN_EVENT_MAGIC;
    long ok = 0;
    meter_start(m);
    for (long i = 0; i < t->n; i += EVENT_BATCH) {
        long k = t->n - i < EVENT_BATCH ? t->n - i : EVENT_BATCH;
        for (long j = 0; j < k; j++)
            XSendEvent(d, win, False, 0, &cm);
        XFlush(d);
        for (long j = 0; j < k; j++) {
            XEvent ev;
            XNextEvent(d, &ev);
            ok += is_bench_event(&ev);
        }
    }
    meter_stop(m);
    return ok;
}

static long run_events(const struct target *t, struct meter *m)
{
    Display *d = open_dpy(t);
    if (!d)
        return -1;
    long ok = server_is_fake(t->server) ? run_events_streamed(d, t, m) : run_events_sent(d, t, m);
    return finish(d, ok);
}

static Window make_property(Display *d, const struct target *t, Atom *atom)
{
    int scr = DefaultScreen(d);
    *atom = XInternAtom(d, "XWBENCH_BLOB", False);
    if (server_is_fake(t->server))
        return RootWindow(d, scr);
    Window win = XCreateSimpleWindow(d, RootWindow(d, scr), 0, 0, 1, 1, 0, 0, 0);
    XChangeProperty(d, win, *atom, XA_STRING, 8, PropModeReplace, (const unsigned char *)bench_image,
                    DRAIN_PROPERTY_BYTES);
    XSync(d, False);
    return win;
}

static long run_getproperty(const struct target *t, struct meter *m)
{
    Display *d = open_dpy(t);
    if (!d)
        return -1;
    Atom atom;
    Window win = make_property(d, t, &atom);
    long ok = 0;
    meter_start(m);
    for (long i = 0; i < t->n; i++) {
        Atom type;
        int format;
        unsigned long items, after;
        unsigned char *data = NULL;
        if (XGetWindowProperty(d, win, atom, 0, DRAIN_PROPERTY_BYTES / 4, False, AnyPropertyType, &type, &format,
                               &items, &after, &data) == Success)
            ok += items == DRAIN_PROPERTY_BYTES;
        XFree(data);
    }
    meter_stop(m);
    return finish(d, ok);
}

const struct library lib_xlib = {
    .name = "Xlib",
    .cases =
        {
            [CASE_NOOP] = run_noop,
            [CASE_ATOM_PIPELINED] = run_atom_pipelined,
            [CASE_ATOM_SEQUENTIAL] = run_atom_sequential,
            [CASE_PUTIMAGE] = run_putimage,
            [CASE_VALUE_LISTS] = run_value_lists,
            [CASE_EVENTS] = run_events,
            [CASE_GETPROPERTY] = run_getproperty,
        },
};
