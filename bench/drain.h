/* SPDX-License-Identifier: MIT */
/* drain.h — the fake X servers (drain.c) and the conventions the cases rely on. */
#ifndef XWBENCH_DRAIN_H
#define XWBENCH_DRAIN_H

#include "bench.h"

/* ---- the conventions every fake server keeps ---- */

/* A GetInputFocus reply from the drain server carries in its focus field how many
 * "counted" requests (NoOperation, ChangeWindowAttributes, ConfigureWindow, ChangeGC,
 * and whole IMAGE_H-row images sent by PutImage, however split) it has parsed on this
 * connection, so a case can prove every request arrived whole without trusting the
 * library under test. */
#define DRAIN_BIGREQ_OPCODE 133
/* InternAtom of this prefix followed by a decimal count makes the drain server
 * stream that many ClientMessage events right after the reply. */
#define DRAIN_EVENTS_PREFIX "XWBENCH_EVENTS:"
/* The drain server answers GetProperty of any atom >= DRAIN_FIRST_ATOM with this
 * many bytes of format-8 data (capped by long_length). */
#define DRAIN_FIRST_ATOM 1000u
#define DRAIN_PROPERTY_BYTES (1u << 20)
/* ClientMessage data the drain server streams, so receivers can check content. */
#define DRAIN_EVENT_MAGIC 0x78776265u

/* A fake server's main loop over its listening sockets; runs in the forked child
 * and never returns. */
void drain_serve(enum server_kind kind, const int *listen_fds, int n_fds) __attribute__((noreturn));

#endif
