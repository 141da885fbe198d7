/* SPDX-License-Identifier: MIT */
/* fuzz_decode.h — the target table gen_decode_table.py writes and fuzz_decode.c drives. */
#ifndef XW_FUZZ_DECODE_H
#define XW_FUZZ_DECODE_H

#include <stddef.h>
#include <stdint.h>

enum fuzz_kind {
    FUZZ_REPLY, /* 32 + 4 * length bytes, as received */
    FUZZ_XGE,   /* 36 + 4 * length bytes, as stored: full_sequence at byte 32 */
};

struct fuzz_target {
    const char *name;   /* "query_tree_reply", "input_key_press_event" */
    const char *header; /* the description: "xproto", "xinput" */
    enum fuzz_kind kind;
    int number;                                            /* XGE event_type; -1 for replies */
    long (*walk)(const char *buf, size_t avail, int stop); /* the validator's body */
    void (*visit)(const void *packet);                     /* every accessor; NULL: none */
    int (*size)(const void *packet);                       /* _sizeof; NULL: none */
};

extern const struct fuzz_target fuzz_targets[];
extern const size_t fuzz_ntargets;

/* Runs t's accessors over len bytes at p, which its walker accepted; checks that
 * they stay inside them. */
void fuzz_visit(const struct fuzz_target *t, const void *p, size_t len);
/* The target named name of description header, or an XGE event by number; NULL if none. */
const struct fuzz_target *fuzz_find(const char *header, const char *name);
const struct fuzz_target *fuzz_find_xge(const char *header, int number);

/* Checks, in fuzz_decode.c: n bytes at p lie inside the packet being visited (and
 * reads them, so ASan sees every byte); p lies inside or just past it; a value the
 * optimiser must keep. Each aborts with a message on a violation. */
void touch(const void *p, size_t n);
void inside(const void *p, size_t n);
void sink(uint64_t v);

#endif
