/* SPDX-License-Identifier: MIT */
/* aux.c — xcb-util's aux helpers: setup lookups, a sync, value-list senders and colour parsing, on xwire's public
 * API. */
#include <xw/xw_aux.h>
#include <xw/xwext.h>

#include <string.h>

XW_EXPORT xw_screen_t *xw_aux_get_screen(xw_connection_t *c, int screen)
{
    const xw_setup_t *setup = xw_get_setup(c);
    if (!setup || screen < 0)
        return NULL;
    for (xw_screen_iterator_t i = xw_setup_roots_iterator(setup); i.rem; xw_screen_next(&i))
        if (screen-- == 0)
            return i.data;
    return NULL;
}

/* Calls `match` on each visual of each depth of `screen` until it returns non-zero;
 * gives back the visual and stores its depth. */
static xw_visualtype_t *find_visual(xw_screen_t *screen, int (*match)(const xw_visualtype_t *, uint8_t, const void *),
                                    const void *arg, uint8_t *depth_out)
{
    if (!screen)
        return NULL;
    for (xw_depth_iterator_t d = xw_screen_allowed_depths_iterator(screen); d.rem; xw_depth_next(&d))
        for (xw_visualtype_iterator_t v = xw_depth_visuals_iterator(d.data); v.rem; xw_visualtype_next(&v))
            if (match(v.data, d.data->depth, arg)) {
                if (depth_out)
                    *depth_out = d.data->depth;
                return v.data;
            }
    return NULL;
}

static int match_id(const xw_visualtype_t *v, uint8_t depth, const void *arg)
{
    (void)depth;
    return v->visual_id == *(const xw_visualid_t *)arg;
}

struct attrs {
    int8_t class_, depth;
};

static int match_attrs(const xw_visualtype_t *v, uint8_t depth, const void *arg)
{
    const struct attrs *a = arg;
    return (a->class_ < 0 || v->_class == (uint8_t)a->class_) && (a->depth < 0 || depth == (uint8_t)a->depth);
}

XW_EXPORT uint8_t xw_aux_get_depth_of_visual(xw_screen_t *screen, xw_visualid_t id)
{
    uint8_t depth = 0;
    find_visual(screen, match_id, &id, &depth);
    return depth;
}

XW_EXPORT uint8_t xw_aux_get_depth(xw_connection_t *c, xw_screen_t *screen)
{
    (void)c;
    return screen ? xw_aux_get_depth_of_visual(screen, screen->root_visual) : 0;
}

XW_EXPORT xw_visualtype_t *xw_aux_find_visual_by_id(xw_screen_t *screen, xw_visualid_t id)
{
    return find_visual(screen, match_id, &id, NULL);
}

XW_EXPORT xw_visualtype_t *xw_aux_find_visual_by_attrs(xw_screen_t *screen, int8_t class_, int8_t depth)
{
    struct attrs a = {class_, depth};
    return find_visual(screen, match_attrs, &a, NULL);
}

XW_EXPORT xw_visualtype_t *xw_aux_get_visualtype(xw_connection_t *c, int screen, xw_visualid_t vid)
{
    return xw_aux_find_visual_by_id(xw_aux_get_screen(c, screen), vid);
}

XW_EXPORT void xw_aux_sync(xw_connection_t *c)
{
    /* The reply (32 wire bytes: more than sizeof(xw_get_input_focus_reply_t)) lands in
     * stack storage, so nothing is allocated and nothing stays queued; a borrowed
     * connection's replies come through libxcb, which allocates as it always does. */
    uint8_t reply[32];
    xw_generic_error_t error;
    size_t len;
    xw_wait_for_reply_into(c, xw_get_input_focus(c).sequence, reply, sizeof(reply), &len, &error, -1);
}

/* ---- value-list senders ----
 * Each xw_params_*_t holds one uint32_t per value, in the order of the mask bits, so
 * the value list of a request is the struct's words whose bits are set, packed. The
 * list lives on the stack: no allocation. Bits past the struct's last field name no
 * value the caller could have given; they are dropped from the mask (xcb-util reads
 * past the struct for them). */
#define XW_AUX_MAX_VALUES 32

static uint32_t pack(uint32_t mask, const void *params, unsigned nfields, uint32_t *out)
{
    const uint32_t *in = params;
    unsigned n = 0;
    if (nfields < 32)
        mask &= (1u << nfields) - 1;
    for (unsigned i = 0; i < nfields; i++)
        if (mask & (1u << i))
            out[n++] = in ? in[i] : 0;
    return mask;
}

#define FIELDS(type) ((unsigned)(sizeof(type) / sizeof(uint32_t)))

XW_EXPORT xw_void_cookie_t xw_aux_create_window(xw_connection_t *c, uint8_t depth, xw_window_t wid, xw_window_t parent,
                                                int16_t x, int16_t y, uint16_t width, uint16_t height,
                                                uint16_t border_width, uint16_t class_, xw_visualid_t visual,
                                                uint32_t mask, const xw_params_cw_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_cw_t), v);
    return xw_create_window(c, depth, wid, parent, x, y, width, height, border_width, class_, visual, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_create_window_checked(xw_connection_t *c, uint8_t depth, xw_window_t wid,
                                                        xw_window_t parent, int16_t x, int16_t y, uint16_t width,
                                                        uint16_t height, uint16_t border_width, uint16_t class_,
                                                        xw_visualid_t visual, uint32_t mask,
                                                        const xw_params_cw_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_cw_t), v);
    return xw_create_window_checked(c, depth, wid, parent, x, y, width, height, border_width, class_, visual, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_change_window_attributes(xw_connection_t *c, xw_window_t window, uint32_t mask,
                                                           const xw_params_cw_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_cw_t), v);
    return xw_change_window_attributes(c, window, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_change_window_attributes_checked(xw_connection_t *c, xw_window_t window,
                                                                   uint32_t mask, const xw_params_cw_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_cw_t), v);
    return xw_change_window_attributes_checked(c, window, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_configure_window(xw_connection_t *c, xw_window_t window, uint16_t mask,
                                                   const xw_params_configure_window_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = (uint16_t)pack(mask, params, FIELDS(xw_params_configure_window_t), v);
    return xw_configure_window(c, window, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_create_gc(xw_connection_t *c, xw_gcontext_t cid, xw_drawable_t drawable,
                                            uint32_t mask, const xw_params_gc_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_gc_t), v);
    return xw_create_gc(c, cid, drawable, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_create_gc_checked(xw_connection_t *c, xw_gcontext_t gid, xw_drawable_t drawable,
                                                    uint32_t mask, const xw_params_gc_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_gc_t), v);
    return xw_create_gc_checked(c, gid, drawable, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_change_gc(xw_connection_t *c, xw_gcontext_t gc, uint32_t mask,
                                            const xw_params_gc_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_gc_t), v);
    return xw_change_gc(c, gc, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_change_gc_checked(xw_connection_t *c, xw_gcontext_t gc, uint32_t mask,
                                                    const xw_params_gc_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_gc_t), v);
    return xw_change_gc_checked(c, gc, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_change_keyboard_control(xw_connection_t *c, uint32_t mask,
                                                          const xw_params_keyboard_t *params)
{
    uint32_t v[XW_AUX_MAX_VALUES];
    mask = pack(mask, params, FIELDS(xw_params_keyboard_t), v);
    return xw_change_keyboard_control(c, mask, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_set_line_attributes_checked(xw_connection_t *c, xw_gcontext_t gc, uint16_t linewidth,
                                                              int32_t linestyle, int32_t capstyle, int32_t joinstyle)
{
    uint32_t v[] = {linewidth, (uint32_t)linestyle, (uint32_t)capstyle, (uint32_t)joinstyle};
    return xw_change_gc_checked(c, gc, XW_GC_LINE_WIDTH | XW_GC_LINE_STYLE | XW_GC_CAP_STYLE | XW_GC_JOIN_STYLE, v);
}

XW_EXPORT xw_void_cookie_t xw_aux_clear_window(xw_connection_t *c, xw_window_t w)
{
    /* A zero width and height clear to the window's edges (protocol, ClearArea). */
    return xw_clear_area(c, 0, w, 0, 0, 0, 0);
}

/* ---- colours ---- */

static int hex_digit(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

XW_EXPORT int xw_aux_parse_color(const char *color_name, uint16_t *red, uint16_t *green, uint16_t *blue)
{
    /* The "#RGB" forms of the X colour syntax: 1 to 4 hex digits per channel, the
     * digits given being the channel's most significant ones (#f00 is red 0xf000). */
    if (!color_name || color_name[0] != '#')
        return 0;
    const char *p = color_name + 1;
    size_t n = strlen(p);
    if (n != 3 && n != 6 && n != 9 && n != 12)
        return 0;
    size_t per = n / 3;
    uint32_t rgb[3] = {0, 0, 0};
    for (size_t ch = 0; ch < 3; ch++)
        for (size_t i = 0; i < per; i++) {
            int d = hex_digit(*p++);
            if (d < 0)
                return 0;
            rgb[ch] = rgb[ch] << 4 | (uint32_t)d;
        }
    unsigned shift = (unsigned)(16 - 4 * per);
    *red = (uint16_t)(rgb[0] << shift);
    *green = (uint16_t)(rgb[1] << shift);
    *blue = (uint16_t)(rgb[2] << shift);
    return 1;
}
