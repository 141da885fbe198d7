/* SPDX-License-Identifier: MIT */
/* test_util_xrm.c — xw_xrm.h against xcb-util-xrm and Xlib's Xrm: the same lookups
 * (string, long, bool) for resource files with comments, continuation lines, escapes,
 * includes and wildcards, every query of a grid of names and classes; the same
 * to_string; Xlib as the judge where xcb-util-xrm departs from the Xrm rules (listed);
 * the RESOURCE_MANAGER property on Xvfb through xwire's own and a borrowed connection;
 * no allocation per query. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <X11/Xlib.h>
#include <X11/Xresource.h>
#include <xcb/xcb.h>
#include <xcb/xcb_xrm.h>

#include <xw/xw-xcb.h>
#include <xw/xw_aux.h>
#include <xw/xw_xrm.h>

#include "util_oracle.h"

#include "xwtest.h"

static xw_connection_t *c;
static xcb_connection_t *xc;
static char dir[64]; /* the test's resource files */

static void setup(void)
{
    util_oracle_setup(&xc);
    strcpy(dir, "/tmp/xw-xrm-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void rm(const char *name)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    unlink(path);
}

static void teardown(void)
{
    static const char *const files[] = {"main", "inc1", "sub/inc2", "sub/inc3", "loop", "plain", NULL};
    for (int i = 0; files[i]; i++)
        rm(files[i]);
    char sub[80];
    snprintf(sub, sizeof(sub), "%s/sub", dir);
    rmdir(sub);
    rmdir(dir);
    util_oracle_teardown(c, xc);
}

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (strchr(name, '/')) {
        char sub[80];
        snprintf(sub, sizeof(sub), "%s/sub", dir);
        mkdir(sub, 0700);
    }
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Resource files in the forms the rules describe; nothing here departs from Xrm in
 * xcb-util-xrm's parser (its departures are in `deviations` below). */
static const char main_text[] = "! a comment, then blank lines\n"
                                "\n"
                                "app.title: Main window\n"
                                "App.Title: class title\n"
                                "app*background: red\n"
                                "*background: grey\n"
                                "App*Background: blue\n"
                                "app.dialog.background: green\n"
                                "app.?.foreground: white\n"
                                "*?.border: 3\n"
                                "app*button.label: press\n"
                                "app.panel.button.label: panel press\n"
                                "App.Panel*Label: class label\n"
                                "*label: any label\n"
                                "  spaced . name  :   value with leading blanks dropped  \n"
                                "cont.line: first \\\n"
                                "second \\\n"
                                "third\n"
                                "esc.chars: a\\nb\\\\c\\101\\ d\\\td\\q\n"
                                "esc.lead: \\  leading space\n"
                                "num.pos: 42\n"
                                "num.neg: -7\n"
                                "num.plus: +5\n"
                                "num.zero: 0\n"
                                "num.hex: 0x10\n"
                                "num.space: 12 \n"
                                "num.big: 99999999999999999999\n"
                                "bool.yes: YES\n"
                                "bool.on: on\n"
                                "bool.true: True\n"
                                "bool.no: no\n"
                                "bool.off: OFF\n"
                                "bool.false: false\n"
                                "bool.other: maybe\n"
                                "bad line without colon\n"
                                "bad$name: skipped\n"
                                "trailing.wild.?: skipped\n"
                                "#include \"inc1\"\n"
                                "# include sub/inc2\n"
                                "app.title: replaced later\n"
                                "app.title: Main window again\n"
                                "x.y.z: xyz\n"
                                "x*z: x-star-z\n"
                                "?.y.z: wild-y-z\n"
                                "*y*z: star-y-star-z\n";
static const char inc1_text[] = "inc.one: from inc1\napp.dialog.background: from inc1\n";
static const char inc2_text[] = "inc.two: from inc2\n#include \"inc3\"\n";
static const char inc3_text[] = "inc.three: from sub/inc3, relative to its includer\n";

/* xwire's and xcb-util-xrm's answers for one query, all three getters. */
struct answer {
    int rs, rl, rb;
    char *s;
    long l;
    bool b;
};

static void ask_xw(xw_xrm_database_t *db, const char *n, const char *k, struct answer *a)
{
    a->rs = xw_xrm_resource_get_string(db, n, k, &a->s);
    a->rl = xw_xrm_resource_get_long(db, n, k, &a->l);
    a->rb = xw_xrm_resource_get_bool(db, n, k, &a->b);
}

static void ask_xcb(xcb_xrm_database_t *db, const char *n, const char *k, struct answer *a)
{
    a->rs = xcb_xrm_resource_get_string(db, n, k, &a->s);
    a->rl = xcb_xrm_resource_get_long(db, n, k, &a->l);
    a->rb = xcb_xrm_resource_get_bool(db, n, k, &a->b);
}

static int same_answer(const struct answer *a, const struct answer *b)
{
    return (a->rs < 0) == (b->rs < 0) && (!a->s) == (!b->s) && (!a->s || !strcmp(a->s, b->s)) && a->rl == b->rl &&
           a->l == b->l && a->rb == b->rb && a->b == b->b;
}

/* Xlib's value for the query (class = name when none is given), or NULL. */
static const char *ask_xlib(XrmDatabase db, const char *n, const char *k)
{
    char *type;
    XrmValue v;
    if (!XrmGetResource(db, n, k && *k ? k : n, &type, &v))
        return NULL;
    return v.addr;
}

/* Names and classes walked as a grid: every sequence of 1 to 3 components over these
 * words and those of 4 that start with "app" or "dialog" (fewer: the Xvfb suites run
 * under valgrind), the class the capitalised name, or none. */
static const char *const words[] = {"app", "dialog", "panel", "button", "title",  "background", "label",
                                    "x",   "y",      "z",     "q",      "border", "foreground"};
#define NWORDS (sizeof(words) / sizeof(words[0]))

static void capitalise(char *s)
{
    for (char *p = s; *p; p++)
        if (p == s || p[-1] == '.')
            *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
}

struct tally {
    long queries, equal_xcb, equal_xlib, xcb_differs, xlib_differs;
};

/* One query against all three. Both libraries depart from the Xrm rules in places
 * (xcb-util-xrm's precedence; Xlib's tree search, which lets an entry's leading
 * tight component match a later level when loose entries share its table), so the
 * oracle is the pair: xwire must give xcb-util-xrm's whole answer (string, long,
 * bool and their returns) or Xlib's value, and each disagreement is counted and
 * shown; the departures test pins such cases to the rules by hand. */
static void check_query(xw_xrm_database_t *db, xcb_xrm_database_t *xdb, XrmDatabase ldb, const char *n, const char *k,
                        struct tally *t)
{
    struct answer a, b;
    ask_xw(db, n, k, &a);
    ask_xcb(xdb, n, k, &b);
    const char *want = ask_xlib(ldb, n, k);
    t->queries++;
    int eq_xcb = same_answer(&a, &b);
    int eq_xlib = (!want) == (!a.s) && (!want || !strcmp(want, a.s));
    if (!eq_xcb && !eq_xlib)
        ck_abort_msg("query %s / %s: xwire '%s', xcb-util-xrm '%s', Xlib '%s'", n, k ? k : "NULL", a.s ? a.s : "(none)",
                     b.s ? b.s : "(none)", want ? want : "(none)");
    t->equal_xcb += eq_xcb;
    t->equal_xlib += eq_xlib;
    long *shown = eq_xcb ? &t->xlib_differs : &t->xcb_differs;
    if (!(eq_xcb && eq_xlib) && (*shown)++ < 3)
        printf("xrm: %s / %s: xwire '%s' as %s; %s '%s'\n", n, k ? k : "NULL", a.s ? a.s : "(none)",
               eq_xcb ? "xcb-util-xrm" : "Xlib", eq_xcb ? "Xlib" : "xcb-util-xrm",
               eq_xcb ? (want ? want : "(none)") : (b.s ? b.s : "(none)"));
    free(a.s);
    free(b.s);
}

static void grid(xw_xrm_database_t *db, xcb_xrm_database_t *xdb, XrmDatabase ldb, struct tally *t)
{
    char name[256], cls[256];
    for (int depth = 1; depth <= 4; depth++) {
        size_t total = 1;
        for (int i = 0; i < depth; i++)
            total *= NWORDS;
        for (size_t idx = 0; idx < total; idx++) {
            if (depth == 4 && idx % NWORDS > 1)
                continue;
            size_t v = idx, len = 0;
            for (int i = 0; i < depth; i++, v /= NWORDS)
                len += (size_t)sprintf(name + len, "%s%s", i ? "." : "", words[v % NWORDS]);
            strcpy(cls, name);
            capitalise(cls);
            check_query(db, xdb, ldb, name, cls, t);
            if (depth <= 3)
                check_query(db, xdb, ldb, name, NULL, t);
        }
    }
    /* the values parsed from the file's special lines, all three getters */
    static const char *const named[] = {
        "spaced.name", "cont.line", "esc.chars",  "esc.lead",   "num.pos",         "num.neg", "num.plus",
        "num.zero",    "num.hex",   "num.space",  "num.big",    "bool.yes",        "bool.on", "bool.true",
        "bool.no",     "bool.off",  "bool.false", "bool.other", "bad.line",        "inc.one", "inc.two",
        "inc.three",   "x.y.z",     "q.y.z",      "a.b.y.c.z",  "trailing.wild.x", NULL};
    for (int i = 0; named[i]; i++)
        check_query(db, xdb, ldb, named[i], NULL, t);
}

static void write_corpus(void)
{
    write_file("main", main_text);
    write_file("inc1", inc1_text);
    write_file("sub/inc2", inc2_text);
    write_file("sub/inc3", inc3_text);
}

START_TEST(same_lookups_from_file)
{
    write_corpus();
    char path[128];
    snprintf(path, sizeof(path), "%s/main", dir);
    xw_xrm_database_t *db = xw_xrm_database_from_file(path);
    xcb_xrm_database_t *xdb = xcb_xrm_database_from_file(path);
    XrmInitialize();
    XrmDatabase ldb = XrmGetFileDatabase(path);
    ck_assert_ptr_nonnull(db);
    ck_assert_ptr_nonnull(ldb);
    struct tally t = {0};
    grid(db, xdb, ldb, &t);
    /* spot checks the rules fix, so a shared mistake of all three would show */
    const char *v;
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(db, "cont.line", NULL, &v), 0);
    ck_assert_str_eq(v, "first second third");
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(db, "esc.chars", NULL, &v), 0);
    ck_assert_str_eq(v, "a\nb\\cA d\td\\q");
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(db, "app.panel.button.label", "App.Panel.Button.Label", &v), 0);
    ck_assert_str_eq(v, "panel press");
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(db, "inc.three", NULL, &v), 0);
    ck_assert_str_eq(v, "from sub/inc3, relative to its includer");
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(db, "app.dialog.background", NULL, &v), 0);
    ck_assert_str_eq(v, "from inc1"); /* the include came later */
    /* the same text back, entry by entry */
    char *s = xw_xrm_database_to_string(db), *xs = xcb_xrm_database_to_string(xdb);
    ck_assert_str_eq(s, xs);
    printf("xrm file: %ld queries: %ld equal to xcb-util-xrm (string, long, bool), %ld to Xlib's value; "
           "%ld as Xlib only, %ld as xcb-util-xrm only; to_string %zu bytes equal\n",
           t.queries, t.equal_xcb, t.equal_xlib, t.xcb_differs, t.xlib_differs, strlen(s));
    /* and it parses back to the same database */
    xw_xrm_database_t *again = xw_xrm_database_from_string(s);
    char *s2 = xw_xrm_database_to_string(again);
    ck_assert_str_eq(s, s2);
    free(s);
    free(xs);
    free(s2);
    xw_xrm_database_free(again);
    xw_xrm_database_free(db);
    xcb_xrm_database_free(xdb);
    XrmDestroyDatabase(ldb);
}
END_TEST

/* Where the two libraries depart from the Xrm rules, the rules decide (worked out by
 * hand in `want`); each case is asserted to still differ from the library named. */
START_TEST(departures_follow_the_rules)
{
    static const struct {
        const char *db, *name, *cls, *want, *why;
        int xcb_differs, xlib_differs;
    } cases[] = {
        {"a: \n", "a", NULL, "", "an empty value is a value (xcb-util-xrm drops the line)", 1, 0},
        {"a.b:   \n", "a.b", NULL, "", "blanks only: an empty value", 1, 0},
        {"a*.c: loose\n", "a.b.c", NULL, "loose", "a binding run with '*' is loose (xcb-util-xrm: the last one)", 1, 0},
        {"App.Panel*Label: class label\n*label: any label\n*background: grey\n", "app.panel.label", "App.Panel.Label",
         "class label", "a class match at level 1 outranks a skipped level", 1, 0},
        {"app*background: red\n*background: grey\nApp*Background: blue\napp.dialog.background: green\n"
         "app.?.foreground: white\n*?.border: 3\nApp.Panel*Label: class label\n*label: any label\n",
         "dialog.app.app.background", "Dialog.App.App.Background", "grey",
         "a leading tight component matches level 1 only (Xlib's tree search finds app* at level 2)", 0, 1},
    };
    XrmInitialize();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        xw_xrm_database_t *db = xw_xrm_database_from_string(cases[i].db);
        xcb_xrm_database_t *xdb = xcb_xrm_database_from_string(cases[i].db);
        XrmDatabase ldb = XrmGetStringDatabase(cases[i].db);
        struct answer a, b;
        ask_xw(db, cases[i].name, cases[i].cls, &a);
        ask_xcb(xdb, cases[i].name, cases[i].cls, &b);
        const char *lib = ask_xlib(ldb, cases[i].name, cases[i].cls);
        ck_assert_msg(a.s && !strcmp(a.s, cases[i].want), "%s: xwire '%s'", cases[i].why, a.s ? a.s : "(none)");
        int xcb_same = b.s && !strcmp(b.s, cases[i].want), xlib_same = lib && !strcmp(lib, cases[i].want);
        if (cases[i].xcb_differs)
            ck_assert_msg(!xcb_same, "%s: xcb-util-xrm now agrees", cases[i].why);
        if (cases[i].xlib_differs)
            ck_assert_msg(!xlib_same, "%s: Xlib now agrees", cases[i].why);
        printf("xrm rule %zu: %s: xwire '%s', xcb-util-xrm '%s', Xlib '%s'\n", i + 1, cases[i].why, a.s,
               b.s ? b.s : "(none)", lib ? lib : "(none)");
        free(a.s);
        free(b.s);
        xw_xrm_database_free(db);
        xcb_xrm_database_free(xdb);
        XrmDestroyDatabase(ldb);
    }
}
END_TEST

/* put_resource, put_resource_line, combine with and without override: the same
 * database text and lookups as xcb-util-xrm's. */
START_TEST(same_edits)
{
    xw_xrm_database_t *db = NULL;
    xcb_xrm_database_t *xdb = NULL;
    static const char *const res[][2] = {
        {"a.b", "plain"},     {"*c", " leading blank"}, {"d.?.e", "new\nline"},
        {"f", "back\\slash"}, {"a.b", "replaced"},      {"g*h", "\tx"},
    };
    for (size_t i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
        xw_xrm_database_put_resource(&db, res[i][0], res[i][1]);
        xcb_xrm_database_put_resource(&xdb, res[i][0], res[i][1]);
    }
    static const char *const lines[] = {"i.j: line", "! comment: no", "#directive: no",
                                        "bad line",  "k*l:\\ x",      "i.j: again"};
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
        xw_xrm_database_put_resource_line(&db, lines[i]);
        xcb_xrm_database_put_resource_line(&xdb, lines[i]);
    }
    static const char src[] = "a.b: from source\nm.n: source only\n*c: source c\n";
    for (int override = 0; override <= 1; override++) {
        xw_xrm_database_t *from = xw_xrm_database_from_string(src);
        xcb_xrm_database_t *xfrom = xcb_xrm_database_from_string(src);
        xw_xrm_database_combine(from, &db, override);
        xcb_xrm_database_combine(xfrom, &xdb, override);
        char *s = xw_xrm_database_to_string(db), *xs = xcb_xrm_database_to_string(xdb);
        ck_assert_str_eq(s, xs);
        free(s);
        free(xs);
        /* the source is left whole, the caller's to free */
        s = xw_xrm_database_to_string(from), xs = xcb_xrm_database_to_string(xfrom);
        ck_assert_str_eq(s, xs);
        ck_assert_str_eq(s, src);
        free(s);
        free(xs);
        xw_xrm_database_free(from);
        xcb_xrm_database_free(xfrom);
    }
    static const char *const q[] = {"a.b", "z.c", "d.x.e", "f", "g.r.h", "i.j", "k.l", "m.n", NULL};
    for (int i = 0; q[i]; i++) {
        struct answer a, b;
        ask_xw(db, q[i], NULL, &a);
        ask_xcb(xdb, q[i], NULL, &b);
        ck_assert_msg(same_answer(&a, &b), "%s", q[i]);
        ck_assert_msg(a.s != NULL, "%s not found", q[i]);
        free(a.s);
        free(b.s);
    }
    /* a NULL target gets a new database; an empty one prints as NULL */
    xw_xrm_database_t *fresh = NULL;
    xw_xrm_database_combine(NULL, &fresh, true);
    ck_assert_ptr_nonnull(fresh);
    ck_assert_ptr_null(xw_xrm_database_to_string(fresh));
    const char *v = (const char *)1;
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(fresh, "a", NULL, &v), -1);
    ck_assert_ptr_null(v);
    xw_xrm_database_free(fresh);
    /* bad queries: wildcards, mismatched class, nothing */
    char *s = (char *)1;
    ck_assert_int_lt(xw_xrm_resource_get_string(db, "a*b", NULL, &s), 0);
    ck_assert_ptr_null(s);
    ck_assert_int_lt(xw_xrm_resource_get_string(db, "a.?", NULL, &s), 0);
    ck_assert_int_lt(xw_xrm_resource_get_string(db, "a.b", "A", &s), 0);
    ck_assert_int_lt(xw_xrm_resource_get_string(db, "", NULL, &s), 0);
    ck_assert_int_lt(xw_xrm_resource_get_string(NULL, "a.b", NULL, &s), 0);
    long l = 0;
    ck_assert_int_eq(xw_xrm_resource_get_long(db, "nothing", NULL, &l), -2);
    ck_assert_int_eq(l, LONG_MIN);
    xw_xrm_database_free(db);
    xcb_xrm_database_free(xdb);
    ck_assert_ptr_null(xw_xrm_database_from_file("/nonexistent/xw-xrm"));
    ck_assert_ptr_null(xw_xrm_database_from_string(NULL));
}
END_TEST

/* An include that includes itself stops at the nesting limit; unreadable includes
 * are skipped. */
START_TEST(include_loops_end)
{
    write_file("loop", "loop.a: 1\n#include \"loop\"\n#include \"missing\"\nloop.b: 2\n");
    char path[128];
    snprintf(path, sizeof(path), "%s/loop", dir);
    xw_xrm_database_t *db = xw_xrm_database_from_file(path);
    ck_assert_ptr_nonnull(db);
    const char *v;
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(db, "loop.b", NULL, &v), 0);
    ck_assert_str_eq(v, "2");
    xw_xrm_database_free(db);
}
END_TEST

/* The RESOURCE_MANAGER property (longer than one GetProperty's 64 KiB) on Xvfb,
 * through xwire's own connection and a borrowed one, and from_default. */
static void check_resource_manager(xw_connection_t *conn)
{
    size_t n = 0, cap = 72000; /* past one GetProperty of 16384 words */
    char *text = malloc(cap);
    for (int i = 0; n + 64 < cap - sizeof(main_text); i++)
        n += (size_t)sprintf(text + n, "res%d.value: %d\n", i, i * 7);
    memcpy(text + n, main_text, sizeof(main_text));
    n += sizeof(main_text) - 1;
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(xc)).data;
    ck_assert_ptr_null(
        xcb_request_check(xc, xcb_change_property_checked(xc, XCB_PROP_MODE_REPLACE, s->root, XCB_ATOM_RESOURCE_MANAGER,
                                                          XCB_ATOM_STRING, 8, (uint32_t)n, text)));
    xw_xrm_database_t *db = xw_xrm_database_from_resource_manager(conn, xw_aux_get_screen(conn, 0));
    xw_xrm_database_t *def = xw_xrm_database_from_default(conn);
    xw_xrm_database_t *direct = xw_xrm_database_from_string(text);
    ck_assert_ptr_nonnull(db);
    ck_assert_ptr_nonnull(def);
    char *a = xw_xrm_database_to_string(db), *b = xw_xrm_database_to_string(direct);
    ck_assert_str_eq(a, b);
    const char *v;
    ck_assert_int_eq(xw_xrm_resource_get_string_ref(def, "res3000.value", NULL, &v), 0);
    ck_assert_str_eq(v, "21000");
    /* xcb-util-xrm reads the same property */
    xcb_xrm_database_t *xdb = xcb_xrm_database_from_resource_manager(xc, s);
    char *x = xcb_xrm_database_to_string(xdb);
    ck_assert_str_eq(a, x);
    free(a);
    free(b);
    free(x);
    free(text);
    xcb_xrm_database_free(xdb);
    xw_xrm_database_free(db);
    xw_xrm_database_free(def);
    xw_xrm_database_free(direct);
    /* no property: NULL, as xcb-util-xrm */
    xcb_delete_property(xc, s->root, XCB_ATOM_RESOURCE_MANAGER);
    util_xcb_sync(xc);
    ck_assert_ptr_null(xw_xrm_database_from_resource_manager(conn, xw_aux_get_screen(conn, 0)));
    ck_assert_ptr_null(xcb_xrm_database_from_resource_manager(xc, s));
}

START_TEST(resource_manager_own_connection)
{
    check_resource_manager(c);
}
END_TEST

START_TEST(resource_manager_borrowed_connection)
{
    util_on_borrowed(check_resource_manager);
}
END_TEST

/* Queries allocate nothing (string_ref, long, bool); counted beside xcb-util-xrm's. */
START_TEST(no_allocation_per_query)
{
    xw_xrm_database_t *db = xw_xrm_database_from_string(main_text);
    xcb_xrm_database_t *xdb = xcb_xrm_database_from_string(main_text);
    const char *v;
    long l;
    bool b;
    char *s;
    unsigned long t = alloc_count_begin();
    for (int i = 0; i < 100; i++) {
        xw_xrm_resource_get_string_ref(db, "app.panel.button.label", "App.Panel.Button.Label", &v);
        xw_xrm_resource_get_long(db, "num.pos", NULL, &l);
        xw_xrm_resource_get_bool(db, "bool.yes", NULL, &b);
    }
    unsigned long ours = alloc_count_end(t);
    t = alloc_count_begin();
    free(s = NULL);
    xw_xrm_resource_get_string(db, "app.title", NULL, &s);
    free(s);
    unsigned long ours_string = alloc_count_end(t);
    t = alloc_count_begin();
    xcb_xrm_resource_get_string(xdb, "app.panel.button.label", "App.Panel.Button.Label", &s);
    free(s);
    unsigned long theirs_string = alloc_count_end(t);
    t = alloc_count_begin();
    xcb_xrm_resource_get_long(xdb, "num.pos", NULL, &l);
    unsigned long theirs_long = alloc_count_end(t);
    t = alloc_count_begin();
    xcb_xrm_resource_get_bool(xdb, "bool.yes", NULL, &b);
    unsigned long theirs_bool = alloc_count_end(t);
    printf("xrm allocations per query: xwire string_ref/long/bool %lu (300 queries), get_string %lu; "
           "xcb-util-xrm get_string %lu, get_long %lu, get_bool %lu\n",
           ours, ours_string, theirs_string, theirs_long, theirs_bool);
    if (util_counting_works()) {
        ck_assert_uint_eq(ours, 0);
        ck_assert_uint_eq(ours_string, 1);
    }
    xw_xrm_database_free(db);
    xcb_xrm_database_free(xdb);
}
END_TEST

int main(void)
{
    if (xvfb_missing("util_xrm"))
        return 77;
    Suite *s = xwtest_suite("util_xrm");
    TCase *tc = xvfb_tcase(
        s, &(struct xvfb_suite){.name = "util_xrm", .timeout = 300, .conn = &c, .setup = setup, .teardown = teardown});
    tcase_add_test(tc, same_lookups_from_file);
    tcase_add_test(tc, departures_follow_the_rules);
    tcase_add_test(tc, same_edits);
    tcase_add_test(tc, include_loops_end);
    tcase_add_test(tc, resource_manager_own_connection);
    tcase_add_test(tc, resource_manager_borrowed_connection);
    tcase_add_test(tc, no_allocation_per_query);
    return xwtest_run(s);
}
