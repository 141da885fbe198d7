/* SPDX-License-Identifier: MIT */
/* regress.c — inputs the fuzzers found, replayed through the harnesses' checks
 * (bounds, _sizeof, ASan, UBSan) on every test run; each case names the
 * finding. Built with the harnesses (clang only); a case fails by a sanitizer
 * report or an abort, so it only means something in a sanitized build.
 * Usage: fuzz_regress ID (one test per case, so one finding cannot hide another). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xw/xw.h>

#include "fdcheck.h"
#include "fake_server.h"
#include "fuzz_decode.h"

struct decode_case {
    const char *id; /* the test's name: fuzz-regress-<id> */
    const char *why;
    const char *header, *name;
    const char *hex; /* the packet's first bytes, hex; the rest are zero */
    size_t len;      /* whole packet; the length field is set from it */
};

static const struct decode_case decode_cases[] = {
    /* fuzz_decode: width * height (two CARD16s) multiplied in int by the
     * generated walker: signed overflow (UB) for 65535 x 65535 */
    {"xfixes-cursor-image", "GetCursorImage width*height overflows int", "xfixes", "xfixes_get_cursor_image_reply",
     "010000000000000000000000ffffffff", 32},
    {"xfixes-cursor-image-and-name", "GetCursorImageAndName width*height overflows int", "xfixes",
     "xfixes_get_cursor_image_and_name_reply", "010000000000000000000000ffffffff", 32},
    /* fuzz_decode: XI DeviceChanged with one ButtonClass (3 buttons) ending the
     * event; xw_input_device_class_data_unpack aligns from the switch's own start
     * (xw_base 0) where the walker aligns from the class (the switch starts at 6):
     * state and labels land 2 bytes late and the size runs 2 bytes past the event */
    {"xinput-device-class-align", "DeviceClass switch unpack misaligned", "xinput", "input_device_changed_event",
     "23830000060000000100020000000000010000000000000000000000000000000000000001000600000003000000000001000000020000000"
     "3000000",
     60},
};

static size_t unhex(const char *h, unsigned char *out, size_t cap)
{
    size_t n = 0;
    for (; h[0] && h[1] && n < cap; h += 2) {
        unsigned v;
        if (sscanf(h, "%2x", &v) != 1)
            abort();
        out[n++] = (unsigned char)v;
    }
    return n;
}

/* fuzz_setup: a setup whose maximum-request-length is 1 word. The first request
 * longer than that asks for BIG-REQUESTS; QueryExtension("BIG-REQUESTS") is itself
 * longer, so sending it asks for BIG-REQUESTS again: unbounded recursion
 * (ext.c bigreq_send -> xw__query_ext_major -> query_send -> out.c vet ->
 * xw__query_bigreq_max -> bigreq_send ...) until the stack overflows. */
static void setup_tiny_max_request(void)
{
    uint8_t setup[256];
    struct fake_server f;
    size_t n = fake_setup_success(setup, sizeof(setup), 1);
    xw_connection_t *c = fake_connect(&f, setup, n);
    if (!c || fake_serve_start(&f) < 0)
        abort();
    if (!xw_connection_has_error(c))
        printf("maximum request length %u\n", xw_get_maximum_request_length(c));
    xw_disconnect(c);
    fake_stop(&f);
    printf("ok setup with maximum-request-length 1\n");
}

static int decode_case(const struct decode_case *k)
{
    const struct fuzz_target *t = fuzz_find(k->header, k->name);
    if (!t) {
        printf("no %s in the table\n", k->name);
        return 77;
    }
    unsigned char *p = calloc(1, k->len);
    if (!p)
        abort();
    unhex(k->hex, p, k->len);
    p[0] = t->kind == FUZZ_XGE ? 35 : 1;
    uint32_t words = (uint32_t)((k->len - (t->kind == FUZZ_XGE ? 36 : 32)) / 4);
    memcpy(p + 4, &words, 4);
    if (t->walk((const char *)p, k->len, -1) >= 0)
        fuzz_visit(t, p, k->len);
    printf("ok %s\n", k->why);
    free(p);
    return 0;
}

static int run_case(const char *id)
{
    if (!strcmp(id, "setup-tiny-max-request")) {
        setup_tiny_max_request();
        return 0;
    }
    for (size_t i = 0; i < sizeof(decode_cases) / sizeof(decode_cases[0]); i++)
        if (!strcmp(id, decode_cases[i].id))
            return decode_case(&decode_cases[i]);
    fprintf(stderr, "fuzz_regress: no case %s\n", id);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_regress ID\n");
        return 2;
    }
    struct fdcheck fc;
    fdcheck_begin(&fc);
    int rc = run_case(argv[1]);
    if (fdcheck_main_end(&fc, "fuzz_regress") && rc == 0)
        rc = 1;
    return rc;
}
