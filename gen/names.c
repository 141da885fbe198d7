/* names.c — C names for XML names, following libxcb's conventions so a port is a rename. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

/* Splits "GetScreenInfo" into "Get_Screen_Info", "DECnet" into "decnet": runs of
 * [A-Z0-9][a-z]+, [A-Z0-9]+ not followed by [a-z], and [a-z]+ are joined with '_'. */
char *cname_item(const char *s)
{
    if (!strcmp(s, "DECnet"))
        return xstrdup("decnet");
    size_t n = strlen(s);
    char *r = xmalloc(2 * n + 1), *o = r;
    size_t i = 0;
    int first = 1;
    while (i < n) {
        size_t start = i;
        unsigned char c = (unsigned char)s[i];
        if (isupper(c) || isdigit(c)) {
            size_t j = i + 1;
            if (j < n && islower((unsigned char)s[j])) {
                while (j < n && islower((unsigned char)s[j]))
                    j++;
            } else {
                while (j < n && (isupper((unsigned char)s[j]) || isdigit((unsigned char)s[j])))
                    j++;
                /* the last capital starts the next word when lower case follows */
                if (j < n && islower((unsigned char)s[j]) && j - 1 > i)
                    j--;
            }
            i = j;
        } else if (islower(c)) {
            while (i < n && islower((unsigned char)s[i]))
                i++;
        } else {
            i++; /* not part of any word: dropped, as the regular expression does */
            continue;
        }
        if (!first)
            *o++ = '_';
        memcpy(o, s + start, i - start);
        o += i - start;
        first = 0;
    }
    *o = 0;
    return r;
}

static char *lower(char *s)
{
    for (char *p = s; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return s;
}

char *cname_upper(const char *s)
{
    char *r = xstrdup(s);
    for (char *p = r; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    return r;
}

/* Extension names keep their spelling, except the three libxcb splits into words. */
static char *ext_item(const char *s)
{
    if (!strcmp(s, "XPrint") || !strcmp(s, "XCMisc") || !strcmp(s, "BigRequests"))
        return lower(cname_item(s));
    return lower(xstrdup(s));
}

/* path[0] is "xw"; for a type of an extension, path[1] is its extension name. The
 * emitting module decides whether path[1] is treated as an extension name, exactly
 * as libxcb does. */
char *cname_join(struct module *m, char **path, int n, const char *suffix)
{
    struct out o = { 0 };
    for (int i = 0; i < n; i++) {
        char *part;
        if (i == 0 || n == 1)
            part = xstrdup(path[i]);
        else if (i == 1 && n > 2 && m->is_ext)
            part = ext_item(path[i]);
        else
            part = cname_item(path[i]);
        out_printf(&o, "%s%s", i ? "_" : "", part);
    }
    if (suffix)
        out_printf(&o, "_%s", suffix);
    return lower(o.buf);
}

/* libxcb renames class, new, delete and default; xwire also renames the other C++
 * keywords so every header compiles as C++ (libxcb's xkb.h and xf86vidmode.h do not). */
const char *cfield_name(const char *name)
{
    static const char *const cxx[] = { "private", "public", "protected", "explicit", "template", "this",
                                       "operator", "virtual", "friend", "namespace", "typename", "using",
                                       "throw", "try", "catch", "bool", "true", "false", "mutable", "typeid",
                                       "export", "inline", "register", NULL };
    for (int i = 0; cxx[i]; i++)
        if (!strcmp(name, cxx[i])) {
            static char buf[64];
            snprintf(buf, sizeof(buf), "_%s", name);
            return buf;
        }
    if (!strcmp(name, "class"))
        return "_class";
    if (!strcmp(name, "new"))
        return "_new";
    if (!strcmp(name, "delete"))
        return "_delete";
    if (!strcmp(name, "default"))
        return "_default";
    return name;
}

/* The member name libxcb uses, for the layout comparison. */
const char *libxcb_field_name(const char *name)
{
    if (!strcmp(name, "class") || !strcmp(name, "new") || !strcmp(name, "delete") || !strcmp(name, "default"))
        return cfield_name(name);
    return name;
}
