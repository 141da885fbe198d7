/* SPDX-License-Identifier: MIT */
/* fuzz_reader.c — libFuzzer harness for the read path: an arbitrary server byte
 * stream (with fds) after a valid setup, while requests of many kinds wait.
 *
 * The fake server's end is a socketpair: it holds the setup and the three
 * QueryExtension answers (XInputExtension, XKEYBOARD, DRI3, sequences 1-3) before
 * the client asks; once the client's requests are out, the input, then EOF. Input: byte 0 low 3 bits = fds to attach
 * (0-7,
 * SCM_RIGHTS, copies of /dev/null) to the first chunk, bits 3-5 = fds to attach
 * to the second chunk (the rest of the stream), byte 1 = where the first chunk
 * ends, in 4-byte units; the rest is the stream. The client sends
 * reply-bearing requests (sequences 4..11, one checked void request among them),
 * then drains: each reply (list accessors walked with the generated table, inside
 * the reply's bytes), the check, every event. Nothing may crash, over-read, hang or
 * leak memory or fds: the stream ends in EOF, so every wait must end. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xw/xwext.h>
#include <xw/dri3.h>
#include <xw/xinput.h>
#include <xw/xkb.h>

#include "fake_server.h"
#include "fuzz_decode.h"

#define MAX_STREAM (1u << 15)
#define ROOT FAKE_ROOT

static const struct {
    xw_extension_t *ext;
    uint8_t major, event, error;
} exts[] = {
    {&xw_input_id, 131, 0, 0},
    {&xw_xkb_id, 135, 85, 137},
    {&xw_dri3_id, 149, 0, 0},
};

static void die(const char *what)
{
    fprintf(stderr, "fuzz_reader: %s\n", what);
    abort();
}

/* A reply from the generated API: walk it with its table entry, or its fixed part. */
static void visit_reply(const char *header, const char *name, const void *r)
{
    size_t len = 32 + 4 * (size_t)((const xw_generic_reply_t *)r)->length;
    const struct fuzz_target *t = fuzz_find(header, name);
    if (t)
        fuzz_visit(t, r, len);
}

static void visit_event(xw_generic_event_t *e)
{
    if ((e->response_type & 0x7f) != XW_GE_GENERIC)
        return;
    const xw_ge_event_t *g = (const xw_ge_event_t *)e;
    size_t len = 36 + 4 * (size_t)g->length;
    const uint8_t major = e->pad0;
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        if (exts[i].major != major || exts[i].ext != &xw_input_id)
            continue;
        const struct fuzz_target *t = fuzz_find_xge("xinput", g->event_type);
        if (t && t->walk((const char *)e, len, -1) >= 0)
            fuzz_visit(t, e, len);
    }
}

/* The setup and the QueryExtension answers, before the client connects. */
static void prologue(int fd)
{
    uint8_t buf[256], extra[24] = {0}, out[64];
    size_t n = fake_setup_success(buf, sizeof(buf), 65535);
    struct fake_server f = {.fd = fd};
    fake_send(&f, buf, n);
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
        extra[0] = 1;
        extra[1] = exts[i].major;
        extra[2] = exts[i].event;
        extra[3] = exts[i].error;
        fake_send(&f, out, fake_reply(out, (uint16_t)(i + 1), 0, extra, 24));
    }
}

/* size bytes from data on fd, with nfds fresh fds attached (0: a plain write). */
static void send_chunk(struct fake_server *f, const uint8_t *data, size_t size, int nfds)
{
    int fds[8];
    if (nfds == 0 || size == 0) {
        fake_send(f, data, size);
        return;
    }
    for (int i = 0; i < nfds; i++)
        if ((fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0)
            die("open /dev/null");
    fake_send_fds(f, data, size, fds, nfds);
    for (int i = 0; i < nfds; i++)
        close(fds[i]);
}

static void send_stream(int fd, const uint8_t *data, size_t size)
{
    int nfds = data[0] & 7, nfds2 = (data[0] >> 3) & 7;
    size_t first = 4 * (size_t)data[1];
    data += 2, size -= 2;
    if (first > size)
        first = size;
    struct fake_server f = {.fd = fd};
    if (nfds == 0) /* as before the second chunk existed: one plain write */
        first = 0;
    send_chunk(&f, data, first, nfds);
    send_chunk(&f, data + first, size - first, nfds2);
    shutdown(fd, SHUT_WR);
}

static void drain_fonts(xw_connection_t *c, xw_list_fonts_with_info_cookie_t ck)
{
    for (int k = 0; k < 1024; k++) {
        xw_generic_error_t *e = NULL;
        xw_list_fonts_with_info_reply_t *r = xw_list_fonts_with_info_reply(c, ck, &e);
        free(e);
        if (!r)
            return;
        int last = r->name_len == 0;
        visit_reply("xproto", "list_fonts_with_info_reply", r);
        free(r);
        if (last)
            return;
    }
}

static void drain_dri3(xw_connection_t *c, xw_dri3_open_cookie_t ck)
{
    xw_generic_error_t *e = NULL;
    xw_dri3_open_reply_t *r = xw_dri3_open_reply(c, ck, &e);
    free(e);
    if (!r)
        return;
    int *fds = xw_dri3_open_reply_fds(c, r);
    for (int i = 0; fds && i < r->nfd; i++)
        close(fds[i]);
    free(r);
}

#define DRAIN(call, header, name)                                                                                      \
    do {                                                                                                               \
        xw_generic_error_t *e_ = NULL;                                                                                 \
        void *r_ = call;                                                                                               \
        if (r_)                                                                                                        \
            visit_reply(header, name, r_);                                                                             \
        free(r_);                                                                                                      \
        free(e_);                                                                                                      \
    } while (0)

/* The run's four requests: the first two into buffers of 64 and 16 bytes, the
 * third to the heap, the fourth discarded. */
static void drain_run(xw_connection_t *c, const unsigned seq[4])
{
    union {
        xw_generic_reply_t r;
        uint8_t b[64];
    } buf;
    xw_generic_error_t err;
    size_t len;
    if (xw_wait_for_reply_into(c, seq[0], &buf, sizeof buf, &len, &err, -1) == 1 && len <= sizeof buf)
        visit_reply("xproto", "intern_atom_reply", &buf);
    xw_wait_for_reply_into(c, seq[1], &buf, 16, &len, &err, -1);
    DRAIN(xw_intern_atom_reply(c, (xw_intern_atom_cookie_t){seq[2]}, &e_), "xproto", "intern_atom_reply");
    xw_discard_reply(c, seq[3]);
}

static void run(xw_connection_t *c, int server, const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
        xw_prefetch_extension_data(c, exts[i].ext);
    for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
        if (!xw_get_extension_data(c, exts[i].ext)) {
            fprintf(stderr, "fuzz_reader: %s\n", xw_connection_error_string(c));
            die("QueryExtension answer lost");
        }
    /* sequences 4.. in this order; the seeds rely on it */
    xw_intern_atom_cookie_t a = xw_intern_atom(c, 0, 7, "WM_NAME");
    xw_get_property_cookie_t p = xw_get_property(c, 0, ROOT, 39, 0, 0, 1024);
    xw_query_tree_cookie_t q = xw_query_tree(c, ROOT);
    xw_list_fonts_with_info_cookie_t lf = xw_list_fonts_with_info(c, 8, 1, "*");
    xw_void_cookie_t v = xw_map_window_checked(c, ROOT);
    xw_input_xi_query_device_cookie_t xi = xw_input_xi_query_device(c, 0);
    xw_xkb_get_names_cookie_t kn = xw_xkb_get_names(c, 0x100, 0x3fff);
    xw_dri3_open_cookie_t d3 = xw_dri3_open(c, ROOT, 0);
    xw_get_input_focus_cookie_t g = xw_get_input_focus(c);
    /* sequences 13-16: a run of 32-byte replies (the reply run's path), claimed
     * into a buffer, into one too small, as a heap reply and discarded */
    unsigned run_seq[4];
    for (int i = 0; i < 4; i++)
        run_seq[i] = i & 1 ? xw_get_input_focus(c).sequence : xw_intern_atom(c, 1, 7, "WM_NAME").sequence;
    xw_flush(c);
    /* only now: a reply to a request not yet sent is (rightly) a fatal error */
    send_stream(server, data, size);

    DRAIN(xw_intern_atom_reply(c, a, &e_), "xproto", "intern_atom_reply");
    DRAIN(xw_get_property_reply(c, p, &e_), "xproto", "get_property_reply");
    DRAIN(xw_query_tree_reply(c, q, &e_), "xproto", "query_tree_reply");
    drain_fonts(c, lf);
    free(xw_request_check(c, v));
    DRAIN(xw_input_xi_query_device_reply(c, xi, &e_), "xinput", "input_xi_query_device_reply");
    DRAIN(xw_xkb_get_names_reply(c, kn, &e_), "xkb", "xkb_get_names_reply");
    drain_dri3(c, d3);
    DRAIN(xw_get_input_focus_reply(c, g, &e_), "xproto", "get_input_focus_reply");
    drain_run(c, run_seq);
    xw_generic_event_t *ev;
    for (int k = 0; k < 4096 && (ev = xw_poll_for_event(c)); k++) {
        visit_event(ev);
        free(ev);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int sv[2];
    if (size < 2 || size > MAX_STREAM)
        return 0;
    int fds_before = count_open_fds();
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        die("socketpair");
    prologue(sv[1]);
    xw_connection_t *c = xw_connect_to_fd(sv[0], NULL);
    if (xw_connection_has_error(c))
        die("valid setup refused");
    run(c, sv[1], data, size);
    xw_disconnect(c);
    close(sv[1]);
    if (count_open_fds() != fds_before)
        die("file descriptors leaked");
    return 0;
}
