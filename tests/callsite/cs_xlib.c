/* SPDX-License-Identifier: MIT */
/* cs_xlib.c — an Xlib program that maps a window that does not exist several calls before it waits (call-site
 * demo). */
#include <stdio.h>

#include <X11/Xlib.h>

static int errors;

static int on_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    printf("cs_xlib: error %u for request %lu\n", e->error_code, e->serial);
    errors++;
    return 0;
}

/* The bad call: the line marked below is the one XWIRE_ERRORS=callsite must name. */
static __attribute__((noinline)) void map_missing(Display *dpy, Window w)
{
    XMapWindow(dpy, w); /* BAD CALL */
    printf("map_missing: request %lu\n", NextRequest(dpy) - 1);
}

/* A bad call that waits for its reply: its error comes back inside the call,
 * before Xlib's after-function runs. */
static __attribute__((noinline)) void geometry_of_missing(Display *dpy, Window w)
{
    Window root;
    int x, y;
    unsigned int width, height, border, depth;
    XGetGeometry(dpy, w, &root, &x, &y, &width, &height, &border, &depth); /* BAD CALL 2 */
    printf("geometry_of_missing: request %lu\n", NextRequest(dpy) - 1);
}

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "cs_xlib: cannot open the display\n");
        return 1;
    }
    XSetErrorHandler(on_error);
    Window w = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 64, 64, 0, 0, 0);
    XStoreName(dpy, w, "cs_xlib");
    map_missing(dpy, w + 1000); /* an id of ours never created */
    /* several more calls before anything waits */
    XMoveWindow(dpy, w, 10, 20);
    XMapWindow(dpy, w);
    XClearWindow(dpy, w);
    XSync(dpy, False);
    geometry_of_missing(dpy, w + 1000);
    XCloseDisplay(dpy);
    return errors == 2 ? 0 : 1;
}
