/* SPDX-License-Identifier: MIT */
/* cs_xcb.c — an xcb program that maps a window that does not exist several requests before it waits (call-site
 * demo). */
#include <stdio.h>
#include <stdlib.h>

#include <xcb/xcb.h>

/* The bad request: the line marked below is the one XWIRE_ERRORS=callsite must name. */
static __attribute__((noinline)) xcb_void_cookie_t map_missing(xcb_connection_t *c, xcb_window_t w)
{
    xcb_void_cookie_t k = xcb_map_window(c, w); /* BAD CALL */
    printf("map_missing: request %u\n", k.sequence);
    return k;
}

int main(void)
{
    xcb_connection_t *c = xcb_connect(NULL, NULL);
    if (xcb_connection_has_error(c)) {
        fprintf(stderr, "cs_xcb: cannot connect\n");
        return 1;
    }
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    xcb_window_t w = xcb_generate_id(c), missing = xcb_generate_id(c);
    xcb_create_window(c, XCB_COPY_FROM_PARENT, w, s->root, 0, 0, 64, 64, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      s->root_visual, 0, NULL);
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, w, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, 7, "cs_xcb!");
    map_missing(c, missing);
    /* several more requests before anything waits */
    uint32_t xy[] = {10, 20};
    xcb_configure_window(c, w, XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y, xy);
    xcb_map_window(c, w);
    xcb_clear_area(c, 0, w, 0, 0, 0, 0);
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
    xcb_generic_event_t *e;
    int errors = 0;
    while ((e = xcb_poll_for_event(c))) {
        if (e->response_type == 0) {
            xcb_generic_error_t *err = (xcb_generic_error_t *)e;
            printf("cs_xcb: error %u for request %u\n", err->error_code, err->sequence);
            errors++;
        }
        free(e);
    }
    xcb_disconnect(c);
    return errors == 1 ? 0 : 1;
}
