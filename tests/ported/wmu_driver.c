/* SPDX-License-Identifier: MIT */
/* wmu_driver.c — the wmutils/core port's judge: one tool's libxcb and xwire builds run
 * with the same arguments on fresh, identically prepared Xvfbs; their output, exit
 * status and the window state they leave (geometry, border, map state, stacking,
 * override-redirect, properties, focus, pointer) must be identical. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xcb/xcb.h>
#include <xcb/xtest.h>

#include "xvfb.h"

/* Usage: wmu_driver TOOL PROG_XCB PROG_XW. Exit 0 all identical, 1 a difference, 77
 * no Xvfb. Arguments in the cases below name the fixture's windows: $1..$4 top-level
 * (W1 with a child, W2 over part of W1, W3 override-redirect, W4 unmapped), $C the child, $R the root. */

enum { RUN_TIMEOUT_S = 10, SKIP = 77, NWIN = 5, OUT_MAX = 8192, DUMP_MAX = 16384 };

struct wcase {
    const char *tool, *args;
    int must_change; /* 1: the state after must differ from before (the tool did something) */
};

static const struct wcase cases[] = {
    {"lsw", "", 0},
    {"lsw", "-a", 0},
    {"lsw", "-o", 0},
    {"lsw", "-u", 0},
    {"lsw", "-r", 0},
    {"lsw", "$1", 0},
    {"lsw", "-a $R $1", 0},
    {"lsw", "0x00000001", 0},
    {"lsw", "-x", 0},
    {"wattr", "whxyb $1", 0},
    {"wattr", "i $1 $2", 0},
    {"wattr", "o $3", 0},
    {"wattr", "o $1", 0},
    {"wattr", "m $4", 0},
    {"wattr", "m $1", 0},
    {"wattr", "$1", 0},
    {"wattr", "0x00dead00", 0},
    {"wattr", "x 0x00dead00", 0},
    {"wattr", "z $1", 0},
    {"wattr", "-h", 0},
    {"pfw", "", 0},
    {"wtf", "$2", 1},
    {"wtf", "0", 0},
    {"wtp", "10 20 300 200 $1", 1},
    {"wtp", "1 2", 0},
    {"wmv", "5 -5 $1", 1},
    {"wmv", "-a 400 300 $2", 1},
    {"wmv", "-5000 0 $1", 1},
    {"wmv", "1 1 $R", 0},
    {"wrs", "10 20 $1", 1},
    {"wrs", "-a 500 400 $2", 1},
    {"wrs", "5000 5000 $1", 1},
    {"wmp", "", 0},
    {"wmp", "$1", 0},
    {"wmp", "100 120", 1},
    {"wmp", "-r 10 10", 1},
    {"chwb", "-s 5 -c ff0000 $1", 1},
    {"chwb", "-c 00ff00 $2 $3", 1},
    {"chwb", "-s 0 $1", 1},
    {"chwso", "-r $1", 1},
    {"chwso", "-l $3", 1},
    {"chwso", "-i $1", 1},
    {"chwso", "-x $1", 0},
    {"mapw", "-u $1", 1},
    {"mapw", "-m $4", 1},
    {"mapw", "-t $1 $4", 1},
    {"mapw", "", 0},
    {"killw", "$2", 1},
    {"killw", "-p $3", 1},
    {"killw", "0x00dead00", 0},
    {"ignw", "-s $1", 1},
    {"ignw", "-r $3", 1},
    {"atomx", "WM_NAME $1", 0},
    {"atomx", "XW_TEST=bar $1 $2", 1},
    {"atomx", "-d WM_NAME $1", 1},
    {"atomx", "XW_ABSENT $1", 0},
    {"pdw", "", 0},
    {"pdw", "$C", 0},
    {"pdw", "-h", 0},
    {"slw", "", 0},
};

static int passed, failed;

struct fixture {
    xcb_window_t root, win[NWIN]; /* W1..W4, then C (W1's child) */
};

/* ---- the fixture: windows owned by a client that has gone (RetainPermanent) ---- */

static void sync_conn(xcb_connection_t *c)
{
    free(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL));
}

static xcb_atom_t atom(xcb_connection_t *c, const char *name)
{
    xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(c, xcb_intern_atom(c, 0, (uint16_t)strlen(name), name), NULL);
    xcb_atom_t a = r ? r->atom : 0;
    free(r);
    return a;
}

static int prepare(const char *display, struct fixture *f)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(c))
        return -1;
    xcb_screen_t *s = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    f->root = s->root;
    static const int16_t geo[NWIN][5] = {
        {50, 60, 200, 150, 2}, {200, 100, 120, 80, 4}, {500, 400, 100, 100, 0},
        {20, 500, 60, 40, 1},  {10, 10, 30, 20, 0},
    };
    for (int i = 0; i < NWIN; i++) {
        f->win[i] = xcb_generate_id(c);
        uint32_t values[] = {s->white_pixel, s->black_pixel, i == 2};
        xcb_create_window(c, XCB_COPY_FROM_PARENT, f->win[i], i == 4 ? f->win[0] : s->root, geo[i][0], geo[i][1],
                          (uint16_t)geo[i][2], (uint16_t)geo[i][3], (uint16_t)geo[i][4], XCB_WINDOW_CLASS_INPUT_OUTPUT,
                          XCB_COPY_FROM_PARENT, XCB_CW_BACK_PIXEL | XCB_CW_BORDER_PIXEL | XCB_CW_OVERRIDE_REDIRECT,
                          values);
        if (i != 3)
            xcb_map_window(c, f->win[i]);
    }
    static const char name[] = "first window";
    xcb_change_property(c, XCB_PROP_MODE_REPLACE, f->win[0], XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8, sizeof(name) - 1,
                        name);
    atom(c, "XW_TEST"); /* interned before either run, so atom numbers match */
    xcb_set_input_focus(c, XCB_INPUT_FOCUS_POINTER_ROOT, f->win[0], XCB_CURRENT_TIME);
    xcb_warp_pointer(c, XCB_NONE, s->root, 0, 0, 0, 0, 70, 80);
    xcb_set_close_down_mode(c, XCB_CLOSE_DOWN_RETAIN_PERMANENT);
    sync_conn(c);
    xcb_disconnect(c);
    return 0;
}

/* ---- the state, printed as text ---- */

struct text {
    char *b;
    size_t n, cap;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->b + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->n = t->n + (size_t)n < t->cap ? t->n + (size_t)n : t->cap - 1;
}

static void dump_props(xcb_connection_t *c, xcb_window_t w, struct text *t)
{
    xcb_list_properties_reply_t *l = xcb_list_properties_reply(c, xcb_list_properties(c, w), NULL);
    if (!l)
        return;
    xcb_atom_t *atoms = xcb_list_properties_atoms(l);
    for (int i = 0; i < xcb_list_properties_atoms_length(l); i++) {
        xcb_get_property_reply_t *p =
            xcb_get_property_reply(c, xcb_get_property(c, 0, w, atoms[i], XCB_ATOM_ANY, 0, 1024), NULL);
        if (!p)
            continue;
        add(t, "  prop %u type %u format %u:", atoms[i], p->type, p->format);
        const uint8_t *v = xcb_get_property_value(p);
        for (int k = 0; k < xcb_get_property_value_length(p); k++)
            add(t, " %02x", v[k]);
        add(t, "\n");
        free(p);
    }
    free(l);
}

/* The border's colour: one root pixel on the window's top-left border corner. */
static void dump_border(xcb_connection_t *c, xcb_window_t root, const xcb_get_geometry_reply_t *g, struct text *t)
{
    xcb_translate_coordinates_reply_t *tr =
        xcb_translate_coordinates_reply(c, xcb_translate_coordinates(c, g->root, root, 0, 0), NULL);
    free(tr);
    if (!g->border_width)
        return;
    xcb_get_image_reply_t *im =
        xcb_get_image_reply(c, xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, root, g->x, g->y, 1, 1, 0xffffffffu), NULL);
    if (im && xcb_get_image_data_length(im) >= 4) {
        uint32_t px;
        memcpy(&px, xcb_get_image_data(im), 4);
        add(t, "  border pixel %06x\n", px & 0xffffff);
    }
    free(im);
}

static void dump(const char *display, const struct fixture *f, struct text *t)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (xcb_connection_has_error(c)) {
        add(t, "cannot connect\n");
        xcb_disconnect(c);
        return;
    }
    for (int i = 0; i < NWIN; i++) {
        xcb_window_t w = f->win[i];
        xcb_get_window_attributes_reply_t *a =
            xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, w), NULL);
        xcb_get_geometry_reply_t *g = xcb_get_geometry_reply(c, xcb_get_geometry(c, w), NULL);
        if (!a || !g) {
            add(t, "window %d: gone\n", i + 1);
        } else {
            add(t, "window %d: %dx%d+%d+%d border %u map_state %u override %u\n", i + 1, g->width, g->height, g->x,
                g->y, g->border_width, a->map_state, a->override_redirect);
            if (a->map_state == XCB_MAP_STATE_VIEWABLE && i < 4)
                dump_border(c, f->root, g, t);
            dump_props(c, w, t);
        }
        free(a);
        free(g);
    }
    xcb_query_tree_reply_t *q = xcb_query_tree_reply(c, xcb_query_tree(c, f->root), NULL);
    add(t, "stacking (bottom to top):");
    for (int i = 0; q && i < xcb_query_tree_children_length(q); i++)
        for (int k = 0; k < NWIN; k++)
            if (xcb_query_tree_children(q)[i] == f->win[k])
                add(t, " W%d", k + 1);
    add(t, "\n");
    free(q);
    xcb_get_input_focus_reply_t *fo = xcb_get_input_focus_reply(c, xcb_get_input_focus(c), NULL);
    xcb_query_pointer_reply_t *p = xcb_query_pointer_reply(c, xcb_query_pointer(c, f->root), NULL);
    add(t, "focus 0x%08x revert %u pointer %d,%d\n", fo ? fo->focus : 0, fo ? fo->revert_to : 0, p ? p->root_x : -1,
        p ? p->root_y : -1);
    free(fo);
    free(p);
    xcb_disconnect(c);
}

/* ---- running a tool ---- */

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* argv from the case's arguments with the fixture's windows put in (static storage). */
static char **make_argv(const char *tool, const char *args, const struct fixture *f)
{
    static char words[16][32];
    static char *argv[18];
    int n = 0;
    argv[n++] = (char *)tool; /* errx and usage print it: the same name for both builds */
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", args);
    for (char *save, *w = strtok_r(buf, " ", &save); w && n < 17; w = strtok_r(NULL, " ", &save)) {
        xcb_window_t id = 0;
        if (w[0] == '$')
            id = w[1] == 'R' ? f->root : w[1] == 'C' ? f->win[4] : f->win[w[1] - '1'];
        if (w[0] == '$')
            snprintf(words[n], sizeof(words[n]), "0x%08x", id);
        else
            snprintf(words[n], sizeof(words[n]), "%s", w);
        argv[n] = words[n];
        n++;
    }
    argv[n] = NULL;
    return argv;
}

static pid_t spawn(const char *prog, char **argv, const char *display, int out_fd, int err_fd)
{
    pid_t pid = fork();
    if (pid == 0) {
        setenv("DISPLAY", display, 1);
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        execv(prog, argv);
        _exit(127);
    }
    return pid;
}

/* Waits for pid at most RUN_TIMEOUT_S; its status, or -1 (killed) on a timeout. */
static int reap(pid_t pid)
{
    for (int waited = 0; waited < RUN_TIMEOUT_S * 100; waited++) {
        int st;
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        sleep_ms(10);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return -1;
}

/* slw waits for a click: once its grab is in place (it selects button events on the
 * root after grabbing), XTEST moves the pointer onto W2 and clicks. */
static void click_on(const char *display, const struct fixture *f)
{
    xcb_connection_t *c = xcb_connect(display, NULL);
    for (int i = 0; i < 500; i++) {
        xcb_get_window_attributes_reply_t *a =
            xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, f->root), NULL);
        int ready = a && (a->all_event_masks & XCB_EVENT_MASK_BUTTON_PRESS);
        free(a);
        if (ready)
            break;
        sleep_ms(10);
    }
    xcb_test_fake_input(c, XCB_MOTION_NOTIFY, 0, XCB_CURRENT_TIME, f->root, 300, 150, 0);
    xcb_test_fake_input(c, XCB_BUTTON_PRESS, 1, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    xcb_test_fake_input(c, XCB_BUTTON_RELEASE, 1, XCB_CURRENT_TIME, XCB_NONE, 0, 0, 0);
    sync_conn(c);
    xcb_disconnect(c);
}

static size_t slurp(int fd, char *buf, size_t cap)
{
    lseek(fd, 0, SEEK_SET);
    ssize_t n = read(fd, buf, cap - 1);
    buf[n > 0 ? n : 0] = '\0';
    return n > 0 ? (size_t)n : 0;
}

struct result {
    int status;
    char out[OUT_MAX], err[OUT_MAX], before[DUMP_MAX], after[DUMP_MAX];
};

static int run_one(const char *prog, const struct wcase *k, struct result *r)
{
    struct xvfb x;
    if (xvfb_start(&x) < 0)
        return -1;
    struct fixture f;
    if (prepare(x.name, &f) < 0) {
        xvfb_stop(&x);
        return -1;
    }
    struct text before = {r->before, 0, sizeof(r->before)}, after = {r->after, 0, sizeof(r->after)};
    dump(x.name, &f, &before);
    char out_path[] = "/tmp/wmu-out-XXXXXX", err_path[] = "/tmp/wmu-err-XXXXXX";
    int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
    unlink(out_path);
    unlink(err_path);
    pid_t pid = spawn(prog, make_argv(k->tool, k->args, &f), x.name, out_fd, err_fd);
    if (!strcmp(k->tool, "slw"))
        click_on(x.name, &f);
    r->status = reap(pid);
    slurp(out_fd, r->out, sizeof(r->out));
    slurp(err_fd, r->err, sizeof(r->err));
    close(out_fd);
    close(err_fd);
    dump(x.name, &f, &after);
    xvfb_stop(&x);
    return 0;
}

static void report(const char *what, const char *a, const char *b)
{
    printf("  %s, libxcb build:\n%s\n  %s, xwire build:\n%s\n", what, a, what, b);
}

static void run_case(const char *xcb_prog, const char *xw_prog, const struct wcase *k)
{
    static struct result a, b;
    if (run_one(xcb_prog, k, &a) < 0 || run_one(xw_prog, k, &b) < 0) {
        printf("FAIL %s %s: cannot start or prepare Xvfb\n", k->tool, k->args);
        failed++;
        return;
    }
    int same = a.status == b.status && !strcmp(a.out, b.out) && !strcmp(a.err, b.err) && !strcmp(a.after, b.after);
    int changed = strcmp(a.before, a.after) != 0;
    /* slw must have seen the click on W2 (it prints 0 for a click on no window) */
    int clicked = strcmp(k->tool, "slw") || strtoul(a.out, NULL, 16) != 0;
    int ok = same && (!k->must_change || changed) && a.status >= 0 && clicked;
    printf("%s %s %s: exit %d, %zu bytes out, %zu bytes err, state %s\n", ok ? "ok" : "FAIL", k->tool, k->args,
           a.status, strlen(a.out), strlen(a.err), changed ? "changed" : "unchanged");
    if (!ok) {
        printf("  exit: libxcb %d, xwire %d\n", a.status, b.status);
        report("stdout", a.out, b.out);
        report("stderr", a.err, b.err);
        report("state", a.after, b.after);
        failed++;
    } else {
        passed++;
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s TOOL PROG_XCB PROG_XW\n", argv[0]);
        return 2;
    }
    const char *xvfb = getenv("XVFB");
    if (xvfb && !*xvfb) {
        printf("SKIP: no Xvfb\n");
        return SKIP;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!strcmp(cases[i].tool, argv[1]))
            run_case(argv[2], argv[3], &cases[i]);
    printf("%s: %d identical, %d different\n", argv[1], passed, failed);
    return failed || !passed ? 1 : 0;
}
