/* SPDX-License-Identifier: MIT */
/* xvfb_marks.c — ClientMessage markers sent by threads and checked in order by a listener. */
#include "xvfb_marks.h"

#include <stdlib.h>
#include <string.h>

#include "xwtest.h" /* T_CHECK */

unsigned mark_send(xw_connection_t *c, xw_window_t w, xw_atom_t type, uint32_t sender, uint32_t n)
{
    xw_client_message_event_t m;
    memset(&m, 0, sizeof(m));
    m.response_type = XW_CLIENT_MESSAGE;
    m.format = 32;
    m.window = w;
    m.type = type;
    m.data.data32[0] = sender;
    m.data.data32[1] = n;
    return xw_send_event(c, 0, w, XW_EVENT_MASK_NO_EVENT, (const char *)&m).sequence;
}

static int listen_once(struct mark_listener *l, int *stop)
{
    xw_generic_event_t *ev = xw_wait_for_event_timeout(l->c, l->wait_ms);
    if (!ev) {
        T_CHECK(!xw_connection_has_error(l->c));
        l->timeouts++;
        return 0;
    }
    xw_client_message_event_t m;
    memcpy(&m, ev, sizeof(m));
    free(ev);
    T_CHECK(m.response_type == (0x80 | XW_CLIENT_MESSAGE)); /* no X error reaches the queue */
    T_CHECK(m.type == l->type);
    if (m.data.data32[0] == MARK_STOP) {
        *stop = 1;
        return 0;
    }
    T_CHECK(m.data.data32[0] < l->senders && m.data.data32[0] < MARK_MAX_SENDERS);
    T_CHECK(m.data.data32[1] == (uint32_t)l->seen[m.data.data32[0]]); /* each sender's in order */
    l->seen[m.data.data32[0]]++;
    l->events++;
    return 0;
}

void *mark_listen(void *arg)
{
    struct mark_listener *l = arg;
    int stop = 0;
    while (!stop && !l->failed_line)
        l->failed_line = listen_once(l, &stop);
    return NULL;
}
