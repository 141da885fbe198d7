/* SPDX-License-Identifier: MIT */
/* ext.h — internal: extensions: the process-wide descriptions and a connection's QueryExtension state. */
#ifndef XW_SRC_EXT_H
#define XW_SRC_EXT_H

#include "base.h"

enum xw_ext_state {
    XW_EXT_UNASKED, /* no QueryExtension sent yet */
    XW_EXT_ASKED,   /* QueryExtension in flight (seq) */
    XW_EXT_PRESENT, /* reply stored (present or not: reply says) */
    XW_EXT_FAILED,  /* the query could not be sent or was answered with an error */
};

/* One extension's QueryExtension state, found by name (never by a key's address:
 * a caller's key may be freed and another allocated at the same address); allocated
 * once, pointer-stable, so xw_get_extension_data can return reply. */
struct xw_ext_entry {
    struct xw_ext_entry *next;
    const xw_ext_desc_t *desc; /* NULL: xwire has no description of this extension */
    uint64_t seq;              /* QueryExtension in flight, 0 when none */
    enum xw_ext_state state;
    /* The whole 32-byte reply as received, which xw_get_extension_data returns: libxcb
     * hands out its malloc'd reply, so callers may read past the 12-byte struct (xss-lock
     * reads an int at first_event, which spans 2 bytes of the reply's padding). */
    uint8_t reply[32];
    char name[]; /* owned copy of the name */
};

/* Per-pointer cache in front of the extension list so the send fast path can find
 * a present extension's major opcode without walking a list. It holds generated
 * keys only (desc->key: static, never freed), so a pointer match is a name match. */
struct xw_ext_fast {
    const xw_extension_t *ext;
    uint8_t major;
};
/* Slots in that cache (a power of two), indexed by the key's address without its
 * low four bits: keys are 16-byte objects, so neighbouring keys take neighbouring slots. */
#define XW_EXT_FAST_SLOTS 16
#define XW_EXT_FAST_SLOT(key) ((((uintptr_t)(key)) >> 4) & (XW_EXT_FAST_SLOTS - 1))

/* A description in the process-wide registry: each generated description adds its
 * own node from a load-time constructor; never removed. */
struct xw_ext_reg {
    const xw_ext_desc_t *desc;
    struct xw_ext_reg *next;
};

/* ext.c (lock held, but for register) */
void xw__ext_register(struct xw_ext_reg *r);
struct xw_ext_entry *xw__ext_entry_get(xw_connection_t *c, const xw_extension_t *ext);
struct xw_ext_entry *xw__ext_by_major(xw_connection_t *c, uint8_t major);
struct xw_ext_entry *xw__ext_by_error(xw_connection_t *c, uint8_t code);
void xw__ext_fini(xw_connection_t *c);
/* The QueryExtension reply an entry keeps once its state is XW_EXT_PRESENT. */
static inline const xw_query_extension_reply_t *xw__ext_reply(const struct xw_ext_entry *e)
{
    return (const xw_query_extension_reply_t *)(const void *)e->reply;
}

#endif
