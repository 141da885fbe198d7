/* SPDX-License-Identifier: MIT */
/* xwdraw.c — a window drawn with core requests: a filled rectangle, an outlined
 * one, lines, arcs and text. It repaints on Expose, redraws for its new size on
 * resize, shows the last key pressed, and exits cleanly on "q" or when the window
 * manager asks it to close (WM_DELETE_WINDOW).
 * Usage: xwdraw [-display NAME] [-fn FONT]
 * Prints one line per thing it does ("drawn 400x300", "key a", "quit: q"), so a
 * script can follow it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exutil.h"

static const char *prog = "xwdraw";

enum { RED, GREEN, BLUE, MAGENTA, BLACK, NCOLORS };

struct app {
    xw_connection_t *c;
    const xw_screen_t *scr;
    xw_window_t win;
    xw_gcontext_t gc;
    xw_font_t font;
    uint32_t pixel[NCOLORS];
    uint16_t width, height;
    char last_key[32];
    struct ex_keymap keys;
    xw_atom_t wm_protocols, wm_delete_window;
};

/* Colours through AllocColor on the default colormap, so the example works on any
 * visual, not only 24-bit TrueColor. The requests are all sent before the first
 * reply is read: one round trip for the five. */
static int alloc_colors(struct app *a)
{
    static const uint16_t rgb[NCOLORS][3] = {
        {0xffff, 0, 0}, {0, 0xffff, 0}, {0, 0, 0xffff}, {0xffff, 0, 0xffff}, {0, 0, 0},
    };
    xw_alloc_color_cookie_t ck[NCOLORS];
    for (int i = 0; i < NCOLORS; i++)
        ck[i] = xw_alloc_color(a->c, a->scr->default_colormap, rgb[i][0], rgb[i][1], rgb[i][2]);
    int failed = 0;
    for (int i = 0; i < NCOLORS; i++) {
        xw_generic_error_t *e = NULL;
        xw_alloc_color_reply_t *r = xw_alloc_color_reply(a->c, ck[i], &e);
        failed |= ex_report(a->c, prog, "AllocColor", e) || !r;
        a->pixel[i] = r ? r->pixel : a->scr->black_pixel;
        free(r);
    }
    return failed ? -1 : 0;
}

/* The font is opened checked: a bad -fn is reported here, with its name, rather
 * than as an error event later. */
static int open_font(struct app *a, const char *name)
{
    a->font = xw_generate_id(a->c);
    xw_void_cookie_t ck = xw_open_font_checked(a->c, a->font, (uint16_t)strlen(name), name);
    char what[128];
    snprintf(what, sizeof(what), "font \"%s\"", name);
    return ex_report(a->c, prog, what, xw_request_check(a->c, ck)) ? -1 : 0;
}

static void create_window(struct app *a)
{
    a->win = xw_generate_id(a->c);
    uint32_t values[] = {
        a->scr->white_pixel,
        XW_EVENT_MASK_EXPOSURE | XW_EVENT_MASK_KEY_PRESS | XW_EVENT_MASK_STRUCTURE_NOTIFY,
    };
    xw_create_window(a->c, XW_COPY_FROM_PARENT, a->win, a->scr->root, 0, 0, a->width, a->height, 0,
                     XW_WINDOW_CLASS_INPUT_OUTPUT, a->scr->root_visual, XW_CW_BACK_PIXEL | XW_CW_EVENT_MASK, values);
    xw_change_property(a->c, XW_PROP_MODE_REPLACE, a->win, XW_ATOM_WM_NAME, XW_ATOM_STRING, 8, (uint32_t)strlen(prog),
                       prog);
    /* Without WM_DELETE_WINDOW in WM_PROTOCOLS, a window manager would kill the
     * connection instead of asking. */
    xw_change_property(a->c, XW_PROP_MODE_REPLACE, a->win, a->wm_protocols, XW_ATOM_ATOM, 32, 1, &a->wm_delete_window);
    uint32_t gcv[] = {a->pixel[BLACK], a->scr->white_pixel, a->font, 0};
    a->gc = xw_generate_id(a->c);
    xw_create_gc(a->c, a->gc, a->win, XW_GC_FOREGROUND | XW_GC_BACKGROUND | XW_GC_FONT | XW_GC_GRAPHICS_EXPOSURES, gcv);
    xw_map_window(a->c, a->win);
}

static void set_color(struct app *a, int color, uint32_t line_width)
{
    uint32_t v[] = {a->pixel[color], line_width};
    xw_change_gc(a->c, a->gc, XW_GC_FOREGROUND | XW_GC_LINE_WIDTH, v);
}

/* The whole picture; the layout is fixed in the top-left corner and the frame and
 * the long line follow the window's size:
 *   red filled 120x80 at (20,20); blue 3-pixel outline 120x80 at (160,20);
 *   green 5-pixel line along y=130; magenta filled circle at (20,160) d=80 and a
 *   black arc around it; the text at (120,200); a black frame on the border. */
static void paint(struct app *a)
{
    int16_t w = (int16_t)a->width, h = (int16_t)a->height;
    set_color(a, RED, 0);
    xw_poly_fill_rectangle(a->c, a->win, a->gc, 1, &(xw_rectangle_t){20, 20, 120, 80});
    set_color(a, BLUE, 3);
    xw_poly_rectangle(a->c, a->win, a->gc, 1, &(xw_rectangle_t){160, 20, 120, 80});
    set_color(a, GREEN, 5);
    xw_poly_segment(a->c, a->win, a->gc, 1, &(xw_segment_t){20, 130, (int16_t)(w - 20), 130});
    set_color(a, MAGENTA, 0);
    /* Angles are in 1/64 degree: 360 * 64 is a full circle. */
    xw_poly_fill_arc(a->c, a->win, a->gc, 1, &(xw_arc_t){20, 160, 80, 80, 0, 360 * 64});
    set_color(a, BLACK, 2);
    xw_poly_arc(a->c, a->win, a->gc, 1, &(xw_arc_t){14, 154, 92, 92, 0, 270 * 64});
    set_color(a, BLACK, 1);
    xw_poly_rectangle(a->c, a->win, a->gc, 1, &(xw_rectangle_t){0, 0, (uint16_t)(w - 1), (uint16_t)(h - 1)});
    char text[96];
    int n = snprintf(text, sizeof(text), "xwire %ux%u, last key: %s", a->width, a->height,
                     a->last_key[0] ? a->last_key : "none");
    xw_image_text_8(a->c, (uint8_t)n, a->win, a->gc, 120, 200, text);

    /* A round trip, so that everything above has been executed by the server when
     * the line below is printed: a screenshot taken after it sees the picture. */
    xw_generic_error_t *e = NULL;
    free(xw_get_input_focus_reply(a->c, xw_get_input_focus(a->c), &e));
    if (!ex_report(a->c, prog, "GetInputFocus", e))
        printf("drawn %ux%u\n", a->width, a->height);
    fflush(stdout);
}

/* Everything must be painted again: ClearArea with exposures=1 makes the server
 * send the Expose that paints it, so there is one painting path. */
static void repaint(struct app *a)
{
    xw_clear_area(a->c, 1, a->win, 0, 0, 0, 0);
    xw_flush(a->c);
}

/* Returns 1 when the program should stop. */
static int handle(struct app *a, xw_generic_event_t *ev)
{
    char buf[16];
    switch (ev->response_type & 0x7f) { /* the top bit marks SendEvent */
    case 0:
        ex_report(a->c, prog, "error", (xw_generic_error_t *)ev);
        return 0; /* ex_report freed it */
    case XW_EXPOSE:
        if (((xw_expose_event_t *)ev)->count == 0) /* the last of a series */
            paint(a);
        break;
    case XW_CONFIGURE_NOTIFY: {
        xw_configure_notify_event_t *cn = (xw_configure_notify_event_t *)ev;
        if (cn->width != a->width || cn->height != a->height) {
            a->width = cn->width;
            a->height = cn->height;
            printf("resize %ux%u\n", a->width, a->height);
            repaint(a);
        }
        break;
    }
    case XW_KEY_PRESS: {
        xw_key_press_event_t *k = (xw_key_press_event_t *)ev;
        xw_keysym_t ks = ex_keysym(&a->keys, k->detail, k->state);
        snprintf(a->last_key, sizeof(a->last_key), "%s", ex_keysym_name(ks, buf, sizeof(buf)));
        printf("key %s\n", a->last_key);
        if (ks == 'q' || ks == 'Q') {
            printf("quit: q\n");
            free(ev);
            return 1;
        }
        repaint(a);
        break;
    }
    case XW_CLIENT_MESSAGE: {
        xw_client_message_event_t *cm = (xw_client_message_event_t *)ev;
        if (cm->type == a->wm_protocols && cm->format == 32 && cm->data.data32[0] == a->wm_delete_window) {
            printf("quit: WM_DELETE_WINDOW\n");
            free(ev);
            return 1;
        }
        break;
    }
    }
    fflush(stdout);
    free(ev);
    return 0;
}

int main(int argc, char **argv)
{
    const char *font = "fixed";
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "-fn"))
            font = argv[i + 1];
    int screen = 0;
    struct app a = {.width = 400, .height = 300};
    a.c = ex_connect(prog, ex_display_arg(argc, argv), &screen);
    a.scr = ex_screen(a.c, screen);
    int status = 1;
    if (ex_keymap_load(a.c, &a.keys, prog) < 0 || open_font(&a, font) < 0 || alloc_colors(&a) < 0)
        goto out;
    a.wm_protocols = ex_atom(a.c, prog, "WM_PROTOCOLS");
    a.wm_delete_window = ex_atom(a.c, prog, "WM_DELETE_WINDOW");
    create_window(&a);
    xw_flush(a.c);
    printf("window 0x%x\n", a.win);
    fflush(stdout);

    xw_generic_event_t *ev;
    while ((ev = xw_wait_for_event(a.c)))
        if (handle(&a, ev)) {
            status = 0;
            break;
        }
    if (xw_connection_has_error(a.c))
        fprintf(stderr, "%s: connection lost: %s\n", prog, xw_connection_error_string(a.c));
    else { /* the server frees these at disconnect too; a long-lived client would not wait */
        xw_free_gc(a.c, a.gc);
        xw_destroy_window(a.c, a.win);
        xw_close_font(a.c, a.font);
        xw_flush(a.c);
    }
out:
    ex_keymap_free(&a.keys);
    xw_disconnect(a.c);
    return status;
}
