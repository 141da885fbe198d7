/* SPDX-License-Identifier: MIT */
/* rn_window.c — rename-test client: a window with drawing and an event loop, written against libxcb. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>

/* Output must be identical for the libxcb and the xwire build on a fresh server,
 * so client resource ids are printed relative to resource_id_base and nothing
 * time-dependent (timestamps, pointers) is printed. */
static xcb_connection_t *c;
static uint32_t base;

enum { A_DONE, A_PING, A_TITLE, A_COUNT };
static const char *const atom_names[A_COUNT] = {"RN_DONE", "RN_PING", "RN_TITLE"};
static xcb_atom_t atoms[A_COUNT];

static const char *atom_label(xcb_atom_t a)
{
    static char buf[32];
    for (int i = 0; i < A_COUNT; i++)
        if (atoms[i] == a)
            return atom_names[i];
    if (a == XCB_ATOM_WM_NAME)
        return "WM_NAME";
    snprintf(buf, sizeof(buf), "atom#%u", (unsigned)a);
    return buf;
}

static void die(const char *what)
{
    printf("FATAL: %s (connection error %d)\n", what, xcb_connection_has_error(c));
    exit(1);
}

/* All requests first, then all replies: exercises several replies in flight. */
static void intern_atoms(void)
{
    xcb_intern_atom_cookie_t ck[A_COUNT];
    for (int i = 0; i < A_COUNT; i++)
        ck[i] = xcb_intern_atom(c, 0, (uint16_t)strlen(atom_names[i]), atom_names[i]);
    for (int i = 0; i < A_COUNT; i++) {
        xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, ck[i], NULL);
        if (!r)
            die("InternAtom");
        atoms[i] = r->atom;
        free(r);
    }
}

/* FNV-1a: a stable checksum of pixel data. */
static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void draw(xcb_window_t win, xcb_gcontext_t gc, int pass)
{
    const xcb_rectangle_t rects[] = {{5, 5, 40, 30}, {60, 10, 25, 25}, {100, 40, 60, 20}};
    const xcb_point_t line[] = {{0, 0}, {50, 60}, {120, 20}, {199, 149}};
    const xcb_segment_t segs[] = {{10, 140, 190, 140}, {10, 100, 10, 140}};
    const xcb_arc_t arcs[] = {{20, 60, 50, 40, 0, 360 * 64}, {120, 70, 40, 40, 45 * 64, 180 * 64}};
    char text[32];
    int len = snprintf(text, sizeof(text), "xwire rename %d", pass);
    xcb_poly_fill_rectangle(c, win, gc, 3, rects);
    xcb_poly_line(c, XCB_COORD_MODE_ORIGIN, win, gc, 4, line);
    xcb_poly_segment(c, win, gc, 2, segs);
    xcb_poly_arc(c, win, gc, 2, arcs);
    xcb_image_text_8(c, (uint8_t)len, win, gc, 30, 125, text);
}

static void send_message(xcb_window_t win, xcb_atom_t type, uint32_t value)
{
    xcb_client_message_event_t ev;
    memset(&ev, 0, sizeof(ev));
    ev.response_type = XCB_CLIENT_MESSAGE;
    ev.format = 32;
    ev.window = win;
    ev.type = type;
    ev.data.data32[0] = value;
    ev.data.data32[1] = win - base;
    ev.data.data32[4] = 0xdeadbeef;
    /* An empty event mask sends the event to the window's creator, i.e. us. */
    xcb_send_event(c, 0, win, XCB_EVENT_MASK_NO_EVENT, (const char *)&ev);
}

/* Prints one event; returns 1 when it is the ClientMessage that ends the loop. */
static int print_event(const xcb_generic_event_t *e)
{
    uint8_t type = e->response_type & 0x7f;
    const char *sent = (e->response_type & 0x80) ? " (sent)" : "";
    switch (type) {
    case 0: {
        const xcb_generic_error_t *err = (const xcb_generic_error_t *)e;
        printf("error code=%u major=%u minor=%u\n", err->error_code, err->major_code, err->minor_code);
        return 0;
    }
    case XCB_EXPOSE: {
        const xcb_expose_event_t *x = (const xcb_expose_event_t *)e;
        printf("Expose%s win=+%u x=%u y=%u w=%u h=%u count=%u\n", sent, x->window - base, x->x, x->y, x->width,
               x->height, x->count);
        return 0;
    }
    case XCB_MAP_NOTIFY: {
        const xcb_map_notify_event_t *m = (const xcb_map_notify_event_t *)e;
        printf("MapNotify%s event=+%u win=+%u override=%u\n", sent, m->event - base, m->window - base,
               m->override_redirect);
        return 0;
    }
    case XCB_CONFIGURE_NOTIFY: {
        const xcb_configure_notify_event_t *n = (const xcb_configure_notify_event_t *)e;
        printf("ConfigureNotify%s win=+%u %dx%d+%d+%d border=%u\n", sent, n->window - base, n->width, n->height, n->x,
               n->y, n->border_width);
        return 0;
    }
    case XCB_PROPERTY_NOTIFY: {
        const xcb_property_notify_event_t *p = (const xcb_property_notify_event_t *)e;
        printf("PropertyNotify%s win=+%u atom=%s state=%u\n", sent, p->window - base, atom_label(p->atom), p->state);
        return 0;
    }
    case XCB_CLIENT_MESSAGE: {
        const xcb_client_message_event_t *m = (const xcb_client_message_event_t *)e;
        printf("ClientMessage%s win=+%u type=%s format=%u data=%u,%u,%u,%u,0x%x\n", sent, m->window - base,
               atom_label(m->type), m->format, m->data.data32[0], m->data.data32[1], m->data.data32[2],
               m->data.data32[3], m->data.data32[4]);
        return m->type == atoms[A_DONE];
    }
    default:
        printf("event type=%u%s\n", type, sent);
        return 0;
    }
}

/* On the first complete Expose: draw, resize, set a property and post two
 * ClientMessages; the events these cause arrive in request order. */
static void run_loop(xcb_window_t win, xcb_gcontext_t gc)
{
    int exposures = 0;
    for (;;) {
        xcb_generic_event_t *e = xcb_wait_for_event(c);
        if (!e)
            die("wait_for_event");
        int done = print_event(e);
        if ((e->response_type & 0x7f) == XCB_EXPOSE && ((xcb_expose_event_t *)e)->count == 0) {
            draw(win, gc, exposures);
            if (exposures++ == 0) {
                const uint32_t size[] = {220, 160};
                xcb_configure_window(c, win, XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT, size);
                xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, atoms[A_TITLE], XCB_ATOM_STRING, 8, 5, "title");
                send_message(win, atoms[A_PING], 1);
                send_message(win, atoms[A_DONE], 2);
            }
            xcb_flush(c);
        }
        free(e);
        if (done)
            break;
    }
    printf("exposures handled: %d\n", exposures);
}

static xcb_window_t make_window(const xcb_screen_t *s)
{
    xcb_window_t win = xcb_generate_id(c);
    const uint32_t values[] = {s->white_pixel, XCB_EVENT_MASK_EXPOSURE | XCB_EVENT_MASK_STRUCTURE_NOTIFY |
                                                   XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_void_cookie_t ck = xcb_create_window_checked(c, XCB_COPY_FROM_PARENT, win, s->root, 10, 10, 200, 150, 1,
                                                     XCB_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual,
                                                     XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
    xcb_generic_error_t *err = xcb_request_check(c, ck);
    if (err) {
        printf("CreateWindow error %u\n", err->error_code);
        exit(1);
    }
    printf("window +%u created\n", win - base);
    return win;
}

static xcb_gcontext_t make_gc(const xcb_screen_t *s, xcb_window_t win)
{
    xcb_font_t font = xcb_generate_id(c);
    xcb_void_cookie_t fck = xcb_open_font_checked(c, font, 5, "fixed");
    xcb_generic_error_t *err = xcb_request_check(c, fck);
    printf("OpenFont fixed: %s\n", err ? "error" : "ok");
    free(err);
    xcb_gcontext_t gc = xcb_generate_id(c);
    const uint32_t values[] = {s->black_pixel, s->white_pixel, 2, font, 0};
    xcb_create_gc(c, gc, win,
                  XCB_GC_FOREGROUND | XCB_GC_BACKGROUND | XCB_GC_LINE_WIDTH | XCB_GC_FONT | XCB_GC_GRAPHICS_EXPOSURES,
                  values);
    xcb_close_font(c, font); /* the GC keeps its own reference */
    printf("gc +%u font +%u\n", gc - base, font - base);
    return gc;
}

static void print_state(xcb_window_t win)
{
    xcb_get_geometry_cookie_t gck = xcb_get_geometry(c, win);
    xcb_get_window_attributes_cookie_t ack = xcb_get_window_attributes(c, win);
    xcb_query_tree_cookie_t tck = xcb_query_tree(c, win);
    xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(c, gck, NULL);
    xcb_get_window_attributes_reply_t *a = xcb_get_window_attributes_reply(c, ack, NULL);
    xcb_query_tree_reply_t *t = xcb_query_tree_reply(c, tck, NULL);
    if (!g || !a || !t)
        die("geometry/attributes/tree");
    printf("geometry %ux%u+%d+%d border=%u depth=%u\n", g->width, g->height, g->x, g->y, g->border_width, g->depth);
    printf("attributes map_state=%u class=%u your_mask=0x%x all_masks=0x%x\n", a->map_state, a->_class,
           a->your_event_mask, a->all_event_masks);
    printf("tree parent_is_root=%d children=%d\n", t->parent == g->root, xcb_query_tree_children_length(t));
    free(g);
    free(a);
    free(t);
}

static void print_image(xcb_window_t win)
{
    xcb_get_image_cookie_t ck = xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, win, 0, 0, 64, 48, ~0u);
    xcb_generic_error_t *err = NULL;
    xcb_get_image_reply_t *r = xcb_get_image_reply(c, ck, &err);
    if (!r) {
        printf("GetImage error %u\n", err ? err->error_code : 0);
        free(err);
        return;
    }
    int n = xcb_get_image_data_length(r);
    printf("image depth=%u bytes=%d fnv=0x%08x\n", r->depth, n, fnv1a(xcb_get_image_data(r), (size_t)n));
    free(r);
}

int main(void)
{
    /* Line-buffered, so a run killed on timeout still shows how far it got. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    int screen_num = 0;
    c = xcb_connect(NULL, &screen_num);
    if (xcb_connection_has_error(c))
        die("connect");
    const xcb_setup_t *setup = xcb_get_setup(c);
    base = setup->resource_id_base;
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(setup);
    for (int i = 0; i < screen_num; i++)
        xcb_screen_next(&it);
    const xcb_screen_t *s = it.data;
    printf("screen %d: %ux%u depth %u\n", screen_num, s->width_in_pixels, s->height_in_pixels, s->root_depth);

    intern_atoms();
    xcb_window_t win = make_window(s);
    xcb_gcontext_t gc = make_gc(s, win);
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, win, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, 11, "rename test");
    xcb_map_window(c, win);
    xcb_flush(c);
    run_loop(win, gc);
    print_state(win);
    print_image(win);

    /* Everything the server generated came before the DONE message. */
    xcb_generic_event_t *e = xcb_poll_for_event(c);
    printf("left-over event: %s\n", e ? "yes" : "no");
    free(e);
    xcb_free_gc(c, gc);
    /* Flushing before a check is common; the check must still learn the outcome
     * (a sync request has to follow the already-sent request). */
    xcb_void_cookie_t ck = xcb_destroy_window_checked(c, win);
    xcb_flush(c);
    xcb_generic_error_t *err = xcb_request_check(c, ck);
    printf("DestroyWindow after flush: %s\n", err ? "error" : "ok");
    free(err);
    xcb_get_input_focus_reply_t *f = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    printf("final round trip: %s\n", f ? "ok" : "failed");
    free(f);
    int cerr = xcb_connection_has_error(c);
    xcb_disconnect(c);
    return cerr ? 1 : 0;
}
