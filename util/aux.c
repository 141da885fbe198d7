/* aux.c — xcb-util's aux helpers: setup lookups and a sync, on xwire's public API. */
#include <xw/xw_aux.h>
#include <xw/xwext.h>

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
    struct attrs a = { class_, depth };
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
