/* SPDX-License-Identifier: MIT */
/* xwbench.c — the benchmark driver: starts Xvfb and the drain server, runs every case for every library
 * in alternation, checks each run's results, then prints the table and writes results/. */
#include "bench.h"
#include "callgrind.h"
#include "inputs.h"
#include "meter.h"
#include "report.h"
#include "servers.h"
#include "shim.h"

#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <xcb/xcb.h>

struct case_def {
    enum case_id id;
    const char *name;
    const char *label; /* printf format taking the count as a string */
    long n_full, n_quick;
    int ops_per_n; /* requests one unit of n stands for */
    double units_per_op;
    const char *unit;
    int xvfb_div;   /* Xvfb runs n / xvfb_div; 0: the case is for the drain server only */
    unsigned also;  /* fake servers besides the drain that run it (bits of enum server_kind) */
    int others_div; /* the other fake servers run n / server_div / this (0: 1): streamed events
                              cost ~0.1 µs of wall time apiece on the drain, ~10 µs on per-reply
                              (one write each), and the suite must stay near 3 minutes */
    int runs;       /* runs when --runs is not given; 0: DEFAULT_RUNS */
    int own_rows;   /* 1: only the libraries' own rows (no child rows on the shim) */
};

#define DEFAULT_RUNS 5

/* The fake servers that use the socket differently from the drain. */
#define OTHER_FAKES ((1u << SERVER_PER_READ) | (1u << SERVER_PER_REPLY) | (1u << SERVER_SMALL_BUF))

/* In order of importance, which is also the order of the table. */
static const struct case_def cases[] = {
    {CASE_NOOP, "noop", "NoOperation ×%s + GetInputFocus", 10000000, 200000, 1, 1, "req/s", 1, 0, 0, 0, 0},
    {CASE_ATOM_PIPELINED, "atom-pipelined", "InternAtom ×%s pipelined", 100000, 2000, 1, 1, "req/s", 1, OTHER_FAKES, 0,
     0, 0},
    {CASE_ATOM_SEQUENTIAL, "atom-sequential", "InternAtom ×%s sequential", 10000, 200, 1, 1, "req/s", 1, 0, 0, 0, 0},
    /* Nine runs: its rate is Xvfb's, whose spread on this shared machine is wide. */
    {CASE_PUTIMAGE, "putimage", "PutImage 1024×1024×32 ×%s", 200, 3, 1, 4, "MiB/s", 1, 0, 0, 9, 0},
    {CASE_VALUE_LISTS, "value-lists", "ChangeWindowAttributes+ConfigureWindow+ChangeGC ×%s", 100000, 1000, 3, 1,
     "req/s", 1, 0, 0, 0, 0},
    /* Streamed by the fake servers, each writing them as it writes replies; sent with
     * SendEvent to our own window on Xvfb. */
    {CASE_EVENTS, "events", "ClientMessage events ×%s (fake servers: streamed; Xvfb: SendEvent to self)", 1000000,
     20000, 1, 1, "ev/s", 10, OTHER_FAKES, 10, 0, 0},
    /* 250, and half that on the other fake servers: a fresh process's Xlib on libxcb
     * ("Xlib (child)") takes 6–9 ms a reply, small-buf ~2 ms for every library, and at
     * 1,000 on every server this case alone took 5 of the suite's 8 minutes. */
    {CASE_GETPROPERTY, "getproperty", "GetProperty 1 MiB ×%s", 250, 5, 1, 1, "MiB/s", 1, OTHER_FAKES, 2, 0, 0},
    /* Threads sharing one connection, each pipelining its share 256 at a time and
     * claiming its own replies: libxcb and xwire's default mode only (the
     * single-threaded mode forbids it); small counts, the suite stays near 3 minutes. */
    {CASE_ATOM_THREADS2, "atom-threads-2", "InternAtom ×%s, 2 threads on one connection", 40000, 1024, 1, 1, "req/s", 1,
     0, 0, 0, 1},
    {CASE_ATOM_THREADS4, "atom-threads-4", "InternAtom ×%s, 4 threads on one connection", 40000, 1024, 1, 1, "req/s", 1,
     0, 0, 0, 1},
};
#define N_CASES (int)(sizeof cases / sizeof cases[0])

/* The child rows (shim.c runs them): the same binary code as the Xlib and libxcb rows
 * (child_of's cases), run in a child xwbench, on the shim for the "on xwire" rows. Xlib
 * on xwire is compared with Xlib in a child of its own: in the driver, Xlib's 1 MiB
 * GetProperty replies reuse a heap earlier cases grew (0.5 page faults per reply), in a
 * fresh process each is a new mapping (480 faults per reply on libxcb). */
static const struct library lib_xlib_child = {.name = "Xlib (child)", .child_of = &lib_xlib, .vs = "Xlib"};
static const struct library lib_xlib_xw = {
    .name = "Xlib on xwire", .child_of = &lib_xlib, .on_shim = 1, .vs = "Xlib (child)"};
static const struct library lib_xcb_xw = {.name = "xcb_ on xwire", .child_of = &lib_xcb, .on_shim = 1, .vs = "xwire"};

/* Alternation order within a round, rotated every round so that no library always
 * goes first (after a pause, or on a freshly warmed server). */
static const struct library *const libraries[] = {&lib_xw,      &lib_xw_fast, &lib_xw_zc, &lib_xw_xcb,
                                                  &lib_xcb,     &lib_xcb_xw,  &lib_xlib,  &lib_xlib_child,
                                                  &lib_xlib_xw, &lib_raw,     &lib_malloc};
#define N_LIBS (int)(sizeof libraries / sizeof libraries[0])

struct options {
    int quick, runs, callgrind;
    int runs_given; /* --runs N: every case runs N times */
    const char *results, *only_case, *only_lib, *only_server;
    const char *one, *display; /* child mode (callgrind, child rows): one case against display */
    int server_pid, sample;    /* child mode: the server's pid (its CPU time), print the sample */
    int shim;                  /* child mode: refuse to run unless libxcb.so.1 is xwire's */
    const char *serve;         /* only run this server until killed (for strace, perf) */
    const char *pin;           /* "same" or "split": where the clients and the servers run */
    long count;
};

static struct server servers[SERVER_COUNT];
static const char *const server_names[SERVER_COUNT] = {"Xvfb", "drain", "per-read", "per-reply", "small-buf"};
/* Counts are divided by this on a server: one write per reply costs the client about
 * 1 µs per reply in the kernel (an skb each), for every library alike. */
static const int server_div[SERVER_COUNT] = {1, 1, 1, 4, 1};
/* What each server is, for the table's headings. */
static const char *const server_notes[SERVER_COUNT] = {"", "", " (one write per read of 64 KiB)",
                                                       " (one write per reply)", " (4 KiB socket buffers and reads)"};
static const long depths[] = {1, 16, 256, 4096, 65536, 1048576};
static const char *const depth_names[] = {"atom-depth-1",    "atom-depth-16",    "atom-depth-256",
                                          "atom-depth-4096", "atom-depth-65536", "atom-depth-1048576"};
#define N_DEPTHS (int)(sizeof depths / sizeof depths[0])
/* The libraries the curve compares (the table has the rest). */
static const struct library *const curve_libs[] = {&lib_xw, &lib_xw_zc, &lib_xcb};
#define N_CURVE_LIBS (int)(sizeof curve_libs / sizeof curve_libs[0])
static struct series all[N_CASES * SERVER_COUNT * N_LIBS + N_DEPTHS * SERVER_COUNT * N_CURVE_LIBS];
static int n_series;

/* ---- running ---- */

static void fmt_count(char *buf, size_t len, long n)
{
    if (n >= 1000000 && n % 1000000 == 0)
        snprintf(buf, len, "%ldM", n / 1000000);
    else if (n >= 1000 && n % 1000 == 0)
        snprintf(buf, len, "%ldk", n / 1000);
    else
        snprintf(buf, len, "%ld", n);
}

static struct series *new_series(const struct case_def *cd, long n, enum server_kind sk, const struct library *lib)
{
    struct series *s = &all[n_series++];
    char count[32];
    fmt_count(count, sizeof count, n);
    memset(s, 0, sizeof *s);
    s->case_name = cd->name;
    snprintf(s->case_label, sizeof s->case_label, cd->label, count);
    s->server = server_names[sk];
    s->server_note = server_notes[sk];
    s->lib = lib->name;
    s->vs = lib->vs;
    s->base = lib_xcb.name;
    s->floor = lib_raw.name;
    s->unit = cd->unit;
    s->units_per_op = cd->units_per_op;
    s->ops = n * cd->ops_per_n;
    return s;
}

/* A library that hangs (a lost reply, a deadlock) must not hang the suite: each run
 * gets RUN_TIMEOUT seconds, then the benchmark says which run it was and stops. */
#define RUN_TIMEOUT 60
static char current_run[160];

static void on_timeout(int sig)
{
    (void)sig;
    static const char msg[] = "\nxwbench: timed out: ";
    ssize_t r = write(2, msg, sizeof msg - 1);
    r += write(2, current_run, strlen(current_run));
    (void)r;
    servers_stop_all();
    _exit(3);
}

/* filter: one name, or several separated by commas (names have none). */
static int wanted(const char *filter, const char *name)
{
    size_t n = strlen(name);
    for (const char *f = filter; f; f = strchr(f, ',') ? strchr(f, ',') + 1 : NULL)
        if (!strncmp(f, name, n) && (f[n] == ',' || !f[n]))
            return 1;
    return !filter;
}

/* A shim row needs the shim built (-Dlibxcb, the default). */
static int usable(const struct library *lib, enum case_id id)
{
    return lib->name && lib_case(lib, id) && (!lib->on_shim || shim_dir());
}

/* One run of one library, in this process or a child row's in a child; a run that
 * cannot confirm all its results marks the series failed. */
static void run_one(struct series *s, const struct library *lib, enum case_id id, const struct target *t)
{
    struct meter m = {.server = t->server};
    struct sample sm;
    long got;
    snprintf(current_run, sizeof current_run, "%s vs %s, %s (more than %d s)\n", s->case_name, s->server, s->lib,
             RUN_TIMEOUT);
    alarm(RUN_TIMEOUT);
    if (lib->child_of) {
        got = shim_run(lib, s->case_name, s->server, t, &sm);
    } else {
        got = lib->cases[id](t, &m);
        sm = meter_sample(&m);
    }
    alarm(0);
    if (got != s->ops) {
        fprintf(stderr, "\nxwbench: %s vs %s, %s: confirmed %ld of %ld\n", s->case_name, s->server, s->lib, got,
                s->ops);
        s->failed = 1;
        return;
    }
    if (sm.server_cpu < 0) { /* every server here is a process whose pid we know */
        fprintf(stderr, "\nxwbench: %s vs %s, %s: the server's CPU time could not be read\n", s->case_name, s->server,
                s->lib);
        s->failed = 1;
        return;
    }
    s->s[s->runs++] = sm;
}

static void run_case(const struct case_def *cd, enum server_kind sk, const struct options *o)
{
    struct series *group[N_LIBS];
    const struct library *libs[N_LIBS];
    int k = 0;
    long n = o->quick ? cd->n_quick : cd->n_full;
    if (sk == SERVER_XVFB)
        n /= cd->xvfb_div;
    n /= server_div[sk];
    if ((OTHER_FAKES >> sk & 1) && cd->others_div && !o->quick)
        n /= cd->others_div;
    for (int i = 0; i < N_LIBS; i++)
        if (usable(libraries[i], cd->id) && wanted(o->only_lib, libraries[i]->name) &&
            !(cd->own_rows && libraries[i]->child_of)) {
            libs[k] = libraries[i];
            group[k++] = new_series(cd, n, sk, libraries[i]);
        }
    if (k == 0)
        return;
    fprintf(stderr, "xwbench: %s — vs %s ", group[0]->case_label, server_names[sk]);
    struct target t = {.server = &servers[sk], .n = n};
    int runs = o->runs_given || o->quick || !cd->runs ? o->runs : cd->runs;
    for (int r = 0; r < runs; r++) {
        for (int j = 0; j < k; j++) {
            int i = (j + r) % k;
            run_one(group[i], libs[i], cd->id, &t);
        }
        fputc('.', stderr);
    }
    fputc('\n', stderr);
}

static const struct library *find_lib(const char *name)
{
    for (int i = 0; i < N_LIBS; i++)
        if (libraries[i]->name && name && !strcmp(libraries[i]->name, name))
            return libraries[i];
    return NULL;
}

static int runs_on(const struct case_def *cd, enum server_kind sk)
{
    return sk == SERVER_DRAIN || (sk == SERVER_XVFB && cd->xvfb_div) || (cd->also >> sk & 1);
}

/* ---- the pipeline-depth curve: client CPU per InternAtom against the number of
 * requests outstanding, on every fake server, for libxcb and xwire ---- */

#define CURVE_RUNS 3

/* Requests per run at a depth: at least 1024 batches below depth 256 (each a round
 * trip, tens of µs of waiting), 65536 requests from there on. */
static long curve_count(long depth, int quick)
{
    if (quick) /* a behaviour check: the million-deep point does one batch of 65536 */
        return depth < 64 ? 64 : depth > 65536 ? 65536 : depth;
    return depth < 256 ? depth * 1024 : depth < 65536 ? 65536 : depth;
}

/* A curve point's count on server sk: a slow server does fewer, but at least one whole
 * batch, so the depth the curve names is the depth it measured. */
static long curve_n(const struct case_def *cd, int sk, long depth, int quick)
{
    long n = quick ? cd->n_quick : cd->n_full / server_div[sk];
    if (!quick && n < depth)
        n = depth;
    return n < cd->n_quick ? cd->n_quick : n;
}

static void run_curve(const struct options *o)
{
    for (int sk = SERVER_DRAIN; sk < SERVER_COUNT; sk++) {
        if (!servers[sk].pid)
            continue;
        fprintf(stderr, "xwbench: InternAtom depth curve — vs %s ", server_names[sk]);
        for (int d = 0; d < N_DEPTHS; d++) {
            const struct case_def cd = {CASE_ATOM_DEPTH,
                                        depth_names[d],
                                        "InternAtom, %s at a time",
                                        curve_count(depths[d], 0),
                                        curve_count(depths[d], 1),
                                        1,
                                        1,
                                        "req/s",
                                        0,
                                        0,
                                        0,
                                        0,
                                        0};
            char count[32];
            struct series *group[N_CURVE_LIBS];
            int k = 0;
            for (int i = 0; i < N_CURVE_LIBS; i++)
                if (wanted(o->only_lib, curve_libs[i]->name)) {
                    group[k] =
                        new_series(&cd, curve_n(&cd, sk, depths[d], o->quick), (enum server_kind)sk, curve_libs[i]);
                    group[k]->depth = depths[d];
                    fmt_count(count, sizeof count, depths[d]);
                    snprintf(group[k++]->case_label, sizeof group[0]->case_label, cd.label, count);
                }
            struct target t = {.server = &servers[sk], .n = curve_n(&cd, sk, depths[d], o->quick), .depth = depths[d]};
            int runs = o->runs < CURVE_RUNS ? o->runs : CURVE_RUNS;
            /* a slow server's count raised to a whole batch (per-reply, a µs per reply in
             * the kernel) runs once, or its million-deep point alone would take 20 s */
            if (t.n > cd.n_full / server_div[sk])
                runs = 1;
            for (int r = 0; r < runs; r++)
                for (int j = 0; j < k; j++) {
                    struct series *g = group[(j + r) % k];
                    const struct library *lib = find_lib(g->lib);
                    run_one(g, lib, CASE_ATOM_DEPTH, &t);
                }
            fputc('.', stderr);
        }
        fputc('\n', stderr);
    }
}

/* ---- instruction counts ---- */

static const struct case_def *find_case(const char *name)
{
    for (int i = 0; i < N_CASES; i++)
        if (!strcmp(cases[i].name, name))
            return &cases[i];
    return NULL;
}

/* With no --server, the setup's vendor says which kind display is: the fake servers
 * send "xwbench drain", anything else is a real server. Without it the events case
 * took Xvfb for a fake server and waited for a stream it never sends. */
static enum server_kind probe_server_kind(const char *display)
{
    enum server_kind k = SERVER_XVFB;
    xcb_connection_t *c = xcb_connect(display, NULL);
    if (!xcb_connection_has_error(c)) {
        const xcb_setup_t *s = xcb_get_setup(c);
        if (xcb_setup_vendor_length(s) >= 7 && !memcmp(xcb_setup_vendor(s), "xwbench", 7))
            k = SERVER_DRAIN;
    }
    xcb_disconnect(c);
    return k;
}

static enum server_kind server_kind_of(const char *name, const char *display)
{
    for (int k = 0; name && k < SERVER_COUNT; k++)
        if (!strcmp(name, server_names[k]))
            return (enum server_kind)k;
    return name ? SERVER_DRAIN : probe_server_kind(display);
}

/* The child (under callgrind, or a child row's): one run of one case against a
 * server the parent owns; with --sample its results and sample on stdout. */
static int run_single(const struct options *o)
{
    const struct case_def *cd = find_case(o->one);
    const struct library *lib = find_lib(o->only_lib);
    if (!cd || !lib || lib->child_of || !lib->cases[cd->id] || !o->display || o->count <= 0)
        return 2;
    if (o->shim && !shim_loaded()) {
        fprintf(stderr, "xwbench: --shim: libxcb.so.1 here is not the one in %s\n", shim_dir() ? shim_dir() : "-");
        return 2;
    }
    struct server s = {.kind = server_kind_of(o->only_server, o->display), .pid = o->server_pid};
    snprintf(s.name, sizeof s.name, "%s", o->display);
    struct target t = {.server = &s, .n = o->count};
    struct meter m = {.server = &s};
    signal(SIGPIPE, SIG_IGN);
    long got = lib->cases[cd->id](&t, &m);
    if (o->sample) {
        struct sample sm = meter_sample(&m);
        shim_print_sample(stdout, got, &sm);
    }
    return got == o->count * cd->ops_per_n ? 0 : 1;
}

/* Instructions per operation, each library, for the cases --case names (NoOperation and
 * pipelined InternAtom when it names none); counted before the table is printed, printed
 * after it. */
static struct instr_count {
    const char *case_name, *lib;
    double per_op;
} instructions[N_CASES * N_LIBS];
static int n_instructions;

static int counted_by_default(enum case_id id)
{
    return id == CASE_NOOP || id == CASE_ATOM_PIPELINED;
}

/* Operations a case runs under callgrind (about 50 times slower than natively): the two
 * default cases enough for the per-operation figure to settle, the others their --quick
 * count. */
static long callgrind_n(const struct case_def *cd, int quick)
{
    if (cd->id == CASE_NOOP)
        return quick ? 20000 : 1000000;
    if (cd->id == CASE_ATOM_PIPELINED)
        return quick ? 500 : 20000;
    return cd->n_quick;
}

/* One case for every library that has it, against the drain server. */
static void count_case(const struct case_def *cd, const struct options *o, const char *dir)
{
    long n = callgrind_n(cd, o->quick);
    for (int j = 0; j < N_LIBS; j++) {
        const struct library *lib = libraries[j];
        if (!usable(lib, cd->id) || !wanted(o->only_lib, lib->name) || (cd->own_rows && lib->child_of))
            continue;
        double ir = callgrind_per_op(cd->name, lib, &servers[SERVER_DRAIN], n, dir);
        instructions[n_instructions++] = (struct instr_count){cd->name, lib->name, ir < 0 ? -1 : ir / cd->ops_per_n};
        fputc('.', stderr);
    }
}

static void count_instructions(const struct options *o)
{
#ifndef XWBENCH_CALLGRIND
    /* Without the client requests callgrind would count the whole process. */
    (void)o;
    fprintf(stderr, "xwbench: built without valgrind/callgrind.h; --callgrind unavailable\n");
    instructions[n_instructions++] = (struct instr_count){"callgrind", "unavailable", -1};
    return;
#endif
    const char *dir = o->results ? o->results : "/tmp";
    mkdir(dir, 0755);
    fprintf(stderr, "xwbench: counting instructions under callgrind ");
    for (int i = 0; i < N_CASES; i++)
        if (o->only_case ? wanted(o->only_case, cases[i].name) : counted_by_default(cases[i].id))
            count_case(&cases[i], o, dir);
    fputc('\n', stderr);
}

static int print_instructions(void)
{
    int failed = 0;
    if (n_instructions)
        printf("\ninstructions per operation (callgrind, vs drain)\n");
    for (int i = 0; i < n_instructions; i++) {
        printf("  %-16s %-14s", instructions[i].case_name, instructions[i].lib);
        if (instructions[i].per_op < 0)
            printf(" failed\n"), failed = 1;
        else
            printf(" %.1f\n", instructions[i].per_op);
    }
    return failed;
}

/* ---- set-up ---- */

static void usage(FILE *f)
{
    fprintf(f, "usage: xwbench [--quick] [--runs N] [--results DIR] [--case NAME] [--lib NAME] [--server NAME]\n"
               "  --quick        every case at tiny counts, one run (a behaviour check, not a measurement)\n"
               "  --runs N       runs per case and library (default 5, putimage 9; 1 with --quick)\n"
               "  --results DIR  write results.csv, results.json and ratios.svg there\n"
               "  --case NAME    only this case:");
    for (int i = 0; i < N_CASES; i++)
        fprintf(f, " %s", cases[i].name);
    fprintf(f, "\n  --lib NAME     only this library (as the table names it), or several: NAME,NAME,...\n"
               "  --server NAME  only this server: Xvfb, drain, per-read, per-reply or small-buf\n"
               "  --callgrind    also count instructions per operation under valgrind (drain server), for\n"
               "                 the cases --case names, else for noop and atom-pipelined\n"
               "  --serve NAME   only start that fake server, print its display and wait (for strace, perf;\n"
               "                 then xwbench --one CASE --lib NAME --display :N --count N runs one case;\n"
               "                 --server NAME says which server that is (without it, the setup's vendor\n"
               "                 tells a fake server from a real one), --server-pid N lets it read the\n"
               "                 server's CPU time, --sample prints the run's figures on stdout, --shim\n"
               "                 refuses to run unless libxcb.so.1 is xwire's)\n"
               "  --pin same|split  the clients (this process and its children) on CPU 0, the servers on\n"
               "                 CPU 0 too (same) or on CPU 1 (split). Unpinned, where the scheduler puts\n"
               "                 client and server decides much of a wakeup-bound row's figures\n"
               "  Rows \"Xlib on xwire\" and \"xcb_ on xwire\" run the Xlib and libxcb cases in a child\n"
               "  whose libxcb.so.1 is xwire's (the build tree's libxcb/), when it is built.\n");
}

static int parse_options(int argc, char **argv, struct options *o)
{
    static const struct option longs[] = {
        {"quick", no_argument, NULL, 'q'},
        {"runs", required_argument, NULL, 'r'},
        {"results", required_argument, NULL, 'o'},
        {"case", required_argument, NULL, 'c'},
        {"lib", required_argument, NULL, 'l'},
        {"server", required_argument, NULL, 's'},
        {"callgrind", no_argument, NULL, 'g'},
        {"one", required_argument, NULL, '1'},
        {"display", required_argument, NULL, 'd'},
        {"count", required_argument, NULL, 'n'},
        {"serve", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {"server-pid", required_argument, NULL, 'P'},
        {"sample", no_argument, NULL, 'm'},
        {"shim", no_argument, NULL, 'x'},
        {"pin", required_argument, NULL, 'p'},
        {0},
    };
    *o = (struct options){.runs = 0};
    int ch;
    while ((ch = getopt_long(argc, argv, "qr:o:c:l:s:gh", longs, NULL)) != -1) {
        switch (ch) {
        case 'q':
            o->quick = 1;
            break;
        case 'r':
            o->runs = atoi(optarg), o->runs_given = 1;
            break;
        case 'o':
            o->results = optarg;
            break;
        case 'c':
            o->only_case = optarg;
            break;
        case 'l':
            o->only_lib = optarg;
            break;
        case 's':
            o->only_server = optarg;
            break;
        case 'g':
            o->callgrind = 1;
            break;
        case '1':
            o->one = optarg;
            break;
        case 'd':
            o->display = optarg;
            break;
        case 'n':
            o->count = atol(optarg);
            break;
        case 'S':
            o->serve = optarg;
            break;
        case 'P':
            o->server_pid = atoi(optarg);
            break;
        case 'm':
            o->sample = 1;
            break;
        case 'x':
            o->shim = 1;
            break;
        case 'p':
            o->pin = optarg;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            usage(stderr);
            return -1;
        }
    }
    if (o->runs == 0)
        o->runs = o->quick ? 1 : DEFAULT_RUNS;
    if (o->runs < 1 || o->runs > MAX_RUNS || optind != argc ||
        (o->pin && strcmp(o->pin, "same") && strcmp(o->pin, "split"))) {
        usage(stderr);
        return -1;
    }
    return 0;
}

static void on_signal(int sig)
{
    servers_stop_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int start_servers(const struct options *o)
{
    signal(SIGPIPE, SIG_IGN); /* a server that goes away is an error return, not a death */
    /* Crashes too (a sanitizer's abort included): the servers and the drain server's
     * lock file and socket must not outlive us. */
    static const int fatal[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE};
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], on_signal);
    signal(SIGALRM, on_timeout);
    atexit(servers_stop_all);
    /* The fake servers first: they fork from a process that holds nothing else yet. */
    for (int k = SERVER_DRAIN; k < SERVER_COUNT; k++)
        if (wanted(o->only_server, server_names[k]) && server_start_fake(&servers[k], (enum server_kind)k) < 0)
            return -1;
    if (wanted(o->only_server, "Xvfb") && server_start_xvfb(&servers[SERVER_XVFB]) < 0)
        return -1;
    return 0;
}

/* --pin: every server on one CPU, then this process (and so every child it spawns
 * later) on CPU 0. "same" puts the servers on CPU 0 as well: a round trip is then
 * two context switches on one CPU, the same each run. "split" puts them on CPU 1,
 * each side on its own CPU, as an unpinned run often lands. */
static int pin_all(const char *how)
{
    int server_cpu = strcmp(how, "split") == 0;
    if (server_cpu >= sysconf(_SC_NPROCESSORS_ONLN)) {
        fprintf(stderr, "xwbench: --pin split needs two CPUs\n");
        return -1;
    }
    for (int k = 0; k < SERVER_COUNT; k++)
        if (servers[k].pid > 0 && server_pin(&servers[k], server_cpu) < 0) {
            fprintf(stderr, "xwbench: cannot pin the %s server to CPU %d\n", server_names[k], server_cpu);
            return -1;
        }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(0, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0) {
        perror("xwbench: sched_setaffinity");
        return -1;
    }
    return 0;
}

/* --serve: one fake server in the foreground of the investigation. */
static int serve_only(const char *name)
{
    for (int k = SERVER_DRAIN; k < SERVER_COUNT; k++) {
        if (strcmp(name, server_names[k]))
            continue;
        if (start_servers(&(struct options){.only_server = name}) < 0)
            return 1;
        printf("%s\n", servers[k].name);
        fflush(stdout);
        for (;;)
            pause(); /* until a signal stops us and the server with us */
    }
    fprintf(stderr, "xwbench: no fake server named %s\n", name);
    return 2;
}

static void context_line(char *buf, size_t len, const struct options *o)
{
    struct utsname u;
    uname(&u);
    time_t now = time(NULL);
    char when[32];
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(buf, len, "%s %s, %ld cores, %s, %d runs%s%s%s", u.sysname, u.release, sysconf(_SC_NPROCESSORS_ONLN), when,
             o->runs, o->quick ? ", quick" : "", o->pin ? ", pinned " : "", o->pin ? o->pin : "");
}

int main(int argc, char **argv)
{
    struct options o;
    if (parse_options(argc, argv, &o) < 0)
        return 2;
    if (!o.shim)
        shim_leave(argv);
    atom_names_init();
    if (o.one)
        return run_single(&o);
    bench_image_init();
    if (o.serve)
        return serve_only(o.serve);
    if (start_servers(&o) < 0 || (o.pin && pin_all(o.pin) < 0))
        return 1;
    for (int i = 0; i < N_CASES; i++) {
        if (!wanted(o.only_case, cases[i].name))
            continue;
        for (int sk = 0; sk < SERVER_COUNT; sk++)
            if (servers[sk].pid && runs_on(&cases[i], (enum server_kind)sk))
                run_case(&cases[i], (enum server_kind)sk, &o);
    }
    if (wanted(o.only_case, "atom-depth"))
        run_curve(&o);
    if (o.callgrind && servers[SERVER_DRAIN].pid)
        count_instructions(&o);
    servers_stop_all();
    report_table(stdout, all, n_series);
    report_curve(stdout, all, n_series);
    int failed = print_instructions();
    char context[256];
    context_line(context, sizeof context, &o);
    printf("\n%s\n", context);
    if (o.results && report_files(o.results, all, n_series, context) == 0)
        printf("results: %s/results.csv, results.json, ratios.svg, depth.svg\n", o.results);
    for (int i = 0; i < n_series; i++)
        failed |= all[i].failed;
    if (failed)
        fprintf(stderr, "xwbench: some runs did not confirm their results (see FAILED above)\n");
    return failed || n_series == 0;
}
