/* SPDX-License-Identifier: MIT */
/* exutil.c — connection, error and keyboard helpers shared by the example clients. */
#include "exutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ex_display_arg(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-display"))
            return argv[i + 1];
    return NULL;
}

xw_connection_t *ex_connect(const char *prog, const char *display, int *screen)
{
    xw_connection_t *c = xw_connect(display, screen);
    if (!xw_connection_has_error(c))
        return c;
    /* xw_connect never returns NULL; the reason lives until xw_disconnect. */
    const char *name = display ? display : getenv("DISPLAY");
    if (name && *name)
        fprintf(stderr, "%s: cannot connect to \"%s\": %s\n", prog, name, xw_connection_error_string(c));
    else
        fprintf(stderr, "%s: cannot connect: %s\n", prog, xw_connection_error_string(c));
    xw_disconnect(c);
    exit(1);
}

const xw_screen_t *ex_screen(xw_connection_t *c, int n)
{
    xw_screen_iterator_t it = xw_setup_roots_iterator(xw_get_setup(c));
    for (; it.rem > 0; xw_screen_next(&it), n--)
        if (n == 0)
            return it.data;
    return NULL;
}

int ex_report(xw_connection_t *c, const char *prog, const char *what, xw_generic_error_t *e)
{
    if (!e)
        return 0;
    char text[256];
    xw_error_text(c, e, text, sizeof(text));
    fprintf(stderr, "%s: %s: %s\n", prog, what, text);
    free(e);
    return 1;
}

int ex_keymap_load(xw_connection_t *c, struct ex_keymap *km, const char *prog)
{
    const xw_setup_t *s = xw_get_setup(c);
    uint8_t count = (uint8_t)(s->max_keycode - s->min_keycode + 1);
    xw_generic_error_t *e = NULL;
    xw_get_keyboard_mapping_reply_t *r =
        xw_get_keyboard_mapping_reply(c, xw_get_keyboard_mapping(c, s->min_keycode, count), &e);
    memset(km, 0, sizeof(*km));
    if (ex_report(c, prog, "GetKeyboardMapping", e) || !r)
        return -1;
    int n = xw_get_keyboard_mapping_keysyms_length(r);
    km->syms = malloc(((size_t)n + 1) * sizeof(xw_keysym_t));
    if (km->syms)
        memcpy(km->syms, xw_get_keyboard_mapping_keysyms(r), (size_t)n * sizeof(xw_keysym_t));
    km->min_keycode = s->min_keycode;
    km->per_keycode = r->keysyms_per_keycode;
    km->count = r->keysyms_per_keycode ? n / r->keysyms_per_keycode : 0;
    free(r);
    return km->syms ? 0 : -1;
}

void ex_keymap_free(struct ex_keymap *km)
{
    free(km->syms);
    km->syms = NULL;
}

xw_keysym_t ex_keysym(const struct ex_keymap *km, xw_keycode_t keycode, uint16_t state)
{
    int i = keycode - km->min_keycode;
    if (i < 0 || i >= km->count || km->per_keycode == 0)
        return 0;
    const xw_keysym_t *row = km->syms + (size_t)i * km->per_keycode;
    int shifted = (state & XW_MOD_MASK_SHIFT) && km->per_keycode > 1 && row[1];
    return row[shifted];
}

xw_keycode_t ex_keycode(const struct ex_keymap *km, xw_keysym_t ks)
{
    for (int i = 0; i < km->count; i++)
        if (km->syms[(size_t)i * km->per_keycode] == ks)
            return (xw_keycode_t)(km->min_keycode + i);
    return 0;
}

/* Names from X11/keysymdef.h: the ASCII punctuation and the keys a test or a
 * person is likely to press. Xlib carries all ~2,400; an example needs these. */
static const char *const ascii_names[] = {
    "space",     "exclam",     "quotedbl", "numbersign", "dollar", "percent", "ampersand", "apostrophe",
    "parenleft", "parenright", "asterisk", "plus",       "comma",  "minus",   "period",    "slash",
};
static const struct {
    xw_keysym_t ks;
    const char *name;
} special[] = {
    {0x3a, "colon"},       {0x3b, "semicolon"},  {0x3c, "less"},        {0x3d, "equal"},       {0x3e, "greater"},
    {0x3f, "question"},    {0x40, "at"},         {0x5b, "bracketleft"}, {0x5c, "backslash"},   {0x5d, "bracketright"},
    {0x5e, "asciicircum"}, {0x5f, "underscore"}, {0x60, "grave"},       {0x7b, "braceleft"},   {0x7c, "bar"},
    {0x7d, "braceright"},  {0x7e, "asciitilde"}, {0xff08, "BackSpace"}, {0xff09, "Tab"},       {0xff0d, "Return"},
    {0xff1b, "Escape"},    {0xffff, "Delete"},   {0xff50, "Home"},      {0xff51, "Left"},      {0xff52, "Up"},
    {0xff53, "Right"},     {0xff54, "Down"},     {0xff55, "Prior"},     {0xff56, "Next"},      {0xff57, "End"},
    {0xffe1, "Shift_L"},   {0xffe2, "Shift_R"},  {0xffe3, "Control_L"}, {0xffe4, "Control_R"}, {0xffe5, "Caps_Lock"},
    {0xffe9, "Alt_L"},     {0xffea, "Alt_R"},    {0xffeb, "Super_L"},   {0xffec, "Super_R"},
};

const char *ex_keysym_name(xw_keysym_t ks, char *buf, size_t cap)
{
    if (ks >= 0x20 && ks < 0x30)
        return ascii_names[ks - 0x20];
    if ((ks >= '0' && ks <= '9') || (ks >= 'A' && ks <= 'Z') || (ks >= 'a' && ks <= 'z')) {
        snprintf(buf, cap, "%c", (char)ks);
        return buf;
    }
    if (ks >= 0xffbe && ks <= 0xffc9) { /* F1 .. F12 */
        snprintf(buf, cap, "F%u", (unsigned)(ks - 0xffbe + 1));
        return buf;
    }
    for (size_t i = 0; i < sizeof(special) / sizeof(special[0]); i++)
        if (special[i].ks == ks)
            return special[i].name;
    snprintf(buf, cap, ks ? "0x%x" : "NoSymbol", (unsigned)ks);
    return buf;
}

xw_atom_t ex_atom(xw_connection_t *c, const char *prog, const char *name)
{
    xw_generic_error_t *e = NULL;
    xw_intern_atom_reply_t *r = xw_intern_atom_reply(c, xw_intern_atom(c, 0, (uint16_t)strlen(name), name), &e);
    if (ex_report(c, prog, "InternAtom", e) || !r)
        return XW_NONE;
    xw_atom_t a = r->atom;
    free(r);
    return a;
}
