/* SPDX-License-Identifier: MIT */
/* test_util_cursor.c — xw_cursor.h against xcb-util-cursor on one Xvfb: every cursor of
 * Debian's xcursor-themes (and Adwaita, the default theme) set on a window under the
 * pointer and read back with XFixes GetCursorImage, the two images equal and equal to a
 * frame libXcursor reads from the same file; the size and theme settings, Inherits, the
 * core font; and malformed Xcursor files. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <X11/Xcursor/Xcursor.h>
#include <xcb/xcb.h>
#include <xcb/xcb_cursor.h>
#include <xcb/xfixes.h>

#include <xw/xw-xcb.h>
#include <xw/xw_cursor.h>

#include "xvfb_suite.h"
#include "xwtest.h"

static xw_connection_t *c;
static xcb_connection_t *xc; /* the oracle's connection, which also reads the cursors back */
static xcb_screen_t *screen;
static xcb_window_t win;

static void setup(void)
{
    xvfb_setup();
    unsetenv("XCURSOR_THEME");
    unsetenv("XCURSOR_SIZE");
    unsetenv("XCURSOR_PATH");
    xc = xcb_connect(xvfb_server.name, NULL);
    ck_assert_int_eq(xcb_connection_has_error(xc), 0);
    screen = xcb_setup_roots_iterator(xcb_get_setup(xc)).data;
    free(xcb_xfixes_query_version_reply(xc, xcb_xfixes_query_version(xc, 4, 0), NULL));
    win = xcb_generate_id(xc);
    uint32_t values[] = {1};
    xcb_create_window(xc, XCB_COPY_FROM_PARENT, win, screen->root, 0, 0, 300, 300, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
                      XCB_COPY_FROM_PARENT, XCB_CW_OVERRIDE_REDIRECT, values);
    xcb_map_window(xc, win);
    /* XFixes reports the cursor the pointer shows: put the pointer in the window. */
    xcb_warp_pointer(xc, XCB_NONE, win, 0, 0, 0, 0, 150, 150);
    free(xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL));
}

static void teardown(void)
{
    ck_assert_int_eq(xw_connection_has_error(c), 0);
    xcb_delete_property(xc, screen->root, XCB_ATOM_RESOURCE_MANAGER);
    xcb_destroy_window(xc, win);
    xcb_disconnect(xc);
    unsetenv("XCURSOR_THEME");
    unsetenv("XCURSOR_SIZE");
    unsetenv("XCURSOR_PATH");
    xvfb_teardown();
}

static void set_resources(const char *text)
{
    xcb_change_property(xc, XCB_PROP_MODE_REPLACE, screen->root, XCB_ATOM_RESOURCE_MANAGER, XCB_ATOM_STRING, 8,
                        (uint32_t)strlen(text), text);
    free(xcb_get_input_focus_reply(xc, xcb_get_input_focus(xc), NULL));
}

/* The cursor the server shows once `cursor` is the window's (malloc'd reply). */
static xcb_xfixes_get_cursor_image_reply_t *shown(xcb_cursor_t cursor)
{
    xcb_change_window_attributes(xc, win, XCB_CW_CURSOR, &cursor);
    xcb_xfixes_get_cursor_image_reply_t *r =
        xcb_xfixes_get_cursor_image_reply(xc, xcb_xfixes_get_cursor_image(xc), NULL);
    ck_assert_ptr_nonnull(r);
    return r;
}

static int same_image(const xcb_xfixes_get_cursor_image_reply_t *a, const xcb_xfixes_get_cursor_image_reply_t *b)
{
    return a->width == b->width && a->height == b->height && a->xhot == b->xhot && a->yhot == b->yhot &&
           !memcmp(xcb_xfixes_get_cursor_image_cursor_image(a), xcb_xfixes_get_cursor_image_cursor_image(b),
                   (size_t)a->width * a->height * 4);
}

/* Whether the shown image is one of the frames libXcursor reads from the file. */
static int is_frame_of(const xcb_xfixes_get_cursor_image_reply_t *r, const XcursorImages *f)
{
    for (int i = 0; f && i < f->nimage; i++) {
        const XcursorImage *im = f->images[i];
        if (im->width == r->width && im->height == r->height && im->xhot == r->xhot && im->yhot == r->yhot &&
            !memcmp(im->pixels, xcb_xfixes_get_cursor_image_cursor_image(r), (size_t)im->width * im->height * 4))
            return 1;
    }
    return 0;
}

/* Loads `name` through both libraries and checks the server shows the same image (and,
 * with a file, one of its frames). Returns the number of frames (0: no file). */
static int compare_one(xcb_cursor_context_t *xctx, xw_cursor_context_t *wctx, const char *name, const char *file,
                       int size)
{
    xcb_cursor_t a = xcb_cursor_load_cursor(xctx, name);
    xw_cursor_t b = xw_cursor_load_cursor(wctx, name);
    ck_assert_msg(a && b, "%s: xcb-util %u, xwire %u", name, a, b);
    xcb_xfixes_get_cursor_image_reply_t *ra = shown(a), *rb = shown(b);
    XcursorImages *frames = file ? XcursorFilenameLoadImages(file, size) : NULL;
    int n = frames ? frames->nimage : 0;
    if (file)
        ck_assert_msg(frames, "libXcursor cannot read %s", file);
    /* XFixes on Xvfb reports an animated cursor as its 1x1 placeholder, not the frame on
     * show: for those the two placeholders are compared, and the frames on the fake
     * server (test_util_render). */
    if (n <= 1 && file) {
        ck_assert_msg(is_frame_of(ra, frames), "%s: xcb-util's image is not the file's", name);
        ck_assert_msg(is_frame_of(rb, frames), "%s: xwire's image is not the file's", name);
    }
    ck_assert_msg(same_image(ra, rb), "%s: images differ", name);
    XcursorImagesDestroy(frames);
    free(ra);
    free(rb);
    xcb_free_cursor(xc, a);
    xcb_free_cursor(xc, b);
    return n;
}

/* Every cursor file of `theme` (in /usr/share/icons) at `size`, on conn. */
static void compare_theme(xw_connection_t *conn, const char *theme, int size)
{
    char text[128], dir[256], file[512];
    snprintf(text, sizeof(text), "Xcursor.theme:\t%s\nXcursor.size:\t%d\n", theme, size);
    set_resources(text);
    xcb_cursor_context_t *xctx;
    xw_cursor_context_t *wctx;
    ck_assert_int_eq(xcb_cursor_context_new(xc, screen, &xctx), 0);
    ck_assert_int_eq(
        xw_cursor_context_new(conn, (xw_screen_t *)xw_setup_roots_iterator(xw_get_setup(conn)).data, &wctx), 0);
    snprintf(dir, sizeof(dir), "/usr/share/icons/%s/cursors", theme);
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int files = 0, animated = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(file, sizeof(file), "%s/%s", dir, e->d_name);
        animated += compare_one(xctx, wctx, e->d_name, file, size) > 1;
        files++;
    }
    closedir(d);
    printf("%s at %d: %d cursors identical (%d animated)\n", theme, size, files, animated);
    ck_assert_int_gt(files, 40);
    xcb_cursor_context_free(xctx);
    xw_cursor_context_free(wctx);
    ck_assert_int_eq(xw_connection_has_error(conn), 0);
}

START_TEST(theme_whiteglass)
{
    compare_theme(c, "whiteglass", 24);
}
END_TEST

START_TEST(theme_redglass)
{
    compare_theme(c, "redglass", 32);
}
END_TEST

START_TEST(theme_handhelds)
{
    compare_theme(c, "handhelds", 16);
}
END_TEST

/* The default theme (Adwaita here), on a connection borrowed from libxcb. */
START_TEST(theme_adwaita_borrowed)
{
    xcb_connection_t *lender = xcb_connect(xvfb_server.name, NULL);
    xw_connection_t *b = xw_xcb_borrow(lender);
    ck_assert_int_eq(xw_connection_has_error(b), 0);
    compare_theme(b, "Adwaita", 24);
    xw_disconnect(b);
    xcb_disconnect(lender);
}
END_TEST

/* Contexts made under the current resources and environment. */
static void contexts(xcb_cursor_context_t **xctx, xw_cursor_context_t **wctx)
{
    ck_assert_int_eq(xcb_cursor_context_new(xc, screen, xctx), 0);
    ck_assert_int_eq(xw_cursor_context_new(c, (xw_screen_t *)xw_setup_roots_iterator(xw_get_setup(c)).data, wctx), 0);
}

static void compare_names(const char *const *names, const char *theme_dir, int size)
{
    xcb_cursor_context_t *xctx;
    xw_cursor_context_t *wctx;
    contexts(&xctx, &wctx);
    for (int i = 0; names[i]; i++) {
        char file[512];
        snprintf(file, sizeof(file), "%s/%s", theme_dir ? theme_dir : "", names[i]);
        compare_one(xctx, wctx, names[i], theme_dir ? file : NULL, size);
    }
    xcb_cursor_context_free(xctx);
    xw_cursor_context_free(wctx);
}

static const char *const some[] = {"left_ptr", "xterm", "hand2", "fleur", NULL};

/* $XCURSOR_SIZE, Xcursor.size, Xft.dpi and the screen size pick the image size. */
START_TEST(size_settings)
{
    set_resources("Xcursor.theme: whiteglass\nXcursor.size: 48\n");
    compare_names(some, "/usr/share/icons/whiteglass/cursors", 48);
    setenv("XCURSOR_SIZE", "12", 1);
    compare_names(some, "/usr/share/icons/whiteglass/cursors", 12);
    unsetenv("XCURSOR_SIZE");
    set_resources("Xcursor.theme: whiteglass\nXft.dpi: 144\n");
    compare_names(some, "/usr/share/icons/whiteglass/cursors", 32);
    /* no size: the screen's smaller side / 48 */
    set_resources("Xcursor.theme: whiteglass\n");
    compare_names(
        some, "/usr/share/icons/whiteglass/cursors",
        (screen->width_in_pixels < screen->height_in_pixels ? screen->width_in_pixels : screen->height_in_pixels) / 48);
    /* a line without ':' ends xcb-util's parse: the size after it is not seen */
    set_resources("Xcursor.theme:   redglass\n\nno colon here\nXcursor.size: 48\n");
    compare_names(some, NULL, 0);
}
END_TEST

/* $XCURSOR_THEME (which xcb-util 0.1.4 ignores) against the same theme named in
 * RESOURCE_MANAGER for xcb-util. */
START_TEST(theme_from_environment)
{
    set_resources("Xcursor.theme: redglass\nXcursor.size: 24\n");
    xcb_cursor_context_t *xctx;
    ck_assert_int_eq(xcb_cursor_context_new(xc, screen, &xctx), 0);
    set_resources("Xcursor.theme: whiteglass\nXcursor.size: 24\n");
    setenv("XCURSOR_THEME", "redglass", 1);
    xw_cursor_context_t *wctx;
    ck_assert_int_eq(xw_cursor_context_new(c, (xw_screen_t *)xw_setup_roots_iterator(xw_get_setup(c)).data, &wctx), 0);
    compare_one(xctx, wctx, "left_ptr", "/usr/share/icons/redglass/cursors/left_ptr", 24);
    xcb_cursor_context_free(xctx);
    xw_cursor_context_free(wctx);
}
END_TEST

/* No theme file anywhere, or the theme "core": the core cursor font's glyphs. */
START_TEST(core_font_fallback)
{
    static const char *const core[] = {"left_ptr", "watch", "xterm", "X_cursor", "sb_v_double_arrow", NULL};
    setenv("XCURSOR_PATH", "/nonexistent", 1);
    set_resources("Xcursor.size: 24\n");
    compare_names(core, NULL, 0);
    unsetenv("XCURSOR_PATH");
    set_resources("Xcursor.theme: core\n");
    compare_names(core, NULL, 0);
    /* names neither a theme nor the font has */
    xcb_cursor_context_t *xctx;
    xw_cursor_context_t *wctx;
    contexts(&xctx, &wctx);
    ck_assert_uint_eq(xcb_cursor_load_cursor(xctx, "no-such-cursor"), 0);
    ck_assert_uint_eq(xw_cursor_load_cursor(wctx, "no-such-cursor"), 0);
    ck_assert_uint_eq(xw_cursor_load_cursor(wctx, "../whiteglass/cursors/left_ptr"), 0);
    ck_assert_uint_eq(xw_cursor_load_cursor(wctx, NULL), 0);
    xcb_cursor_context_free(xctx);
    xw_cursor_context_free(wctx);
}
END_TEST

/* Scratch themes under a temporary directory, first on $XCURSOR_PATH. */
static char scratch[64];

static void scratch_begin(void)
{
    strcpy(scratch, "/tmp/xw-cursor-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(scratch));
    char path[512];
    snprintf(path, sizeof(path), "%s:/usr/share/icons", scratch);
    setenv("XCURSOR_PATH", path, 1);
}

static void scratch_write(const char *rel, const void *bytes, size_t len)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", scratch, rel);
    for (char *p = path + strlen(scratch) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
}

static void scratch_end(void)
{
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
    ck_assert_int_eq(system(cmd), 0);
}

/* A theme that inherits redglass through index.theme (with the spec's separators); no
 * theme at all. */
START_TEST(theme_inherits)
{
    scratch_begin();
    static const char index[] = "[Icon Theme]\nName=child\nInherits = redglass\n";
    scratch_write("child/index.theme", index, sizeof(index) - 1);
    scratch_write("child/cursors/unrelated", "", 0);
    set_resources("Xcursor.theme: child\nXcursor.size: 32\n");
    compare_names(some, "/usr/share/icons/redglass/cursors", 32);
    scratch_end();
    /* no theme named: "default", whose index.theme inherits Debian's default (Adwaita) */
    unsetenv("XCURSOR_PATH");
    set_resources("Xcursor.size: 24\n");
    compare_names(some, "/usr/share/icons/Adwaita/cursors", 24);
}
END_TEST

/* Little-endian Xcursor file builder for the malformed cases. */
struct xcur {
    uint8_t b[8192];
    size_t n;
};

static void put32(struct xcur *x, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        x->b[x->n++] = (uint8_t)(v >> (8 * i));
}

/* A well-formed file: one image per size in sizes[], each side = size, pixels 0xffRRGGBB
 * varying, at most 4 images of at most 16x16. */
static void xcur_build(struct xcur *x, const uint32_t *sizes, int nimg)
{
    x->n = 0;
    put32(x, 0x72756358u), put32(x, 16), put32(x, 0x10000), put32(x, (uint32_t)nimg);
    size_t pos = 16 + 12 * (size_t)nimg;
    for (int i = 0; i < nimg; i++) {
        put32(x, 0xfffd0002u), put32(x, sizes[i]), put32(x, (uint32_t)pos);
        pos += 36 + (size_t)sizes[i] * sizes[i] * 4;
    }
    for (int i = 0; i < nimg; i++) {
        uint32_t s = sizes[i];
        put32(x, 36), put32(x, 0xfffd0002u), put32(x, s), put32(x, 1);
        put32(x, s), put32(x, s), put32(x, s / 2), put32(x, s / 3), put32(x, 50);
        for (uint32_t p = 0; p < s * s; p++)
            put32(x, 0xff000000u | (p * 2654435761u >> 8) | s);
    }
}

/* Field offsets in a one-image file. */
#define OFF_NTOC 12
#define OFF_TOC_POS 24
#define OFF_CHUNK_TYPE 32
#define OFF_WIDTH 44
#define OFF_HEIGHT 48
#define OFF_XHOT 52

static void set32(struct xcur *x, size_t off, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        x->b[off + i] = (uint8_t)(v >> (8 * i));
}

/* Size selection: the nearest size, the first in the file on a tie; checked against
 * xcb-util with a file whose images differ per size. */
START_TEST(size_selection)
{
    scratch_begin();
    struct xcur x;
    xcur_build(&x, (const uint32_t[]){8, 16, 12, 4}, 4);
    scratch_write("sizes/cursors/pick", x.b, x.n);
    char file[600];
    snprintf(file, sizeof(file), "%s/sizes/cursors/pick", scratch);
    for (int size = 0; size <= 20; size++) {
        char text[80];
        snprintf(text, sizeof(text), "Xcursor.theme: sizes\nXcursor.size: %d\n", size);
        set_resources(text);
        xcb_cursor_context_t *xctx;
        xw_cursor_context_t *wctx;
        contexts(&xctx, &wctx);
        compare_one(xctx, wctx, "pick", size ? file : NULL, size);
        xcb_cursor_context_free(xctx);
        xw_cursor_context_free(wctx);
    }
    scratch_end();
}
END_TEST

/* Malformed files: what xwire gives (always XW_NONE) and, where xcb-util can read the
 * same file safely, what it gives. */
struct bad_case {
    const char *what;
    void (*spoil)(struct xcur *x);
    int xcb_too; /* 1: xcb-util also returns XCB_NONE; 0: it sends requests the server refuses, or worse */
};

static void spoil_empty(struct xcur *x)
{
    x->n = 0;
}
static void spoil_magic(struct xcur *x)
{
    x->b[0] = 'Y';
}
static void spoil_header_only(struct xcur *x)
{
    x->n = 16;
}
static void spoil_toc_count(struct xcur *x)
{
    set32(x, OFF_NTOC, 0x10001);
}
static void spoil_toc_past_end(struct xcur *x)
{
    set32(x, OFF_NTOC, 600);
}
static void spoil_position(struct xcur *x)
{
    set32(x, OFF_TOC_POS, 0x7ffffff0);
}
static void spoil_chunk_type(struct xcur *x)
{
    set32(x, OFF_CHUNK_TYPE, 0xfffe0001u);
}
static void spoil_truncated_pixels(struct xcur *x)
{
    x->n -= 8;
}
static void spoil_overflow(struct xcur *x)
{
    set32(x, OFF_WIDTH, 0x10000), set32(x, OFF_HEIGHT, 0x10000);
}
static void spoil_huge(struct xcur *x)
{
    set32(x, OFF_WIDTH, 0x7fff), set32(x, OFF_HEIGHT, 0x7fff);
}
static void spoil_hotspot(struct xcur *x)
{
    set32(x, OFF_XHOT, 40);
}
static void spoil_zero_width(struct xcur *x)
{
    set32(x, OFF_WIDTH, 0);
}
static void spoil_short_header_len(struct xcur *x)
{
    set32(x, 4, 4);
}

START_TEST(malformed_files)
{
    static const struct bad_case cases[] = {
        {"empty file", spoil_empty, 1},
        {"bad magic", spoil_magic, 1},
        {"header only", spoil_header_only, 1},
        {"table of contents over 0x10000 entries", spoil_toc_count, 1},
        {"table of contents past the end", spoil_toc_past_end, 1},
        {"chunk position past the end", spoil_position, 1},
        {"chunk type differs from its entry", spoil_chunk_type, 1},
        {"pixels cut short", spoil_truncated_pixels, 1},
        {"width x height overflows 32 bits", spoil_overflow, 1},
        /* xcb-util allocates 4 GiB before it finds the pixels missing: not run there */
        {"32767 x 32767 claimed, 16x16 present", spoil_huge, 0},
        /* xcb-util sends CreateCursor and the server answers BadMatch */
        {"hotspot outside the image", spoil_hotspot, 0},
        /* xcb-util sends CreatePixmap 0 wide: BadValue */
        {"zero width", spoil_zero_width, 0},
        {"header length under 16", spoil_short_header_len, 1},
    };
    scratch_begin();
    set_resources("Xcursor.theme: bad\nXcursor.size: 16\n");
    xcb_cursor_context_t *xctx;
    xw_cursor_context_t *wctx;
    contexts(&xctx, &wctx);
    int both = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct xcur x;
        xcur_build(&x, (const uint32_t[]){16}, 1);
        cases[i].spoil(&x);
        /* "left_ptr" too: a bad file is not replaced by the core font's glyph */
        scratch_write("bad/cursors/left_ptr", x.b, x.n);
        scratch_write("bad/cursors/bad", x.b, x.n);
        ck_assert_msg(xw_cursor_load_cursor(wctx, "bad") == 0, "%s: xwire made a cursor", cases[i].what);
        ck_assert_msg(xw_cursor_load_cursor(wctx, "left_ptr") == 0, "%s: xwire made a cursor", cases[i].what);
        if (cases[i].xcb_too) {
            ck_assert_msg(xcb_cursor_load_cursor(xctx, "bad") == 0, "%s: xcb-util made a cursor", cases[i].what);
            ck_assert_msg(xcb_cursor_load_cursor(xctx, "left_ptr") == 0, "%s", cases[i].what);
            both++;
        }
    }
    printf("malformed Xcursor files: %zu refused by xwire, %d of them by xcb-util too\n",
           sizeof(cases) / sizeof(cases[0]), both);
    /* the unspoilt file loads, so the cases above failed for their fault alone */
    struct xcur x;
    xcur_build(&x, (const uint32_t[]){16}, 1);
    scratch_write("bad/cursors/bad", x.b, x.n);
    compare_one(xctx, wctx, "bad", NULL, 16);
    /* a theme inheriting itself: xcb-util would recurse without end; xwire stops */
    static const char loop[] = "[Icon Theme]\nInherits=loop;loop\n";
    scratch_write("loop/index.theme", loop, sizeof(loop) - 1);
    xcb_cursor_context_free(xctx);
    xw_cursor_context_free(wctx);
    set_resources("Xcursor.theme: loop\n");
    setenv("XCURSOR_PATH", scratch, 1);
    contexts(&xctx, &wctx);
    ck_assert_uint_eq(xw_cursor_load_cursor(wctx, "no-such-cursor"), 0);
    xw_cursor_t core = xw_cursor_load_cursor(wctx, "watch"); /* not found: the core glyph */
    ck_assert_uint_ne(core, 0);
    xcb_free_cursor(xc, core);
    xcb_cursor_context_free(xctx);
    xw_cursor_context_free(wctx);
    scratch_end();
}
END_TEST

START_TEST(context_arguments)
{
    xw_cursor_context_t *wctx = (xw_cursor_context_t *)1;
    xw_screen_t *s = (xw_screen_t *)xw_setup_roots_iterator(xw_get_setup(c)).data;
    ck_assert_int_eq(xw_cursor_context_new(NULL, s, &wctx), -EINVAL);
    ck_assert_int_eq(xw_cursor_context_new(c, NULL, &wctx), -EINVAL);
    ck_assert_int_eq(xw_cursor_context_new(c, s, NULL), -EINVAL);
    ck_assert_uint_eq(xw_cursor_load_cursor(NULL, "left_ptr"), 0);
    xw_cursor_context_free(NULL);
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_cursor"))
        return 77;
    Suite *s = xwtest_suite("util_cursor");
    TCase *tc = xvfb_tcase(
        s,
        &(struct xvfb_suite){.name = "util_cursor", .timeout = 300, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, theme_whiteglass);
    tcase_add_test(tc, theme_redglass);
    tcase_add_test(tc, theme_handhelds);
    tcase_add_test(tc, theme_adwaita_borrowed);
    tcase_add_test(tc, size_settings);
    tcase_add_test(tc, theme_from_environment);
    tcase_add_test(tc, core_font_fallback);
    tcase_add_test(tc, theme_inherits);
    tcase_add_test(tc, size_selection);
    tcase_add_test(tc, malformed_files);
    tcase_add_test(tc, context_arguments);
    return xwtest_run(s);
}
