/* SPDX-License-Identifier: MIT */
/* shim.h — the child rows: a case run in a child xwbench, on xwire's libxcb.so.1 or not (shim.c). */
#ifndef XWBENCH_SHIM_H
#define XWBENCH_SHIM_H

#include <stdio.h>
#include "bench.h"

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

#endif
