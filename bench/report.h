/* SPDX-License-Identifier: MIT */
/* report.h — the table, the depth curve and results/ from every run (report.c). */
#ifndef XWBENCH_REPORT_H
#define XWBENCH_REPORT_H

#include <stdio.h>
#include "bench.h"

#define MAX_RUNS 64

/* Every run of one case for one library against one server. */
struct series {
    const char *case_name;   /* short id, "noop" */
    char case_label[128];    /* for the table, "NoOperation ×10M + sync" */
    const char *server;      /* "Xvfb", "drain", "per-read"... */
    const char *server_note; /* what the server does, for headings: "" or " (...)" */
    const char *lib;
    const char *base;    /* the library every row is compared with: libxcb */
    const char *vs;      /* the library's second yardstick, or NULL */
    const char *floor;   /* the raw client, whose rate is the case's floor */
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
