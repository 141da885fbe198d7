/* SPDX-License-Identifier: MIT */
/* cursor_theme.c — finds a cursor file by theme and name: the search path, each theme's
 * cursors/ directory, its index.theme Inherits, and the core font's shape names. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cursor_int.h"

#define DEFAULT_PATH "~/.icons:/usr/share/icons:/usr/share/pixmaps:/usr/X11R6/lib/X11/icons"
#define MAX_DEPTH 8           /* inheritance deeper than this is refused: each level may branch */
#define MAX_INDEX (64 * 1024) /* index.theme bytes read */
#define MAX_INHERITS 1024     /* bytes of one Inherits list */

/* X11's cursorfont.h: shape n is glyph 2n (its mask is glyph 2n + 1). */
static const char *const core_names[] = {
    "X_cursor",
    "arrow",
    "based_arrow_down",
    "based_arrow_up",
    "boat",
    "bogosity",
    "bottom_left_corner",
    "bottom_right_corner",
    "bottom_side",
    "bottom_tee",
    "box_spiral",
    "center_ptr",
    "circle",
    "clock",
    "coffee_mug",
    "cross",
    "cross_reverse",
    "crosshair",
    "diamond_cross",
    "dot",
    "dotbox",
    "double_arrow",
    "draft_large",
    "draft_small",
    "draped_box",
    "exchange",
    "fleur",
    "gobbler",
    "gumby",
    "hand1",
    "hand2",
    "heart",
    "icon",
    "iron_cross",
    "left_ptr",
    "left_side",
    "left_tee",
    "leftbutton",
    "ll_angle",
    "lr_angle",
    "man",
    "middlebutton",
    "mouse",
    "pencil",
    "pirate",
    "plus",
    "question_arrow",
    "right_ptr",
    "right_side",
    "right_tee",
    "rightbutton",
    "rtl_logo",
    "sailboat",
    "sb_down_arrow",
    "sb_h_double_arrow",
    "sb_left_arrow",
    "sb_right_arrow",
    "sb_up_arrow",
    "sb_v_double_arrow",
    "shuttle",
    "sizing",
    "spider",
    "spraycan",
    "star",
    "target",
    "tcross",
    "top_left_arrow",
    "top_left_corner",
    "top_right_corner",
    "top_side",
    "top_tee",
    "trek",
    "ul_angle",
    "umbrella",
    "ur_angle",
    "watch",
    "xterm",
};

int xw__cursor_core_glyph(const char *name)
{
    if (!name)
        return -1;
    for (size_t i = 0; i < sizeof(core_names) / sizeof(core_names[0]); i++)
        if (!strcmp(core_names[i], name))
            return (int)(2 * i);
    return -1;
}

/* dir (len bytes, "~" expanded to $HOME) + "/" + theme + "/" + rest into buf; 0 or -1
 * when it does not fit or needs a $HOME there is none of. */
static int make_path(char *buf, size_t cap, const char *dir, size_t len, const char *theme, const char *rest)
{
    const char *home = "";
    if (len && dir[0] == '~') {
        if (!(home = getenv("HOME")))
            return -1;
        dir++, len--;
    }
    int n = snprintf(buf, cap, "%s%.*s/%s/%s", home, (int)len, dir, theme, rest);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int is_sep(char ch)
{
    return ch == ';' || ch == ',' || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

/* From index.theme text: the first "Inherits = a, b;c" line's themes, joined by ':'
 * into out (cap bytes); 1 when there was such a line, else 0. */
static int parse_inherits(const char *text, char *out, size_t cap)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        if (strncmp(line, "Inherits", 8))
            continue;
        const char *p = line + 8;
        while (*p == ' ')
            p++;
        if (*p != '=')
            continue;
        size_t n = 0;
        for (p++; *p && *p != '\n';) {
            while (*p != '\n' && *p && is_sep(*p))
                p++;
            if (!*p || *p == '\n')
                break;
            if (n && n + 1 < cap)
                out[n++] = ':';
            while (*p && *p != '\n' && !is_sep(*p)) {
                if (n + 1 < cap)
                    out[n++] = *p;
                p++;
            }
        }
        out[n] = '\0';
        return 1;
    }
    return 0;
}

/* The Inherits list of the index.theme at path into out; 1 when found. */
static int read_inherits(const char *path, char *out, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char *text = malloc(MAX_INDEX + 1);
    ssize_t n = text ? read(fd, text, MAX_INDEX) : -1;
    close(fd);
    int found = 0;
    if (n >= 0) {
        text[n] = '\0';
        found = parse_inherits(text, out, cap);
    }
    free(text);
    return found;
}

/* The themes being searched, innermost first: a theme already on it is a loop. */
struct chain {
    const char *theme;
    const struct chain *up;
    int depth;
};

static int on_chain(const struct chain *ch, const char *theme, size_t len)
{
    for (; ch; ch = ch->up)
        if (strlen(ch->theme) == len && !memcmp(ch->theme, theme, len))
            return 1;
    return 0;
}

static int find(const char *theme, size_t theme_len, const char *name, const struct chain *up, int *core_glyph);

/* Tries each theme of a ':'-separated list in order. */
static int find_in_list(const char *list, const char *name, const struct chain *up, int *core_glyph)
{
    for (const char *t = list; *t;) {
        size_t len = strcspn(t, ":");
        if (len && !on_chain(up, t, len)) {
            int fd = find(t, len, name, up, core_glyph);
            if (fd >= 0 || *core_glyph >= 0)
                return fd;
        }
        t += len + (t[len] == ':');
    }
    return -1;
}

static int find(const char *theme_in, size_t theme_len, const char *name, const struct chain *up, int *core_glyph)
{
    char theme[256], path[4096], inherits[MAX_INHERITS], rest[512];
    int have_inherits = 0;
    *core_glyph = -1;
    if ((up && up->depth >= MAX_DEPTH) || theme_len >= sizeof(theme))
        return -1;
    memcpy(theme, theme_in, theme_len);
    theme[theme_len] = '\0';
    struct chain here = {theme, up, up ? up->depth + 1 : 0};
    if (!strcmp(theme, "core") && (*core_glyph = xw__cursor_core_glyph(name)) >= 0)
        return -1;
    if (snprintf(rest, sizeof(rest), "cursors/%s", name) >= (int)sizeof(rest))
        return -1;
    const char *dirs = getenv("XCURSOR_PATH");
    for (const char *d = dirs ? dirs : DEFAULT_PATH; *d;) {
        size_t len = strcspn(d, ":");
        if (len && make_path(path, sizeof(path), d, len, theme, rest) == 0) {
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            if (fd >= 0)
                return fd;
            if (!have_inherits && make_path(path, sizeof(path), d, len, theme, "index.theme") == 0)
                have_inherits = read_inherits(path, inherits, sizeof(inherits));
        }
        d += len + (d[len] == ':');
    }
    return have_inherits ? find_in_list(inherits, name, &here, core_glyph) : -1;
}

int xw__cursor_theme_open(const char *theme, const char *name, int *core_glyph)
{
    *core_glyph = -1;
    /* A name is one path component: "../x" or "a/b" would leave the theme directory. */
    if (!theme || !name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
        return -1;
    return find(theme, strlen(theme), name, NULL, core_glyph);
}
