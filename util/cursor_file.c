/* SPDX-License-Identifier: MIT */
/* cursor_file.c — reads an Xcursor file (the format of Xcursor(3): a header, a table
 * of contents, image chunks of little-endian ARGB pixels) as untrusted input. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cursor_int.h"

#define XCURSOR_MAGIC 0x72756358u /* "Xcur" read as a little-endian word */
#define XCURSOR_IMAGE_TYPE 0xfffd0002u
#define FILE_HEADER_LEN 16u  /* magic, header length, version, ntoc */
#define TOC_ENTRY_LEN 12u    /* type, subtype (the nominal size), position */
#define IMAGE_HEADER_LEN 36u /* chunk header (16) + width, height, xhot, yhot, delay */
#define MAX_TOC 0x10000u     /* as xcb-util and libXcursor bound it */
#define MAX_SIDE 0x7fffu     /* libXcursor's largest image side */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Exactly len bytes at off, all inside a file of `size` bytes: 0 or -EINVAL. */
static int read_at(int fd, uint64_t size, uint64_t off, void *buf, size_t len)
{
    if (off > size || len > size - off)
        return -EINVAL;
    for (size_t done = 0; done < len;) {
        ssize_t r = pread(fd, (uint8_t *)buf + done, len - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -EINVAL;
        done += (size_t)r;
    }
    return 0;
}

static uint32_t dist(uint32_t a, uint32_t b)
{
    return a > b ? a - b : b - a;
}

/* The nominal size nearest `target` among the image entries, the first one on a tie (0:
 * none), and how many entries have it. A size of 0 counts as "none yet", as in xcb-util. */
static uint32_t best_size(const uint8_t *toc, uint32_t ntoc, uint32_t target, uint32_t *count)
{
    uint32_t best = 0, n = 0;
    for (uint32_t i = 0; i < ntoc; i++) {
        const uint8_t *e = toc + (size_t)i * TOC_ENTRY_LEN;
        uint32_t sub = le32(e + 4);
        if (le32(e) != XCURSOR_IMAGE_TYPE)
            continue;
        if (best == 0 || dist(sub, target) < dist(best, target)) {
            best = sub;
            n = 0;
        }
        if (sub == best)
            n++;
    }
    *count = n;
    return best;
}

/* One image chunk at `pos` whose TOC entry said (type, subtype). */
static int read_image(int fd, uint64_t fsize, const uint8_t *entry, struct xw__cursor_image *img)
{
    uint8_t h[IMAGE_HEADER_LEN];
    uint64_t pos = le32(entry + 8);
    int r = read_at(fd, fsize, pos, h, sizeof(h));
    if (r < 0)
        return r;
    /* The chunk repeats its TOC entry's type and size; a file where they differ is corrupt. */
    if (le32(h + 4) != le32(entry) || le32(h + 8) != le32(entry + 4))
        return -EINVAL;
    img->width = le32(h + 16), img->height = le32(h + 20);
    img->xhot = le32(h + 24), img->yhot = le32(h + 28), img->delay = le32(h + 32);
    /* RENDER refuses a hotspot past the picture (BadMatch); an empty image has no picture. */
    if (!img->width || !img->height || img->width > MAX_SIDE || img->height > MAX_SIDE || img->xhot > img->width ||
        img->yhot > img->height)
        return -EINVAL;
    size_t bytes = (size_t)img->width * img->height * 4;
    if (pos + IMAGE_HEADER_LEN > fsize || bytes > fsize - pos - IMAGE_HEADER_LEN)
        return -EINVAL; /* checked before allocating: a lying header cannot make us allocate */
    uint8_t *raw = malloc(bytes);
    if (!raw)
        return -ENOMEM;
    r = read_at(fd, fsize, pos + IMAGE_HEADER_LEN, raw, bytes);
    if (r < 0) {
        free(raw);
        return r;
    }
    /* In place: each little-endian word becomes a host-order ARGB pixel. */
    img->pixels = (uint32_t *)(void *)raw;
    for (size_t i = 0; i < bytes / 4; i++)
        img->pixels[i] = le32(raw + i * 4);
    return 0;
}

void xw__cursor_images_free(struct xw__cursor_image *images, uint32_t n)
{
    if (!images)
        return;
    for (uint32_t i = 0; i < n; i++)
        free(images[i].pixels);
    free(images);
}

/* The images whose entries have size `best`, in TOC order. */
static int read_images(int fd, uint64_t fsize, const uint8_t *toc, uint32_t ntoc, uint32_t best, uint32_t n,
                       struct xw__cursor_image **out)
{
    struct xw__cursor_image *images = calloc(n, sizeof(*images));
    if (!images)
        return -ENOMEM;
    uint32_t got = 0;
    for (uint32_t i = 0; i < ntoc && got < n; i++) {
        const uint8_t *e = toc + (size_t)i * TOC_ENTRY_LEN;
        if (le32(e) != XCURSOR_IMAGE_TYPE || le32(e + 4) != best)
            continue;
        int r = read_image(fd, fsize, e, &images[got]);
        if (r < 0) {
            xw__cursor_images_free(images, got);
            return r;
        }
        got++;
    }
    *out = images;
    return 0;
}

int xw__cursor_file_read(int fd, uint32_t size, struct xw__cursor_image **images, uint32_t *n)
{
    struct stat st;
    uint8_t h[FILE_HEADER_LEN];
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
        return -EINVAL;
    uint64_t fsize = (uint64_t)st.st_size;
    int r = read_at(fd, fsize, 0, h, sizeof(h));
    if (r < 0)
        return r;
    uint32_t hlen = le32(h + 4), ntoc = le32(h + 12);
    if (le32(h) != XCURSOR_MAGIC || hlen < FILE_HEADER_LEN)
        return -EINVAL;
    if (ntoc > MAX_TOC)
        return -EFBIG;
    uint8_t *toc = malloc(ntoc ? (size_t)ntoc * TOC_ENTRY_LEN : 1);
    if (!toc)
        return -ENOMEM;
    r = read_at(fd, fsize, hlen, toc, (size_t)ntoc * TOC_ENTRY_LEN);
    uint32_t count = 0, best = r < 0 ? 0 : best_size(toc, ntoc, size, &count);
    if (r == 0 && (best == 0 || count == 0))
        r = -EINVAL; /* no image at all */
    if (r == 0)
        r = read_images(fd, fsize, toc, ntoc, best, count, images);
    if (r == 0)
        *n = count;
    free(toc);
    return r;
}
