/* lib_raw.c — the floor: pre-built NoOperation bytes written straight to the socket in 16 KiB writes,
 * what the server can take when the client costs nothing. libxcb only does the connection setup. */
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

static long run_noop(const struct target *t, struct meter *m)
{
    static unsigned char chunk[CHUNK];
    for (size_t i = 0; i < CHUNK; i += 4)
        memcpy(chunk + i, (const unsigned char[4]){127, 0, 1, 0}, 4);
    xcb_connection_t *c = xcb_connect(t->server->name, NULL);
    if (xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        return -1;
    }
    /* libxcb made the socket non-blocking; plain blocking writes are the floor. */
    int fd = xcb_get_file_descriptor(c);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
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
    .name = "raw writer",
    .cases = {[CASE_NOOP] = run_noop},
};
