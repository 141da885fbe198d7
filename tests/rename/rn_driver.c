/* SPDX-License-Identifier: MIT */
/* rn_driver.c — the rename test's judge: both builds of a program on fresh Xvfbs, outputs and xtrace logs compared */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fdcheck.h"

#include "xvfb.h"

/* Usage: rn_driver output|xtrace PROG_XCB PROG_XW
 *   output: each build on its own fresh Xvfb; stdout must be identical.
 *   xtrace: each build through xtrace to its own fresh Xvfb; stdout must be
 *           identical and the two decoded conversations equivalent.
 * Environment: XVFB and XTRACE name the tools (empty: look in PATH). Exit 77
 * when a tool is missing, 1 when a check fails. */

/* Each program takes well under a second; a hang costs this much per run. */
enum { RUN_TIMEOUT_S = 10, SKIP = 77 };

static int passed, failed;
static char workdir[256]; /* short, so every path built from it fits PATH_MAX */
static const char *xtrace_path;

static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s: ", ok ? "ok" : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (ok)
        passed++;
    else
        failed++;
    fflush(stdout);
}

/* ---- tools and child processes ---- */

/* The tool named by $env, else the first `name` in PATH; NULL if neither. The
 * result is static or from the environment (not to be freed). */
static const char *find_tool(const char *env, const char *name)
{
    static char found[2][PATH_MAX];
    static int slot;
    const char *v = getenv(env);
    if (v && *v)
        return access(v, X_OK) == 0 ? v : NULL;
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    char *buf = found[slot++ & 1];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, PATH_MAX, "%.*s/%s", (int)n, p, name);
        if (n && access(buf, X_OK) == 0)
            return buf;
        p += n + (p[n] == ':');
    }
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Runs argv with DISPLAY=display, stdout to out_path and stderr to err_path, in
 * its own process group so a timeout also kills whatever it started (xtrace's
 * client). Returns the exit status, 128+signal, or -1 on timeout/spawn failure. */
static int run_child(char *const argv[], const char *display, const char *out_path, const char *err_path)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0)
            _exit(126);
        dup2(out, 1);
        dup2(err, 2);
        close(out);
        close(err);
        setenv("DISPLAY", display, 1);
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* also from here, so the group exists before any kill */
    int status;
    for (long waited = 0; waited < RUN_TIMEOUT_S * 1000L; waited += 10) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (r < 0 && errno != EINTR)
            return -1;
        sleep_ms(10);
    }
    printf("timeout after %d s: %s (killed)\n", RUN_TIMEOUT_S, argv[0]);
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* ---- xtrace's listening display ---- */

/* xtrace has no -displayfd, so pick a display number no X server uses: high
 * enough that Xvfb -displayfd (which counts up from 0) will not reach it, and
 * claimed with an X-style lock file (O_EXCL) so parallel drivers never share
 * one. Returns the number or -1; release with fake_display_release(). */
static int fake_display_acquire(void)
{
    for (int i = 0; i < 200; i++) {
        int d = 3000 + (int)((getpid() * 7 + i * 13) % 3000);
        char sock[64], lock[64];
        struct stat st;
        snprintf(sock, sizeof(sock), "/tmp/.X11-unix/X%d", d);
        snprintf(lock, sizeof(lock), "/tmp/.X%d-lock", d);
        if (lstat(sock, &st) == 0)
            continue;
        int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL, 0444);
        if (fd < 0)
            continue;
        dprintf(fd, "%10d\n", (int)getpid());
        close(fd);
        return d;
    }
    return -1;
}

/* xtrace leaves its socket behind; remove it with our lock. */
static void fake_display_release(int d)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/.X11-unix/X%d", d);
    unlink(path);
    snprintf(path, sizeof(path), "/tmp/.X%d-lock", d);
    unlink(path);
}

/* ---- one run of one build ---- */

struct run {
    const char *tag; /* "xcb" or "xw" */
    int status;
    char out[PATH_MAX], err[PATH_MAX], trace[PATH_MAX];
};

/* Starts a fresh Xvfb, runs prog on it (through xtrace when traced) and stops
 * the server. Returns 0, or -1 if the harness itself failed. */
static int run_build(struct run *r, const char *prog, int traced)
{
    snprintf(r->out, sizeof(r->out), "%s/%s%s.out", workdir, r->tag, traced ? "-traced" : "");
    snprintf(r->err, sizeof(r->err), "%s/%s%s.err", workdir, r->tag, traced ? "-traced" : "");
    snprintf(r->trace, sizeof(r->trace), "%s/%s.trace", workdir, r->tag);
    struct xvfb x;
    if (xvfb_start(&x) < 0) {
        printf("cannot start Xvfb\n");
        return -1;
    }
    if (!traced) {
        char *argv[] = {(char *)prog, NULL};
        r->status = run_child(argv, x.name, r->out, r->err);
        xvfb_stop(&x);
        return 0;
    }
    int fake = fake_display_acquire();
    if (fake < 0) {
        printf("no free display for xtrace\n");
        xvfb_stop(&x);
        return -1;
    }
    char fake_name[32];
    snprintf(fake_name, sizeof(fake_name), ":%d", fake);
    /* -n: Xvfb has no authorization to copy. No -m: lists are decoded whole. */
    char *argv[] = {(char *)xtrace_path, "-n", "-d", x.name, "-D", fake_name, "-o", r->trace, "--", (char *)prog, NULL};
    r->status = run_child(argv, x.name, r->out, r->err);
    fake_display_release(fake);
    xvfb_stop(&x);
    return 0;
}

/* ---- text files as lines ---- */

struct lines {
    char **v;
    size_t n, cap;
};

static void lines_add(struct lines *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof(*l->v));
        if (!l->v)
            abort();
    }
    l->v[l->n++] = s;
}

static void lines_free(struct lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

/* Reads path into lines without their newlines. Returns 0 or -1. */
static int lines_read(struct lines *l, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            line[n - 1] = '\0';
        lines_add(l, strdup(line));
    }
    free(line);
    fclose(f);
    return 0;
}

/* Prints a line cut to a readable length. */
static void show_line(const char *label, size_t i, const char *s)
{
    printf("  %s[%zu]: %.300s%s\n", label, i, s ? s : "(missing)", s && strlen(s) > 300 ? " ..." : "");
}

static int same_text(const char *x, const char *y)
{
    return strcmp(x, y) == 0;
}

/* Compares two line lists with same(); on a difference prints the first one and
 * returns 0. */
static int lines_equal(const struct lines *a, const struct lines *b, int (*same)(const char *, const char *),
                       const char *la, const char *lb)
{
    size_t n = a->n > b->n ? a->n : b->n;
    for (size_t i = 0; i < n; i++) {
        const char *x = i < a->n ? a->v[i] : NULL;
        const char *y = i < b->n ? b->v[i] : NULL;
        if (x && y && same(x, y))
            continue;
        printf("first difference at line %zu (of %zu / %zu):\n", i + 1, a->n, b->n);
        show_line(la, i + 1, x);
        show_line(lb, i + 1, y);
        return 0;
    }
    return 1;
}

static void print_file(const char *label, const char *path)
{
    struct lines l = {0};
    if (lines_read(&l, path) == 0 && l.n) {
        printf("%s:\n", label);
        for (size_t i = 0; i < l.n && i < 20; i++)
            printf("  | %.300s\n", l.v[i]);
    }
    lines_free(&l);
}

/* The checks every mode makes: both builds ran cleanly and printed the same. */
static void compare_outputs(const struct run *a, const struct run *b, const char *how)
{
    check(a->status == 0, "libxcb build %s: exit status %d", how, a->status);
    if (a->status != 0)
        print_file("its stderr", a->err);
    check(b->status == 0, "xwire build %s: exit status %d", how, b->status);
    if (b->status != 0)
        print_file("its stderr", b->err);
    struct lines la = {0}, lb = {0};
    int ok = lines_read(&la, a->out) == 0 && lines_read(&lb, b->out) == 0;
    ok = ok && la.n > 0 && lines_equal(&la, &lb, same_text, "libxcb", "xwire");
    check(ok, "outputs %s identical (%zu lines)", how, la.n);
    lines_free(&la);
    lines_free(&lb);
}

/* ---- traces ----
 *
 * What xtrace 1.4 prints depends partly on timing, and the comparison must not:
 * - "Warning: Waiting for rest of package" and "still waiting for reply" follow
 *   how each library chunks its writes and when the server answers: dropped.
 * - A reply is decoded from whatever part of it xtrace has read so far (it only
 *   waits for the first 32 bytes), so the lists of a reply longer than 32 bytes
 *   may come out empty or cut: such replies are compared by name and length.
 *   Their values are the server's anyway; the programs' own output compares
 *   what each library decodes from them.
 * - "Warning: buffer filled!" means the next request is decoded from a full
 *   buffer, possibly only its start: that request (marked '~') is compared by
 *   length and name, and the warning is dropped.
 * Every other request is compared verbatim, length column included: that is
 * what catches a request of the wrong size, since xtrace itself says nothing
 * about trailing bytes (a MapWindow 8 bytes too long decodes without comment). */

/* A decoded conversation, split by direction because the interleaving of the
 * two directions depends on when each library flushes. */
struct trace {
    struct lines requests;   /* client -> server, minus the placement-free ones */
    struct lines responses;  /* replies, events and errors, likewise filtered */
    struct lines complaints; /* lines where xtrace says it could not parse */
    struct lines ext_names;  /* QueryExtension names, sorted */
    int syncs, setup_lines, partial;
};

/* Words xtrace uses when the bytes do not match its protocol description
 * (leftover bytes, unknown codes, unexpected replies, unsupported requests).
 * Capitalised "Unknown(0x0)" is a decoded enum value (Render's SubPixel), not a
 * complaint. */
static const char *const complaint_words[] = {
    "unexpected", "Warning", "UNKNOWN", "unknown", "UNSUPPORTED", "discard", "not divisible",
};

static int is_complaint(const char *s)
{
    for (size_t i = 0; i < sizeof(complaint_words) / sizeof(*complaint_words); i++)
        if (strstr(s, complaint_words[i]))
            return 1;
    return 0;
}

/* Rewrites the value of every key=value whose key contains "time" to "T":
 * server timestamps differ from run to run and between the two builds. */
static void blank_times(char *s)
{
    char *w = s;
    for (const char *r = s; *r;) {
        const char *eq = strchr(r, '=');
        if (!eq) {
            memmove(w, r, strlen(r) + 1);
            return;
        }
        const char *k = eq;
        while (k > r && (k[-1] == '-' || (k[-1] >= 'a' && k[-1] <= 'z')))
            k--;
        char key[64]; /* taken before the move below can overwrite it */
        snprintf(key, sizeof(key), "%.*s", (int)(eq - k), k);
        size_t keep = (size_t)(eq + 1 - r);
        memmove(w, r, keep);
        w += keep;
        r = eq + 1;
        if (strstr(key, "time")) {
            while (*r && *r != ' ' && *r != ',' && *r != '}' && *r != ';')
                r++;
            *w++ = 'T';
        }
    }
    *w = '\0';
}

/* "000:<:0012: 20: Request(..." -> "<: 20: Request(...", without sequence
 * numbers (they shift when one library sends an extra sync or extension query).
 * Returns NULL for lines outside the NNN:d: framing. */
static char *normalize(const char *line)
{
    if (strlen(line) < 6 || line[3] != ':' || (line[4] != '<' && line[4] != '>') || line[5] != ':')
        return NULL;
    const char *p = line + 4;
    char *s = malloc(strlen(line) + 2); /* room for the '~' mark */
    if (!s)
        abort();
    s[0] = p[0];
    s[1] = ':';
    p += 2;
    size_t hex = strspn(p, "0123456789abcdef");
    if (hex == 4 && p[4] == ':')
        p += 5;
    strcpy(s + 2, p);
    char *seq = strstr(s, ", seq=");
    if (seq)
        *seq = '\0';
    blank_times(s);
    return s;
}

/* Length of the part of a request or reply line that names it:
 * "<: 20: Request(98): QueryExtension", "<:  4: BIG-REQUESTS-Request(133,0): Enable",
 * ">:80: Reply to GetScreenResourcesCurrent". */
static size_t head_len(const char *s)
{
    const char *p = strstr(s, "Request(");
    if (p && (p = strstr(p, "): ")))
        return (size_t)(p + 3 - s) + strcspn(p + 3, " ");
    if ((p = strstr(s, "Reply to ")))
        return (size_t)(p + 9 - s) + strcspn(p + 9, ": ");
    return strlen(s);
}

static const char *request_name(const char *s, char *buf, size_t cap)
{
    const char *p = strstr(s, "Request(");
    p = p ? strstr(p, "): ") : NULL;
    if (!p)
        return "";
    p += 3;
    snprintf(buf, cap, "%.*s", (int)strcspn(p, " "), p);
    return buf;
}

/* Entries marked '~' were decoded from part of their bytes: compare those by
 * head (length and name) only. */
static int same_entry(const char *x, const char *y)
{
    if (x[0] != '~' && y[0] != '~')
        return strcmp(x, y) == 0;
    x += x[0] == '~';
    y += y[0] == '~';
    size_t n = head_len(x);
    return n == head_len(y) && strncmp(x, y, n) == 0;
}

/* Requests whose placement the issue lets differ: extension queries (and
 * BIG-REQUESTS' Enable, which is part of setting an extension up) and
 * GetInputFocus, the round trip libraries use to sync. */
static int placement_free(const char *name)
{
    return !strcmp(name, "QueryExtension") || !strcmp(name, "GetInputFocus") || !strcmp(name, "Enable");
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Marks s (normalized, owned) as decoded from partial bytes. */
static char *mark_partial(char *s)
{
    memmove(s + 1, s, strlen(s) + 1);
    s[0] = '~';
    return s;
}

/* Files one normalized line (takes ownership). *cut says the previous line was
 * "buffer filled!", so this request may be decoded from its first bytes only. */
static void trace_add(struct trace *t, char *s, int *cut)
{
    char name[64];
    if (s[0] == '<' && strstr(s, "Request(")) {
        request_name(s, name, sizeof(name));
        if (!strcmp(name, "QueryExtension")) {
            const char *q = strstr(s, "name=");
            lines_add(&t->ext_names, strdup(q ? q : s));
        }
        t->syncs += !strcmp(name, "GetInputFocus");
        if (!placement_free(name)) {
            t->partial += *cut;
            lines_add(&t->requests, *cut ? mark_partial(s) : s);
            *cut = 0;
            return;
        }
        *cut = 0;
    } else if (s[0] == '>' && strstr(s, "Reply to ")) {
        const char *p = strstr(s, "Reply to ") + 9;
        snprintf(name, sizeof(name), "%.*s", (int)strcspn(p, ": "), p);
        if (!placement_free(name)) {
            lines_add(&t->responses, atoi(s + 2) > 32 ? mark_partial(s) : s);
            return;
        }
    } else if (s[0] == '>' && !strstr(s, "Success, version is")) {
        lines_add(&t->responses, s); /* events and errors: always 32 whole bytes */
        return;
    } else {
        t->setup_lines++;
    }
    free(s);
}

/* Transport commentary that depends on timing, not on the bytes. */
static int is_chunking_note(const char *s)
{
    return strstr(s, "Warning: Waiting for rest of package") || strstr(s, "Warning: buffer filled!") ||
           strstr(s, "still waiting for reply to seq=");
}

static int trace_read(struct trace *t, const char *path)
{
    struct lines raw = {0};
    if (lines_read(&raw, path) < 0)
        return -1;
    int cut = 0;
    for (size_t i = 0; i < raw.n; i++) {
        char *s = normalize(raw.v[i]);
        if (!s) {
            lines_add(&t->complaints, strdup(raw.v[i])); /* not even framed */
            continue;
        }
        if (is_chunking_note(s)) {
            cut |= strstr(s, "buffer filled") != NULL;
            free(s);
            continue;
        }
        /* A partial decode can say anything about its missing tail. */
        if (is_complaint(s) && !cut && !(s[0] == '>' && strstr(s, "Reply to ") && atoi(s + 2) > 32))
            lines_add(&t->complaints, strdup(s));
        trace_add(t, s, &cut);
    }
    lines_free(&raw);
    if (t->ext_names.n) /* qsort takes no NULL array, even empty */
        qsort(t->ext_names.v, t->ext_names.n, sizeof(char *), by_string);
    return 0;
}

static void trace_free(struct trace *t)
{
    lines_free(&t->requests);
    lines_free(&t->responses);
    lines_free(&t->complaints);
    lines_free(&t->ext_names);
}

/* Complaints in xw that xcb does not also show (as a multiset: each xcb line
 * excuses one xw line). Prints them and returns how many. */
static int new_complaints(const struct trace *xcb, const struct trace *xw)
{
    char *used = calloc(xcb->complaints.n + 1, 1);
    int extra = 0;
    for (size_t i = 0; i < xw->complaints.n; i++) {
        size_t j = 0;
        while (j < xcb->complaints.n && (used[j] || strcmp(xcb->complaints.v[j], xw->complaints.v[i])))
            j++;
        if (j < xcb->complaints.n) {
            used[j] = 1;
            continue;
        }
        extra++;
        show_line("xwire-only complaint", i + 1, xw->complaints.v[i]);
    }
    free(used);
    return extra;
}

static void compare_traces(const struct run *a, const struct run *b)
{
    struct trace ta = {0}, tb = {0};
    if (trace_read(&ta, a->trace) < 0 || trace_read(&tb, b->trace) < 0) {
        check(0, "xtrace wrote both traces");
        return;
    }
    check(ta.setup_lines == 2 && tb.setup_lines == 2, "one connection setup in each trace (%d / %d lines)",
          ta.setup_lines, tb.setup_lines);
    check(ta.requests.n > 0 && lines_equal(&ta.requests, &tb.requests, same_entry, "libxcb", "xwire"),
          "same requests in the same order: %zu compared (%zu in xwire's trace; by length and name only: %d / %d)",
          ta.requests.n, tb.requests.n, ta.partial, tb.partial);
    check(ta.responses.n > 0 && lines_equal(&ta.responses, &tb.responses, same_entry, "libxcb", "xwire"),
          "same replies, events and errors in the same order: %zu compared", ta.responses.n);
    check(lines_equal(&ta.ext_names, &tb.ext_names, same_text, "libxcb", "xwire"),
          "same extensions queried: %zu (libxcb) / %zu (xwire); GetInputFocus syncs %d / %d", ta.ext_names.n,
          tb.ext_names.n, ta.syncs, tb.syncs);
    int extra = new_complaints(&ta, &tb);
    check(extra == 0, "xtrace anomalies only in xwire's trace: %d (libxcb's trace has %zu, xwire's %zu)", extra,
          ta.complaints.n, tb.complaints.n);
    for (size_t i = 0; i < ta.complaints.n && i < 5; i++)
        show_line("complaint in libxcb's trace", i + 1, ta.complaints.v[i]);
    trace_free(&ta);
    trace_free(&tb);
}

/* ---- main ---- */

static void remove_workdir(void)
{
    const char *names[] = {"xcb.out",       "xw.out",         "xcb.err",       "xw.err",    "xcb-traced.out",
                           "xw-traced.out", "xcb-traced.err", "xw-traced.err", "xcb.trace", "xw.trace"};
    char path[PATH_MAX];
    for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++) {
        snprintf(path, sizeof(path), "%s/%s", workdir, names[i]);
        unlink(path);
    }
    rmdir(workdir);
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "output") && strcmp(argv[1], "xtrace"))) {
        fprintf(stderr, "usage: %s output|xtrace PROG_XCB PROG_XW\n", argv[0]);
        return 2;
    }
    struct fdcheck fc;
    fdcheck_begin(&fc);
    int traced = !strcmp(argv[1], "xtrace");
    const char *xvfb = find_tool("XVFB", "Xvfb");
    xtrace_path = traced ? find_tool("XTRACE", "xtrace") : NULL;
    if (!xvfb || (traced && !xtrace_path)) {
        printf("skipped: %s not found\n0 passed, 0 failed\n", xvfb ? "xtrace" : "Xvfb");
        return SKIP;
    }
    setenv("XVFB", xvfb, 1); /* for xvfb_start() */
    const char *tmp = getenv("TMPDIR");
    snprintf(workdir, sizeof(workdir), "%s/rn_driver.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(workdir)) {
        perror("mkdtemp");
        return 1;
    }
    /* A fresh server per build: both clients then get the same resource-id base,
     * atoms and server state, so their output can be compared verbatim. */
    struct run a = {.tag = "xcb"}, b = {.tag = "xw"};
    if (run_build(&a, argv[2], traced) < 0 || run_build(&b, argv[3], traced) < 0) {
        check(0, "harness: could not start the servers");
    } else {
        compare_outputs(&a, &b, traced ? "through xtrace" : "on Xvfb");
        if (traced)
            compare_traces(&a, &b);
    }
    check(fdcheck_main_end(&fc, "rn_driver") == 0, "harness: no file descriptor left open");
    if (failed)
        printf("kept the outputs in %s\n", workdir);
    else
        remove_workdir();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
