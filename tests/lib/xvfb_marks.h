/* SPDX-License-Identifier: MIT */
/* xvfb_marks.h — numbered ClientMessage markers for the thread tests: sending
 * threads put (sender, n) events through the server, and a listener thread checks
 * that each sender's arrive complete and in order until the stop marker. */
#ifndef XW_TEST_XVFB_MARKS_H
#define XW_TEST_XVFB_MARKS_H

#include <stdint.h>

#include <xw/xproto.h>

#define MARK_STOP 0xffffffffu /* sender id of the marker that ends mark_listen */
enum { MARK_MAX_SENDERS = 16 };

/* Sends (sender, n) as a format-32 ClientMessage of type to w (SendEvent, no
 * event mask: it goes to w's creator). Returns its sequence number, 0 if refused. */
unsigned mark_send(xw_connection_t *c, xw_window_t w, xw_atom_t type, uint32_t sender, uint32_t n);

struct mark_listener {
    xw_connection_t *c;
    xw_atom_t type;
    int wait_ms;                 /* per event wait; an empty wait is counted, not an error */
    uint32_t senders;            /* sender ids are below this (at most MARK_MAX_SENDERS) */
    long seen[MARK_MAX_SENDERS]; /* markers received per sender, each in order */
    long events, timeouts;
    int failed_line; /* of xvfb_marks.c: 0 when every check held */
};

/* Thread body (arg: a struct mark_listener, its counts zero): waits for markers
 * until MARK_STOP, or the first failed check. Any other event, an X error
 * included, fails. */
void *mark_listen(void *arg);

#endif
