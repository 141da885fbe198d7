/* SPDX-License-Identifier: MIT */
/* tally.h — per-request bookkeeping for the "other six" checks: every request of a
 * description is listed, each case compares bytes (or a server's verdict), and a request
 * counts as checked only when it had at least one case and none failed. */
#ifndef XW_XLIB_TALLY_H
#define XW_XLIB_TALLY_H

#include <stddef.h>
#include <stdint.h>

/* One request of one description, and what happened to it. */
struct req_mark {
    const char *ext;       /* "DBE", "XF86VidMode", ... */
    const char *name;      /* "SwapBuffers", as in the XML */
    int cases, failed;     /* cases run, cases failed */
    const char *exception; /* set when a case is a listed exception (reason) */
};

/* The oracle this executable uses ("Xlib", "Xvfb", "protocol"), printed with the counts. */
void tally_begin(const char *oracle, struct req_mark *marks, size_t n);

/* The mark for ext/name; aborts the run (a test bug) when the request is not listed. */
struct req_mark *tally_find(const char *ext, const char *name);

/* One case: pass (ok != 0) or fail, with a label printed on failure (and on pass
 * when verbose). Returns ok. */
int tally_case(struct req_mark *m, int ok, const char *what);

/* A check that belongs to no single request (an fd leak, a connection error). */
int tally_extra(int ok, const char *what);

/* Compares request bytes; prints both in hex and the first differing offset when they
 * differ. Returns 1 when identical. */
int tally_bytes(struct req_mark *m, const char *what, const uint8_t *want, size_t want_len, const uint8_t *got,
                size_t got_len);

/* A listed exception: the case ran, its outcome is documented rather than counted as a
 * failure (reason printed). */
void tally_exception(struct req_mark *m, const char *what, const char *reason);

/* Prints per-request lines, "checked N/M by ORACLE" and the last line "N passed, M failed".
 * Returns the process exit status (0 when nothing failed and every request was checked). */
int tally_end(void);

/* Hex dump of n bytes to stdout, 16 per line, with a prefix. */
void tally_hex(const char *prefix, const uint8_t *p, size_t n);

#endif
