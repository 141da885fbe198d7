/* SPDX-License-Identifier: MIT */
/* bench.h — what the driver, the servers and the per-library cases all speak of: servers,
 * cases, libraries and the figures of one run. Each subsystem's functions are in its own header. */
#ifndef XWBENCH_BENCH_H
#define XWBENCH_BENCH_H

#include <stdint.h>

/* Xvfb, and the fake servers of drain.c: the same answers, different use of the
 * socket (see fake_io there). Every fake server keeps the drain's conventions (drain.h). */
enum server_kind { SERVER_XVFB, SERVER_DRAIN, SERVER_PER_READ, SERVER_PER_REPLY, SERVER_SMALL_BUF, SERVER_COUNT };

struct server {
    enum server_kind kind;
    int pid;       /* child process, 0 when not running */
    int display;   /* display number */
    char name[32]; /* ":N", what the libraries connect to */
    char lock[64]; /* fake servers only: lock file and socket we created */
    char sock[64];
};

/* A fake server keeps the drain's conventions: counts in GetInputFocus, events on demand. */
static inline int server_is_fake(const struct server *s)
{
    return s->kind != SERVER_XVFB;
}

/* One run of one case for one library against one server. Returns the number of
 * results the case could confirm (replies, events, requests the drain server
 * counted), which the driver compares with what the case promises, or -1 after
 * printing why it failed. The case calls meter_start/meter_stop itself. */
struct target {
    const struct server *server;
    long n;     /* operations to do in the timed part */
    long depth; /* CASE_ATOM_DEPTH: requests sent before their replies are claimed */
};
struct meter;
typedef long (*case_fn)(const struct target *t, struct meter *m);

/* SendEvent batch against Xvfb: sent, flushed, then received. */
#define EVENT_BATCH 1000

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
    CASE_ATOM_THREADS2,
    CASE_ATOM_THREADS4,
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
/* No library: the heap's malloc(36)+free alone, the events case only. */
extern const struct library lib_malloc;

/* What one run measured (meter.c). */
struct sample {
    double wall, cpu, server_cpu; /* seconds; server_cpu < 0 when unknown */
    double sys;                   /* the kernel's part of cpu */
    uint64_t allocs;              /* UINT64_MAX when not counted */
    long faults, switches;        /* page faults, context switches (getrusage) */
};

#endif
