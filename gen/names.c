/* SPDX-License-Identifier: MIT */
/* names.c — C names for XML names, following libxcb's conventions so a port is a rename. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "out.h"

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
    struct out o = {0};
    for (int i = 0; i < n; i++) {
        char *part;
        if (i == 0 || n == 1)
            part = xstrdup(path[i]);
        else if (i == 1 && n > 2 && m && m->is_ext)
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
static const char *const cxx_only[] = {"alignas",   "alignof",       "and",          "and_eq",
                                       "asm",       "bitand",        "bitor",        "bool",
                                       "catch",     "char8_t",       "char16_t",     "char32_t",
                                       "co_await",  "co_return",     "co_yield",     "compl",
                                       "concept",   "const_cast",    "consteval",    "constexpr",
                                       "constinit", "decltype",      "dynamic_cast", "explicit",
                                       "export",    "false",         "friend",       "mutable",
                                       "namespace", "noexcept",      "not",          "not_eq",
                                       "nullptr",   "operator",      "or",           "or_eq",
                                       "private",   "protected",     "public",       "reinterpret_cast",
                                       "requires",  "static_assert", "static_cast",  "template",
                                       "this",      "thread_local",  "throw",        "true",
                                       "try",       "typeid",        "typename",     "using",
                                       "virtual",   "wchar_t",       "xor",          "xor_eq",
                                       NULL};

/* The C name of a field: libxcb's, which prefixes '_' to class, new, delete and
 * default (the first three C++ keywords, the last a C one), so a port is a rename. */
const char *cfield_name(const char *name)
{
    static const char *const renamed[] = {"_class", "_new", "_delete", "_default", NULL};
    for (int i = 0; renamed[i]; i++)
        if (!strcmp(name, renamed[i] + 1))
            return renamed[i];
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

/* ---- names of types ---- */

/* The naming path of a type: {"xw", [extension name], name...}. */
static int type_path(const struct type *t, char **path, int max)
{
    int n;
    switch (t->kind) {
    case TK_REPLY:
        return type_path(t->request, path, max);
    case TK_SWITCH:
        n = type_path(t->parent, path, max - 1);
        path[n++] = t->name;
        return n;
    case TK_CASE:
        n = type_path(t->parent, path, max - 1);
        if (t->casename)
            path[n++] = t->casename;
        return n;
    default:
        n = 0;
        path[n++] = "xw";
        if (t->mod && t->mod->is_ext)
            path[n++] = t->mod->ext_name;
        path[n++] = t->name;
        return n;
    }
}

static char *type_base(const struct type *t, const char *a)
{
    char *path[34];
    int n = type_path(t, path, 32);
    if (a)
        path[n++] = (char *)a;
    return cname_join(t->mod, path, n, NULL);
}

/* xw__ and the rest of the public base: names the library keeps to itself */
static char *type_ibase(const struct type *t)
{
    char *path[32];
    int n = type_path(t, path, 32);
    path[0] = "xw_";
    return cname_join(t->mod, path, n, NULL);
}

/* base, then a as a name part ("keyTypes" -> "key_types"), then b as it is: lower case. */
char *name_suffix(const char *base, const char *a, const char *b)
{
    char *pa = a ? lower(cname_item(a)) : NULL;
    char *r = xasprintf("%s%s%s%s%s", base, pa ? "_" : "", pa ? pa : "", b ? "_" : "", b ? b : "");
    free(pa);
    return lower(r);
}

/* An enum whose C type name another type of the module (or of what it imports) has
 * takes "_enum_t" instead, as libxcb does. */
static int collides(const struct module *m, const struct type *en, const char *name, int depth)
{
    for (int i = 0; i < m->ntypes; i++) {
        struct type *t = m->types[i];
        if (t == en || t->kind == TK_ENUM || t->kind == TK_REQUEST || t->kind == TK_EVENT || t->kind == TK_ERROR)
            continue;
        char *c = type_base(t, NULL);
        int hit = !strcmp(c, name);
        free(c);
        if (hit)
            return 1;
    }
    for (int i = 0; depth < 16 && i < m->nimports; i++)
        if (collides(m->imports[i].mod, en, name, depth + 1))
            return 1;
    return 0;
}

/* The word libxcb puts between a type's base name and "_t" (NULL: none). */
static const char *type_word(const struct type *t)
{
    switch (t->kind) {
    case TK_EVENT:
        return "event";
    case TK_ERROR:
        return "error";
    case TK_REQUEST:
        return "request";
    case TK_REPLY:
        return "reply";
    case TK_ENUM:
        /* an enum whose name another type has takes "_enum_t" */
        return collides(t->mod, t, t->cbase, 0) ? "enum" : NULL;
    default:
        return NULL;
    }
}

/* Fills t->cbase (xw_randr_get_screen_info), t->ibase (xw__...) and, but for a
 * primitive (whose C type the primitive table gives), t->ctype. */
void type_names(struct type *t)
{
    t->ibase = type_ibase(t);
    t->cbase = type_base(t, NULL);
    if (t->kind != TK_PRIM)
        t->ctype = name_suffix(t->cbase, type_word(t), "t");
}
