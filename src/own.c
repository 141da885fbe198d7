/* SPDX-License-Identifier: MIT */
/* own.c — the own socket's transport: out.c writes it, in.c reads it, claim.c and lend.c wait on it. */
#include "claim.h"
#include "conn.h"
#include "in.h"
#include "lend.h"
#include "out.h"
#include "queue.h"
#include "route.h"
#include "transport.h"
#include "xid.h"

#include <unistd.h>

/* The table sits above the paths it names, so that they need not know it. The
 * connection owns the fd. */

/* Lock held, socket_away set: the socket is lent to another owner (xw_take_socket,
 * xw_writev); its return callback runs with the lock released. */
static int socket_take(xw_connection_t *c)
{
    return xw__lend_take_back(c);
}

/* Nothing held back: xw_flush has written the whole buffer. */
static int socket_flush(xw_connection_t *c)
{
    (void)c;
    return 0;
}

static int socket_error(xw_connection_t *c)
{
    (void)c;
    return 0; /* every failure is recorded where it happens */
}

static int socket_fd(xw_connection_t *c)
{
    return c->fd;
}

/* An empty event queue polled: one non-blocking read, without the general wait
 * (which a failed connection takes, to report it as every wait does). */
static void socket_poll(xw_connection_t *c, struct xw_queue *q)
{
    if (c->error)
        xw__claim_wait(c, q, 0, 1);
    else
        xw__in_read_nonblock(c);
}

/* The connection owns the fd (xw_connect_to_fd took it over too). */
static void socket_close(xw_connection_t *c)
{
    if (c->fd >= 0)
        close(c->fd);
}

const struct xw_transport xw__own_transport = {
    .write = xw__out_write_socket,
    .take = socket_take,
    .send_flags = 0, /* every request goes through the write buffer */
    .send = NULL,
    .send_fd = xw__out_queue_fd,
    .flush = socket_flush,
    .track = xw__route_track,
    .widen = xw__claim_widen,
    .reply = xw__claim_reply,
    .reply_fit = xw__claim_reply_fit,
    .check = xw__claim_check,
    .discard = xw__claim_discard,
    .wait = xw__claim_wait,
    .poll = socket_poll,
    .lendable = 1,
    .error = socket_error,
    .fd = socket_fd,
    .generate_id = xw__xid_generate,
    .close = socket_close,
};
