/* SPDX-License-Identifier: MIT */
/* lib_raw.c — the floors: pre-built NoOperation bytes written straight to the socket in 16 KiB writes,
 * what the server can take when the client costs nothing; InternAtoms as pre-built bytes, pipelined
 * (writes as big as the kernel takes, reads of 64 KiB) and sequential (one write and one read per round
 * trip, the latency floor); events read with blocking reads as big
 * as xwire's read buffer, what receiving a stream costs the kernel alone; and GetProperty of 1 MiB in
 * three system calls per round trip, the floor of a big reply. libxcb only does the connection setup
 * (and, on Xvfb, creates the window the events are sent to or the property is read from). */
#include "bench.h"
#include "drain.h"
#include "fdio.h"
#include "inputs.h"
#include "meter.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xcb/xcb.h>

#define CHUNK (16u << 10)
/* Bytes one read asks for in the events case: xwire's read buffer (XW_IN_SIZE). */
#define EVENT_READ (64u << 10)
/* A SendEvent request: header, destination, event mask, the 32-byte event. */
#define SEND_EVENT_LEN 44u

/* GetInputFocus by hand: skip events and errors, return the reply's focus field. */
static long raw_round_trip(int fd)
{
    static const unsigned char req[4] = {43, 0, 1, 0};
    unsigned char pkt[32];
    if (fd_write_all(fd, req, sizeof req) < 0)
        return -1;
    do {
        if (fd_read_all(fd, pkt, sizeof pkt) < 0)
            return -1;
    } while (pkt[0] != 1);
    uint32_t focus;
    memcpy(&focus, pkt + 8, 4); /* libxcb set the connection up in our byte order */
    return focus;
}

/* The connection's socket, made blocking (libxcb made it non-blocking): plain
 * blocking calls are the floor. -1 when the connection failed. */
static int raw_fd(xcb_connection_t *c)
{
    if (xcb_connection_has_error(c))
        return -1;
    int fd = xcb_get_file_descriptor(c);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

/* InternAtom of name i in the wire's own layout, built before the timed part. */
struct raw_atom {
    unsigned char b[8 + 24];
    size_t len;
};

static void raw_atom_build(struct raw_atom *a, long i)
{
    size_t n = atom_name_len(i), words = 2 + (n + 3) / 4;
    uint16_t len16 = (uint16_t)words, name16 = (uint16_t)n;
    memset(a->b, 0, sizeof a->b);
    a->b[0] = 16; /* InternAtom, only-if-exists 0 */
    memcpy(a->b + 2, &len16, 2);
    memcpy(a->b + 4, &name16, 2);
    memcpy(a->b + 8, atom_name(i), n);
    a->len = words * 4;
}

/* One InternAtom per round trip: its bytes in one write, its 32-byte reply in one
 * read (a short read is finished by another). Counts replies that carry an atom;
 * an error or an event ends the run, since none can come. */
static long run_atom_sequential(const struct target *t, struct meter *m)
{
    static struct raw_atom req[ATOM_NAMES];
    for (long i = 0; i < ATOM_NAMES; i++)
        raw_atom_build(&req[i], i);
    xcb_connection_t *c = xcb_connect(t->server->name, NULL);
    int fd = raw_fd(c);
    long ok = 0;
    if (fd < 0) {
        xcb_disconnect(c);
        return -1;
    }
    meter_start(m);
    for (long i = 0; i < t->n; i++) {
        const struct raw_atom *a = &req[i % ATOM_NAMES];
        unsigned char pkt[32];
        uint32_t atom;
        if (fd_write_all(fd, a->b, a->len) < 0 || fd_read_all(fd, pkt, sizeof pkt) < 0 || pkt[0] != 1)
            break;
        memcpy(&atom, pkt + 8, 4);
        ok += atom != 0;
    }
    meter_stop(m);
    xcb_disconnect(c);
    return ok == t->n ? ok : -1;
}

/* Reads what the socket holds (up to EVENT_READ, a partial packet kept for the next
 * read) and counts the InternAtom replies in it: *got every reply, the return value
 * those with an atom; -1 on EOF, an error or anything but a reply. */
static long raw_read_replies(int fd, unsigned char *buf, size_t *have, long *got)
{
    ssize_t r = read(fd, buf + *have, EVENT_READ - *have);
    if (r < 0)
        return errno == EAGAIN || errno == EINTR ? 0 : -1;
    if (r == 0)
        return -1;
    *have += (size_t)r;
    size_t pos = 0;
    long ok = 0;
    for (; *have - pos >= 32; pos += 32) {
        uint32_t atom;
        if (buf[pos] != 1)
            return -1;
        memcpy(&atom, buf + pos + 8, 4);
        ok += atom != 0;
        ++*got;
    }
    memmove(buf, buf + pos, *have - pos);
    *have -= pos;
    return ok;
}

/* All t->n InternAtoms pre-built into one buffer, handed to the kernel in writes
 * as big as it takes while replies are read 64 KiB at a time (a client that wrote
 * everything before reading would deadlock with a server blocked on writing): what
 * a pipelined InternAtom costs with no library at all. */
static long run_atom_pipelined(const struct target *t, struct meter *m)
{
    static unsigned char in[EVENT_READ];
    size_t total = 0, sent = 0, have = 0;
    for (long i = 0; i < t->n; i++)
        total += 4 * (2 + (atom_name_len(i) + 3) / 4);
    unsigned char *out = malloc(total);
    xcb_connection_t *c = xcb_connect(t->server->name, NULL);
    int fd = out ? raw_fd(c) : -1;
    long ok = 0, got = 0;
    if (fd >= 0) {
        struct raw_atom a;
        for (long i = 0; i < t->n; sent += a.len, i++)
            raw_atom_build(&a, i), memcpy(out + sent, a.b, a.len);
        sent = 0;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    meter_start(m);
    while (fd >= 0 && got < t->n) {
        struct pollfd p = {.fd = fd, .events = (short)(POLLIN | (sent < total ? POLLOUT : 0))};
        if (poll(&p, 1, -1) < 0 && errno != EINTR)
            break;
        if (p.revents & POLLOUT) {
            ssize_t w = write(fd, out + sent, total - sent);
            if (w < 0 && errno != EAGAIN && errno != EINTR)
                break;
            sent += w > 0 ? (size_t)w : 0;
        }
        long r = p.revents & (POLLIN | POLLHUP | POLLERR) ? raw_read_replies(fd, in, &have, &got) : 0;
        if (r < 0)
            break;
        ok += r;
    }
    meter_stop(m);
    xcb_disconnect(c);
    free(out);
    return ok == t->n ? ok : -1;
}

static long run_noop(const struct target *t, struct meter *m)
{
    static unsigned char chunk[CHUNK];
    for (size_t i = 0; i < CHUNK; i += 4)
        memcpy(chunk + i, (const unsigned char[4]){127, 0, 1, 0}, 4);
    xcb_connection_t *c = xcb_connect(t->server->name, NULL);
    int fd = raw_fd(c);
    if (fd < 0) {
        xcb_disconnect(c);
        return -1;
    }
    long got = 0;
    meter_start(m);
    for (uint64_t left = (uint64_t)t->n * 4; left && got == 0;) {
        size_t n = left < CHUNK ? (size_t)left : CHUNK;
        got = fd_write_all(fd, chunk, n);
        left -= n;
    }
    if (got == 0)
        got = raw_round_trip(fd);
    meter_stop(m);
    xcb_disconnect(c);
    if (got >= 0 && !server_is_fake(t->server))
        got = t->n;
    return got;
}

/* Reads until n 32-byte packets have come, each a benchmark ClientMessage (an
 * error, a reply or anything else ends the run), with blocking reads of
 * EVENT_READ bytes. A packet split between two reads is finished by the next. */
static long raw_read_events(int fd, long n)
{
    static unsigned char buf[EVENT_READ];
    size_t have = 0;
    long ok = 0;
    while (ok < n) {
        ssize_t r = read(fd, buf + have, sizeof buf - have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        have += (size_t)r;
        size_t pos = 0;
        for (; have - pos >= 32; pos += 32) {
            uint32_t magic;
            memcpy(&magic, buf + pos + 12, 4);
            if ((buf[pos] & 0x7f) != 33 || magic != DRAIN_EVENT_MAGIC)
                return -1;
            ok++;
        }
        memmove(buf, buf + pos, have - pos);
        have -= pos;
    }
    return ok;
}

/* On a fake server: the InternAtom that starts the stream, its reply, then the
 * stream. */
static long raw_events_streamed(int fd, const struct target *t, struct meter *m)
{
    unsigned char req[8 + 40] = {16}, rep[32];
    int len = snprintf((char *)req + 8, sizeof req - 8, DRAIN_EVENTS_PREFIX "%ld", t->n);
    uint16_t name16 = (uint16_t)len, words = (uint16_t)(2 + (len + 3) / 4);
    memcpy(req + 2, &words, 2);
    memcpy(req + 4, &name16, 2);
    meter_start(m);
    long ok = -1;
    if (fd_write_all(fd, req, words * 4u) == 0 && fd_read_all(fd, rep, sizeof rep) == 0 && rep[0] == 1)
        ok = raw_read_events(fd, t->n);
    meter_stop(m);
    return ok;
}

/* On Xvfb: our own window to send the events to, made by libxcb before the
 * socket is taken (a round trip, so nothing is left for libxcb to read). */
static uint32_t raw_window(xcb_connection_t *c)
{
    if (xcb_connection_has_error(c))
        return 0;
    const xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    uint32_t win = xcb_generate_id(c);
    xcb_create_window(c, XCB_COPY_FROM_PARENT, win, s->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      s->root_visual, 0, NULL);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    return win;
}

/* On Xvfb, as the libraries do it: batches of EVENT_BATCH SendEvents to our own
 * window, pre-built and written at once, then that many events read back. */
static long raw_events_sent(int fd, uint32_t win, const struct target *t, struct meter *m)
{
    static unsigned char batch[EVENT_BATCH * SEND_EVENT_LEN];
    uint32_t type = XCB_ATOM_STRING, magic = DRAIN_EVENT_MAGIC;
    uint16_t words = SEND_EVENT_LEN / 4;
    for (size_t i = 0; i < EVENT_BATCH; i++) {
        unsigned char *r = batch + i * SEND_EVENT_LEN;
        memset(r, 0, SEND_EVENT_LEN);
        r[0] = 25; /* SendEvent, propagate 0, event mask 0: to the window's creator */
        memcpy(r + 2, &words, 2);
        memcpy(r + 4, &win, 4);
        r[12] = 33; /* ClientMessage, format 32 */
        r[13] = 32;
        memcpy(r + 16, &win, 4);
        memcpy(r + 20, &type, 4);
        memcpy(r + 24, &magic, 4);
    }
    long ok = 0;
    meter_start(m);
    for (long i = 0; i < t->n && ok >= 0; i += EVENT_BATCH) {
        long k = t->n - i < EVENT_BATCH ? t->n - i : EVENT_BATCH, got = -1;
        if (fd_write_all(fd, batch, (size_t)k * SEND_EVENT_LEN) == 0)
            got = raw_read_events(fd, k);
        ok = got < 0 ? -1 : ok + got;
    }
    meter_stop(m);
    return ok;
}

static long run_events(const struct target *t, struct meter *m)
{
    xcb_connection_t *c = xcb_connect(t->server->name, NULL);
    int fake = server_is_fake(t->server);
    uint32_t win = fake ? 0 : raw_window(c);
    int fd = raw_fd(c);
    long ok = -1;
    if (fd >= 0 && (fake || win))
        ok = fake ? raw_events_streamed(fd, t, m) : raw_events_sent(fd, win, t, m);
    xcb_disconnect(c);
    return ok == t->n ? ok : -1;
}

/* The property set up as the other libraries do it (libxcb, before the timed part):
 * the drain's atom on the root window, or our own window's on Xvfb. 0: failed. */
static uint32_t raw_property(xcb_connection_t *c, const struct target *t, uint32_t *atom)
{
    static const char name[] = "XWBENCH_BLOB";
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, sizeof name - 1, name), NULL);
    *atom = r ? r->atom : 0;
    free(r);
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    if (!*atom || !s)
        return 0;
    if (server_is_fake(t->server))
        return s->root;
    uint32_t win = xcb_generate_id(c);
    xcb_create_window(c, XCB_COPY_FROM_PARENT, win, s->root, 0, 0, 1, 1, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      s->root_visual, 0, NULL);
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, *atom, XCB_ATOM_STRING, 8, DRAIN_PROPERTY_BYTES, bench_image);
    xcb_get_input_focus_reply_t *f = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    free(f);
    return f ? win : 0;
}

/* GetProperty of the whole value, one round trip each, with the fewest system
 * calls: the request in one write, the 32-byte header in one read, the value in
 * one recv(MSG_WAITALL) into a warm buffer. What the kernel's copy of the value
 * costs with nothing else around it. */
static long run_getproperty(const struct target *t, struct meter *m)
{
    static unsigned char value[DRAIN_PROPERTY_BYTES + 4];
    xcb_connection_t *c = xcb_connect(t->server->name, NULL);
    uint32_t atom = 0, win = c && !xcb_connection_has_error(c) ? raw_property(c, t, &atom) : 0;
    xcb_flush(c);
    int fd = win ? raw_fd(c) : -1;
    long ok = 0;
    unsigned char req[24] = {20, 0, 6, 0}; /* GetProperty, delete 0, 6 words */
    uint32_t words = DRAIN_PROPERTY_BYTES / 4, zero = 0;
    memcpy(req + 4, &win, 4), memcpy(req + 8, &atom, 4), memcpy(req + 12, &zero, 4);
    memcpy(req + 16, &zero, 4), memcpy(req + 20, &words, 4); /* type Any, offset 0, length */
    memset(value, 0, sizeof value);
    meter_start(m);
    for (long i = 0; fd >= 0 && i < t->n; i++) {
        unsigned char hdr[32];
        uint32_t len;
        if (fd_write_all(fd, req, sizeof req) < 0 || fd_read_all(fd, hdr, sizeof hdr) < 0 || hdr[0] != 1)
            break;
        memcpy(&len, hdr + 4, 4);
        if (len > sizeof value / 4 || recv(fd, value, len * 4, MSG_WAITALL) != (ssize_t)len * 4)
            break;
        memcpy(&len, hdr + 16, 4);
        ok += len == DRAIN_PROPERTY_BYTES;
    }
    meter_stop(m);
    xcb_disconnect(c);
    return ok == t->n ? ok : -1;
}

const struct library lib_raw = {
    .name = "raw client",
    .cases = {[CASE_NOOP] = run_noop,
              [CASE_ATOM_PIPELINED] = run_atom_pipelined,
              [CASE_ATOM_SEQUENTIAL] = run_atom_sequential,
              [CASE_EVENTS] = run_events,
              [CASE_GETPROPERTY] = run_getproperty},
};
