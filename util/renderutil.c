/* SPDX-License-Identifier: MIT */
/* renderutil.c — xcb-util-renderutil's format lookups and its per-connection cache of
 * RENDER's version and picture formats, on xwire's public API. */
#include <pthread.h>
#include <stdlib.h>

#include <xw/xw_renderutil.h>
#include <xw/xwext.h>

XW_EXPORT xw_render_pictvisual_t *xw_render_util_find_visual_format(const xw_render_query_pict_formats_reply_t *formats,
                                                                    const xw_visualid_t visual)
{
    if (!formats)
        return NULL;
    for (xw_render_pictscreen_iterator_t s = xw_render_query_pict_formats_screens_iterator(formats); s.rem;
         xw_render_pictscreen_next(&s))
        for (xw_render_pictdepth_iterator_t d = xw_render_pictscreen_depths_iterator(s.data); d.rem;
             xw_render_pictdepth_next(&d))
            for (xw_render_pictvisual_iterator_t v = xw_render_pictdepth_visuals_iterator(d.data); v.rem;
                 xw_render_pictvisual_next(&v))
                if (v.data->visual == visual)
                    return v.data;
    return NULL;
}

/* Whether the fields of f that mask selects equal t's. */
static int format_matches(const xw_render_pictforminfo_t *f, unsigned long mask, const xw_render_pictforminfo_t *t)
{
    const xw_render_directformat_t *a = &f->direct, *b = &t->direct;
    return !((mask & XW_PICT_FORMAT_ID && f->id != t->id) || (mask & XW_PICT_FORMAT_TYPE && f->type != t->type) ||
             (mask & XW_PICT_FORMAT_DEPTH && f->depth != t->depth) ||
             (mask & XW_PICT_FORMAT_RED && a->red_shift != b->red_shift) ||
             (mask & XW_PICT_FORMAT_RED_MASK && a->red_mask != b->red_mask) ||
             (mask & XW_PICT_FORMAT_GREEN && a->green_shift != b->green_shift) ||
             (mask & XW_PICT_FORMAT_GREEN_MASK && a->green_mask != b->green_mask) ||
             (mask & XW_PICT_FORMAT_BLUE && a->blue_shift != b->blue_shift) ||
             (mask & XW_PICT_FORMAT_BLUE_MASK && a->blue_mask != b->blue_mask) ||
             (mask & XW_PICT_FORMAT_ALPHA && a->alpha_shift != b->alpha_shift) ||
             (mask & XW_PICT_FORMAT_ALPHA_MASK && a->alpha_mask != b->alpha_mask) ||
             (mask & XW_PICT_FORMAT_COLORMAP && f->colormap != t->colormap));
}

XW_EXPORT xw_render_pictforminfo_t *xw_render_util_find_format(const xw_render_query_pict_formats_reply_t *formats,
                                                               unsigned long mask,
                                                               const xw_render_pictforminfo_t *ptemplate, int count)
{
    if (!formats || !ptemplate)
        return NULL;
    for (xw_render_pictforminfo_iterator_t i = xw_render_query_pict_formats_formats_iterator(formats); i.rem;
         xw_render_pictforminfo_next(&i))
        if (format_matches(i.data, mask, ptemplate) && count-- == 0)
            return i.data;
    return NULL;
}

/* The standard formats of the Render specification: direct formats with 8-bit
 * channels at the usual shifts, and alpha-only formats of depth 8, 4 and 1. */
#define RGB_BITS                                                                                                       \
    (XW_PICT_FORMAT_RED | XW_PICT_FORMAT_RED_MASK | XW_PICT_FORMAT_GREEN | XW_PICT_FORMAT_GREEN_MASK |                 \
     XW_PICT_FORMAT_BLUE | XW_PICT_FORMAT_BLUE_MASK)
#define NO_RGB_BITS (XW_PICT_FORMAT_RED_MASK | XW_PICT_FORMAT_GREEN_MASK | XW_PICT_FORMAT_BLUE_MASK)
#define BASE_BITS (XW_PICT_FORMAT_TYPE | XW_PICT_FORMAT_DEPTH)

static const struct standard {
    unsigned long mask;
    uint8_t depth;
    uint16_t alpha_shift, alpha_mask, rgb_mask;
} standards[] = {
    [XW_PICT_STANDARD_ARGB_32] = {BASE_BITS | RGB_BITS | XW_PICT_FORMAT_ALPHA | XW_PICT_FORMAT_ALPHA_MASK, 32, 24, 0xff,
                                  0xff},
    [XW_PICT_STANDARD_RGB_24] = {BASE_BITS | RGB_BITS | XW_PICT_FORMAT_ALPHA_MASK, 24, 0, 0, 0xff},
    [XW_PICT_STANDARD_A_8] = {BASE_BITS | NO_RGB_BITS | XW_PICT_FORMAT_ALPHA | XW_PICT_FORMAT_ALPHA_MASK, 8, 0, 0xff,
                              0},
    [XW_PICT_STANDARD_A_4] = {BASE_BITS | NO_RGB_BITS | XW_PICT_FORMAT_ALPHA | XW_PICT_FORMAT_ALPHA_MASK, 4, 0, 0x0f,
                              0},
    [XW_PICT_STANDARD_A_1] = {BASE_BITS | NO_RGB_BITS | XW_PICT_FORMAT_ALPHA | XW_PICT_FORMAT_ALPHA_MASK, 1, 0, 0x01,
                              0},
};

XW_EXPORT xw_render_pictforminfo_t *xw_render_util_find_standard_format(
    const xw_render_query_pict_formats_reply_t *formats, xw_pict_standard_t format)
{
    if ((unsigned)format >= sizeof(standards) / sizeof(standards[0]))
        return NULL;
    const struct standard *s = &standards[format];
    xw_render_pictforminfo_t t = {.type = XW_RENDER_PICT_TYPE_DIRECT, .depth = s->depth};
    t.direct = (xw_render_directformat_t){.red_shift = 16,
                                          .red_mask = s->rgb_mask,
                                          .green_shift = 8,
                                          .green_mask = s->rgb_mask,
                                          .blue_shift = 0,
                                          .blue_mask = s->rgb_mask,
                                          .alpha_shift = s->alpha_shift,
                                          .alpha_mask = s->alpha_mask};
    return xw_render_util_find_format(formats, s->mask, &t, 0);
}

/* The cache: one entry per connection pointer, as xcb-util keys it, in a list guarded
 * by one lock. Entries own their two replies (malloc'd by xwire). */
struct render_cache {
    struct render_cache *next;
    xw_connection_t *c;
    xw_render_query_version_reply_t *version;
    xw_render_query_pict_formats_reply_t *formats;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct render_cache *cache_head;

static struct render_cache *cache_find(xw_connection_t *c)
{
    for (struct render_cache *e = cache_head; e; e = e->next)
        if (e->c == c)
            return e;
    return NULL;
}

/* Asks the server for both replies, outside the lock; NULL replies without RENDER. */
static struct render_cache *cache_fetch(xw_connection_t *c)
{
    struct render_cache *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->c = c;
    const xw_query_extension_reply_t *ext = xw_get_extension_data(c, &xw_render_id);
    if (!ext || !ext->present)
        return e;
    /* 0.10 is what xcb-util asks for (so the server answers the same version to both) */
    xw_render_query_version_cookie_t v = xw_render_query_version(c, 0, 10);
    xw_render_query_pict_formats_cookie_t f = xw_render_query_pict_formats(c);
    xw_generic_error_t *err = NULL;
    e->version = xw_render_query_version_reply(c, v, &err);
    free(err);
    err = NULL;
    e->formats = xw_render_query_pict_formats_reply(c, f, &err);
    free(err);
    return e;
}

static void cache_entry_free(struct render_cache *e)
{
    free(e->version);
    free(e->formats);
    free(e);
}

static struct render_cache *cache_get(xw_connection_t *c)
{
    pthread_mutex_lock(&cache_lock);
    struct render_cache *e = cache_find(c);
    pthread_mutex_unlock(&cache_lock);
    if (e || !c || xw_connection_has_error(c))
        return e;
    struct render_cache *fresh = cache_fetch(c);
    if (!fresh)
        return NULL;
    pthread_mutex_lock(&cache_lock);
    e = cache_find(c); /* another thread may have fetched meanwhile: keep its entry */
    if (!e) {
        fresh->next = cache_head;
        cache_head = e = fresh;
        fresh = NULL;
    }
    pthread_mutex_unlock(&cache_lock);
    if (fresh)
        cache_entry_free(fresh);
    return e;
}

XW_EXPORT const xw_render_query_version_reply_t *xw_render_util_query_version(xw_connection_t *c)
{
    struct render_cache *e = cache_get(c);
    return e ? e->version : NULL;
}

XW_EXPORT const xw_render_query_pict_formats_reply_t *xw_render_util_query_formats(xw_connection_t *c)
{
    struct render_cache *e = cache_get(c);
    return e ? e->formats : NULL;
}

XW_EXPORT int xw_render_util_disconnect(xw_connection_t *c)
{
    pthread_mutex_lock(&cache_lock);
    struct render_cache **p = &cache_head;
    while (*p && (*p)->c != c)
        p = &(*p)->next;
    struct render_cache *e = *p;
    if (e)
        *p = e->next;
    pthread_mutex_unlock(&cache_lock);
    if (!e)
        return 0;
    cache_entry_free(e);
    return 1;
}
