/* SPDX-License-Identifier: MIT */
/* fuzz_trace.c — libFuzzer harness for the protocol tracer: arbitrary bytes framed and decoded as
 * the requests written and as the packets read, cut where the input says, after every
 * extension of the 32 descriptions was seen present, so every generated decoder is reachable.
 *
 * Input: byte 0 bit 0 = the stream is read (1) or written (0), bit 1 = both, one after the
 * other; byte 1 = where the first piece ends, in bytes; the rest is the stream. Nothing may
 * crash, read outside the bytes, or hang; the lines go to /dev/null. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <xw/xwext.h>

#include "fake_server.h"
#include "harness.h"
#include "trace.h"
#include "conn.h"

static struct fake_server srv = {.fd = -1};
static xw_connection_t *conn;
static int sink = -1;

/* QueryExtension for extension i and its answer: major 128 + i, first event 64 + 2i,
 * first error 150 + 3i (spread, as a server spreads them). */
static void present_all(void)
{
    for (int i = 0; harness_ext_names[i]; i++) {
        uint8_t q[64] = {98, 0, 0, 0}, r[32] = {1};
        size_t n = strlen(harness_ext_names[i]);
        size_t len = 8 + ((n + 3) & ~(size_t)3);
        q[2] = (uint8_t)(len / 4);
        q[4] = (uint8_t)n;
        memcpy(q + 8, harness_ext_names[i], n);
        struct iovec v = {q, len};
        xw__trace_out(conn, &v, 1, len, NULL, 0);
        uint16_t seq = (uint16_t)(i + 1); /* a fresh trace counts from the connection's 0 */
        memcpy(r + 2, &seq, 2);
        r[8] = 1, r[9] = (uint8_t)(128 + i), r[10] = (uint8_t)(64 + 2 * i), r[11] = (uint8_t)(150 + 3 * i);
        struct iovec w = {r, 32};
        xw__trace_in(conn, &w, 1, 32, NULL, 0);
    }
}

static void feed(int in, const uint8_t *p, size_t n, size_t cut)
{
    if (cut > n)
        cut = n;
    struct iovec a = {(void *)p, cut}, b = {(void *)(p + cut), n - cut};
    if (in) {
        xw__trace_in(conn, &a, 1, cut, NULL, 0);
        xw__trace_in(conn, &b, 1, n - cut, NULL, 0);
    } else {
        xw__trace_out(conn, &a, 1, cut, NULL, 0);
        xw__trace_out(conn, &b, 1, n - cut, NULL, 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!conn) {
        conn = fake_connect(&srv, NULL, 0);
        sink = open("/dev/null", O_WRONLY | O_CLOEXEC);
    }
    if (size < 2 || xw_connection_has_error(conn))
        return 0;
    xw_trace_set(conn, sink, data[0] & 4 ? XW_TRACE_JSON : 0);
    xw__conn_lock(conn);
    present_all();
    feed(data[0] & 1, data + 2, size - 2, data[1]);
    if (data[0] & 2)
        feed(!(data[0] & 1), data + 2, size - 2, data[1]);
    xw__conn_unlock(conn);
    xw_trace_set(conn, -1, 0); /* a fresh state for the next input */
    return 0;
}
