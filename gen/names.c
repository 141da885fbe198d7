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

/* C++ keywords and alternative tokens (C++20) that C does not reserve: a member so
 * named keeps libxcb's spelling in C and gets another under __cplusplus. */
static const char *const cxx_only[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char8_t", "char16_t",
    "char32_t", "co_await", "co_return", "co_yield", "compl", "concept", "const_cast", "consteval", "constexpr",
    "constinit", "decltype", "dynamic_cast", "explicit", "export", "false", "friend", "mutable", "namespace",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
    "reinterpret_cast", "requires", "static_assert", "static_cast", "template", "this", "thread_local", "throw",
    "true", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq", NULL
};

/* The C name of a field: libxcb's, which prefixes '_' to class, new, delete and
 * default (the first three C++ keywords, the last a C one), so a port is a rename. */
const char *cfield_name(const char *name)
{
    if (!strcmp(name, "class") || !strcmp(name, "new") || !strcmp(name, "delete") || !strcmp(name, "default")) {
        static char buf[16];
        snprintf(buf, sizeof(buf), "_%s", name);
        return buf;
    }
    return name;
}

/* The name C++ needs for a field whose C name is one of its keywords ("_explicit"),
 * or NULL when the C name serves both. Malloc'd. */
char *cxx_field_name(const char *cname)
{
    for (int i = 0; cxx_only[i]; i++)
        if (!strcmp(cname, cxx_only[i]))
            return xasprintf("_%s", cname);
    return NULL;
}
