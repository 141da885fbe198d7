/* SPDX-License-Identifier: MIT */
/* exutil.h — the few helpers the example clients share: connecting with a readable
 * failure, printing X errors, and turning keycodes into keysyms and their names.
 * Only the public API (xw/xw.h and the generated headers) is used. */
#ifndef XW_EXAMPLES_EXUTIL_H
#define XW_EXAMPLES_EXUTIL_H

#include <xw/xw.h>

/* The value of "-display NAME" in argv, or NULL ($DISPLAY). */
const char *ex_display_arg(int argc, char **argv);

/* Connects or exits with status 1 after printing, e.g.
 * "xwinfo: cannot connect to \":5\": connect to /tmp/.X11-unix/X5: No such file or directory".
 * *screen gets the display string's screen number. */
xw_connection_t *ex_connect(const char *prog, const char *display, int *screen);

/* The screen numbered n of the setup, or NULL. */
const xw_screen_t *ex_screen(xw_connection_t *c, int n);

/* When e is not NULL: prints "prog: what: <xw_error_text>", frees e and returns 1.
 * Returns 0 for NULL, so `if (ex_report(...)) goto out;` reads naturally. */
int ex_report(xw_connection_t *c, const char *prog, const char *what, xw_generic_error_t *e);

/* The server's keyboard map, fetched once (GetKeyboardMapping). */
struct ex_keymap {
    xw_keycode_t min_keycode;
    uint8_t per_keycode; /* keysyms per keycode */
    int count;           /* keycodes covered */
    xw_keysym_t *syms;   /* malloc'd; ex_keymap_free() */
};
int ex_keymap_load(xw_connection_t *c, struct ex_keymap *km, const char *prog);
void ex_keymap_free(struct ex_keymap *km);
/* The keysym of keycode with modifier state (Shift picks the second column, as
 * the core protocol's rules say for letters and most keys). 0 when none. */
xw_keysym_t ex_keysym(const struct ex_keymap *km, xw_keycode_t keycode, uint16_t state);
/* The first keycode whose unshifted keysym is ks, 0 when none (what XTEST needs). */
xw_keycode_t ex_keycode(const struct ex_keymap *km, xw_keysym_t ks);
/* Xlib's name for ks ("a", "space", "Return", "F1"), or "0x…" when not in our table. */
const char *ex_keysym_name(xw_keysym_t ks, char *buf, size_t cap);

/* Interns name (a round trip); XW_NONE on error, which is printed. */
xw_atom_t ex_atom(xw_connection_t *c, const char *prog, const char *name);

#endif
