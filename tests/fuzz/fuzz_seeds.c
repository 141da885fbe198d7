/* SPDX-License-Identifier: MIT */
/* fuzz_seeds.c — writes the seed corpora of the harnesses (run at build time), trace/
 * a request stream and a received stream for the tracer;
 * setup/ valid and refused setup answers, reader/ a well-formed server stream for
 * the reader harness's requests, decode/ for every table target the shortest
 * zero-filled packet its walker accepts. Usage: fuzz_seeds OUTDIR STAMP: creates
 * OUTDIR/{setup,reader,decode}/ and OUTDIR/<harness>.list (the files, comma
 * separated, for libFuzzer's -seed_inputs=@list), then writes STAMP. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>

#include "fake_server.h"
#include "fuzz_decode.h"

static char outdir[PATH_MAX];
static FILE *lists[4];
static const char *const list_names[4] = {"setup", "reader", "decode", "trace"};

static void put(const char *sub, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", outdir, sub);
    if (mkdir(path, 0755) < 0 && errno != EEXIST)
        exit(1);
    snprintf(path, sizeof(path), "%s/%s/%s", outdir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    for (int i = 0; i < 4; i++)
        if (!strcmp(sub, list_names[i]))
            fprintf(lists[i], "%s%s", ftell(lists[i]) ? "," : "", path);
}

static void setup_seeds(void)
{
    uint8_t b[512];
    put("setup", "valid", b, fake_setup_success(b, sizeof(b), 65535));
    put("setup", "refused", b, fake_setup_refused(b, sizeof(b), 0, "No protocol specified"));
    put("setup", "authenticate", b, fake_setup_refused(b, sizeof(b), 2, "need a cookie"));
}

/* The reader harness's requests run from sequence 4 (see fuzz_reader.c). */
static size_t reader_stream(uint8_t *s)
{
    uint8_t ex[256];
    size_t n = 2;
    s[0] = 1; /* one fd, on the first chunk */
    s[1] = 0; /* the first chunk ends... set below */
    memset(ex, 0, sizeof(ex));
    fs_wr32(ex, 0x45); /* InternAtom: atom */
    n += fake_reply(s + n, 4, 0, ex, 24);
    memset(ex, 0, sizeof(ex)); /* GetProperty: STRING, 8 bits, "hello" */
    s[n + 1] = 8;
    fs_wr32(ex, 31), fs_wr32(ex + 8, 5), memcpy(ex + 24, "hello", 5);
    n += fake_reply(s + n, 5, 8, ex, 29);
    memset(ex, 0, sizeof(ex)); /* QueryTree: two children */
    fs_wr32(ex, FAKE_ROOT), fs_wr16(ex + 8, 2), fs_wr32(ex + 24, 0x200001), fs_wr32(ex + 28, 0x200002);
    n += fake_reply(s + n, 6, 0, ex, 32);
    memset(ex, 0, sizeof(ex)); /* ListFontsWithInfo: "fixed", 1 property */
    fs_wr16(ex + 38, 1), fs_wr32(ex + 52, 18), fs_wr32(ex + 56, 0x1234), memcpy(ex + 60, "fixed", 5);
    n += fake_reply(s + n, 7, 5, ex, 65);
    memset(ex, 0, sizeof(ex)); /* ... and the terminator */
    n += fake_reply(s + n, 7, 0, ex, 52);
    fake_error(s + n, 8, 3, FAKE_ROOT, 8, 0); /* MapWindow: BadWindow */
    n += 32;
    memset(ex, 0, sizeof(ex)); /* XIQueryDevice: none */
    n += fake_reply(s + n, 9, 0, ex, 24);
    memset(ex, 0, sizeof(ex)); /* XkbGetNames: nothing */
    n += fake_reply(s + n, 10, 0x100 & 0xff, ex, 24);
    memset(ex, 0, sizeof(ex)); /* DRI3Open: one fd */
    n += fake_reply(s + n, 11, 1, ex, 24);
    memset(ex, 0, sizeof(ex)); /* GetInputFocus */
    fs_wr32(ex, FAKE_ROOT);
    n += fake_reply(s + n, 12, 1, ex, 24);
    fake_event(s + n, 12, 12, FAKE_ROOT); /* Expose */
    n += 32;
    memset(s + n, 0, 36); /* XGE: XI Enter, no buttons */
    s[n] = 35, s[n + 1] = 131, fs_wr16(s + n + 2, 12), fs_wr32(s + n + 4, 1), fs_wr16(s + n + 8, 7);
    n += 36;
    s[1] = 64; /* fd rides on the first 256 bytes */
    return n;
}

static void reader_seeds(void)
{
    static uint8_t s[4096];
    size_t n = reader_stream(s);
    put("reader", "wellformed-fd", s, n);
    s[0] = 1 | 1 << 3; /* and one on the rest, which holds the DRI3 reply */
    s[1] = 48;
    put("reader", "wellformed-fd-two-reads", s, n);
    s[0] = 0;
    put("reader", "wellformed", s, n);
    put("reader", "empty", s, 2);
}

static void decode_seeds(void)
{
    static uint8_t p[2 + 1024];
    for (size_t i = 0; i < fuzz_ntargets; i++) {
        const struct fuzz_target *t = &fuzz_targets[i];
        for (size_t len = t->kind == FUZZ_XGE ? 36 : 32; len <= 1024; len += 4) {
            memset(p, 0, sizeof(p));
            p[2] = t->kind == FUZZ_XGE ? 35 : 1;
            fs_wr32(p + 6, (uint32_t)(len - (t->kind == FUZZ_XGE ? 36 : 32)) / 4);
            if (t->walk((const char *)p + 2, len, -1) >= 0) {
                p[0] = (uint8_t)(i >> 8), p[1] = (uint8_t)i;
                put("decode", t->name, p, len + 2);
                break;
            }
        }
    }
}

/* Requests (core, BIG-REQUESTS framing, RENDER's as fuzz_trace numbers it) and packets
 * (a reply, an error, an event, an XInput generic event). */
static void trace_seeds(void)
{
    static const uint8_t out[] = {
        2,    7, /* written, cut after 7 bytes */
        16,   0, 4, 0, 8,  0, 0,   0,   'W', 'M', '_', 'S', 'T', 'A', 'T', 'E', 127, 0, 1, 0, 1,  24, 9,  0, 1, 0,
        0x20, 0, 0, 1, 0,  0, 0,   0,   0,   0,   10,  0,   10,  0,   0,   0,   1,   0, 0, 0, 0,  0,  2,  0, 0, 0,
        7,    0, 0, 0, 18, 0, 0,   0,   9,   0,   0,   0,   0,   1,   0,   0,   39,  0, 0, 0, 31, 0,  0,  0, 8, 0,
        0,    0, 5, 0, 0,  0, 'h', 'e', 'l', 'l', 'o', 0,   0,   0,   140, 0,   3,   0, 0, 0, 0,  0,  11, 0, 0, 0,
    };
    put("trace", "requests", out, sizeof(out));
    static uint8_t in[2 + 32 * 4 + 8];
    memset(in, 0, sizeof(in));
    in[0] = 3, in[1] = 40; /* read, then written */
    uint8_t *p = in + 2;
    p[0] = 1, p[8] = 39, p += 32;
    p[0] = 0, p[1] = 3, p[4] = 0x34, p[10] = 8, p += 32;
    p[0] = 12, p[4] = 0x55, p += 32;
    p[0] = 35, p[1] = 152, p[4] = 2, p[8] = 2;
    put("trace", "packets", in, sizeof(in));
}

int main(int argc, char **argv)
{
    char path[PATH_MAX + 32];
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_seeds OUTDIR STAMP\n");
        return 1;
    }
    if ((mkdir(argv[1], 0755) < 0 && errno != EEXIST) || !realpath(argv[1], outdir))
        return 1;
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof(path), "%s/%s.list", outdir, list_names[i]);
        if (!(lists[i] = fopen(path, "w")))
            return 1;
    }
    setup_seeds();
    reader_seeds();
    decode_seeds();
    trace_seeds();
    for (int i = 0; i < 4; i++)
        if (fclose(lists[i]) != 0)
            return 1;
    FILE *f = fopen(argv[2], "w");
    return f && fclose(f) == 0 ? 0 : 1;
}
