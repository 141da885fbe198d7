/* xwbench.h — what the benchmark driver, its servers and the per-library cases share. */
#ifndef XWBENCH_H
#define XWBENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

/* ---- the drain server's conventions (drain.c), relied on by the cases ---- */

/* A GetInputFocus reply from the drain server carries in its focus field how many
 * "counted" requests (NoOperation, ChangeWindowAttributes, ConfigureWindow, ChangeGC,
 * and whole IMAGE_H-row images sent by PutImage, however split) it has parsed on this
 * connection, so a case can prove every request arrived whole without trusting the
 * library under test. */
#define DRAIN_BIGREQ_OPCODE 133
/* InternAtom of this prefix followed by a decimal count makes the drain server
 * stream that many ClientMessage events right after the reply. */
#define DRAIN_EVENTS_PREFIX "XWBENCH_EVENTS:"
/* The drain server answers GetProperty of any atom >= DRAIN_FIRST_ATOM with this
 * many bytes of format-8 data (capped by long_length). */
#define DRAIN_FIRST_ATOM 1000u
#define DRAIN_PROPERTY_BYTES (1u << 20)
/* ClientMessage data the drain server streams, so receivers can check content. */
#define DRAIN_EVENT_MAGIC 0x78776265u

/* ---- servers (servers.c) ---- */

/* Xvfb, and the fake servers of drain.c: the same answers, different use of the
 * socket (see fake_io there). Every fake server keeps the drain's conventions above. */
enum server_kind { SERVER_XVFB, SERVER_DRAIN, SERVER_PER_READ, SERVER_PER_REPLY, SERVER_SMALL_BUF, SERVER_COUNT };

struct server {
    enum server_kind kind;
    int pid;          /* child process, 0 when not running */
    int display;      /* display number */
    char name[32];    /* ":N", what the libraries connect to */
    char lock[64];    /* fake servers only: lock file and socket we created */
    char sock[64];
};

int server_start_xvfb(struct server *s);
/* Forks the fake server of that kind (not SERVER_XVFB) on a free display number. */
int server_start_fake(struct server *s, enum server_kind kind);
void server_stop(struct server *s);
/* A fake server keeps the drain's conventions: counts in GetInputFocus, events on demand. */
static inline int server_is_fake(const struct server *s)
{
    return s->kind != SERVER_XVFB;
}
/* CPU seconds (user+sys) the server process has used so far, or -1. */
double server_cpu_seconds(const struct server *s);

/* A fake server's main loop over its listening sockets; runs in the forked child
 * and never returns. */
void drain_serve(enum server_kind kind, const int *listen_fds, int n_fds) __attribute__((noreturn));
/* Stops every server still running; safe from a signal handler and atexit. */
void servers_stop_all(void);
/* All len bytes written to / read from a blocking fd: 0, or -1 on EOF or an error
 * (servers.c). */
int fd_write_all(int fd, const void *buf, size_t len);
int fd_read_all(int fd, void *buf, size_t len);

/* ---- measurement (xwbench.c) ---- */

/* What a case measures around its timed part only: connecting, creating windows
 * and interning atoms stay outside. */
struct meter {
    struct timespec t0, t1;
    struct rusage r0, r1;
    uint64_t allocs0, allocs1;
    double server_cpu0, server_cpu1;
    const struct server *server;
};

void meter_start(struct meter *m);
void meter_stop(struct meter *m);

/* Heap calls are counted by the allocator the tests interpose too (tests/lib/alloc_count.h,
 * alloc_count_total: every thread's, UINT64_MAX when a sanitizer owns malloc). */

/* ---- cases ---- */

/* One run of one case for one library against one server. Returns the number of
 * results the case could confirm (replies, events, requests the drain server
 * counted), which the driver compares with what the case promises, or -1 after
 * printing why it failed. The case calls meter_start/meter_stop itself. */
struct target {
    const struct server *server;
    long n;                 /* operations to do in the timed part */
    long depth;             /* CASE_ATOM_DEPTH: requests sent before their replies are claimed */
};
typedef long (*case_fn)(const struct target *t, struct meter *m);

/* The shared 4 MiB image for PutImage, static so no case allocates it. */
#define IMAGE_W 1024
#define IMAGE_H 1024
extern uint32_t bench_image[IMAGE_W * IMAGE_H];

/* SendEvent batch against Xvfb: sent, flushed, then received. */
#define EVENT_BATCH 1000

/* Names for InternAtom cases: a fixed set cycled through, so Xvfb's atom table does
 * not grow without bound from run to run. */
#define ATOM_NAMES 1024
const char *atom_name(long i);
size_t atom_name_len(long i);

/* Per-library case tables: NULL where a library has no such case. */
enum case_id {
    CASE_NOOP,
    CASE_ATOM_PIPELINED,
    CASE_ATOM_SEQUENTIAL,
    CASE_PUTIMAGE,
    CASE_VALUE_LISTS,
    CASE_EVENTS,
    CASE_GETPROPERTY,
    CASE_ATOM_DEPTH, /* the pipeline-depth curve, not a row of the table */
    CASE_COUNT
};

struct library {
    const char *name;
    case_fn cases[CASE_COUNT];
    /* Set for the rows run in a child xwbench (shim.c): the library whose cases (and
     * binary code) it runs there; on_shim: with xwire's libxcb.so.1 under it. */
    const struct library *child_of;
    int on_shim;
    /* A second yardstick for the table besides libxcb, by name, or NULL. */
    const char *vs;
};

/* The cases a library has: its own, or for a child row those of the library it runs. */
static inline case_fn lib_case(const struct library *lib, enum case_id id)
{
    return lib->child_of ? lib->child_of->cases[id] : lib->cases[id];
}

extern const struct library lib_xcb, lib_xlib, lib_raw;
/* xwire in its default mode, in its single-threaded (lock-free) mode, and with its
 * zero-allocation receive paths. */
extern const struct library lib_xw, lib_xw_fast, lib_xw_zc;
/* xwire's senders on a libxcb connection (libxwire-xcb). */
extern const struct library lib_xw_xcb;
/* Xlib and libxcb's cases, unmodified, on xwire's libxcb.so.1, and Xlib's on
 * Debian's libxcb in a child too, the fair yardstick for a fresh process (shim.c). */
extern const struct library lib_xlib_xw, lib_xcb_xw, lib_xlib_child;

/* ---- the child rows (shim.c) ---- */

struct sample;
/* The build tree's libxcb/ when libxcb.so.1 is built there, else NULL. */
const char *shim_dir(void);
/* Whether this process's libxcb.so.1 is the shim (the child checks before a shim row's run). */
int shim_loaded(void);
/* Puts the shim first on this process's LD_LIBRARY_PATH (for a child about to exec): 0 or -1. */
int shim_setenv(void);
/* The driver runs on Debian's libxcb: when it finds itself on the shim (its directory
 * was on LD_LIBRARY_PATH, as meson puts it for a test that depends on the shim), it
 * re-executes with that directory taken off, so its libxcb rows and the Xvfb it
 * starts never load xwire's libxcb.so.1. Returns when nothing needs doing. */
void shim_leave(char **argv);
/* One run of case_name for lib (a child row) in a child xwbench against t->server,
 * named server_name; the child's sample in *out. Results confirmed, or -1. */
long shim_run(const struct library *lib, const char *case_name, const char *server_name, const struct target *t,
              struct sample *out);
/* The child's side: its results and sample as one line for shim_run. */
void shim_print_sample(FILE *f, long got, const struct sample *s);

/* ---- instruction counts (callgrind.c) ---- */

/* Runs one case once for one library against server s in a child xwbench under
 * callgrind, its out file kept in dir; instructions per operation, or -1. A shim
 * row's child runs with the shim on its library path. */
double callgrind_per_op(const char *case_name, const struct library *lib, const struct server *s, long n,
                        const char *dir);

/* ---- results (report.c) ---- */

#define MAX_RUNS 64

struct sample {
    double wall, cpu, server_cpu; /* seconds; server_cpu < 0 when unknown */
    double sys;                   /* the kernel's part of cpu */
    uint64_t allocs;              /* UINT64_MAX when not counted */
    long faults, switches;        /* page faults, context switches (getrusage) */
};

/* Every run of one case for one library against one server. */
struct series {
    const char *case_name;   /* short id, "noop" */
    char case_label[128];    /* for the table, "NoOperation ×10M + sync" */
    const char *server;      /* "Xvfb", "drain", "per-read"... */
    const char *server_note; /* what the server does, for headings: "" or " (...)" */
    const char *lib;
    const char *vs;      /* the library's second yardstick, or NULL */
    const char *unit;    /* rate unit, "req/s" */
    double units_per_op; /* rate units one operation stands for (MiB per PutImage) */
    long ops;            /* operations per run */
    int runs;
    int failed; /* a run did not confirm its results */
    long depth; /* a point of the pipeline-depth curve: its depth; 0 for the table */
    struct sample s[MAX_RUNS];
};

/* The table skips the depth curve's series; report_curve prints them as a matrix. */
void report_table(FILE *f, const struct series *v, int n);
void report_curve(FILE *f, const struct series *v, int n);
/* Writes results.csv (every sample), results.json (summaries), ratios.svg and
 * depth.svg (the pipeline-depth curve) into dir; context is a line saying where and when, for the JSON. */
int report_files(const char *dir, const struct series *v, int n, const char *context);

#endif
