/* SPDX-License-Identifier: MIT */
/* atom.c — xcb-util's atom-name builders: per-screen, per-resource and unique names. */
#include <xw/xw_atom.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* A malloc'd string printed from fmt; NULL when out of memory. */
static char *make_name(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

XW_EXPORT char *xw_atom_name_by_screen(const char *base, uint8_t screen)
{
    return base ? make_name("%s_S%u", base, (unsigned)screen) : NULL;
}

XW_EXPORT char *xw_atom_name_by_resource(const char *base, uint32_t resource)
{
    return base ? make_name("%s_R%08X", base, (unsigned)resource) : NULL;
}

XW_EXPORT char *xw_atom_name_unique(const char *base, uint32_t id)
{
    return base ? make_name("%s_U%u", base, (unsigned)id) : make_name("U%u", (unsigned)id);
}
