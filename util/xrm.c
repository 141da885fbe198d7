/* SPDX-License-Identifier: MIT */
/* xrm.c — xcb-util-xrm on xwire: X resource databases, parsed and queried by Xrm's rules. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <xw/xw_aux.h>
#include <xw/xw_xrm.h>

#define MAX_LEVELS 64 /* query components; an entry with more can never match */
#define MAX_INCLUDE_DEPTH 100

/* One component of a specifier: a name (NULL: '?') and the binding before it. */
struct comp {
    const char *name; /* NUL-terminated, inside the entry's block */
    uint8_t loose;
};

/* One entry, one allocation: the header, ncomp components, then their names and the
 * value as NUL-terminated strings. */
struct entry {
    struct entry *next, *prev;
    const char *value;
    size_t ncomp;
    struct comp comp[];
};

/* Entries in insertion order (a replaced specifier moves to the end), as to_string
 * writes them. */
struct xw_xrm_database_t {
    struct entry *first, *last;
};

static int is_name_char(char ch)
{
    return ch == '_' || ch == '-' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* Unescapes a value: \<space>, \<tab>, \n, \\ and \ooo; any other backslash stays. */
static size_t unescape(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '\\' && i + 1 < n) {
            char nx = s[i + 1];
            if (nx == ' ' || nx == '\t' || nx == '\\') {
                out[o++] = nx, i++;
                continue;
            }
            if (nx == 'n') {
                out[o++] = '\n', i++;
                continue;
            }
            if (i + 3 < n && s[i + 1] >= '0' && s[i + 1] <= '7' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
                s[i + 3] >= '0' && s[i + 3] <= '7') {
                out[o++] = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
                i += 3;
                continue;
            }
        }
        out[o++] = ch;
    }
    out[o] = '\0';
    return o;
}

/* Parses "specifier: value" (n bytes, no newline) into a new entry. The specifier's
 * blanks are ignored, its bindings are '.' and '*' (a run with a '*' is loose), '?'
 * is a component of its own, names are [A-Za-z0-9_-]; the value starts after the
 * ':' and its leading blanks. Returns NULL for a line that does not parse. */
static struct entry *parse_line(const char *line, size_t n)
{
    const char *colon = memchr(line, ':', n);
    if (!colon)
        return NULL;
    size_t spec = (size_t)(colon - line), ncomp = 0;
    for (size_t i = 0; i < spec; i++)
        ncomp += line[i] == '.' || line[i] == '*' ? 1 : line[i] == '?' ? 2 : 0;
    ncomp++; /* a bound on the components: one more than the bindings, a '?' is two */
    const char *v = colon + 1, *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    size_t head = sizeof(struct entry) + ncomp * sizeof(struct comp);
    struct entry *e = malloc(head + 2 * spec + 2 + (size_t)(end - v) + 1);
    if (!e)
        return NULL;
    char *names = (char *)e + head, *w = names;
    size_t k = 0;
    int loose = 0, in_name = 0;
    for (size_t i = 0; i < spec; i++) {
        char ch = line[i];
        if (ch == ' ' || ch == '\t')
            continue;
        if (ch == '.' || ch == '*' || ch == '?') {
            if (in_name)
                *w++ = '\0', in_name = 0, loose = 0;
            if (ch == '?') {
                e->comp[k++] = (struct comp){NULL, (uint8_t)loose};
                loose = 0;
            } else {
                loose |= ch == '*';
            }
            continue;
        }
        if (!is_name_char(ch))
            goto bad;
        if (!in_name)
            e->comp[k++] = (struct comp){w, (uint8_t)loose}, in_name = 1;
        *w++ = ch;
    }
    if (!in_name || !k) /* no components, or ends in '?' or a binding */
        goto bad;
    *w++ = '\0';
    e->ncomp = k;
    e->value = w;
    unescape(v, (size_t)(end - v), w);
    return e;
bad:
    free(e);
    return NULL;
}

static int same_spec(const struct entry *a, const struct entry *b)
{
    if (a->ncomp != b->ncomp)
        return 0;
    for (size_t i = 0; i < a->ncomp; i++) {
        const struct comp *x = &a->comp[i], *y = &b->comp[i];
        if (x->loose != y->loose || !x->name != !y->name || (x->name && strcmp(x->name, y->name)))
            return 0;
    }
    return 1;
}

static void unlink_entry(xw_xrm_database_t *db, struct entry *e)
{
    *(e->prev ? &e->prev->next : &db->first) = e->next;
    *(e->next ? &e->next->prev : &db->last) = e->prev;
}

/* Adds e (owned from here) at the end; an entry with the same specifier is replaced
 * (override) or e is dropped. */
static void put_entry(xw_xrm_database_t *db, struct entry *e, int override)
{
    for (struct entry *o = db->first; o; o = o->next)
        if (same_spec(o, e)) {
            if (!override) {
                free(e);
                return;
            }
            unlink_entry(db, o);
            free(o);
            break;
        }
    e->next = NULL;
    e->prev = db->last;
    *(db->last ? &db->last->next : &db->first) = e;
    db->last = e;
}

static xw_xrm_database_t *new_db(void)
{
    return calloc(1, sizeof(xw_xrm_database_t));
}

static void put_line(xw_xrm_database_t *db, const char *line, size_t n)
{
    if (n == 0 || line[0] == '!' || line[0] == '#')
        return;
    struct entry *e = parse_line(line, n);
    if (e)
        put_entry(db, e, 1);
}

static int load_file(xw_xrm_database_t *db, const char *path, int depth);

/* "#include "name"" (blanks allowed after '#', the quotes optional): loads name,
 * relative to dir (NULL: the current directory), over db. 1 when the line was an
 * include (loaded or not), 0 when it is not one. */
static int include_line(xw_xrm_database_t *db, const char *line, size_t n, const char *dir, int depth)
{
    size_t i = 1;
    while (i < n && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (n - i < 7 || memcmp(line + i, "include", 7))
        return 0;
    i += 7;
    while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '"'))
        i++;
    size_t j = n;
    while (j > i && (line[j - 1] == ' ' || line[j - 1] == '\t' || line[j - 1] == '"'))
        j--;
    if (j == i || depth >= MAX_INCLUDE_DEPTH)
        return 1;
    size_t dlen = dir && line[i] != '/' ? strlen(dir) : 0;
    char *path = malloc(dlen + 1 + (j - i) + 1);
    if (!path)
        return 1;
    int p = dlen ? sprintf(path, "%s/", dir) : 0;
    memcpy(path + p, line + i, j - i);
    path[(size_t)p + (j - i)] = '\0';
    load_file(db, path, depth + 1);
    free(path);
    return 1;
}

/* Parses text into db: continuation lines joined, then line by line. */
static int load_string(xw_xrm_database_t *db, const char *str, const char *dir, int depth)
{
    size_t n = strlen(str);
    char *joined = malloc(n + 1), *w = joined;
    if (!joined)
        return -ENOMEM;
    for (size_t i = 0; i < n; i++) {
        if (str[i] == '\\' && str[i + 1] == '\n') {
            i++;
            continue;
        }
        *w++ = str[i];
    }
    *w = '\0';
    for (char *line = joined; line < w;) {
        char *nl = memchr(line, '\n', (size_t)(w - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(w - line);
        if (!(len && line[0] == '#' && include_line(db, line, len, dir, depth)))
            put_line(db, line, len);
        line += len + 1;
    }
    free(joined);
    return 0;
}

/* The whole file as a NUL-terminated string (malloc'd), or NULL. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - 1 - len, f);
        if (len < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    int failed = ferror(f);
    fclose(f);
    if (buf && failed) {
        free(buf);
        return NULL;
    }
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* Parses the file at path into db; -ENOENT when it cannot be read. */
static int load_file(xw_xrm_database_t *db, const char *path, int depth)
{
    char *text = read_file(path);
    if (!text)
        return -ENOENT;
    char *dir = strdup(path);
    char *slash = dir ? strrchr(dir, '/') : NULL;
    if (slash)
        *slash = '\0';
    int r = load_string(db, text, !dir ? NULL : slash ? (slash == dir ? "/" : dir) : ".", depth);
    free(dir);
    free(text);
    return r;
}

XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_string(const char *str)
{
    xw_xrm_database_t *db = str ? new_db() : NULL;
    if (db && load_string(db, str, NULL, 0) < 0) {
        xw_xrm_database_free(db);
        return NULL;
    }
    return db;
}

XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_file(const char *filename)
{
    xw_xrm_database_t *db = filename ? new_db() : NULL;
    if (db && load_file(db, filename, 0) < 0) {
        xw_xrm_database_free(db);
        return NULL;
    }
    return db;
}

XW_EXPORT void xw_xrm_database_free(xw_xrm_database_t *db)
{
    if (!db)
        return;
    for (struct entry *e = db->first, *next; e; e = next) {
        next = e->next;
        free(e);
    }
    free(db);
}

static size_t entry_text(const struct entry *e, char *out);

/* A copy of e, made by printing and parsing it again (the printed form round-trips). */
static struct entry *copy_entry(const struct entry *e)
{
    size_t n = entry_text(e, NULL);
    char *text = malloc(n + 1);
    if (!text)
        return NULL;
    entry_text(e, text);
    struct entry *copy = parse_line(text, n);
    free(text);
    return copy;
}

XW_EXPORT void xw_xrm_database_combine(xw_xrm_database_t *src, xw_xrm_database_t **target, bool override)
{
    if (!target)
        return;
    if (!*target)
        *target = new_db();
    if (!src || !*target || src == *target)
        return;
    for (const struct entry *e = src->first; e; e = e->next) {
        struct entry *copy = copy_entry(e);
        if (copy)
            put_entry(*target, copy, override);
    }
}

XW_EXPORT void xw_xrm_database_put_resource_line(xw_xrm_database_t **database, const char *line)
{
    if (!database || !line)
        return;
    if (!*database)
        *database = new_db();
    if (*database)
        put_line(*database, line, strlen(line));
}

/* Writes value escaped (a leading blank, newlines and backslashes) into out, or
 * only counts when out is NULL; returns the length. */
static size_t escape(const char *value, char *out)
{
    size_t n = 0;
    if (value[0] == ' ' || value[0] == '\t') {
        if (out)
            out[n] = '\\';
        n++;
    }
    for (const char *p = value; *p; p++) {
        const char *rep = *p == '\n' ? "\\n" : *p == '\\' ? "\\\\" : NULL;
        if (out) {
            if (rep)
                memcpy(out + n, rep, 2);
            else
                out[n] = *p;
        }
        n += rep ? 2 : 1;
    }
    return n;
}

XW_EXPORT void xw_xrm_database_put_resource(xw_xrm_database_t **database, const char *resource, const char *value)
{
    if (!database || !resource || !value)
        return;
    size_t r = strlen(resource), v = escape(value, NULL);
    char *line = malloc(r + 2 + v + 1);
    if (!line)
        return;
    memcpy(line, resource, r);
    memcpy(line + r, ": ", 2);
    escape(value, line + r + 2);
    line[r + 2 + v] = '\0';
    xw_xrm_database_put_resource_line(database, line);
    free(line);
}

/* One entry's line (without the newline) into out, or only its length. */
static size_t entry_text(const struct entry *e, char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < e->ncomp; i++) {
        const struct comp *c = &e->comp[i];
        if (c->loose || i > 0) {
            if (out)
                out[n] = c->loose ? '*' : '.';
            n++;
        }
        const char *name = c->name ? c->name : "?";
        size_t len = strlen(name);
        if (out)
            memcpy(out + n, name, len);
        n += len;
    }
    if (out)
        memcpy(out + n, ": ", 2);
    n += 2;
    return n + escape(e->value, out ? out + n : NULL);
}

XW_EXPORT char *xw_xrm_database_to_string(xw_xrm_database_t *db)
{
    if (!db || !db->first)
        return NULL;
    size_t total = 1;
    for (struct entry *e = db->first; e; e = e->next)
        total += entry_text(e, NULL) + 1;
    char *out = malloc(total), *w = out;
    if (!out)
        return NULL;
    for (struct entry *e = db->first; e; e = e->next) {
        w += entry_text(e, w);
        *w++ = '\n';
    }
    *w = '\0';
    return out;
}

/* ---- queries: no allocation ---- */

/* A query split in place: each level's name (and class) as pointer and length. */
struct level {
    const char *name, *cls;
    uint16_t nlen, clen;
};

struct query {
    struct level lv[MAX_LEVELS];
    size_t n;
    int has_class;
};

/* Splits a fully qualified name ("a.b.c": names only, tight bindings; blanks and
 * empty components ignored) into the name (or class) side of q. Returns the number
 * of levels, or -1 when s does not parse or is too deep. */
static int split_query(const char *s, struct query *q, int cls)
{
    size_t n = 0;
    const char *p = s;
    while (*p) {
        if (*p == '.' || *p == ' ' || *p == '\t') {
            p++;
            continue;
        }
        const char *start = p;
        while (is_name_char(*p))
            p++;
        if (p == start || (*p && *p != '.' && *p != ' ' && *p != '\t') || n == MAX_LEVELS || p - start > UINT16_MAX)
            return -1;
        if (cls)
            q->lv[n].cls = start, q->lv[n].clen = (uint16_t)(p - start);
        else
            q->lv[n].name = start, q->lv[n].nlen = (uint16_t)(p - start);
        n++;
    }
    return n ? (int)n : -1;
}

static int word_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* The rank of component c at level l: 0 no match; else 2 * kind + tight, kind 3 for
 * the name, 2 the class, 1 '?' (precedence rules 2 and 3 of Xrm, in that order). */
static int rank_at(const struct comp *c, const struct level *l, int has_class)
{
    int kind = !c->name                                         ? 1
               : word_is(l->name, l->nlen, c->name)             ? 3
               : has_class && word_is(l->cls, l->clen, c->name) ? 2
                                                                : 0;
    return kind ? 2 * kind + !c->loose : 0;
}

/* Matches components j.. of e against levels i.. of q, the best way first: a level
 * the component matches outranks one a loose binding skips (rule 1), so trying the
 * match before the skip, level by level, finds the entry's best ranking. Writes
 * each level's rank (0: skipped) into rank[]. failed[] remembers (i, j) pairs that
 * cannot complete, so backtracking stays polynomial. */
static int match_from(const struct entry *e, const struct query *q, size_t i, size_t j, uint8_t *rank, uint64_t *failed)
{
    if (j == e->ncomp)
        return i == q->n;
    if (i == q->n || e->ncomp - j > q->n - i || (failed[i] >> j & 1))
        return 0;
    int r = rank_at(&e->comp[j], &q->lv[i], q->has_class);
    if (r && match_from(e, q, i + 1, j + 1, rank, failed)) {
        rank[i] = (uint8_t)r;
        return 1;
    }
    if (e->comp[j].loose && match_from(e, q, i + 1, j, rank, failed)) {
        rank[i] = 0;
        return 1;
    }
    failed[i] |= (uint64_t)1 << j;
    return 0;
}

/* The best entry for q: ranks compared level by level from the first. */
static const struct entry *lookup(const xw_xrm_database_t *db, const struct query *q)
{
    uint8_t best_rank[MAX_LEVELS], rank[MAX_LEVELS];
    const struct entry *best = NULL;
    for (const struct entry *e = db->first; e; e = e->next) {
        uint64_t failed[MAX_LEVELS] = {0};
        if (e->ncomp > q->n || !match_from(e, q, 0, 0, rank, failed))
            continue;
        if (!best || memcmp(rank, best_rank, q->n) > 0) {
            best = e;
            memcpy(best_rank, rank, q->n);
        }
    }
    return best;
}

XW_EXPORT int xw_xrm_resource_get_string_ref(xw_xrm_database_t *db, const char *res_name, const char *res_class,
                                             const char **out)
{
    struct query q;
    if (out)
        *out = NULL;
    if (!db || !out || !res_name || !db->first)
        return -1;
    int n = split_query(res_name, &q, 0);
    if (n < 0)
        return -1;
    q.n = (size_t)n;
    q.has_class = res_class && *res_class;
    if (q.has_class && split_query(res_class, &q, 1) != n)
        return -1;
    const struct entry *e = lookup(db, &q);
    if (!e)
        return -1;
    *out = e->value;
    return 0;
}

XW_EXPORT int xw_xrm_resource_get_string(xw_xrm_database_t *db, const char *res_name, const char *res_class, char **out)
{
    const char *v;
    if (out)
        *out = NULL;
    if (!out || xw_xrm_resource_get_string_ref(db, res_name, res_class, &v) < 0)
        return -1;
    *out = strdup(v);
    return *out ? 0 : -1;
}

/* A whole-string decimal long; 0 or -1. */
static int to_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || isspace((unsigned char)s[0]))
        return -1;
    *out = v;
    return 0;
}

XW_EXPORT int xw_xrm_resource_get_long(xw_xrm_database_t *db, const char *res_name, const char *res_class, long *out)
{
    const char *v;
    long tmp = LONG_MIN;
    if (!out)
        out = &tmp;
    *out = LONG_MIN;
    if (xw_xrm_resource_get_string_ref(db, res_name, res_class, &v) < 0)
        return -2;
    return to_long(v, out);
}

XW_EXPORT int xw_xrm_resource_get_bool(xw_xrm_database_t *db, const char *res_name, const char *res_class, bool *out)
{
    const char *v;
    long n;
    bool tmp;
    if (!out)
        out = &tmp;
    *out = false;
    if (xw_xrm_resource_get_string_ref(db, res_name, res_class, &v) < 0)
        return -2;
    if (to_long(v, &n) == 0) {
        *out = n != 0;
        return 0;
    }
    static const char *const yes[] = {"true", "on", "yes"}, *const no[] = {"false", "off", "no"};
    for (int i = 0; i < 3; i++) {
        if (!strcasecmp(v, yes[i])) {
            *out = true;
            return 0;
        }
        if (!strcasecmp(v, no[i]))
            return 0;
    }
    return -1;
}

/* ---- from the server and the environment ---- */

/* The whole RESOURCE_MANAGER property of root as a string (malloc'd), or NULL. Read
 * in 64 KiB pieces up to the size the first reply gives (value + bytes_after), so a
 * server that keeps promising more cannot keep us reading. */
static char *read_resource_manager(xw_connection_t *c, xw_window_t root)
{
    char *text = NULL;
    size_t len = 0, total = 0;
    for (uint32_t offset = 0;;) {
        xw_generic_error_t *err = NULL;
        xw_get_property_reply_t *r = xw_get_property_reply(
            c, xw_get_property(c, 0, root, XW_ATOM_RESOURCE_MANAGER, XW_ATOM_STRING, offset, 16384), &err);
        free(err);
        if (!r || r->type != XW_ATOM_STRING || r->format != 8) {
            free(r);
            free(text);
            return NULL;
        }
        size_t n = (size_t)xw_get_property_value_length(r);
        if (!text)
            total = n + r->bytes_after;
        if (n > total - len)
            n = total - len;
        char *bigger = realloc(text, len + n + 1);
        if (!bigger) {
            free(r);
            free(text);
            return NULL;
        }
        text = bigger;
        memcpy(text + len, xw_get_property_value(r), n);
        len += n;
        text[len] = '\0';
        free(r);
        if (len == total || n == 0 || n % 4)
            return text;
        offset += (uint32_t)(n / 4);
    }
}

XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_resource_manager(xw_connection_t *c, xw_screen_t *screen)
{
    if (!c || !screen)
        return NULL;
    char *text = read_resource_manager(c, screen->root);
    if (!text)
        return NULL;
    xw_xrm_database_t *db = xw_xrm_database_from_string(text);
    free(text);
    return db;
}

/* $HOME/name as a new database, or NULL. */
static xw_xrm_database_t *from_home(const char *name)
{
    const char *home = getenv("HOME");
    if (!home)
        return NULL;
    char *path = malloc(strlen(home) + 1 + strlen(name) + 1);
    if (!path)
        return NULL;
    sprintf(path, "%s/%s", home, name);
    xw_xrm_database_t *db = xw_xrm_database_from_file(path);
    free(path);
    return db;
}

XW_EXPORT xw_xrm_database_t *xw_xrm_database_from_default(xw_connection_t *c)
{
    xw_screen_t *screen = xw_aux_get_screen(c, 0);
    if (!screen)
        return NULL;
    xw_xrm_database_t *db = xw_xrm_database_from_resource_manager(c, screen);
    if (!db)
        db = from_home(".Xresources");
    if (!db)
        db = from_home(".Xdefaults");
    const char *env = getenv("XENVIRONMENT");
    xw_xrm_database_t *over = NULL;
    if (env) {
        over = xw_xrm_database_from_file(env);
    } else {
        char host[256 + 16] = ".Xdefaults-";
        if (gethostname(host + 11, sizeof(host) - 12) == 0) {
            host[sizeof(host) - 1] = '\0';
            over = from_home(host);
        }
    }
    if (over)
        xw_xrm_database_combine(over, &db, true);
    xw_xrm_database_free(over);
    return db;
}
