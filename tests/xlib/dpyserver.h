/* SPDX-License-Identifier: MIT */
/* dpyserver.h — a fake X server on a display socket (":N"), so that Xlib — which can only
 * be pointed at a display name — and xwire can both connect to it. It answers the setup,
 * QueryExtension, GetInputFocus, GetProperty, the reply-bearing requests of DBE and
 * XFree86-VidMode, and what libX11's XKB, libXi and libXrandr ask before their Set*
 * requests (XKB UseExtension; XInput GetExtensionVersion, XIQueryVersion, OpenDevice,
 * ChangeDeviceControl; RandR QueryVersion) with minimal valid replies, and records every
 * request per connection. */
#ifndef XW_XLIB_DPYSERVER_H
#define XW_XLIB_DPYSERVER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define DPY_MAX_CONNS 4
#define DPY_DBE_MAJOR 140
#define DPY_VM_MAJOR 141
#define DPY_XKB_MAJOR 142
#define DPY_XI_MAJOR 143
#define DPY_RANDR_MAJOR 144

struct dpy_conn {
    int fd;
    pthread_t thread;
    int running;
    uint64_t seq;         /* requests read (the server's sequence) */
    pthread_mutex_t lock; /* guards log, len */
    uint8_t *log;         /* every request as on the wire, back to back */
    size_t len, cap;
    int unanswered_major; /* a core request with a reply we do not answer (0: none) */
};

struct dpy_server {
    int listen_fd;
    int display;
    char name[16];      /* ":N" */
    char lock_path[64]; /* /tmp/.XN-lock, removed by dpy_stop */
    pthread_t accept_thread;
    int accepting;
    pthread_mutex_t lock; /* guards nconns */
    int nconns;
    struct dpy_conn conns[DPY_MAX_CONNS];
};

/* Claims a free display number (lock file, then the abstract socket
 * "\0/tmp/.X11-unix/XN"; no filesystem socket is made) and starts accepting.
 * Returns 0 or -1. */
int dpy_start(struct dpy_server *s);
/* Closes every connection, joins the threads, removes the lock file. */
void dpy_stop(struct dpy_server *s);
/* Connections are numbered in the order they were accepted. */
int dpy_nconns(struct dpy_server *s);
/* Moves the requests recorded on connection i into buf (up to cap bytes) and clears the
 * log; returns the number of bytes, or -1 when they did not fit. */
long dpy_take(struct dpy_server *s, int i, uint8_t *buf, size_t cap);

/* Walks a buffer of back-to-back requests: the next one at *off whose major and minor
 * match (minor < 0: any), its length in *len; NULL when none is left. */
const uint8_t *dpy_find(const uint8_t *buf, size_t n, size_t *off, int major, int minor, size_t *len);

#endif
