/* SPDX-License-Identifier: MIT */
/* fuzz_setup.c — libFuzzer harness for the setup reply parser: the input is the
 * server's whole answer to the setup request, then EOF. A connection without error
 * must have a setup whose every list the generated iterators can walk inside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xw/xw.h>

#include "fake_server.h"

#define MAX_ANSWER (1u << 16)

static volatile uint64_t sunk;

/* Reads every byte (ASan: the setup is one heap block of its exact size). */
static void touch(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += b[i];
    sunk += s;
}

static void walk_screen(const xw_screen_t *s)
{
    touch(s, sizeof(*s));
    for (xw_depth_iterator_t d = xw_screen_allowed_depths_iterator(s); d.rem > 0; xw_depth_next(&d)) {
        touch(d.data, sizeof(*d.data));
        touch(xw_depth_visuals(d.data), (size_t)xw_depth_visuals_length(d.data) * sizeof(xw_visualtype_t));
        for (xw_visualtype_iterator_t v = xw_depth_visuals_iterator(d.data); v.rem > 0; xw_visualtype_next(&v))
            touch(v.data, sizeof(*v.data));
        sunk += (uint64_t)xw_depth_sizeof(d.data);
    }
    sunk += (uint64_t)xw_screen_sizeof(s);
    sunk += (uintptr_t)xw_depth_end(xw_screen_allowed_depths_iterator(s)).data;
}

static void walk_setup(const xw_setup_t *s)
{
    touch(s, sizeof(*s));
    touch(xw_setup_vendor(s), (size_t)xw_setup_vendor_length(s));
    sunk += (uintptr_t)xw_setup_vendor_end(s).data;
    touch(xw_setup_pixmap_formats(s), (size_t)xw_setup_pixmap_formats_length(s) * sizeof(xw_format_t));
    for (xw_format_iterator_t f = xw_setup_pixmap_formats_iterator(s); f.rem > 0; xw_format_next(&f))
        touch(f.data, sizeof(*f.data));
    for (xw_screen_iterator_t i = xw_setup_roots_iterator(s); i.rem > 0; xw_screen_next(&i))
        walk_screen(i.data);
    sunk += (uintptr_t)xw_screen_end(xw_setup_roots_iterator(s)).data;
    sunk += (uint64_t)xw_setup_sizeof(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int sv[2];
    if (size > MAX_ANSWER)
        return 0;
    int fds_before = count_open_fds();
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        abort();
    struct fake_server f = {.fd = sv[1]};
    fake_send(&f, data, size);
    shutdown(sv[1], SHUT_WR);
    xw_connection_t *c = xw_connect_to_fd(sv[0], NULL);
    if (!xw_connection_has_error(c)) {
        const xw_setup_t *s = xw_get_setup(c);
        if (!s)
            abort();
        walk_setup(s);
        sunk += xw_get_maximum_request_length(c) + xw_generate_id(c);
    } else if (!xw_connection_error_string(c)) {
        fprintf(stderr, "fuzz_setup: connection error without a reason\n");
        abort();
    }
    xw_disconnect(c);
    close(sv[1]);
    if (count_open_fds() != fds_before) {
        fprintf(stderr, "fuzz_setup: file descriptors leaked\n");
        abort();
    }
    return 0;
}
