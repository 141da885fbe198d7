/* SPDX-License-Identifier: MIT */
/* xwpoke.c — the test driver for the example clients: does one thing to a window
 * as a user or a window manager would, through xwire's public API, and waits
 * (one round trip) until the server has done it.
 *   xwpoke motion WIN X Y         pointer to (X,Y) in WIN        (XTEST)
 *   xwpoke click WIN BUTTON X Y   pointer there, press, release  (XTEST)
 *   xwpoke key WIN KEY...         pointer into WIN, press and release each key
 *                                 ("a", "q", "Return", "F1", ...)  (XTEST)
 *   xwpoke resize WIN W H         ConfigureWindow
 *   xwpoke prop WIN NAME TEXT     ChangeProperty NAME = TEXT (STRING)
 *   xwpoke close WIN              ClientMessage WM_PROTOCOLS/WM_DELETE_WINDOW
 * The display comes from $DISPLAY. Exit status 0, or 1 with the reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xw/xtest.h>

#include "exutil.h"

static const char *prog = "xwpoke";
static xw_connection_t *c;
static const xw_screen_t *scr;

static int check(xw_void_cookie_t ck, const char *what)
{
    return ex_report(c, prog, what, xw_request_check(c, ck)) ? -1 : 0;
}

/* XTEST input is in root coordinates; the caller speaks window coordinates. */
static int fake_motion(xw_window_t win, int x, int y)
{
    xw_generic_error_t *e = NULL;
    xw_translate_coordinates_reply_t *t =
        xw_translate_coordinates_reply(c, xw_translate_coordinates(c, win, scr->root, (int16_t)x, (int16_t)y), &e);
    if (ex_report(c, prog, "TranslateCoordinates", e) || !t)
        return -1;
    xw_void_cookie_t ck =
        xw_test_fake_input_checked(c, XW_MOTION_NOTIFY, 0, XW_CURRENT_TIME, scr->root, t->dst_x, t->dst_y, 0);
    free(t);
    return check(ck, "FakeInput motion");
}

static int fake_press(uint8_t press, uint8_t release, uint8_t detail)
{
    if (check(xw_test_fake_input_checked(c, press, detail, XW_CURRENT_TIME, XW_NONE, 0, 0, 0), "FakeInput press"))
        return -1;
    return check(xw_test_fake_input_checked(c, release, detail, XW_CURRENT_TIME, XW_NONE, 0, 0, 0),
                 "FakeInput release");
}

static xw_keysym_t keysym_of(const char *name)
{
    static const struct {
        const char *name;
        xw_keysym_t ks;
    } named[] = {{"Return", 0xff0d}, {"Escape", 0xff1b}, {"space", 0x20}, {"F1", 0xffbe}, {"Shift_L", 0xffe1}};
    if (strlen(name) == 1)
        return (xw_keysym_t)(unsigned char)name[0];
    for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
        if (!strcmp(named[i].name, name))
            return named[i].ks;
    return 0;
}

static int keys(xw_window_t win, int n, char **names)
{
    struct ex_keymap km;
    if (ex_keymap_load(c, &km, prog) < 0)
        return -1;
    /* With no window manager the focus is PointerRoot: keys go where the pointer is. */
    int r = fake_motion(win, 5, 5);
    for (int i = 0; i < n && r == 0; i++) {
        xw_keycode_t kc = ex_keycode(&km, keysym_of(names[i]));
        if (!kc) {
            fprintf(stderr, "%s: no keycode for \"%s\"\n", prog, names[i]);
            r = -1;
        } else {
            r = fake_press(XW_KEY_PRESS, XW_KEY_RELEASE, kc);
        }
    }
    ex_keymap_free(&km);
    return r;
}

static int close_window(xw_window_t win)
{
    xw_client_message_event_t cm = {
        .response_type = XW_CLIENT_MESSAGE,
        .format = 32,
        .window = win,
        .type = ex_atom(c, prog, "WM_PROTOCOLS"),
        .data.data32 = {ex_atom(c, prog, "WM_DELETE_WINDOW"), XW_CURRENT_TIME},
    };
    /* Event mask 0: the event goes to the window's creator, as a window manager's does. */
    return check(xw_send_event_checked(c, 0, win, 0, (const char *)&cm), "SendEvent");
}

static int run(int argc, char **argv)
{
    const char *cmd = argv[1];
    xw_window_t win = (xw_window_t)strtoul(argv[2], NULL, 0);
    if (!strcmp(cmd, "motion") && argc == 5)
        return fake_motion(win, atoi(argv[3]), atoi(argv[4]));
    if (!strcmp(cmd, "click") && argc == 6) {
        if (fake_motion(win, atoi(argv[4]), atoi(argv[5])))
            return -1;
        return fake_press(XW_BUTTON_PRESS, XW_BUTTON_RELEASE, (uint8_t)atoi(argv[3]));
    }
    if (!strcmp(cmd, "key") && argc >= 4)
        return keys(win, argc - 3, argv + 3);
    if (!strcmp(cmd, "resize") && argc == 5) {
        uint32_t v[] = {(uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4])};
        return check(xw_configure_window_checked(c, win, XW_CONFIG_WINDOW_WIDTH | XW_CONFIG_WINDOW_HEIGHT, v),
                     "ConfigureWindow");
    }
    if (!strcmp(cmd, "prop") && argc == 5) {
        xw_atom_t a = ex_atom(c, prog, argv[3]);
        return check(xw_change_property_checked(c, XW_PROP_MODE_REPLACE, win, a, XW_ATOM_STRING, 8,
                                                (uint32_t)strlen(argv[4]), argv[4]),
                     "ChangeProperty");
    }
    if (!strcmp(cmd, "close") && argc == 3)
        return close_window(win);
    fprintf(stderr, "%s: bad command line (see the comment at the top of xwpoke.c)\n", prog);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s motion|click|key|resize|prop|close WINDOW ...\n", prog);
        return 1;
    }
    int screen = 0;
    c = ex_connect(prog, NULL, &screen);
    scr = ex_screen(c, screen);
    const xw_query_extension_reply_t *q = xw_get_extension_data(c, &xw_test_id);
    int r = -1;
    if (!q || !q->present)
        fprintf(stderr, "%s: the server has no XTEST\n", prog);
    else
        r = run(argc, argv);
    xw_disconnect(c);
    return r == 0 ? 0 : 1;
}
