/* SPDX-License-Identifier: MIT */
/* fuzz_decode.c — libFuzzer harness for the generated validators and accessors.
 *
 * Input: two bytes pick a reply or XGE event type from the generated table
 * (written from the headers at build time by gen_decode_table.py); the rest is the
 * packet, shaped as the runtime hands it to the validator (reply: 32 + 4 * length
 * bytes with the length field set; XGE event: as stored, 36 + 4 * length with
 * full_sequence at byte 32). When the type's walker (the validator's body) accepts
 * the packet, every accessor of the type must stay inside it: the packet lives in
 * a heap block of exactly its size, and fuzz_visit() reads each byte an accessor
 * points at (ASan) and checks it against the packet's bounds (padding included). */
#include <stdlib.h>
#include <string.h>

#include "fuzz_decode.h"

#define MAX_PACKET (1u << 16)

static void put32(char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

/* The packet for t from the input, in a block of exactly its size. */
static char *shape(const struct fuzz_target *t, const uint8_t *in, size_t n, size_t *len)
{
    size_t head = t->kind == FUZZ_XGE ? 36 : 32;
    size_t body = n > head ? (n - head + 3) & ~(size_t)3 : 0;
    char *p = malloc(head + body);
    if (!p)
        abort();
    memset(p, 0, head + body);
    memcpy(p, in, n);
    p[0] = t->kind == FUZZ_XGE ? 35 : 1;
    put32(p + 4, (uint32_t)(body / 4));
    *len = head + body;
    return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2 || size - 2 > MAX_PACKET || fuzz_ntargets == 0)
        return 0;
    const struct fuzz_target *t = &fuzz_targets[((size_t)data[0] << 8 | data[1]) % fuzz_ntargets];
    size_t len;
    char *p = shape(t, data + 2, size - 2, &len);
    if (t->walk(p, len, -1) >= 0)
        fuzz_visit(t, p, len);
    free(p);
    return 0;
}
