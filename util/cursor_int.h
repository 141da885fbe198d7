/* SPDX-License-Identifier: MIT */
/* cursor_int.h — what cursor.c, cursor_theme.c and cursor_file.c share (internal). */
#ifndef XW_UTIL_CURSOR_INT_H
#define XW_UTIL_CURSOR_INT_H
#include <stdint.h>

/* One image of an Xcursor file, its pixels (ARGB, host order) malloc'd and owned here. */
struct xw__cursor_image {
    uint32_t width, height, xhot, yhot, delay;
    uint32_t *pixels;
};

/* Finds `name` in `theme` as the Xcursor specification says (directories of the search
 * path, then the themes it inherits). Returns an fd (O_RDONLY|O_CLOEXEC, the caller's)
 * or -1; when the theme chain reaches "core" and the core font has the name, -1 with
 * *core_glyph set to the glyph (else *core_glyph is -1). */
int xw__cursor_theme_open(const char *theme, const char *name, int *core_glyph);

/* The core "cursor" font's glyph for a shape name (X11's cursorfont.h), or -1. */
int xw__cursor_core_glyph(const char *name);

/* Reads the images of the size nearest `size` from the Xcursor file open on fd: 0 with
 * *images (malloc'd array, the caller frees each pixels and the array) and *n, or a
 * negative errno (-EINVAL: malformed or truncated, -EFBIG: too large, -ENOMEM). Every
 * offset and length in the file is checked against the file's size before use. */
int xw__cursor_file_read(int fd, uint32_t size, struct xw__cursor_image **images, uint32_t *n);

void xw__cursor_images_free(struct xw__cursor_image *images, uint32_t n);

#endif
