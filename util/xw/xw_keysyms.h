/* SPDX-License-Identifier: MIT */
#ifndef XW_KEYSYMS_H
#define XW_KEYSYMS_H
/* xw_keysyms.h — xcb-util-keysyms (<xcb/xcb_keysyms.h>) on xwire: the server's
 * keycode-to-keysym table, read once with GetKeyboardMapping and read again after a
 * MappingNotify, with the protocol's rules for the first four columns. Part of
 * libxwire-util. */
#include <stddef.h>
#include <xw/xw.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _XCBKeySymbols xw_key_symbols_t;

/** A key-symbol table for c: sends GetKeyboardMapping for every keycode of the setup
 * and returns at once; the reply is read by the first lookup. Returns NULL when c is
 * NULL or has failed, or memory runs out. The caller owns the table
 * (xw_key_symbols_free); it must not outlive c. A table is not thread-safe: use it
 * from one thread at a time. */
XW_EXPORT xw_key_symbols_t *xw_key_symbols_alloc(xw_connection_t *c);

/** Frees syms (NULL is ignored); a reply still pending is discarded. */
XW_EXPORT void xw_key_symbols_free(xw_key_symbols_t *syms);

/** The keysym of keycode in column col (0: unshifted, 1: shifted, 2 and 3: the
 * second group), with the protocol's rules for the first four columns: a missing
 * second keysym of a pair is the first one's case pair (or NoSymbol when it has
 * none), and a keycode with one group gives that group for columns 2 and 3.
 * Returns XW_NO_SYMBOL (0) for a keycode outside the setup's range, a column past
 * the table (columns 0 to 3 always exist), or when the mapping could not be read.
 * Waits for the table's reply on the first call after alloc or a refresh; never
 * allocates once the table's storage is as large as the server's map. */
XW_EXPORT xw_keysym_t xw_key_symbols_get_keysym(xw_key_symbols_t *syms, xw_keycode_t keycode, int col);

/** Every keycode that has keysym in some column, as xw_key_symbols_get_keysym sees
 * the table (columns 0 to keysyms-per-keycode - 1), each once, in increasing order.
 * Returns a malloc'd array
 * ended by 0 that the caller frees, or NULL when none has it or memory runs out. */
XW_EXPORT xw_keycode_t *xw_key_symbols_get_keycode(xw_key_symbols_t *syms, xw_keysym_t keysym);

/** xwire only: xw_key_symbols_get_keycode into the caller's out (cap entries, the
 * list ended by 0 when there is room). Returns the number of keycodes found, which
 * may exceed cap - 1 (then the list is cut there). Never allocates. */
XW_EXPORT size_t xw_key_symbols_get_keycode_into(xw_key_symbols_t *syms, xw_keysym_t keysym, xw_keycode_t *out,
                                                 size_t cap);

/** xw_key_symbols_get_keysym for event's keycode (detail). */
XW_EXPORT xw_keysym_t xw_key_press_lookup_keysym(xw_key_symbols_t *syms, xw_key_press_event_t *event, int col);

/** xw_key_symbols_get_keysym for event's keycode (detail). */
XW_EXPORT xw_keysym_t xw_key_release_lookup_keysym(xw_key_symbols_t *syms, xw_key_release_event_t *event, int col);

/** Call with each MappingNotify: for a keyboard mapping change, asks the server for
 * the new table (read by the next lookup, into the storage the table already has
 * when it is large enough). Returns 1 when the table is being refreshed, 0 when the
 * event is not about the keyboard mapping or syms/event is NULL. */
XW_EXPORT int xw_refresh_keyboard_mapping(xw_key_symbols_t *syms, xw_mapping_notify_event_t *event);

/** Keysym classes, as Xlib's IsKeypadKey and friends (<X11/Xutil.h>): the keypad
 * (KP_Space to KP_Equal), vendor keypad keysyms (0x11000000 to 0x1100ffff), the cursor
 * keys (Home to Select: one more than Xlib's, as xcb-util-keysyms), the keypad's PF1 to PF4, F1 to F35, the
 * miscellaneous
 * function keys (Select to Break), and the modifiers (Shift_L to Hyper_R, the ISO
 * lock and level keys, Mode_switch, Num_Lock). Return 1 or 0. Pure functions. */
XW_EXPORT int xw_is_keypad_key(xw_keysym_t keysym);
XW_EXPORT int xw_is_private_keypad_key(xw_keysym_t keysym);
XW_EXPORT int xw_is_cursor_key(xw_keysym_t keysym);
XW_EXPORT int xw_is_pf_key(xw_keysym_t keysym);
XW_EXPORT int xw_is_function_key(xw_keysym_t keysym);
XW_EXPORT int xw_is_misc_function_key(xw_keysym_t keysym);
XW_EXPORT int xw_is_modifier_key(xw_keysym_t keysym);

#ifdef __cplusplus
}
#endif
#endif
