/* SPDX-License-Identifier: MIT */
/* captured.c — real replies from a private Xvfb (XKB GetMap with every part and
 * GetKbdByName, XInput XIQueryDevice, RandR GetScreenResources), each put through the
 * decode comparisons of its generated case: accessors, _sizeof, _unpack, _serialize. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <xcb/randr.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>
#include <xcb/xinput.h>
#include <xcb/xkb.h>

#include "decode.h"
#include "xvfb.h"

/* Claims the reply to seq from libxcb and runs the named case's check on its bytes;
 * 0, or -1 when there was no reply or no such case. */
static int check_reply(xcb_connection_t *c, unsigned seq, struct db *r, const char *name, int *replies)
{
    xcb_generic_error_t *e = NULL;
    uint8_t *rep = xcb_wait_for_reply(c, seq, &e);
    const struct db_case *k = db_find(name);
    if (!rep || !k || !k->check) {
        fprintf(stderr, "decode --xvfb: %s: %s (X error %d)\n", name, rep ? "no such case" : "no reply",
                e ? e->error_code : 0);
        free(rep), free(e);
        return -1;
    }
    uint32_t words;
    memcpy(&words, rep + 4, 4);
    size_t len = 32 + (size_t)words * 4;
    if (len > sizeof(r->buf)) {
        fprintf(stderr, "decode --xvfb: %s: %zu bytes is more than the harness holds\n", name, len);
        free(rep);
        return -1;
    }
    memcpy(r->buf, rep, len);
    free(rep);
    r->name = name;
    r->fn = NULL;
    r->need = len;
    r->captured = 1;
    int before = r->checks, failed = r->failed + r->missing;
    k->check(r);
    printf("Xvfb %s: %zu bytes, %d comparisons, %d differ\n", name, len, r->checks - before,
           r->failed + r->missing - failed);
    ++*replies;
    return 0;
}

/* GetKbdByName as the protocol has it: libxcb's form cannot carry the six component
 * names (its description leaves them out), so the request is written whole here. */
static unsigned get_kbd_by_name(xcb_connection_t *c)
{
    static const char *const names[] = {"", "evdev", "complete", "complete", "pc+us", "pc(pc105)"};
    uint8_t b[128] = {0};
    size_t n = 12;
    uint16_t dev = XCB_XKB_ID_USE_CORE_KBD, all = 0xff;
    b[1] = XCB_XKB_GET_KBD_BY_NAME;
    memcpy(b + 4, &dev, 2);
    memcpy(b + 6, &all, 2); /* need */
    memcpy(b + 8, &all, 2); /* want */
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        b[n++] = (uint8_t)strlen(names[i]);
        memcpy(b + n, names[i], strlen(names[i]));
        n += strlen(names[i]);
    }
    uint16_t words = (uint16_t)((n + 3) / 4);
    memcpy(b + 2, &words, 2);
    b[0] = xcb_get_extension_data(c, &xcb_xkb_id)->major_opcode;
    struct iovec v[3] = {{0}, {0}, {b, (size_t)words * 4}};
    xcb_protocol_request_t req = {1, &xcb_xkb_id, XCB_XKB_GET_KBD_BY_NAME, 0};
    return xcb_send_request(c, XCB_REQUEST_CHECKED | XCB_REQUEST_RAW, v + 2, &req);
}

static int capture(xcb_connection_t *c, struct db *r, int *replies)
{
    const xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    free(xcb_xkb_use_extension_reply(c, xcb_xkb_use_extension(c, 1, 0), NULL));
    free(xcb_input_xi_query_version_reply(c, xcb_input_xi_query_version(c, 2, 3), NULL));
    free(xcb_randr_query_version_reply(c, xcb_randr_query_version(c, 1, 6), NULL));
    int bad = 0;
    /* every part of the core keyboard's map */
    xcb_xkb_get_map_cookie_t map =
        xcb_xkb_get_map(c, XCB_XKB_ID_USE_CORE_KBD, 0xff /* full */, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    bad |= check_reply(c, map.sequence, r, "GetMap reply", replies);
    bad |= check_reply(c, get_kbd_by_name(c), r, "GetKbdByName reply", replies);
    bad |=
        check_reply(c, xcb_input_xi_query_device(c, XCB_INPUT_DEVICE_ALL).sequence, r, "XIQueryDevice reply", replies);
    bad |= check_reply(c, xcb_randr_get_screen_resources(c, s->root).sequence, r, "GetScreenResources reply", replies);
    return bad;
}

int db_captured(struct db *r)
{
    struct xvfb x;
    if (xvfb_start(&x)) {
        fprintf(stderr, "decode --xvfb: Xvfb did not start\n");
        return 2;
    }
    xcb_connection_t *c = xcb_connect(x.name, NULL);
    int replies = 0, bad = xcb_connection_has_error(c) ? -1 : capture(c, r, &replies);
    xcb_disconnect(c);
    xvfb_stop(&x);
    printf("%d replies captured from Xvfb\n", replies);
    return bad ? 2 : 0;
}
