/* SPDX-License-Identifier: MIT */
/* xlcapture.h — one Xlib connection and one xwire connection to the same fake server
 * (dpyserver.c), and the requests each sent around a call, for byte comparisons of Xlib-side
 * libraries against xwire. */
#ifndef XW_XLIB_XLCAPTURE_H
#define XW_XLIB_XLCAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <X11/Xlib.h>
#include <xw/xw.h>

#include "dpyserver.h"

#define XLC_CAP (1 << 16)

/* The shared state: connection 0 of srv is Xlib's, connection 1 xwire's. After a capture,
 * xl holds what Xlib sent, xw[v] what xwire's form v sent (v = 0: default form, 1: the
 * other), and xw_ok[v] whether that call (round trip, reply parse) went right. */
struct xlc {
    struct dpy_server srv;
    Display *dpy;
    xw_connection_t *c;
    uint8_t xl[XLC_CAP], xw[2][XLC_CAP];
    size_t xl_len, xw_len[2];
    int xw_ok[2];
    int xlib_errors; /* X errors Xlib reported (each printed) */
};
extern struct xlc xlc;

/* Ends the process after `seconds` with "<name>: timed out" and a failed summary line (a
 * library waiting for a reply the fake server does not give would otherwise hang). */
void xlc_watchdog(const char *name, unsigned seconds);
/* Starts the fake server and connects Xlib then xwire to it; prints why and a failed
 * summary line and returns -1 when that fails (the server is stopped again). */
int xlc_open(void);
/* Disconnects both and stops the server. */
void xlc_close(void);

/* Around an Xlib call: xlc_xl_begin syncs, drops what was recorded and clears Xlib's output
 * buffer, so the pad bytes Xlib never writes (GetReq, BufAlloc and Data leave them as an
 * earlier request left them) read as zero; xlc_xl_end syncs and keeps the requests in xl. */
void xlc_xl_begin(void);
void xlc_xl_end(void);
/* Around an xwire call: a GetInputFocus round trip on each side; form v, call result ok. */
void xlc_xw_begin(void);
void xlc_xw_end(int v, int ok);

/* Exactly one request (major, minor) in buf (minor < 0: any); NULL otherwise. */
const uint8_t *xlc_only(const uint8_t *buf, size_t n, int major, int minor, size_t *len);

/* xwire, void request: default (unchecked) form into slot 0, _checked into slot 1 (the
 * check must find no error). ARGS includes the connection. */
#define XLC_VOID(fn, args)                                                                                             \
    do {                                                                                                               \
        xlc_xw_begin();                                                                                                \
        fn args;                                                                                                       \
        xlc_xw_end(0, 1);                                                                                              \
        xlc_xw_begin();                                                                                                \
        xw_generic_error_t *e_ = xw_request_check(xlc.c, fn##_checked args);                                           \
        xlc_xw_end(1, e_ == NULL);                                                                                     \
        free(e_);                                                                                                      \
    } while (0)

/* xwire, reply request: default (checked) form into slot 0, _unchecked into slot 1; the
 * reply r must arrive without error and satisfy COND. */
#define XLC_REPLY(fn, args, cond)                                                                                      \
    do {                                                                                                               \
        for (int v_ = 0; v_ < 2; v_++) {                                                                               \
            xlc_xw_begin();                                                                                            \
            __typeof__(fn args) ck_ = v_ ? fn##_unchecked args : fn args;                                              \
            xw_generic_error_t *e_ = NULL;                                                                             \
            __typeof__(fn##_reply(xlc.c, ck_, NULL)) r = fn##_reply(xlc.c, ck_, &e_);                                  \
            int ok_ = r != NULL && e_ == NULL;                                                                         \
            if (ok_ && !(cond))                                                                                        \
                ok_ = 0;                                                                                               \
            free(r);                                                                                                   \
            free(e_);                                                                                                  \
            xlc_xw_end(v_, ok_);                                                                                       \
        }                                                                                                              \
    } while (0)

#endif
