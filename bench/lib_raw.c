/* lib_raw.c — the floors: pre-built NoOperation bytes written straight to the socket in 16 KiB writes,
 * what the server can take when the client costs nothing; and sequential InternAtoms as pre-built bytes,
 * one write and one read per round trip, the latency floor. libxcb only does the connection setup. */
#include "xwbench.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb.h>

#define CHUNK (16u << 10)

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

const struct library lib_raw = {
    .name = "raw client",
    .cases = {[CASE_NOOP] = run_noop, [CASE_ATOM_SEQUENTIAL] = run_atom_sequential},
};
