/* SPDX-License-Identifier: MIT */
/* tally.c — counts cases per request and prints the per-request verdicts and the summary. */
#include "tally.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *oracle_name;
static struct req_mark *all;
static size_t nall;
static int passed, failed, exceptions;

void tally_begin(const char *oracle, struct req_mark *marks, size_t n)
{
    oracle_name = oracle;
    all = marks;
    nall = n;
    setvbuf(stdout, NULL, _IOLBF, 0);
}

struct req_mark *tally_find(const char *ext, const char *name)
{
    for (size_t i = 0; i < nall; i++)
        if (!strcmp(all[i].ext, ext) && !strcmp(all[i].name, name))
            return &all[i];
    fprintf(stderr, "tally: request %s %s is not in the list (test bug)\n", ext, name);
    abort();
}

int tally_case(struct req_mark *m, int ok, const char *what)
{
    m->cases++;
    if (ok) {
        passed++;
        if (getenv("XW_TALLY_VERBOSE"))
            printf("ok    %s %s: %s\n", m->ext, m->name, what);
    } else {
        m->failed++;
        failed++;
        printf("FAIL  %s %s: %s\n", m->ext, m->name, what);
    }
    return ok;
}

int tally_extra(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL  %s\n", what);
    }
    return ok;
}

void tally_hex(const char *prefix, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i += 16) {
        printf("%s%04zx:", prefix, i);
        for (size_t j = i; j < n && j < i + 16; j++)
            printf(" %02x", p[j]);
        printf("\n");
    }
    if (n == 0)
        printf("%s(nothing)\n", prefix);
}

int tally_bytes(struct req_mark *m, const char *what, const uint8_t *want, size_t want_len, const uint8_t *got,
                size_t got_len)
{
    int ok = want && got && want_len == got_len && !memcmp(want, got, want_len);
    tally_case(m, ok, what);
    if (!ok) {
        size_t at = 0;
        while (at < want_len && at < got_len && want[at] == got[at])
            at++;
        printf("      expected %zu bytes, xwire sent %zu; first difference at offset %zu\n", want_len, got_len, at);
        tally_hex("      expected ", want, want ? want_len : 0);
        tally_hex("      xwire    ", got, got ? got_len : 0);
    }
    return ok;
}

void tally_exception(struct req_mark *m, const char *what, const char *reason)
{
    m->cases++;
    m->exception = reason;
    exceptions++;
    printf("EXCEPTION %s %s: %s — %s\n", m->ext, m->name, what, reason);
}

int tally_end(void)
{
    size_t checked = 0, no_cases = 0;
    printf("\nPer request (oracle: %s):\n", oracle_name);
    for (size_t i = 0; i < nall; i++) {
        const struct req_mark *m = &all[i];
        const char *verdict = m->failed ? "FAILED" : m->cases ? "checked" : "NOT CHECKED";
        printf("  %-12s %-26s %-11s %d case%s%s\n", m->ext, m->name, verdict, m->cases, m->cases == 1 ? "" : "s",
               m->exception ? "; a listed exception (above)" : "");
        if (m->cases && !m->failed)
            checked++;
        if (!m->cases)
            no_cases++;
    }
    printf("checked by %s: %zu/%zu requests (%d listed exception%s)\n", oracle_name, checked, nall, exceptions,
           exceptions == 1 ? "" : "s");
    /* A request with no case at all counts as one failure: nothing is skipped silently. */
    printf("%d passed, %d failed\n", passed, failed + (int)no_cases);
    return failed || no_cases ? 1 : 0;
}
