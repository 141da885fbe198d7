/* SPDX-License-Identifier: MIT */
/* xwinfo.c — what xdpyinfo prints about a display, through xwire: the setup the
 * server sent at connect, plus four requests (GetInputFocus, ListExtensions, one
 * QueryBestSize per screen and the BIG-REQUESTS length). Lines are printed in
 * xdpyinfo's words and order so that the two can be compared line by line.
 * Usage: xwinfo [-display NAME] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exutil.h"

static const char *prog = "xwinfo";

static const char *byte_order(uint8_t v)
{
    return v == XW_IMAGE_ORDER_LSB_FIRST ? "LSBFirst" : "MSBFirst";
}

static const char *plural(unsigned n)
{
    return n == 1 ? "" : "s";
}

/* "X.Org version: 1.21.1.7" from the vendor release, as xdpyinfo decodes it. */
static void print_xorg_version(const xw_setup_t *s)
{
    unsigned r = s->release_number;
    if (r < 10000000)
        return; /* older encodings: xdpyinfo has more cases; not needed here */
    printf("X.Org version: %u.%u.%u", r / 10000000, (r / 100000) % 100, (r / 1000) % 100);
    if (r % 1000)
        printf(".%u", r % 1000);
    printf("\n");
}

static void print_focus(xw_connection_t *c)
{
    xw_generic_error_t *e = NULL;
    xw_get_input_focus_reply_t *f = xw_get_input_focus_reply(c, xw_get_input_focus(c), &e);
    if (ex_report(c, prog, "GetInputFocus", e) || !f)
        return;
    static const char *const revert[] = {"None", "PointerRoot", "Parent"};
    if (f->focus == XW_INPUT_FOCUS_POINTER_ROOT)
        printf("focus:  PointerRoot\n");
    else if (f->focus == XW_NONE)
        printf("focus:  None\n");
    else
        printf("focus:  window 0x%x, revert to %s\n", f->focus, f->revert_to < 3 ? revert[f->revert_to] : "?");
    free(f);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ListExtensions gives counted strings (xw_str_t); xdpyinfo prints them sorted. */
static void print_extensions(xw_connection_t *c)
{
    xw_generic_error_t *e = NULL;
    xw_list_extensions_reply_t *r = xw_list_extensions_reply(c, xw_list_extensions(c), &e);
    if (ex_report(c, prog, "ListExtensions", e) || !r)
        return;
    int n = r->names_len;
    char **names = calloc((size_t)n + 1, sizeof(char *));
    int k = 0;
    for (xw_str_iterator_t it = xw_list_extensions_names_iterator(r); names && it.rem > 0; xw_str_next(&it))
        names[k++] = strndup(xw_str_name(it.data), (size_t)xw_str_name_length(it.data));
    qsort(names, (size_t)k, sizeof(char *), compare_names);
    printf("number of extensions:    %d\n", k);
    for (int i = 0; i < k; i++) {
        printf("    %s\n", names[i] ? names[i] : "?");
        free(names[i]);
    }
    free(names);
    free(r);
}

static void print_formats(const xw_setup_t *s)
{
    printf("number of supported pixmap formats:    %u\n", s->pixmap_formats_len);
    printf("supported pixmap formats:\n");
    for (xw_format_iterator_t it = xw_setup_pixmap_formats_iterator(s); it.rem > 0; xw_format_next(&it))
        printf("    depth %u, bits_per_pixel %u, scanline_pad %u\n", it.data->depth, it.data->bits_per_pixel,
               it.data->scanline_pad);
}

static const char *visual_class(uint8_t cls)
{
    static const char *const names[] = {"StaticGray",  "GrayScale", "StaticColor",
                                        "PseudoColor", "TrueColor", "DirectColor"};
    return cls < 6 ? names[cls] : "unknown";
}

static void print_visual(const xw_visualtype_t *v, unsigned depth)
{
    int rgb = v->_class == XW_VISUAL_CLASS_TRUE_COLOR || v->_class == XW_VISUAL_CLASS_DIRECT_COLOR;
    printf("  visual:\n");
    printf("    visual id:    0x%x\n", v->visual_id);
    printf("    class:    %s\n", visual_class(v->_class));
    printf("    depth:    %u plane%s\n", depth, plural(depth));
    printf("    available colormap entries:    %u%s\n", v->colormap_entries, rgb ? " per subfield" : "");
    printf("    red, green, blue masks:    0x%x, 0x%x, 0x%x\n", v->red_mask, v->green_mask, v->blue_mask);
    printf("    significant bits in color specification:    %u bits\n", v->bits_per_rgb_value);
}

/* The depths and visuals nest inside the screen: depth -> its visuals. */
static void print_depths_and_visuals(const xw_screen_t *scr)
{
    unsigned map_entries = 0;
    printf("  depths (%u):    ", scr->allowed_depths_len);
    for (xw_depth_iterator_t d = xw_screen_allowed_depths_iterator(scr); d.rem > 0; xw_depth_next(&d)) {
        printf("%u%s", d.data->depth, d.rem > 1 ? ", " : "\n");
        for (xw_visualtype_iterator_t v = xw_depth_visuals_iterator(d.data); v.rem > 0; xw_visualtype_next(&v))
            if (v.data->visual_id == scr->root_visual)
                map_entries = v.data->colormap_entries;
    }
    printf("  root window id:    0x%x\n", scr->root);
    printf("  depth of root window:    %u plane%s\n", scr->root_depth, plural(scr->root_depth));
    printf("  number of colormaps:    minimum %u, maximum %u\n", scr->min_installed_maps, scr->max_installed_maps);
    printf("  default colormap:    0x%x\n", scr->default_colormap);
    printf("  default number of colormap cells:    %u\n", map_entries);
    printf("  preallocated pixels:    black %u, white %u\n", scr->black_pixel, scr->white_pixel);
    static const char *const backing[] = {"NO", "WHEN MAPPED", "YES"};
    printf("  options:    backing-store %s, save-unders %s\n",
           scr->backing_stores < 3 ? backing[scr->backing_stores] : "?", scr->save_unders ? "YES" : "NO");
}

static void print_visuals(const xw_screen_t *scr)
{
    unsigned n = 0;
    for (xw_depth_iterator_t d = xw_screen_allowed_depths_iterator(scr); d.rem > 0; xw_depth_next(&d))
        n += d.data->visuals_len;
    printf("  number of visuals:    %u\n", n);
    printf("  default visual id:  0x%x\n", scr->root_visual);
    for (xw_depth_iterator_t d = xw_screen_allowed_depths_iterator(scr); d.rem > 0; xw_depth_next(&d))
        for (xw_visualtype_iterator_t v = xw_depth_visuals_iterator(d.data); v.rem > 0; xw_visualtype_next(&v))
            print_visual(v.data, d.data->depth);
}

static void print_screen(xw_connection_t *c, int n, const xw_screen_t *scr)
{
    printf("\nscreen #%d:\n", n);
    printf("  dimensions:    %ux%u pixels (%ux%u millimeters)\n", scr->width_in_pixels, scr->height_in_pixels,
           scr->width_in_millimeters, scr->height_in_millimeters);
    /* dots per inch, rounded as xdpyinfo does */
    double xres = scr->width_in_pixels * 25.4 / (scr->width_in_millimeters ? scr->width_in_millimeters : 1);
    double yres = scr->height_in_pixels * 25.4 / (scr->height_in_millimeters ? scr->height_in_millimeters : 1);
    printf("  resolution:    %dx%d dots per inch\n", (int)(xres + 0.5), (int)(yres + 0.5));
    print_depths_and_visuals(scr);

    xw_generic_error_t *e = NULL;
    xw_query_best_size_reply_t *b = xw_query_best_size_reply(
        c, xw_query_best_size(c, XW_QUERY_SHAPE_OF_LARGEST_CURSOR, scr->root, 65535, 65535), &e);
    if (!ex_report(c, prog, "QueryBestSize", e) && b) {
        if (b->width == 65535 && b->height == 65535)
            printf("  largest cursor:    unlimited\n");
        else
            printf("  largest cursor:    %ux%u\n", b->width, b->height);
    }
    free(b);
    printf("  current input event mask:    0x%x\n", scr->current_input_masks);
    print_visuals(scr);
}

int main(int argc, char **argv)
{
    const char *display = ex_display_arg(argc, argv);
    int screen = 0;
    xw_connection_t *c = ex_connect(prog, display, &screen);
    const xw_setup_t *s = xw_get_setup(c);

    const char *name = display ? display : getenv("DISPLAY");
    printf("name of display:    %s\n", name ? name : "");
    printf("version number:    %u.%u\n", s->protocol_major_version, s->protocol_minor_version);
    /* The vendor is counted, not NUL-terminated, in the setup. */
    char vendor[256];
    snprintf(vendor, sizeof(vendor), "%.*s", xw_setup_vendor_length(s), xw_setup_vendor(s));
    printf("vendor string:    %s\n", vendor);
    printf("vendor release number:    %u\n", s->release_number);
    if (strstr(vendor, "X.Org"))
        print_xorg_version(s);
    /* In 4-byte units, with BIG-REQUESTS enabled when the server has it. */
    printf("maximum request size:  %lu bytes\n", 4ul * xw_get_maximum_request_length(c));
    printf("motion buffer size:  %u\n", s->motion_buffer_size);
    printf("bitmap unit, bit order, padding:    %u, %s, %u\n", s->bitmap_format_scanline_unit,
           byte_order(s->bitmap_format_bit_order), s->bitmap_format_scanline_pad);
    printf("image byte order:    %s\n", byte_order(s->image_byte_order));
    print_formats(s);
    printf("keycode range:    minimum %u, maximum %u\n", s->min_keycode, s->max_keycode);
    print_focus(c);
    print_extensions(c);
    printf("default screen number:    %d\n", screen);
    printf("number of screens:    %u\n", s->roots_len);
    int n = 0;
    for (xw_screen_iterator_t it = xw_setup_roots_iterator(s); it.rem > 0; xw_screen_next(&it))
        print_screen(c, n++, it.data);

    int failed = xw_connection_has_error(c);
    if (failed)
        fprintf(stderr, "%s: connection lost: %s\n", prog, xw_connection_error_string(c));
    xw_disconnect(c);
    return failed ? 1 : 0;
}
