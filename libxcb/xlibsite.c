/* SPDX-License-Identifier: MIT */
/* xlibsite.c — call sites of Xlib's requests: an after-function on each Display that lends itself xwire's socket. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include <dlfcn.h>
#include <X11/Xlibint.h>

#include "hooks.h"
#include "callsite.h"

/* Why an after-function: Xlib builds requests in its own buffer and writes them
 * through xcb_writev much later, where the stack says nothing of who asked. Nearly
 * every Xlib request function ends with SyncHandle(), which calls the display's
 * after-function with the display locked, right after the request got its number:
 * the stack there is the caller's. libX11 passes its Display as the closure of
 * xcb_take_socket, and takes the socket with the display locked and its mutex
 * held, so XSetAfterFunction (which locks the display again) would deadlock here:
 * this does what it does, under the lock the caller already holds.
 * Xlib replaces the after-function itself (XOpenDisplay ends with XSynchronize,
 * after its first requests took the socket), and so may the program; so each
 * xcb_writev, which Xlib calls with the display locked too, puts ours back in
 * front. Limits: requests made while ours was out (from the replacement to the
 * next write: a program that calls XSynchronize or XSetAfterFunction) have no
 * call site; requests made without SyncHandle (a few internal ones) are put down
 * to the next Xlib call that ends with it, at most XW_XLIB_CALL_MAX back.
 * A function that waits for a reply calls SyncHandle only after the wait, when
 * the request's error has already come in: for it the stack of the write (its
 * _XReply's flush, inside the same call) is recorded too, at a lower rank. */

/* One Display lent the socket by a connection with call sites on. */
struct site {
    Display *dpy;
    xw_connection_t *c;
    int (*prev)(Display *); /* the after-function ours replaced; called after ours */
    uint64_t last;          /* the newest request already recorded, or not Xlib's */
};

/* Displays at once; a ninth replaces the oldest (its requests then go unrecorded). */
#define XW_SITES 8u

static struct site sites[XW_SITES];
static unsigned nsites;
static pthread_mutex_t sites_mu = PTHREAD_MUTEX_INITIALIZER;

/* Longest run of requests one Xlib call is taken to have made: beyond it the
 * earlier ones came from calls that recorded nothing. */
#define XW_XLIB_CALL_MAX 64u

static struct site *find(Display *dpy)
{
    for (unsigned i = 0; i < nsites; i++)
        if (sites[i].dpy == dpy)
            return &sites[i];
    return NULL;
}

/* The display's after-function: records the stack for the requests made since the
 * last call, then runs the one it replaced. The display is locked. */
static int after(Display *dpy)
{
    pthread_mutex_lock(&sites_mu);
    struct site *s = find(dpy);
    xw_connection_t *c = s ? s->c : NULL;
    int (*prev)(Display *) = s ? s->prev : NULL;
    uint64_t last = X_DPY_GET_REQUEST(dpy), first = s ? s->last + 1 : last;
    if (s && last >= first)
        s->last = last;
    pthread_mutex_unlock(&sites_mu);
    if (c && last >= first && last)
        xw__callsite_record_conn(c, last - first >= XW_XLIB_CALL_MAX ? last : first, last, XW_CS_CALL);
    return prev ? prev(dpy) : 0;
}

/* The after-function slot Xlib calls now: while Xlib runs a private sync of its
 * own, the user's function waits in savedsynchandler (as XSetAfterFunction knows). */
static int (**after_slot(Display *dpy))(Display *)
{
    return (dpy->flags & XlibDisplayPrivSync) ? &dpy->savedsynchandler : &dpy->synchandler;
}

/* Whether the socket's new owner is libX11: its return callback lives there. */
static int owner_is_xlib(void (*return_socket)(void *))
{
    Dl_info d;
    const char *name;
    if (!dladdr((void *)(uintptr_t)return_socket, &d) || !d.dli_fname)
        return 0;
    name = strrchr(d.dli_fname, '/');
    return !strncmp(name ? name + 1 : d.dli_fname, "libX11.so", 9);
}

static void lent(xw_connection_t *c, void (*return_socket)(void *), void *closure, uint64_t upto, int taking)
{
    if (!owner_is_xlib(return_socket))
        return;
    Display *dpy = closure;
    int (**slot)(Display *) = after_slot(dpy);
    pthread_mutex_lock(&sites_mu);
    struct site *s = find(dpy);
    if (!s) {
        if (nsites == XW_SITES)
            memmove(sites, sites + 1, sizeof(sites[0]) * --nsites);
        s = &sites[nsites++];
        *s = (struct site){.dpy = dpy};
    }
    s->c = c;
    if (*slot != after) { /* first turn, or ours was replaced since (see above) */
        s->prev = *slot;
        *slot = after;
        s->last = upto; /* what was made meanwhile recorded nothing: never put down to the next call */
    }
    if (taking)
        s->last = upto; /* Xlib numbers its next request upto + 1; the ones before were xwire's */
    pthread_mutex_unlock(&sites_mu);
    if (!taking && upto)
        xw__callsite_record_conn(c, upto, upto, XW_CS_WRITE);
}

/* At load, before the program can connect: the runtime tells us of each lending. */
__attribute__((constructor)) static void register_lent(void)
{
    xw__hooks_register(&(struct xw_hooks){.lent = lent});
}
