/* SPDX-License-Identifier: MIT */
/* cs_xw.c — xwire's own API: a bad MapWindow several requests before a wait, then the error as xw_error_text gives it
 * (call-site demo). */
#include <stdio.h>
#include <stdlib.h>

#include <xw/xproto.h>

/* The bad request: the line marked below is the one xw_error_text must name. */
static __attribute__((noinline)) xw_void_cookie_t map_missing(xw_connection_t *c, xw_window_t w)
{
    xw_void_cookie_t k = xw_map_window(c, w); /* BAD CALL */
    printf("map_missing: request %u\n", k.sequence);
    return k;
}

int main(void)
{
    xw_connection_t *c = xw_connect(NULL, NULL);
    if (xw_connection_has_error(c)) {
        fprintf(stderr, "cs_xw: cannot connect\n");
        return 1;
    }
    xw_screen_t *s = xw_setup_roots_iterator(xw_get_setup(c)).data;
    xw_window_t w = xw_generate_id(c), missing = xw_generate_id(c);
    xw_create_window(c, XW_COPY_FROM_PARENT, w, s->root, 0, 0, 64, 64, 0, XW_WINDOW_CLASS_INPUT_OUTPUT, s->root_visual,
                     0, NULL);
    map_missing(c, missing);
    xw_map_window(c, w);
    xw_clear_area(c, 0, w, 0, 0, 0, 0);
    free(xw_get_input_focus_reply(c, xw_get_input_focus(c), NULL));
    xw_generic_event_t *e;
    int errors = 0;
    while ((e = xw_poll_for_event(c))) {
        if (e->response_type == 0) {
            char text[512];
            xw_error_text(c, (xw_generic_error_t *)e, text, sizeof(text));
            printf("cs_xw: %s\n", text);
            errors++;
        }
        free(e);
    }
    xw_disconnect(c);
    return errors == 1 ? 0 : 1;
}
