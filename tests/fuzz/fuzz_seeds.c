/* fuzz_seeds.c — writes the seed corpora of the three harnesses (run at build time):
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
static FILE *lists[3];
static const char *const list_names[3] = {"setup", "reader", "decode"};

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
    for (int i = 0; i < 3; i++)
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
    s[0] = 1;  /* one fd, on the first chunk */
    s[1] = 0;  /* the first chunk ends... set below */
    memset(ex, 0, sizeof(ex));
    fs_wr32(ex, 0x45);                                          /* InternAtom: atom */
    n += fake_reply(s + n, 4, 0, ex, 24);
    memset(ex, 0, sizeof(ex));                               /* GetProperty: STRING, 8 bits, "hello" */
    s[n + 1] = 8;
    fs_wr32(ex, 31), fs_wr32(ex + 8, 5), memcpy(ex + 24, "hello", 5);
    n += fake_reply(s + n, 5, 8, ex, 29);
    memset(ex, 0, sizeof(ex));                               /* QueryTree: two children */
    fs_wr32(ex, FAKE_ROOT), fs_wr16(ex + 8, 2), fs_wr32(ex + 24, 0x200001), fs_wr32(ex + 28, 0x200002);
    n += fake_reply(s + n, 6, 0, ex, 32);
    memset(ex, 0, sizeof(ex));                               /* ListFontsWithInfo: "fixed", 1 property */
    fs_wr16(ex + 38, 1), fs_wr32(ex + 52, 18), fs_wr32(ex + 56, 0x1234), memcpy(ex + 60, "fixed", 5);
    n += fake_reply(s + n, 7, 5, ex, 65);
    memset(ex, 0, sizeof(ex));                               /* ... and the terminator */
    n += fake_reply(s + n, 7, 0, ex, 52);
    fake_error(s + n, 8, 3, FAKE_ROOT, 8, 0);                /* MapWindow: BadWindow */
    n += 32;
    memset(ex, 0, sizeof(ex));                               /* XIQueryDevice: none */
    n += fake_reply(s + n, 9, 0, ex, 24);
    memset(ex, 0, sizeof(ex));                               /* XkbGetNames: nothing */
    n += fake_reply(s + n, 10, 0x100 & 0xff, ex, 24);
    memset(ex, 0, sizeof(ex));                               /* DRI3Open: one fd */
    n += fake_reply(s + n, 11, 1, ex, 24);
    memset(ex, 0, sizeof(ex));                               /* GetInputFocus */
    fs_wr32(ex, FAKE_ROOT);
    n += fake_reply(s + n, 12, 1, ex, 24);
    fake_event(s + n, 12, 12, FAKE_ROOT);                    /* Expose */
    n += 32;
    memset(s + n, 0, 36);                                    /* XGE: XI Enter, no buttons */
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

int main(int argc, char **argv)
{
    char path[PATH_MAX + 32];
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_seeds OUTDIR STAMP\n");
        return 1;
    }
    if ((mkdir(argv[1], 0755) < 0 && errno != EEXIST) || !realpath(argv[1], outdir))
        return 1;
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s/%s.list", outdir, list_names[i]);
        if (!(lists[i] = fopen(path, "w")))
            return 1;
    }
    setup_seeds();
    reader_seeds();
    decode_seeds();
    for (int i = 0; i < 3; i++)
        if (fclose(lists[i]) != 0)
            return 1;
    FILE *f = fopen(argv[2], "w");
    return f && fclose(f) == 0 ? 0 : 1;
}
