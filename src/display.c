/* SPDX-License-Identifier: MIT */
/* display.c — display string parsing ("[protocol/]host:display[.screen]"). */
#include "display.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A decimal number of at least one digit, no sign, no blanks, no overflow.
 * libxcb 1.15 uses strtoul here and so takes ":+1", ": 1", ":-1" and wraps big
 * numbers; xwire refuses those. Returns the first byte after it, or NULL. */
static const char *parse_number(const char *s, int *out)
{
    long v = 0;
    if (*s < '0' || *s > '9')
        return NULL;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (*s - '0');
        if (v > INT_MAX)
            return NULL;
    }
    *out = (int)v;
    return s;
}

static char *dup_span(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* Split at the last '/' (protocol) and the last ':' (display), as libxcb does, so
 * "tcp/host:0", "[::1]:0" and the DECnet-looking "host::0" come out the same. */
int xw__display_parse(const char *name, char **protocol, char **host, int *display, int *screen)
{
    if (!name || !*name)
        name = getenv("DISPLAY");
    if (!name)
        return 0;
    const char *slash = strrchr(name, '/');
    const char *start = slash ? slash + 1 : name;
    const char *colon = strrchr(start, ':');
    if (!colon)
        return 0;
    int d, s = 0;
    const char *p = parse_number(colon + 1, &d);
    if (!p)
        return 0;
    if (*p == '.') {
        p = parse_number(p + 1, &s);
        if (!p)
            return 0;
    }
    if (*p != '\0')
        return 0;
    char *h = dup_span(start, (size_t)(colon - start));
    char *proto = NULL;
    if (!h || (protocol && slash && !(proto = dup_span(name, (size_t)(slash - name))))) {
        free(h);
        return 0;
    }
    *host = h;
    if (protocol)
        *protocol = proto;
    *display = d;
    if (screen)
        *screen = s;
    return 1;
}

XW_EXPORT int xw_parse_display(const char *name, char **host, int *display, int *screen)
{
    return xw__display_parse(name, NULL, host, display, screen);
}
