/* SPDX-License-Identifier: MIT */
/* keysyms.c — xcb-util-keysyms on xwire: the keycode-to-keysym table and its lookups. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <xw/xw_keysyms.h>
#include <xw/xwext.h>

/* The table: the GetKeyboardMapping reply's wire bytes, read into storage the table
 * owns and keeps across refreshes (so a refresh allocates only when the map grows). */
struct _XCBKeySymbols {
    xw_connection_t *c;
    uint64_t pending;    /* sequence of the GetKeyboardMapping not yet read; 0: none */
    uint8_t min, max;    /* the setup's keycode range */
    int per;             /* keysyms per keycode in the table; 0: no table */
    const uint32_t *map; /* (max - min + 1) * per keysyms, inside buf */
    void *buf;           /* the reply as received; owned */
    size_t cap;
};

static void request_map(xw_key_symbols_t *k)
{
    k->pending = xw_get_keyboard_mapping(k->c, k->min, (uint8_t)(k->max - k->min + 1)).sequence;
    k->per = 0;
}

XW_EXPORT xw_key_symbols_t *xw_key_symbols_alloc(xw_connection_t *c)
{
    const xw_setup_t *setup = c && !xw_connection_has_error(c) ? xw_get_setup(c) : NULL;
    if (!setup || setup->min_keycode > setup->max_keycode)
        return NULL;
    xw_key_symbols_t *k = calloc(1, sizeof(*k));
    if (!k)
        return NULL;
    k->c = c;
    k->min = setup->min_keycode;
    k->max = setup->max_keycode;
    request_map(k);
    return k;
}

XW_EXPORT void xw_key_symbols_free(xw_key_symbols_t *k)
{
    if (!k)
        return;
    if (k->pending)
        xw_discard_reply64(k->c, k->pending);
    free(k->buf);
    free(k);
}

/* Reads the pending reply into buf, growing it once when the map is larger than
 * the storage; a reply whose keysyms do not cover the keycode range (or an error)
 * leaves an empty table, so every lookup answers NoSymbol. */
static void read_map(xw_key_symbols_t *k)
{
    uint64_t seq = k->pending;
    xw_generic_error_t err;
    size_t len = 0;
    k->pending = 0;
    int r = xw_wait_for_reply_into(k->c, seq, k->buf, k->cap, &len, &err, -1);
    if (r == -ENOSPC) {
        void *bigger = realloc(k->buf, len);
        if (!bigger) {
            xw_discard_reply64(k->c, seq);
            return;
        }
        k->buf = bigger;
        k->cap = len;
        r = xw_wait_for_reply_into(k->c, seq, k->buf, k->cap, &len, &err, -1);
    }
    if (r != 1 || len < sizeof(xw_get_keyboard_mapping_reply_t))
        return;
    const xw_get_keyboard_mapping_reply_t *rep = k->buf;
    size_t need = (size_t)(k->max - k->min + 1) * rep->keysyms_per_keycode;
    if (need * 4 > len - sizeof(*rep) || need * 4 > (size_t)rep->length * 4)
        return;
    k->map = (const uint32_t *)(rep + 1);
    k->per = rep->keysyms_per_keycode;
}

static const uint32_t *row_of(xw_key_symbols_t *k, xw_keycode_t keycode)
{
    if (k->pending)
        read_map(k);
    if (!k->per || keycode < k->min || keycode > k->max)
        return NULL;
    return k->map + (size_t)(keycode - k->min) * (size_t)k->per;
}

/* The lower- and upper-case forms of sym, for the Latin 1-4, Cyrillic and Greek
 * keysym sets (keysymdef.h), as xcb-util-keysyms and older Xlib treat them (neither
 * Latin 9 nor Unicode keysyms are paired): each set's
 * capital and small letters lie in parallel ranges a fixed distance apart (the
 * ranges are taken whole, gaps included, as Xlib does). Others are their own case. */
struct case_range {
    uint16_t first, last, dist; /* capitals first..last; smalls at + dist */
};

static const struct case_range case_ranges[] = {
    {0x041, 0x05a, 0x20}, {0x0c0, 0x0d6, 0x20}, {0x0d8, 0x0de, 0x20},                       /* Latin 1 */
    {0x1a1, 0x1a1, 0x10}, {0x1a3, 0x1a6, 0x10}, {0x1a9, 0x1ac, 0x10}, {0x1ae, 0x1af, 0x10}, /* Latin 2 */
    {0x1c0, 0x1de, 0x20}, {0x2a1, 0x2a6, 0x10}, {0x2ab, 0x2ac, 0x10}, {0x2c5, 0x2de, 0x20}, /* Latin 3 */
    {0x3a3, 0x3ac, 0x10}, {0x3bd, 0x3bd, 0x02}, {0x3c0, 0x3de, 0x20},                       /* Latin 4 */
    {0x7a1, 0x7ab, 0x10}, {0x7c1, 0x7d9, 0x20},                                             /* Greek */
};

static int small_excluded(uint32_t sym)
{
    /* small letters with no capital in the parallel range: iota/upsilon with accent
     * and dieresis, final small sigma */
    return sym == 0x7b6 || sym == 0x7ba || sym == 0x7f3;
}

static void convert_case(uint32_t sym, uint32_t *lower, uint32_t *upper)
{
    *lower = *upper = sym;
    if (sym >= 0x6b1 && sym <= 0x6bf) { /* Serbian capitals lie above their smalls */
        *lower = sym - 0x10;
        return;
    }
    if (sym >= 0x6a1 && sym <= 0x6af) {
        *upper = sym + 0x10;
        return;
    }
    if (sym >= 0x6e0 && sym <= 0x6ff) { /* so do the Cyrillic ones */
        *lower = sym - 0x20;
        return;
    }
    if (sym >= 0x6c0 && sym <= 0x6df) {
        *upper = sym + 0x20;
        return;
    }
    for (size_t i = 0; i < sizeof(case_ranges) / sizeof(case_ranges[0]); i++) {
        const struct case_range *r = &case_ranges[i];
        if (sym >= r->first && sym <= r->last) {
            *lower = sym + r->dist;
            return;
        }
        if (sym >= (uint32_t)r->first + r->dist && sym <= (uint32_t)r->last + r->dist && !small_excluded(sym)) {
            *upper = sym - r->dist;
            return;
        }
    }
}

XW_EXPORT xw_keysym_t xw_key_symbols_get_keysym(xw_key_symbols_t *k, xw_keycode_t keycode, int col)
{
    if (!k || col < 0)
        return XW_NO_SYMBOL;
    const uint32_t *row = row_of(k, keycode);
    int per = k->per;
    if (!row || (col >= per && col > 3))
        return XW_NO_SYMBOL;
    if (col > 3)
        return row[col];
    /* The protocol's rules for the groups in columns 0-3: a keycode with one group
     * (trailing NoSymbols dropped) shows it as the second too; within a group a
     * lone or missing second keysym is the first one's upper case. */
    if (col > 1) {
        while (per > 2 && row[per - 1] == XW_NO_SYMBOL)
            per--;
        if (per < 3)
            col -= 2;
    }
    if (per > (col | 1) && row[col | 1] != XW_NO_SYMBOL)
        return row[col];
    uint32_t lower, upper;
    convert_case(row[col & ~1], &lower, &upper); /* col & ~1 < per: per >= 3 here when col > 1 */
    if (!(col & 1))
        return lower;
    return upper == lower ? XW_NO_SYMBOL : upper;
}

XW_EXPORT size_t xw_key_symbols_get_keycode_into(xw_key_symbols_t *k, xw_keysym_t keysym, xw_keycode_t *out, size_t cap)
{
    size_t n = 0;
    if (!k || !row_of(k, k->min))
        return 0;
    for (unsigned kc = k->min; kc <= k->max; kc++)
        for (int col = 0; col < k->per; col++)
            if (xw_key_symbols_get_keysym(k, (xw_keycode_t)kc, col) == keysym) {
                if (n + 1 < cap)
                    out[n] = (xw_keycode_t)kc;
                n++;
                break; /* each keycode once */
            }
    if (cap)
        out[n < cap ? n : cap - 1] = 0;
    return n;
}

XW_EXPORT xw_keycode_t *xw_key_symbols_get_keycode(xw_key_symbols_t *k, xw_keysym_t keysym)
{
    size_t n = xw_key_symbols_get_keycode_into(k, keysym, NULL, 0);
    if (!n)
        return NULL;
    xw_keycode_t *out = malloc(n + 1);
    if (out)
        xw_key_symbols_get_keycode_into(k, keysym, out, n + 1);
    return out;
}

XW_EXPORT xw_keysym_t xw_key_press_lookup_keysym(xw_key_symbols_t *k, xw_key_press_event_t *event, int col)
{
    return event ? xw_key_symbols_get_keysym(k, event->detail, col) : XW_NO_SYMBOL;
}

XW_EXPORT xw_keysym_t xw_key_release_lookup_keysym(xw_key_symbols_t *k, xw_key_release_event_t *event, int col)
{
    return event ? xw_key_symbols_get_keysym(k, event->detail, col) : XW_NO_SYMBOL;
}

XW_EXPORT int xw_refresh_keyboard_mapping(xw_key_symbols_t *k, xw_mapping_notify_event_t *event)
{
    if (!k || !event || event->request != XW_MAPPING_KEYBOARD)
        return 0;
    if (k->pending)
        xw_discard_reply64(k->c, k->pending);
    request_map(k);
    return 1;
}

XW_EXPORT int xw_is_keypad_key(xw_keysym_t ks)
{
    return ks >= 0xff80 && ks <= 0xffbd; /* KP_Space .. KP_Equal */
}

XW_EXPORT int xw_is_private_keypad_key(xw_keysym_t ks)
{
    return ks >= 0x11000000 && ks <= 0x1100ffff;
}

XW_EXPORT int xw_is_cursor_key(xw_keysym_t ks)
{
    return ks >= 0xff50 && ks <= 0xff60; /* Home .. Select (Xlib's IsCursorKey stops before Select) */
}

XW_EXPORT int xw_is_pf_key(xw_keysym_t ks)
{
    return ks >= 0xff91 && ks <= 0xff94; /* KP_F1 .. KP_F4 */
}

XW_EXPORT int xw_is_function_key(xw_keysym_t ks)
{
    return ks >= 0xffbe && ks <= 0xffe0; /* F1 .. F35 */
}

XW_EXPORT int xw_is_misc_function_key(xw_keysym_t ks)
{
    return ks >= 0xff60 && ks <= 0xff6b; /* Select .. Break */
}

XW_EXPORT int xw_is_modifier_key(xw_keysym_t ks)
{
    return (ks >= 0xffe1 && ks <= 0xffee)    /* Shift_L .. Hyper_R */
           || (ks >= 0xfe01 && ks <= 0xfe13) /* ISO_Lock .. ISO_Level5_Lock */
           || ks == 0xff7e                   /* Mode_switch */
           || ks == 0xff7f;                  /* Num_Lock */
}
